/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The BTF of loaded modules: /sys/kernel/btf/<module> on the running kernel,
 * <snapshot>/btf/<module> in a snapshot. Each is split BTF on vmlinux's: the
 * module's own types (its tracepoints' btf_trace_<tp> typedefs, its structs)
 * numbered after vmlinux's, referring to them freely.
 */
#ifndef __TPGEN_KMODS_H
#define __TPGEN_KMODS_H
#include "lib/limits.h"

struct btf;
struct inputs;
struct raw_tps;

struct kmod {
	char *name;		/* "nf_tables": checked, letters, digits, '_' and '-' */
	char *path;		/* the file read */
	struct btf *btf;	/* split on the inputs' vmlinux BTF */
};

struct kmods {
	struct kmod *m;		/* sorted by name */
	int nr;
	unsigned long long hash; /* FNV-1a of the vmlinux BTF's hash, names and files, for banners */
};

/*
 * The module BTFs beside the inputs' BTF (in->btf, loaded): a snapshot's
 * DIR/btf/, or the live /sys/kernel/btf/; none with --btf FILE. 0 (maybe
 * none), or -EINVAL after one located error (a name that is not a module's,
 * a file that is not BTF on this vmlinux, a name in it tpgen refuses).
 */
int kmods_load(struct inputs *in, struct kmods *km);
/* Their raw tracepoints, added to r (rawtp_add_module()). */
void kmods_add_rawtps(const struct kmods *km, struct raw_tps *r);
void kmods_clear(struct kmods *km);

#endif /* __TPGEN_KMODS_H */
