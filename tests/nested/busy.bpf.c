// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Each getppid() of tpgen-getppid runs this tracing program for a few
 * milliseconds with interrupts on: the timer interrupts that come meanwhile
 * fire their tracepoints inside it, where the kernel runs no other tracing
 * program of this CPU (it skips them and counts the misses).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static long spin(__u32 i, void *sum)
{
	*(__u64 *)sum += i;
	return 0;
}

__u64 sum;

SEC("tracepoint/syscalls/sys_enter_getppid")
int busy_getppid(void *ctx)
{
	static const char want[] = "tpgen-getppid";
	char comm[16];
	__u64 s = 0;

	bpf_get_current_comm(comm, sizeof(comm));
	for (int i = 0; i < sizeof(want); i++)
		if (comm[i] != want[i])
			return 0;
	bpf_loop(1 << 20, spin, &s, 0);
	sum += s;
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
