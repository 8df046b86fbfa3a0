// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Diagnostics of specs: an error at a line and column of the spec, the
 * source line with a caret under it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "input/spec.h"
#include "lib/util.h"

const char *attach_name(enum attach_kind a)
{
	switch (a) {
	case ATTACH_TRACEPOINT:
		return "tracepoint";
	case ATTACH_RAW_TP:
		return "raw_tp";
	case ATTACH_TP_BTF:
		return "tp_btf";
	default:
		return "unset";
	}
}

/* Byte offset in the source of character 'off' of a scalar's value. */
static size_t source_index(const struct spec *s, const struct spec_loc *loc, size_t off)
{
	size_t i = loc->index, n;

	switch (loc->style) {
	case SPEC_PLAIN:
		return loc->index + off;
	case SPEC_SINGLE:
		for (i++, n = 0; i < s->len && n < off; n++)
			i += s->text[i] == '\'' && i + 1 < s->len && s->text[i + 1] == '\'' ? 2 : 1;
		return i;
	case SPEC_DOUBLE:
		for (i++, n = 0; i < s->len && n < off; n++) {
			if (s->text[i] != '\\' || i + 1 >= s->len) {
				i++;
				continue;
			}
			switch (s->text[i + 1]) {
			case 'x':
				i += 4;
				break;
			case 'u':
				i += 6;
				break;
			case 'U':
				i += 10;
				break;
			default:
				i += 2;
			}
		}
		return i;
	default:
		return loc->index;
	}
}

static void spec_vdiag(const struct spec *s, const struct spec_loc *loc, size_t off, bool warning,
		       const char *fmt, va_list ap)
{
	size_t idx, start;
	int line = 1, col;
	char *msg;

	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	if (!loc || !loc->line) {
		if (warning)
			diag_warning(s->path, 0, 0, "%s", msg ? msg : fmt);
		else
			diag_error(s->path, 0, 0, "%s", msg ? msg : fmt);
		free(msg);
		return;
	}
	idx = source_index(s, loc, off);
	if (idx > s->len)
		idx = s->len;
	start = 0;
	for (size_t i = 0; i < idx; i++) {
		if (s->text[i] == '\n') {
			line++;
			start = i + 1;
		}
	}
	col = (int)(idx - start) + 1;
	if (warning)
		diag_warning(s->path, line, col, "%s", msg ? msg : fmt);
	else
		diag_error(s->path, line, col, "%s", msg ? msg : fmt);
	diag_caret(s->text + start, col);
	free(msg);
}

void spec_verror(const struct spec *s, const struct spec_loc *loc, size_t off, const char *fmt, va_list ap)
{
	spec_vdiag(s, loc, off, false, fmt, ap);
}

void spec_warning(const struct spec *s, const struct spec_loc *loc, size_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	spec_vdiag(s, loc, off, true, fmt, ap);
	va_end(ap);
}

void spec_error(const struct spec *s, const struct spec_loc *loc, size_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	spec_verror(s, loc, off, fmt, ap);
	va_end(ap);
}
