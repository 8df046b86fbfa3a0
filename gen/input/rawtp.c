// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Raw tracepoints from BTF. The kernel declares one 'btf_trace_<tp>' typedef
 * per tracepoint: a pointer to the prototype of its probes, whose first
 * parameter is 'void *__data' and whose others are the arguments a raw_tp or
 * tp_btf program finds in its u64 context array, one slot each.
 *
 * That prototype has no parameter names. They come from a function built on
 * the same prototype: __probestub_<tp> (kernels since 6.6), __traceiter_<tp>
 * (since 5.10), or __bpf_trace_<class> found by its parameter types. Failing
 * all three, arguments are arg0, arg1, ...
 *
 * btf_index.c finds them (and the names that occur twice, which btf_dump
 * would suffix) in one walk of the BTF; this file turns each typedef and its
 * names into a struct raw_tp, with what BTF says of each argument's type: its
 * size, sign, what it points to, whether a slot can hold it. No C text: the
 * emitter spells the types (emit/btf_decl.c).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "lib/limits.h"
#include "input/btf_index.h"
#include "input/fieldtype.h"
#include "input/rawtp.h"
#include "lib/util.h"

/* The index, with the repeated names when kernel types are to be spelled as vmlinux.h does. */
struct loader {
	struct btf_index ix;
	bool vmlinux_names;	/* learn what btf_dump's spelling needs: repeated names, anonymous types */
};

static bool is_ident(const char *s)
{
	if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return false;
	for (s++; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

/* Member names: C identifiers, no keywords, no repeats. */
static void name_args(struct raw_tp *tp, const struct btf *btf, const struct btf_type *names)
{
	int i, j;

	for (i = 0; i < tp->nr_args; i++) {
		struct raw_arg *a = &tp->args[i];
		const char *n = names ? btf__name_by_offset(btf, btf_params(names)[i + 1].name_off) : NULL;

		if (!n || !*n) {
			a->name = xasprintf("arg%d", i);
			if (names)
				a->renamed = "unnamed in BTF";
		} else if (!is_ident(n)) {
			a->name = xasprintf("arg%d", i);
			a->kname = xstrdup(n);
			a->renamed = "not a C identifier";
		} else if (ctype_is_keyword(n)) {
			a->name = xasprintf("%s_", n);
			a->kname = xstrdup(n);
			a->renamed = "a C keyword";
		} else {
			a->name = xstrdup(n);
		}
		for (j = 0; j < i; j++) {
			if (!strcmp(tp->args[j].name, a->name)) {
				if (!a->kname)
					a->kname = a->name;
				else
					free(a->name);
				a->name = xasprintf("%s_%d", a->kname, i);
				a->renamed = "a repeated name";
				break;
			}
		}
	}
}

/*
 * Does btf_dump print a name it may suffix (___2) for type 'id'? Returns the
 * last id carrying such a name, 0 when there is none, -1 for an anonymous
 * type (whose body btf_dump would print) or a malformed chain.
 */
static long chain_check(const struct loader *x, __u32 id, int depth)
{
	const struct btf_type *t;
	const char *name;
	long r, m;
	int i;

	for (; depth < BTF_MAX_DEPTH; depth++) {
		if (!id)
			return 0;
		t = btf__type_by_id(x->ix.btf, id);
		if (!t)
			return -1;
		name = t->name_off ? btf__name_by_offset(x->ix.btf, t->name_off) : NULL;
		switch (btf_kind(t)) {
		case BTF_KIND_TYPEDEF:
			return kbtf_names_last(&x->ix.idents, name);
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			if (!name)
				return -1;
			return kbtf_names_last(&x->ix.tags, name);
		case BTF_KIND_INT:
		case BTF_KIND_FLOAT:
		case BTF_KIND_FWD:
			return 0;
		case BTF_KIND_FUNC_PROTO:
			r = chain_check(x, t->type, depth + 1);
			for (i = 0; r >= 0 && i < btf_vlen(t); i++) {
				m = chain_check(x, btf_params(t)[i].type, depth + 1);
				r = m < 0 ? m : m > r ? m : r;
			}
			return r;
		case BTF_KIND_ARRAY:
			id = btf_array(t)->type;
			break;
		case BTF_KIND_PTR:
		case BTF_KIND_CONST:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			break;
		default:
			return -1;
		}
	}
	return -1;
}

/* Size, sign, what it points to, and whether it can be spelled; the reason when it cannot fill a slot. */
static const char *type_arg(struct loader *x, struct raw_arg *a)
{
	const struct btf *btf = x->ix.btf;
	const struct btf_type *t;
	__s64 size;
	long dup;
	int rid;

	rid = btf__resolve_type(btf, a->type_id);
	t = rid > 0 ? btf__type_by_id(btf, rid) : NULL;
	if (!t)
		return rid ? "an argument's type is malformed" : "an argument is void";
	size = btf_is_ptr(t) ? 8 : btf__resolve_size(btf, rid);
	a->size = size > 0 ? size : 0;
	if (btf_is_ptr(t)) {
		const struct btf_type *pt;
		int pid = btf__resolve_type(btf, t->type);

		a->is_ptr = true;
		pt = pid > 0 ? btf__type_by_id(btf, pid) : NULL;
		if (pt && (btf_is_struct(pt) || btf_is_union(pt) || btf_is_fwd(pt)) && pt->name_off)
			a->ptr_struct = xstrcat((btf_is_fwd(pt) ? btf_kflag(pt) : btf_is_union(pt)) ? "union " : "struct ",
						btf__name_by_offset(btf, pt->name_off), NULL);
		a->sa = RAW_SA_PTR;
		a->pointee_id = t->type;
		a->fwd = kbtf_pointee_fwd(btf, t->type);
	} else if (a->size != 1 && a->size != 2 && a->size != 4 && a->size != 8) {
		return "an argument does not fit its 8-byte slot";
	} else if (btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_BOOL)) {
		a->sa = RAW_SA_BOOL;
	} else if (btf_is_int(t) || btf_is_any_enum(t)) {
		a->is_signed = btf_is_int(t) ? btf_int_encoding(t) & BTF_INT_SIGNED : btf_kflag(t);
		a->sa = RAW_SA_FIXED;
	} else if (btf_is_composite(t) || btf_is_float(t)) {
		/* the kernel copies it into a u<size> before widening it to u64 */
		a->by_value = btf_is_composite(t);
		a->sa = RAW_SA_FIXED;
	} else {
		return "an argument is not a value";
	}
	if (x->vmlinux_names) {
		dup = chain_check(x, a->type_id, 0);
		if (dup < 0)	/* anonymous types: btf_dump would print their bodies */
			a->kernel_sa = a->vmlinux_sa = true;
		else
			a->dup_last = dup;
	}
	/* vmlinux.h from libbpf before 1.2 declares every enum as an int: trust only those */
	if (btf_is_any_enum(t) && t->size != 4)
		a->vmlinux_sa = true;
	return NULL;
}

static int load_tp(struct loader *x, struct raw_tp *tp, const struct name_id *e)
{
	const struct btf *btf = x->ix.btf;
	const struct btf_type *proto, *names = NULL;
	__u32 fn = 0;
	int i;

	tp->name = xstrdup(e->name);
	tp->name_src = RAW_NAME_NONE;
	proto = btf_index_proto(btf, e->id, &tp->proto_id);
	if (!proto || !btf_vlen(proto)) {
		tp->unsupported = "its btf_trace_ typedef is not a pointer to a prototype";
		return 0;
	}
	if ((names = btf_index_named_fn(&x->ix, &x->ix.stubs, tp->name, proto, &fn)))
		tp->name_src = RAW_NAME_PROBESTUB;
	else if ((names = btf_index_named_fn(&x->ix, &x->ix.iters, tp->name, proto, &fn)))
		tp->name_src = RAW_NAME_TRACEITER;
	else if ((names = btf_index_class_fn(&x->ix, tp->name, proto, &fn)))
		tp->name_src = RAW_NAME_BPF_TRACE;
	if (names)
		tp->name_from = xstrdup(btf__name_by_offset(btf, btf__type_by_id(btf, fn)->name_off));
	tp->nr_args = btf_vlen(proto) - 1;
	tp->args = xcalloc(tp->nr_args, sizeof(*tp->args));
	for (i = 0; i < tp->nr_args; i++)
		tp->args[i].type_id = btf_params(proto)[i + 1].type;
	name_args(tp, btf, names);
	return 0;
}

/*
 * Every argument typed up to the first that fits no slot, which makes the
 * tracepoint unsupported; it and those after it are spelled __u64.
 */
static void type_tp(struct loader *x, struct raw_tp *tp)
{
	int k;

	for (k = 0; !tp->unsupported && k < tp->nr_args; k++) {
		const char *why = type_arg(x, &tp->args[k]);

		if (why)
			tp->unsupported = why;
	}
	for (k = 0; k < tp->nr_args; k++) {
		struct raw_arg *a = &tp->args[k];

		if (a->sa == RAW_SA_NONE)
			a->kernel_sa = true;
	}
}

/* Tracepoints [lo, hi): named and typed. */
struct work {
	struct loader *x;
	struct raw_tps *r;
	const struct name_id **tps;
	int lo, hi;
};

static void *work_range(void *arg)
{
	struct work *w = arg;
	int j;

	for (j = w->lo; j < w->hi; j++) {
		load_tp(w->x, &w->r->tp[j], w->tps[j]);
		type_tp(w->x, &w->r->tp[j]);
	}
	return NULL;
}

static void load(struct raw_tps *r, const struct btf *btf, bool vmlinux_names)
{
	struct loader x = { .vmlinux_names = vmlinux_names };
	struct work w[2];
	const struct name_id **tps;
	bool threaded = false;
	pthread_t th;
	int j;

	memset(r, 0, sizeof(*r));
	r->vmlinux_names = vmlinux_names;
	btf_index_build(&x.ix, btf, vmlinux_names);
	tps = xcalloc(x.ix.tps.nr ? x.ix.tps.nr : 1, sizeof(*tps));
	for (j = 0; j < x.ix.tps.nr; j++)
		if (!j || strcmp(x.ix.tps.v[j].name, x.ix.tps.v[j - 1].name))
			tps[r->nr++] = &x.ix.tps.v[j];	/* a repeated typedef: the first one counts */
	r->tp = xcalloc(r->nr ? r->nr : 1, sizeof(*r->tp));
	/* the work is CPU-bound and per tracepoint: two halves, one on another core */
	w[0] = (struct work){ .x = &x, .r = r, .tps = tps, .lo = 0, .hi = r->nr / 2 };
	w[1] = (struct work){ .x = &x, .r = r, .tps = tps, .lo = r->nr / 2, .hi = r->nr };
	if (r->nr > 64 && sysconf(_SC_NPROCESSORS_ONLN) > 1)
		threaded = !pthread_create(&th, NULL, work_range, &w[1]);
	if (!threaded)
		w[0].hi = r->nr;
	work_range(&w[0]);
	if (threaded)
		pthread_join(th, NULL);
	free(tps);
	btf_index_clear(&x.ix);
}

int rawtp_load(struct raw_tps *r, const struct btf *btf)
{
	load(r, btf, true);
	return 0;
}

int rawtp_load_standalone(struct raw_tps *r, const struct btf *btf)
{
	load(r, btf, false);
	return 0;
}

static void free_tp(struct raw_tp *tp)
{
	for (int j = 0; j < tp->nr_args; j++) {
		struct raw_arg *a = &tp->args[j];

		free(a->name);
		free(a->kname);
		free(a->ptr_struct);
		free(a->fwd);
	}
	free(tp->args);
	free(tp->name);
	free(tp->name_from);
	free(tp->module);
}

static int tp_by_name(const void *a, const void *b)
{
	return strcmp(((const struct raw_tp *)a)->name, ((const struct raw_tp *)b)->name);
}

void rawtp_add_module(struct raw_tps *r, const struct btf *btf, const char *module)
{
	struct raw_tps m;
	int i, j, n = r->nr;

	load(&m, btf, false);	/* the kernel's names: modules' types are in no vmlinux.h */
	r->tp = xrealloc(r->tp, (r->nr + m.nr ? r->nr + m.nr : 1) * sizeof(*r->tp));
	for (i = 0; i < m.nr; i++) {
		struct raw_tp *tp = &m.tp[i];

		if (rawtp_find(&(struct raw_tps){ .tp = r->tp, .nr = n }, tp->name)) {
			free_tp(tp);	/* vmlinux's (or an earlier module's) wins */
			continue;
		}
		tp->module = xstrdup(module);
		tp->btf = btf;
		for (j = 0; j < tp->nr_args; j++)
			tp->args[j].vmlinux_sa = true;	/* no module type is in vmlinux.h */
		r->tp[r->nr++] = *tp;
	}
	free(m.tp);
	qsort(r->tp, r->nr, sizeof(*r->tp), tp_by_name);
}

void rawtp_clear(struct raw_tps *r)
{
	for (int i = 0; r->tp && i < r->nr; i++)
		free_tp(&r->tp[i]);
	free(r->tp);
	memset(r, 0, sizeof(*r));
}

struct raw_tp *rawtp_find(struct raw_tps *r, const char *name)
{
	int lo = 0, hi = r->nr;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2, c = strcmp(r->tp[mid].name, name);

		if (!c)
			return &r->tp[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *rawtp_for_event(const char *sys, const char *event)
{
	if (!strcmp(sys, "syscalls")) {
		if (!strncmp(event, "sys_enter_", 10))
			return "sys_enter";
		if (!strncmp(event, "sys_exit_", 9))
			return "sys_exit";
	}
	return event;
}
