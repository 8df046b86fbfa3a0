// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tracefs format files -> model. Parses every "field:" line of a format
 * file and classifies each field once into the C type that tpgen emits (see
 * fieldtype.c), then checks the layout: offsets, overlaps, gaps, alignment,
 * the size of the fixed part of the record, and accessor names. The text is
 * checked first: no NUL or other binary byte (tracefs_check_text()).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/limits.h"
#include "input/fieldtype.h"
#include "lib/ident.h"
#include "model/model.h"
#include "lib/util.h"

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/*
 * strtol(s, end, 10) without the locale: blanks, a sign, decimal digits;
 * false when there are no digits or the value is past a long (ERANGE).
 */
static bool parse_long(const char *s, long *val, char **end)
{
	unsigned long v = 0, max = LONG_MAX;
	const char *p = s, *digits;
	bool neg = false;

	while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
		p++;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (neg)
		max++;		/* LONG_MIN's magnitude */
	for (digits = p; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = *p - '0';

		if (v > (max - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (p == digits)
		return false;
	*val = neg ? (long)(0 - v) : (long)v;
	*end = (char *)p;
	return true;
}

/* Parse "offset:8;" style "key:value;" into *val; returns the position after ';'. */
static char *parse_num_attr(char *p, const char *key, size_t klen, long *val, bool *ok)
{
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, key, klen) || p[klen] != ':') {
		*ok = false;
		return p;
	}
	p += klen + 1;
	if (!parse_long(p, val, &end) || *end != ';') {
		*ok = false;
		return p;
	}
	return end + 1;
}

/*
 * Split a declaration "unsigned long caller[8]" into type, name and array
 * text, in place; a pointer's type ("char *" of "char *name") is copied into
 * the arena (returns 1).
 */
static int split_decl(char *decl, char **type, char **name, char **array, struct arena *a)
{
	char *p = decl + strlen(decl), *name_end;

	*array = NULL;
	if (p > decl && p[-1] == ']') {
		char *open = strrchr(decl, '[');

		if (!open)
			return -EINVAL;
		p[-1] = '\0';
		*array = trim(open + 1);
		p = open;
		*p = '\0';
	}
	while (p > decl && (p[-1] == ' ' || p[-1] == '\t'))
		*--p = '\0';
	name_end = p;
	while (p > decl && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
		p--;
	if (p == name_end || isdigit((unsigned char)*p))
		return -EINVAL;
	*name = p;
	*type = decl;
	/* the type ends right before the name; keep a '*' glued to the name */
	if (p == decl)
		return -EINVAL;
	if (p[-1] == '*') {
		/* "char *name": type is "char *" */
		*type = arena_strndup(a, decl, p - decl);
		return 1;
	}
	p[-1] = '\0';
	*type = decl;
	return 0;
}

/* What a field declaration may hold: letters, digits and _ \t*[]()+-,<>. */
static const bool decl_byte[256] = {
	['0' ... '9'] = true, ['A' ... 'Z'] = true, ['a' ... 'z'] = true,
	['_'] = true, [' '] = true, ['\t'] = true, ['*'] = true, ['['] = true, [']'] = true,
	['('] = true, [')'] = true, ['+'] = true, ['-'] = true, [','] = true, ['<'] = true,
	['>'] = true, ['.'] = true,
};

/* One "field:" line (a copy, cut up here); its strings go into the arena. */
static int parse_field(const char *path, int lineno, char *line, struct tp_field *f, struct arena *a)
{
	char *p = line, *semi, *decl, *type, *name, *array, *q, *attrs;
	long off, size, sgn = 0;
	bool ok = true;
	int r;

	memset(f, 0, sizeof(*f));
	p = strstr(line, "field:");
	p += strlen("field:");
	semi = strchr(p, ';');
	if (!semi) {
		diag_error(path, lineno, (int)(p - line) + 1, "expected ';' after field declaration");
		return -EINVAL;
	}
	decl = p;
	attrs = semi + 1;
	*semi = '\0';
	if ((q = strstr(decl, "offset:"))) {
		diag_error(path, lineno, (int)(q - line) + 1,
			   "expected ';' between the field declaration and 'offset:'");
		return -EINVAL;
	}
	for (q = decl; *q; q++) {
		/* no quote, backslash, '/', '#': the text goes into comments and list output */
		if (!decl_byte[(unsigned char)*q]) {
			diag_error(path, lineno, (int)(q - line) + 1, "unexpected '%c' in a field declaration", *q);
			return -EINVAL;
		}
	}
	p = parse_num_attr(attrs, "offset", 6, &off, &ok);
	if (ok)
		p = parse_num_attr(p, "size", 4, &size, &ok);
	if (ok)
		p = parse_num_attr(p, "signed", 6, &sgn, &ok);
	if (!ok) {
		diag_error(path, lineno, (int)(p - line) + 1,
			   "expected 'offset:N; size:N; signed:N;' after field '%s'", trim(decl));
		return -EINVAL;
	}
	if (off < 0 || size < 0 || off >= TRACEFS_MAX_RECORD || off + size > TRACEFS_MAX_RECORD) {
		diag_error(path, lineno, 0, "field '%s' at offset %ld size %ld is outside a trace record (64 KiB)",
			   trim(decl), off, size);
		return -ERANGE;
	}
	if (sgn != 0 && sgn != 1) {
		diag_error(path, lineno, 0, "field '%s': 'signed' must be 0 or 1, not %ld", trim(decl), sgn);
		return -EINVAL;
	}
	decl = trim(decl);
	f->decl = arena_strdup(a, decl);
	r = split_decl(decl, &type, &name, &array, a);
	if (r < 0) {
		diag_error(path, lineno, 0, "cannot find a field name in '%s'", f->decl);
		return -EINVAL;
	}
	f->type = r == 1 ? trim(type) : arena_strdup(a, trim(type));
	if (ident_is_reserved(name)) {
		diag_error(path, lineno, 0, "field '%s': names starting with __tpgen are tpgen's own", name);
		return -EINVAL;
	}
	f->name = arena_strdup(a, name);
	f->array = array ? arena_strdup(a, array) : NULL;
	f->offset = off;
	f->size = size;
	f->is_signed = sgn;
	f->line = lineno;
	return ctype_classify(path, f, a);
}

void tp_event_clear(struct tp_event *ev)
{
	free(ev->fields);
	free(ev->struct_name);
	free(ev->core_class);
	arena_clear(&ev->strs);
	memset(ev, 0, sizeof(*ev));
}

static int field_off_cmp(const void *a, const void *b)
{
	const struct tp_field *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->line - y->line;	/* stable: file order */
}

/* Check the layout and compute the record's fixed size and alignment. */
static int check_layout(struct tp_event *ev)
{
	unsigned long long hash[TRACEFS_MAX_FIELDS];	/* of each name, compared before the names */
	unsigned int end = 0, align = 1, i;
	const struct tp_field *prev = NULL;

	/* in file order, which is by offset in every kernel's format files */
	for (i = 1; i < (unsigned int)ev->nr_fields; i++)
		if (field_off_cmp(&ev->fields[i - 1], &ev->fields[i]) > 0)
			break;
	if (i < (unsigned int)ev->nr_fields)
		qsort(ev->fields, ev->nr_fields, sizeof(*ev->fields), field_off_cmp);
	for (i = 0; i < (unsigned int)ev->nr_fields; i++) {
		struct tp_field *f = &ev->fields[i];
		unsigned int a = ctype_align(f);
		int j;

		hash[i] = fnv1a64(FNV1A64_INIT, f->name, strlen(f->name));
		if (f->offset < end) {
			diag_error(ev->path, f->line, 0,
				   "field '%s' at offset %u overlaps field '%s' (offset %u, size %u)",
				   f->name, f->offset, prev->name, prev->offset, prev->size);
			return -EINVAL;
		}
		for (j = 0; j < (int)i; j++) {
			if (hash[j] == hash[i] && !strcmp(ev->fields[j].name, f->name)) {
				diag_error(ev->path, f->line, 0, "duplicate field '%s'", f->name);
				return -EINVAL;
			}
		}
		if (f->offset % a)
			ev->packed = true;
		else if (a > align)
			align = a;
		if (f->offset + f->size > end)
			end = f->offset + f->size;
		prev = f;
	}
	ev->align = align;
	ev->size = (end + align - 1) / align * align;
	return 0;
}

int tracefs_parse_format(const char *path, const char *text, const char *sys,
			 const char *name, struct tp_event *ev)
{
	char *copy = xstrdup(text), *line, *next;
	bool in_format = false, common = true, seen_name = false;
	int lineno = 0, cap = 0, err = 0, lines = 1;
	size_t len, fmt_off = 0;	/* where the print fmt line starts, when the loop found it */

	memset(ev, 0, sizeof(*ev));
	/* the strings are about the text's size (a third more at most, live) */
	len = strlen(text);
	arena_reserve(&ev->strs, len + len / 2 + strlen(path) + 64);
	ev->sys = arena_strdup(&ev->strs, sys);
	ev->name = arena_strdup(&ev->strs, name);
	ev->path = arena_strdup(&ev->strs, path);
	ev->id = -1;
	ev->hash = fnv1a64(FNV1A64_INIT, text, len);
	for (next = memchr(text, '\n', len); next; next = memchr(next + 1, '\n', text + len - next - 1))
		lines++;
	for (line = copy; line && *line; line = next) {
		char *t;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		t = trim(line);
		if (!in_format) {
			if (!strncmp(t, "name:", 5)) {
				seen_name = true;
			} else if (!strncmp(t, "ID:", 3)) {
				char *end;
				long id;

				errno = 0;
				id = strtol(t + 3, &end, 10);
				if (errno || end == t + 3 || *trim(end) || id < 0 || id > 0xffff) {
					diag_error(path, lineno, 0, "bad event id '%s'", trim(t + 3));
					err = -EINVAL;
					break;
				}
				ev->id = id;
			} else if (!strcmp(t, "format:")) {
				in_format = true;
			} else if (*t) {
				diag_error(path, lineno, 1, "expected 'name:', 'ID:' or 'format:'");
				err = -EINVAL;
				break;
			}
			continue;
		}
		if (!*t) {
			if (ev->nr_fields)
				common = false;
			continue;
		}
		if (!strncmp(t, "print fmt:", 10)) {
			/* at a line's start: the first "\nprint fmt:" of the text (see below) */
			if (t == line && lineno > 1)
				fmt_off = line - copy;
			break;
		}
		if (strncmp(t, "field:", 6)) {
			diag_error(path, lineno, (int)(t - line) + 1, "expected 'field:' or 'print fmt:'");
			err = -EINVAL;
			break;
		}
		if (ev->nr_fields >= TRACEFS_MAX_FIELDS) {
			diag_error(path, lineno, 0, "more than %d fields", TRACEFS_MAX_FIELDS);
			err = -E2BIG;
			break;
		}
		if (ev->nr_fields == cap) {
			/* a field a line: as many as the file has lines, at first */
			cap = cap ? cap * 2 : lines < TRACEFS_MAX_FIELDS ? lines : TRACEFS_MAX_FIELDS;
			ev->fields = xrealloc(ev->fields, cap * sizeof(*ev->fields));
		}
		err = parse_field(path, lineno, line, &ev->fields[ev->nr_fields], &ev->strs);
		if (err)
			break;
		ev->fields[ev->nr_fields].common = common &&
			!strncmp(ev->fields[ev->nr_fields].name, "common_", 7);
		ev->nr_fields++;
	}
	free(copy);
	if (!err && (!seen_name || !in_format)) {
		diag_error(path, lineno ? lineno : 1, 0, "not a tracefs format file (no '%s' line)",
			   seen_name ? "format:" : "name:");
		err = -EINVAL;
	}
	if (!err && !ev->nr_fields) {
		diag_error(path, lineno, 0, "event has no fields");
		err = -EINVAL;
	}
	if (!err)
		err = check_layout(ev);
	if (!err) {
		/*
		 * Kept for names of numbers (model/decode.c): the file is never
		 * read twice. Every line before the one the loop stopped at was
		 * read as something else, so that one is the first.
		 */
		const char *fmt = fmt_off ? text + fmt_off - 1 : strstr(text, "\nprint fmt:");

		if (fmt_off) {
			ev->print_fmt_line = lineno;
		} else if (fmt) {
			ev->print_fmt_line = 1;
			for (const char *c = text; c <= fmt; c++)
				ev->print_fmt_line += *c == '\n';
		}
		if (fmt)
			ev->print_fmt = arena_strdup(&ev->strs, fmt + 1);
	}
	if (err)
		tp_event_clear(ev);
	return err;
}

/* 1: a byte find_bad_byte() looks at (a newline, or not text); 0: text */
static const unsigned char text_byte[256] = {
	[0x00 ... 0x08] = 1, [0x0a ... 0x0c] = 1, [0x0e ... 0x1f] = 1, [0x7f ... 0xff] = 1,
};

/* The first NUL or other control byte outside the print format, as line and column. */
static bool find_bad_byte(const char *text, size_t len, int *line, int *col, unsigned char *byte)
{
	const char *p = text, *bol = text, *end = text + len;

	*line = 1;
	for (; p < end; p++) {
		unsigned char c;

		/* eight bytes at a time while each is a tab or ' ' to '~' */
		while (end - p >= 8) {
			unsigned long long w, lo, t, ctl, tab, high;

			memcpy(&w, p, 8);
			lo = w & 0x7f7f7f7f7f7f7f7fULL;
			ctl = ~((lo + 0x6060606060606060ULL) | w) & 0x8080808080808080ULL;	/* < 0x20 */
			t = w ^ 0x0909090909090909ULL;
			tab = ~(((t & 0x7f7f7f7f7f7f7f7fULL) + 0x7f7f7f7f7f7f7f7fULL) | t) &
			      0x8080808080808080ULL;						/* == '\t' */
			high = ((lo + 0x0101010101010101ULL) | w) & 0x8080808080808080ULL;	/* >= 0x7f */
			if ((ctl & ~tab) | high)
				break;
			p += 8;
		}
		if (p == end)
			break;
		c = *p;
		if (!text_byte[c])
			continue;	/* most of them */
		if (c == '\n') {
			const char *t = p + 1;

			while (t < end && (*t == ' ' || *t == '\t'))
				t++;
			if ((size_t)(end - t) >= 10 && !memcmp(t, "print fmt:", 10))
				break;	/* the print format is never read */
			(*line)++;
			bol = p + 1;
			continue;
		}
		if (c == '\0' || (c < 0x20 && c != '\t' && c != '\r') || c >= 0x7f) {
			*col = p - bol + 1;
			*byte = c;
			return true;
		}
	}
	/* a NUL in the print format is still not text */
	if (p < end && memchr(p, '\0', end - p)) {
		const char *nul = memchr(p, '\0', end - p);

		for (; p < nul; p++)
			if (*p == '\n') {
				(*line)++;
				bol = p + 1;
			}
		*col = nul - bol + 1;
		*byte = 0;
		return true;
	}
	return false;
}

int tracefs_check_text(const char *path, const char *text, size_t len)
{
	unsigned char byte;
	int line, col;

	if (!find_bad_byte(text, len, &line, &col, &byte))
		return 0;
	if (byte)
		diag_error(path, line, col, "byte 0x%02x in a format file: not text", byte);
	else
		diag_error(path, line, col, "NUL byte in a format file: not text");
	return -EILSEQ;
}

void tp_events_clear(struct tp_events *evs)
{
	int i;

	for (i = 0; i < evs->nr; i++)
		tp_event_clear(&evs->ev[i]);
	free(evs->ev);
	free(evs->root);
	memset(evs, 0, sizeof(*evs));
}

struct tp_event *tp_events_find(struct tp_events *evs, const char *sys, const char *name)
{
	int lo = 0, hi = evs->nr - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2, c = strcmp(evs->ev[mid].sys, sys);

		if (!c)
			c = strcmp(evs->ev[mid].name, name);
		if (!c)
			return &evs->ev[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}
