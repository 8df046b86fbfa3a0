// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Differential test of spec expressions against C (tests/t_expr_c.sh):
 * generates random integer expressions over values of every width and sign,
 * has tpgen's parser, checker and printer type, fold and print each, and
 * writes three C files for the host compiler:
 *
 *   written.c   each expression exactly as generated (the text a user writes),
 *               compiled as C with the same typed variables: C's own answer
 *   emitted.c   tpgen's C for it (as a value, and its negation in an 'if'),
 *               compiled -Wall -Wextra -Werror
 *   table.c     the texts, and the type (and constant) tpgen gave each one
 *
 * tests/exprc/exprc_main.c runs both on random values and compares values,
 * sizeof and signedness.
 *
 * What C leaves undefined is not generated: shift counts are literals in
 * [0, 31] or '(x & 31)' (always below the promoted width); divisors are
 * literals 2..999 (or their negation) or '((x & 127) + 1)', never 0 and never
 * -1 (INT_MIN / -1 traps). Signed overflow (+ - * << of signed values) is
 * made defined by compiling both sides with -fwrapv: BPF and tpgen's folding
 * wrap, and so does C with -fwrapv.
 *
 * Usage: exprc_gen SEED COUNT OUTDIR (exit 3: tpgen accepted a '--' or '++')
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/expr.h"
#include "input/spec.h"
#include "lib/util.h"

static const struct {
	const char *name;
	struct expr_type t;
} vars[] = {
	{ "u8a", { ET_INT, 1, false, false } }, { "u8b", { ET_INT, 1, false, false } },
	{ "s8a", { ET_INT, 1, true, false } }, { "s8b", { ET_INT, 1, true, false } },
	{ "u16a", { ET_INT, 2, false, false } }, { "u16b", { ET_INT, 2, false, false } },
	{ "s16a", { ET_INT, 2, true, false } }, { "s16b", { ET_INT, 2, true, false } },
	{ "u32a", { ET_INT, 4, false, false } }, { "u32b", { ET_INT, 4, false, false } },
	{ "s32a", { ET_INT, 4, true, false } }, { "s32b", { ET_INT, 4, true, false } },
	{ "u64a", { ET_INT, 8, false, false } }, { "u64b", { ET_INT, 8, false, false } },
	{ "s64a", { ET_INT, 8, true, false } }, { "s64b", { ET_INT, 8, true, false } },
};
#define NVARS (int)(sizeof(vars) / sizeof(vars[0]))

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int pick(unsigned int n)
{
	return rnd() % n;
}

static int resolve(void *ctx, const char *name, size_t off, struct expr_type *t, bool report)
{
	const struct spec *s = ctx;

	for (int i = 0; i < NVARS; i++) {
		if (!strcmp(name, vars[i].name)) {
			*t = vars[i].t;
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
	(void)ctx;
	sb_puts(sb, vars[ref].name);
}

static void string(void *ctx, struct strbuf *sb, int ref)
{
	(void)ctx;
	(void)ref;
	sb_puts(sb, "s");
}

/* ---- the generator --------------------------------------------------------- */

static const unsigned long long interesting[] = {
	0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 100, 127, 128, 255, 256, 1000, 32767, 32768, 65535,
	65536, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0x100000000, 0x7fffffffffffffff,
	0x8000000000000000, 0xffffffffffffffff,
};

static const char *const suffixes[] = {
	"", "", "", "", "u", "U", "l", "L", "ul", "UL", "lu", "LU", "ll", "LL", "ull", "ULL", "llu", "LLU", "uLL",
};

static void lit(struct strbuf *sb, unsigned long long v)
{
	const char *suf = suffixes[pick(sizeof(suffixes) / sizeof(suffixes[0]))];

	switch (pick(3)) {
	case 0:
		sb_printf(sb, "%llu%s", v, suf);
		break;
	case 1:
		sb_printf(sb, "0x%llx%s", v, suf);
		break;
	default:
		sb_printf(sb, "0%llo%s", v, suf);
		break;
	}
}

static unsigned long long some_number(void)
{
	switch (pick(4)) {
	case 0:
		return rnd() >> pick(64);
	case 1:
		return pick(300);
	default:
		return interesting[pick(sizeof(interesting) / sizeof(interesting[0]))];
	}
}

enum { P_COND = 0, P_TOP = 0 };

static const struct {
	const char *s;
	int prec;
} binops[] = {
	{ "*", 10 }, { "/", 10 }, { "%", 10 }, { "+", 9 }, { "-", 9 }, { "<<", 8 }, { ">>", 8 },
	{ "<", 7 }, { "<=", 7 }, { ">", 7 }, { ">=", 7 }, { "==", 6 }, { "!=", 6 },
	{ "&", 5 }, { "^", 4 }, { "|", 3 }, { "&&", 2 }, { "||", 1 },
};

/*
 * An expression into 'sb'; 'ctx' is the binding power of where it goes (a
 * child printed without parentheses only where it binds tighter, so the text
 * parses as the tree was made). Returns the expression's own binding power.
 */
static void gen(struct strbuf *sb, int depth, int ctx);

static void gen_paren(struct strbuf *sb, int depth)
{
	sb_putc(sb, '(');
	gen(sb, depth, P_TOP);
	sb_putc(sb, ')');
}

static void gen_leaf(struct strbuf *sb)
{
	if (pick(3))
		sb_puts(sb, vars[pick(NVARS)].name);
	else
		lit(sb, some_number());
}

static void gen(struct strbuf *sb, int depth, int ctx)
{
	unsigned int k = depth <= 0 ? 0 : pick(10);
	int i, prec;
	bool paren;

	if (k < 3) {
		gen_leaf(sb);
		return;
	}
	if (k < 5) {
		/* unary: written "-x", "- x", "-(x)", "- -x" */
		static const char *const un[] = { "-", "~", "!", "+" };

		sb_puts(sb, un[pick(4)]);
		if (pick(4) == 0)
			sb_putc(sb, ' ');
		if (pick(2))
			gen_paren(sb, depth - 1);
		else
			gen(sb, depth - 1, 11);
		return;
	}
	if (k == 5 && ctx <= P_COND) {
		gen(sb, depth - 1, 1);
		sb_puts(sb, " ? ");
		gen(sb, depth - 1, P_TOP);
		sb_puts(sb, " : ");
		gen(sb, depth - 1, P_TOP);
		return;
	}
	i = pick(sizeof(binops) / sizeof(binops[0]));
	prec = binops[i].prec;
	paren = prec <= ctx || pick(3) == 0;
	if (paren)
		sb_putc(sb, '(');
	gen(sb, depth - 1, prec - 1);	/* left: equal binding is fine (left to right) */
	sb_printf(sb, " %s ", binops[i].s);
	if (!strcmp(binops[i].s, "/") || !strcmp(binops[i].s, "%")) {
		/* never 0, never -1 */
		if (pick(2)) {
			if (pick(3) == 0)
				sb_putc(sb, '-');
			lit(sb, 2 + pick(998));
		} else {
			sb_puts(sb, "((");
			gen(sb, depth - 1, P_TOP);
			sb_puts(sb, ") & 127) + 1)");
		}
	} else if (!strcmp(binops[i].s, "<<") || !strcmp(binops[i].s, ">>")) {
		/* below the promoted width (at least 32 bits) */
		if (pick(2)) {
			lit(sb, pick(32));
		} else {
			sb_puts(sb, "((");
			gen(sb, depth - 1, P_TOP);
			sb_puts(sb, ") & 31)");
		}
	} else {
		gen(sb, depth - 1, prec);
	}
	if (paren)
		sb_putc(sb, ')');
}

/* The cases of issue 23 first, then random ones */
static const char *const fixed[] = {
	"-(-s32a)", "- -s32a", "+(+s32a)", "~-s32a", "!-s32a", "s32a - -s32b", "s32a + +s32b", "s32a - -1",
	"-(-u8a)", "-(-s64a) + 1", "0xffffffff + 1", "0xffffffff + u8a", "037777777777 + 1", "0x80000000 + s32a",
	"4294967295 + 1", "-1 == u32a", "u32a == -1", "-1 != u64a", "u64a == -1", "-1 < s32a", "s32a < 5u",
	"s8a == 1u", "1u + s32a", "1ul + s32a", "1ll - u32a", "1ull - s32a", "0x7fffffffffffffff + 1 > 0",
	"--s32a", "u8a++ + 1",
};

/* ---- one expression -------------------------------------------------------- */

static const char *sgn_name(const struct expr_type *t)
{
	return t->is_signed ? "1" : "0";
}

static void c_text(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

int main(int argc, char **argv)
{
	static const struct expr_emit_ops ops = { .value = value, .string = string, .lit_prefix = "f" };
	unsigned long long seed;
	int count, accepted = 0, refused = 0;
	bool bad_signs = false;
	FILE *fw, *fe, *ft, *fd;
	char path[4096];

	if (argc != 4) {
		fprintf(stderr, "usage: %s SEED COUNT OUTDIR\n", argv[0]);
		return 2;
	}
	seed = strtoull(argv[1], NULL, 0);
	count = atoi(argv[2]);
	rng = seed;
	diag_silent = !getenv("EXPRC_VERBOSE");
	snprintf(path, sizeof(path), "%s/written.c", argv[3]);
	fw = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/emitted.c", argv[3]);
	fe = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/table.c", argv[3]);
	ft = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/decls.h", argv[3]);
	fd = fopen(path, "w");
	if (!fw || !fe || !ft || !fd) {
		perror(path);
		return 1;
	}
	fputs("#include \"exprc_rt.h\"\n", fw);
	fputs("#include \"exprc_rt.h\"\n#include \"tpgen_div.h\"\n", fe);
	fputs("#include \"exprc_rt.h\"\n#include \"decls.h\"\nconst struct case_info cases[] = {\n", ft);

	for (int n = 0; n < count; n++) {
		struct expr_lits lits = {};
		struct spec s = {};
		struct spec_str src = {};
		struct expr *e = NULL;
		struct strbuf text, out, not, cond;
		struct expr_type t;
		unsigned long long num;
		bool is_const;
		int err;

		sb_init(&text);
		if (n < (int)(sizeof(fixed) / sizeof(fixed[0])))
			sb_puts(&text, fixed[n]);
		else
			gen(&text, 1 + pick(4), P_TOP);
		s.path = "exprc.yaml";
		s.text = text.buf;
		s.len = text.len;
		src.s = text.buf;
		src.loc.line = 1;
		src.loc.col = 1;
		src.loc.style = SPEC_PLAIN;
		err = expr_parse(&s, &src, &e);
		if (!err)
			err = expr_check(e, &s, &src, false, resolve, &s, &lits);
		if (!err && (strstr(text.buf, "--") || strstr(text.buf, "++"))) {
			fprintf(stderr, "FAIL (seed %llu): tpgen accepts '%s', and C reads '%s' as a %s\n", seed,
				text.buf, strstr(text.buf, "--") ? "--" : "++",
				strstr(text.buf, "--") ? "decrement" : "increment");
			bad_signs = true;
			err = -EINVAL;
		}
		if (err) {
			refused++;
			if (getenv("EXPRC_REFUSED"))
				fprintf(stderr, "refused: %s\n", text.buf);
			expr_free(e);
			expr_lits_clear(&lits);
			sb_clear(&text);
			continue;
		}
		sb_init(&out);
		sb_init(&not);
		sb_init(&cond);
		expr_emit(&out, e, &ops, NULL);
		t = e->t;
		is_const = e->is_const;
		num = e->num;
		/* the same as a condition (a filter) */
		expr_free(e);
		e = NULL;
		if (expr_parse(&s, &src, &e) || expr_check(e, &s, &src, true, resolve, &s, &lits)) {
			/* '~u8a': a value, never a test */
			refused++;
			if (getenv("EXPRC_REFUSED"))
				fprintf(stderr, "refused as a condition: %s\n", text.buf);
			sb_clear(&out);
			sb_clear(&not);
			sb_clear(&cond);
			expr_free(e);
			expr_lits_clear(&lits);
			sb_clear(&text);
			continue;
		}
		expr_emit_not(&not, e, &ops, NULL);
		expr_emit(&cond, e, &ops, NULL);
		fprintf(fw, "void w%d(const struct vals *v, struct result *r) { VARS; EVAL(%s); TRUTH(%s); }\n",
			accepted, text.buf, text.buf);
		fprintf(fe, "void e%d(const struct vals *v, struct result *r)\n{\n\tVARS;\n\tEVAL(%s);\n"
			"\tif (%s)\n\t\tr->cond = 0;\n\telse\n\t\tr->cond = 1;\n"
			"\tif (!(%s))\n\t\tr->cond2 = 0;\n\telse\n\t\tr->cond2 = 1;\n}\n",
			accepted, out.buf, not.buf, cond.buf);
		fprintf(fd, "void w%d(const struct vals *, struct result *), e%d(const struct vals *, struct result *);\n",
			accepted, accepted);
		fprintf(ft, "\t{ w%d, e%d, ", accepted, accepted);
		c_text(ft, text.buf);
		fputs(", ", ft);
		c_text(ft, out.buf);
		fprintf(ft, ", %u, %s, %d, %lluULL },\n", t.size, sgn_name(&t), is_const, num);
		accepted++;
		sb_clear(&out);
		sb_clear(&not);
		sb_clear(&cond);
		expr_free(e);
		expr_lits_clear(&lits);
		sb_clear(&text);
	}
	fprintf(ft, "};\nconst int ncases = %d;\nconst unsigned long long seed = %lluULL;\n", accepted, seed);
	fclose(fw);
	fclose(fe);
	fclose(ft);
	fclose(fd);
	printf("seed %llu: %d expressions, %d accepted, %d refused by tpgen\n", seed, count, accepted, refused);
	return bad_signs ? 3 : 0;
}
