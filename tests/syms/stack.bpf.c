// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Kernel and user stacks of one thread as it switches out (tests/t_syms.sh). */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define MAX_DEPTH 127

struct stack_key {
	__s32 kstack;
	__s32 ustack;
};

const volatile __s32 target_tid = 0;

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__uint(value_size, MAX_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, struct stack_key);
	__type(value, __u64);
} counts SEC(".maps");

SEC("tp/sched/sched_switch")
int on_switch(struct trace_event_raw_sched_switch *ctx)
{
	struct stack_key key;
	__u64 one = 1, *n;

	if (ctx->prev_pid != target_tid)
		return 0;
	key.kstack = bpf_get_stackid(ctx, &stacks, 0);
	key.ustack = bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	n = bpf_map_lookup_elem(&counts, &key);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
