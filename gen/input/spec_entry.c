// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What a spec entry does, as written: named values (let), values carried
 * between events (save, join), records (print) and aggregations (count,
 * hist, aggregate). Expressions stay text here; gen/model/prog.c types them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/limits.h"
#include "input/spec_yaml.h"
#include "lib/util.h"

static int add_item(struct loader *ld, struct spec_items *out, yaml_node_t *label, yaml_node_t *val,
		    const char *what)
{
	struct spec_item *it;
	int err;

	if (out->nr >= SPEC_MAX_ITEMS)
		return node_error(ld, val, "%s has more than %d values", what, SPEC_MAX_ITEMS);
	out->v = xrealloc(out->v, (out->nr + 1) * sizeof(*out->v));
	it = &out->v[out->nr++];
	memset(it, 0, sizeof(*it));
	if (label) {
		err = get_str(ld, label, "a label", &it->label);
		if (!err)
			err = check_ident(ld, &it->label, "label", 32);
		if (!err && !strcmp(it->label.s, "event")) {
			/* JSON lines: each record has "event" already */
			spec_error(ld->spec, &it->label.loc, 0, "label 'event' is reserved (each JSON record "
				   "has an \"event\" key); choose another");
			err = -EINVAL;
		}
		if (err)
			return err;
	}
	err = get_str(ld, val, what, &it->expr);
	if (err)
		return err;
	if (!*it->expr.s)
		return node_error(ld, val, "empty value in %s", what);
	return 0;
}

/* "expr", [expr, label: expr, ...] or { label: expr, ... } */
int get_items(struct loader *ld, yaml_node_t *node, const char *what, struct spec_items *out)
{
	yaml_node_item_t *it;
	yaml_node_pair_t *p;
	int err;

	out->loc = node_loc(node);
	switch (node->type) {
	case YAML_SCALAR_NODE:
		return add_item(ld, out, NULL, node, what);
	case YAML_MAPPING_NODE:
		for (p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
			err = add_item(ld, out, yaml_node(ld, p->key), yaml_node(ld, p->value), what);
			if (err)
				return err;
		}
		break;
	case YAML_SEQUENCE_NODE:
		for (it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
			yaml_node_t *n = yaml_node(ld, *it);

			if (n->type == YAML_MAPPING_NODE) {
				if (n->data.mapping.pairs.top - n->data.mapping.pairs.start != 1)
					return node_error(ld, n, "an item of %s is a value or 'label: value'", what);
				p = n->data.mapping.pairs.start;
				err = add_item(ld, out, yaml_node(ld, p->key), yaml_node(ld, p->value), what);
			} else {
				err = add_item(ld, out, NULL, n, what);
			}
			if (err)
				return err;
		}
		break;
	default:
		return node_error(ld, node, "%s is empty", what);
	}
	if (!out->nr)
		return node_error(ld, node, "%s is an empty list", what);
	return 0;
}

int get_lets(struct loader *ld, yaml_node_t *node, struct spec_probe *pr)
{
	yaml_node_pair_t *p;
	int err;

	if (node->type != YAML_MAPPING_NODE)
		return node_error(ld, node, "'let' is a mapping of names to values ({ lat: time - start.ts })");
	for (p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
		struct spec_let *l;

		if (pr->nr_lets >= SPEC_MAX_ITEMS)
			return node_error(ld, node, "'let' has more than %d names", SPEC_MAX_ITEMS);
		pr->lets = xrealloc(pr->lets, (pr->nr_lets + 1) * sizeof(*pr->lets));
		l = &pr->lets[pr->nr_lets++];
		memset(l, 0, sizeof(*l));
		err = get_str(ld, yaml_node(ld, p->key), "a name", &l->name);
		if (!err)
			err = check_ident(ld, &l->name, "name", 32);
		if (!err && !strcmp(l->name.s, "event")) {
			/* printed, it would be a second "event" key of a JSON record */
			spec_error(ld->spec, &l->name.loc, 0, "name 'event' is reserved (each JSON record "
				   "has an \"event\" key); choose another");
			err = -EINVAL;
		}
		if (!err)
			err = get_str(ld, yaml_node(ld, p->value), "a value", &l->expr);
		if (err)
			return err;
		if (!*l->expr.s)
			return node_error(ld, yaml_node(ld, p->value), "empty value");
	}
	return 0;
}

static int get_bool(struct loader *ld, yaml_node_t *node, const char *what, bool *out)
{
	struct spec_str s = {};
	int err = get_str(ld, node, what, &s);

	if (err)
		return err;
	if (!strcmp(s.s, "true") || !strcmp(s.s, "yes") || !strcmp(s.s, "on"))
		*out = true;
	else if (!strcmp(s.s, "false") || !strcmp(s.s, "no") || !strcmp(s.s, "off"))
		*out = false;
	else
		err = node_error(ld, node, "%s is true or false, not '%s'", what, s.s);
	free(s.s);
	return err;
}

static int get_int(struct loader *ld, yaml_node_t *node, const char *what, long long min, long long max,
		   long long *out)
{
	struct spec_str s = {};
	char *end;
	int err = get_str(ld, node, what, &s);

	if (err)
		return err;
	errno = 0;
	*out = strtoll(s.s, &end, 0);
	if (errno || end == s.s || *end || *out < min || *out > max)
		err = node_error(ld, node, "%s must be a number from %lld to %lld, not '%s'", what, min, max,
				 s.s);
	free(s.s);
	return err;
}

/* 'what' is a mapping, or a list of them: call 'one' for each */
static int each_map(struct loader *ld, yaml_node_t *node, const char *what,
		    int (*one)(struct loader *, yaml_node_t *, struct spec_probe *), struct spec_probe *pr)
{
	yaml_node_item_t *it;
	int err, n = 0;

	if (node->type == YAML_MAPPING_NODE || node->type == YAML_SCALAR_NODE)
		return one(ld, node, pr);
	if (node->type != YAML_SEQUENCE_NODE)
		return node_error(ld, node, "'%s' is a mapping or a list of them, not %s", what, node_kind(node));
	for (it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
		if (++n > SPEC_MAX_ITEMS)
			return node_error(ld, node, "'%s' has more than %d entries", what, SPEC_MAX_ITEMS);
		err = one(ld, yaml_node(ld, *it), pr);
		if (err)
			return err;
	}
	return 0;
}

static int one_join(struct loader *ld, yaml_node_t *node, struct spec_probe *pr)
{
	static const char *const keys[] = { "name", "key", "keep", "optional", "default" };
	yaml_node_t *dflt = NULL;
	struct spec_join *j;
	yaml_node_pair_t *p;
	yaml_node_t *val;
	const char *key;
	int err = 0;

	pr->joins = xrealloc(pr->joins, (pr->nr_joins + 1) * sizeof(*pr->joins));
	j = &pr->joins[pr->nr_joins++];
	memset(j, 0, sizeof(*j));
	j->loc = node_loc(node);
	if (node->type == YAML_SCALAR_NODE) {
		err = get_str(ld, node, "join", &j->name);
		return err ? err : check_ident(ld, &j->name, "name", 32);
	}
	if (node->type != YAML_MAPPING_NODE)
		return node_error(ld, node, "'join' is a name, or { name: NAME, key: [...], keep: BOOL, "
				  "optional: BOOL, default: { member: value } }");
	err = check_keys(ld, node, "join", keys, ARRAY_SIZE(keys));
	if (err)
		return err;
	for_each_pair(ld, node, key, val, p) {
		if (!strcmp(key, "name"))
			err = get_str(ld, val, "name", &j->name);
		else if (!strcmp(key, "key"))
			err = get_items(ld, val, "key", &j->key);
		else if (!strcmp(key, "keep"))
			err = get_bool(ld, val, "keep", &j->keep);
		else if (!strcmp(key, "optional")) {
			j->optional_loc = node_loc(val);
			err = get_bool(ld, val, "optional", &j->optional);
		} else {
			dflt = val;
			if (val->type != YAML_MAPPING_NODE)
				return node_error(ld, val, "'default' is a mapping of saved values to what they "
						  "are when nothing was saved ({ ts: time })");
			err = get_items(ld, val, "default", &j->defaults);
		}
		if (err)
			return err;
	}
	if (!j->name.s)
		return node_error(ld, node, "join has no 'name' (the name a 'save' gave)");
	if (dflt && !j->optional)
		return node_error(ld, dflt, "'default' is for an optional join: add 'optional: true'");
	return check_ident(ld, &j->name, "name", 32);
}

int get_joins(struct loader *ld, yaml_node_t *node, struct spec_probe *pr)
{
	return each_map(ld, node, "join", one_join, pr);
}

static int one_save(struct loader *ld, yaml_node_t *node, struct spec_probe *pr)
{
	static const char *const keys[] = { "name", "key", "values", "if_absent", "entries" };
	struct spec_save *sv;
	yaml_node_pair_t *p;
	yaml_node_t *val;
	const char *key;
	int err;

	if (node->type != YAML_MAPPING_NODE)
		return node_error(ld, node, "'save' is { name: NAME, key: [...], values: { name: value } }");
	err = check_keys(ld, node, "save", keys, ARRAY_SIZE(keys));
	if (err)
		return err;
	pr->saves = xrealloc(pr->saves, (pr->nr_saves + 1) * sizeof(*pr->saves));
	sv = &pr->saves[pr->nr_saves++];
	memset(sv, 0, sizeof(*sv));
	sv->loc = node_loc(node);
	for_each_pair(ld, node, key, val, p) {
		if (!strcmp(key, "name"))
			err = get_str(ld, val, "name", &sv->name);
		else if (!strcmp(key, "key"))
			err = get_items(ld, val, "key", &sv->key);
		else if (!strcmp(key, "if_absent"))
			err = get_bool(ld, val, "if_absent", &sv->if_absent);
		else if (!strcmp(key, "entries"))
			err = get_int(ld, val, "entries", 1, SAVE_MAX_ENTRIES, &sv->entries);
		else
			err = get_items(ld, val, "values", &sv->values);
		if (err)
			return err;
	}
	if (!sv->name.s)
		return node_error(ld, node, "save has no 'name' (what a later 'join' calls these values)");
	if (!sv->values.nr)
		return node_error(ld, node, "save has no 'values' ({ ts: time, path: filename })");
	return check_ident(ld, &sv->name, "name", 32);
}

int get_saves(struct loader *ld, yaml_node_t *node, struct spec_probe *pr)
{
	return each_map(ld, node, "save", one_save, pr);
}

static struct spec_agg *new_agg(struct spec_probe *pr, yaml_node_t *node)
{
	struct spec_agg *a;

	pr->aggs = xrealloc(pr->aggs, (pr->nr_aggs + 1) * sizeof(*pr->aggs));
	a = &pr->aggs[pr->nr_aggs++];
	memset(a, 0, sizeof(*a));
	a->loc = node_loc(node);
	return a;
}

static int get_lhist(struct loader *ld, yaml_node_t *node, struct spec_agg *a)
{
	static const char *const keys[] = { "value", "min", "max", "step" };
	bool have_max = false, have_step = false;
	yaml_node_pair_t *p;
	yaml_node_t *val;
	const char *key;
	int err;

	if (node->type != YAML_MAPPING_NODE)
		return node_error(ld, node, "'lhist' is { value: EXPR, min: N, max: N, step: N }");
	err = check_keys(ld, node, "lhist", keys, ARRAY_SIZE(keys));
	for_each_pair(ld, node, key, val, p) {
		if (err)
			return err;
		if (!strcmp(key, "value"))
			err = get_str(ld, val, "value", &a->val[AGG_LHIST_BIT]);
		else if (!strcmp(key, "min"))
			err = get_int(ld, val, "min", LLONG_MIN / 4, LLONG_MAX / 4, &a->lmin);
		else if (!strcmp(key, "max"))
			err = get_int(ld, val, "max", LLONG_MIN / 4, LLONG_MAX / 4, &a->lmax), have_max = true;
		else
			err = get_int(ld, val, "step", 1, LLONG_MAX / 4, &a->lstep), have_step = true;
	}
	if (err)
		return err;
	if (!a->val[AGG_LHIST_BIT].s || !have_max || !have_step)
		return node_error(ld, node, "'lhist' needs value, max and step (min is 0 by default)");
	if (a->lmax <= a->lmin)
		return node_error(ld, node, "'lhist' max must be above min");
	if ((a->lmax - a->lmin) / a->lstep > 1000)
		return node_error(ld, node, "'lhist' has more than 1000 buckets: use a larger step");
	return 0;
}

/* metrics: { stacks: folded | none }: how --metrics exports the aggregate */
static int get_metrics(struct loader *ld, yaml_node_t *node, struct spec_agg *a)
{
	static const char *const keys[] = { "stacks" };
	yaml_node_pair_t *p;
	yaml_node_t *val;
	const char *key;
	int err;

	if (node->type != YAML_MAPPING_NODE)
		return node_error(ld, node, "'metrics' is { stacks: folded }");
	err = check_keys(ld, node, "metrics", keys, ARRAY_SIZE(keys));
	for_each_pair(ld, node, key, val, p) {
		if (err)
			return err;
		err = get_str(ld, val, key, &a->stacks);	/* "stacks", its one key */
		if (!err && strcmp(a->stacks.s, "folded") && strcmp(a->stacks.s, "none"))
			return node_error(ld, val, "unknown stacks '%s' (folded: each stack a label, its frames "
					  "as -f folds them; none)", a->stacks.s);
	}
	if (!err && a->stacks.s && !strcmp(a->stacks.s, "none")) {
		free(a->stacks.s);
		a->stacks.s = NULL;
	}
	return err;
}

/* The functions of an aggregate, from their list (model/aggfns.h). */
static const struct {
	const char *name;
	enum agg_arg arg;
	bool column;		/* a column of a table (not a histogram), which rows can be sorted by */
} fns[] = {
#define X(id, nm, ar, ...)	[AGG_##id##_BIT] = { nm, ar, !(AGG_##id & (AGG_HIST | AGG_LHIST)) },
	AGG_FNS(X)
#undef X
};

/* "count, sum, ... or stddev": the functions 'mask' has, then 'last', the last after 'conj' */
static void fn_list(char *buf, size_t size, unsigned int mask, const char *last, const char *conj)
{
	size_t len = 0;
	int i, n = 0, nr = 0;

	for (i = 0; i < AGG_NR_FNS; i++)
		nr += !!(mask & (1u << i));
	nr += !!last;
	buf[0] = '\0';
	for (i = 0; i < AGG_NR_FNS && len < size; i++)
		if (mask & (1u << i))
			len += snprintf(buf + len, size - len, "%s%s", n++ ? n == nr ? conj : ", " : "",
					fns[i].name);
	if (last && len < size)
		snprintf(buf + len, size - len, "%s%s", conj, last);
}

static struct spec_col *new_col(struct spec_agg *a, enum spec_col_kind kind)
{
	struct spec_col *c;

	a->cols = xrealloc(a->cols, (a->nr_cols + 1) * sizeof(*a->cols));
	c = &a->cols[a->nr_cols++];
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->decimals = 2;
	return c;
}

/*
 * A column's name: a C identifier, not a function's (but 'own''s, which it
 * may be the column of) nor 'key' (sort), not taken by another column.
 */
static int col_name(struct loader *ld, struct spec_agg *a, struct spec_col *c, yaml_node_t *node, int own)
{
	int err = get_str(ld, node, "a column name", &c->name);

	if (!err)
		err = check_ident(ld, &c->name, "column name", 32);
	if (err)
		return err;
	for (int i = 0; i < AGG_NR_FNS; i++)
		if (!strcmp(c->name.s, fns[i].name) && i != own)
			return node_error(ld, node, "column '%s' has the name of a function: choose another",
					  c->name.s);
	if (!strcmp(c->name.s, "key"))
		return node_error(ld, node, "column name 'key' is reserved ('sort: key' sorts by the keys)");
	for (struct spec_col *o = a->cols; o < c; o++)
		if (!strcmp(o->name.s, c->name.s))
			return node_error(ld, node, "duplicate column name '%s' (first at line %d)", c->name.s,
					  o->name.loc.line);
	if (a->nr_cols > SPEC_MAX_ITEMS)
		return node_error(ld, node, "the aggregate has more than %d columns", SPEC_MAX_ITEMS);
	return 0;
}

/*
 * 'count:', 'sum:' or 'max_at:' as a mapping of column names to values
 * (a count's: true, or the condition it counts under). The first count of
 * true, the first sum and the first max_at are the function's own column
 * (what avg and stddev divide and add, what max_at's max keeps), shown
 * under its name; the others are columns beside it.
 */
static int get_named(struct loader *ld, yaml_node_t *node, struct spec_agg *a, int fn)
{
	enum spec_col_kind kind = fn == AGG_COUNT_BIT ? SPEC_COL_COUNT : fn == AGG_SUM_BIT ? SPEC_COL_SUM :
				  SPEC_COL_AT;
	yaml_node_pair_t *p;
	int err;

	if (!node->data.mapping.pairs.top || node->data.mapping.pairs.top == node->data.mapping.pairs.start)
		return node_error(ld, node, "'%s' names no column", fns[fn].name);
	for (p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
		yaml_node_t *v = yaml_node(ld, p->value);
		struct spec_col *c = new_col(a, kind);
		bool always;

		err = col_name(ld, a, c, yaml_node(ld, p->key), fn);
		if (!err)
			err = get_str(ld, v, fns[fn].name, &c->val);
		if (err)
			return err;
		if (!*c->val.s)
			return node_error(ld, v, "empty value of column '%s'", c->name.s);
		always = kind == SPEC_COL_COUNT && (!strcmp(c->val.s, "true") || !strcmp(c->val.s, "yes") ||
						    !strcmp(c->val.s, "on"));
		if (kind == SPEC_COL_COUNT && (!strcmp(c->val.s, "false") || !strcmp(c->val.s, "no") ||
					       !strcmp(c->val.s, "off")))
			return node_error(ld, v, "column '%s' would count nothing: give it true, or the "
					  "condition it counts under ('ret < 0')", c->name.s);
		if (always && !(a->fns & AGG_COUNT)) {
			a->fns |= AGG_COUNT;
		} else if (kind != SPEC_COL_COUNT && !(a->fns & (1u << fn))) {
			a->fns |= 1u << fn;
			a->val[fn].s = xstrdup(c->val.s);
			a->val[fn].loc = c->val.loc;
		} else if (!strcmp(c->name.s, fns[fn].name)) {
			return node_error(ld, yaml_node(ld, p->key), "column '%s' has the name of a function, and "
					  "only its own column (the first %s) may: choose another", c->name.s,
					  kind == SPEC_COL_COUNT ? "count of true" : fns[fn].name);
		}
		if (always) {
			free(c->val.s);
			c->val.s = NULL;
		}
	}
	return 0;
}

/* derive: { name: EXPR, name: { value: EXPR, decimals: N, percent: true } } */
static int get_derived(struct loader *ld, yaml_node_t *node, struct spec_agg *a)
{
	static const char *const keys[] = { "value", "decimals", "percent" };
	yaml_node_pair_t *p, *q;
	const char *key;
	yaml_node_t *val;
	long long n;
	int err;

	if (node->type != YAML_MAPPING_NODE || node->data.mapping.pairs.top == node->data.mapping.pairs.start)
		return node_error(ld, node, "'derive' is a mapping of column names to expressions of the row's "
				  "columns ({ frag: 100 * (alloc - req) / alloc })");
	for (p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
		yaml_node_t *v = yaml_node(ld, p->value);
		struct spec_col *c = new_col(a, SPEC_COL_DERIVED);

		err = col_name(ld, a, c, yaml_node(ld, p->key), -1);
		if (err)
			return err;
		if (v->type != YAML_MAPPING_NODE) {
			err = get_str(ld, v, "a derived column", &c->val);
		} else {
			err = check_keys(ld, v, "a derived column", keys, ARRAY_SIZE(keys));
			for_each_pair(ld, v, key, val, q) {
				if (err)
					return err;
				if (!strcmp(key, "value")) {
					err = get_str(ld, val, "value", &c->val);
				} else if (!strcmp(key, "decimals")) {
					err = get_int(ld, val, "decimals", 0, 9, &n);
					c->decimals = n;
				} else {
					err = get_bool(ld, val, "percent", &c->percent);
				}
			}
			if (!err && !c->val.s)
				return node_error(ld, v, "derived column '%s' needs a value", c->name.s);
		}
		if (err)
			return err;
		if (!*c->val.s)
			return node_error(ld, v, "empty value of column '%s'", c->name.s);
	}
	return 0;
}

static int one_agg(struct loader *ld, yaml_node_t *node, struct spec_probe *pr)
{
	static const char *const keys[] = {
		"name", "by",
#define X(id, nm, ...)	nm,
		AGG_FNS(X)
#undef X
		"derive", "unit", "sort", "top", "subtract", "metrics",
	};
	unsigned int all = (1u << AGG_NR_FNS) - 1, columns = 0;
	char list[256];
	yaml_node_pair_t *p;
	yaml_node_t *val;
	struct spec_agg *a;
	const char *key;
	long long top;
	bool count;
	int err, i;

	for (i = 0; i < AGG_NR_FNS; i++)
		columns |= fns[i].column ? 1u << i : 0;
	if (node->type != YAML_MAPPING_NODE)
		return node_error(ld, node, "an aggregate is a mapping: { by: [comm], count: true, sum: bytes }");
	err = check_keys(ld, node, "aggregate", keys, ARRAY_SIZE(keys));
	if (err)
		return err;
	a = new_agg(pr, node);
	for_each_pair(ld, node, key, val, p) {
		for (i = 0; i < AGG_NR_FNS; i++)
			if (!strcmp(key, fns[i].name))
				break;
		if (i < AGG_NR_FNS && val->type == YAML_MAPPING_NODE &&
		    (i == AGG_COUNT_BIT || i == AGG_SUM_BIT || i == AGG_MAX_AT_BIT)) {
			err = get_named(ld, val, a, i);
		} else if (i < AGG_NR_FNS) {
			switch (fns[i].arg) {
			case AGG_ARG_BOOL:
				err = get_bool(ld, val, fns[i].name, &count);
				if (!err && count)
					a->fns |= 1u << i;
				break;
			case AGG_ARG_VALUE:
				err = get_str(ld, val, fns[i].name, &a->val[i]);
				a->fns |= 1u << i;
				break;
			case AGG_ARG_LHIST:
				err = get_lhist(ld, val, a);
				a->fns |= 1u << i;
				break;
			}
		} else if (!strcmp(key, "name"))
			err = get_str(ld, val, "name", &a->name);
		else if (!strcmp(key, "by"))
			err = get_items(ld, val, "by", &a->by);
		else if (!strcmp(key, "unit"))
			err = get_str(ld, val, "unit", &a->unit);
		else if (!strcmp(key, "sort"))
			err = get_str(ld, val, "sort", &a->sort);
		else if (!strcmp(key, "subtract"))
			err = get_bool(ld, val, "subtract", &a->subtract);
		else if (!strcmp(key, "derive"))
			err = get_derived(ld, val, a);
		else if (!strcmp(key, "metrics"))
			err = get_metrics(ld, val, a);
		else {
			err = get_int(ld, val, "top", 1, 1000000, &top);
			a->top = top;
		}
		if (err)
			return err;
	}
	for (i = 0, count = false; i < a->nr_cols; i++)
		count |= a->cols[i].kind == SPEC_COL_COUNT;	/* of a condition: a column of its own */
	if (!a->fns && !count) {
		fn_list(list, sizeof(list), all, NULL, " or ");
		return node_error(ld, node, "the aggregate computes nothing: give it %s", list);
	}
	if ((a->fns & (AGG_HIST | AGG_LHIST)) && (a->fns & ~(AGG_HIST | AGG_LHIST))) {
		fn_list(list, sizeof(list), columns, NULL, " and ");
		return node_error(ld, node, "a histogram is an aggregate of its own: %s go in another", list);
	}
	if ((a->fns & (AGG_HIST | AGG_LHIST)) && a->nr_cols)
		return node_error(ld, node, "a histogram is an aggregate of its own: named and derived columns "
				  "go in another");
	if ((a->fns & AGG_HIST) && (a->fns & AGG_LHIST))
		return node_error(ld, node, "hist and lhist go in two aggregates");
	if ((a->fns & AGG_MAX_AT) && !(a->fns & AGG_MAX))
		return node_error(ld, node, "max_at is a value of the event that set max: give the aggregate "
				  "a max");
	if (a->subtract && (a->fns & (AGG_MIN | AGG_MAX | AGG_HIST | AGG_LHIST)))
		return node_error(ld, node, "subtract takes away from count, sum, avg and stddev; min, max and "
				  "histograms cannot be taken back");
	if (a->subtract && !a->name.s)
		return node_error(ld, node, "subtract takes away from the table another entry adds to: give "
				  "both the same 'name'");
	for (i = 0; a->sort.s && i < a->nr_cols; i++)
		if (!strcmp(a->sort.s, a->cols[i].name.s))
			return 0;
	if (a->sort.s && strcmp(a->sort.s, "key")) {
		for (i = 0; i < AGG_NR_FNS; i++)
			if (fns[i].column && !strcmp(a->sort.s, fns[i].name))
				break;
		if (i == AGG_NR_FNS) {
			fn_list(list, sizeof(list), columns, "key", " or ");
			return node_error(ld, node, "unknown sort '%s' (%s)", a->sort.s, list);
		}
		if (!(a->fns & (1u << i)))
			return node_error(ld, node, "sort by %s, which the aggregate does not compute",
					  a->sort.s);
	}
	return 0;
}

int get_aggs(struct loader *ld, yaml_node_t *node, struct spec_probe *pr)
{
	return each_map(ld, node, "aggregate", one_agg, pr);
}

/* 'count: [keys]' and 'hist: value', as specs have always written them */
int add_legacy_agg(struct loader *ld, yaml_node_t *node, struct spec_probe *pr, bool hist)
{
	struct spec_agg *a = new_agg(pr, node);

	a->legacy = true;
	if (hist) {
		a->fns = AGG_HIST;
		return get_str(ld, node, "hist", &a->val[AGG_HIST_BIT]);
	}
	a->fns = AGG_COUNT;
	return get_items(ld, node, "count", &a->by);
}

static void free_items(struct spec_items *l)
{
	for (int i = 0; i < l->nr; i++) {
		free(l->v[i].label.s);
		free(l->v[i].expr.s);
	}
	free(l->v);
}

void spec_probe_clear(struct spec_probe *pr)
{
	int i;

	free(pr->event.s);
	free(pr->sys);
	free(pr->name);
	free(pr->filter.s);
	for (i = 0; i < pr->nr_lets; i++) {
		free(pr->lets[i].name.s);
		free(pr->lets[i].expr.s);
	}
	free(pr->lets);
	for (i = 0; i < pr->nr_joins; i++) {
		free(pr->joins[i].name.s);
		free_items(&pr->joins[i].key);
		free_items(&pr->joins[i].defaults);
	}
	free(pr->joins);
	for (i = 0; i < pr->nr_saves; i++) {
		free(pr->saves[i].name.s);
		free_items(&pr->saves[i].key);
		free_items(&pr->saves[i].values);
	}
	free(pr->saves);
	free_items(&pr->print);
	for (i = 0; i < pr->nr_aggs; i++) {
		struct spec_agg *a = &pr->aggs[i];

		free(a->name.s);
		free_items(&a->by);
		for (int f = 0; f < AGG_NR_FNS; f++)
			free(a->val[f].s);
		free(a->unit.s);
		free(a->sort.s);
		for (int c = 0; c < a->nr_cols; c++) {
			free(a->cols[c].name.s);
			free(a->cols[c].val.s);
		}
		free(a->cols);
		free(a->stacks.s);
	}
	free(pr->aggs);
	free(pr->key.s);
}
