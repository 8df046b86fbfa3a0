// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Reads prev_pid/prev_prio of a named thread switching out, through a generated header. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include HDR

struct result {
	__s32 pid;
	__s32 prio;
	__u32 hits;
} result;

SEC("tp/sched/sched_switch")
int on_switch(struct sched_switch_ctx *ctx)
{
	static const char want[] = "tpgen-core";
	char comm[16];
	int i;

	/* arrays of a CO-RE ctx are copied with a helper: the verifier rejects loads through ctx + off */
	bpf_probe_read_kernel(comm, sizeof(comm), ctx->prev_comm);
	for (i = 0; i < (int)sizeof(want) - 1; i++)
		if (comm[i] != want[i])
			return 0;
	result.pid = ctx->prev_pid;
	result.prio = ctx->prev_prio;
	__sync_fetch_and_add(&result.hits, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
