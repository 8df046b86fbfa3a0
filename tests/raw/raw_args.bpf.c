// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * raw_tp and tp_btf programs that name their arguments through tpgen's raw
 * header: RAW_H is the header ('tpgen headers --raw' or '--raw --vmlinux-h'),
 * included after vmlinux.h. raw_tp programs cast ctx to the args struct and
 * read through pointers with CO-RE (one, signal_generate, uses the macro);
 * tp_btf programs use TP_BTF_<tp>() and read through BTF pointers directly
 * (one, sched_process_exec, casts ctx).
 */
#include "vmlinux.h"
#include RAW_H
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "raw_test.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

const volatile struct raw_cfg cfg = {};	/* set by the loader */

struct raw_result res = {};

static __always_inline bool is_loader(void)
{
	return (__s32)(bpf_get_current_pid_tgid() >> 32) == cfg.loader;
}

SEC("raw_tp/sys_enter")
int raw_sys_enter(__u64 *ctx)
{
	struct sys_enter_raw_args *a = (void *)ctx;
	struct pt_regs *regs = a->regs;	/* not BPF_CORE_READ(a->regs, ..): see the header */

	if (!is_loader() || BPF_CORE_READ(regs, di) != RAW_TEST_ARG)
		return 0;
	res.sys_id[0] = a->id;
	res.sys_arg[0] = BPF_CORE_READ(regs, di);
	return 0;
}

SEC("tp_btf/sys_enter")
int TP_BTF_sys_enter(btf_sys_enter)
{
	if (!is_loader() || regs->di != RAW_TEST_ARG)
		return 0;
	res.sys_id[1] = id;
	res.sys_arg[1] = regs->di;
	return 0;
}

SEC("raw_tp/sched_switch")
int raw_sched_switch(__u64 *ctx)
{
	struct sched_switch_raw_args *a = (void *)ctx;
	struct task_struct *prev = a->prev, *next = a->next;

	if (BPF_CORE_READ(prev, pid) != cfg.sleeper || !a->prev_state)
		return 0;
	res.sw_pid[0] = BPF_CORE_READ(prev, pid);
	res.sw_cur[0] = (__s32)bpf_get_current_pid_tgid();
	res.sw_state[0] = a->prev_state;
	res.sw_preempt[0] = a->preempt;
	res.sw_next_ok[0] = BPF_CORE_READ(next, pid) != res.sw_pid[0];
	res.sw_hits[0]++;
	return 0;
}

SEC("tp_btf/sched_switch")
int TP_BTF_sched_switch(btf_sched_switch)
{
	if (prev->pid != cfg.sleeper || !prev_state)
		return 0;
	res.sw_pid[1] = prev->pid;
	res.sw_cur[1] = (__s32)bpf_get_current_pid_tgid();
	res.sw_state[1] = prev_state;
	res.sw_preempt[1] = preempt;
	res.sw_next_ok[1] = next->pid != prev->pid;
	res.sw_hits[1]++;
	return 0;
}

SEC("raw_tp/sched_process_exec")
int raw_exec(__u64 *ctx)
{
	struct sched_process_exec_raw_args *a = (void *)ctx;
	struct task_struct *p = a->p;

	if (a->old_pid != cfg.exec_child)
		return 0;
	res.exec_old_pid[0] = a->old_pid;
	res.exec_pid[0] = BPF_CORE_READ(p, pid);
	res.exec_hits[0]++;
	return 0;
}

/* tp_btf with the struct cast instead of the macro: a BTF pointer and a 4-byte slot */
SEC("tp_btf/sched_process_exec")
int btf_exec(__u64 *ctx)
{
	struct sched_process_exec_raw_args *a = (void *)ctx;

	if (a->old_pid != cfg.exec_child)
		return 0;
	res.exec_old_pid[1] = a->old_pid;
	res.exec_pid[1] = a->p->pid;
	res.exec_hits[1]++;
	return 0;
}

SEC("raw_tp/sched_process_exit")
int raw_exit(__u64 *ctx)
{
	struct sched_process_exit_raw_args *a = (void *)ctx;
	struct task_struct *p = a->p;
	__s32 pid = BPF_CORE_READ(p, pid);

	if (pid != cfg.kill_child)
		return 0;
	res.exit_pid[0] = pid;
	res.exit_group_dead[0] = a->group_dead;
	return 0;
}

SEC("tp_btf/sched_process_exit")
int TP_BTF_sched_process_exit(btf_exit)
{
	if (p->pid != cfg.kill_child)
		return 0;
	res.exit_pid[1] = p->pid;
	res.exit_group_dead[1] = group_dead;
	return 0;
}

/* the macro in a raw_tp program: same parameters, pointers read with CO-RE */
SEC("raw_tp/signal_generate")
int TP_BTF_signal_generate(raw_signal)
{
	__s32 pid = BPF_CORE_READ(task, pid);

	if (pid != cfg.kill_child)
		return 0;
	res.sig[0] = sig;
	res.sig_pid[0] = pid;
	res.sig_group[0] = group;
	return 0;
}

SEC("tp_btf/signal_generate")
int TP_BTF_signal_generate(btf_signal)
{
	if (task->pid != cfg.kill_child)
		return 0;
	res.sig[1] = sig;
	res.sig_pid[1] = task->pid;
	res.sig_group[1] = group;
	return 0;
}
