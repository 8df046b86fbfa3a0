/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * For the emitter fuzzers: C text reduced to the shape of its tokens --
 * comments dropped, each string or character literal "S", each identifier
 * "I", each number "N", punctuation as it is, newlines kept for preprocessor
 * lines. Two headers whose names differ (and only their names) have the same
 * shape; a name that smuggles code, closes a comment or a string, or splits a
 * line changes it. Also: every byte is printable ASCII, tab or newline.
 */
#ifndef __TPGEN_FUZZ_CTOKENS_H
#define __TPGEN_FUZZ_CTOKENS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

static bool ctok_text_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f)
			return false;
	}
	return true;
}

static bool ctok_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The token shape of s; NULL when a comment or literal does not end. */
static char *ctok_shape(const char *s)
{
	struct strbuf sb;
	const char *p = s;

	sb_init(&sb);
	while (*p) {
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");

			if (!e)
				goto bad;
			p = e + 2;
		} else if (p[0] == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				p++;
		} else if (*p == '"' || *p == '\'') {
			char q = *p++;

			while (*p && *p != q && *p != '\n')
				p += p[0] == '\\' && p[1] ? 2 : 1;
			if (*p != q)
				goto bad;
			p++;
			sb_puts(&sb, "S ");
		} else if (*p >= '0' && *p <= '9') {
			while (ctok_ident(*p))
				p++;
			sb_puts(&sb, "N ");
		} else if (ctok_ident(*p)) {
			while (ctok_ident(*p))
				p++;
			sb_puts(&sb, "I ");
		} else if (*p == '\n') {
			sb_putc(&sb, '\n');
			p++;
		} else if (*p == ' ' || *p == '\t') {
			p++;
		} else {
			sb_putc(&sb, *p++);
			sb_putc(&sb, ' ');
		}
	}
	return sb_steal(&sb);
bad:
	sb_clear(&sb);
	return NULL;
}

/* abort() unless 'got' is clean text with the token shape of 'want'. */
static void ctok_same_shape(const char *got, const char *want)
{
	char *a, *b;

	if (!ctok_text_ok(got, strlen(got)))
		abort();	/* a control or non-ASCII byte in the output */
	a = ctok_shape(got);
	b = ctok_shape(want);
	if (!a || !b || strcmp(a, b)) {
		if (getenv("FUZZ_VERBOSE"))
			fprintf(stderr, "--- got:\n%s\n--- want:\n%s\n--- shapes:\n%s\n---\n%s\n", got, want,
				a ? a : "(unterminated)", b ? b : "(unterminated)");
		abort();	/* a name changed the code around it */
	}
	free(a);
	free(b);
}

#endif /* __TPGEN_FUZZ_CTOKENS_H */
