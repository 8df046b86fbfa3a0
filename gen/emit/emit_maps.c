// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The BPF side's declarations: records, keys and saved values (<tool>.h),
 * the maps of aggregations and saves, and filter strings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/limits.h"
#include "lib/cstring.h"
#include "emit/emit_prog.h"

/* A member of a record, key or saved values: "__s32 pid;", "char comm[16];" */
void emit_member(struct strbuf *sb, const struct pvalue *v, const char *cname, unsigned int str_max)
{
	if (v->kind == PV_STR)
		sb_printf(sb, "\tchar %s[%u];\n", cname, v->size ? v->size : str_max);
	else if (v->kind == PV_BYTES)
		sb_printf(sb, "\t__u8 %s[%u];\n", cname, v->size);
	else
		sb_printf(sb, "\t%s %s;\n", pvalue_ctype(v), cname);
}

static void emit_hash(struct strbuf *sb, const char *key, const char *val, const char *name)
{
	sb_printf(sb, "struct {\n"
		  "\t__uint(type, BPF_MAP_TYPE_HASH);\n"
		  "\t__uint(max_entries, TPGEN_MAP_ENTRIES);\n"
		  "\t__type(key, %s);\n"
		  "\t__type(value, %s);\n"
		  "} %s SEC(\".maps\");\n", key, val, name);
}

/* tpgen_save() starts from zeroed values; saves of a few numbers build theirs on the stack. */
static bool save_needs_zero(const struct prog *p, int set)
{
	if (psaved_is_slot(&p->sets[set]))
		return false;
	if (!prog_save_on_stack(&p->sets[set]))
		return true;
	for (int i = 0; i < p->nr_probes; i++)
		for (int j = 0; j < p->probes[i].nr_saves; j++)
			if (p->probes[i].saves[j].set == set && p->probes[i].scratch_size)
				return true;
	return false;
}

void emit_maps(struct strbuf *sb, const struct prog *p)
{
	char key[160], val[160];
	int i, n;

	if (p->nr_scratch)
		sb_printf(sb, "\n/* strings and keys too big for the 512-byte BPF stack: per CPU, a slot per program */\n"
			  "struct {\n"
			  "\t__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);\n"
			  "\t__uint(max_entries, %d);\n"
			  "\t__uint(key_size, sizeof(__u32));\n"
			  "\t__uint(value_size, %u);\n"
			  "} tpgen_scratch SEC(\".maps\");\n", p->nr_scratch, p->scratch_size);
	if (p->any_stack)
		sb_printf(sb, "\n/* kstack and ustack: the stacks bpf_get_stackid() keeps, by id */\n"
			  "struct {\n"
			  "\t__uint(type, BPF_MAP_TYPE_STACK_TRACE);\n"
			  "\t__uint(key_size, sizeof(__u32));\n"
			  "\t__uint(value_size, TPGEN_STACK_DEPTH * sizeof(__u64));\n"
			  "\t__uint(max_entries, TPGEN_STACK_ENTRIES);\n"
			  "} %s SEC(\".maps\");\n", p->stack_map);
	for (i = 0; i < p->nr_sets; i++) {
		const struct psaved *set = &p->sets[i];

		sb_printf(sb, "\n/* values saved as '%s', found by join */\n", set->name);
		snprintf(key, sizeof(key), "struct %s", set->key_struct);
		if (set->per_cpu) {
			sb_printf(sb, "struct {\n"
				  "\t__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);\n"
				  "\t__uint(max_entries, 1);\n"
				  "\t__type(key, __u32);\n"
				  "\t__type(value, struct %s);\n"
				  "} %s SEC(\".maps\");\n", set->val_struct, set->map);
			continue;
		}
		if (set->per_task) {
			sb_printf(sb, "struct {\n"
				  "\t__uint(type, BPF_MAP_TYPE_TASK_STORAGE);\n"
				  "\t__uint(map_flags, BPF_F_NO_PREALLOC);\n"
				  "\t__type(key, int);\n"
				  "\t__type(value, struct %s);\n"
				  "} %s SEC(\".maps\");\n", set->val_struct, set->map);
			continue;
		}
		snprintf(val, sizeof(val), "struct %s", set->val_struct);
		if (set->entries)
			sb_printf(sb, "struct {\n"
				  "\t__uint(type, BPF_MAP_TYPE_HASH);\n"
				  "\t__uint(max_entries, %lld);\n"
				  "\t__type(key, %s);\n"
				  "\t__type(value, %s);\n"
				  "} %s SEC(\".maps\");\n", set->entries, key, val, set->map);
		else
			emit_hash(sb, key, val, set->map);
		if (save_needs_zero(p, i))
			sb_printf(sb, "static const struct %s %s_zero;\n", set->val_struct, set->map);
	}
	for (i = 0; i < p->nr_sets; i++) {
		const struct psaved *set = &p->sets[i];

		if (!set->absent_map)
			continue;
		sb_printf(sb, "\n/* '%s' where nothing was saved: what an optional join finds instead */\n"
			  "struct {\n"
			  "\t__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);\n"
			  "\t__uint(max_entries, 1);\n"
			  "\t__type(key, __u32);\n"
			  "\t__type(value, struct %s);\n"
			  "} %s SEC(\".maps\");\n", set->name, set->val_struct, set->absent_map);
	}
	for (i = 0; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		if (pr->lits.nr) {
			sb_printf(sb, "\n/* %s: strings of the filter */\n", pr->event);
			expr_emit_literals(sb, &pr->lits, pr->lit_prefix);
		}
		for (int j = 0; j < pr->nr_aggs; j++) {
			const struct pagg *a = &pr->aggs[j];

			if (a->feeder)
				continue;	/* an earlier aggregate's table */
			sb_puts(sb, "\n/* ");
			c_comment_text(sb, a->title);
			sb_puts(sb, " */\n");
			if (a->global) {
				/* no key: one value, a global the loader reads through the skeleton */
				sb_printf(sb, "struct %s %s = {};\n", a->val_struct, a->map);
				continue;
			}
			snprintf(key, sizeof(key), a->key_struct ? "struct %s" : "__u32", a->key_struct);
			snprintf(val, sizeof(val), "struct %s", a->val_struct);
			emit_hash(sb, key, val, a->map);
			sb_printf(sb, "static const struct %s %s_zero", a->val_struct, a->map);
			/* min starts at the largest value, max at the smallest */
			n = 0;
			for (int f = 0; f < AGG_NR_FNS; f++) {
				const struct agg_fn_desc *fn = &agg_fns[f];

				if (!(a->fns & (1u << f)) || !fn->init_u)
					continue;
				sb_printf(sb, "%s.%s = %s", n++ ? ", " : " = { ", fn->member,
					  pr->vals[a->val[f]].is_signed ? fn->init_s : fn->init_u);
			}
			sb_puts(sb, n ? " };\n" : ";\n");
			if (a->rows) {
				sb_puts(sb, "/* ... and its rows of ");
				c_comment_text(sb, a->keys.v[0].name);
				sb_printf(sb, " 0 to %u, indexed by it: no lookup */\nstruct %s %s[%u] = {};\n",
					  a->rows - 1, a->val_struct, a->rows_ident, a->rows);
			}
		}
	}
}

static void emit_struct(struct strbuf *sb, const struct pprobe *pr, const char *comment, const char *name,
			const struct pitems *items, unsigned int str_max)
{
	sb_puts(sb, "\n/* ");
	c_comment_text(sb, comment);
	sb_printf(sb, " */\nstruct %s {\n", name);
	for (int j = 0; j < items->nr; j++)
		emit_member(sb, &pr->vals[items->v[j].val], items->v[j].cname, str_max);
	sb_puts(sb, "};\n");
}

/* The value of an aggregation's map: what each function keeps. */
static void emit_agg_val(struct strbuf *sb, const struct pprobe *pr, const struct pagg *a)
{
	sb_puts(sb, "\n/* ");
	c_comment_text(sb, a->title);
	sb_printf(sb, ": per key */\nstruct %s {\n", a->val_struct);
	for (int f = 0; f < AGG_NR_FNS; f++) {
		const struct agg_fn_desc *fn = &agg_fns[f];

		if (!(a->fns & (1u << f)))
			continue;
		switch (fn->type) {
		case AGG_M_U64:
			sb_printf(sb, "\t__u64 %s;\n", fn->member);
			break;
		case AGG_M_VALUE:
			sb_printf(sb, "\t%s %s;\n", pr->vals[a->val[f]].is_signed ? "__s64" : "__u64", fn->member);
			break;
		case AGG_M_SLOTS:
			sb_printf(sb, "\t__u64 %s[%u];\n", fn->member, a->nslots);
			break;
		case AGG_M_NONE:
			break;
		}
		if (fn->metrics_sum)
			sb_printf(sb, "\t%s hist_sum;\t/* --metrics: the values' sum (its _sum) */\n",
				  pr->vals[a->hist].is_signed ? "__s64" : "__u64");
	}
	for (int j = 0; j < a->nr_cols; j++)
		if (a->cols[j].cname)
			sb_printf(sb, "\t%s %s;\n", a->cols[j].is_signed ? "__s64" : "__u64", a->cols[j].cname);
	sb_puts(sb, "};\n");
}

void emit_records(struct strbuf *sb, struct strbuf *types, const struct prog *p)
{
	int i, j, nt = 0;
	char *c;

	for (i = 0; i < p->nr_sets; i++) {
		const struct psaved *set = &p->sets[i];

		if (set->per_cpu) {
			/* keyed by the CPU: the slot of a per-CPU array, no key of its own */
			sb_printf(sb, "\n/* '%s': the values a save keeps on this CPU */\nstruct %s {\n", set->name,
				  set->val_struct);
		} else if (set->per_task) {
			/* keyed by a task: its slot of a task storage map */
			sb_printf(sb, "\n/* '%s': the values a save keeps for a task */\nstruct %s {\n", set->name,
				  set->val_struct);
		} else {
			sb_printf(sb, "\n/* '%s': the key and the values a save keeps */\nstruct %s {\n",
				  set->name, set->key_struct);
			for (j = 0; j < set->nr_keys; j++)
				emit_member(sb, &set->keys[j], set->keys[j].cname, KEY_STR_MAX);
			sb_printf(sb, "};\n\nstruct %s {\n", set->val_struct);
		}
		for (j = 0; j < set->nr_members; j++)
			emit_member(sb, &set->members[j], set->members[j].cname, RECORD_STR_MAX);
		for (j = 0; set->refetch && j < set->nr_members; j++)
			if (set->members[j].user_str)
				sb_printf(sb, "\t__u64 tpgen_uptr_%s;\t/* where it is in the caller's memory, and the caller: */\n"
					  "\t__u32 tpgen_tgid_%s;\t/* the join reads it again if the page was absent */\n"
					  "\t__u8 tpgen_late_%s;\t/* ... and did: read after the call used it */\n",
					  set->members[j].cname, set->members[j].cname, set->members[j].cname);
		if (set->per_cpu)
			sb_puts(sb, "\t__u32 tpgen_saved;\t/* this CPU's slot holds values */\n");
		else if (set->per_task)
			sb_puts(sb, "\t__u32 tpgen_saved;\t/* this task's slot holds values */\n");
		sb_puts(sb, "};\n");
	}
	for (i = 0; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		if (pr->print.nr) {
			sb_printf(types, "%s = %d,\t/* %s */\n", pr->type_enum, nt + 1, pr->event);
			nt++;
			sb_printf(sb, "\n/* %s */\nstruct %s {\n\tstruct event_hdr hdr;\n", pr->event,
				  pr->rec_struct);
			for (j = 0; j < pr->print.nr; j++)
				emit_member(sb, &pr->vals[pr->print.v[j].val], pr->print.v[j].cname, RECORD_STR_MAX);
			for (j = 0; j < pr->print.nr; j++)
				if (pvalue_may_be_late(p, pr, &pr->vals[pr->print.v[j].val]))
					sb_printf(sb, "\t__u8 tpgen_late_%s;\t/* read at the join, after the call */\n",
						  pr->print.v[j].cname);
			sb_puts(sb, "};\n");
		}
		for (j = 0; j < pr->nr_aggs; j++) {
			const struct pagg *a = &pr->aggs[j];

			if (a->feeder)
				continue;
			if (a->key_struct) {
				c = xasprintf("%s: the key", a->title);
				emit_struct(sb, pr, c, a->key_struct, &a->keys, KEY_STR_MAX);
				free(c);
			}
			emit_agg_val(sb, pr, a);
		}
	}
	if (p->any_stack)
		sb_printf(sb, "\n/* kstack, ustack: frames per stack (PERF_MAX_STACK_DEPTH), stacks kept */\n"
			  "#define TPGEN_STACK_DEPTH %d\n#define TPGEN_STACK_ENTRIES %d\n", STACK_DEPTH,
			  STACK_ENTRIES);
	if (p->any_agg || p->nr_sets)
		sb_printf(sb, "\n/* keys a map of aggregations or saved values holds */\n"
			  "#define TPGEN_MAP_ENTRIES %d\n", MAP_ENTRIES);
}
