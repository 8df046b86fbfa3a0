// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The BPF stack of a probe. A BPF program has 512 bytes of stack, and the
 * entries on one tracepoint are inlined into one program; the compiler
 * overlaps what is not live at the same time, so the budget is per entry.
 * An entry keeps on the stack its join keys, the string buffers of
 * its filter, one key at a time (saves and aggregations run one after
 * another), tpgen.h's glob state when the filter globs, and the helpers'
 * temporaries. Where that passes the limit, the filter's buffers and the
 * keys of saves and aggregations move to a per-CPU array map, as
 * libbpf-tools keep large values in a 'heap' map: one slot per program,
 * since a program does not nest on its CPU (programs of one tool may, so
 * they do not share a slot).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/limits.h"
#include "model/prog.h"

/* tpgen_task_wanted()'s comm, the helpers' spills and the compiler's temporaries */
#define STACK_SLACK	64
/* struct tpgen_glob_state: two TPGEN_GLOB_MAX copies, six 4-byte words, a pointer and a length */
#define GLOB_STATE	(2 * 128 + 40)

static unsigned int align_up(unsigned int n, unsigned int a)
{
	return (n + a - 1) / a * a;
}

/* The size of a struct of these members, as emit_member() declares them. */
static unsigned int struct_size(const struct pvalue *const *v, int nr, unsigned int str_max)
{
	unsigned int size = 0, align = 1;

	for (int i = 0; i < nr; i++) {
		unsigned int n, a;

		if (v[i]->kind == PV_STR) {
			n = v[i]->size ? v[i]->size : str_max;
			a = 1;
		} else {
			n = a = v[i]->kind == PV_PTR ? 8 : v[i]->size;
		}
		size = align_up(size, a) + n;
		if (a > align)
			align = a;
	}
	return align_up(size, align);
}

static unsigned int items_size(const struct pprobe *pr, const struct pitems *items, unsigned int str_max)
{
	const struct pvalue **v = xcalloc(items->nr + 1, sizeof(*v));
	unsigned int n;

	for (int i = 0; i < items->nr; i++)
		v[i] = &pr->vals[items->v[i].val];
	n = struct_size(v, items->nr, str_max);
	free(v);
	return n;
}

/* The size of a struct of the members m[0..nr) (a saved set's key or values). */
static unsigned int members_size(const struct pvalue *m, int nr, unsigned int str_max)
{
	const struct pvalue **v = xcalloc(nr + 1, sizeof(*v));
	unsigned int n;

	for (int i = 0; i < nr; i++)
		v[i] = &m[i];
	n = struct_size(v, nr, str_max);
	free(v);
	return n;
}

static unsigned int set_key_size(const struct psaved *set)
{
	return members_size(set->keys, set->nr_keys, KEY_STR_MAX);
}

static bool has_glob(const struct expr *e)
{
	return e && ((e->op == EX_GLOB && !expr_glob_is_prefix(e)) || has_glob(e->a) || has_glob(e->b) ||
		     has_glob(e->c));
}

static bool has_str(const struct expr *e)
{
	return e && (e->op == EX_STR || has_str(e->a) || has_str(e->b) || has_str(e->c));
}

static void value_strs(const struct pprobe *pr, const struct expr *e, int **refs, int *nr)
{
	int *r = NULL, n = 0;

	if (!has_str(e))
		return;
	expr_refs(e, &r, &n);
	for (int i = 0; i < n; i++) {
		const struct pvalue *v = &pr->vals[r[i]];
		bool dup = false;

		if (v->kind != PV_STR || v->src == PV_SAVED || v->argv)
			continue;
		for (int j = 0; j < *nr; j++)
			dup |= (*refs)[j] == r[i];
		if (dup)
			continue;
		*refs = xrealloc(*refs, (*nr + 1) * sizeof(**refs));
		(*refs)[(*nr)++] = r[i];
	}
	free(r);
}

void prog_value_strs(const struct pprobe *pr, int **refs, int *nr)
{
	for (int i = 0; i < pr->nr_lets; i++)
		value_strs(pr, pr->lets[i].expr, refs, nr);
	for (int i = 0; i < pr->nr_vals; i++)
		if (pr->vals[i].src == PV_EXPR)
			value_strs(pr, pr->vals[i].expr, refs, nr);
}

/* Do the lets or computed values glob? */
static bool values_glob(const struct pprobe *pr)
{
	bool glob = false;

	for (int i = 0; i < pr->nr_lets; i++)
		glob |= has_glob(pr->lets[i].expr);
	for (int i = 0; i < pr->nr_vals; i++)
		glob |= pr->vals[i].src == PV_EXPR && has_glob(pr->vals[i].expr);
	return glob;
}

/*
 * The string buffers of the filter and of what lets and computed values
 * compare: emit_filter_decls() declares one per string read.
 */
static unsigned int filter_bufs(const struct pprobe *pr)
{
	int *refs = NULL, nr = 0;
	unsigned int n = 0;

	if (pr->filter)
		expr_refs(pr->filter, &refs, &nr);
	prog_value_strs(pr, &refs, &nr);
	for (int i = 0; i < nr; i++) {
		const struct pvalue *v = &pr->vals[refs[i]];
		bool dup = false;

		for (int j = 0; j < i; j++)
			dup |= refs[j] == refs[i];
		if (v->kind == PV_STR && v->src != PV_SAVED && !dup)
			n += align_up(v->size ? v->size : FILTER_STR_MAX, 8);
	}
	free(refs);
	return n;
}

/* The size of the values a save keeps. */
static unsigned int set_val_size(const struct psaved *set)
{
	return members_size(set->members, set->nr_members, RECORD_STR_MAX);
}

bool prog_save_on_stack(const struct psaved *set)
{
	for (int i = 0; i < set->nr_members; i++)
		if (set->members[i].kind != PV_INT && set->members[i].kind != PV_PTR)
			return false;
	return set_val_size(set) <= SAVE_STACK_MAX;
}

/* The largest key of the entry's saves (with their values, built on the stack) and aggregations. */
static unsigned int max_key(const struct prog *p, const struct pprobe *pr)
{
	unsigned int n = 0, k;

	for (int i = 0; i < pr->nr_saves; i++) {
		const struct psaved *set = &p->sets[pr->saves[i].set];

		k = set_key_size(set);
		if (prog_save_on_stack(set))
			k = align_up(k, 8) + set_val_size(set);
		if (k > n)
			n = k;
	}
	for (int i = 0; i < pr->nr_aggs; i++) {
		k = pr->aggs[i].key_struct ? items_size(pr, &pr->aggs[i].keys, KEY_STR_MAX) : 4;
		if (k > n)
			n = k;
	}
	return n;
}

int prog_plan_stack(struct prog *p)
{
	unsigned int slots = 0;

	for (int i = 0; i < p->nr_probes; i++) {
		struct pprobe *pr = &p->probes[i];
		unsigned int fixed = STACK_SLACK;
		unsigned int bufs = filter_bufs(pr), key = max_key(p, pr);

		for (int j = 0; j < pr->nr_joins; j++)
			fixed += align_up(set_key_size(&p->sets[pr->joins[j].set]), 8) + 8;
		int *vstrs = NULL, nr_vstrs = 0;

		if (has_glob(pr->filter) || values_glob(pr))
			fixed += GLOB_STATE;
		pr->scratch_slot = -1;
		pr->scratch_size = 0;
		if (fixed + bufs + key <= BPF_STACK_MAX)
			continue;
		prog_value_strs(pr, &vstrs, &nr_vstrs);
		free(vstrs);
		if (nr_vstrs) {
			/* the lets' buffers are on the stack: they are read before the lets, not in the filter */
			spec_error(p->spec, &pr->sp->loc, 0, "this entry on %s needs about %u bytes of BPF stack "
				   "for the strings its lets and values compare, more than the %d a BPF program "
				   "has: compare them in the filter", pr->sp->event.s, fixed + bufs + key,
				   BPF_STACK_MAX);
			return -EINVAL;
		}
		if (fixed > BPF_STACK_MAX) {
			spec_error(p->spec, &pr->sp->loc, 0, "this entry on %s needs about %u bytes of BPF stack "
				   "for its join keys and globs, more than the %d a BPF program has: join on "
				   "smaller keys", pr->sp->event.s, fixed, BPF_STACK_MAX);
			return -EINVAL;
		}
		pr->scratch_size = bufs > key ? bufs : key;
		if (pr->scratch_size > p->scratch_size)
			p->scratch_size = pr->scratch_size;
	}
	/* one slot per program, shared by its entries: they run one after another */
	for (int i = 0; i < p->nr_probes; i++) {
		const struct pprobe *first = &p->probes[i];
		bool used = false;

		if (!first->first_of_program)
			continue;
		for (int j = i; j < p->nr_probes; j++)
			used |= !strcmp(p->probes[j].handler, first->handler) && p->probes[j].scratch_size;
		if (!used)
			continue;
		for (int j = i; j < p->nr_probes; j++)
			if (!strcmp(p->probes[j].handler, first->handler))
				p->probes[j].scratch_slot = slots;
		slots++;
	}
	p->nr_scratch = slots;
	return 0;
}
