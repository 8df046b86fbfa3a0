/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* {{BANNER}} */
/* {{TOOL}}: the records {{TOOL}}.bpf.c sends to {{TOOL}}.c, and the keys of its maps */
#ifndef {{GUARD}}
#define {{GUARD}}

#ifndef TASK_COMM_LEN
#define TASK_COMM_LEN 16
#endif
{{#if RINGBUF}}

enum {{TOOL}}_event_type {
	{{EVENT_TYPES}}
};

/* first in every record: what follows, and when */
struct event_hdr {
	__u32 type;	/* enum {{TOOL}}_event_type */
	__u64 ts_ns;	/* bpf_ktime_get_ns() */
};
{{/if}}
{{RECORDS}}

#endif /* {{GUARD}} */
