// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A program on a generated context header (ctx.h): what it reads through the
 * ctx structs and their accessors goes to a ring buffer, for ctx_live.c to
 * print and t_ctx_live.sh to check against what the test caused. Built with
 * vmlinux.h, or with -DNO_VMLINUX_H on the UAPI headers only.
 */
#ifdef NO_VMLINUX_H
#include "ctx.h"
#include <linux/types.h>
#include <linux/bpf.h>
#else
#include "vmlinux.h"
#include "ctx.h"
#endif
#include <bpf/bpf_helpers.h>
#include "ctx_live.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1024 * 1024);
} rb SEC(".maps");

const volatile __s32 targ_tgid;

static __always_inline struct rec *reserve(__u32 type)
{
	struct rec *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);
	__u64 id = bpf_get_current_pid_tgid();

	if (r) {
		__builtin_memset(r, 0, sizeof(*r));
		r->type = type;
		r->tgid = id >> 32;
		r->tid = (__u32)id;
	}
	return r;
}

SEC("tp/sched/sched_process_fork")
int on_fork(struct sched_process_fork_ctx *ctx)
{
	struct rec *r;

	if ((__s32)(bpf_get_current_pid_tgid() >> 32) != targ_tgid)
		return 0;
	r = reserve(REC_FORK);
	if (!r)
		return 0;
	r->pid = ctx->child_pid;
	r->pid2 = ctx->parent_pid;
	sched_process_fork_ctx__read_parent_comm(ctx, r->str, sizeof(r->str));
	sched_process_fork_ctx__read_child_comm(ctx, r->str2, sizeof(r->str2));
	bpf_ringbuf_submit(r, 0);
	return 0;
}

/* not filtered: the child's pid is what is checked; ctx_live.c picks it out */
SEC("tp/sched/sched_process_exec")
int on_exec(struct sched_process_exec_ctx *ctx)
{
	struct rec *r = reserve(REC_EXEC);
	char key[64];

	if (!r)
		return 0;
	r->pid = ctx->pid;
	r->pid2 = ctx->old_pid;
	r->len = sched_process_exec_ctx__len_filename(ctx);
	sched_process_exec_ctx__read_filename(ctx, r->str, sizeof(r->str));
	/* garbage in the buffer, as in a key on the stack: the reader leaves none after the NUL */
	__builtin_memset(key, 0xa5, sizeof(key));
	sched_process_exec_ctx__read_filename(ctx, key, sizeof(key));
	__builtin_memcpy(r->key, key, sizeof(key));
	r->key_size = sizeof(key);
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
	r->pid = ctx->__syscall_nr;
	bpf_ringbuf_submit(r, 0);
	return 0;
}

/* runs in the task switched out: every switch of the test's own threads */
SEC("tp/sched/sched_switch")
int on_switch(struct sched_switch_ctx *ctx)
{
	static const char want[] = "tpgen-named";
	struct rec *r;
	int i, same = 1;
	char key[16];

	if ((__s32)(bpf_get_current_pid_tgid() >> 32) != targ_tgid)
		return 0;
	r = reserve(REC_SWITCH);
	if (!r)
		return 0;
	r->pid = ctx->prev_pid;
	r->pid2 = ctx->prev_state;
	/* the char[16] member itself, byte by byte (single loads from ctx verify) */
	for (i = 0; i < (int)sizeof(want); i++)
		if (ctx->prev_comm[i] != want[i])
			same = 0;
	r->len = same;
	/* and through the header's reader: a copy through ctx + offset would not verify */
	sched_switch_ctx__read_prev_comm(ctx, r->str, sizeof(r->str));
	/* a comm read into a key: one key per comm, whatever the buffer held */
	__builtin_memset(key, 0xa5, sizeof(key));
	sched_switch_ctx__read_prev_comm(ctx, key, sizeof(key));
	__builtin_memcpy(r->key, key, sizeof(key));
	r->key_size = sizeof(key);
	bpf_ringbuf_submit(r, 0);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
