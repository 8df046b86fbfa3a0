/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * An index over a BTF's names: the btf_trace_<tp> typedefs and the
 * functions that name a tracepoint's parameters, __probestub_<tp>,
 * __traceiter_<tp> and __bpf_trace_<class>. One pass over the types builds
 * it; every lookup after is a binary search.
 */
#ifndef __TPGEN_BTF_INDEX_H
#define __TPGEN_BTF_INDEX_H

#include <pthread.h>
#include <stdbool.h>
#include <linux/types.h>

#include "input/rawtp.h"

struct btf;
struct btf_type;

struct name_id {
	const char *name;	/* without its prefix */
	__u32 id;
};

/* Sorted by name, then id. */
struct name_vec {
	struct name_id *v;
	int nr, cap;
};

struct btf_index {
	const struct btf *btf;
	__u32 start;		/* the first type of this BTF's own (split BTF: after the base's) */
	struct name_vec tps;	/* btf_trace_<tp> typedefs */
	struct name_vec stubs;	/* __probestub_<tp> */
	struct name_vec iters;	/* __traceiter_<tp> */
	struct name_vec bts;	/* __bpf_trace_<class> */
	struct name_id *by_proto; /* bts sorted by prototype, made when first needed */
	pthread_mutex_t lock;	/* ... by whichever thread needs it first */
	bool dup_names;		/* also note repeated names in tags and idents */
	struct kbtf_names tags;	/* struct, union, enum names */
	struct kbtf_names idents; /* typedef names */
};

/*
 * Index 'btf' (split BTF: its own types only). With 'dup_names', also note
 * the struct, union, enum and typedef names that occur twice, which btf_dump
 * would suffix (___2).
 */
void btf_index_build(struct btf_index *x, const struct btf *btf, bool dup_names);
void btf_index_clear(struct btf_index *x);

/* The FUNC_PROTO behind a FUNC, or behind a typedef of a pointer to one. */
const struct btf_type *btf_index_proto(const struct btf *btf, __u32 id, __u32 *proto_id);
/* A function of family 'v' (x->stubs, x->iters) named 'name', with the parameters of 'proto'. */
const struct btf_type *btf_index_named_fn(const struct btf_index *x, const struct name_vec *v,
					  const char *name, const struct btf_type *proto, __u32 *fn);
/*
 * __bpf_trace_<class> for a tracepoint without stub or iterator: the class
 * named like the tracepoint, else the classes with its parameter types, if
 * they all name the parameters alike. Safe from several threads.
 */
const struct btf_type *btf_index_class_fn(struct btf_index *x, const char *tp,
					  const struct btf_type *proto, __u32 *fn);

#endif /* __TPGEN_BTF_INDEX_H */
