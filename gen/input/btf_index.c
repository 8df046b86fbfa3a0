// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * An index over a BTF's names. The functions that name a tracepoint's
 * parameters share its prototype: __probestub_<tp> (kernels since 6.6),
 * __traceiter_<tp> (since 5.10), or __bpf_trace_<class> found by its
 * parameter types. One pass over the types indexes those families and the
 * btf_trace_<tp> typedefs by name (and, when asked, notes names that occur
 * twice, which btf_dump would suffix); everything after is a binary search,
 * so the cost is one walk of the BTF.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "lib/limits.h"
#include "input/btf_index.h"
#include "lib/util.h"

static void push(struct name_vec *v, const char *name, __u32 id)
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
static const struct name_id *vec_find(const struct name_vec *v, const char *name)
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
void btf_index_build(struct btf_index *x, const struct btf *btf, bool dup_names)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 i, n;

	memset(x, 0, sizeof(*x));
	x->btf = btf;
	x->start = base ? btf__type_cnt(base) : 1;
	x->dup_names = dup_names;
	pthread_mutex_init(&x->lock, NULL);
	n = btf__type_cnt(btf);

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
			if (x->dup_names)
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
			if (x->dup_names)
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

const struct btf_type *btf_index_proto(const struct btf *btf, __u32 id, __u32 *proto_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int depth;

	for (depth = 0; t && depth < BTF_MAX_DEPTH; depth++) {
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

const struct btf_type *btf_index_named_fn(const struct btf_index *x, const struct name_vec *v,
					  const char *name, const struct btf_type *proto, __u32 *fn)
{
	const struct name_id *e = vec_find(v, name);
	__u32 pid;

	for (; e && e < v->v + v->nr && !strcmp(e->name, name); e++) {
		const struct btf_type *p = btf_index_proto(x->btf, e->id, &pid);

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

	p = btf_index_proto(sort_btf, x->id, &pid);
	q = btf_index_proto(sort_btf, y->id, &pid);
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

const struct btf_type *btf_index_class_fn(struct btf_index *x, const char *tp,
					  const struct btf_type *proto, __u32 *fn)
{
	const struct btf_type *p, *first = NULL;
	int lo = 0, hi, i;
	__u32 pid;

	p = btf_index_named_fn(x, &x->bts, tp, proto, fn);
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

		p = btf_index_proto(x->btf, x->by_proto[mid].id, &pid);
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
		p = btf_index_proto(x->btf, x->by_proto[i].id, &pid);
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

void btf_index_clear(struct btf_index *x)
{
	free(x->tps.v);
	free(x->stubs.v);
	free(x->iters.v);
	free(x->bts.v);
	free(x->by_proto);
	kbtf_names_clear(&x->tags);
	kbtf_names_clear(&x->idents);
	pthread_mutex_destroy(&x->lock);
}
