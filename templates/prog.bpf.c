// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* {{BANNER}} */
/* {{TOOL}}: {{DESCRIPTION}} */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
{{#if CORE_READ}}
#include <bpf/bpf_core_read.h>
{{/if}}
{{#if SYSCALL_REGS}}
#include <bpf/bpf_tracing.h>
{{/if}}
{{#if CTX_H}}
#include "{{TOOL}}.ctx.h"
{{/if}}
{{#if RAW_H}}
#include "{{TOOL}}.raw.h"
{{/if}}
{{#if GLOB}}
/* tpgen_glob(): '~' with a pattern that is more than a prefix */
#define TPGEN_GLOB
{{/if}}
{{#if GLOB_TAIL}}
/* tpgen_glob_tail(): '~' with "*suffix" on a string that may be longer than its buffer */
#define TPGEN_GLOB_TAIL
{{/if}}
#include "tpgen.h"
#include "{{TOOL}}.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* set by the loader: -p PID, -c COMM (0 and "": every task) */
const volatile pid_t targ_tgid = 0;
const volatile char targ_comm[TASK_COMM_LEN] = {};
{{#if PARAMS}}

/* set by the loader: the tool's parameters (the spec's params:), their defaults until then */
{{PARAM_GLOBALS}}
{{/if}}
{{#if ANY_HIST}}

/* set by the loader with --metrics: histograms keep their values' sum too */
const volatile bool tpgen_metrics = false;
{{/if}}
{{#if START}}

/* set by the loader: when it started (CLOCK_MONOTONIC, as bpf_ktime_get_ns()), for elapsed */
const volatile __u64 tpgen_start_ns = 0;
{{/if}}
{{#if RINGBUF}}

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} events SEC(".maps");

/* records the ring buffer had no room for; the loader reports them */
__u64 ringbuf_drops = 0;
{{/if}}
{{#if LOST}}

/* updates a full map had no room for; the loader reports them */
__u64 tpgen_lost = 0;
{{/if}}
{{#if STACKS}}

/* stacks the stack map could not keep (another in their bucket); the loader reports them */
__u64 tpgen_stacks_lost = 0;
{{/if}}
{{MAPS}}
{{HANDLERS}}
