// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The loader's part of the pair: column headers and per-event print cases,
 * JSON lines, the summary of counts and histograms, the table of probes the
 * loader checks before loading, and its --help text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cstring.h"
#include "model/decode.h"
#include "emit/emit_prog.h"

/* a kcaller column's width: "symbol+0xoff" */
#define CALLER_WIDTH	24

static const char *printf_conv(const struct pvalue *v)
{
	if (v->kind == PV_STR)
		return "s";
	if (v->kind == PV_PTR)
		return "llx";
	if (v->size == 8)
		return v->is_signed ? "lld" : "llu";
	return v->is_signed ? "d" : "u";
}

static void printf_arg(struct strbuf *sb, const struct pvalue *v, const char *obj, const char *cname)
{
	if (v->argv)	/* the strings, quoted as a shell reads them */
		sb_printf(sb, ", tpgen_argv_str(%s%s, sizeof(%s%s))", obj, cname, obj, cname);
	else if (v->kind == PV_PTR || (v->kind == PV_INT && v->size == 8))
		sb_printf(sb, ", (%s long long)%s%s", v->is_signed ? "" : "unsigned", obj, cname);
	else
		sb_printf(sb, ", %s%s", obj, cname);
}

/* A stack's frames go under the line; kcaller's one frame is a column. */
static bool under_line(const struct pvalue *vals, const struct pitem *it)
{
	return (vals[it->val].stack && !it->caller) || it->hidden;
}

/* usym()'s processes, members of records and keys that are no column */
static int nr_hidden(const struct pitems *items)
{
	int n = 0;

	for (int i = 0; i < items->nr; i++)
		n += items->v[i].hidden;
	return n;
}

/* kcaller's globs, a NULL-terminated array: (const char *const[]){ "_raw_spin_lock*", NULL } */
static void caller_skip(struct strbuf *sb, const struct pitem *it)
{
	sb_puts(sb, "(const char *const[]){ ");
	for (int i = 0; i < it->nr_skip; i++) {
		c_string(sb, it->skip[i]);
		sb_puts(sb, ", ");
	}
	sb_puts(sb, "NULL }");
}

static int col_width(const struct pvalue *v, const char *cname)
{
	int w = v->kind == PV_STR ? 16 : v->kind == PV_PTR ? 18 : 7;

	return (int)strlen(cname) > w ? (int)strlen(cname) : w;
}

static void upper_into(struct strbuf *sb, const char *s)
{
	for (; *s; s++)
		sb_putc(sb, (*s >= 'a' && *s <= 'z') ? *s - 'a' + 'A' : *s);
}

/*
 * Column headings: a printf format of fixed-width columns (the last one free)
 * after 'sep', and the upper-cased names as its arguments.
 */
static void emit_columns(struct strbuf *fmt, struct strbuf *args, const struct pvalue *vals,
			 const struct pitems *items, const char *sep)
{
	int j, n = items->nr;

	while (n > 0 && under_line(vals, &items->v[n - 1]))
		n--;	/* stacks go under the line */
	for (j = 0; j < n; j++) {
		const struct pvalue *v = &vals[items->v[j].val];
		const struct decode *dc = items->v[j].dec;

		if (under_line(vals, &items->v[j]))
			continue;
		if (j == n - 1)
			sb_printf(fmt, "%s%%s", sep);
		else if (items->v[j].caller)
			sb_printf(fmt, "%s%%-%ds", sep, CALLER_WIDTH > (int)strlen(items->v[j].name) ?
				  CALLER_WIDTH : (int)strlen(items->v[j].name));
		else if (dc && dc->kind != DECODE_NTOHS)
			sb_printf(fmt, "%s%%-%ds", sep, show_width(dc, items->v[j].name));
		else
			sb_printf(fmt, "%s%%%s%ds", sep, v->kind == PV_STR ? "-" : "",
				  col_width(v, items->v[j].name));
		sb_puts(args, ", \"");
		upper_into(args, items->v[j].name);
		sb_puts(args, "\"");
	}
}

/* JSON object members: ,"name":value ... */
static void emit_json_members(struct strbuf *sb, const struct prog *p, const struct pprobe *pr,
			      const char *obj, const char *indent)
{
	const struct pvalue *vals = pr->vals;
	const struct pitems *items = &pr->print;

	for (int i = 0; i < items->nr; i++) {
		const struct pvalue *v = &vals[items->v[i].val];
		const char *cname = items->v[i].cname, *name = items->v[i].name;

		if (items->v[i].hidden)
			continue;	/* usym()'s process */
		if (items->v[i].dec) {
			emit_show_json(sb, &items->v[i], v, obj, indent);
		} else if (items->v[i].caller) {
			sb_printf(sb, "%sprintf(\",\\\"%s\\\":\");\n%sprint_json_str(n_%s);\n", indent, name, indent,
				  cname);
		} else if (v->stack) {
			sb_printf(sb, "%sprintf(\",\\\"%s\\\":\");\n", indent, name);
			sb_printf(sb, "%sprint_stack_json(%s%s, %s, %d);\n", indent, obj, cname,
				  v->stack == STACK_USER ? "true" : "false", items->v[i].frames);
		} else if (v->kind == PV_STR) {
			sb_printf(sb, "%sprintf(\",\\\"%s\\\":\");\n", indent, name);
			if (v->argv)
				sb_printf(sb, "%sprint_json_str(tpgen_argv_str(%s%s, sizeof(%s%s)));\n", indent, obj,
					  cname, obj, cname);
			else
				sb_printf(sb, "%sprint_json_str(%s%s);\n", indent, obj, cname);
			if (pvalue_may_be_late(p, pr, v))	/* read at the exit: maybe not what the call used */
				sb_printf(sb, "%sif (%stpgen_late_%s)\n%s\tprintf(\",\\\"%s_late\\\":true\");\n",
					  indent, obj, cname, indent, name);
		} else if (v->kind == PV_PTR) {
			sb_printf(sb, "%sprintf(\",\\\"%s\\\":\\\"0x%%llx\\\"\"", indent, name);
			printf_arg(sb, v, obj, cname);
			sb_puts(sb, ");\n");
		} else {
			sb_printf(sb, "%sprintf(\",\\\"%s\\\":%%%s\"", indent, name, printf_conv(v));
			printf_arg(sb, v, obj, cname);
			sb_puts(sb, ");\n");
		}
	}
}

/* A string printed as text: escaped first (argv has its own shell quoting) */
static bool is_text(const struct pvalue *v, const struct decode *dc)
{
	return v->kind == PV_STR && !v->argv && !v->stack && !dc;
}

/* Room for each string's escaped text: \xNN is four bytes for one */
static void emit_text_locals(struct strbuf *sb, const struct pprobe *pr)
{
	for (int i = 0; i < pr->print.nr; i++) {
		const char *cname = pr->print.v[i].cname;

		if (is_text(&pr->vals[pr->print.v[i].val], pr->print.v[i].dec))
			sb_printf(sb, "\tchar t_%s[4 * sizeof(e->%s) + 1];\n", cname, cname);
	}
}

static void emit_text_calls(struct strbuf *sb, const struct pprobe *pr)
{
	for (int i = 0; i < pr->print.nr; i++) {
		const char *cname = pr->print.v[i].cname;

		if (is_text(&pr->vals[pr->print.v[i].val], pr->print.v[i].dec))
			sb_printf(sb, "\ttext_str(t_%s, sizeof(t_%s), e->%s, sizeof(e->%s), \"\");\n", cname, cname,
				  cname, cname);
	}
}

/* Whether the loader prints a string as text: a record's or a key's */
bool emit_needs_text(const struct prog *p)
{
	for (int i = 0; i < p->nr_probes; i++)
		for (int j = 0; j < p->probes[i].print.nr; j++)
			if (is_text(&p->probes[i].vals[p->probes[i].print.v[j].val], p->probes[i].print.v[j].dec))
				return true;
	return p->any_agg;
}

void emit_header_and_cases(struct strbuf *hdr, struct strbuf *cases, const struct prog *p)
{
	const struct pprobe *only = NULL;
	int nprint = 0, evw = 5, i, j, n;

	for (i = 0; i < p->nr_probes; i++) {
		if (!p->probes[i].print.nr)
			continue;
		only = &p->probes[i];
		nprint++;
		if ((int)strlen(only->event) > evw)
			evw = strlen(only->event);
	}
	if (nprint == 1) {
		struct strbuf fmt, args;

		sb_init(&fmt);
		sb_init(&args);
		sb_puts(&fmt, "%-8s");
		sb_puts(&args, ", \"TIME\"");
		emit_columns(&fmt, &args, only->vals, &only->print, " ");
		sb_printf(hdr, "printf(\"%s\\n\"%s);", fmt.buf, args.buf);
		sb_clear(&fmt);
		sb_clear(&args);
	} else {
		sb_printf(hdr, "printf(\"%%-8s %%-%ds %%s\\n\", \"TIME\", \"EVENT\", \"DETAILS\");", evw);
	}

	for (i = 0; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		if (!pr->print.nr)
			continue;
		sb_printf(cases, "case %s: {\n\tconst struct %s *e = data;\n", pr->type_enum, pr->rec_struct);
		emit_text_locals(cases, pr);
		emit_show_locals(cases, pr, &pr->print, "e->");
		sb_putc(cases, '\n');
		sb_puts(cases, "\tif (env.json) {\n\t\tprintf(\"{\");\n\t\tprint_time(e->hdr.ts_ns);\n");
		sb_printf(cases, "\t\tprintf(\",\\\"event\\\":\\\"%s\\\"\");\n", pr->event);
		emit_json_members(cases, p, pr, "e->", "\t\t");
		sb_puts(cases, "\t\tprintf(\"}\\n\");\n\t\tbreak;\n\t}\n\tprint_time(e->hdr.ts_ns);\n");
		emit_text_calls(cases, pr);
		/* text: columns when one event prints, name=value after the event's name otherwise */
		sb_puts(cases, "\tprintf(\"");
		if (nprint > 1)
			sb_printf(cases, " %%-%ds", evw);
		for (n = pr->print.nr; n > 0 && under_line(pr->vals, &pr->print.v[n - 1]); n--)
			;	/* stacks go under the line */
		for (j = 0; j < n; j++) {
			const struct pvalue *v = &pr->vals[pr->print.v[j].val];
			const char *conv = printf_conv(v), *name = pr->print.v[j].name;
			const struct decode *dc = pr->print.v[j].dec;
			bool last = j == n - 1;

			if (under_line(pr->vals, &pr->print.v[j]))
				continue;
			if (pr->print.v[j].caller && nprint > 1)
				sb_printf(cases, " %s=%%s", name);
			else if (pr->print.v[j].caller && last)
				sb_puts(cases, " %s");
			else if (pr->print.v[j].caller)
				sb_printf(cases, " %%-%ds", CALLER_WIDTH > (int)strlen(name) ? CALLER_WIDTH :
					  (int)strlen(name));
			else if (dc && nprint > 1)
				sb_printf(cases, " %s=%%s", name);
			else if (dc && last)
				sb_puts(cases, " %s");
			else if (dc)
				sb_printf(cases, dc->kind == DECODE_NTOHS ? " %%%ds" : " %%-%ds",
					  dc->kind == DECODE_NTOHS ? col_width(v, name) : show_width(dc, name));
			else if (nprint > 1)
				sb_printf(cases, " %s=%s%%%s", name, v->kind == PV_PTR ? "0x" : "", conv);
			else if (last)
				sb_printf(cases, " %s%%%s", v->kind == PV_PTR ? "0x" : "", conv);
			else
				sb_printf(cases, " %s%%%s%d%s", v->kind == PV_PTR ? "0x" : "",
					  v->kind == PV_STR ? "-" : "",
					  col_width(v, name) - (v->kind == PV_PTR ? 2 : 0), conv);
			if (!dc && pvalue_may_be_late(p, pr, v))
				sb_puts(cases, "%s");	/* "?": read at the exit */
		}
		sb_puts(cases, "\\n\"");
		if (nprint > 1)
			sb_printf(cases, ", \"%s\"", pr->event);
		for (j = 0; j < pr->print.nr; j++) {
			if (under_line(pr->vals, &pr->print.v[j]))
				continue;
			if (pr->print.v[j].dec || pr->print.v[j].caller)
				sb_printf(cases, ", n_%s", pr->print.v[j].cname);
			else if (is_text(&pr->vals[pr->print.v[j].val], pr->print.v[j].dec))
				sb_printf(cases, ", t_%s", pr->print.v[j].cname);
			else
				printf_arg(cases, &pr->vals[pr->print.v[j].val], "e->", pr->print.v[j].cname);
			if (!pr->print.v[j].dec && pvalue_may_be_late(p, pr, &pr->vals[pr->print.v[j].val]))
				sb_printf(cases, ", e->tpgen_late_%s ? \"?\" : \"\"", pr->print.v[j].cname);
		}
		sb_puts(cases, ");\n");
		for (j = 0; j < pr->print.nr; j++) {
			const struct pvalue *v = &pr->vals[pr->print.v[j].val];

			if (under_line(pr->vals, &pr->print.v[j]) && !pr->print.v[j].hidden)	/* its frames, under the line */
				sb_printf(cases, "\tprint_stack(e->%s, %s, %d, \"        \", false);\n",
					  pr->print.v[j].cname, v->stack == STACK_USER ? "true" : "false",
					  pr->print.v[j].frames);
		}
		sb_puts(cases, "\tbreak;\n}\n");
	}
}

static const char *col_kind(const struct pvalue *v)
{
	if (v->stack)
		return v->stack == STACK_KERNEL ? "COL_KSTACK" : "COL_USTACK";
	return v->kind == PV_STR ? "COL_STR" : v->kind == PV_PTR ? "COL_PTR" : v->kind == PV_BYTES ? "COL_BYTES" :
	       v->is_signed ? "COL_S" : "COL_U";
}

/*
 * The loader's side of model/aggfns.h: the enum of the functions, the
 * offsets of the members they keep (in struct agg), and their columns:
 * headings, and each one's value in a row, to sort by and to print.
 */
void emit_agg_fns(struct strbuf *decl, struct strbuf *offsets, struct strbuf *cols)
{
	const char *sep = "";
	int f, g;

	sb_puts(decl, "enum {\n");
	for (f = 0; f < AGG_NR_FNS; f++) {
		sb_puts(decl, "\tAGG_");
		upper_into(decl, agg_fns[f].name);
		sb_printf(decl, " = 0x%x,\n", 1u << f);
	}
	sb_puts(decl, "};");

	sb_puts(offsets, "unsigned int ");
	for (f = 0; f < AGG_NR_FNS; f++) {
		for (g = 0; g < f && agg_fns[f].member; g++)
			if (agg_fns[g].member && !strcmp(agg_fns[g].member, agg_fns[f].member))
				break;
		if (agg_fns[f].member && g == f) {
			sb_printf(offsets, "%soff_%s", sep, agg_fns[f].member);
			sep = ", ";
		}
	}
	sb_putc(offsets, ';');

	sb_puts(cols, "/* the columns of a table, in order */\n"
		"static const struct agg_col {\n\tunsigned int fn;\n\tconst char *heading;\n"
		"\tconst char *json;\n} agg_cols[] = {\n");
	for (f = 0; f < AGG_NR_FNS; f++) {
		if (!agg_fns[f].heading)
			continue;
		sb_puts(cols, "\t{ AGG_");
		upper_into(cols, agg_fns[f].name);
		sb_printf(cols, ", \"%s\", \"%s\" },\n", agg_fns[f].heading, agg_fns[f].name);
	}
	sb_puts(cols, "};\n\n/* a function's value in a row (val: the map's value) */\n"
		"static double fn_value(const struct agg *a, const char *val, unsigned int fn)\n{\n"
		"\tswitch (fn) {\n");
	for (f = 0; f < AGG_NR_FNS; f++) {
		if (!agg_fns[f].heading)
			continue;
		sb_puts(cols, "\tcase AGG_");
		upper_into(cols, agg_fns[f].name);
		sb_puts(cols, ":\n\t\treturn ");
		if (agg_fns[f].loader) {
			sb_puts(cols, agg_fns[f].loader);
		} else {
			sb_printf(cols, "agg_num(a, val, a->off_%s, AGG_", agg_fns[f].member);
			upper_into(cols, agg_fns[f].name);
			sb_putc(cols, ')');
		}
		sb_puts(cols, ";\n");
	}
	sb_puts(cols, "\tdefault:\n\t\treturn 0;\n\t}\n}\n\n"
		"/* a function's value in a row, printed as a number of its column */\n"
		"static void print_fn(const struct agg *a, const char *val, unsigned int fn)\n{\n"
		"\tswitch (fn) {\n");
	for (f = 0; f < AGG_NR_FNS; f++) {
		if (!agg_fns[f].heading)
			continue;
		sb_puts(cols, "\tcase AGG_");
		upper_into(cols, agg_fns[f].name);
		sb_puts(cols, ":\n\t\t");
		if (agg_fns[f].loader) {
			sb_printf(cols, "printf(env.json ? \"%s\" : \"%s\", fn_value(a, val, fn));\n",
				  agg_fns[f].json, agg_fns[f].text);
		} else {
			sb_printf(cols, "print_int(a, val, a->off_%s, fn);\n", agg_fns[f].member);
		}
		sb_puts(cols, "\t\tbreak;\n");
	}
	sb_puts(cols, "\t}\n}");
}

/* "AGG_HIST | AGG_LHIST" */
static void agg_mask(struct strbuf *sb, unsigned int mask)
{
	const char *sep = "";

	for (int f = 0; f < AGG_NR_FNS; f++) {
		if (!(mask & (1u << f)))
			continue;
		sb_printf(sb, "%sAGG_", sep);
		upper_into(sb, agg_fns[f].name);
		sep = " | ";
	}
}

/*
 * The loader's agg_merge(), from model/aggfns.h: a row's value made part of
 * another's, each member as its function says (count and sums added, min
 * and max the least and most, histograms' slots added), each member once.
 */
void emit_agg_merge(struct strbuf *sb)
{
	sb_puts(sb, "/* the value of a row made part of another's (keys shown alike) */\n"
		"static void agg_merge(const struct agg *a, char *dst, const char *src)\n{\n"
		"\t__u64 x, y;\n\n");
	for (int f = 0; f < AGG_NR_FNS; f++) {
		const struct agg_fn_desc *d = &agg_fns[f];
		unsigned int mask = 0;
		const char *off = "";
		int g;

		if (!d->member)
			continue;
		for (g = 0; g < f; g++)
			if (agg_fns[g].member && !strcmp(agg_fns[g].member, d->member))
				break;
		if (g < f)
			continue;	/* a member of an earlier function's */
		for (g = f; g < AGG_NR_FNS; g++)
			if (agg_fns[g].member && !strcmp(agg_fns[g].member, d->member))
				mask |= 1u << g;
		sb_puts(sb, "\tif (a->fns & (");
		agg_mask(sb, mask);
		sb_printf(sb, ")) {\t/* %s */\n", d->member);
		if (d->type == AGG_M_SLOTS) {
			sb_printf(sb, "\t\tfor (unsigned int i = 0; i < a->nslots; i++) {\n");
			off = " + i * 8";
		}
		sb_printf(sb, "%s\tx = val_u64(dst, a->off_%s%s);\n%s\ty = val_u64(src, a->off_%s%s);\n",
			  *off ? "\t\t" : "\t", d->member, off, *off ? "\t\t" : "\t", d->member, off);
		switch (d->merge) {
		case AGG_MERGE_MIN:
		case AGG_MERGE_MAX:
			sb_puts(sb, "\t\tif (a->is_signed & (");
			agg_mask(sb, mask);
			sb_printf(sb, ") ? (__s64)y %s (__s64)x : y %s x)\n"
				  "\t\t\tmemcpy(dst + a->off_%s, &y, 8);\n",
				  d->merge == AGG_MERGE_MIN ? "<" : ">", d->merge == AGG_MERGE_MIN ? "<" : ">",
				  d->member);
			break;
		default:
			sb_printf(sb, "%s\tx += y;\n%s\tmemcpy(dst + a->off_%s%s, &x, 8);\n",
				  *off ? "\t\t" : "\t", *off ? "\t\t" : "\t", d->member, off);
			break;
		}
		if (*off)
			sb_puts(sb, "\t\t}\n");
		sb_puts(sb, "\t}\n");
	}
	sb_puts(sb, "}");
}

/* "AGG_MAX_AT" */
static void agg_const(struct strbuf *sb, unsigned int bit)
{
	for (int f = 0; f < AGG_NR_FNS; f++)
		if (bit == 1u << f) {
			sb_puts(sb, "AGG_");
			upper_into(sb, agg_fns[f].name);
			return;
		}
	sb_putc(sb, '0');
}

/* a derived column's expression in doubles: the row's columns, divisions by 0 give 0 */
static void derive_expr(struct strbuf *sb, const struct expr *e)
{
	switch (e->op) {
	case EX_NUM:
		sb_puts(sb, e->text);
		break;
	case EX_REF:
		if (e->ref >= 0) {
			sb_printf(sb, "xcol_value(a, &a->xcols[%d], val)", e->ref);
		} else {
			sb_puts(sb, "fn_value(a, val, ");
			agg_const(sb, 1u << (-1 - e->ref));
			sb_putc(sb, ')');
		}
		break;
	case EX_NEG:
	case EX_POS:
		sb_puts(sb, e->op == EX_NEG ? "-(" : "+(");
		derive_expr(sb, e->a);
		sb_putc(sb, ')');
		break;
	case EX_DIV:
		sb_puts(sb, "derive_div(");
		derive_expr(sb, e->a);
		sb_puts(sb, ", ");
		derive_expr(sb, e->b);
		sb_putc(sb, ')');
		break;
	default:	/* + - * (model/actions.c allows no more) */
		sb_putc(sb, '(');
		derive_expr(sb, e->a);
		sb_printf(sb, " %s ", e->op == EX_ADD ? "+" : e->op == EX_SUB ? "-" : "*");
		derive_expr(sb, e->b);
		sb_putc(sb, ')');
		break;
	}
}

/* The loader's function of each derived column: its prototype (before aggs[]), its body (after fn_value()). */
void emit_derived(struct strbuf *decls, struct strbuf *defs, const struct prog *p)
{
	for (int i = 0; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		for (int k = 0; k < pr->nr_aggs; k++) {
			const struct pagg *a = &pr->aggs[k];

			if (a->feeder)
				continue;
			for (int j = 0; j < a->nr_cols; j++) {
				const struct pcol *c = &a->cols[j];

				if (c->kind != PCOL_DERIVED)
					continue;
				sb_printf(decls, "%sstatic double %s(const struct agg *a, const char *val);",
					  decls->len ? "\n" : "", c->derive_fn);
				sb_printf(defs, "%s/* ", defs->len ? "\n\n" : "");
				c_comment_text(defs, a->title);
				sb_printf(defs, ": %s = ", c->name);
				c_comment_text(defs, c->sc->val.s);
				sb_printf(defs, " */\nstatic double %s(const struct agg *a, const char *val)\n{\n"
					  "\treturn ", c->derive_fn);
				derive_expr(defs, c->expr);
				sb_puts(defs, ";\n}");
			}
		}
	}
}

/* An aggregation's named and derived columns (struct xcol), and what sorts it. */
static void emit_xcols(struct strbuf *sb, const struct pagg *a)
{
	unsigned int hidden = 0;

	if (!a->nr_cols)
		return;
	sb_puts(sb, "\t\t.xcols = (const struct xcol[]){\n");
	for (int j = 0; j < a->nr_cols; j++) {
		const struct pcol *c = &a->cols[j];
		static const char *const kinds[] = {
			[PCOL_COUNT] = "XCOL_COUNT", [PCOL_SUM] = "XCOL_SUM", [PCOL_AT] = "XCOL_AT",
			[PCOL_DERIVED] = "XCOL_DERIVED",
		};

		hidden |= c->fn;
		sb_puts(sb, "\t\t\t{ \"");
		upper_into(sb, c->name);
		sb_printf(sb, "\", \"%s\", ", c->name);
		agg_const(sb, c->after);
		sb_puts(sb, ", ");
		agg_const(sb, c->fn);
		sb_printf(sb, ", %s", kinds[c->kind]);
		if (c->kind == PCOL_DERIVED) {
			sb_printf(sb, ", .derive = %s, .decimals = %d", c->derive_fn, c->sc->decimals);
			if (c->sc->percent)
				sb_puts(sb, ", .percent = true");
		} else {
			const char *m = c->cname ? c->cname : c->fn == AGG_COUNT ? "count" :
					c->fn == AGG_SUM ? "sum" : "max_at";

			sb_printf(sb, ", .off = offsetof(struct %s, %s)", a->val_struct, m);
			if (c->is_signed || (c->fn && (a->is_signed & c->fn)))
				sb_puts(sb, ", .is_signed = true");
		}
		sb_puts(sb, " },\n");
	}
	sb_printf(sb, "\t\t},\n\t\t.nr_xcols = %d,\n", a->nr_cols);
	if (hidden)
		sb_printf(sb, "\t\t.hidden = %#x,\n", hidden);
	if (a->sort_col)
		sb_printf(sb, "\t\t.sort_xcol = %d,\n", a->sort_col);
}

/* The loader's description of each aggregation: print_agg() reads it. */
void emit_aggs_table(struct strbuf *sb, struct strbuf *setup, const struct prog *p)
{
	int n = 0;

	for (int i = 0; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		for (int k = 0; k < pr->nr_aggs; k++) {
			const struct pagg *a = &pr->aggs[k];
			char *key;

			if (a->feeder)
				continue;	/* an earlier aggregate's table, printed there */
			key = a->key_struct ? xasprintf("struct %s", a->key_struct) : xstrdup("__u32");
			sb_puts(sb, "\t{\n\t\t.title = ");
			c_string(sb, a->title);
			sb_printf(sb, ",\n\t\t.json = \"%s\",\n\t\t.json_name = ", a->json);
			c_string(sb, a->json_name);
			sb_puts(sb, ",\n\t\t.unit = ");
			c_string(sb, a->unit);
			sb_printf(sb, ",\n\t\t.key_size = sizeof(%s),\n\t\t.val_size = sizeof(struct %s),\n", key,
				  a->val_struct);
			if (a->keys.nr) {
				sb_puts(sb, "\t\t.keys = (const struct col[]){\n");
				for (int j = 0; j < a->keys.nr; j++) {
					const struct pvalue *v = &pr->vals[a->keys.v[j].val];

					if (a->keys.v[j].hidden)
						continue;	/* usym()'s process: read through .pid_off */
					sb_puts(sb, "\t\t\t{ \"");
					upper_into(sb, a->keys.v[j].name);
					sb_printf(sb, "\", \"%s\", offsetof(%s, %s), sizeof(((%s *)0)->%s), %s",
						  a->keys.v[j].name, key, a->keys.v[j].cname, key, a->keys.v[j].cname,
						  col_kind(v));
					if (a->keys.v[j].dec)
						sb_printf(sb, ", &%s, %d", a->keys.v[j].dec->ident,
							  a->keys.v[j].dec->kind == DECODE_NTOHS ? 0 :
							  show_width(a->keys.v[j].dec, a->keys.v[j].name));
					else if (p->any_names)
						sb_puts(sb, ", NULL, 0");
					if (p->any_stack)	/* designated: the members after it need none */
						sb_printf(sb, ", .frames = %d", a->keys.v[j].frames);
					if (a->keys.v[j].caller) {
						sb_puts(sb, ", .caller = ");
						caller_skip(sb, &a->keys.v[j]);
					}
					if (a->keys.v[j].dec && a->keys.v[j].dec->kind == DECODE_USYM)
						sb_printf(sb, ", .pid_off = offsetof(%s, %s)", key, a->keys.v[j + 1].cname);
					sb_puts(sb, " },\n");
				}
				sb_printf(sb, "\t\t},\n\t\t.nr_keys = %d,\n", a->keys.nr - nr_hidden(&a->keys));
			}
			sb_printf(sb, "\t\t.fns = 0x%x,\n", a->fns);
			for (int f = 0; f < AGG_NR_FNS; f++)
				if ((a->fns & (1u << f)) && agg_fns[f].member)
					sb_printf(sb, "\t\t.off_%s = offsetof(struct %s, %s),\n", agg_fns[f].member,
						  a->val_struct, agg_fns[f].member);
			sb_printf(sb, "\t\t.is_signed = %#x,\n", a->is_signed);
			if (a->fns & (AGG_HIST | AGG_LHIST))
				sb_printf(sb, "\t\t.nslots = %u,\n", a->nslots);
			if (a->fns & AGG_LHIST)
				sb_printf(sb, "\t\t.lmin = %lldLL,\n\t\t.lstep = %lldLL,\n", a->lmin, a->lstep);
			sb_printf(sb, "\t\t.sort = 0x%x,\n\t\t.top = %d,\n", a->sort, a->top);
			if (a->running)
				sb_puts(sb, "\t\t.running = true,\n");
			if (a->rows)
				sb_printf(sb, "\t\t.nrows = %u,\n", a->rows);
			emit_xcols(sb, a);
			sb_puts(sb, "\t},\n");
			if (a->global)
				sb_printf(setup, "aggs[%d].mem = &skel->bss->%s;\n", n, a->map);
			else
				sb_printf(setup, "aggs[%d].fd = bpf_map__fd(skel->maps.%s);\n", n, a->map);
			if (a->rows)
				sb_printf(setup, "aggs[%d].mem = skel->bss->%s;\n", n, a->rows_ident);
			free(key);
			n++;
		}
	}
	if (sb->len && sb->buf[sb->len - 1] == '\n')
		sb->buf[--sb->len] = '\0';
	if (setup->len && setup->buf[setup->len - 1] == '\n')
		setup->buf[--setup->len] = '\0';
}

void emit_summary(struct strbuf *sb, const struct prog *p)
{
	/* print_summary(skel, reset) of a tool with -i; print_summary(skel), once, of one without */
	const char *at_exit = p->any_agg ? "!reset && " : "";
	bool first = true;

	if (p->any_agg)
		sb_puts(sb, "for (size_t i = 0; i < sizeof(aggs) / sizeof(aggs[0]); i++)\n\tprint_agg(&aggs[i], reset);\n");
	if (p->any_print) {
		if (!first || p->any_agg)
			sb_putc(sb, '\n');
		first = false;
		sb_printf(sb, "if (%sskel->bss->ringbuf_drops)\n"
			"\tfprintf(stderr, \"%%llu records lost: the ring buffer was full (--ringbuf-size makes it bigger)\\n\",\n"
			"\t\t(unsigned long long)skel->bss->ringbuf_drops);\n", at_exit);
	}
	if (p->any_agg || p->nr_sets) {
		if (!first || p->any_agg)
			sb_putc(sb, '\n');
		sb_printf(sb, "if (%sskel->bss->tpgen_lost)\n"
			"\tfprintf(stderr, \"%%llu updates lost: a map was full (%%d keys)\\n\",\n"
			"\t\t(unsigned long long)skel->bss->tpgen_lost, TPGEN_MAP_ENTRIES);\n", at_exit);
	}
	if (p->any_stack) {
		if (!first || p->any_agg || p->nr_sets)
			sb_putc(sb, '\n');
		first = false;
		sb_printf(sb, "if (%sskel->bss->tpgen_stacks_lost)\n"
			"\tfprintf(stderr, \"%%llu stacks lost: the stack map kept another in their place \"\n"
			"\t\t\"(--stack-storage-size makes it bigger)\\n\",\n"
			"\t\t(unsigned long long)skel->bss->tpgen_stacks_lost);\n", at_exit);
	}
	if (!first || p->any_agg || p->nr_sets)
		sb_putc(sb, '\n');
	sb_printf(sb, "if (%snested_misses(skel->obj))\n"
		"\tfprintf(stderr, \"%%llu events missed: another BPF program was running on their CPU\\n\",\n"
		"\t\tnested_misses(skel->obj));\n", at_exit);
}

/*
 * Every record field the program reads at a fixed offset, where this build
 * reads it: the loader checks them. CO-RE reads (events with a class struct
 * or syscall_trace_enter/exit) are libbpf's to relocate: they may differ.
 */
void emit_layout(struct strbuf *sb, const struct prog *p)
{
	for (int i = 0; i < p->evs->nr; i++) {
		const struct tp_event *ev = &p->evs->ev[i];

		if (!p->ctx_sel[i] || ev->core_class || ev->core_sys)
			continue;
		for (int f = 0; f < ev->nr_fields; f++) {
			const struct tp_field *fd = &ev->fields[f];
			bool used = false;

			for (int k = 0; k < p->nr_probes && !used; k++) {
				const struct pprobe *pr = &p->probes[k];

				if (pr->attach != ATTACH_TRACEPOINT || pr->ev != ev)
					continue;
				for (int v = 0; v < pr->nr_vals && !used; v++)
					used = (pr->vals[v].src == PV_CTX || pr->vals[v].src == PV_USTR ||
						pr->vals[v].src == PV_RAW || pr->vals[v].src == PV_UARGV) &&
					       pr->vals[v].field == fd;
			}
			if (used)
				sb_printf(sb, "%s{ \"%s/%s\", \"%s\", %u, %u, %s },", sb->len ? "\n" : "", ev->sys,
					  ev->name, fd->name, fd->offset, fd->size, fd->is_signed ? "true" : "false");
		}
	}
}

void emit_probes_table(struct strbuf *sb, struct strbuf *what, const struct prog *p)
{
	int i, j;

	for (i = 0; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i], *q;
		bool dup = false;

		for (j = 0; j < i && !dup; j++) {
			q = &p->probes[j];
			dup = !strcmp(q->event, pr->event) &&
			      (q->attach == ATTACH_TRACEPOINT) == (pr->attach == ATTACH_TRACEPOINT);
		}
		if (dup)
			continue;
		if (pr->attach == ATTACH_TRACEPOINT)
			sb_printf(sb, "{ \"%s\", \"%s/%s\", NULL, NULL },\n", pr->event, pr->ev->sys,
				  pr->ev->name);
		else if (pr->raw->module)
			sb_printf(sb, "{ \"%s\", NULL, \"%s\", \"%s\" },\n", pr->event, pr->raw->name,
				  pr->raw->module);
		else
			sb_printf(sb, "{ \"%s\", NULL, \"%s\", NULL },\n", pr->event, pr->raw->name);
		for (j = 0; j < i; j++)
			if (!strcmp(p->probes[j].event, pr->event))
				break;
		if (j == i)
			sb_printf(what, "%s%s", what->len ? ", " : "", pr->event);
	}
}

void emit_doc(struct strbuf *sb, const struct prog *p, const char *tool)
{
	struct strbuf d, popts, pargs;
	const char *s, *e;

	sb_init(&d);
	sb_init(&popts);
	sb_init(&pargs);
	emit_param_usage(&popts, &pargs, p);
	sb_printf(&d, "%s: %s\n\n", tool, p->description ? p->description : "tracing");
	sb_printf(&d, "USAGE: %s [-d SECONDS]%s%s%s%s%s [-j] [-v]%s%s\n\n", tool, p->any_agg ? " [-i SECONDS]" : "",
		  p->pid_opt ? " [-p PID]" : "", p->comm_opt ? " [-c COMM]" : "", popts.buf ? popts.buf : "",
		  p->any_agg ? " [-T]" : "", pargs.buf ? pargs.buf : "", p->any_agg ? " [interval] [count]" : "");
	sb_puts(&d, "EXAMPLES:\n");
	if (p->any_agg) {	/* a summary (counts, aggregations, latency pairs): -i, -T */
		sb_printf(&d, "    %s -d 5        # trace for 5 seconds, then print the summary\n", tool);
		sb_printf(&d, "    %s -i 1        # print (and reset) counts and histograms every second\n", tool);
		sb_printf(&d, "    %s -T 1 5      # every second, with the time, 5 times\n", tool);
	} else {
		sb_printf(&d, "    %s -d 5        # trace for 5 seconds\n", tool);
	}
	if (p->pid_opt)
		sb_printf(&d, "    %s -p 181      # only process 181\n", tool);
	if (p->comm_opt)
		sb_printf(&d, "    %s -c bash -j  # only tasks named bash, as JSON lines\n", tool);
	sb_clear(&popts);
	sb_clear(&pargs);
	for (s = d.buf; *s; s = e + 1) {
		char *line;

		e = strchr(s, '\n');
		line = xasprintf("%.*s\n", (int)(e - s), s);
		sb_putc(sb, '\t');
		c_string(sb, line);
		if (e[1])
			sb_putc(sb, '\n');
		free(line);
	}
	sb_clear(&d);
}

/* ---- files ---------------------------------------------------------------- */
