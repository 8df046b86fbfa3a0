/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Text from inputs made safe for a terminal: diagnostics quote names with it. */
#ifndef __TPGEN_TERM_H
#define __TPGEN_TERM_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

/*
 * Append s[0..n) for a terminal: valid UTF-8 passes, C0 and C1 control
 * bytes (but tab, with 'tabs'), DEL and bytes of invalid UTF-8 become \n,
 * \t, \r, \e or \xNN.
 */
void term_quote(struct strbuf *sb, const char *s, size_t n, bool tabs);

#endif /* __TPGEN_TERM_H */
