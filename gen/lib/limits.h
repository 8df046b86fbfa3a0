/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Every limit of tpgen, in one place: what it reads (inputs are untrusted:
 * each bound is where a hostile or broken input is refused, with a located
 * error, instead of growing without end), and the sizes of what the
 * generated programs keep.
 */
#ifndef __TPGEN_LIMITS_H
#define __TPGEN_LIMITS_H

/* ---- inputs ------------------------------------------------------------ */

/* A file read whole (read_file()) */
#define READ_FILE_MAX		(16 << 20)
/* A release file (uname -r of a snapshot) */
#define RELEASE_FILE_MAX	4096
/* A kernel release string: __NEW_UTS_LEN */
#define RELEASE_MAX		64
/* A format file: 1024 fields; the largest live one is 5.5 KiB */
#define TRACEFS_MAX_FORMAT	(256 * 1024)
/* A trace record never exceeds a page; offsets are u16 */
#define TRACEFS_MAX_RECORD	65536
#define TRACEFS_MAX_FIELDS	1024
/* Threads reading an events directory */
#define READER_MAX_THREADS	4
/* BTF type chains (modifiers, typedefs, pointers) longer than this are malformed */
#define BTF_MAX_DEPTH		32
/* Module BTFs (the kernel has one per loaded module); a module's name: MODULE_NAME_LEN less its NUL */
#define KMODS_MAX		4096
#define MODULE_NAME_MAX		55
/* Bytes one read of kernel memory copies (kread.c) */
#define KREAD_MAX		256
/* Syscall names: one name's length, and a bound on the walk of the kernel's list of events */
#define SYSNAMES_NAME_MAX	64
#define SYSNAMES_MAX_EVENTS	100000
/* Arguments a syscall passes in registers */
#define SYSCALL_MAX_ARGS	6
/* print fmt: nesting of parentheses and operators; warnings per print fmt, then one line says how many more */
#define PF_MAX_DEPTH		64
#define PRINTFMT_MAX_WARNINGS	16
/* Specs: the file, entries (each is code in the kernel), items of one list, YAML nesting and aliases */
#define SPEC_MAX_SIZE		(1024 * 1024)
#define SPEC_MAX_ENTRIES	256
#define SPEC_MAX_ITEMS		64
#define SPEC_MAX_DEPTH		16
#define SPEC_MAX_ALIASES	64
/* Expressions: nesting (the parser recurses, clang has limits) and nodes */
#define EXPR_MAX_DEPTH		64
#define EXPR_MAX_NODES		1024
/* Pointers a member path follows: BPF_CORE_READ() takes 9 accessors (bpf_core_read.h's ___rd_p9) */
#define PATH_MAX_HOPS		9
/* Templates: partials in partials */
#define TMPL_MAX_NEST		4

/* ---- the program model ------------------------------------------------- */

/* Probes (entries and latency ends) of one spec; maps of one program (the kernel's MAX_USED_MAPS) */
#define PROG_MAX_PROBES		256
#define PROG_MAX_MAPS		64
/* A BPF program's stack */
#define BPF_STACK_MAX		512
/* A save of a few numbers is built on the stack and stored with one map update */
#define SAVE_STACK_MAX		64
/* A text column of names is at most this wide (then it overflows) */
#define DECODE_WIDTH_MAX	24

/* ---- what generated programs keep --------------------------------------- */

/* Strings of no fixed size: bytes kept in records, in keys and in filters */
#define RECORD_STR_MAX		256
#define KEY_STR_MAX		64
#define FILTER_STR_MAX		128
/* Keys a hash map holds; one more is counted as lost */
#define MAP_ENTRIES		10240
/* ... or as many as a save's 'entries' asks, at most this (libbpf-tools' memleak keeps 1,000,000) */
#define SAVE_MAX_ENTRIES	(1 << 20)
/* kstack, ustack: frames of a stack (the kernel's default kernel.perf_event_max_stack), stacks kept */
#define STACK_DEPTH		127
#define STACK_ENTRIES		4096
/* argv: bytes kept of an argv-style array (tpgen_read_argv()) */
#define ARGV_SIZE		1024
/* log2 histogram slots (TPGEN_MAX_SLOTS in tpgen.h) */
#define HIST_MAX_SLOTS		64

/* ---- outputs ------------------------------------------------------------ */

/* A build's .output/ is one level deep */
#define REMOVE_MAX_DEPTH	16

#endif /* __TPGEN_LIMITS_H */
