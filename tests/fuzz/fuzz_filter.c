// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer harness: the tracefs filter parser, checker and C compiler, with
 * a resolver that knows a few fields of each kind. Any input either fails
 * with a reported error or compiles to one C expression.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "spec.h"
#include "util.h"

static const struct {
	const char *name;
	struct filter_field f;
} fields[] = {
	{ "pid", { false, true, 4 } },
	{ "count", { false, false, 8 } },
	{ "flags", { false, false, 1 } },
	{ "comm", { true, false, 16 } },
	{ "filename", { true, false, 256 } },
};

static int resolve(void *ctx, const char *name, size_t off, struct filter_field *f)
{
	const struct spec *s = ctx;
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (!strcmp(name, fields[i].name)) {
			*f = fields[i].f;
			return i;
		}
	}
	spec_error(s, NULL, off, "unknown field '%s'", name);
	return -EINVAL;
}

static void value(void *ctx, struct strbuf *sb, int ref)
{
	sb_printf(sb, "v%d", ref);
}

static void string(void *ctx, struct strbuf *sb, int ref)
{
	sb_printf(sb, "s%d", ref);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	diag_silent = !getenv("FUZZ_VERBOSE");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct filter_emit_ops ops = { value, string };
	struct spec s = {};
	struct spec_str src = {};
	struct filter *f = NULL;
	struct strbuf sb;
	char *text;

	if (memchr(data, '\0', size))
		return 0;
	text = xstrndup((const char *)data, size);
	s.path = "fuzz.yaml";
	s.text = text;
	s.len = size;
	src.s = text;
	src.loc.line = 1;
	src.loc.col = 1;
	src.loc.style = SPEC_PLAIN;
	if (!filter_parse(&s, &src, &f) && !filter_check(f, &s, &src, resolve, &s)) {
		sb_init(&sb);
		filter_emit_literals(&sb, f, "f");
		filter_emit_expr(&sb, f, "f", &ops, NULL);
		sb_free(&sb);
	}
	filter_free(f);
	free(text);
	return 0;
}
