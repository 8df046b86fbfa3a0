// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Minimal JSON writing into a strbuf. */
#include "lib/json.h"

void json_str(struct strbuf *sb, const char *s)
{
	sb_putc(sb, '"');
	for (; s && *s; s++) {
		unsigned char c = *s;

		switch (c) {
		case '"':  sb_puts(sb, "\\\""); break;
		case '\\': sb_puts(sb, "\\\\"); break;
		case '\n': sb_puts(sb, "\\n"); break;
		case '\t': sb_puts(sb, "\\t"); break;
		case '\r': sb_puts(sb, "\\r"); break;
		default:
			if (c < 0x20)
				sb_printf(sb, "\\u%04x", c);
			else
				sb_putc(sb, c);
		}
	}
	sb_putc(sb, '"');
}
