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

/*
 * Append s[0..n) as generated loaders print what a process or the kernel
 * chose: valid UTF-8 passes, a backslash is \\, tab, newline and carriage
 * return \t \n \r, other control bytes and bytes of invalid UTF-8 \xNN.
 * Unlike term_quote(), two strings never give one text.
 */
void term_text(struct strbuf *sb, const char *s, size_t n);

#endif /* __TPGEN_TERM_H */
