/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * tpgen_syms: stack symbolization for loaders (user space), for stacks as
 * bpf_get_stackid()/bpf_get_stack() store them (ips[0] the innermost frame,
 * 0 or the length ending the stack).
 *
 * - kernel addresses: /proc/kallsyms (root sees the addresses), sorted
 *   once, binary search: "schedule+0x3a", "[unknown]" outside any symbol;
 * - user addresses: elfutils' libdwfl reads the process's mappings
 *   (/proc/PID/maps) and the symbols of the ELF file mapped there
 *   (.symtab, else .dynsym and .gnu_debugdata, or the .symtab of its
 *   separate debug file under /usr/lib/debug/.build-id). Mapped files are
 *   opened through /proc/PID/map_files, non-blocking, and checked (a
 *   regular ELF file, every size inside it) before they are read. Symbols
 *   are read once per file (device, inode, size, mtime) and shared between
 *   processes; a process is checked on a lookup (start time, exe, layout;
 *   once a millisecond at most), so an exec or a reused pid is read
 *   again. Processes and
 *   files are dropped least recently used first beyond 64 processes or
 *   128 MiB (TPGEN_SYMS_MAX_PROCS, TPGEN_SYMS_MAX_BYTES at build time);
 *   tpgen_syms_forget() drops a pid that exited;
 * - output: indented (one frame per line, innermost first, as
 *   libbpf-tools print stacks) or folded ("root;...;leaf", what
 *   flamegraph.pl and other flame graph tools read, a count after it).
 *
 * Not thread-safe; one struct tpgen_syms per thread.
 */
#ifndef __TPGEN_SYMS_H
#define __TPGEN_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct tpgen_syms;

struct tpgen_sym_info {
	const char *name;		/* the symbol, or NULL when none covers the address */
	unsigned long long offset;	/* from the symbol's start */
	const char *module;		/* kernel module ("[ext4]"), or the ELF file's path; may be NULL */
};

/* Kernel symbols are read on first use. NULL (errno set) only when out of memory. */
struct tpgen_syms *tpgen_syms_new(void);
void tpgen_syms_free(struct tpgen_syms *s);

/*
 * A kernel address. Returns 0, or -errno: -ENOENT when no symbol covers it,
 * -EPERM when /proc/kallsyms hides its addresses (not root), another
 * error when it cannot be read.
 */
int tpgen_syms_kernel(struct tpgen_syms *s, unsigned long long addr, struct tpgen_sym_info *info);
/*
 * An address in process 'pid'. Returns 0, -ENOENT (no symbol, no mapping) or -ESRCH (no such
 * process). info->name and info->module stay valid until the next call on 's'.
 */
int tpgen_syms_user(struct tpgen_syms *s, int pid, unsigned long long addr, struct tpgen_sym_info *info);
/*
 * How many of a kernel stack's innermost frames are the tracing's own (the
 * BPF program, bpf_trace_run*(), __traceiter_*(), perf_trace_*(), ...): the
 * stack as the traced code saw it starts after them.
 */
int tpgen_stack_tracing_frames(struct tpgen_syms *s, const unsigned long long *ips, int len);
/* Forget what is cached for 'pid' (it exited, or exec'd). */
void tpgen_syms_forget(struct tpgen_syms *s, int pid);

/*
 * "name+0x1a" (or "name" without 'offset'), "[unknown]" without a symbol; like snprintf().
 * The name is made safe for a terminal: valid UTF-8 as it is, "\\", "\t", "\n", "\r", and
 * "\xNN" for other control bytes and bytes of no UTF-8 character (info->name is raw).
 */
int tpgen_sym_str(char *buf, size_t size, const struct tpgen_sym_info *info, bool offset);

/*
 * One folded line without its count: "comm;u_root;...;u_leaf;k_root;...;k_leaf"
 * (user frames of 'pid', then "-" when both stacks are there, as
 * libbpf-tools' offcputime -f, then kernel frames), frames without offsets,
 * escaped as tpgen_sym_str() does and ';' as "\x3b": a sample is one line.
 * 'comm' may be NULL; either stack may be NULL or empty. Like snprintf().
 */
int tpgen_stack_folded(struct tpgen_syms *s, char *buf, size_t size, const char *comm, int pid,
		       const unsigned long long *ustack, int ulen, const unsigned long long *kstack,
		       int klen);
/*
 * A stack indented, one frame per line, innermost first:
 * "<indent>0xffffffff81c2f1e5 schedule+0x45". pid < 0: kernel addresses.
 */
void tpgen_stack_print(struct tpgen_syms *s, FILE *f, const char *indent, int pid,
		       const unsigned long long *ips, int len);

#endif /* __TPGEN_SYMS_H */
