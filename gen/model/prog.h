/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Program pairs: a YAML spec (gen/input/spec.c) resolved against the kernel's
 * events (tracefs) and raw tracepoints (BTF) into the model of one BPF
 * program and its loader (gen/model/prog.c), then printed through the templates
 * (gen/emit/emit_prog.c).
 */
#ifndef __TPGEN_PROG_H
#define __TPGEN_PROG_H

#include <stdbool.h>
#include "lib/limits.h"
#include "model/expr.h"
#include "lib/cstring.h"
#include "model/builtins.h"
#include "model/model.h"
#include "input/rawtp.h"
#include "input/spec.h"
#include "lib/util.h"

enum pvalue_kind {
	PV_INT,			/* integers and enums */
	PV_PTR,			/* a kernel address, printed in hex */
	PV_STR,			/* char array, __data_loc char[], char pointer, comm */
	PV_BYTES,		/* a byte array of the record (__u8 saddr[4]): printed, or a key */
};

enum pvalue_src {
	/* the built-ins, PV_PID, PV_COMM, ...: model/builtins.h */
#define X(id, name, alias, kind, size, sign, flags, c)	PV_##id,
	PV_BUILTINS(X)
#undef X
	PV_NR_BUILTINS,
	PV_CTX = PV_NR_BUILTINS,	/* a format field of the tracepoint record: ctx->x */
	PV_RAW,			/* a raw argument or members read through it */
	PV_USTR,		/* a string in user memory, at a char * of a syscalls/ event */
	PV_SYSARG,		/* raw_tp/tp_btf on a syscalls/ event: an argument in the user registers */
	PV_SAVED,		/* join.member: a value a 'save' kept */
	PV_LET,			/* a 'let' name */
	PV_EXPR,		/* a value computed by an expression */
	PV_UARGV,		/* argv of a syscalls/ event: strings in the caller's memory */
	PV_PARAM,		/* a run-time parameter: the program's const volatile */
};

/* A built-in: its line of model/builtins.h. */
struct builtin {
	const char *name;
	const char *alias;
	enum pvalue_src src;
	enum pvalue_kind kind;
	unsigned int size;
	bool is_signed;
	unsigned int flags;	/* enum builtin_flags */
	const char *c;		/* the BPF C, a format of the stack map or a string's array */
};

extern const struct builtin builtins[PV_NR_BUILTINS];

/* The built-in v reads, or NULL. */
static inline const struct builtin *builtin_of(enum pvalue_src src)
{
	return src < PV_NR_BUILTINS ? &builtins[src] : NULL;
}

/*
 * kstack and ustack are __u64: the stack id bpf_get_stackid() returns in
 * the low 32 bits (negative: no stack), the tgid above it for ustack.
 */
enum pvalue_stack { STACK_NONE, STACK_KERNEL, STACK_USER };

struct expr;

/* A value an event handler reads: a field, a raw argument, a member chain, a built-in. */
struct pvalue {
	char *name;		/* as written: "next_comm", "prev->pid", "COMM" */
	char *cname;		/* the member in records and keys: "next_comm", "prev_pid" */
	enum pvalue_kind kind;
	enum pvalue_src src;
	unsigned int size;	/* PV_INT, PV_BYTES: bytes; PV_STR: the array's size, 0 when dynamic */
	bool is_signed;
	const struct tp_field *field;	/* PV_CTX, PV_USTR; a saved member: the one field it is */
	const struct tp_event *field_ev;	/* a saved member: the event of 'field' */
	char *arg;		/* PV_RAW: the argument, "prev" */
	char *path;		/* PV_RAW: members after it, "pid" or "mm, owner", or NULL */
	char *arg_type;		/* PV_RAW with a path: the argument's type, "struct task_struct *" */
	char *arg_local;	/* PV_RAW with a path: the local holding it, "prev" */
	bool str_ptr;		/* PV_RAW strings: through a char pointer, not in an array */
	bool btf_direct;	/* PV_RAW with a path in tp_btf: read directly (BTF pointers) */
	bool near;		/* PV_RAW with a path: one '->', within a load's reach (32 KiB) */
	bool narrow;		/* PV_CTX: a syscall argument narrower than its 8-byte slot */
	bool is_bool;		/* PV_RAW: a _Bool, read as a __u8 */
	const struct tp_field *fmt_field;	/* PV_RAW: the format field it is (softirq's vec), */
	const struct tp_event *fmt_ev;		/* of this event: its print fmt shows it */
	int sys_arg;		/* PV_SYSARG: the argument's position, 0..5 */
	enum pvalue_stack stack;	/* kstack, ustack, and what saves them */
	const char *stack_map;	/* PV_KSTACK, PV_USTACK: the program's stack map (not owned) */
	bool argv;		/* PV_UARGV and what saves it: tpgen_read_argv()'s layout */
	bool user_str;		/* a saved member read from a syscall's char * (user memory) */
	bool user_mem;		/* PV_RAW from a syscall's pointer: the path is in the caller's memory */
	bool curtask;		/* PV_RAW through the current task (curtask->...), not an argument */
	int join;		/* PV_SAVED: index in the probe's joins */
	char *member;		/* PV_SAVED: the member of the saved values */
	int let;		/* PV_LET: index in the probe's lets */
	const char *param;	/* PV_PARAM: the program's const volatile (not owned) */
	struct expr *expr;	/* PV_EXPR */
};

/* A member of a record, a key or saved values: a value under a name. */
struct pitem {
	char *label;		/* the column: the label, or the value as written */
	char *cname;		/* the C member */
	char *name;		/* heading and JSON key: the label as written, else cname */
	int val;		/* index into the probe's vals */
	const struct decode *dec;	/* how it is shown (gen/model/decode.h), NULL: as a number */
	int frames;		/* kstack(N), ustack(N): at most N frames shown; 0: all */
	char **skip;		/* kcaller(GLOB, ...): the first kernel frame of none of these functions */
	int nr_skip;
	bool caller;		/* kcaller: the stack shown as one frame, a column */
	bool hidden;		/* usym(x)'s process, the member after it: not a column of its own */
};

struct pitems {
	struct pitem *v;
	int nr;
};

/* Values saved under one name, for every 'save' and 'join' of it (one BPF map). */
struct psaved {
	char *name;		/* as written */
	char *map;		/* the map */
	char *local;		/* a join's pointer to the values */
	char *key_struct;
	char *val_struct;
	struct pvalue *keys;	/* the types of the key's members (name is the member) */
	int nr_keys;
	struct pvalue *members;	/* the saved values' members */
	int nr_members;
	const struct spec_save *first;
	bool joined;
	bool per_cpu;		/* keyed by the current CPU only: one per-CPU slot, no hash */
	/*
	 * Keyed by a task's pid only, with the task at hand at every save and
	 * join (tp_btf's task arguments, the current task): the task's slot of
	 * a task storage map, no hash, freed with the task.
	 */
	bool per_task;
	bool refetch;		/* user strings keep their pointer, read again at the join if empty */
	char *absent_map;	/* an optional join's values when nothing was saved (per CPU), or NULL */
	long long entries;	/* keys the map holds: the largest a save asks, 0: MAP_ENTRIES */
};

struct psave {
	int set;
	struct pitems key;
	struct pitems values;
	bool if_absent;		/* the first value stays: saved only where nothing is (BPF_NOEXIST) */
};

struct pjoin {
	int set;
	struct pitems key;
	char *local;		/* the pointer to the saved values */
	bool del;		/* this probe deletes them when done */
	bool optional;		/* nothing saved: the values of absent_map, zeroed, then 'defaults' */
	struct pitems defaults;	/* members (cname) of the saved values, and what they are when absent */
};

struct plet {
	char *name;
	char *local;
	struct expr *expr;
	struct pvalue type;	/* kind, size, sign */
};

/*
 * A named column of a table (struct spec_col): a count (of a condition), a
 * sum, a value kept with max (max_at), each a member of the map's value;
 * or a function's own column under a name (fn); or derived from the row
 * by the loader.
 */
enum pcol_kind { PCOL_COUNT, PCOL_SUM, PCOL_AT, PCOL_DERIVED };

struct pcol {
	const struct spec_col *sc;
	const char *name;	/* the JSON key as written; upper case, the heading */
	char *cname;		/* its member of the map's value; NULL: a function's (fn) or derived */
	enum pcol_kind kind;
	unsigned int fn;	/* AGG_*: this is that function's own column, named; 0: a column of its own */
	unsigned int after;	/* AGG_*: shown after that function's column */
	int val;		/* a count's condition (-1: none), a sum's or max_at's value: an index into vals */
	bool is_signed;
	/* derived: the loader's function, and the expression; EX_REF's ref: a column's index, or -1 - AGG_ bit */
	char *derive_fn;
	struct expr *expr;
};

/* An aggregation: one BPF map, printed as a table or histograms. */
struct pagg {
	const struct spec_agg *sa;
	char *map;
	char *key_struct;	/* NULL: no key (a hash map of one key, or a global) */
	char *val_struct;
	char *title;
	struct pitems keys;
	int val[AGG_NR_FNS];		/* each function's value: an index into vals, or -1 */
	int hist;			/* the value of hist or lhist, or -1 */
	unsigned int fns;		/* enum agg_fn, with the functions they need (avg: sum, count) */
	unsigned int nslots;		/* histograms */
	long long lmin, lstep;		/* linear histograms */
	const char *unit;
	unsigned int sort;		/* the function rows are sorted by (its AGG_ bit), 0: the key */
	int top;			/* rows printed, 0: all */
	unsigned int is_signed;		/* the functions whose value is signed (AGG_ bits) */
	const char *json;		/* the JSON record's key: "agg", "hist" or "counts" */
	const char *json_name;		/* its name: the title (the event, for 'count:') */
	/*
	 * No key, and every event adds to a count or a slot (no min or max to
	 * start): a global of the program (.bss), added to with atomics as
	 * libbpf-tools' runqlat keeps its histogram, no map to look up. The
	 * loader reads it through the skeleton; all zeros is no row.
	 */
	bool global;
	/*
	 * One key, a number whose values the kernel names (softirq's vec, a
	 * syscall): the rows of its values 0 to rows - 1 are an array, a
	 * global of the program indexed by the key, as libbpf-tools' softirqs
	 * keeps its counts; other values are in the map. Under the same
	 * conditions as 'global' (no min or max to start). 0: the map alone.
	 */
	unsigned int rows;
	char *rows_ident;	/* the array */
	bool rows_signed;	/* the key is signed: its negative values are the map's */
	/*
	 * A table of an earlier aggregate of the same name, which it adds to
	 * (or subtracts from): its map, structs and loader entry are that
	 * one's, declared and printed once.
	 */
	bool feeder;
	bool subtract;		/* this entry takes away: count -1, sum -v */
	bool running;		/* some entry subtracts: rows are a state, never reset; zero rows hidden */
	bool added;		/* some entry adds (the table's first only) */
	struct pcol *cols;	/* named and derived columns */
	int nr_cols;
	int sort_col;		/* rows sorted by this column + 1 (not a function's own), 0: by 'sort' */
	bool stack_labels;	/* --metrics: its stacks are labels (metrics: { stacks: folded }) */
};

/* One entry of the spec (or one end of a latency pair) on one tracepoint. */
struct pprobe {
	const struct spec_probe *sp;
	const char *event;	/* the event as written: "sched/sched_switch" */
	const char *filter_text;	/* the filter as written, or NULL */
	enum attach_kind attach;
	struct tp_event *ev;	/* tracepoint programs */
	struct raw_tp *raw;	/* raw_tp and tp_btf programs */
	const struct tp_event *sys_ev;	/* raw_tp/tp_btf on syscalls/sys_{enter,exit}_X: its format */
	int sys_nr;		/* ... and X's number on the target: the entry tests it */
	bool sys_exit;		/* ... sys_exit_X */
	char *pname;		/* C prefix of everything this probe owns: "sched_switch" */
	char *handler;		/* the program: "handle_sched_switch" (shared by probes of one tracepoint) */
	char *func;		/* the entry's function in the program: "sched_switch" */
	char *type_enum;	/* "SCHEDSNOOP_SCHED_SWITCH" (print only) */
	char *rec_struct;	/* "sched_switch_event" (print only) */
	char *lit_prefix;	/* string literals of expressions */
	struct expr *filter;
	struct expr_lits lits;
	struct pvalue *vals;	/* every value used, once each (computed ones per use) */
	int nr_vals;
	struct plet *lets;
	int nr_lets;
	struct pjoin *joins;
	int nr_joins;
	struct psave *saves;
	int nr_saves;
	struct pitems print;
	struct pagg *aggs;
	int nr_aggs;
	bool task_filter;	/* -p/-c apply: not an end of a latency pair, nor an entry ending a save */
	bool first_of_program;	/* the first probe of its program: emits the SEC() */
	bool uses_ctx;
	bool uses_time;		/* reads 'time': the program's one bpf_ktime_get_ns() of the event */
	bool uses_kstack;	/* kstack, kstack(N), kcaller: the entry's one bpf_get_stackid() */
	bool uses_ustack;	/* ustack, ustack(N): the same, of the user stack */
	/* gen/model/stack.c: bytes of the filter's strings and keys kept in per-CPU scratch (0: on the stack) */
	unsigned int scratch_size;
	int scratch_slot;	/* the program's slot of tpgen_scratch, or -1 */
};

/*
 * A run-time parameter (the spec's params:): a const volatile of the BPF
 * program (.rodata), set by the loader before the load from its option, its
 * place on the command line, or its default.
 */
struct pparam {
	const char *name;	/* as written: expressions use it */
	char *ident;		/* the BPF global and the loader's member */
	const char *ctype;	/* "__u64", "bool" */
	bool is_bool;		/* a switch: an option without a value */
	bool is_signed;
	unsigned int size;
	unsigned long long def;	/* the default, in the type's bits */
	long long smin, smax;	/* the range the loader accepts: signed types */
	unsigned long long umin, umax;	/* ... unsigned ones */
	char short_opt;		/* -X, or 0 */
	int key;		/* argp's key: the letter, or 0x100 + index */
	const char *long_name;	/* --NAME */
	char *arg;		/* the value's name in --help: "MIN_US" */
	const char *help;	/* or NULL */
	int positional;		/* the Nth argument, or 0 */
};

struct nametab;
struct plat;
struct sysnames;
struct decodes;

struct prog {
	struct spec *spec;
	const char *tool;	/* the spec's tool: every file and symbol of the pair derives from it */
	const char *description;	/* what the tool does, or NULL */
	struct tp_events *evs;	/* tracefs */
	struct raw_tps *raws;	/* BTF (loaded when a probe needs it) */
	const struct btf *btf;
	struct pprobe *probes;
	int nr_probes;
	struct psaved *sets;
	int nr_sets;
	struct plat *lats;	/* latency pairs, as the save, join and aggregate they are (gen/model/latency.c) */
	int nr_lats;
	struct nametab *names;	/* every global identifier of the generated C */
	bool *ctx_sel;		/* events needing a ctx struct */
	bool *raw_sel;		/* raw tracepoints needing an args struct */
	bool any_ctx, any_raw, any_print, any_agg, any_hist, any_lhist, any_table, any_core;
	bool any_str_print;
	bool any_global_agg;	/* an aggregation kept in a global (struct pagg's global) */
	bool any_running_agg;	/* a table an entry subtracts from (struct pagg's running) */
	bool any_cols;		/* a table with named or derived columns (struct pagg's cols) */
	bool any_derived;	/* ... derived ones */
	unsigned int scratch_size;	/* the largest scratch an entry needs */
	int nr_scratch;			/* programs with a slot of tpgen_scratch */
	bool any_sysregs;	/* syscall arguments read from registers (bpf_tracing.h) */
	const struct sysnames *sysnames; /* the target's syscall table, for syscall entries on raw tracepoints */
	const char *sysnames_why;	/* why it is not known, when NULL */
	bool any_names;		/* a column is shown by name: the loader links tpgen_names.c */
	const char *kernel_dir;	/* --kernel DIR: its syscalls table */
	bool live;		/* the running kernel's inputs: its syscall table can be read */
	struct decodes *decodes;	/* how columns are shown (gen/model/decode.c) */
	bool any_stack;		/* kstack/ustack: a stack map, symbolized by the loader */
	bool any_ksym;		/* ksym(), usym(), %pS: addresses the loader names (tpgen_syms) */
	bool any_caller;	/* kcaller: the loader picks a frame of a kernel stack */
	char *stack_map;
	bool any_argv;		/* argv-style arrays: the loader prints them as a shell would read them */
	bool any_start;		/* a built-in reads tpgen_start_ns, the loader's start (elapsed) */
	struct pparam *params;	/* the spec's params, in its order */
	int nr_params;
	int nr_positional;	/* params with a place on the command line */
	bool pid_opt, comm_opt;	/* the loader's -p, --pid and -c, --comm (no param took them) */
	char *banner;
	char *banner_ctx;	/* for the ctx/raw headers: includes the kernel */
};

/* gen/model/params.c: the spec's params named and checked against the built-ins (errors reported) */
int prog_resolve_params(struct prog *p);
/* The param 'name', or NULL. */
const struct pparam *prog_find_param(const struct prog *p, const char *name);
void prog_params_clear(struct prog *p);

/*
 * A saved string from the caller's memory that the join reads again when the
 * entry could not (the page was absent): what the call used may differ, so
 * records carry whether it was read late (tpgen_late_<member>).
 */
bool pvalue_may_be_late(const struct prog *p, const struct pprobe *pr, const struct pvalue *v);

/* gen/model/stack.c: what goes in per-CPU scratch instead of the 512-byte stack (refusals reported) */
int prog_plan_stack(struct prog *p);
/*
 * The strings (not saved ones) an entry's lets and computed values compare
 * ('==', '!=', '~'): read onto the stack before the lets. Appended to refs.
 */
void prog_value_strs(const struct pprobe *pr, int **refs, int *nr);
/*
 * A save whose values are a few numbers builds them on the stack and stores
 * them with one map update (when its entry's keys are not in scratch).
 */
bool prog_save_on_stack(const struct psaved *set);

/* A string in the caller's memory: a syscall's char * argument (not an argv array). */
static inline bool pvalue_user_str(const struct pvalue *v)
{
	return v->kind == PV_STR && !v->argv && (v->src == PV_USTR || v->src == PV_SYSARG);
}
/*
 * Sets saved and joined under the current CPU alone ('key: cpu', as an
 * interrupt's entry and exit) keep their values in a per-CPU array slot, as
 * libbpf-tools do: no hashing, nothing to allocate or delete, never full.
 * The slot's tpgen_saved says whether something is saved.
 */
void prog_plan_sets(struct prog *p);
const char *key_task(const struct pprobe *pr, const struct pitems *key);

/* A set kept in a slot (per CPU, per task), found and ended by its tpgen_saved, not a hash map. */
static inline bool psaved_is_slot(const struct psaved *set)
{
	return set->per_cpu || set->per_task;
}
/* gen/model/prog.c: resolve the spec's entries and latency pairs into probes of p. */
int prog_resolve(struct prog *p);
/*
 * gen/model/latency.c: each latency pair's ends (probes 'from' and 'from' + 1 after
 * the entries') given the save, join and aggregate the pair stands for.
 */
int prog_lower_latency(struct prog *p);
void prog_lats_clear(struct prog *p);
void prog_clear(struct prog *p);
/* A global identifier of the generated C, unique in the program, from 'base'. */
char *prog_ident(struct prog *p, const char *base);
void nametab_free(struct nametab *t);

/* gen/model/actions.c: what an entry does, added to its probe (errors reported, -EINVAL) */
struct resolver;
int probe_add_join(struct resolver *r, const struct spec_join *sj);
/* The index of the values saved as 'name', or -1. */
int prog_find_set(const struct prog *p, const char *name);
int probe_add_let(struct resolver *r, const struct spec_let *sl);
int probe_add_save(struct resolver *r, const struct spec_save *ss);
int probe_add_agg(struct resolver *r, const struct spec_agg *sa);
/* Every table some entry subtracts from has an entry adding to it (errors reported). */
int prog_check_tables(const struct prog *p);
/* ... its map and structs named from 'name' (NULL: from the title, or the entry) */
int probe_add_agg_as(struct resolver *r, const struct spec_agg *sa, const char *name);
int probe_add_items(struct resolver *r, const struct spec_items *l, struct pitems *out, bool str_ok);
int probe_expr(struct resolver *r, const struct spec_str *src, bool cond, struct expr **out);
void pitems_clear(struct pitems *l);

/* gen/model/values.c: the values of one probe */
struct resolver {
	struct prog *p;
	struct pprobe *pr;
	const struct spec_str *src;	/* the scalar naming the value */
	const char *what;		/* "filter", "print", ... */
	bool bytes_ok;			/* a byte array may be named: a print item or a key */
	bool want_bytes;		/* ipv4()/ipv6(): a member's u8[N] is bytes, not a string */
};

/* The value 'name' of the probe (added once), its index, -ENOENT, or -EINVAL (reported). */
int value_find(struct resolver *r, const char *name, size_t off);
/* Add a computed value (expression) to the probe; its index. */
int value_add_expr(struct pprobe *pr, struct expr *e, const char *name);
/* The expression resolver of gen/model/expr.c over value_find(). */
int value_expr_resolve(void *ctx, const char *name, size_t off, struct expr_type *t, bool report);
void pvalue_clear(struct pvalue *v);
int unknown_field(struct resolver *r, const char *name, size_t off);

#endif /* __TPGEN_PROG_H */
