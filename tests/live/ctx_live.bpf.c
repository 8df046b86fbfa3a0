// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A program on generated context headers: what it reads goes to a ring
 * buffer for ctx_live.c to check against what it caused.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "ctx.h"
#include "ctx_live.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} rb SEC(".maps");

const volatile __s32 targ_tgid;

static __always_inline struct rec *reserve(__u32 type)
{
	struct rec *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);

	if (r) {
		__builtin_memset(r, 0, sizeof(*r));
		r->type = type;
		r->tgid = bpf_get_current_pid_tgid() >> 32;
		r->tid = (__u32)bpf_get_current_pid_tgid();
	}
	return r;
}

SEC("tp/sched/sched_process_fork")
int on_fork(struct sched_process_fork_ctx *ctx)
{
	struct rec *r;

	if (ctx->parent_pid != targ_tgid)
		return 0;
	r = reserve(REC_FORK);
	if (!r)
		return 0;
	r->a = ctx->parent_pid;
	r->b = ctx->child_pid;
	bpf_ringbuf_submit(r, 0);
	return 0;
}

SEC("tp/sched/sched_process_exec")
int on_exec(struct sched_process_exec_ctx *ctx)
{
	struct rec *r = reserve(REC_EXEC);

	if (!r)
		return 0;
	r->a = ctx->pid;
	r->b = ctx->old_pid;
	r->c = sched_process_exec_ctx__filename_len(ctx);
	sched_process_exec_ctx__read_filename(ctx, r->str, sizeof(r->str));
	bpf_ringbuf_submit(r, 0);
	return 0;
}

SEC("tp/syscalls/sys_enter_getppid")
int on_getppid(struct sys_enter_getppid_ctx *ctx)
{
	struct rec *r;

	if ((__s32)(bpf_get_current_pid_tgid() >> 32) != targ_tgid)
		return 0;
	r = reserve(REC_GETPPID);
	if (!r)
		return 0;
	r->a = ctx->__syscall_nr;
	bpf_ringbuf_submit(r, 0);
	return 0;
}

SEC("tp/sched/sched_switch")
int on_switch(struct sched_switch_ctx *ctx)
{
	static const char want[] = "tpgen-named";
	struct rec *r;
	int i;

	for (i = 0; i < (int)sizeof(want) - 1; i++)
		if (ctx->prev_comm[i] != want[i])
			return 0;
	r = reserve(REC_SWITCH);
	if (!r)
		return 0;
	r->a = ctx->prev_pid;
	r->b = ctx->prev_state;
	/* the array through the header's reader: a copy through ctx + offset fails to verify */
	sched_switch_ctx__read_prev_comm(ctx, r->str, sizeof(r->str));
	bpf_ringbuf_submit(r, 0);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
