// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer harness: spec expressions (the tracefs filter grammar and C's
 * integer expressions): parser, checker and C printer, with a resolver that
 * knows a value of each kind. Any input either fails with one reported error
 * or prints one C expression.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/expr.h"
#include "input/spec.h"
#include "lib/util.h"

static const struct {
	const char *name;
	struct expr_type t;
} vals[] = {
	{ "pid", { ET_INT, 4, true, false } },
	{ "count", { ET_INT, 8, false, false } },
	{ "flags", { ET_INT, 1, false, false } },
	{ "delta", { ET_INT, 8, true, false } },
	{ "comm", { ET_STR, 16, false, false } },
	{ "filename", { ET_STR, 256, false, false } },
	{ "open.path", { ET_STR, 256, false, false } },
};

static int resolve(void *ctx, const char *name, size_t off, struct expr_type *t, bool report)
{
	const struct spec *s = ctx;
	size_t i;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		if (!strcmp(name, vals[i].name)) {
			*t = vals[i].t;
			return i;
		}
	}
	if (!report)
		return -ENOENT;
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
	static const struct expr_emit_ops ops = { .value = value, .string = string, .lit_prefix = "f" };
	struct expr_lits lits = {};
	struct spec s = {};
	struct spec_str src = {};
	struct expr *e = NULL;
	int before = diag_error_count(), err;
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
	err = expr_parse(&s, &src, &e);
	if (!err)
		err = expr_check(e, &s, &src, size & 1, resolve, &s, &lits);
	if (err && diag_error_count() == before)
		abort();	/* an error must be reported */
	if (!err) {
		sb_init(&sb);
		expr_emit_literals(&sb, &lits, "f");
		expr_emit(&sb, e, &ops, NULL);
		expr_emit_not(&sb, e, &ops, NULL);
		sb_clear(&sb);
	}
	expr_free(e);
	expr_lits_clear(&lits);
	free(text);
	return 0;
}
