// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Hand-written reference for bench/: write(2) calls whose count is 1234 go
 * into a log2 histogram of count -- seed 004's filter -- once per attach type.
 * The loader keeps exactly one of the three programs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#define MAX_SLOTS	32
#define NR_write	1	/* x86_64 */

const volatile __u64 targ_count = 1234;

__u64 hist[MAX_SLOTS];

static __always_inline __u32 log2l(__u64 v)
{
	__u32 r = 0;

	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	return r + (v >> 1);
}

static __always_inline int record(__u64 count)
{
	__u32 slot;

	if (count != targ_count)
		return 0;
	slot = log2l(count);
	if (slot >= MAX_SLOTS)
		slot = MAX_SLOTS - 1;
	__sync_fetch_and_add(&hist[slot], 1);
	return 0;
}

SEC("tp/syscalls/sys_enter_write")
int tp_write(struct trace_event_raw_sys_enter *ctx)
{
	return record(ctx->args[2]);
}

SEC("raw_tp/sys_enter")
int BPF_PROG(raw_tp_write, struct pt_regs *regs, long id)
{
	if (id != NR_write)
		return 0;
	return record(PT_REGS_PARM3_CORE(regs));
}

SEC("tp_btf/sys_enter")
int BPF_PROG(tp_btf_write, struct pt_regs *regs, long id)
{
	if (id != NR_write)
		return 0;
	return record(PT_REGS_PARM3(regs));
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
