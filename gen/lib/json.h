/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Minimal JSON writing into a strbuf. */
#ifndef __TPGEN_JSON_H
#define __TPGEN_JSON_H

#include "lib/util.h"

/* Append s as a JSON string literal, quotes included. */
void json_str(struct strbuf *sb, const char *s);

#endif /* __TPGEN_JSON_H */
