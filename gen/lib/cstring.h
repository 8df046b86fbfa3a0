/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Text from inputs made safe in generated C: string literals and comments. */
#ifndef __TPGEN_CSTRING_H
#define __TPGEN_CSTRING_H

#include "lib/util.h"

/* A C string literal (with quotes) for arbitrary bytes; safe in any C context. */
void c_string(struct strbuf *sb, const char *s);
/* Text safe inside a C comment: no "*" "/" pair, no control characters. */
void c_comment_text(struct strbuf *sb, const char *s);

#endif /* __TPGEN_CSTRING_H */
