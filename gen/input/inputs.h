/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Where the kernel's description comes from: the live system, or a copy
 * (--tracefs DIR, --btf FILE, or a snapshot directory as --kernel DIR).
 */
#ifndef __TPGEN_INPUTS_H
#define __TPGEN_INPUTS_H

#include <stdbool.h>
#include "model/model.h"

struct btf;

/* An event a command needs: a pattern (sched/<glob>), or one sys and name exactly. */
struct input_want {
	char *sys;		/* the pattern when 'glob' */
	char *name;
	bool glob;
};

struct inputs {
	char *tracefs;		/* events directory given, or NULL for the live one */
	char *btf_path;		/* BTF file given (or the snapshot's), or NULL for /sys/kernel/btf/vmlinux */
	bool btf_given;		/* --btf */
	char *kernel;		/* snapshot directory given with --kernel */
	char *release;		/* kernel release, "unknown" when not known */
	struct tp_events evs;	/* every event; the wanted ones loaded */
	bool evs_open;
	bool evs_loaded;
	struct input_want *want;
	int nr_want;
	bool want_all;
	struct btf *btf;
	bool btf_tried;
	int btf_err;
	unsigned long long btf_hash;
	char **read;		/* every input read, for depfiles */
	int nr_read;
};

/* Handle --tracefs/--btf/--kernel; returns 1 if consumed, 0 if not an input option, <0 on error. */
int inputs_option(struct inputs *in, int opt, const char *arg);
/*
 * The events a command needs, before inputs_load_events(): patterns as
 * tpgen headers takes them (none: every event), or one event exactly (a
 * spec's). Only these are read, so a bad format file elsewhere does not
 * matter. Without a call, every event is read.
 */
void inputs_want(struct inputs *in, char **patterns, int nr);
void inputs_want_event(struct inputs *in, const char *sys, const char *name);
/*
 * List the events and read the wanted ones not read yet (again after more
 * inputs_want*()). -EACCES for the environment (no tracefs, permission),
 * else an input error, reported.
 */
int inputs_load_events(struct inputs *in);
/*
 * BTF: the given file, the snapshot's, or the running kernel's. When none is
 * there: 0 with in->btf NULL, or reported and -ENOENT if 'required'. A file
 * that is there but unreadable or malformed: reported, -EINVAL.
 */
int inputs_load_btf(struct inputs *in, bool required);
/* The kernel release for banners: uname's, or the snapshot's; reported if not a release name. */
int inputs_load_release(struct inputs *in);
const char *inputs_release(struct inputs *in);
void inputs_clear(struct inputs *in);

/* NAME beside a snapshot's events/ directory: DIR/NAME for DIR/events. */
char *inputs_sibling(const char *events_dir, const char *name);

struct sysnames;
/*
 * The target's syscall table: the snapshot's syscalls file beside the
 * events (--kernel DIR, --tracefs DIR), or the running kernel's metadata
 * (live, as root). 0 with the table; -ENOENT when it cannot be known, with *why
 * saying so (for the located error of the entry that needs it); -EINVAL
 * for a syscalls file that is there and bad (reported). *path is the file
 * read, for depfiles, or NULL.
 */
int inputs_sysnames(struct inputs *in, struct sysnames *sn, char **why, char **path);

#endif /* __TPGEN_INPUTS_H */
