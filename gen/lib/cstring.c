// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Text from inputs made safe in generated C: string literals and comments. */
#include "lib/cstring.h"

void c_string(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	sb_putc(sb, '"');
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_printf(sb, "\\%c", *p);
		else if (*p == '?')
			sb_puts(sb, "\\?");	/* no trigraphs */
		else if (*p == '\n')
			sb_puts(sb, "\\n");
		else if (*p == '\t')
			sb_puts(sb, "\\t");
		else if (*p < 0x20 || *p >= 0x7f)
			sb_printf(sb, "\\%03o", *p);
		else
			sb_putc(sb, *p);
	}
	sb_putc(sb, '"');
}

void c_comment_text(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++) {
		if (*p == '*' && p[1] == '/')
			sb_puts(sb, "* ");
		else if (*p == '/' && p[1] == '*')
			sb_puts(sb, "/ ");
		else if (*p < 0x20 || *p == 0x7f)
			sb_putc(sb, ' ');
		else
			sb_putc(sb, *p);
	}
}
