/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Values read through BTF, shared by gen/model/values.c (arguments, fields,
 * built-ins) and gen/model/paths.c (member paths and casts).
 */
#ifndef __TPGEN_VALUES_H
#define __TPGEN_VALUES_H

#include <bpf/btf.h>
#include "model/prog.h"

struct tinfo {
	enum pvalue_kind kind;
	unsigned int size;
	bool is_signed;
	bool str_ptr;
	bool is_bool;		/* _Bool: read as a byte, so comparing it with 2 is no clang warning */
	__u32 struct_id;	/* PV_PTR to a struct or union */
};

/* gen/model/values.c */
__u32 skip_mods(const struct btf *btf, __u32 id);
/* What a BTF type is to a handler; -EOPNOTSUPP for what it cannot read or print. */
int classify(const struct btf *btf, __u32 id, struct tinfo *ti);
/* A member of a struct or union, looking into anonymous members as C does (-EOPNOTSUPP: a bit-field). */
int find_member(const struct btf *btf, __u32 struct_id, const char *name, __u32 *type_id);
/* v read as a raw argument of type ti: kind, size, sign and how */
void pvalue_set_raw(struct pvalue *v, const struct tinfo *ti);

/* gen/model/paths.c */
const char *btf_struct_kw(const struct btf_type *t);
/* v from a base pointer (type 'base', or a pointer to 'cast') and a member path ("->a.b[2]->c"). */
int path_value(struct resolver *r, struct pvalue *v, const char *base_name, __u32 base,
	       const char *cast, const char *members, size_t off);
/* The local a path starts from: "sk", "sk_tcp_sock" for a cast, "arg_<name>" for a taken name. */
char *path_local(const char *name, const char *cast);
/* "name", "name->path", "((struct T *)name)->path" into its name, cast and path (NULL when none). */
void path_split(const char *ref, char *buf, size_t size, const char **name, const char **cast,
		const char **path);
/* A path through a pointer field of a tracepoint's record. */
int path_resolve_ctx(struct resolver *r, struct pvalue *v, const char *name, size_t off);
bool path_has_members(const char *name);
/* "start.ts": a value a join found, not a path */
bool path_is_saved(const struct resolver *r, const char *name);

#endif /* __TPGEN_VALUES_H */
