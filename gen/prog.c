// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The program model: each entry of a spec resolved against the kernel --
 * tracefs format fields for tracepoint programs, raw arguments from BTF for
 * raw_tp/tp_btf (members read through pointer arguments) -- into probes with
 * typed values, filters and records, for the emitters.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "cmd.h"
#include "emit.h"
#include "ident.h"
#include "prog.h"

/* String buffers the filter tests, for strings of no fixed size. */
#define FILTER_STR_MAX 128


/* ---- values ------------------------------------------------------------ */

struct tinfo {
	enum pvalue_kind kind;
	unsigned int size;
	bool is_signed;
	bool str_ptr;
	__u32 struct_id;	/* PV_PTR to a struct or union */
};

static __u32 skip_mods(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	return id;
}

/* What a BTF type is to a handler; -EOPNOTSUPP for what it cannot read or print. */
static int classify(const struct btf *btf, __u32 id, struct tinfo *ti)
{
	const struct btf_type *t = btf__type_by_id(btf, skip_mods(btf, id)), *e;

	memset(ti, 0, sizeof(*ti));
	if (!t)
		return -EOPNOTSUPP;
	if (btf_is_int(t) && t->size <= 8) {
		ti->kind = PV_INT;
		ti->size = t->size;
		ti->is_signed = btf_int_encoding(t) & BTF_INT_SIGNED;
		return 0;
	}
	if (btf_is_enum(t) || btf_is_enum64(t)) {
		ti->kind = PV_INT;
		ti->size = t->size;
		ti->is_signed = btf_kflag(t);
		return 0;
	}
	if (btf_is_ptr(t)) {
		__u32 pid = skip_mods(btf, t->type);

		e = btf__type_by_id(btf, pid);
		ti->kind = PV_PTR;
		ti->size = 8;
		if (e && btf_is_int(e) && e->size == 1) {
			ti->kind = PV_STR;
			ti->str_ptr = true;
			ti->size = 0;
		} else if (e && (btf_is_struct(e) || btf_is_union(e))) {
			ti->struct_id = pid;
		}
		return 0;
	}
	if (btf_is_array(t)) {
		e = btf__type_by_id(btf, skip_mods(btf, btf_array(t)->type));
		if (e && btf_is_int(e) && e->size == 1 && btf_array(t)->nelems) {
			ti->kind = PV_STR;
			ti->size = btf_array(t)->nelems;
			return 0;
		}
	}
	return -EOPNOTSUPP;
}

/* A member of a struct or union, looking into anonymous members as C does. */
static int find_member(const struct btf *btf, __u32 struct_id, const char *name, __u32 *type_id)
{
	const struct btf_type *t = btf__type_by_id(btf, struct_id), *mt;
	const struct btf_member *m;
	int i;

	if (!t || !(btf_is_struct(t) || btf_is_union(t)))
		return -ENOENT;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *mname = btf__name_by_offset(btf, m->name_off);

		if (mname && *mname) {
			if (!strcmp(mname, name)) {
				*type_id = m->type;
				return 0;
			}
			continue;
		}
		mt = btf__type_by_id(btf, skip_mods(btf, m->type));
		if (mt && (btf_is_struct(mt) || btf_is_union(mt)) &&
		    !find_member(btf, skip_mods(btf, m->type), name, type_id))
			return 0;
	}
	return -ENOENT;
}

struct resolver {
	struct prog *p;
	struct pprobe *pr;
	const struct spec_str *src;	/* the scalar naming the field */
	const char *what;		/* "filter", "print", ... */
};

static int unknown_field(struct resolver *r, const char *name, size_t off)
{
	const char **cands = NULL;
	const char *hint;
	struct strbuf list;
	int n = 0, i;

	sb_init(&list);
	if (r->pr->attach == ATTACH_TRACEPOINT) {
		for (i = 0; i < r->pr->ev->nr_fields; i++) {
			cands = xrealloc(cands, (n + 1) * sizeof(*cands));
			cands[n++] = r->pr->ev->fields[i].name;
		}
	} else {
		for (i = 0; i < r->pr->raw->nr_args; i++) {
			cands = xrealloc(cands, (n + 1) * sizeof(*cands));
			cands[n++] = r->pr->raw->args[i].name;
			sb_printf(&list, "%s%s", i ? ", " : "", r->pr->raw->args[i].name);
		}
	}
	hint = spec_suggest(name, cands, n);
	if (hint)
		spec_error(r->p->spec, &r->src->loc, off, "unknown field '%s' in %s (did you mean '%s'?)",
			   name, r->what, hint);
	else if (r->pr->attach != ATTACH_TRACEPOINT)
		spec_error(r->p->spec, &r->src->loc, off,
			   "unknown field '%s' in %s: not an argument of raw tracepoint %s (%s), "
			   "nor a member read through one", name, r->what, r->pr->raw->name, list.buf);
	else
		spec_error(r->p->spec, &r->src->loc, off, "unknown field '%s' in %s: %s/%s has no such field",
			   name, r->what, r->pr->ev->sys, r->pr->ev->name);
	sb_free(&list);
	free(cands);
	return -EINVAL;
}

/* Fill v from a raw argument and a member chain ("pid" or "mm", "owner"). */
static int raw_value(struct resolver *r, struct pvalue *v, const struct raw_arg *a, char **members,
		     int nr_members, size_t off)
{
	const struct btf *btf = r->p->btf;
	struct tinfo ti;
	struct strbuf path;
	__u32 id = a->type_id;
	int i;

	sb_init(&path);
	if (classify(btf, id, &ti))
		goto unsupported;
	if (nr_members && ti.kind == PV_PTR && ti.struct_id) {
		static const char *const taken[] = { "ctx", "args", "e", "key", "ts", "tsp", "delta" };
		const struct btf_type *st = btf__type_by_id(btf, ti.struct_id);

		/* CO-RE reads start from a local: args->x would be relocated against the args struct */
		v->arg_type = xasprintf("%s %s *", btf_is_union(st) ? "union" : "struct",
					btf__name_by_offset(btf, st->name_off));
		v->arg_local = xstrdup(a->name);
		/* tp_btf pointers are BTF-typed: members are read directly, faults handled */
		v->btf_direct = r->pr->attach == ATTACH_TP_BTF;
		for (i = 0; i < (int)ARRAY_SIZE(taken); i++)
			if (!strcmp(a->name, taken[i]) || !strncmp(a->name, "buf_", 4)) {
				free(v->arg_local);
				v->arg_local = xasprintf("arg_%s", a->name);
				break;
			}
	}
	for (i = 0; i < nr_members; i++) {
		if (ti.kind != PV_PTR || !ti.struct_id) {
			spec_error(r->p->spec, &r->src->loc, off, "'%s' is not a pointer to a struct: "
				   "cannot read '%s' through it", i ? members[i - 1] : a->name, members[i]);
			sb_free(&path);
			return -EINVAL;
		}
		if (find_member(btf, ti.struct_id, members[i], &id)) {
			const struct btf_type *st = btf__type_by_id(btf, ti.struct_id);

			spec_error(r->p->spec, &r->src->loc, off, "%s %s has no member '%s'",
				   btf_is_union(st) ? "union" : "struct",
				   btf__name_by_offset(btf, st->name_off), members[i]);
			sb_free(&path);
			return -EINVAL;
		}
		sb_printf(&path, "%s%s", i ? ", " : "", members[i]);
		if (classify(btf, id, &ti))
			goto unsupported;
	}
	v->src = PV_RAW;
	v->kind = ti.kind;
	v->size = ti.size;
	v->is_signed = ti.is_signed;
	v->str_ptr = ti.str_ptr;
	v->arg = xstrdup(a->name);
	v->path = nr_members ? sb_steal(&path) : NULL;
	sb_free(&path);
	return 0;
unsupported:
	spec_error(r->p->spec, &r->src->loc, off, "'%s' has a type tpgen cannot read here "
		   "(integers, enums, pointers and char strings only)", v->name);
	sb_free(&path);
	return -EINVAL;
}

static const struct raw_arg *find_arg(const struct raw_tp *tp, const char *name)
{
	for (int i = 0; i < tp->nr_args; i++)
		if (!strcmp(tp->args[i].name, name))
			return &tp->args[i];
	return NULL;
}

static int resolve_raw(struct resolver *r, struct pvalue *v, const char *name, size_t off)
{
	const struct raw_tp *tp = r->pr->raw;
	const struct raw_arg *a, *found = NULL;
	char *members[16], *copy, *s, *arrow;
	struct tinfo ti;
	__u32 id;
	int n = 0, i, err, nfound = 0;
	const char *rest = NULL;

	if (strstr(name, "->")) {
		copy = xstrdup(name);
		for (s = copy; (arrow = strstr(s, "->")) && n < 15; s = arrow + 2) {
			*arrow = '\0';
			members[n++] = s;
		}
		members[n++] = s;
		a = find_arg(tp, members[0]);
		if (!a) {
			err = unknown_field(r, members[0], off);
			free(copy);
			return err;
		}
		err = raw_value(r, v, a, members + 1, n - 1, off);
		free(copy);
		return err;
	}
	a = find_arg(tp, name);
	if (a)
		return raw_value(r, v, a, NULL, 0, off);
	/*
	 * Format fields that the kernel fills from an argument's members, as
	 * sched_switch's next_comm (next->comm) or sched_wakeup's pid (p->pid):
	 * "<arg>_<member>" first, then a member that exactly one argument has.
	 */
	for (i = 0; i < tp->nr_args; i++) {
		size_t len = strlen(tp->args[i].name);

		if (classify(r->p->btf, tp->args[i].type_id, &ti) || ti.kind != PV_PTR || !ti.struct_id)
			continue;
		if (!strncmp(name, tp->args[i].name, len) && name[len] == '_' &&
		    !find_member(r->p->btf, ti.struct_id, name + len + 1, &id)) {
			found = &tp->args[i];
			rest = name + len + 1;
			nfound = 1;
			break;
		}
	}
	if (!found) {
		for (i = 0; i < tp->nr_args; i++) {
			if (classify(r->p->btf, tp->args[i].type_id, &ti) || ti.kind != PV_PTR ||
			    !ti.struct_id || find_member(r->p->btf, ti.struct_id, name, &id))
				continue;
			if (!found)
				found = &tp->args[i];
			nfound++;
		}
		rest = name;
	}
	if (nfound > 1) {
		spec_error(r->p->spec, &r->src->loc, off, "'%s' is ambiguous on raw tracepoint %s: "
			   "write '%s->%s' or another argument", name, tp->name, found->name, name);
		return -EINVAL;
	}
	if (!found)
		return -ENOENT;
	members[0] = (char *)rest;
	return raw_value(r, v, found, members, 1, off);
}

static int resolve_ctx(struct resolver *r, struct pvalue *v, const char *name, size_t off)
{
	const struct tp_event *ev = r->pr->ev;
	const struct tp_field *f = NULL;
	int i;

	for (i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			f = &ev->fields[i];
	if (!f)
		return -ENOENT;
	if (f->offset < 8) {
		/* tp programs cannot read the common header; common_pid is the current thread */
		if (!strcmp(f->name, "common_pid")) {
			v->src = PV_TID;
			v->kind = PV_INT;
			v->size = 4;
			v->is_signed = true;
			return 0;
		}
		spec_error(r->p->spec, &r->src->loc, off, "'%s' is in the common header, which BPF "
			   "programs cannot read (common_pid can be read)", name);
		return -EINVAL;
	}
	v->src = PV_CTX;
	v->field = f;
	switch (f->kind) {
	case FIELD_SCALAR:
		if (f->size > 8)
			break;
		v->kind = PV_INT;
		v->size = f->size;
		v->is_signed = f->is_signed;
		return 0;
	case FIELD_POINTER:
		v->kind = PV_PTR;
		v->size = 8;
		return 0;
	case FIELD_ARRAY:
		if (!f->is_string)
			break;
		v->kind = PV_STR;
		v->size = f->size;
		return 0;
	case FIELD_DATA_LOC:
	case FIELD_REL_LOC:
		if (!f->is_string)
			break;
		v->kind = PV_STR;
		v->size = 0;
		return 0;
	default:
		break;
	}
	spec_error(r->p->spec, &r->src->loc, off, "field '%s' (%s) has a type tpgen cannot read here "
		   "(integers, pointers and char strings only)", name, f->type);
	return -EINVAL;
}

static char *c_name_of(const char *name)
{
	char *c = xmalloc(strlen(name) + 1), *d = c;
	const char *s;

	for (s = name; *s; s++) {
		if (s[0] == '-' && s[1] == '>') {
			*d++ = '_';
			s++;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
	return c;
}

/* The value 'name' of the probe (added once), its index, or -EINVAL (reported). */
static int resolve(struct resolver *r, const char *name, size_t off)
{
	struct pprobe *pr = r->pr;
	struct pvalue v = { .name = (char *)name };
	int i, err;

	for (i = 0; i < pr->nr_vals; i++)
		if (!strcmp(pr->vals[i].name, name))
			return i;
	if (pr->attach == ATTACH_TRACEPOINT)
		err = resolve_ctx(r, &v, name, off);
	else
		err = resolve_raw(r, &v, name, off);
	if (err == -ENOENT) {
		/* tracefs' COMM and CPU, and 'comm'/'cpu' where the event has no such field */
		if (!strcmp(name, "COMM") || !strcmp(name, "comm")) {
			v.src = PV_COMM;
			v.kind = PV_STR;
			v.size = 16;
			err = 0;
		} else if (!strcmp(name, "CPU") || !strcmp(name, "cpu")) {
			v.src = PV_CPU;
			v.kind = PV_INT;
			v.size = 4;
			err = 0;
		} else {
			return unknown_field(r, name, off);
		}
	}
	if (err)
		return err;
	if (v.src == PV_COMM || v.src == PV_CPU)
		for (i = 0; i < pr->nr_vals; i++)
			if (pr->vals[i].src == v.src)
				return i;
	if (v.src == PV_CTX)
		v.cname = xstrdup(v.field->cname);
	else if (v.src == PV_TID)
		v.cname = xstrdup("common_pid");
	else if (v.src == PV_COMM || v.src == PV_CPU)
		v.cname = xstrdup(!strcmp(name, "COMM") ? "comm" : !strcmp(name, "CPU") ? "cpu" : name);
	else
		v.cname = c_name_of(name);
	for (i = 0; i < pr->nr_vals; i++) {
		if (!strcmp(pr->vals[i].cname, v.cname)) {
			spec_error(r->p->spec, &r->src->loc, off, "'%s' and '%s' would share the record member "
				   "'%s'", pr->vals[i].name, name, v.cname);
			free(v.cname);
			free(v.arg);
			free(v.path);
			return -EINVAL;
		}
	}
	v.name = xstrdup(name);
	pr->vals = xrealloc(pr->vals, (pr->nr_vals + 1) * sizeof(*pr->vals));
	pr->vals[pr->nr_vals] = v;
	return pr->nr_vals++;
}

static int filter_resolve(void *ctx, const char *name, size_t off, struct filter_field *f)
{
	struct resolver *r = ctx;
	const struct pvalue *v;
	int id;

	id = resolve(r, name, off);
	if (id < 0)
		return id;
	v = &r->pr->vals[id];
	f->is_str = v->kind == PV_STR;
	f->is_signed = v->is_signed;
	f->size = v->kind == PV_STR ? (v->size ? v->size : FILTER_STR_MAX) : v->size;
	return id;
}

static int resolve_list(struct resolver *r, const struct spec_list *l, int **out, int *nr)
{
	int i, id;

	for (i = 0; i < l->nr; i++) {
		r->src = &l->v[i];
		id = resolve(r, l->v[i].s, 0);
		if (id < 0)
			return id;
		for (int j = 0; j < *nr; j++) {
			if ((*out)[j] == id) {
				spec_error(r->p->spec, &l->v[i].loc, 0, "'%s' is listed twice", l->v[i].s);
				return -EINVAL;
			}
		}
		*out = xrealloc(*out, (*nr + 1) * sizeof(**out));
		(*out)[(*nr)++] = id;
	}
	return 0;
}

/* ---- probes ------------------------------------------------------------ */

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

static bool type_in_btf(const struct btf *btf, const char *name)
{
	return btf && btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT) >= 0;
}

/* "sched_switch", then "sched_switch_2" for the next probe of the same event. */
static char *probe_name(struct prog *p, const char *base)
{
	char *name = xstrdup(base);
	int n = 1;

	for (;;) {
		int i;

		for (i = 0; i < p->nr_probes; i++)
			if (p->probes[i].pname && !strcmp(p->probes[i].pname, name))
				break;
		if (i == p->nr_probes)
			return name;
		free(name);
		name = xasprintf("%s_%d", base, ++n);
	}
}

static char *upper(const char *a, const char *b)
{
	char *s = xasprintf("%s_%s", a, b);

	for (char *c = s; *c; c++)
		if (*c >= 'a' && *c <= 'z')
			*c -= 'a' - 'A';
	return s;
}

static char *struct_name(struct prog *p, const char *pname, const char *suffix)
{
	char *s = xasprintf("%s_%s", pname, suffix);

	if (type_in_btf(p->btf, s)) {	/* the kernel has one: vmlinux.h would clash */
		free(s);
		s = xasprintf("%s__%s_%s", p->spec->tool.s, pname, suffix);
	}
	return s;
}

int prog_add_probe(struct prog *p, const struct spec_probe *sp, int lat, bool lat_to)
{
	struct resolver r;
	struct pprobe *pr;
	int err;

	p->probes = xrealloc(p->probes, (p->nr_probes + 1) * sizeof(*p->probes));
	pr = &p->probes[p->nr_probes];
	memset(pr, 0, sizeof(*pr));
	pr->sp = sp;
	pr->hist = -1;
	pr->key = -1;
	pr->lat = lat;
	pr->lat_to = lat_to;
	pr->attach = sp->attach ? sp->attach : p->spec->attach ? p->spec->attach : ATTACH_TRACEPOINT;
	if (lat >= 0) {
		pr->pname = xasprintf("%s_%s", p->spec->lats[lat].name.s, lat_to ? "to" : "from");
	} else {
		char *base = ident_from_tracefs(sp->name);	/* a.b and a-b: a_b, then a_b_2 */

		pr->pname = probe_name(p, base);
		free(base);
	}
	for (char *c = pr->pname; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
			*c = '_';
	p->nr_probes++;
	pr->handler = xasprintf("handle_%s", pr->pname);

	if (pr->attach == ATTACH_TRACEPOINT)
		err = find_event(p, pr);
	else
		err = p->raws ? find_raw(p, pr) : -ENOENT;
	if (err)
		return err;

	r.p = p;
	r.pr = pr;
	r.what = "filter";
	if (sp->filter.s) {
		err = filter_parse(p->spec, &sp->filter, &pr->filter);
		if (err)
			return err;
		r.src = &sp->filter;
		err = filter_check(pr->filter, p->spec, &sp->filter, filter_resolve, &r);
		if (err)
			return err;
	}
	r.what = "print";
	err = resolve_list(&r, &sp->print, &pr->print, &pr->nr_print);
	if (err)
		return err;
	r.what = "count";
	err = resolve_list(&r, &sp->count, &pr->count, &pr->nr_count);
	if (err)
		return err;
	if (sp->hist.s) {
		r.what = "hist";
		r.src = &sp->hist;
		pr->hist = resolve(&r, sp->hist.s, 0);
		if (pr->hist < 0)
			return pr->hist;
		if (pr->vals[pr->hist].kind != PV_INT) {
			spec_error(p->spec, &sp->hist.loc, 0, "hist needs a number, and '%s' is %s",
				   sp->hist.s, pr->vals[pr->hist].kind == PV_STR ? "a string" : "a pointer");
			return -EINVAL;
		}
	}
	if (sp->key.s) {
		r.what = "key";
		r.src = &sp->key;
		pr->key = resolve(&r, sp->key.s, 0);
		if (pr->key < 0)
			return pr->key;
		if (pr->vals[pr->key].kind == PV_STR) {
			spec_error(p->spec, &sp->key.loc, 0, "a latency key must be a number (such as a pid), "
				   "and '%s' is a string", sp->key.s);
			return -EINVAL;
		}
	}
	if (pr->nr_print) {
		pr->type_enum = upper(p->spec->tool.s, pr->pname);
		pr->rec_struct = struct_name(p, pr->pname, "event");
		p->any_print = true;
		for (int i = 0; i < pr->nr_print; i++)
			if (pr->vals[pr->print[i]].kind == PV_STR)
				p->any_str_print = true;
	}
	if (pr->nr_count) {
		pr->key_struct = struct_name(p, pr->pname, "key");
		p->any_count = true;
	}
	if (pr->hist >= 0 || lat >= 0)
		p->any_hist = true;
	for (int i = 0; i < pr->nr_vals; i++)
		if (pr->vals[i].src == PV_RAW && pr->vals[i].path)
			p->any_core = true;
	if (pr->attach == ATTACH_TRACEPOINT) {
		p->ctx_sel[pr->ev - p->evs->ev] = true;
		p->any_ctx = true;
	} else {
		p->raw_sel[pr->raw - p->raws->tp] = true;
		p->any_raw = true;
	}
	return 0;
}

void prog_free(struct prog *p)
{
	int i, j;

	for (i = 0; i < p->nr_probes; i++) {
		struct pprobe *pr = &p->probes[i];

		for (j = 0; j < pr->nr_vals; j++) {
			free(pr->vals[j].name);
			free(pr->vals[j].cname);
			free(pr->vals[j].arg);
			free(pr->vals[j].path);
			free(pr->vals[j].arg_type);
			free(pr->vals[j].arg_local);
		}
		free(pr->vals);
		free(pr->print);
		free(pr->count);
		filter_free(pr->filter);
		free(pr->pname);
		free(pr->handler);
		free(pr->type_enum);
		free(pr->rec_struct);
		free(pr->key_struct);
	}
	free(p->probes);
	free(p->ctx_sel);
	free(p->raw_sel);
	free(p->banner);
	free(p->banner_ctx);
}
