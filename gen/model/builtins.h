/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The built-in values a spec names (pid, comm, nsecs, kstack, ...): one line
 * each. The list makes enum pvalue_src's first members (model/prog.h) and
 * builtins[] (model/values.c), which the resolver looks names up in and the
 * BPF emitter (emit/emit_bpf.c) reads each value's C from: a built-in is one
 * line here (docs/extending.md).
 *
 * X(ID, name, alias, kind, size, is_signed, flags, C)
 *   ID      PV_<ID> of enum pvalue_src
 *   alias   a second name (nsecs for time), or NULL
 *   flags   BI_CORE: C reads through BPF_CORE_READ(); BI_CTX: C uses the
 *           program's ctx; BI_START: C reads tpgen_start_ns, the loader's
 *           start time; BI_TIME: C reads tpgen_now, the event's time (one
 *           bpf_ktime_get_ns() at the top of the program, shared by its entries)
 *   C       the BPF C of the value, a printf format whose one argument
 *           (%1$s) is the stack map for a stack, and for a string (PV_STR)
 *           the char array the statement fills
 */
#ifndef __TPGEN_BUILTINS_H
#define __TPGEN_BUILTINS_H

#define PV_BUILTINS(X)									\
	X(PID, "pid", NULL, PV_INT, 4, true, 0, "(__s32)(bpf_get_current_pid_tgid() >> 32)")	\
	X(TID, "tid", NULL, PV_INT, 4, true, 0, "(__s32)bpf_get_current_pid_tgid()")		\
	X(PPID, "ppid", NULL, PV_INT, 4, true, BI_CORE,						\
	  "BPF_CORE_READ((struct task_struct *)bpf_get_current_task(), real_parent, tgid)")	\
	X(UID, "uid", NULL, PV_INT, 4, false, 0, "(__u32)bpf_get_current_uid_gid()")		\
	X(GID, "gid", NULL, PV_INT, 4, false, 0, "(__u32)(bpf_get_current_uid_gid() >> 32)")	\
	X(COMM, "comm", NULL, PV_STR, 16, false, 0, "bpf_get_current_comm(%1$s, sizeof(%1$s))")	\
	X(CPU, "cpu", NULL, PV_INT, 4, false, 0, "bpf_get_smp_processor_id()")			\
	X(TIME, "time", "nsecs", PV_INT, 8, false, BI_TIME, "tpgen_now")			\
	X(CGROUP, "cgroup", NULL, PV_INT, 8, false, 0, "bpf_get_current_cgroup_id()")		\
	X(KSTACK, "kstack", NULL, PV_INT, 8, false, BI_CTX,					\
	  "(__u64)tpgen_stackid(ctx, &%1$s, 0, &tpgen_kstack, &tpgen_stacks_lost)")		\
	X(USTACK, "ustack", NULL, PV_INT, 8, false, BI_CTX,					\
	  /* the process beside its stack: the loader reads its ELF files */			\
	  "((bpf_get_current_pid_tgid() & 0xffffffff00000000ULL) | "				\
	  "tpgen_stackid(ctx, &%1$s, BPF_F_USER_STACK, &tpgen_ustack, &tpgen_stacks_lost))")	\
	X(NUMAID, "numaid", NULL, PV_INT, 4, false, 0, "bpf_get_numa_node_id()")		\
	X(ELAPSED, "elapsed", NULL, PV_INT, 8, false, BI_START | BI_TIME, "(tpgen_now - tpgen_start_ns)")

enum builtin_flags {
	BI_CORE = 1 << 0,
	BI_CTX = 1 << 1,
	BI_START = 1 << 2,
	BI_TIME = 1 << 3,
};

#endif /* __TPGEN_BUILTINS_H */
