// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Latency pairs, lowered into what a spec says by hand: the 'from' end
 * saves the time under its key, the 'to' end joins it (and deletes it) and
 * adds the time since, in the pair's unit, to a log2 histogram:
 *
 *   - event: <from>
 *     save: { name: <name>, key: [<from key>], values: { ts: TIME } }
 *   - event: <to>
 *     join: { name: <name>, key: [<to key>] }
 *     aggregate: { name: "<name>: <from> -> <to>", hist: (TIME - <name>.ts) / 1000, unit: usecs }
 *
 * Every identifier of the generated C then comes from the name table, and
 * the emitters know nothing of latency pairs. The pair adds no name a user
 * could join, test or compute with: its entries are resolved first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/prog.h"

/* The spec a latency pair stands for, owned by the model. */
struct plat {
	struct spec_item from_key, to_key, ts;
	struct spec_save save;
	struct spec_join join;
	struct spec_agg agg;
	char *set;		/* the saved values' name: the pair's, unless a save has it */
	char *map;		/* the histogram's map: "<name>_hist" */
};

/* The key of one end: a number (a value, or an expression of values: pid + 1, dev << 32 | sector). */
static int check_key(struct resolver *r)
{
	const struct spec_str *key = &r->pr->sp->key;
	struct expr *e;
	int err;

	r->what = "key";
	err = probe_expr(r, key, false, &e);
	if (err)
		return err;
	if (e->t.kind == ET_STR) {
		spec_error(r->p->spec, &key->loc, 0, "a latency key must be a number (such as a pid), "
			   "and '%s' is a string", key->s);
		err = -EINVAL;
	}
	expr_free(e);
	return err;
}

static void lower(struct prog *p, const struct spec_latency *sl, struct plat *l)
{
	static const struct {
		const char *unit, *div;
	} units[] = { { "nsecs", "" }, { "usecs", " / 1000" }, { "msecs", " / 1000000" } };
	const char *div = " / 1000";
	char *name;
	int n = 1;

	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(sl->unit.s, units[i].unit))
			div = units[i].div;
	name = xstrdup(sl->name.s);
	while (prog_find_set(p, name) >= 0) {
		free(name);
		name = xasprintf("%s_%d", sl->name.s, ++n);
	}
	l->set = name;
	l->map = xasprintf("%s_hist", sl->name.s);

	l->from_key.expr = sl->from.key;
	l->to_key.expr = sl->to.key;
	l->ts.label = (struct spec_str){ .s = "ts", .loc = sl->loc };
	l->ts.expr = (struct spec_str){ .s = "TIME", .loc = sl->loc };

	l->save.name = (struct spec_str){ .s = l->set, .loc = sl->name.loc };
	l->save.key = (struct spec_items){ .v = &l->from_key, .nr = 1, .loc = sl->from.key.loc };
	l->save.values = (struct spec_items){ .v = &l->ts, .nr = 1, .loc = sl->loc };
	l->save.loc = sl->from.loc;

	l->join.name = l->save.name;
	l->join.key = (struct spec_items){ .v = &l->to_key, .nr = 1, .loc = sl->to.key.loc };
	l->join.loc = sl->to.loc;

	l->agg.name.s = xasprintf("%s: %s -> %s", sl->name.s, sl->from.event.s, sl->to.event.s);
	l->agg.name.loc = sl->loc;
	l->agg.fns = AGG_HIST;
	l->agg.val[AGG_HIST_BIT].s = *div ? xasprintf("(TIME - %s.ts)%s", l->set, div) : xasprintf("TIME - %s.ts", l->set);
	l->agg.val[AGG_HIST_BIT].loc = sl->loc;
	l->agg.unit = sl->unit;
	l->agg.by.loc = sl->loc;
	l->agg.loc = sl->loc;
}

int prog_lower_latency(struct prog *p)
{
	const struct spec *s = p->spec;
	int err;

	p->lats = xcalloc(s->nr_lats, sizeof(*p->lats));
	p->nr_lats = s->nr_lats;
	for (int i = 0; i < s->nr_lats; i++) {
		struct pprobe *from = &p->probes[s->nr_events + 2 * i], *to = from + 1;
		struct resolver rf = { .p = p, .pr = from }, rt = { .p = p, .pr = to };
		struct plat *l = &p->lats[i];
		struct psaved *set;

		lower(p, &s->lats[i], l);
		err = check_key(&rf);
		if (!err)
			err = check_key(&rt);
		if (!err)
			err = probe_add_save(&rf, &l->save);
		if (!err)
			err = probe_add_join(&rt, &l->join);
		if (!err)
			err = probe_add_agg_as(&rt, &l->agg, l->map);
		if (err)
			return err;
		/* both keys as 64-bit numbers, as the pair always compared them */
		set = &p->sets[from->saves[0].set];
		if (from->vals[from->saves[0].key.v[0].val].size != to->vals[to->joins[0].key.v[0].val].size) {
			diag_warning(s->path, s->lats[i].loc.line, s->lats[i].loc.col,
				     "latency '%s': the keys have different sizes; both are compared "
				     "as 64-bit numbers", s->lats[i].name.s);
			set->keys[0].size = 8;
			set->keys[0].is_signed = false;
		}
	}
	return 0;
}

void prog_lats_clear(struct prog *p)
{
	for (int i = 0; i < p->nr_lats; i++) {
		free(p->lats[i].set);
		free(p->lats[i].map);
		free(p->lats[i].agg.name.s);
		free(p->lats[i].agg.val[AGG_HIST_BIT].s);
	}
	free(p->lats);
}
