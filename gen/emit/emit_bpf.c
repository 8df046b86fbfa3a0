// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The BPF side of a pair: records, keys and saved values (<tool>.h), maps,
 * and the handlers (<tool>.bpf.c). Every probe is a function; the probes of
 * one tracepoint are called, in the spec's order, by one program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cstring.h"
#include "emit/emit_prog.h"
#include "model/sysargs.h"

/*
 * How a probe's function leaves early: "return;", or once it holds values a
 * join found and must delete, "goto out;" (out: deletes them).
 */
static const char *leave = "return;";

/* "obj.member = value;" for each item */
static void emit_stores(struct strbuf *sb, const struct pprobe *pr, const struct pitems *items,
			const char *obj, const char *indent)
{
	for (int i = 0; i < items->nr; i++) {
		const struct pvalue *v = &pr->vals[items->v[i].val];
		char *dst = xasprintf("%s%s", obj, items->v[i].cname);

		if (v->kind == PV_STR && filter_str_buf(pr, v)) {
			/* the filter read it: the same string, copied */
			sb_printf(sb, "%s__builtin_memcpy(%s, buf_%s, sizeof(%s));\n", indent, dst, v->cname, dst);
		} else if (v->kind == PV_STR) {
			emit_read_str(sb, pr, v, dst, indent);
		} else if (v->kind == PV_BYTES && v->src == PV_RAW) {
			/* a member's __u8 u6_addr8[16]: its bytes, with CO-RE */
			sb_printf(sb, "%sBPF_CORE_READ%s_INTO(&%s, %s, %s);\n", indent, v->user_mem ? "_USER" : "", dst,
				  v->arg_local, v->path);
		} else if (v->kind == PV_BYTES) {
			/* __u8 saddr[4] of the record: the verifier refuses loads through a moved ctx pointer */
			sb_printf(sb, "%sbpf_probe_read_kernel(%s, sizeof(%s), ctx->%s);\n", indent, dst, dst,
				  v->field->cname);
		} else {
			sb_printf(sb, "%s%s = ", indent, dst);
			emit_value(sb, pr, v);
			sb_puts(sb, ";\n");
		}
		free(dst);
	}
}

/* A block of the entry: a blank line before it, unless it opens the function. */
static void emit_block_start(struct strbuf *sb)
{
	if (sb->len < 2 || strcmp(sb->buf + sb->len - 2, "{\n"))
		sb_putc(sb, '\n');
}

/* A block's key: a local, or in per-CPU scratch where the stack has no room for it. */
static void emit_key_decl(struct strbuf *sb, const struct pprobe *pr, const char *type)
{
	sb_printf(sb, pr->scratch_size ? "\t\tstruct %s *key;\n" : "\t\tstruct %s key;\n", type);
}

/* The key zeroed (and placed), its members set: "key." or "key->" */
static void emit_key_init(struct strbuf *sb, const struct pprobe *pr, const struct pitems *items)
{
	if (pr->scratch_size) {
		sb_printf(sb, "\t\tkey = tpgen_scratch_get(%d, 0);\n\t\tif (!key)\n\t\t\t%s\n", pr->scratch_slot,
			  leave);
		sb_puts(sb, "\t\t__builtin_memset(key, 0, sizeof(*key));\n");
		emit_stores(sb, pr, items, "key->", "\t\t");
	} else {
		sb_puts(sb, "\t\t__builtin_memset(&key, 0, sizeof(key));\n");
		emit_stores(sb, pr, items, "key.", "\t\t");
	}
}

/*
 * A syscall's string saved at its entry may sit in a page the caller has not
 * touched yet: bpf_probe_read_user_str() cannot fault it in and reads "".
 * The save keeps the pointer and the caller; a join in the same process
 * reads it again once the system call has brought the page in (as
 * libbpf-tools' opensnoop reads the path at the exit).
 */
static void emit_user_ptrs(struct strbuf *sb, const struct pprobe *pr, const struct psaved *set,
			   const struct psave *sv, const char *obj, const char *in)
{
	for (int m = 0; set->refetch && m < set->nr_members; m++) {
		const char *c = set->members[m].cname;
		const struct pvalue *v = NULL;

		if (!set->members[m].user_str)
			continue;
		for (int i = 0; i < sv->values.nr; i++)
			if (!strcmp(sv->values.v[i].cname, c))
				v = &pr->vals[sv->values.v[i].val];
		if (!v || !pvalue_user_str(v)) {
			sb_printf(sb, "%s%stpgen_uptr_%s = 0;\n%s%stpgen_late_%s = 0;\n", in, obj, c, in, obj, c);
			continue;
		}
		sb_printf(sb, "%s%stpgen_uptr_%s = ", in, obj, c);
		if (v->src == PV_SYSARG) {
			emit_sysarg_ptr(sb, v);
		} else {
			sb_puts(sb, pr->ev->core_sys ? "(__u64)(unsigned long)" : "(__u64)");
			emit_ustr_addr(sb, pr, v);
		}
		sb_printf(sb, ";\n%s%stpgen_tgid_%s = bpf_get_current_pid_tgid() >> 32;\n", in, obj, c);
		sb_printf(sb, "%s%stpgen_late_%s = 0;\n", in, obj, c);
	}
}

/* After the joins: the user strings a save could not read, read again in the same process. */
static void emit_refetch(struct strbuf *sb, const struct prog *p, const struct pprobe *pr)
{
	for (int i = 0; i < pr->nr_joins; i++) {
		const struct psaved *set = &p->sets[pr->joins[i].set];
		const char *l = pr->joins[i].local;

		for (int m = 0; set->refetch && m < set->nr_members; m++) {
			const char *c = set->members[m].cname;

			if (!set->members[m].user_str)
				continue;
			sb_printf(sb, "\tif (!%s->%s[0] && %s->tpgen_uptr_%s &&\n"
				  "\t    %s->tpgen_tgid_%s == bpf_get_current_pid_tgid() >> 32)\n"
				  "\t\t%s->tpgen_late_%s = bpf_probe_read_user_str(%s->%s, sizeof(%s->%s),\n"
				  "\t\t\t\t\t(const void *)(unsigned long)%s->tpgen_uptr_%s) > 1;\n",
				  l, c, l, c, l, c, l, c, l, c, l, c, l, c);
		}
	}
}

/*
 * An optional join that found nothing: this CPU's slot of the set's absent
 * map, zeroed, with the defaults the join gives, in place of saved values.
 */
static void emit_absent(struct strbuf *sb, const struct prog *p, const struct pprobe *pr, const struct pjoin *j)
{
	const char *l = j->local;
	char *obj = xasprintf("%s->", l);

	sb_printf(sb, " {\n\t\t%s = bpf_map_lookup_elem(&%s, &(__u32){ 0 });\n", l,
		  p->sets[j->set].absent_map);
	sb_printf(sb, "\t\tif (!%s)\n\t\t\t%s\n\t\t__builtin_memset(%s, 0, sizeof(*%s));\n", l, leave, l, l);
	emit_stores(sb, pr, &j->defaults, obj, "\t\t");
	free(obj);
	sb_puts(sb, "\t}\n");
}

static bool set_has_argv(const struct psaved *set)
{
	for (int i = 0; i < set->nr_members; i++)
		if (set->members[i].argv)
			return true;
	return false;
}

static void emit_saves(struct strbuf *sb, const struct prog *p, const struct pprobe *pr)
{
	for (int i = 0; i < pr->nr_saves; i++) {
		const struct psave *sv = &pr->saves[i];
		const struct psaved *set = &p->sets[sv->set];
		/* if_absent: the values are stored in a block of their own, where nothing was saved */
		const char *in = sv->if_absent ? "\t\t\t" : "\t\t";
		const char *obj = "val->";

		emit_block_start(sb);
		sb_printf(sb, "\t/* save %s%s */\n\t{\n", set->name, sv->if_absent ? ", if nothing is saved" : "");
		if (set->per_cpu) {
			/* this CPU's slot: written in place */
			sb_printf(sb, "\t\tstruct %s *val = bpf_map_lookup_elem(&%s, &(__u32){ 0 });\n\n",
				  set->val_struct, set->map);
			sb_printf(sb, "\t\tif (!val)\n\t\t\t%s\n", leave);
		} else if (set->per_task) {
			/* the task's slot, made by its first save: written in place */
			sb_printf(sb, "\t\tstruct %s *val;\n\n\t\tval = bpf_task_storage_get(&%s, %s, 0, "
				  "BPF_LOCAL_STORAGE_GET_F_CREATE);\n", set->val_struct, set->map, key_task(pr, &sv->key));
			sb_printf(sb, "\t\tif (!val) {\n\t\t\t__sync_fetch_and_add(&tpgen_lost, 1);\n\t\t\t%s\n\t\t}\n",
				  leave);
		}
		if (psaved_is_slot(set)) {
			if (sv->if_absent)
				sb_puts(sb, "\t\tif (!val->tpgen_saved) {\n");
			/*
			 * Strings are copied out of the slot up to their NUL, so what a
			 * longer one left after it stays unseen; an argv is copied whole.
			 */
			if (set_has_argv(set))
				sb_printf(sb, "%s__builtin_memset(val, 0, sizeof(*val));\n", in);
			emit_stores(sb, pr, &sv->values, obj, in);
			emit_user_ptrs(sb, pr, set, sv, obj, in);
			sb_printf(sb, "%sval->tpgen_saved = 1;\n", in);
			sb_puts(sb, sv->if_absent ? "\t\t}\n\t}\n" : "\t}\n");
			continue;
		}
		emit_key_decl(sb, pr, set->key_struct);
		if (!pr->scratch_size && prog_save_on_stack(set)) {
			/* a few numbers: built here, one map update */
			sb_printf(sb, "\t\tstruct %s val = {};\n\n", set->val_struct);
			emit_key_init(sb, pr, &sv->key);
			emit_stores(sb, pr, &sv->values, "val.", "\t\t");
			if (sv->if_absent)
				sb_printf(sb, "\t\ttpgen_save_first(&%s, &key, &val, &tpgen_lost);\n\t}\n", set->map);
			else
				sb_printf(sb, "\t\tif (tpgen_save_value(&%s, &key, &val, &tpgen_lost))\n\t\t\t%s\n\t}\n",
					  set->map, leave);
			continue;
		}
		sb_printf(sb, "\t\tstruct %s *val;\n\n", set->val_struct);
		emit_key_init(sb, pr, &sv->key);
		sb_printf(sb, "\t\tval = %s(&%s, %s, &%s_zero, &tpgen_lost);\n",
			  sv->if_absent ? "tpgen_save_first" : "tpgen_save", set->map,
			  pr->scratch_size ? "key" : "&key", set->map);
		if (sv->if_absent)
			sb_puts(sb, "\t\tif (val) {\n");
		else
			sb_printf(sb, "\t\tif (!val)\n\t\t\t%s\n", leave);
		emit_stores(sb, pr, &sv->values, obj, in);
		emit_user_ptrs(sb, pr, set, sv, obj, in);
		sb_puts(sb, sv->if_absent ? "\t\t}\n\t}\n" : "\t}\n");
	}
}

/* The values max_at's named columns keep beside max: set with it, by the event that raised it. */
static void emit_at_values(struct strbuf *sb, const struct pprobe *pr, const struct pagg *a)
{
	for (int j = 0; j < a->nr_cols; j++) {
		const struct pcol *c = &a->cols[j];

		if (c->kind != PCOL_AT || !c->cname)
			continue;
		sb_printf(sb, "\n\t\t\t\tval->%s = ", c->cname);
		emit_value(sb, pr, &pr->vals[c->val]);
		sb_putc(sb, ';');
	}
}

/*
 * A function's update of its member (model/aggfns.h), each line indented
 * into the handler: $v the value, $t its type, $n, $lo, $step an lhist's.
 */
static void emit_agg_update(struct strbuf *sb, const struct pprobe *pr, const struct pagg *a, int f)
{
	const struct pvalue *v = a->val[f] >= 0 ? &pr->vals[a->val[f]] : NULL;
	bool bol = true;

	for (const char *c = a->subtract ? agg_fns[f].bpf_sub : agg_fns[f].bpf; *c; c++) {
		if (bol && *c != '\n')
			sb_puts(sb, "\t\t");
		bol = *c == '\n';
		if (*c != '$')
			sb_putc(sb, *c);
		else if (!strncmp(c, "$a", 2))
			emit_at_values(sb, pr, a), c += 1;
		else if (!strncmp(c, "$v", 2) && v)
			emit_value(sb, pr, v), c += 1;
		else if (!strncmp(c, "$mt", 3) && a->val[AGG_MAX_BIT] >= 0)
			sb_puts(sb, pvalue_ctype(&pr->vals[a->val[AGG_MAX_BIT]])), c += 2;
		else if (!strncmp(c, "$m", 2) && a->val[AGG_MAX_BIT] >= 0)
			emit_value(sb, pr, &pr->vals[a->val[AGG_MAX_BIT]]), c += 1;
		else if (!strncmp(c, "$t", 2) && v)
			sb_puts(sb, pvalue_ctype(v)), c += 1;
		else if (!strncmp(c, "$n", 2))
			sb_printf(sb, "%u", a->nslots), c += 1;
		else if (!strncmp(c, "$lo", 3))
			sb_printf(sb, "%lldLL", a->lmin), c += 2;
		else if (!strncmp(c, "$step", 5))
			sb_printf(sb, "%lldLL", a->lstep), c += 4;
		else
			sb_putc(sb, *c);
	}
	sb_putc(sb, '\n');
}

/* A histogram's value, once: "__u64 v = ...;" */
static void emit_hist_value(struct strbuf *sb, const struct pprobe *pr, const struct pagg *a)
{
	if (a->hist < 0)
		return;
	sb_printf(sb, "\t\t%s v = ", pvalue_ctype(&pr->vals[a->hist]));
	emit_value(sb, pr, &pr->vals[a->hist]);
	sb_puts(sb, ";\n");
}

/* The pointer an entry reads its record through: ctx, or args of a raw tracepoint's (emit_raw_locals()). */
static const char *record_ptr(const struct pprobe *pr)
{
	for (int i = 0; pr->attach != ATTACH_TRACEPOINT && i < pr->nr_vals; i++)
		if (pr->vals[i].src == PV_RAW && !pr->vals[i].curtask)
			return "args";
	return "ctx";
}

/* An aggregate whose updates read values (of the record, maybe): not only counts of true. */
static bool agg_reads(const struct pagg *a)
{
	for (int f = 0; f < AGG_NR_FNS; f++)
		if ((a->fns & (1u << f)) && a->val[f] >= 0)
			return true;
	for (int j = 0; j < a->nr_cols; j++)
		if (a->cols[j].cname && a->cols[j].val >= 0)
			return true;
	return false;
}

/*
 * After a branch (the lookup's, min's and max's), a read of a raw
 * tracepoint's arguments starts from their pointer again: clang may compute
 * an argument's address before the branch and load through it after, which
 * the verifier refuses ("dereference of modified ctx ptr"). A tracepoint's
 * record is read through __tpgen_ctx(), the same barrier at every read.
 */
static void emit_record_barrier(struct strbuf *sb, const struct pprobe *pr, const struct pagg *a)
{
	const char *rec = record_ptr(pr);

	if (pr->uses_ctx && agg_reads(a) && !strcmp(rec, "args"))
		sb_printf(sb, "\t\tbarrier_var(%s);\n", rec);
}

static void emit_agg_updates(struct strbuf *sb, const struct pprobe *pr, const struct pagg *a)
{
	unsigned int done = 0;

	/* max_at's update sets max too */
	for (int f = 0; f < AGG_NR_FNS; f++)
		if ((a->fns & (1u << f)) && agg_fns[f].subsumes)
			done |= 1u << (agg_fns[f].subsumes - 1);
	for (int f = 0; f < AGG_NR_FNS; f++) {
		if (!(a->fns & (1u << f) & ~done) || !agg_fns[f].bpf)
			continue;
		emit_agg_update(sb, pr, a, f);
		/* with --metrics alone: the verifier drops it when tpgen_metrics is false */
		if (agg_fns[f].metrics_sum)
			sb_puts(sb, "\t\tif (tpgen_metrics)\n\t\t\t__sync_fetch_and_add(&val->hist_sum, v);\n");
	}
	if (a->fns & (AGG_MIN | AGG_MAX))
		emit_record_barrier(sb, pr, a);
	/* named counts (of a condition) and sums */
	for (int j = 0; j < a->nr_cols; j++) {
		const struct pcol *c = &a->cols[j];
		const char *op = a->subtract ? "sub" : "add";

		if (!c->cname || c->kind == PCOL_AT)
			continue;
		if (c->kind == PCOL_COUNT && c->val >= 0) {
			/*
			 * 1 or 0, without a branch: an 'if' on a tracepoint's field
			 * lets clang keep the field's address in a register for the
			 * next read, and the verifier refuses a modified ctx pointer
			 */
			sb_printf(sb, "\t\t__sync_fetch_and_%s(&val->%s, (", op, c->cname);
			emit_value(sb, pr, &pr->vals[c->val]);
			sb_puts(sb, ") ? 1 : 0);\n");
		} else if (c->kind == PCOL_COUNT) {
			sb_printf(sb, "\t\t__sync_fetch_and_%s(&val->%s, 1);\n", op, c->cname);
		} else {
			sb_printf(sb, "\t\t__sync_fetch_and_%s(&val->%s, ", op, c->cname);
			emit_value(sb, pr, &pr->vals[c->val]);
			sb_puts(sb, ");\n");
		}
	}
}

static void emit_aggs(struct strbuf *sb, const struct pprobe *pr)
{
	for (int i = 0; i < pr->nr_aggs; i++) {
		const struct pagg *a = &pr->aggs[i];

		emit_block_start(sb);
		sb_puts(sb, "\t/* ");
		c_comment_text(sb, a->title);
		sb_puts(sb, " */\n\t{\n");
		if (a->global) {
			/* one value, a global: added to in place */
			sb_printf(sb, "\t\tstruct %s *val = &%s;\n", a->val_struct, a->map);
			emit_hist_value(sb, pr, a);
			sb_putc(sb, '\n');
			emit_agg_updates(sb, pr, a);
			sb_puts(sb, "\t}\n");
			continue;
		}
		if (a->key_struct)
			emit_key_decl(sb, pr, a->key_struct);
		else
			sb_puts(sb, "\t\t__u32 key = 0;\n");
		sb_printf(sb, "\t\tstruct %s *val;\n", a->val_struct);
		emit_hist_value(sb, pr, a);
		sb_putc(sb, '\n');
		if (a->key_struct)
			emit_key_init(sb, pr, &a->keys);
		if (a->rows) {
			/* the key's first values: rows of the global array, no lookup */
			const char *k = pr->scratch_size ? "key->" : "key.";
			/* a signed key's negative values are the map's */
			const char *cast = a->rows_signed ? "(__u64)" : "";

			sb_printf(sb, "\t\tif (%s%s%s < %u)\n\t\t\tval = &%s[%s%s];\n\t\telse\n\t", cast, k,
				  a->keys.v[0].cname, a->rows, a->rows_ident, k, a->keys.v[0].cname);
		}
		sb_printf(sb, "\t\tval = tpgen_lookup_or_try_init(&%s, %s, &%s_zero);\n", a->map,
			  a->key_struct && pr->scratch_size ? "key" : "&key", a->map);
		sb_printf(sb, "\t\tif (!val) {\n\t\t\t__sync_fetch_and_add(&tpgen_lost, 1);\n\t\t\t%s\n\t\t}\n",
			  leave);
		emit_record_barrier(sb, pr, a);
		emit_agg_updates(sb, pr, a);
		sb_puts(sb, "\t}\n");
	}
}

static void emit_print(struct strbuf *sb, const struct prog *p, const struct pprobe *pr)
{
	if (!pr->print.nr)
		return;
	emit_block_start(sb);
	sb_printf(sb, "\t/* record */\n\t{\n\t\tstruct %s *e;\n\n", pr->rec_struct);
	sb_puts(sb, "\t\te = tpgen_ringbuf_reserve(&events, sizeof(*e), &ringbuf_drops);\n");
	sb_printf(sb, "\t\tif (!e)\n\t\t\t%s\n", leave);
	sb_printf(sb, "\t\te->hdr.type = %s;\n", pr->type_enum);
	sb_puts(sb, pr->uses_time ? "\t\te->hdr.ts_ns = tpgen_now;\n" : "\t\te->hdr.ts_ns = bpf_ktime_get_ns();\n");
	emit_stores(sb, pr, &pr->print, "e->", "\t\t");
	for (int i = 0; i < pr->print.nr; i++) {
		const struct pvalue *v = &pr->vals[pr->print.v[i].val];

		if (pvalue_may_be_late(p, pr, v))
			sb_printf(sb, "\t\te->tpgen_late_%s = %s->tpgen_late_%s;\n", pr->print.v[i].cname,
				  pr->joins[v->join].local, v->member);
	}
	sb_puts(sb, "\t\ttpgen_ringbuf_submit(e, &events);\n\t}\n");
}

static const char *ctx_type(const struct pprobe *pr, char *buf, size_t n)
{
	if (pr->attach == ATTACH_TRACEPOINT)
		snprintf(buf, n, "struct %s", pr->ev->struct_name);
	else
		snprintf(buf, n, "__u64");
	return buf;
}

/* The locals of the raw arguments (or record fields) read through pointers (CO-RE starts from a local). */
static void emit_raw_locals(struct strbuf *sb, const struct pprobe *pr)
{
	bool args = false;

	for (int i = 0; i < pr->nr_vals; i++)
		args |= pr->vals[i].src == PV_RAW && !pr->vals[i].curtask;
	if (args && pr->attach != ATTACH_TRACEPOINT)
		sb_printf(sb, "\tstruct %s_raw_args *args = (void *)ctx;\n", pr->raw->name);
	for (int i = 0; i < pr->nr_vals; i++) {
		const struct pvalue *v = &pr->vals[i];
		int j;

		if (v->src != PV_RAW || !v->arg_local)
			continue;
		for (j = 0; j < i; j++)
			if (pr->vals[j].arg_local && !strcmp(pr->vals[j].arg_local, v->arg_local))
				break;
		if (j < i)
			continue;
		if (v->curtask && v->btf_direct)	/* tp_btf: a trusted pointer, members are loads */
			sb_printf(sb, "\tstruct task_struct *%s = bpf_get_current_task_btf();\n", v->arg_local);
		else if (v->curtask)
			sb_printf(sb, "\tstruct task_struct *%s = (void *)bpf_get_current_task();\n", v->arg_local);
		else if (v->field)	/* a pointer field of the record */
			sb_printf(sb, "\t%s%s = (void *)ctx->%s;\n", v->arg_type, v->arg_local, v->arg);
		else
			sb_printf(sb, "\t%s%s = (void *)args->%s;\n", v->arg_type, v->arg_local, v->arg);
	}
}

/* An entry that reads nothing of the record or the arguments is called without them. */
static bool probe_reads_ctx(const struct pprobe *pr)
{
	for (int i = 0; i < pr->nr_vals; i++)
		if (pr->vals[i].src == PV_RAW && !pr->vals[i].curtask)
			return true;
	return pr->uses_ctx;
}

/* The entries of pr's program that use the event's time. */
static int clock_users(const struct prog *p, const struct pprobe *pr)
{
	int n = 0;

	for (int i = 0; i < p->nr_probes; i++)
		n += !strcmp(p->probes[i].handler, pr->handler) && p->probes[i].uses_time;
	return n;
}

/*
 * The event's time. The one entry of a program that uses it reads the clock
 * where it first needs it: after its filter and its joins' lookups (an event
 * they reject reads no clock, as libbpf-tools' handlers), or before them when
 * they use it. Several entries share one reading, made by the program before
 * them: reading it in the first that needs it (a branch in each) let clang
 * keep a tracepoint record's field address in a register, which the verifier
 * refuses ("dereference of modified ctx ptr").
 */
static void emit_clock(struct strbuf *sb, size_t body, bool shared)
{
	const char *clock = shared ? "\ttpgen_now = *tpgen_clock;\n" : "\ttpgen_now = tpgen_time(tpgen_clock);\n";
	char *tail;

	if (!strstr(sb->buf + body, "tpgen_now")) {
		sb_puts(sb, clock);
		return;
	}
	tail = xstrdup(sb->buf + body);
	sb->len = body;
	sb->buf[body] = '\0';
	sb_puts(sb, clock);
	sb_puts(sb, tail);
	free(tail);
}

/* A join's key has values an earlier join found. */
static bool key_uses_joins(const struct pprobe *pr, const struct pjoin *j)
{
	bool uses = false;

	for (int i = 0; i < j->key.nr; i++) {
		const struct pvalue *v = &pr->vals[j->key.v[i].val];
		int *refs = NULL, nr = 0;

		uses |= v->src == PV_SAVED;
		if (v->src == PV_EXPR)
			expr_refs(v->expr, &refs, &nr);
		for (int k = 0; k < nr; k++)
			uses |= pr->vals[refs[k]].src == PV_SAVED;
		free(refs);
	}
	return uses;
}

static void emit_join_key(struct strbuf *sb, const struct prog *p, const struct pprobe *pr, const struct pjoin *j)
{
	char *obj;

	if (psaved_is_slot(&p->sets[j->set]))
		return;
	obj = xasprintf("%s_key.", j->local);
	sb_printf(sb, "\t__builtin_memset(&%s_key, 0, sizeof(%s_key));\n", j->local, j->local);
	emit_stores(sb, pr, &j->key, obj, "\t");
	free(obj);
}

static void emit_probe(struct strbuf *sb, const struct prog *p, const struct pprobe *pr)
{
	bool uses_raw = false, deletes = false;
	size_t start = sb->len, body;
	char ct[160];
	int i;

	leave = "return;";
	for (i = 0; i < pr->nr_joins; i++)
		deletes |= pr->joins[i].del;

	for (i = 0; i < pr->nr_vals; i++)
		uses_raw |= pr->vals[i].src == PV_RAW;
	sb_printf(sb, "\n/* %s */\n", pr->event);
	sb_printf(sb, "static __always_inline void %s(", pr->func);
	if (probe_reads_ctx(pr))
		sb_printf(sb, "%s *ctx%s", ctx_type(pr, ct, sizeof(ct)), pr->uses_time ? ", " : "");
	sb_puts(sb, pr->uses_time ? "__u64 *tpgen_clock)\n{\n" : probe_reads_ctx(pr) ? ")\n{\n" : "void)\n{\n");
	if (uses_raw)
		emit_raw_locals(sb, pr);
	for (i = 0; i < pr->nr_joins; i++) {
		const struct psaved *set = &p->sets[pr->joins[i].set];

		if (psaved_is_slot(set)) {
			sb_printf(sb, "\tstruct %s *%s = NULL;\n", set->val_struct, pr->joins[i].local);
			continue;
		}
		sb_printf(sb, "\tstruct %s %s_key;\n", set->key_struct, pr->joins[i].local);
		sb_printf(sb, "\tstruct %s *%s;\n", set->val_struct, pr->joins[i].local);
	}
	if (pr->uses_time)
		sb_puts(sb, "\t__u64 tpgen_now;\n");
	/* the event's stacks, taken by their first use (tpgen_stackid()) */
	if (pr->uses_kstack)
		sb_puts(sb, "\t__s64 tpgen_kstack = TPGEN_STACK_UNTAKEN;\n");
	if (pr->uses_ustack)
		sb_puts(sb, "\t__s64 tpgen_ustack = TPGEN_STACK_UNTAKEN;\n");
	for (i = 0; i < pr->nr_lets; i++)
		sb_printf(sb, "\t%s %s;\n", pvalue_ctype(&pr->lets[i].type), pr->lets[i].local);
	emit_filter_decls(sb, pr);
	if (sb->len < 2 || strcmp(sb->buf + sb->len - 2, "{\n"))
		sb_putc(sb, '\n');	/* a blank line after declarations, as kernel style has it */
	body = sb->len;
	emit_sysarg_test(sb, pr, leave);
	if (pr->task_filter)
		sb_puts(sb, "\tif (!tpgen_task_wanted(targ_tgid, targ_comm))\n\t\treturn;\n");
	emit_filter(sb, pr, FILTER_EVENT, leave);
	for (i = 0; i < pr->nr_joins; i++)
		if (!key_uses_joins(pr, &pr->joins[i]))
			emit_join_key(sb, p, pr, &pr->joins[i]);
	for (i = 0; i < pr->nr_joins; i++) {
		const struct pjoin *j = &pr->joins[i];

		/* a key of what an earlier join found: made once that one is found */
		if (key_uses_joins(pr, j))
			emit_join_key(sb, p, pr, j);
		if (p->sets[j->set].per_cpu) {
			sb_printf(sb, "\t%s = bpf_map_lookup_elem(&%s, &(__u32){ 0 });\n", j->local, p->sets[j->set].map);
			sb_printf(sb, "\tif (!%s || !%s->tpgen_saved)", j->local, j->local);
		} else if (p->sets[j->set].per_task) {
			sb_printf(sb, "\t%s = bpf_task_storage_get(&%s, %s, 0, 0);\n", j->local, p->sets[j->set].map,
				  key_task(pr, &j->key));
			sb_printf(sb, "\tif (!%s || !%s->tpgen_saved)", j->local, j->local);
		} else {
			sb_printf(sb, "\t%s = bpf_map_lookup_elem(&%s, &%s_key);\n", j->local, p->sets[j->set].map,
				  j->local);
			sb_printf(sb, "\tif (!%s)", j->local);
		}
		if (j->optional)
			emit_absent(sb, p, pr, j);
		else
			sb_printf(sb, "\n\t\t%s\n", leave);
		if (j->del)
			leave = "goto out;";
	}
	emit_refetch(sb, p, pr);
	if (pr->uses_time)
		emit_clock(sb, body, clock_users(p, pr) > 1);
	emit_value_strs(sb, pr);
	for (i = 0; i < pr->nr_lets; i++) {
		sb_printf(sb, "\t%s = ", pr->lets[i].local);
		emit_expr(sb, pr, pr->lets[i].expr);
		sb_puts(sb, ";\n");
	}
	emit_filter(sb, pr, FILTER_JOINED, leave);
	emit_saves(sb, p, pr);
	emit_aggs(sb, pr);
	emit_print(sb, p, pr);
	/* an entry that only ends what was saved has nothing to leave early */
	if (deletes && strstr(sb->buf + start, "goto out;"))
		sb_puts(sb, "out:\n");
	for (i = 0; i < pr->nr_joins; i++)
		if (pr->joins[i].del && psaved_is_slot(&p->sets[pr->joins[i].set]))
			sb_printf(sb, "\tif (%s)\n\t\t%s->tpgen_saved = 0;\n", pr->joins[i].local, pr->joins[i].local);
		else if (pr->joins[i].del)
			sb_printf(sb, "\tbpf_map_delete_elem(&%s, &%s_key);\n", p->sets[pr->joins[i].set].map,
				  pr->joins[i].local);
	sb_puts(sb, "}\n");
}

/* One program per tracepoint and attach type: its probes, in order. */
static void emit_program(struct strbuf *sb, const struct prog *p, int first)
{
	const struct pprobe *pr = &p->probes[first];
	bool reads_ctx = false;
	char ct[160];

	if (pr->attach == ATTACH_TRACEPOINT)
		sb_printf(sb, "\nSEC(\"tp/%s/%s\")\n", pr->ev->sys, pr->ev->name);
	else
		sb_printf(sb, "\nSEC(\"%s/%s\")\n", pr->attach == ATTACH_RAW_TP ? "raw_tp" : "tp_btf", pr->raw->name);
	for (int i = first; i < p->nr_probes; i++)
		reads_ctx |= !strcmp(p->probes[i].handler, pr->handler) && probe_reads_ctx(&p->probes[i]);
	sb_printf(sb, "int %s(%s *ctx)\n{\n", pr->handler, ctx_type(pr, ct, sizeof(ct)));
	/* the event's time: one clock for every entry and every use (emit_clock()) */
	if (clock_users(p, pr) > 1)
		sb_puts(sb, "\t__u64 tpgen_now = bpf_ktime_get_ns();\n\n");
	else if (clock_users(p, pr))
		sb_puts(sb, "\t__u64 tpgen_now = 0;\n\n");
	/* a record nothing reads: -Wextra -Werror builds must not fail on it */
	if (!reads_ctx)
		sb_puts(sb, "\t(void)ctx;\n");
	for (int i = first; i < p->nr_probes; i++) {
		const struct pprobe *q = &p->probes[i];

		if (strcmp(q->handler, pr->handler))
			continue;
		sb_printf(sb, "\t%s(%s%s%s);\n", q->func, probe_reads_ctx(q) ? "ctx" : "",
			  probe_reads_ctx(q) && q->uses_time ? ", " : "", q->uses_time ? "&tpgen_now" : "");
	}
	/*
	 * tp/: 0 would drop the event for every perf session on this tracepoint
	 * (perf_trace_run_bpf_submit()); 1 passes it on, and costs nothing when
	 * none listens. raw_tp and tp_btf ignore what is returned.
	 */
	sb_puts(sb, pr->attach == ATTACH_TRACEPOINT ? "\treturn 1;\n}\n" : "\treturn 0;\n}\n");
}

void emit_handlers(struct strbuf *sb, const struct prog *p)
{
	int i;

	for (i = 0; i < p->nr_probes; i++)
		emit_probe(sb, p, &p->probes[i]);
	for (i = 0; i < p->nr_probes; i++)
		if (p->probes[i].first_of_program)
			emit_program(sb, p, i);
}
