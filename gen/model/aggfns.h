/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The functions of an aggregate (count, sum, min, max, avg, hist, lhist,
 * stddev): one line each. The list makes enum agg_fn, the spec's keys and
 * sort names (input/spec_entry.c), the titles and values (model/actions.c),
 * agg_fns[] (model/aggfns.c), which the BPF emitter reads each function's
 * member and update from, and the loader's enum, offsets, columns and
 * values (emit/emit_loader.c, into templates/loader_agg.c): a function is
 * one line here (docs/extending.md).
 *
 * X(ID, name, arg, fields...)
 *   ID      AGG_<ID> of enum agg_fn; the list's order is the bits', the
 *           titles', the columns' and the BPF updates'
 *   name    the key of 'aggregate:', its sort name, its JSON key
 *   arg     what the spec gives it: AGG_ARG_BOOL (count: true), AGG_ARG_VALUE
 *           (a value), AGG_ARG_LHIST ({ value, min, max, step })
 *   fields  the rest of struct agg_fn_desc (below), by name
 */
#ifndef __TPGEN_AGGFNS_H
#define __TPGEN_AGGFNS_H

#include <stdbool.h>

#define AGG_FNS(X)									\
	X(COUNT, "count", AGG_ARG_BOOL, .member = "count", .type = AGG_M_U64,		\
	  .bpf = "__sync_fetch_and_add(&val->count, 1);",				\
	  .bpf_sub = "__sync_fetch_and_sub(&val->count, 1);", .heading = "COUNT")		\
	X(SUM, "sum", AGG_ARG_VALUE, .member = "sum", .type = AGG_M_VALUE,		\
	  .bpf = "__sync_fetch_and_add(&val->sum, $v);",				\
	  .bpf_sub = "__sync_fetch_and_sub(&val->sum, $v);", .heading = "SUM")		\
	X(MIN, "min", AGG_ARG_VALUE, .member = "min", .type = AGG_M_VALUE,		\
	  .init_u = "~0ULL", .init_s = "0x7fffffffffffffffLL", .merge = AGG_MERGE_MIN,	\
	  .bpf = "{\n\t$t v = $v;\n\n\tif (v < val->min)\n\t\tval->min = v;\n}",	\
	  .heading = "MIN")								\
	X(MAX, "max", AGG_ARG_VALUE, .member = "max", .type = AGG_M_VALUE,		\
	  .init_u = "0", .init_s = "-0x7fffffffffffffffLL - 1", .merge = AGG_MERGE_MAX,	\
	  .bpf = "{\n\t$t v = $v;\n\n\tif (v > val->max)\n\t\tval->max = v;\n}",	\
	  .heading = "MAX")								\
	X(AVG, "avg", AGG_ARG_VALUE, .needs = AGG_SUM | AGG_COUNT, .heading = "AVG",	\
	  .loader = "agg_avg(a, val)", .text = "%10.1f", .json = "%.2f")		\
	X(HIST, "hist", AGG_ARG_VALUE, .member = "slots", .type = AGG_M_SLOTS,		\
	  .bpf = "tpgen_hist_add(val->slots, v);", .metrics_sum = true)		\
	X(LHIST, "lhist", AGG_ARG_LHIST, .member = "slots", .type = AGG_M_SLOTS,	\
	  .bpf = "tpgen_lhist_add(val->slots, $n, v, $lo, $step);", .metrics_sum = true)	\
	X(STDDEV, "stddev", AGG_ARG_VALUE, .needs = AGG_SUM | AGG_COUNT,		\
	  .member = "sqsum", .type = AGG_M_U64,						\
	  .bpf = "{\n\t$t v = $v;\n\n\t__sync_fetch_and_add(&val->sqsum, (__u64)v * v);\n}",	\
	  .bpf_sub = "{\n\t$t v = $v;\n\n\t__sync_fetch_and_sub(&val->sqsum, (__u64)v * v);\n}",	\
	  .heading = "STDDEV",								\
	  .loader = "agg_stddev(a, val)", .text = "%10.0f", .json = "%.0f")		\
	X(MAX_AT, "max_at", AGG_ARG_VALUE, .member = "max_at", .type = AGG_M_VALUE,	\
	  .subsumes = AGG_MAX_BIT + 1,							\
	  .bpf = "{\n\t$mt m = $m;\n\n\tif (m > val->max) {\n\t\tval->max = m;\n"	\
		 "\t\tval->max_at = $v;$a\n\t}\n}",					\
	  .heading = "MAX_AT")

enum agg_fn_bit {
#define X(id, ...)	AGG_##id##_BIT,
	AGG_FNS(X)
#undef X
	AGG_NR_FNS
};

enum agg_fn {
#define X(id, ...)	AGG_##id = 1u << AGG_##id##_BIT,
	AGG_FNS(X)
#undef X
};

enum agg_arg {
	AGG_ARG_BOOL,		/* count: true */
	AGG_ARG_VALUE,		/* sum: bytes */
	AGG_ARG_LHIST,		/* lhist: { value, min, max, step } */
};

/* What the BPF map's value keeps for a function. */
enum agg_member {
	AGG_M_NONE,		/* nothing of its own (avg: sum / count) */
	AGG_M_U64,		/* a __u64 */
	AGG_M_VALUE,		/* __s64 or __u64, as the value is signed or not */
	AGG_M_SLOTS,		/* __u64 slots[]: a histogram */
};

/* How two rows' members become one (kstack(N) keys that show alike): added, or the least or most. */
enum agg_merge {
	AGG_MERGE_ADD,
	AGG_MERGE_MIN,
	AGG_MERGE_MAX,
};

struct agg_fn_desc {
	const char *name;
	enum agg_arg arg;
	unsigned int needs;	/* the functions it is computed from, with the value of sum */
	const char *member;	/* the map value's member it keeps, or NULL */
	enum agg_member type;
	const char *init_u, *init_s;	/* the member's start, for unsigned and signed values; NULL: 0 */
	enum agg_merge merge;	/* two rows of keys shown alike made one (the loader's agg_merge()) */
	/*
	 * The BPF update, one statement or a block: $v is the value, $t its
	 * C type; $n, $lo and $step a linear histogram's slots, min and step;
	 * v is a histogram's value; $a the other values max_at keeps (named
	 * columns), one statement each. Lines are indented by the emitter.
	 */
	const char *bpf;
	const char *bpf_sub;	/* the same taking away ('subtract: true'), NULL: it cannot be */
	/*
	 * The value's sum is kept too, in the member hist_sum, for --metrics
	 * only (a Prometheus histogram's _sum): the update adds to it under
	 * the program's const volatile tpgen_metrics, which the loader sets
	 * with --metrics alone, so that without it the verifier drops the add.
	 */
	bool metrics_sum;
	/*
	 * 1 + the bit of a function whose update this one's does too (max_at
	 * sets max and what the event that raised it had: $m, $mt max's
	 * value and its type), 0: none.
	 */
	unsigned int subsumes;
	const char *heading;	/* the loader's column, NULL: a histogram */
	/*
	 * The loader's value of a row as a double, C of a, the struct agg,
	 * and val, the map's value (templates/loader_agg.c: agg_avg(),
	 * agg_stddev()); NULL: the member, an integer as it is. text and
	 * json: its printf formats.
	 */
	const char *loader;
	const char *text, *json;
};

/* model/aggfns.c: the table, one entry per line of AGG_FNS */
extern const struct agg_fn_desc agg_fns[AGG_NR_FNS];

#endif /* __TPGEN_AGGFNS_H */
