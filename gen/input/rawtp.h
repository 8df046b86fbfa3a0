/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Raw tracepoints from BTF: one per 'btf_trace_<tp>' typedef, arguments are
 * the prototype's parameters after the leading 'void *__data'.
 */
#ifndef __TPGEN_RAWTP_H
#define __TPGEN_RAWTP_H

#include <stdbool.h>
#include <linux/types.h>

struct btf;

/* Where an argument's name came from. */
enum raw_name_src {
	RAW_NAME_PROBESTUB,	/* __probestub_<tp> */
	RAW_NAME_TRACEITER,	/* __traceiter_<tp> */
	RAW_NAME_BPF_TRACE,	/* __bpf_trace_<class> with a matching prototype */
	RAW_NAME_NONE,		/* arg0, arg1, ... */
};

/* How standalone headers spell an argument's type (emit/btf_decl.c spells it). */
enum raw_sa {
	RAW_SA_NONE,		/* not typed (its tracepoint is unsupported at or before it): __u64 */
	RAW_SA_FIXED,		/* __u8 .. __s64 of its size and sign: integers, enums, floats,
				 * structs and unions by value */
	RAW_SA_BOOL,		/* _Bool */
	RAW_SA_PTR,		/* its pointee (pointee_id) as standalone headers spell it, then '*' */
};

/*
 * One argument as BTF has it: no C text (emit/btf_decl.c spells it from
 * type_id when it prints), only what input decides from the types.
 */
struct raw_arg {
	char *name;		/* "prev", or "arg1"; sanitized to a C identifier */
	__u32 type_id;		/* BTF type id of the parameter */
	unsigned int size;	/* size of the type in bytes (pointers: 8) */
	bool is_signed;
	bool is_ptr;
	enum raw_sa sa;		/* how standalone headers spell it */
	__u32 pointee_id;	/* a pointer's: the type it points to */
	char *ptr_struct;	/* for a pointer to a struct/union: "struct task_struct", else NULL */
	char *fwd;		/* the struct/union a standalone spelling names, to forward-declare
				 * ("struct task_struct"), or NULL */
	char *kname;		/* the kernel's name when 'name' differs from it, else NULL */
	const char *renamed;	/* why 'name' is not the kernel's ("a C keyword"), or NULL */
	bool by_value;		/* a struct or union passed by value (1, 2, 4 or 8 bytes) */
	bool kernel_sa;		/* the kernel's type is never spelled, not even in listings: standalone
				 * spelling instead. Not typed; or, from rawtp_load(), btf_dump would
				 * print an anonymous type's body (or the chain is malformed) */
	bool vmlinux_sa;	/* vmlinux.h mode spells it as standalone mode does: kernel_sa, a
				 * module's type, or an enum vmlinux.h may size differently */
	__u32 dup_last;		/* rawtp_load(): the last type id with a name on this argument's
				 * chain that occurs more than once (btf_dump suffixes ___2), else 0 */
};

struct raw_tp {
	char *name;		/* "sched_switch" */
	struct raw_arg *args;
	int nr_args;
	enum raw_name_src name_src;
	char *name_from;	/* the BTF function the names came from, or NULL */
	__u32 proto_id;		/* BTF id of the FUNC_PROTO */
	const char *unsupported; /* why no struct can describe it (an argument wider than a slot), or NULL */
	char *module;		/* a module's tracepoint: the module, else NULL (vmlinux) */
	const struct btf *btf;	/* a module's: its BTF (split on vmlinux), where type_id points */
};

struct raw_tps {
	struct raw_tp *tp;	/* sorted by name */
	int nr;
	bool vmlinux_names;	/* rawtp_load(): vmlinux's types are spelled as vmlinux.h names them
				 * (btf_dump, repeated names renamed), dup_last and kernel_sa known */
};

enum raw_mode {
	RAW_MODE_STANDALONE,	/* no vmlinux.h */
	RAW_MODE_VMLINUX,	/* kernel types as they are, needs vmlinux.h */
};

/* gen/input/btf.c: load BTF from a file (raw or ELF .BTF) or, with path NULL, the running kernel. */
int kbtf_load(const char *path, struct btf **btf);
/* gen/input/btf.c: a module's raw BTF from 'path', split on 'base' (vmlinux), checked as kbtf_load() checks. */
int kbtf_load_split(const char *path, const struct btf *base, struct btf **btf);

/* gen/input/btf.c, for rawtp.c: names seen more than once (btf_dump suffixes them ___2), by string. */
struct kbtf_names {
	const char **slot;
	__u32 *last;		/* the last id seen with the name */
	unsigned char *cnt;	/* 1, or 2 for "more than once" */
	size_t cap, nr;
};
void kbtf_names_add(struct kbtf_names *d, const char *name, __u32 id);
/* The last id named 'name' if the name was seen more than once, else 0. */
__u32 kbtf_names_last(const struct kbtf_names *d, const char *name);
void kbtf_names_clear(struct kbtf_names *d);
/*
 * The struct or union that the standalone spelling of a pointer to type 'id'
 * names, to forward-declare ("struct task_struct"), or NULL: the base of the
 * chain of qualifiers, typedefs and pointers, when it is a named struct or union.
 */
char *kbtf_pointee_fwd(const struct btf *btf, __u32 id);

/*
 * gen/input/rawtp.c. rawtp_load() also learns what spelling kernel types as
 * vmlinux.h does needs (vmlinux_names: which names repeat, which types are
 * anonymous); rawtp_load_standalone() does not, and its kernel types are
 * spelled with the kernel's names (kbtf_decl()), enough for the comments of
 * standalone headers.
 */
int rawtp_load(struct raw_tps *r, const struct btf *btf);
int rawtp_load_standalone(struct raw_tps *r, const struct btf *btf);
/*
 * Add the tracepoints of a module's BTF ('btf', split on vmlinux's): only
 * the module's own btf_trace_ typedefs, named from its own functions,
 * spelled as standalone headers spell them (vmlinux.h has no module type)
 * in both modes. A name vmlinux or an earlier module has is kept once.
 */
void rawtp_add_module(struct raw_tps *r, const struct btf *btf, const char *module);
void rawtp_clear(struct raw_tps *r);
struct raw_tp *rawtp_find(struct raw_tps *r, const char *name);
/* The raw tracepoint that a trace event fires from: syscalls/sys_enter_* -> sys_enter. */
const char *rawtp_for_event(const char *sys, const char *event);

#endif /* __TPGEN_RAWTP_H */
