// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A probe's expressions and its filter: numbers tested first, then the
 * strings read (into buffers on the stack or in per-CPU scratch) and tested,
 * so a rejected event reads no string. 'leave' is how the probe's function
 * leaves early ("return;", or "goto out;" once a join must be deleted).
 */
#include <stdlib.h>

#include "cstring.h"
#include "emit_prog.h"

static void eop_value(void *ctx, struct strbuf *sb, int ref)
{
	const struct pprobe *pr = ctx;

	emit_value(sb, pr, &pr->vals[ref]);
}

static void eop_string(void *ctx, struct strbuf *sb, int ref)
{
	const struct pprobe *pr = ctx;
	const struct pvalue *v = &pr->vals[ref];

	if (v->src == PV_SAVED)
		sb_printf(sb, "%s->%s", pr->joins[v->join].local, v->member);
	else
		sb_printf(sb, pr->scratch_size ? "*buf_%s" : "buf_%s", v->cname);
}

void emit_expr(struct strbuf *sb, const struct pprobe *pr, const struct expr *e)
{
	const struct expr_emit_ops ops = { .value = eop_value, .string = eop_string,
					   .lit_prefix = pr->lit_prefix };

	expr_emit(sb, e, &ops, (void *)pr);
}

static bool has_strings(const struct expr *e)
{
	return e && (e->op == EX_STR || has_strings(e->a) || has_strings(e->b) || has_strings(e->c));
}

/* The conjuncts of a filter: a && b && c */
static void conjuncts(const struct expr *e, const struct expr ***out, int *nr)
{
	if (e->op == EX_LAND && !e->is_const) {
		conjuncts(e->a, out, nr);
		conjuncts(e->b, out, nr);
		return;
	}
	*out = xrealloc(*out, (*nr + 1) * sizeof(**out));
	(*out)[(*nr)++] = e;
}

/* An early return unless the conjuncts (with or without strings) hold. */
static void emit_test(struct strbuf *sb, const struct pprobe *pr, const struct expr **v, int n, bool strings,
		      const char *leave)
{
	const struct expr_emit_ops ops = { .value = eop_value, .string = eop_string,
					   .lit_prefix = pr->lit_prefix };
	int i, m = 0, last = -1;

	for (i = 0; i < n; i++)
		if (has_strings(v[i]) == strings) {
			m++;
			last = i;
		}
	if (!m)
		return;
	if (m == 1) {
		sb_puts(sb, "\tif (");
		expr_emit_not(sb, v[last], &ops, (void *)pr);
		sb_printf(sb, ")\n\t\t%s\n", leave);
		return;
	}
	for (i = 0, m = 0; i < n; i++) {
		if (has_strings(v[i]) != strings)
			continue;
		sb_puts(sb, m++ ? " &&\n\t      " : "\tif (!(");
		if (v[i]->op == EX_LOR) {
			sb_putc(sb, '(');
			emit_expr(sb, pr, v[i]);
			sb_putc(sb, ')');
		} else {
			emit_expr(sb, pr, v[i]);
		}
	}
	sb_printf(sb, "))\n\t\t%s\n", leave);
}

/* String buffers a filter reads into. */
void emit_filter_decls(struct strbuf *sb, const struct pprobe *pr)
{
	int *refs = NULL, nr = 0;

	if (!pr->filter)
		return;
	expr_refs(pr->filter, &refs, &nr);
	for (int i = 0; i < nr; i++) {
		const struct pvalue *v = &pr->vals[refs[i]];

		if (v->kind != PV_STR || v->src == PV_SAVED)
			continue;
		if (pr->scratch_size)
			sb_printf(sb, "\tchar (*buf_%s)[%u];\n", v->cname, v->size ? v->size : FILTER_STR_MAX);
		else
			sb_printf(sb, "\tchar buf_%s[%u] = {};\n", v->cname, v->size ? v->size : FILTER_STR_MAX);
	}
	free(refs);
}

/* With the strings in per-CPU scratch: each buffer's place there, one after another. */
static void emit_filter_scratch(struct strbuf *sb, const struct pprobe *pr, const int *refs, int nr,
				const char *leave)
{
	unsigned int off = 0;

	for (int i = 0; i < nr; i++) {
		const struct pvalue *v = &pr->vals[refs[i]];
		unsigned int size = v->size ? v->size : FILTER_STR_MAX;

		if (v->kind != PV_STR || v->src == PV_SAVED)
			continue;
		sb_printf(sb, "\tbuf_%s = tpgen_scratch_get(%d, %u);\n", v->cname, pr->scratch_slot, off);
		sb_printf(sb, "\tif (!buf_%s)\n\t\t%s\n", v->cname, leave);
		off += (size + 7) / 8 * 8;
	}
}

/* Numbers first, then the strings are read and tested: a rejected event reads no string. */
void emit_filter(struct strbuf *sb, const struct pprobe *pr, const char *leave)
{
	const struct expr **conj = NULL;
	int *refs = NULL, nr = 0, n = 0;

	if (!pr->filter)
		return;
	sb_puts(sb, "\t/* ");
	c_comment_text(sb, pr->sp->filter.s);
	sb_puts(sb, " */\n");
	conjuncts(pr->filter, &conj, &n);
	emit_test(sb, pr, conj, n, false, leave);
	expr_refs(pr->filter, &refs, &nr);
	if (pr->scratch_size)
		emit_filter_scratch(sb, pr, refs, nr, leave);
	for (int i = 0; i < nr; i++) {
		const struct pvalue *v = &pr->vals[refs[i]];

		if (v->kind == PV_STR && v->src != PV_SAVED) {
			char *dst = xasprintf(pr->scratch_size ? "*buf_%s" : "buf_%s", v->cname);

			emit_read_str(sb, pr, v, dst, "\t");
			free(dst);
		}
	}
	emit_test(sb, pr, conj, n, true, leave);
	free(refs);
	free(conj);
}
