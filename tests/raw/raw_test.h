/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What tests/raw/raw_args.bpf.c records and tests/raw/raw_load.c checks; [0] raw_tp, [1] tp_btf. */
#ifndef __RAW_TEST_H
#define __RAW_TEST_H

#define RAW_TEST_ARG	4242	/* getpgid(RAW_TEST_ARG): the syscall's first argument */

struct raw_cfg {
	__s32 loader;		/* tgid of the loader */
	__s32 sleeper;		/* its thread that sleeps in read() on a pipe */
	__s32 exec_child;	/* its child that execs /bin/true */
	__s32 kill_child;	/* its child that is killed with SIGUSR1 */
};

struct raw_result {
	__s64 sys_id[2];	/* sys_enter: id of the loader's getpgid() */
	__u64 sys_arg[2];	/* its first argument, through the regs pointer */
	__u32 sw_hits[2];	/* sched_switch: the sleeper switching out, not preempted */
	__s32 sw_pid[2];	/* prev->pid, read through the task pointer */
	__s32 sw_cur[2];	/* bpf_get_current_pid_tgid() then */
	__u32 sw_state[2];	/* prev_state */
	__u32 sw_preempt[2];	/* preempt */
	__u32 sw_next_ok[2];	/* next is a task whose pid differs from prev's */
	__s32 exec_old_pid[2];	/* sched_process_exec of the loader's child */
	__s32 exec_pid[2];	/* p->pid */
	__u32 exec_hits[2];
	__s32 exit_pid[2];	/* sched_process_exit of the killed child: p->pid */
	__u32 exit_group_dead[2]; /* bool, 1 byte */
	__s32 sig[2];		/* signal_generate: int sig (4 bytes) */
	__s32 sig_pid[2];	/* task->pid */
	__s32 sig_group[2];
};

#endif /* __RAW_TEST_H */
