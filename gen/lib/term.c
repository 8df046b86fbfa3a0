// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Text from inputs made safe for a terminal. See term.h. */
#include "lib/term.h"
#include "lib/util.h"

/* Length of the valid UTF-8 sequence of a printable character at p (at most n bytes), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len, i;
	unsigned int cp;

	if (p[0] < 0xc2 || p[0] > 0xf4)
		return 0;
	len = p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	cp = p[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp < 0xa0))
		return 0;	/* overlong, out of range, surrogate, C1 control */
	return len;
}

void term_quote(struct strbuf *sb, const char *s, size_t n, bool tabs)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		size_t run = 0, u;

		while (p + run < end && p[run] >= 0x20 && p[run] < 0x7f)
			run++;
		if (run) {
			sb_add(sb, (const char *)p, run);
			p += run;
			continue;
		}
		if (*p == '\t' && tabs) {
			sb_putc(sb, '\t');
			p++;
		} else if (*p >= 0x80 && (u = utf8_len(p, end - p))) {
			sb_add(sb, (const char *)p, u);
			p += u;
		} else {
			if (*p == '\n')
				sb_puts(sb, "\\n");
			else if (*p == '\t')
				sb_puts(sb, "\\t");
			else if (*p == '\r')
				sb_puts(sb, "\\r");
			else if (*p == 0x1b)
				sb_puts(sb, "\\e");
			else
				sb_printf(sb, "\\x%02x", *p);
			p++;
		}
	}
}

void term_text(struct strbuf *sb, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		size_t u = *p >= 0x80 ? utf8_len(p, end - p) : 0;

		if (u) {
			sb_add(sb, (const char *)p, u);
			p += u;
			continue;
		}
		if (*p == '\\')
			sb_puts(sb, "\\\\");
		else if (*p == '\t' || *p == '\n' || *p == '\r')
			sb_printf(sb, "\\%c", *p == '\t' ? 't' : *p == '\n' ? 'n' : 'r');
		else if (*p >= 0x20 && *p < 0x7f)
			sb_putc(sb, *p);
		else
			sb_printf(sb, "\\x%02x", *p);
		p++;
	}
}
