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
struct strbuf;

/* Where an argument's name came from. */
enum raw_name_src {
	RAW_NAME_PROBESTUB,	/* __probestub_<tp> */
	RAW_NAME_TRACEITER,	/* __traceiter_<tp> */
	RAW_NAME_BPF_TRACE,	/* __bpf_trace_<class> with a matching prototype */
	RAW_NAME_NONE,		/* arg0, arg1, ... */
};

struct raw_arg {
	char *name;		/* "prev", or "arg1"; sanitized to a C identifier */
	__u32 type_id;		/* BTF type id of the parameter */
	unsigned int size;	/* size of the type in bytes (pointers: 8) */
	bool is_signed;
	bool is_ptr;
	char *decl;		/* C declaration, kernel types: "struct task_struct *prev" */
	char *decl_sa;		/* C declaration in standalone mode: "struct task_struct *prev", "__u32 prev_state" */
	char *ptr_struct;	/* for a pointer to a struct/union: "struct task_struct", else NULL */
	char *ktype;		/* the type alone, kernel types: "struct task_struct *", "void (*)(int)" */
	char *type_sa;		/* the type alone, standalone mode: "struct task_struct *", "__u32" */
	char *fwd;		/* struct/union that decl_sa names, to forward-declare, or NULL */
	char *kname;		/* the kernel's name when 'name' differs from it, else NULL */
	const char *renamed;	/* why 'name' is not the kernel's ("a C keyword"), or NULL */
	bool by_value;		/* a struct or union passed by value (1, 2, 4 or 8 bytes) */
	bool vmlinux_sa;	/* vmlinux.h mode spells it as standalone mode does: the kernel's
				 * type is anonymous, or an enum vmlinux.h may size differently */
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
};

enum raw_mode {
	RAW_MODE_STANDALONE,	/* no vmlinux.h */
	RAW_MODE_VMLINUX,	/* kernel types as they are, needs vmlinux.h */
};

/* gen/btf.c: load BTF from a file (raw or ELF .BTF) or, with path NULL, the running kernel. */
int kbtf_load(const char *path, struct btf **btf);
/* gen/btf.c: a module's raw BTF from 'path', split on 'base' (vmlinux), checked as kbtf_load() checks. */
int kbtf_load_split(const char *path, const struct btf *base, struct btf **btf);

/* gen/btf.c, for rawtp.c: names seen more than once (btf_dump suffixes them ___2), by string. */
struct kbtf_names {
	const char **slot;
	__u32 *last;		/* the last id seen with the name */
	unsigned char *cnt;	/* 1, or 2 for "more than once" */
	size_t cap, nr;
};
void kbtf_names_add(struct kbtf_names *d, const char *name, __u32 id);
/* The last id named 'name' if the name was seen more than once, else 0. */
__u32 kbtf_names_last(const struct kbtf_names *d, const char *name);
void kbtf_names_free(struct kbtf_names *d);
/*
 * Append the standalone spelling of type 'id' as a pointer's target: structs
 * and unions by name (the first one named goes to *fwd, to forward-declare),
 * scalars as fixed-width types, anything else as void; qualifiers kept.
 */
void kbtf_sa_pointee(const struct btf *btf, __u32 id, struct strbuf *sb, char **fwd);

/*
 * gen/btf_decl.c: type 'id' declared as C ("const char *name", "void (*)(int)"),
 * as btf_dump__emit_type_decl() spells it but with the kernel's names, never
 * btf_dump's renames; NULL where btf_dump would print an anonymous type's body.
 */
char *kbtf_decl(const struct btf *btf, __u32 id, const char *name);

/*
 * gen/rawtp.c. rawtp_load() spells each argument's kernel type (decl, ktype)
 * exactly as vmlinux.h does, repeated names renamed as bpftool's dump renames
 * them; learning that costs a pass of btf_dump over the types.
 * rawtp_load_standalone() spells them with the kernel's names (kbtf_decl()),
 * enough for the comments of standalone headers, without that pass.
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
void rawtp_free(struct raw_tps *r);
struct raw_tp *rawtp_find(struct raw_tps *r, const char *name);
/* The raw tracepoint that a trace event fires from: syscalls/sys_enter_* -> sys_enter. */
const char *rawtp_for_event(const char *sys, const char *event);

/* gen/emit_raw.c: one header with 'struct <tp>_raw_args' for each selected tracepoint. */
int emit_raw_header(struct strbuf *out, const struct raw_tps *r, const bool *selected,
		    const struct btf *btf, enum raw_mode mode, const char *banner);

#endif /* __TPGEN_RAWTP_H */
