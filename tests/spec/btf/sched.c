// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel's BTF of the records in tests/spec/events/sched, for the spec
 * golden test: compiled with 'clang -g -target bpf -c', the object's .BTF is
 * what tpgen reads (--btf). sched_switch and sched_process_exec are described,
 * as the kernel describes them; sched_wakeup is not (its class,
 * sched_wakeup_template, is found through __probestub_ functions, left out
 * here), so the golden pair has both CO-RE reads and a start-up check.
 */
typedef int pid_t;
typedef unsigned int u32;

struct trace_entry {
	unsigned short type;
	unsigned char flags;
	unsigned char preempt_count;
	int pid;
};

struct trace_event_raw_sched_switch {
	struct trace_entry ent;
	char prev_comm[16];
	pid_t prev_pid;
	int prev_prio;
	long prev_state;
	char next_comm[16];
	pid_t next_pid;
	int next_prio;
	char __data[0];
};

struct trace_event_raw_sched_process_exec {
	struct trace_entry ent;
	u32 __data_loc_filename;
	pid_t pid;
	pid_t old_pid;
	char __data[0];
};

struct trace_event_raw_sched_switch sched_switch_record;
struct trace_event_raw_sched_process_exec sched_process_exec_record;
