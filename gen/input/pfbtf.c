// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Enum constants and typedefs of BTF for print fmt expressions. See pfbtf.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "input/pfbtf.h"

struct pf_enum_const {
	const char *name;	/* in the BTF's strings */
	struct pf_val val;
	bool ambiguous;
};

struct pf_btf {
	const struct btf *btf;
	struct pf_enum_const *consts;	/* sorted by name, one per name */
	size_t nr;
};

static int const_cmp(const void *a, const void *b)
{
	const struct pf_enum_const *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->val.v < y->val.v ? -1 : x->val.v > y->val.v;
}

static void add(struct pf_btf *pb, size_t *cap, const char *name, unsigned long long v,
		unsigned int size, bool is_signed)
{
	struct pf_enum_const *c;

	if (!name || !*name)
		return;
	if (pb->nr == *cap) {
		*cap = *cap ? *cap * 2 : 4096;
		pb->consts = xrealloc(pb->consts, *cap * sizeof(*pb->consts));
	}
	c = &pb->consts[pb->nr++];
	c->name = name;
	/* an enumerator is an int when int holds it (C23 and GCC), else the enum's type */
	if (is_signed ? (long long)v >= -2147483648LL && (long long)v <= 2147483647LL : v <= 2147483647ULL)
		c->val = pf_field_val(v, 4, true);
	else
		c->val = pf_field_val(v, size > 4 ? 8 : 4, is_signed);
	c->ambiguous = false;
}

struct pf_btf *pf_btf_new(const struct btf *btf)
{
	struct pf_btf *pb = xcalloc(1, sizeof(*pb));
	size_t cap = 0, i, j;
	__u32 id, n;

	pb->btf = btf;
	if (!btf)
		return pb;
	n = btf__type_cnt(btf);
	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		bool is_signed = btf_kflag(t);
		__u16 k;

		if (btf_is_enum(t)) {
			const struct btf_enum *e = btf_enum(t);

			for (k = 0; k < btf_vlen(t); k++)
				add(pb, &cap, btf__name_by_offset(btf, e[k].name_off),
				    is_signed ? (unsigned long long)(long long)e[k].val : (__u32)e[k].val,
				    t->size, is_signed);
		} else if (btf_is_enum64(t)) {
			const struct btf_enum64 *e = btf_enum64(t);

			for (k = 0; k < btf_vlen(t); k++)
				add(pb, &cap, btf__name_by_offset(btf, e[k].name_off),
				    btf_enum64_value(&e[k]), t->size, is_signed);
		}
	}
	if (!pb->nr)
		return pb;
	qsort(pb->consts, pb->nr, sizeof(*pb->consts), const_cmp);
	/* one entry per name; two values make it ambiguous */
	for (i = 0, j = 0; i < pb->nr; i++) {
		if (j && !strcmp(pb->consts[j - 1].name, pb->consts[i].name)) {
			if (pb->consts[j - 1].val.v != pb->consts[i].val.v)
				pb->consts[j - 1].ambiguous = true;
			continue;
		}
		pb->consts[j++] = pb->consts[i];
	}
	pb->nr = j;
	return pb;
}

void pf_btf_free(struct pf_btf *pb)
{
	if (!pb)
		return;
	free(pb->consts);
	free(pb);
}

static int enum_value(void *ctx, const char *name, struct pf_val *val)
{
	struct pf_btf *pb = ctx;
	struct pf_enum_const key = { .name = name }, *c;
	size_t lo = 0, hi = pb->nr;

	/* lower bound by name only */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(pb->consts[mid].name, key.name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == pb->nr || strcmp(pb->consts[lo].name, name))
		return -ENOENT;
	c = &pb->consts[lo];
	if (c->ambiguous)
		return -ENOENT;
	*val = c->val;
	return 0;
}

static int type_info(void *ctx, const char *name, struct pf_type *type)
{
	struct pf_btf *pb = ctx;
	const struct btf_type *t;
	int id, depth;

	if (!pb->btf)
		return -ENOENT;
	id = btf__find_by_name_kind(pb->btf, name, BTF_KIND_TYPEDEF);
	if (id <= 0)
		return -ENOENT;
	for (depth = 0; depth < 32; depth++) {
		t = btf__type_by_id(pb->btf, id);
		if (!t)
			return -ENOENT;
		if (btf_is_typedef(t) || btf_is_const(t) || btf_is_volatile(t) || btf_is_restrict(t) ||
		    btf_is_type_tag(t)) {
			id = t->type;
			continue;
		}
		if (btf_is_int(t)) {
			if (btf_int_encoding(t) & BTF_INT_BOOL) {
				*type = (struct pf_type){ 1, false };
				return 0;
			}
			if (t->size > 8)
				return -ENOENT;
			*type = (struct pf_type){ t->size * 8, !!(btf_int_encoding(t) & BTF_INT_SIGNED) };
			return 0;
		}
		if (btf_is_enum(t) || btf_is_enum64(t)) {
			*type = (struct pf_type){ t->size * 8, btf_kflag(t) };
			return 0;
		}
		if (btf_is_ptr(t)) {
			*type = (struct pf_type){ 64, false };
			return 0;
		}
		return -ENOENT;
	}
	return -ENOENT;
}

struct pf_env pf_btf_env(struct pf_btf *pb)
{
	return (struct pf_env){ .enum_value = enum_value, .type_info = type_info, .ctx = pb,
				.long_bits = 64 };
}
