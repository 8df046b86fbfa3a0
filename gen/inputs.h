/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Where the kernel's description comes from: the live system, or a copy
 * (--tracefs DIR, --btf FILE, or a snapshot directory as --kernel DIR).
 */
#ifndef __TPGEN_INPUTS_H
#define __TPGEN_INPUTS_H

#include <stdbool.h>
#include "model.h"

struct btf;

struct inputs {
	char *tracefs;		/* events directory given, or NULL for the live one */
	char *btf_path;		/* BTF file given, or NULL for /sys/kernel/btf/vmlinux */
	char *kernel;		/* snapshot directory given with --kernel */
	char *release;		/* kernel release, "unknown" when not known */
	struct tp_events evs;
	bool evs_loaded;
	struct btf *btf;
	bool btf_tried;
	unsigned long long btf_hash;
	char **read;		/* every input read, for depfiles */
	int nr_read;
};

/* Handle --tracefs/--btf/--kernel; returns 1 if consumed, 0 if not an input option, <0 on error. */
int inputs_option(struct inputs *in, int opt, const char *arg);
int inputs_load_events(struct inputs *in);
/* BTF: the given file, the snapshot's, or the running kernel's; 'required' reports a failure. */
int inputs_load_btf(struct inputs *in, bool required);
const char *inputs_release(struct inputs *in);
void inputs_free(struct inputs *in);

#endif /* __TPGEN_INPUTS_H */
