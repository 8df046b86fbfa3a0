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
 * One pass over the types indexes those four families by name (and notes
 * names that occur twice, which btf_dump would suffix); everything after is
 * a binary search, so the cost is one walk of the BTF.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "fieldtype.h"
#include "rawtp.h"
#include "util.h"

#define MAX_DEPTH	32	/* type chains longer than this are malformed */

struct name_id {
	const char *name;	/* without its prefix */
	__u32 id;
};

struct vec {
	struct name_id *v;
	int nr, cap;
};

struct index {
	const struct btf *btf;
	__u32 start;		/* the first type of this BTF's own (split BTF: after the base's) */
	struct vec tps;		/* btf_trace_<tp> typedefs */
	struct vec stubs;	/* __probestub_<tp> */
	struct vec iters;	/* __traceiter_<tp> */
	struct vec bts;		/* __bpf_trace_<class> */
	struct name_id *by_proto; /* bts sorted by prototype, made when first needed */
	pthread_mutex_t lock;	/* ... by whichever thread needs it first */
	struct kbtf_names tags;	/* struct, union, enum names */
	struct kbtf_names idents; /* typedef names */
	bool vmlinux_names;	/* spell kernel types as vmlinux.h does: btf_dump, renames and all */
	struct btf_dump *dump;
	struct strbuf out;	/* what btf_dump prints */
	bool quiet;		/* drop what btf_dump prints */
};

static void push(struct vec *v, const char *name, __u32 id)
{
	if (v->nr == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 256;
		v->v = xrealloc(v->v, v->cap * sizeof(*v->v));
	}
	v->v[v->nr].name = name;
	v->v[v->nr++].id = id;
}

static int by_name(const void *a, const void *b)
{
	const struct name_id *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->id > y->id) - (x->id < y->id);
}

/* First entry named 'name' (entries are sorted by name, then id), or NULL. */
static const struct name_id *vec_find(const struct vec *v, const char *name)
{
	int lo = 0, hi = v->nr;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (strcmp(v->v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < v->nr && !strcmp(v->v[lo].name, name) ? &v->v[lo] : NULL;
}

static bool has_prefix(const char *s, const char *pfx, size_t n)
{
	return !strncmp(s, pfx, n) && s[n];
}

/* The one pass over every type. */
static void index_build(struct index *x)
{
	__u32 i, n = btf__type_cnt(x->btf);

	for (i = x->start; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(x->btf, i);
		const char *name;

		if (!t || !t->name_off)
			continue;
		name = btf__name_by_offset(x->btf, t->name_off);
		if (!name)
			continue;
		switch (btf_kind(t)) {
		case BTF_KIND_TYPEDEF:
			if (name[0] == 'b' && has_prefix(name, "btf_trace_", 10))
				push(&x->tps, name + 10, i);
			if (x->vmlinux_names)
				kbtf_names_add(&x->idents, name, i);
			break;
		case BTF_KIND_FUNC:
			if (name[0] != '_' || name[1] != '_')
				break;
			if (has_prefix(name, "__probestub_", 12))
				push(&x->stubs, name + 12, i);
			else if (has_prefix(name, "__traceiter_", 12))
				push(&x->iters, name + 12, i);
			else if (has_prefix(name, "__bpf_trace_", 12))
				push(&x->bts, name + 12, i);
			break;
		case BTF_KIND_ENUM:
			if (!btf_vlen(t))	/* btf_dump never suffixes enum forwards */
				break;
			/* fallthrough */
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM64:
			if (x->vmlinux_names)
				kbtf_names_add(&x->tags, name, i);
			break;
		default:
			break;
		}
	}
	if (x->tps.nr)		/* qsort(NULL, 0) is undefined: a crafted BTF may lack a family */
		qsort(x->tps.v, x->tps.nr, sizeof(*x->tps.v), by_name);
	if (x->stubs.nr)
		qsort(x->stubs.v, x->stubs.nr, sizeof(*x->stubs.v), by_name);
	if (x->iters.nr)
		qsort(x->iters.v, x->iters.nr, sizeof(*x->iters.v), by_name);
	if (x->bts.nr)
		qsort(x->bts.v, x->bts.nr, sizeof(*x->bts.v), by_name);
}

/* The FUNC_PROTO behind a FUNC, or behind a typedef of a pointer to one. */
static const struct btf_type *proto_of(const struct btf *btf, __u32 id, __u32 *proto_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int depth;

	for (depth = 0; t && depth < MAX_DEPTH; depth++) {
		if (btf_is_func_proto(t)) {
			*proto_id = id;
			return t;
		}
		if (!btf_is_func(t) && !btf_is_typedef(t) && !btf_is_ptr(t) && !btf_is_mod(t))
			return NULL;
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	return NULL;
}

/* Same parameter types (names aside). */
static bool same_params(const struct btf_type *a, const struct btf_type *b)
{
	const struct btf_param *p = btf_params(a), *q = btf_params(b);
	int i;

	if (btf_vlen(a) != btf_vlen(b))
		return false;
	for (i = 0; i < btf_vlen(a); i++)
		if (p[i].type != q[i].type)
			return false;
	return true;
}

/* A function of family 'v' named 'name' with the tracepoint's parameters. */
static const struct btf_type *named_fn(const struct index *x, const struct vec *v, const char *name,
				       const struct btf_type *proto, __u32 *fn)
{
	const struct name_id *e = vec_find(v, name);
	__u32 pid;

	for (; e && e < v->v + v->nr && !strcmp(e->name, name); e++) {
		const struct btf_type *p = proto_of(x->btf, e->id, &pid);

		if (p && same_params(p, proto)) {
			*fn = e->id;
			return p;
		}
	}
	return NULL;
}

static const struct btf *sort_btf;

static int by_proto(const void *a, const void *b)
{
	const struct name_id *x = a, *y = b;
	const struct btf_type *p, *q;
	__u32 pid;
	int i;

	p = proto_of(sort_btf, x->id, &pid);
	q = proto_of(sort_btf, y->id, &pid);
	if (!p || !q)
		return !p - !q;
	if (btf_vlen(p) != btf_vlen(q))
		return btf_vlen(p) < btf_vlen(q) ? -1 : 1;
	for (i = 0; i < btf_vlen(p); i++)
		if (btf_params(p)[i].type != btf_params(q)[i].type)
			return btf_params(p)[i].type < btf_params(q)[i].type ? -1 : 1;
	return by_name(a, b);
}

/* Same parameter names. */
static bool same_names(const struct btf *btf, const struct btf_type *a, const struct btf_type *b)
{
	int i;

	for (i = 0; i < btf_vlen(a); i++)
		if (strcmp(btf__name_by_offset(btf, btf_params(a)[i].name_off) ?: "",
			   btf__name_by_offset(btf, btf_params(b)[i].name_off) ?: ""))
			return false;
	return true;
}

/*
 * __bpf_trace_<class> for a tracepoint without stub or iterator: the class
 * named like the tracepoint, else the classes with its parameter types, if
 * they all name the parameters alike.
 */
static const struct btf_type *class_fn(struct index *x, const char *tp, const struct btf_type *proto,
				       __u32 *fn)
{
	const struct btf_type *p, *first = NULL;
	int lo = 0, hi, i;
	__u32 pid;

	p = named_fn(x, &x->bts, tp, proto, fn);
	if (p || !x->bts.nr)
		return p;
	pthread_mutex_lock(&x->lock);
	if (!x->by_proto) {
		struct name_id *v = xmalloc(x->bts.nr * sizeof(*v));

		memcpy(v, x->bts.v, x->bts.nr * sizeof(*v));
		sort_btf = x->btf;
		qsort(v, x->bts.nr, sizeof(*v), by_proto);
		x->by_proto = v;
	}
	pthread_mutex_unlock(&x->lock);
	hi = x->bts.nr;
	while (lo < hi) {	/* first class whose prototype is not below ours */
		int mid = lo + (hi - lo) / 2, c;

		p = proto_of(x->btf, x->by_proto[mid].id, &pid);
		c = !p ? 1 : btf_vlen(p) != btf_vlen(proto) ? (btf_vlen(p) < btf_vlen(proto) ? -1 : 1) : 0;
		for (i = 0; !c && i < btf_vlen(p); i++)
			if (btf_params(p)[i].type != btf_params(proto)[i].type)
				c = btf_params(p)[i].type < btf_params(proto)[i].type ? -1 : 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < x->bts.nr; i++) {
		p = proto_of(x->btf, x->by_proto[i].id, &pid);
		if (!p || !same_params(p, proto))
			break;
		if (!first) {
			first = p;
			*fn = x->by_proto[i].id;
		} else if (!same_names(x->btf, first, p)) {
			return NULL;	/* ambiguous: better arg0.. than wrong names */
		}
	}
	return first;
}

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

static void dump_printf(void *ctx, const char *fmt, va_list ap)
{
	struct index *x = ctx;

	if (!x->quiet)
		sb_vprintf(&x->out, fmt, ap);
}

/*
 * Does btf_dump print a name it may suffix (___2) for type 'id'? Returns the
 * last id carrying such a name, 0 when there is none, -1 for an anonymous
 * type (whose body btf_dump would print) or a malformed chain.
 */
static long chain_check(const struct index *x, __u32 id, int depth)
{
	const struct btf_type *t;
	const char *name;
	long r, m;
	int i;

	for (; depth < MAX_DEPTH; depth++) {
		if (!id)
			return 0;
		t = btf__type_by_id(x->btf, id);
		if (!t)
			return -1;
		name = t->name_off ? btf__name_by_offset(x->btf, t->name_off) : NULL;
		switch (btf_kind(t)) {
		case BTF_KIND_TYPEDEF:
			return kbtf_names_last(&x->idents, name);
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			if (!name)
				return -1;
			return kbtf_names_last(&x->tags, name);
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

static char *kernel_decl(struct index *x, __u32 id, const char *name)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o, .field_name = name);

	sb_reset(&x->out);
	if (btf_dump__emit_type_decl(x->dump, id, &o))
		return NULL;
	return xstrdup(x->out.buf ? x->out.buf : "");
}

/* Size, sign and both spellings of one argument; the reason when it cannot fill a slot. */
static const char *type_arg(struct index *x, struct raw_arg *a)
{
	const struct btf *btf = x->btf;
	struct strbuf sb;
	const struct btf_type *t;
	__s64 size;
	int rid;

	rid = btf__resolve_type(btf, a->type_id);
	t = rid > 0 ? btf__type_by_id(btf, rid) : NULL;
	if (!t)
		return rid ? "an argument's type is malformed" : "an argument is void";
	size = btf_is_ptr(t) ? 8 : btf__resolve_size(btf, rid);
	a->size = size > 0 ? size : 0;
	sb_init(&sb);
	if (btf_is_ptr(t)) {
		const struct btf_type *pt;
		int pid = btf__resolve_type(btf, t->type);

		a->is_ptr = true;
		pt = pid > 0 ? btf__type_by_id(btf, pid) : NULL;
		if (pt && (btf_is_struct(pt) || btf_is_union(pt) || btf_is_fwd(pt)) && pt->name_off)
			a->ptr_struct = xasprintf("%s %s", (btf_is_fwd(pt) ? btf_kflag(pt) : btf_is_union(pt))
						  ? "union" : "struct", btf__name_by_offset(btf, pt->name_off));
		kbtf_sa_pointee(btf, t->type, &sb, &a->fwd);
		sb_puts(&sb, sb.len && sb.buf[sb.len - 1] == '*' ? "*" : " *");
	} else if (a->size != 1 && a->size != 2 && a->size != 4 && a->size != 8) {
		sb_free(&sb);
		return "an argument does not fit its 8-byte slot";
	} else if (btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_BOOL)) {
		sb_puts(&sb, "_Bool");
	} else if (btf_is_int(t) || btf_is_any_enum(t)) {
		a->is_signed = btf_is_int(t) ? btf_int_encoding(t) & BTF_INT_SIGNED : btf_kflag(t);
		sb_puts(&sb, ctype_fixed(a->size, a->is_signed));
	} else if (btf_is_composite(t) || btf_is_float(t)) {
		/* the kernel copies it into a u<size> before widening it to u64 */
		a->by_value = btf_is_composite(t);
		sb_puts(&sb, ctype_fixed(a->size, false));
	} else {
		sb_free(&sb);
		return "an argument is not a value";
	}
	a->type_sa = sb_steal(&sb);
	a->decl_sa = xasprintf("%s%s%s", a->type_sa, a->type_sa[strlen(a->type_sa) - 1] == '*' ? "" : " ",
			       a->name);
	if (!x->vmlinux_names) {
		a->decl = kbtf_decl(btf, a->type_id, a->name);
		a->ktype = kbtf_decl(btf, a->type_id, "");
	} else if (chain_check(x, a->type_id, 0) >= 0) {
		a->decl = kernel_decl(x, a->type_id, a->name);
		a->ktype = kernel_decl(x, a->type_id, "");
	}
	if (!a->decl || !a->ktype) {	/* anonymous types: btf_dump would print their bodies */
		free(a->decl);
		free(a->ktype);
		a->decl = xstrdup(a->decl_sa);
		a->ktype = xstrdup(a->type_sa);
		a->vmlinux_sa = true;
	}
	/* vmlinux.h from libbpf before 1.2 declares every enum as an int: trust only those */
	if (btf_is_any_enum(t) && t->size != 4)
		a->vmlinux_sa = true;
	return NULL;
}

static int load_tp(struct index *x, struct raw_tp *tp, const struct name_id *e)
{
	const struct btf_type *proto, *names = NULL;
	__u32 fn = 0;
	int i;

	tp->name = xstrdup(e->name);
	tp->name_src = RAW_NAME_NONE;
	proto = proto_of(x->btf, e->id, &tp->proto_id);
	if (!proto || !btf_vlen(proto)) {
		tp->unsupported = "its btf_trace_ typedef is not a pointer to a prototype";
		return 0;
	}
	if ((names = named_fn(x, &x->stubs, tp->name, proto, &fn)))
		tp->name_src = RAW_NAME_PROBESTUB;
	else if ((names = named_fn(x, &x->iters, tp->name, proto, &fn)))
		tp->name_src = RAW_NAME_TRACEITER;
	else if ((names = class_fn(x, tp->name, proto, &fn)))
		tp->name_src = RAW_NAME_BPF_TRACE;
	if (names)
		tp->name_from = xstrdup(btf__name_by_offset(x->btf, btf__type_by_id(x->btf, fn)->name_off));
	tp->nr_args = btf_vlen(proto) - 1;
	tp->args = xcalloc(tp->nr_args, sizeof(*tp->args));
	for (i = 0; i < tp->nr_args; i++)
		tp->args[i].type_id = btf_params(proto)[i + 1].type;
	name_args(tp, x->btf, names);
	return 0;
}

static void index_free(struct index *x)
{
	free(x->tps.v);
	free(x->stubs.v);
	free(x->iters.v);
	free(x->bts.v);
	free(x->by_proto);
	kbtf_names_free(&x->tags);
	kbtf_names_free(&x->idents);
	btf_dump__free(x->dump);
	sb_free(&x->out);
}

/* Every argument spelled; the types that fit no slot make the tracepoint unsupported. */
static void spell_tp(struct index *x, struct raw_tp *tp)
{
	int k;

	for (k = 0; !tp->unsupported && k < tp->nr_args; k++) {
		const char *why = type_arg(x, &tp->args[k]);

		if (why)
			tp->unsupported = why;
	}
	for (k = 0; k < tp->nr_args; k++) {	/* every argument has spellings */
		struct raw_arg *a = &tp->args[k];

		if (!a->decl_sa) {
			a->type_sa = xstrdup("__u64");
			a->decl_sa = xasprintf("__u64 %s", a->name);
		}
		if (!a->decl) {
			a->decl = xstrdup(a->decl_sa);
			a->ktype = xstrdup(a->type_sa);
		}
	}
}

/* Tracepoints [lo, hi): named, and spelled unless btf_dump must do it after (one thread). */
struct work {
	struct index *x;
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
		if (!w->x->vmlinux_names)
			spell_tp(w->x, &w->r->tp[j]);
	}
	return NULL;
}

static int load(struct raw_tps *r, const struct btf *btf, bool vmlinux_names)
{
	const struct btf *base = btf__base_btf(btf);
	struct index x = { .btf = btf, .vmlinux_names = vmlinux_names,
			   .start = base ? btf__type_cnt(base) : 1,
			   .lock = PTHREAD_MUTEX_INITIALIZER };
	struct work w[2];
	const struct name_id **tps;
	bool threaded = false;
	long upto = 0, m;
	int err = 0, j, k;
	pthread_t th;
	__u32 i;

	memset(r, 0, sizeof(*r));
	sb_init(&x.out);
	index_build(&x);
	tps = xcalloc(x.tps.nr ? x.tps.nr : 1, sizeof(*tps));
	for (j = 0; j < x.tps.nr; j++)
		if (!j || strcmp(x.tps.v[j].name, x.tps.v[j - 1].name))
			tps[r->nr++] = &x.tps.v[j];	/* a repeated typedef: the first one counts */
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
	if (!vmlinux_names)
		goto out;

	for (j = 0; j < r->nr; j++) {
		for (k = 0; k < r->tp[j].nr_args; k++) {
			m = chain_check(&x, r->tp[j].args[k].type_id, 0);
			upto = m > upto ? m : upto;
		}
	}
	x.dump = btf_dump__new(btf, dump_printf, &x, NULL);
	if (!x.dump) {
		err = -errno ?: -ENOMEM;
		pr_err("cannot print BTF types: %s", strerror(-err));
		goto out;
	}
	/*
	 * A repeated name gets ___2, ___3 in the order btf_dump first meets its
	 * types. Meet them as 'bpftool btf dump format c' does (every id in
	 * turn) up to the last one we print: the names then match vmlinux.h.
	 */
	x.quiet = true;
	for (i = 1; i <= upto; i++)
		btf_dump__dump_type(x.dump, i);
	x.quiet = false;
	for (j = 0; j < r->nr; j++)
		spell_tp(&x, &r->tp[j]);
out:
	index_free(&x);
	if (err)
		rawtp_free(r);
	return err;
}

int rawtp_load(struct raw_tps *r, const struct btf *btf)
{
	return load(r, btf, true);
}

int rawtp_load_standalone(struct raw_tps *r, const struct btf *btf)
{
	return load(r, btf, false);
}

static void free_tp(struct raw_tp *tp)
{
	for (int j = 0; j < tp->nr_args; j++) {
		struct raw_arg *a = &tp->args[j];

		free(a->name);
		free(a->kname);
		free(a->decl);
		free(a->decl_sa);
		free(a->ktype);
		free(a->type_sa);
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

	load(&m, btf, false);	/* standalone spelling: cannot fail */
	r->tp = xrealloc(r->tp, (r->nr + m.nr ? r->nr + m.nr : 1) * sizeof(*r->tp));
	for (i = 0; i < m.nr; i++) {
		struct raw_tp *tp = &m.tp[i];

		if (rawtp_find(&(struct raw_tps){ r->tp, n }, tp->name)) {
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

void rawtp_free(struct raw_tps *r)
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
