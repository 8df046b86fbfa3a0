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

#include "cmd.h"
#include "emit.h"
#include "prog.h"

/* Probes (entries and latency ends) in one spec: each is code in the kernel. */
#define PROG_MAX_PROBES	256

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
	hint = spec_suggest(sp->event.s, cands, n);
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
		return 0;
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

/* ---- expressions and items ----------------------------------------------- */

/* Parse and type 'src' in the probe; a condition when 'cond'. */
static int probe_expr(struct resolver *r, const struct spec_str *src, bool cond, struct expr **out)
{
	int err;

	r->src = src;
	err = expr_parse(r->p->spec, src, out);
	if (!err)
		err = expr_check(*out, r->p->spec, src, cond, value_expr_resolve, r, &r->pr->lits);
	if (err) {
		expr_free(*out);
		*out = NULL;
	}
	return err;
}

/* A C member name from what was written: "exit_code >> 8" -> "exit_code_8" */
static char *member_name(const char *s)
{
	struct strbuf sb;

	sb_init(&sb);
	if (*s >= '0' && *s <= '9')
		sb_putc(&sb, 'v');
	for (; *s; s++) {
		bool id = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
			  *s == '_';

		if (id)
			sb_putc(&sb, *s);
		else if (sb.len && sb.buf[sb.len - 1] != '_')
			sb_putc(&sb, '_');
	}
	while (sb.len && sb.buf[sb.len - 1] == '_')
		sb.buf[--sb.len] = '\0';
	if (!sb.len)
		sb_puts(&sb, "value");
	return sb_steal(&sb);
}

/* A value of an item: a bare name is the value itself; anything else is computed. */
static int item_value(struct resolver *r, const struct spec_item *it, bool str_ok, int *val)
{
	struct expr *e;
	int err;

	err = probe_expr(r, &it->expr, false, &e);
	if (err)
		return err;
	if (e->op == EX_REF) {
		*val = e->ref;
		expr_free(e);
	} else {
		*val = value_add_expr(r->pr, e, it->label.s ? it->label.s : it->expr.s);
	}
	if (!str_ok && r->pr->vals[*val].kind == PV_STR) {
		spec_error(r->p->spec, &it->expr.loc, 0, "%s needs a number, and '%s' is a string", r->what,
			   it->expr.s);
		return -EINVAL;
	}
	return 0;
}

static bool is_libc_macro(const char *s)
{
	static const char *const macros[] = {
		"errno", "stdin", "stdout", "stderr", "NULL", "EOF", "assert", "offsetof", "bool", "true",
		"false", "unix", "linux", "i386", "major", "minor", "makedev", "environ", "signal",
	};

	for (size_t i = 0; i < ARRAY_SIZE(macros); i++)
		if (!strcmp(s, macros[i]))
			return true;
	return false;
}

static int add_items(struct resolver *r, const struct spec_items *l, struct pitems *out, bool str_ok)
{
	int i, j, val, err, n;

	for (i = 0; i < l->nr; i++) {
		struct pitem *it;
		char *cname;

		err = item_value(r, &l->v[i], str_ok, &val);
		if (err)
			return err;
		if (!l->v[i].label.s) {
			for (j = 0; j < out->nr; j++)
				if (out->v[j].val == val && r->pr->vals[val].src != PV_EXPR) {
					spec_error(r->p->spec, &l->v[i].expr.loc, 0, "'%s' is listed twice",
						   l->v[i].expr.s);
					return -EINVAL;
				}
		}
		out->v = xrealloc(out->v, (out->nr + 1) * sizeof(*out->v));
		it = &out->v[out->nr++];
		it->val = val;
		it->label = xstrdup(l->v[i].label.s ? l->v[i].label.s : l->v[i].expr.s);
		cname = l->v[i].label.s ? xstrdup(l->v[i].label.s) :
			r->pr->vals[val].src == PV_EXPR ? member_name(l->v[i].expr.s) : xstrdup(r->pr->vals[val].cname);
		/* not a macro of the C library the loader includes (signal_generate has 'errno') */
		if (is_libc_macro(cname)) {
			char *c = xasprintf("%s_", cname);

			free(cname);
			cname = c;
		}
		/* members of one struct are unique: name_2, name_3 after the first */
		it->cname = xstrdup(cname);
		for (n = 2, j = 0; j < out->nr - 1; j++) {
			if (strcmp(out->v[j].cname, it->cname))
				continue;
			free(it->cname);
			it->cname = xasprintf("%s_%d", cname, n++);
			j = -1;
		}
		free(cname);
	}
	return 0;
}

static void items_free(struct pitems *l)
{
	for (int i = 0; i < l->nr; i++) {
		free(l->v[i].label);
		free(l->v[i].cname);
	}
	free(l->v);
}

static const struct spec_items tid_key = {
	.v = (struct spec_item[]){ { .expr = { .s = "tid" } } },
	.nr = 1,
};

/* ---- save, join, let ------------------------------------------------------ */

static int find_set(const struct prog *p, const char *name)
{
	for (int i = 0; i < p->nr_sets; i++)
		if (!strcmp(p->sets[i].name, name))
			return i;
	return -1;
}

static void member_of(struct pvalue *m, const struct pvalue *v, const char *cname)
{
	memset(m, 0, sizeof(*m));
	m->kind = v->kind == PV_PTR ? PV_INT : v->kind;
	m->size = v->kind == PV_PTR ? 8 : v->kind == PV_STR && !v->size ? 256 : v->size;
	m->is_signed = v->is_signed;
	m->cname = xstrdup(cname);
	m->name = xstrdup(cname);
}

static int add_save(struct resolver *r, const struct spec_save *ss)
{
	struct pprobe *pr = r->pr;
	struct prog *p = r->p;
	struct psave *sv;
	struct psaved *set;
	int err, i, s;

	pr->saves = xrealloc(pr->saves, (pr->nr_saves + 1) * sizeof(*pr->saves));
	sv = &pr->saves[pr->nr_saves++];
	memset(sv, 0, sizeof(*sv));
	r->what = "a saved key";
	err = add_items(r, ss->key.nr ? &ss->key : &tid_key, &sv->key, true);
	r->what = "a saved value";
	if (!err)
		err = add_items(r, &ss->values, &sv->values, true);
	if (err)
		return err;
	s = find_set(p, ss->name.s);
	if (s < 0) {
		char *base;

		p->sets = xrealloc(p->sets, (p->nr_sets + 1) * sizeof(*p->sets));
		s = p->nr_sets++;
		set = &p->sets[s];
		memset(set, 0, sizeof(*set));
		set->name = xstrdup(ss->name.s);
		set->first = ss;
		base = xasprintf("%s_saved", ss->name.s);
		set->map = prog_ident(p, base);
		free(base);
		/* the pointer a join declares: no global may take its name */
		set->local = prog_ident(p, ss->name.s);
		base = xasprintf("%s_key", ss->name.s);
		set->key_struct = prog_ident(p, base);
		free(base);
		base = xasprintf("%s_val", ss->name.s);
		set->val_struct = prog_ident(p, base);
		free(base);
		set->keys = xcalloc(sv->key.nr, sizeof(*set->keys));
		set->nr_keys = sv->key.nr;
		for (i = 0; i < sv->key.nr; i++)
			member_of(&set->keys[i], &pr->vals[sv->key.v[i].val], sv->key.v[i].cname);
		set->members = xcalloc(sv->values.nr, sizeof(*set->members));
		set->nr_members = sv->values.nr;
		for (i = 0; i < sv->values.nr; i++)
			member_of(&set->members[i], &pr->vals[sv->values.v[i].val], sv->values.v[i].cname);
	}
	sv->set = s;
	set = &p->sets[s];
	/* every save of one name keeps the same values under the same key */
	if (sv->key.nr != set->nr_keys) {
		spec_error(p->spec, &ss->loc, 0, "'%s' is saved with %d key value%s here and %d at line %d",
			   ss->name.s, sv->key.nr, sv->key.nr == 1 ? "" : "s", set->nr_keys, set->first->loc.line);
		return -EINVAL;
	}
	for (i = 0; i < sv->key.nr; i++)
		if ((pr->vals[sv->key.v[i].val].kind == PV_STR) != (set->keys[i].kind == PV_STR)) {
			spec_error(p->spec, &ss->loc, 0, "key %d of '%s' is a %s here, and a %s at line %d",
				   i + 1, ss->name.s, set->keys[i].kind == PV_STR ? "number" : "string",
				   set->keys[i].kind == PV_STR ? "string" : "number", set->first->loc.line);
			return -EINVAL;
		}
	/* key members are the set's, whatever each save calls them */
	for (i = 0; i < sv->key.nr; i++) {
		free(sv->key.v[i].cname);
		sv->key.v[i].cname = xstrdup(set->keys[i].cname);
	}
	if (sv->values.nr != set->nr_members)
		goto mismatch;
	for (i = 0; i < sv->values.nr; i++) {
		int m;

		for (m = 0; m < set->nr_members; m++)
			if (!strcmp(set->members[m].cname, sv->values.v[i].cname))
				break;
		if (m == set->nr_members ||
		    (set->members[m].kind == PV_STR) != (pr->vals[sv->values.v[i].val].kind == PV_STR))
			goto mismatch;
	}
	return 0;
mismatch:
	spec_error(p->spec, &ss->loc, 0, "'%s' saves other values at line %d: every save of a name "
		   "keeps the same values", ss->name.s, set->first->loc.line);
	return -EINVAL;
}

static int add_join(struct resolver *r, const struct spec_join *sj)
{
	struct pprobe *pr = r->pr;
	struct prog *p = r->p;
	struct pjoin *j;
	int s, err, i;

	s = find_set(p, sj->name.s);
	if (s < 0) {
		spec_error(p->spec, sj->key.nr ? &sj->loc : &sj->name.loc, 0,
			   "no 'save' names '%s' (an entry that comes first must save it)", sj->name.s);
		return -EINVAL;
	}
	for (i = 0; i < pr->nr_joins; i++)
		if (pr->joins[i].set == s) {
			spec_error(p->spec, &sj->name.loc, 0, "'%s' is joined twice here", sj->name.s);
			return -EINVAL;
		}
	pr->joins = xrealloc(pr->joins, (pr->nr_joins + 1) * sizeof(*pr->joins));
	j = &pr->joins[pr->nr_joins++];
	memset(j, 0, sizeof(*j));
	j->set = s;
	p->sets[s].joined = true;
	r->what = "a join key";
	err = add_items(r, sj->key.nr ? &sj->key : &tid_key, &j->key, true);
	if (err)
		return err;
	if (j->key.nr != p->sets[s].nr_keys) {
		spec_error(p->spec, &sj->loc, 0, "'%s' is saved under %d key value%s, and joined with %d",
			   sj->name.s, p->sets[s].nr_keys, p->sets[s].nr_keys == 1 ? "" : "s", j->key.nr);
		return -EINVAL;
	}
	for (i = 0; i < j->key.nr; i++)
		if ((pr->vals[j->key.v[i].val].kind == PV_STR) != (p->sets[s].keys[i].kind == PV_STR)) {
			spec_error(p->spec, &sj->loc, 0, "key %d of '%s' is a %s where it is saved",
				   i + 1, sj->name.s, p->sets[s].keys[i].kind == PV_STR ? "string" : "number");
			return -EINVAL;
		}
	for (i = 0; i < j->key.nr; i++) {
		free(j->key.v[i].cname);
		j->key.v[i].cname = xstrdup(p->sets[s].keys[i].cname);
	}
	j->local = xstrdup(p->sets[s].local);
	j->del = !sj->keep;
	return 0;
}

static int add_let(struct resolver *r, const struct spec_let *sl)
{
	static const char *const taken[] = { "ctx", "args", "e", "key", "val", "zero", "slot", "err" };
	struct pprobe *pr = r->pr;
	struct plet *l;
	struct expr *e;
	int err;

	for (size_t i = 0; i < ARRAY_SIZE(taken); i++)
		if (!strcmp(sl->name.s, taken[i]) || !strncmp(sl->name.s, "buf_", 4)) {
			spec_error(r->p->spec, &sl->name.loc, 0, "'%s' is a name the generated handler uses; "
				   "choose another", sl->name.s);
			return -EINVAL;
		}
	if (value_find(r, sl->name.s, 0) >= 0 || find_set(r->p, sl->name.s) >= 0) {
		spec_error(r->p->spec, &sl->name.loc, 0, "'%s' is already a value here; choose another name",
			   sl->name.s);
		return -EINVAL;
	}
	r->what = "let";
	err = probe_expr(r, &sl->expr, false, &e);
	if (err)
		return err;
	if (e->t.kind == ET_STR) {
		spec_error(r->p->spec, &sl->expr.loc, 0, "'let' names numbers, and '%s' is a string", sl->expr.s);
		expr_free(e);
		return -EINVAL;
	}
	pr->lets = xrealloc(pr->lets, (pr->nr_lets + 1) * sizeof(*pr->lets));
	l = &pr->lets[pr->nr_lets++];
	memset(l, 0, sizeof(*l));
	l->name = xstrdup(sl->name.s);
	l->local = xstrdup(sl->name.s);
	l->expr = e;
	l->type.kind = PV_INT;
	l->type.size = e->t.size;
	l->type.is_signed = e->t.is_signed;
	return 0;
}

/* ---- aggregations ---------------------------------------------------------- */

static int agg_value(struct resolver *r, const struct spec_str *src, const char *what)
{
	struct spec_item it = { .expr = *src };
	int val, err;

	r->what = what;
	err = item_value(r, &it, false, &val);
	return err ? err : val;
}

static char *agg_title(const struct pprobe *pr, const struct pagg *a, const struct spec_agg *sa)
{
	struct strbuf sb;
	const char *sep = "";

	if (sa->name.s)
		return xstrdup(sa->name.s);
	sb_init(&sb);
	sb_printf(&sb, "%s: ", pr->sp->event.s);
	if (sa->legacy && (a->fns & AGG_HIST)) {
		sb_puts(&sb, sa->hist.s);
		return sb_steal(&sb);
	}
#define FN(bit, text, src)								\
	if (sa->fns & (bit)) {								\
		sb_printf(&sb, "%s%s%s%s%s", sep, text, src ? "(" : "", src ? src : "", src ? ")" : ""); \
		sep = ", ";								\
	}
	FN(AGG_COUNT, "count", (const char *)NULL)
	FN(AGG_SUM, "sum", sa->sum.s)
	FN(AGG_MIN, "min", sa->min.s)
	FN(AGG_MAX, "max", sa->max.s)
	FN(AGG_AVG, "avg", sa->avg.s)
	FN(AGG_HIST, "hist", sa->hist.s)
	FN(AGG_LHIST, "lhist", sa->lhist.s)
#undef FN
	for (int i = 0; i < a->keys.nr; i++)
		sb_printf(&sb, "%s%s", i ? ", " : " by ", a->keys.v[i].label);
	return sb_steal(&sb);
}

static int add_agg(struct resolver *r, const struct spec_agg *sa)
{
	struct pprobe *pr = r->pr;
	struct prog *p = r->p;
	struct pagg *a;
	char *base;
	int err;

	pr->aggs = xrealloc(pr->aggs, (pr->nr_aggs + 1) * sizeof(*pr->aggs));
	a = &pr->aggs[pr->nr_aggs++];
	memset(a, 0, sizeof(*a));
	a->sa = sa;
	a->sum = a->min = a->max = a->hist = -1;
	a->fns = sa->fns;
	r->what = sa->legacy ? "count" : "by";
	err = add_items(r, &sa->by, &a->keys, true);
	if (err)
		return err;
	if ((sa->fns & AGG_SUM) && (err = a->sum = agg_value(r, &sa->sum, "sum")) < 0)
		return err;
	if ((sa->fns & AGG_AVG) && a->sum < 0 && (err = a->sum = agg_value(r, &sa->avg, "avg")) < 0)
		return err;
	if ((sa->fns & AGG_MIN) && (err = a->min = agg_value(r, &sa->min, "min")) < 0)
		return err;
	if ((sa->fns & AGG_MAX) && (err = a->max = agg_value(r, &sa->max, "max")) < 0)
		return err;
	if ((sa->fns & AGG_HIST) && (err = a->hist = agg_value(r, &sa->hist, "hist")) < 0)
		return err;
	if ((sa->fns & AGG_LHIST) && (err = a->hist = agg_value(r, &sa->lhist, "lhist")) < 0)
		return err;
	if ((sa->fns & AGG_AVG) && (sa->fns & AGG_SUM) && strcmp(sa->sum.s, sa->avg.s)) {
		spec_error(p->spec, &sa->avg.loc, 0, "avg is sum / count: give it the value of 'sum' (%s), "
			   "or put it in an aggregate of its own", sa->sum.s);
		return -EINVAL;
	}
	if (sa->fns & AGG_AVG)
		a->fns |= AGG_SUM | AGG_COUNT;
	a->nslots = sa->fns & AGG_LHIST ? (sa->lmax - sa->lmin + sa->lstep - 1) / sa->lstep + 2 : 64;
	a->unit = sa->unit.s ? sa->unit.s : a->hist >= 0 ? pr->vals[a->hist].name : "";
	base = sa->legacy ? xasprintf("%s_%s", pr->pname, sa->fns & AGG_HIST ? "hist" : "counts") :
	       sa->name.s ? xstrdup(sa->name.s) : xasprintf("%s_agg", pr->pname);
	a->map = prog_ident(p, base);
	free(base);
	if (a->keys.nr) {
		base = xasprintf("%s_key", a->map);
		a->key_struct = prog_ident(p, base);
		free(base);
	}
	base = xasprintf("%s_val", a->map);
	a->val_struct = prog_ident(p, base);
	free(base);
	a->title = agg_title(pr, a, sa);
	p->any_agg = true;
	if (a->fns & AGG_HIST)
		p->any_hist = true;
	else if (a->fns & AGG_LHIST)
		p->any_lhist = true;
	else
		p->any_table = true;
	return 0;
}

/* ---- probes ---------------------------------------------------------------- */

static int new_probe(struct prog *p, const struct spec_probe *sp, int lat, bool lat_to)
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
	pr->key = -1;
	pr->lat = lat;
	pr->lat_to = lat_to;
	pr->attach = sp->attach ? sp->attach : p->spec->attach ? p->spec->attach : ATTACH_TRACEPOINT;
	base = lat >= 0 ? xasprintf("%s_%s", p->spec->lats[lat].name.s, lat_to ? "to" : "from")
			: xstrdup(sp->name);
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
		err = add_join(&r, &sp->joins[i]);
	for (i = 0; i < sp->nr_lets && !err; i++)
		err = add_let(&r, &sp->lets[i]);
	if (!err && sp->filter.s) {
		r.what = "filter";
		err = probe_expr(&r, &sp->filter, true, &pr->filter);
	}
	for (i = 0; i < sp->nr_saves && !err; i++)
		err = add_save(&r, &sp->saves[i]);
	r.what = "print";
	if (!err)
		err = add_items(&r, &sp->print, &pr->print, true);
	for (i = 0; i < sp->nr_aggs && !err; i++)
		err = add_agg(&r, &sp->aggs[i]);
	if (!err && sp->key.s) {
		r.what = "key";
		r.src = &sp->key;
		pr->key = value_find(&r, sp->key.s, 0);
		if (pr->key == -ENOENT)
			return unknown_field(&r, sp->key.s, 0);
		if (pr->key < 0)
			return pr->key;
		if (pr->vals[pr->key].kind == PV_STR) {
			spec_error(p->spec, &sp->key.loc, 0, "a latency key must be a number (such as a pid), "
				   "and '%s' is a string", sp->key.s);
			return -EINVAL;
		}
	}
	if (err)
		return err;
	if (pr->print.nr) {
		char *base = xasprintf("%s_event", pr->pname);

		pr->type_enum = upper(p->spec->tool.s, pr->pname);
		pr->rec_struct = prog_ident(p, base);
		free(base);
		p->any_print = true;
		for (i = 0; i < pr->print.nr; i++)
			if (pr->vals[pr->print.v[i].val].kind == PV_STR)
				p->any_str_print = true;
	}
	if (pr->lat >= 0)
		p->any_lat = true;
	for (i = 0; i < pr->nr_vals; i++) {
		if (pr->vals[i].src == PV_RAW && pr->vals[i].path)
			p->any_core = true;
		if (pr->vals[i].src == PV_PPID)
			p->any_core = true;
		if (pr->vals[i].src == PV_CTX || pr->vals[i].src == PV_RAW || pr->vals[i].src == PV_USTR)
			pr->uses_ctx = true;
	}
	if (pr->attach == ATTACH_TRACEPOINT) {
		p->ctx_sel[pr->ev - p->evs->ev] = true;
		p->any_ctx = true;
	} else {
		p->raw_sel[pr->raw - p->raws->tp] = true;
		p->any_raw = true;
	}
	return 0;
}

static bool same_program(const struct pprobe *a, const struct pprobe *b)
{
	if (a->attach != b->attach)
		return false;
	return a->attach == ATTACH_TRACEPOINT ? a->ev == b->ev : a->raw == b->raw;
}

/* The kernel's limit of maps one program uses (MAX_USED_MAPS). */
#define PROG_MAX_MAPS	64

/* The maps the program of probe 'first' uses fit the verifier's limit, or a located error. */
static int check_maps(struct prog *p, int first)
{
	bool *set_used = xcalloc(p->nr_sets + 1, sizeof(*set_used));
	int n = 3, i, k;	/* .rodata, .bss, .data */
	bool rb = false;

	for (i = first; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		if (!same_program(&p->probes[first], pr))
			continue;
		n += pr->nr_aggs + (pr->lat >= 0);
		rb |= pr->print.nr > 0;
		for (k = 0; k < pr->nr_saves; k++)
			set_used[pr->saves[k].set] = true;
		for (k = 0; k < pr->nr_joins; k++)
			set_used[pr->joins[k].set] = true;
		if (n + rb > PROG_MAX_MAPS) {
			spec_error(p->spec, &pr->sp->loc, 0, "the entries on %s need more than the %d maps a BPF "
				   "program may use: put the functions of several aggregates in one, or split the "
				   "spec", pr->sp->event.s, PROG_MAX_MAPS);
			free(set_used);
			return -EINVAL;
		}
	}
	for (k = 0; k < p->nr_sets; k++)
		n += set_used[k];
	free(set_used);
	if (n + rb > PROG_MAX_MAPS) {
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

	for (i = 0; i < s->nr_events; i++) {
		err = new_probe(p, &s->events[i], -1, false);
		if (err)
			return err;
	}
	for (i = 0; i < s->nr_lats; i++) {
		err = new_probe(p, &s->lats[i].from, i, false);
		if (!err)
			err = new_probe(p, &s->lats[i].to, i, true);
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
	for (i = 0; i < s->nr_lats; i++) {
		const struct pprobe *from = &p->probes[s->nr_events + 2 * i], *to = from + 1;

		if (from->vals[from->key].size != to->vals[to->key].size)
			diag_warning(s->path, s->lats[i].loc.line, s->lats[i].loc.col,
				     "latency '%s': the keys have different sizes; both are compared "
				     "as 64-bit numbers", s->lats[i].name.s);
	}
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
			p->probes[j].uses_ctx |= pr->uses_ctx;
			continue;
		}
		char *base = xasprintf("handle_%s%s", pr->attach == ATTACH_TRACEPOINT ? pr->ev->name : pr->raw->name,
				       pr->attach == ATTACH_RAW_TP ? "_raw" : pr->attach == ATTACH_TP_BTF ? "_btf" : "");
		pr->handler = prog_ident(p, base);
		pr->first_of_program = true;
		free(base);
	}
	for (i = 0; i < p->nr_probes; i++)
		if (p->probes[i].first_of_program) {
			for (j = i + 1; j < p->nr_probes; j++)
				if (same_program(&p->probes[i], &p->probes[j]))
					p->probes[i].uses_ctx |= p->probes[j].uses_ctx;
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
	return 0;
}

void prog_free(struct prog *p)
{
	int i, j;

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
			items_free(&pr->joins[j].key);
			free(pr->joins[j].local);
		}
		free(pr->joins);
		for (j = 0; j < pr->nr_saves; j++) {
			items_free(&pr->saves[j].key);
			items_free(&pr->saves[j].values);
		}
		free(pr->saves);
		items_free(&pr->print);
		for (j = 0; j < pr->nr_aggs; j++) {
			items_free(&pr->aggs[j].keys);
			free(pr->aggs[j].map);
			free(pr->aggs[j].key_struct);
			free(pr->aggs[j].val_struct);
			free(pr->aggs[j].title);
		}
		free(pr->aggs);
		expr_free(pr->filter);
		expr_lits_free(&pr->lits);
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
	}
	free(p->sets);
	free(p->probes);
	free(p->ctx_sel);
	free(p->raw_sel);
	free(p->banner);
	free(p->banner_ctx);
	nametab_free(p->names);
}
