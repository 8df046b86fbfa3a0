// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The program model: each entry of a spec (and each end of a latency pair)
 * resolved against the kernel into a probe -- its values, named values,
 * joins and saves, filter, record and aggregations, every expression typed
 * -- and the probes of one tracepoint gathered into one BPF program. The
 * emitters only print what is here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "lib/limits.h"
#include "model/decode.h"
#include "lib/ident.h"
#include "model/prog.h"
#include "model/sysargs.h"

static int find_event(struct prog *p, struct pprobe *pr)
{
	const struct spec_probe *sp = pr->sp;
	const char **cands = NULL, *hint;
	char **names = NULL;
	int i, n = 0;

	pr->ev = tp_events_find(p->evs, sp->sys, sp->name);
	if (pr->ev)
		return 0;
	for (i = 0; i < p->evs->nr; i++) {
		if (strcmp(p->evs->ev[i].sys, sp->sys) && strcmp(p->evs->ev[i].name, sp->name))
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		cands = xrealloc(cands, (n + 1) * sizeof(*cands));
		names[n] = xasprintf("%s/%s", p->evs->ev[i].sys, p->evs->ev[i].name);
		cands[n] = names[n];
		n++;
	}
	hint = str_suggest(sp->event.s, cands, n);
	if (hint)
		spec_error(p->spec, &sp->event.loc, 0, "event '%s' does not exist on this kernel "
			   "(did you mean '%s'?)", sp->event.s, hint);
	else
		spec_error(p->spec, &sp->event.loc, 0, "event '%s' does not exist on this kernel "
			   "('tpgen list' shows them)", sp->event.s);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(cands);
	return -EINVAL;
}

static int find_raw(struct prog *p, struct pprobe *pr)
{
	const struct spec_probe *sp = pr->sp;
	const char *tp = rawtp_for_event(sp->sys, sp->name);

	pr->raw = tp ? rawtp_find(p->raws, tp) : NULL;
	if (pr->raw)
		return sysargs_probe(p, pr);	/* syscalls/sys_enter_X: X's number and arguments */
	spec_error(p->spec, &sp->event.loc, 0, "event '%s' has no raw tracepoint%s%s%s in this "
		   "kernel's BTF (attach: %s needs one)", sp->event.s, tp ? " '" : "", tp ? tp : "",
		   tp ? "'" : "", attach_name(pr->attach));
	return -EINVAL;
}

static char *upper(const char *a, const char *b)
{
	char *s = xasprintf("%s_%s", a, b);

	for (char *c = s; *c; c++)
		if (*c >= 'a' && *c <= 'z')
			*c -= 'a' - 'A';
		else if (!((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
			*c = '_';
	return s;
}

/* ---- probes ---------------------------------------------------------------- */

/* A probe of entry 'sp'; the ends of latency pair 'lat' are named "<lat>_from" and "<lat>_to". */
static int new_probe(struct prog *p, const struct spec_probe *sp, const char *lat, const char *end)
{
	struct pprobe *pr;
	char *base;
	int err;

	if (p->nr_probes >= PROG_MAX_PROBES) {
		spec_error(p->spec, &sp->loc, 0, "more than %d entries: split the spec", PROG_MAX_PROBES);
		return -EINVAL;
	}
	p->probes = xrealloc(p->probes, (p->nr_probes + 1) * sizeof(*p->probes));
	pr = &p->probes[p->nr_probes++];
	memset(pr, 0, sizeof(*pr));
	pr->sp = sp;
	pr->event = sp->event.s;
	pr->filter_text = sp->filter.s;
	pr->task_filter = !lat;	/* a latency pair has its own filters */
	pr->attach = sp->attach ? sp->attach : p->spec->attach ? p->spec->attach : ATTACH_TRACEPOINT;
	base = lat ? xasprintf("%s_%s", lat, end) : xstrdup(sp->name);
	pr->pname = prog_ident(p, base);
	free(base);
	pr->func = xstrdup(pr->pname);
	base = xasprintf("%s_filter", pr->pname);
	pr->lit_prefix = prog_ident(p, base);
	free(base);
	if (pr->attach == ATTACH_TRACEPOINT)
		err = find_event(p, pr);
	else
		err = p->raws ? find_raw(p, pr) : -ENOENT;
	return err;
}

static int resolve_probe(struct prog *p, struct pprobe *pr)
{
	const struct spec_probe *sp = pr->sp;
	struct resolver r = { .p = p, .pr = pr };
	int err = 0, i;

	for (i = 0; i < sp->nr_joins && !err; i++)
		err = probe_add_join(&r, &sp->joins[i]);
	for (i = 0; i < sp->nr_lets && !err; i++)
		err = probe_add_let(&r, &sp->lets[i]);
	if (!err && sp->filter.s) {
		r.what = "filter";
		err = probe_expr(&r, &sp->filter, true, &pr->filter);
	}
	for (i = 0; i < sp->nr_saves && !err; i++)
		err = probe_add_save(&r, &sp->saves[i]);
	r.what = "print";
	if (!err)
		err = probe_add_items(&r, &sp->print, &pr->print, true);
	for (i = 0; i < sp->nr_aggs && !err; i++)
		err = probe_add_agg(&r, &sp->aggs[i]);
	if (err)
		return err;
	if (pr->print.nr) {
		char *base = xasprintf("%s_event", pr->pname);

		char *e = upper(p->spec->tool.s, pr->pname);

		pr->type_enum = prog_ident(p, e);
		free(e);
		pr->rec_struct = prog_ident(p, base);
		free(base);
		p->any_print = true;
		for (i = 0; i < pr->print.nr; i++)
			if (pr->vals[pr->print.v[i].val].kind == PV_STR)
				p->any_str_print = true;
	}
	return 0;
}

/* What the probe's values need: the context, CO-RE, the stack map, the ctx or raw headers. */
static void probe_uses(struct prog *p, struct pprobe *pr)
{
	for (int i = 0; i < pr->nr_vals; i++) {
		const struct builtin *b = builtin_of(pr->vals[i].src);

		if (pr->vals[i].src == PV_RAW && pr->vals[i].path)
			p->any_core = true;
		if (b && (b->flags & BI_CORE))
			p->any_core = true;
		if (b && (b->flags & BI_START))
			p->any_start = true;
		if (b && (b->flags & BI_TIME))
			pr->uses_time = true;
		if (pr->vals[i].src == PV_CTX || (pr->vals[i].src == PV_RAW && !pr->vals[i].curtask) ||
		    pr->vals[i].src == PV_USTR ||
		    pr->vals[i].src == PV_SYSARG || pr->vals[i].src == PV_UARGV || (b && (b->flags & BI_CTX)))
			pr->uses_ctx = true;
		if (pr->vals[i].stack)
			p->any_stack = true;
		if (pr->vals[i].src == PV_KSTACK)
			pr->uses_kstack = true;
		if (pr->vals[i].src == PV_USTACK)
			pr->uses_ustack = true;
		if (pr->vals[i].argv)
			p->any_argv = true;
	}
	if (pr->attach == ATTACH_TRACEPOINT) {
		p->ctx_sel[pr->ev - p->evs->ev] = true;
		p->any_ctx = true;
	} else {
		p->raw_sel[pr->raw - p->raws->tp] = true;
		p->any_raw = true;
	}
}

static bool same_program(const struct pprobe *a, const struct pprobe *b)
{
	if (a->attach != b->attach)
		return false;
	return a->attach == ATTACH_TRACEPOINT ? a->ev == b->ev : a->raw == b->raw;
}

/* Aggregate k of probe i is a table an earlier aggregate of the same program keeps (one map). */
static bool same_table(const struct prog *p, int first, int i, int k)
{
	const char *map = p->probes[i].aggs[k].map;

	for (int j = first; j <= i; j++) {
		const struct pprobe *pr = &p->probes[j];

		if (!same_program(&p->probes[first], pr))
			continue;
		for (int m = 0; m < (j == i ? k : pr->nr_aggs); m++)
			if (!strcmp(pr->aggs[m].map, map))
				return true;
	}
	return false;
}

/* The maps the program of probe 'first' uses fit the verifier's limit, or a located error. */
static int check_maps(struct prog *p, int first)
{
	bool *set_used = xcalloc(p->nr_sets + 1, sizeof(*set_used));
	bool *absent_used = xcalloc(p->nr_sets + 1, sizeof(*absent_used));
	int n = 3, i, k;	/* .rodata, .bss, .data */
	bool rb = false, scratch = false, stack = false;

	for (i = first; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		if (!same_program(&p->probes[first], pr))
			continue;
		for (k = 0; k < pr->nr_aggs; k++)
			n += !pr->aggs[k].global && !same_table(p, first, i, k);	/* a global is in .bss */
		rb |= pr->print.nr > 0;
		scratch |= pr->scratch_slot >= 0;
		for (k = 0; k < pr->nr_vals; k++)
			stack |= pr->vals[k].stack_map != NULL;
		for (k = 0; k < pr->nr_saves; k++)
			set_used[pr->saves[k].set] = true;
		for (k = 0; k < pr->nr_joins; k++) {
			set_used[pr->joins[k].set] = true;
			/* an optional join's values when nothing was saved: a per-CPU slot of their own */
			if (pr->joins[k].optional && !absent_used[pr->joins[k].set]) {
				absent_used[pr->joins[k].set] = true;
				n++;
			}
		}
		if (n + rb + scratch + stack > PROG_MAX_MAPS) {
			spec_error(p->spec, &pr->sp->loc, 0, "the entries on %s need more than the %d maps a BPF "
				   "program may use: put the functions of several aggregates in one, or split the "
				   "spec", pr->sp->event.s, PROG_MAX_MAPS);
			free(set_used);
			free(absent_used);
			return -EINVAL;
		}
	}
	for (k = 0; k < p->nr_sets; k++)
		n += set_used[k];
	free(set_used);
	free(absent_used);
	if (n + rb + scratch + stack > PROG_MAX_MAPS) {
		spec_error(p->spec, &p->probes[first].sp->loc, 0, "the entries on %s need more than the %d maps "
			   "a BPF program may use: split the spec", p->probes[first].sp->event.s, PROG_MAX_MAPS);
		return -EINVAL;
	}
	return 0;
}

int prog_resolve(struct prog *p)
{
	const struct spec *s = p->spec;
	int i, j, err, pass;

	p->tool = s->tool.s;
	p->description = s->description.s;
	err = prog_resolve_params(p);
	if (err)
		return err;
	for (i = 0; i < s->nr_events; i++) {
		err = new_probe(p, &s->events[i], NULL, NULL);
		if (err)
			return err;
	}
	for (i = 0; i < s->nr_lats; i++) {
		err = new_probe(p, &s->lats[i].from, s->lats[i].name.s, "from");
		if (!err)
			err = new_probe(p, &s->lats[i].to, s->lats[i].name.s, "to");
		if (err)
			return err;
	}
	/* saves first, so that a join knows what it finds, wherever it is written */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < p->nr_probes; i++) {
			if ((p->probes[i].sp->nr_joins > 0) != pass)
				continue;
			err = resolve_probe(p, &p->probes[i]);
			if (err)
				return err;
		}
	err = prog_lower_latency(p);
	if (!err)
		err = prog_check_tables(p);
	if (err)
		return err;
	for (i = 0; i < p->nr_probes; i++)
		probe_uses(p, &p->probes[i]);
	for (i = 0; i < p->nr_sets; i++)
		if (!p->sets[i].joined) {
			spec_error(p->spec, &p->sets[i].first->loc, 0, "'%s' is saved and never joined",
				   p->sets[i].name);
			return -EINVAL;
		}
	/* one program per tracepoint and attach type; entries run in the spec's order */
	for (i = 0; i < p->nr_probes; i++) {
		struct pprobe *pr = &p->probes[i];

		for (j = 0; j < i && !same_program(&p->probes[j], pr); j++)
			;
		if (j < i) {
			pr->handler = xstrdup(p->probes[j].handler);
			continue;
		}
		char *base = xasprintf("handle_%s%s", pr->attach == ATTACH_TRACEPOINT ? pr->ev->name : pr->raw->name,
				       pr->attach == ATTACH_RAW_TP ? "_raw" : pr->attach == ATTACH_TP_BTF ? "_btf" : "");
		pr->handler = prog_ident(p, base);
		pr->first_of_program = true;
		free(base);
	}
	prog_plan_sets(p);
	err = prog_plan_stack(p);
	if (err)
		return err;
	for (i = 0; i < p->nr_probes; i++)
		if (p->probes[i].first_of_program) {
			err = check_maps(p, i);
			if (err)
				return err;
		}
	/* the last join of a name on a tracepoint deletes what it found, unless told to keep it */
	for (i = 0; i < p->nr_probes; i++)
		for (int k = 0; k < p->probes[i].nr_joins; k++) {
			struct pjoin *jn = &p->probes[i].joins[k];

			if (!jn->del)
				continue;
			for (j = i + 1; j < p->nr_probes; j++) {
				if (!same_program(&p->probes[i], &p->probes[j]))
					continue;
				for (int l = 0; l < p->probes[j].nr_joins; l++)
					if (p->probes[j].joins[l].set == jn->set)
						jn->del = false;
			}
		}
	/*
	 * -p/-c test the current task, unless the entry ends what a save began
	 * (every join deletes): the save tested the task it was about, which
	 * need not be the current one here (offcputime's switch-in).
	 */
	for (i = 0; i < p->nr_probes; i++) {
		struct pprobe *pr = &p->probes[i];
		bool ends = pr->nr_joins > 0;

		for (j = 0; j < pr->nr_joins; j++)
			ends &= pr->joins[j].del;
		if (ends)
			pr->task_filter = false;
	}
	return 0;
}

void prog_clear(struct prog *p)
{
	int i, j;

	prog_params_clear(p);
	for (i = 0; i < p->nr_probes; i++) {
		struct pprobe *pr = &p->probes[i];

		for (j = 0; j < pr->nr_vals; j++)
			pvalue_clear(&pr->vals[j]);
		free(pr->vals);
		for (j = 0; j < pr->nr_lets; j++) {
			free(pr->lets[j].name);
			free(pr->lets[j].local);
			expr_free(pr->lets[j].expr);
		}
		free(pr->lets);
		for (j = 0; j < pr->nr_joins; j++) {
			pitems_clear(&pr->joins[j].key);
			pitems_clear(&pr->joins[j].defaults);
			free(pr->joins[j].local);
		}
		free(pr->joins);
		for (j = 0; j < pr->nr_saves; j++) {
			pitems_clear(&pr->saves[j].key);
			pitems_clear(&pr->saves[j].values);
		}
		free(pr->saves);
		pitems_clear(&pr->print);
		for (j = 0; j < pr->nr_aggs; j++) {
			pitems_clear(&pr->aggs[j].keys);
			free(pr->aggs[j].map);
			free(pr->aggs[j].key_struct);
			free(pr->aggs[j].val_struct);
			free(pr->aggs[j].rows_ident);
			free(pr->aggs[j].title);
			for (int c = 0; c < pr->aggs[j].nr_cols; c++) {
				free(pr->aggs[j].cols[c].cname);
				free(pr->aggs[j].cols[c].derive_fn);
				expr_free(pr->aggs[j].cols[c].expr);
			}
			free(pr->aggs[j].cols);
		}
		free(pr->aggs);
		expr_free(pr->filter);
		expr_lits_clear(&pr->lits);
		free(pr->pname);
		free(pr->handler);
		free(pr->func);
		free(pr->type_enum);
		free(pr->rec_struct);
		free(pr->lit_prefix);
	}
	for (i = 0; i < p->nr_sets; i++) {
		struct psaved *set = &p->sets[i];

		for (j = 0; j < set->nr_keys; j++)
			pvalue_clear(&set->keys[j]);
		for (j = 0; j < set->nr_members; j++)
			pvalue_clear(&set->members[j]);
		free(set->keys);
		free(set->members);
		free(set->name);
		free(set->map);
		free(set->local);
		free(set->key_struct);
		free(set->val_struct);
		free(set->absent_map);
	}
	free(p->sets);
	prog_lats_clear(p);
	free(p->probes);
	free(p->ctx_sel);
	free(p->raw_sel);
	free(p->banner);
	free(p->banner_ctx);
	free(p->stack_map);
	nametab_free(p->names);
	decodes_clear(p);
}
