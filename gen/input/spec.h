/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * YAML specs (libyaml): what a generated program traces and what it does
 * with each event. Every value keeps where it was written, so that later
 * stages (filter checks, field lookups) report errors at the spec's line
 * and column.
 */
#ifndef __TPGEN_SPEC_H
#define __TPGEN_SPEC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include "model/aggfns.h"

enum spec_style {
	SPEC_PLAIN,
	SPEC_SINGLE,		/* 'text', '' is a quote */
	SPEC_DOUBLE,		/* "text", backslash escapes */
	SPEC_BLOCK,		/* | or >: columns are not mapped */
};

/* Where a node starts in the spec: 1-based line and column, byte offset. */
struct spec_loc {
	int line;
	int col;
	size_t index;
	enum spec_style style;
};

struct spec_str {
	char *s;		/* NULL when not given */
	struct spec_loc loc;
};

struct spec_list {
	struct spec_str *v;
	int nr;
	struct spec_loc loc;
};

enum attach_kind {
	ATTACH_UNSET,
	ATTACH_TRACEPOINT,	/* SEC("tp/<sys>/<event>"), the record's format fields */
	ATTACH_RAW_TP,		/* SEC("raw_tp/<tp>"), the raw arguments */
	ATTACH_TP_BTF,		/* SEC("tp_btf/<tp>"), the raw arguments, BTF-typed */
};

/* A value of 'print', 'count', 'by', 'key' or 'values': "expr" or "label: expr". */
struct spec_item {
	struct spec_str label;	/* .s NULL when not given */
	struct spec_str expr;
};

struct spec_items {
	struct spec_item *v;
	int nr;
	struct spec_loc loc;
};

/* let: { name: expr, ... }: a named value for what follows */
struct spec_let {
	struct spec_str name;
	struct spec_str expr;
};

/* save: values kept per key for a later event ('join' reads them) */
struct spec_save {
	struct spec_str name;
	struct spec_items key;	/* default: tid */
	struct spec_items values;
	bool if_absent;		/* keep what is there: only a key with nothing saved is saved (BPF_NOEXIST) */
	long long entries;	/* keys the map holds, 0: MAP_ENTRIES */
	struct spec_loc loc;
};

/*
 * join: the values saved under 'name' for 'key'; the event is skipped
 * without them, unless the join is optional: then its values are their
 * defaults (0 and "" unless 'default' gives them).
 */
struct spec_join {
	struct spec_str name;
	struct spec_items key;	/* default: tid */
	bool keep;		/* do not delete them (default: the last join on the event deletes) */
	bool optional;		/* nothing saved: go on with the defaults */
	struct spec_items defaults;	/* optional: 'member: value' of what was not saved */
	struct spec_loc loc;
	struct spec_loc optional_loc;
};

/*
 * A named column of a table: 'count:', 'sum:' and 'max_at:' given as a
 * mapping of names to values, and 'derive:', computed from the row.
 */
enum spec_col_kind {
	SPEC_COL_COUNT,		/* val: its condition, or none (true) */
	SPEC_COL_SUM,
	SPEC_COL_AT,		/* a value of the event that set max */
	SPEC_COL_DERIVED,	/* val: of the row's columns, computed by the loader */
};

struct spec_col {
	struct spec_str name;
	struct spec_str val;
	enum spec_col_kind kind;
	int decimals;		/* derived: digits after the point */
	bool percent;		/* derived: shown with a '%' */
};

/* aggregate: a table or a histogram per key, kept in the kernel */
struct spec_agg {
	struct spec_str name;	/* the title; default from the event and the functions */
	struct spec_items by;	/* the key; none: one row */
	unsigned int fns;	/* enum agg_fn */
	struct spec_str val[AGG_NR_FNS];	/* each function's value (count: none; lhist: its 'value') */
	long long lmin, lmax, lstep;
	struct spec_str unit;	/* histograms: what the value counts */
	struct spec_str sort;	/* a function of a column, or key (default: the first function) */
	int top;		/* 0: every row */
	bool subtract;		/* take away what an entry of the same table added (count -1, sum -v) */
	struct spec_col *cols;	/* named columns, in the order written */
	int nr_cols;
	struct spec_str stacks;	/* metrics: { stacks: folded }: its stacks as labels; NULL: none */
	struct spec_loc loc;
	bool legacy;		/* from 'count:' or 'hist:' */
};

/* One use of an event: an entry of 'events:' or an end of a 'latency:' pair. */
struct spec_probe {
	struct spec_str event;	/* "sched/sched_switch" or "sched:sched_switch" as written */
	char *sys;
	char *name;
	enum attach_kind attach;
	struct spec_loc attach_loc;
	struct spec_str filter;
	struct spec_let *lets;
	int nr_lets;
	struct spec_join *joins;
	int nr_joins;
	struct spec_save *saves;
	int nr_saves;
	struct spec_items print;
	struct spec_agg *aggs;	/* 'count:', 'hist:' and 'aggregate:' */
	int nr_aggs;
	struct spec_str key;	/* latency ends only */
	struct spec_loc loc;
};

struct spec_latency {
	struct spec_str name;	/* C identifier; default "<from>_to_<to>" */
	struct spec_str unit;	/* nsecs | usecs | msecs (default usecs) */
	struct spec_probe from;
	struct spec_probe to;
	struct spec_loc loc;
};

/* params: a value of the tool's command line, a const volatile of the BPF program */
enum param_type {
	PARAM_BOOL,		/* a switch: off, or on when its option is given */
	PARAM_U8, PARAM_U16, PARAM_U32, PARAM_U64,
	PARAM_S8, PARAM_S16, PARAM_S32, PARAM_S64,
};

struct spec_param {
	struct spec_str name;	/* a C identifier, used by name in expressions */
	enum param_type type;
	struct spec_str help;	/* --help's line (default: none) */
	struct spec_str long_name;	/* the long option (default: the name, '_' as '-') */
	char short_opt;		/* -X, or 0 */
	int positional;		/* the command line's Nth argument (1-based), or 0 */
	bool is_signed;
	unsigned int size;	/* bytes: 1, 2, 4, 8 */
	long long smin, smax;	/* signed types: the range; unsigned: umin, umax */
	unsigned long long umin, umax;
	unsigned long long def;	/* the default, in the type's bits (two's complement) */
	struct spec_loc loc;
};

struct spec {
	char *path;
	char *text;
	size_t len;
	struct spec_str tool;
	struct spec_str description;
	enum attach_kind attach;	/* default for every probe */
	struct spec_loc attach_loc;
	bool static_layout;		/* layout: static (--static-layout for this spec) */
	struct spec_probe *events;
	int nr_events;
	struct spec_latency *lats;
	int nr_lats;
	struct spec_param *params;
	int nr_params;
};

/* Read and validate 'path'. Errors are reported (file:line:col) and give -EINVAL. */
int spec_load(struct spec **out, const char *path);
/* The same from text in memory (tests, fuzzers); 'path' names it in diagnostics. */
int spec_parse(struct spec **out, const char *path, const char *text, size_t len);
void spec_free(struct spec *s);

/*
 * Report an error at byte 'off' of the scalar at 'loc' (0: the node itself),
 * with the source line and a caret under the column.
 */
void spec_error(const struct spec *s, const struct spec_loc *loc, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void spec_verror(const struct spec *s, const struct spec_loc *loc, size_t off, const char *fmt,
		 va_list ap);
/* A warning, located as spec_error() locates an error; generation goes on. */
void spec_warning(const struct spec *s, const struct spec_loc *loc, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

const char *attach_name(enum attach_kind a);

#endif /* __TPGEN_SPEC_H */
