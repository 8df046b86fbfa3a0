/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Syscall names for the target's syscall numbers.
 *
 * The source is the kernel's own description: the syscall metadata behind
 * each syscalls/sys_enter_<name> event (struct syscall_metadata, the
 * event's trace_event_call->data: "sys_openat" and the number the kernel
 * gave it at boot). tpgen reads it on the target, as root: an fentry
 * program on syscall_enter_register() catches each event's
 * trace_event_call when tpgen opens the event with perf_event_open(), and
 * a second tiny program reads the metadata (bpf_probe_read_kernel() run by
 * BPF_PROG_TEST_RUN), laid out as the kernel's BTF says. Neither
 * sys_call_table (gone from x86 since 6.9) nor the metadata's own symbols
 * (data symbols need CONFIG_KALLSYMS_ALL; the pointer section is init
 * data, freed after boot) is needed. 'tpgen snapshot' stores the table as
 * DIR/syscalls, so generating for that kernel elsewhere needs neither
 * root nor that kernel. The names are those of the events ("newfstatat").
 *
 * A kernel without CONFIG_FTRACE_SYSCALLS has no metadata (and no
 * syscalls/ events); then the target's asm/unistd_64.h (or unistd_32.h...)
 * can be given: "#define __NR_<name> <number or expression>" lines.
 */
#ifndef __TPGEN_SYSNAMES_H
#define __TPGEN_SYSNAMES_H

#include "lib/util.h"

struct btf;
struct tp_events;

struct sysname {
	int nr;
	char *name;
};

struct sysnames {
	char *arch;		/* the target's machine ("x86_64"), or NULL when not known */
	char *source;		/* "kernel syscall metadata", or the unistd header's path */
	struct sysname *tab;	/* sorted by nr, then name */
	int nr;
};

/*
 * The running kernel's table: 'evs' its events (live tracefs, with ids),
 * 'btf' its BTF. Needs root (BPF, fentry, perf_event_open()). Returns 0,
 * or -errno after one message saying what is missing.
 */
int sysnames_read_kernel(struct sysnames *sn, const struct tp_events *evs, const struct btf *btf);
/* A unistd header's text; 'path' for messages. Returns 0 or -EINVAL after a located error. */
int sysnames_parse_unistd(const char *path, const char *text, const char *arch, struct sysnames *sn);
/* The file 'tpgen snapshot' writes (see sysnames_text()). Returns 0, -ENOENT, or -EINVAL after a located error. */
int sysnames_load(const char *path, struct sysnames *sn);
/*
 * The table as text, the file 'tpgen snapshot' writes:
 *   # tpgen syscalls: <arch>, from <source>
 *   0 read
 *   1 write
 */
void sysnames_text(struct strbuf *sb, const struct sysnames *sn);

const char *sysnames_name(const struct sysnames *sn, int nr);
int sysnames_nr(const struct sysnames *sn, const char *name);

/*
 * The table as C for a loader, sorted by number (bpf/tpgen_names.h):
 *   static const struct tpgen_syscall <var>[] = {
 *   	{ 0, "read" },
 *   ...
 */
void sysnames_emit(struct strbuf *sb, const struct sysnames *sn, const char *var);
void sysnames_clear(struct sysnames *sn);

#endif /* __TPGEN_SYSNAMES_H */
