/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * tpgen's model: tracepoint events as read from tracefs format files, each
 * field classified once into the C type tpgen emits for it. Readers fill it,
 * emitters only walk it.
 */
#ifndef __TPGEN_MODEL_H
#define __TPGEN_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/util.h"

enum field_kind {
	FIELD_SCALAR,		/* int x; u64 y; pid_t z; enum e; bool b */
	FIELD_POINTER,		/* struct task_struct *p; const char *const *argv */
	FIELD_ARRAY,		/* char comm[16]; u8 mac[6]; char comm[TASK_COMM_LEN] */
	FIELD_FLEX,		/* char buf[]; unsigned long args[]  (size 0, trailing) */
	FIELD_DATA_LOC,		/* __data_loc char[] name: u32, offset | len << 16 from record start */
	FIELD_REL_LOC,		/* __rel_loc char[] name: u32, offset | len << 16 from end of field */
	FIELD_BLOB,		/* a by-value type of an odd size, emitted as bytes */
};

struct tp_field {
	char *decl;		/* the whole declaration as in the format file: "char prev_comm[16]" */
	char *type;		/* kernel type spelling: "char", "pid_t", "__data_loc char[]", "struct x * *" */
	char *name;		/* "prev_comm" */
	char *cname;		/* the member's name in C: name, or "default_" for a C keyword */
	char *array;		/* array size text as written ("16", "TASK_COMM_LEN"), or NULL */
	enum field_kind kind;
	unsigned int offset;
	unsigned int size;
	bool is_signed;
	bool common;		/* common_type, common_flags, ... */
	/*
	 * The C type tpgen emits: 'ctype' before the name and 'suffix' after
	 * ("__u8", "[16]"). For __data_loc/__rel_loc, ctype is __u32 and
	 * elem_ctype/elem_size describe the dynamic array's elements.
	 */
	char *ctype;
	char *suffix;
	char *fwd;		/* struct/union to forward-declare for a pointer, "struct task_struct" */
	unsigned int elem_size;	/* arrays, flex and dynamic arrays */
	char *elem_ctype;
	bool is_string;		/* char arrays, __data_loc char[] */
	bool core_static;	/* --core: no member (of its type) in the BTF class struct, fixed offset */
	bool core_enum;		/* --core: an enum in BTF, declared as an anonymous enum of its size */
	bool core_ptr;		/* --core: a pointer in BTF (a typedef's), declared as void * */
	int core_sys_arg;	/* --core, syscalls/: args[i] of struct syscall_trace_enter, or SYS_* */
	int line;		/* line in the format file, for diagnostics */
};

/* --core: syscalls/ records as the kernel's struct syscall_trace_enter and _exit */
enum core_sys {
	CORE_SYS_NONE,
	CORE_SYS_ENTER,		/* ent; int nr; unsigned long args[] */
	CORE_SYS_EXIT,		/* ent; int nr; long ret */
};

/* tp_field.core_sys_arg of a field that is not args[i] */
#define CORE_SYS_NR	(-1)	/* __syscall_nr: nr */
#define CORE_SYS_RET	(-2)	/* ret: ret */
#define FIELD_CORE_ENUM	1	/* core.c: a member libbpf matches through an anonymous enum */
#define FIELD_CORE_PTR	2	/* core.c: an integer in the format file, a pointer in BTF */

struct tp_event {
	char *sys;		/* "sched" */
	char *name;		/* "sched_switch" */
	int id;			/* -1 when the event has no id */
	char *path;		/* format file, for diagnostics */
	struct tp_field *fields;
	int nr_fields;
	char *struct_name;	/* "sched_switch_ctx" or "sched__sched_switch_ctx" */
	const char *rename_reason; /* why struct_name is the long form, or NULL */
	unsigned int size;	/* size of the fixed part of the record, aligned */
	unsigned int align;	/* alignment of the record */
	bool packed;		/* a field sits off its natural alignment */
	unsigned long long hash; /* FNV-1a of the format file text */
	char *print_fmt;	/* "print fmt: ..." to the end of the file, as first read, or NULL */
	int print_fmt_line;	/* its line in the format file */
	bool loaded;		/* its format file was read (tracefs_read()) */
	char *core_class;	/* --core: "sched_switch" of struct trace_event_raw_sched_switch */
	const char *core_why;	/* --core: why there is no class (static layout), or NULL */
	enum core_sys core_sys;	/* --core: a syscalls/ record read through syscall_trace_enter/exit */
	struct arena strs;	/* what sys, name, path, print_fmt and the fields' strings point into */
};

/*
 * Every <sys>/<event> directory with a format file, sorted; only the ones a
 * command needs are read (loaded), so an unrelated bad format file does not
 * matter. Names are checked when an event is read (ident.h): a loaded event
 * has a tracefs name, fields named as C identifiers, and type text without
 * quotes, backslashes or comment markers.
 */
struct tp_events {
	struct tp_event *ev;	/* sorted by (sys, name) */
	int nr;
	char *root;		/* the events directory read */
};

struct btf;
struct strbuf;

/* gen/input/tracefs.c */
int tracefs_parse_format(const char *path, const char *text, const char *sys,
			 const char *name, struct tp_event *ev);
/* A format file is text: no NUL, no control byte before its print format (located error). */
int tracefs_check_text(const char *path, const char *text, size_t len);
/* The live events directory; reports a failure (-EACCES: environment). */
int tracefs_default_dir(char **dir);
/* List every event under dir; reads nothing yet. */
int tracefs_open(struct tp_events *evs, const char *dir);
/* Read the events want[i] (all with want NULL) not read yet; errors in event order. */
int tracefs_read(struct tp_events *evs, const bool *want);
/* tracefs_open() and tracefs_read() of everything. */
int tracefs_load(struct tp_events *evs, const char *dir);
void tp_event_clear(struct tp_event *ev);
void tp_events_clear(struct tp_events *evs);
struct tp_event *tp_events_find(struct tp_events *evs, const char *sys, const char *name);

/* gen/input/select.c: patterns such as sched/<glob>, sched:sched_switch, <glob> */
bool tp_pattern_match(const char *pattern, const char *sys, const char *name);
int tp_events_select(struct tp_events *evs, char **patterns, int nr, bool **selected);

/* gen/model/names.c: struct names, given the kernel's BTF (may be NULL) */
void tp_events_name(struct tp_events *evs, const bool *selected, const struct btf *btf);

/*
 * gen/model/core.c: for each selected event, the trace_event_raw_<class> struct in
 * BTF that describes its record (by name, else through the __bpf_trace_<class>
 * function whose prototype is the event's), and which fields it lacks.
 * Returns the number of events without a class (core_why says why); warns
 * for each field kept static when asked to.
 */
int tp_events_core(struct tp_events *evs, const bool *selected, const struct btf *btf, bool warn);
/*
 * What tpgen SPEC reads with CO-RE: a syscalls/ record, or a class struct
 * with every field of the event; the rest keep the static layout.
 */
bool tp_event_core(const struct tp_event *ev);
/* gen/cmd/core_stats.c: tpgen list --core-stats, events per system by how they are read */
void core_stats(struct strbuf *sb, struct tp_events *evs, const bool *sel, const struct btf *btf, bool json);

/*
 * gen/model/core_sys.c: a syscalls/ event read through the kernel's struct
 * syscall_trace_enter/exit (sets core_sys and core_sys_arg), or why not.
 */
bool core_sys_match(const struct btf *btf, struct tp_event *ev, const char **why);
/* Where a core_sys record has nr and args[] (ret): false when no struct can say it. */
bool core_sys_layout(const struct tp_event *ev, unsigned int *nr_off, unsigned int *args_off);
/* A syscall argument's declared width and sign ("pid_t": 4, signed), if tpgen knows the type. */
bool sys_arg_type(const struct tp_field *f, unsigned int *size, bool *is_signed);
/* The C type a syscall argument is read as: "__s32" for int, else the field's ctype. */
const char *sys_arg_ctype(const struct tp_field *f);

#endif /* __TPGEN_MODEL_H */
