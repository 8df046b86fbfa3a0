// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A probe's expressions and its filter: numbers tested first, then the
 * strings read (into buffers on the stack or in per-CPU scratch) and tested,
 * so a rejected event reads no string. 'leave' is how the probe's function
 * leaves early ("return;", or "goto out;" once a join must be deleted).
 */
#include <stdlib.h>

#include "lib/limits.h"
#include "lib/cstring.h"
#include "emit/emit_prog.h"

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

/* An early return unless the conjuncts picked (those with or without strings) hold. */
static void emit_test(struct strbuf *sb, const struct pprobe *pr, const struct expr **v, const bool *pick, int n,
		      bool strings, const char *leave)
{
	int i, m = 0, last = -1;

	for (i = 0; i < n; i++)
		if (pick[i] && has_strings(v[i]) == strings) {
			m++;
			last = i;
		}
	if (!m)
		return;
	if (m == 1) {
		sb_puts(sb, "\tif (");
		emit_expr_not(sb, pr, v[last]);
		sb_printf(sb, ")\n\t\t%s\n", leave);
		return;
	}
	for (i = 0, m = 0; i < n; i++) {
		if (!pick[i] || has_strings(v[i]) != strings)
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

/* Does the conjunct test what the joins found (a saved value, or a let, computed after them)? */
static bool uses_joins(const struct pprobe *pr, const struct expr *e)
{
	int *refs = NULL, nr = 0;
	bool late = false;

	expr_refs(e, &refs, &nr);
	for (int i = 0; i < nr; i++)
		late |= pr->vals[refs[i]].src == PV_SAVED || pr->vals[refs[i]].src == PV_LET;
	free(refs);
	return late;
}

/*
 * Does the filter read string v into buf_<v> on the stack (it is tested
 * against a string)? The filter runs before the entry's saves, aggregates and
 * record, so they copy the buffer instead of reading the string again: a
 * string of a known size (the same everywhere), not through scratch (where
 * keys take the buffers' place).
 */
bool filter_str_buf(const struct pprobe *pr, const struct pvalue *v)
{
	const struct expr **conj = NULL;
	bool found = false;
	int n = 0;

	if (!pr->filter || pr->scratch_size || v->kind != PV_STR || v->src == PV_SAVED || !v->size || v->argv)
		return false;
	conjuncts(pr->filter, &conj, &n);
	for (int i = 0; i < n && !found; i++) {
		int *refs = NULL, nr = 0;

		if (!has_strings(conj[i]))
			continue;
		expr_refs(conj[i], &refs, &nr);
		for (int j = 0; j < nr; j++)
			found |= &pr->vals[refs[j]] == v;
		free(refs);
	}
	free(conj);
	return found;
}

static bool in_refs(const int *refs, int nr, int ref)
{
	for (int i = 0; i < nr; i++)
		if (refs[i] == ref)
			return true;
	return false;
}

/* String buffers a filter, the lets and computed values read into. */
void emit_filter_decls(struct strbuf *sb, const struct pprobe *pr)
{
	int *refs = NULL, nr = 0;

	if (pr->filter)
		expr_refs(pr->filter, &refs, &nr);
	prog_value_strs(pr, &refs, &nr);
	for (int i = 0; i < nr; i++) {
		const struct pvalue *v = &pr->vals[refs[i]];

		if (v->kind != PV_STR || v->src == PV_SAVED || in_refs(refs, i, refs[i]))
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

/*
 * The conjuncts of the filter about the event alone (FILTER_EVENT), tested
 * before the joins: when one is false the entry does not apply, and what
 * was saved stays. Then those about what the joins found (FILTER_JOINED),
 * after the joins and lets: when one is false the entry reports nothing,
 * and its joins still delete what they found (a measurement ended). In
 * each, numbers first, then the strings are read and tested: a rejected
 * event reads no string.
 */
void emit_filter(struct strbuf *sb, const struct pprobe *pr, enum filter_phase phase, const char *leave)
{
	const struct expr **conj = NULL;
	int *refs = NULL, nr = 0, n = 0, *early = NULL, nr_early = 0;
	bool *pick, any = false, any_early = false, strings = false, strings_early = false;

	if (!pr->filter)
		return;
	conjuncts(pr->filter, &conj, &n);
	pick = xcalloc(n + 1, sizeof(*pick));
	for (int i = 0; i < n; i++) {
		bool late = uses_joins(pr, conj[i]);

		pick[i] = late == (phase == FILTER_JOINED);
		any |= pick[i];
		any_early |= !late;
		strings |= pick[i] && has_strings(conj[i]);
		strings_early |= !late && has_strings(conj[i]);
		if (!late)
			expr_refs(conj[i], &early, &nr_early);
		else if (pick[i])
			expr_refs(conj[i], &refs, &nr);
	}
	if (phase == FILTER_EVENT) {
		refs = early;
		nr = nr_early;
		early = NULL;
		nr_early = 0;
	}
	if (!any)
		goto out;
	if (phase == FILTER_EVENT || !any_early) {
		sb_puts(sb, "\t/* ");
		c_comment_text(sb, pr->filter_text);
		sb_puts(sb, " */\n");
	}
	emit_test(sb, pr, conj, pick, n, false, leave);
	if (!strings)
		goto out;
	if (pr->scratch_size && (phase == FILTER_EVENT || !strings_early)) {
		int *all = NULL, nr_all = 0;

		expr_refs(pr->filter, &all, &nr_all);
		emit_filter_scratch(sb, pr, all, nr_all, leave);
		free(all);
	}
	if (phase == FILTER_JOINED)	/* read before the lets */
		prog_value_strs(pr, &early, &nr_early);
	for (int i = 0; i < nr; i++) {
		const struct pvalue *v = &pr->vals[refs[i]];
		bool read = in_refs(early, nr_early, refs[i]);

		if (v->kind == PV_STR && v->src != PV_SAVED && !read) {
			char *dst = xasprintf(pr->scratch_size ? "*buf_%s" : "buf_%s", v->cname);

			emit_read_str(sb, pr, v, dst, "\t");
			free(dst);
		}
	}
	emit_test(sb, pr, conj, pick, n, true, leave);
out:
	free(early);
	free(refs);
	free(pick);
	free(conj);
}

/*
 * The strings the lets and computed values compare, read before the lets
 * (after the joins: an event the filter rejects reads none), unless the
 * filter read them already.
 */
void emit_value_strs(struct strbuf *sb, const struct pprobe *pr)
{
	const struct expr **conj = NULL;
	int *refs = NULL, nr = 0, *early = NULL, nr_early = 0, n = 0;

	prog_value_strs(pr, &refs, &nr);
	if (!nr)
		return;
	if (pr->filter)
		conjuncts(pr->filter, &conj, &n);
	for (int i = 0; i < n; i++)
		if (has_strings(conj[i]) && !uses_joins(pr, conj[i]))
			expr_refs(conj[i], &early, &nr_early);
	for (int i = 0; i < nr; i++) {
		char *dst;

		if (in_refs(early, nr_early, refs[i]))
			continue;
		dst = xasprintf("buf_%s", pr->vals[refs[i]].cname);
		emit_read_str(sb, pr, &pr->vals[refs[i]], dst, "\t");
		free(dst);
	}
	free(early);
	free(refs);
	free(conj);
}
