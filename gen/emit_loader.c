// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The loader's part of the pair: column headers and per-event print cases,
 * JSON lines, the summary of counts and histograms, the table of probes the
 * loader checks before loading, and its --help text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "prog.h"

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

static void printf_arg(struct strbuf *sb, const struct pvalue *v, const char *obj)
{
	if (v->kind == PV_PTR || (v->kind == PV_INT && v->size == 8))
		sb_printf(sb, ", (%s long long)%s%s", v->is_signed ? "" : "unsigned", obj, v->cname);
	else
		sb_printf(sb, ", %s%s", obj, v->cname);
}

static int col_width(const struct pvalue *v)
{
	int w = v->kind == PV_STR ? 16 : v->kind == PV_PTR ? 18 : 7;

	return (int)strlen(v->name) > w ? (int)strlen(v->name) : w;
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
			 const int *idx, int n, const char *sep)
{
	int j;

	for (j = 0; j < n; j++) {
		const struct pvalue *v = &vals[idx[j]];

		if (j == n - 1)
			sb_printf(fmt, "%s%%s", sep);
		else
			sb_printf(fmt, "%s%%%s%ds", sep, v->kind == PV_STR ? "-" : "", col_width(v));
		sb_puts(args, ", \"");
		upper_into(args, v->cname);
		sb_puts(args, "\"");
	}
}

/* JSON object members: ,"name":value ... */
static void emit_json_members(struct strbuf *sb, const struct pvalue *vals, const int *idx, int n,
			      const char *obj, const char *indent)
{
	for (int i = 0; i < n; i++) {
		const struct pvalue *v = &vals[idx[i]];

		if (v->kind == PV_STR) {
			sb_printf(sb, "%sprintf(\",\\\"%s\\\":\");\n", indent, v->cname);
			sb_printf(sb, "%sprint_json_str(%s%s);\n", indent, obj, v->cname);
		} else if (v->kind == PV_PTR) {
			sb_printf(sb, "%sprintf(\",\\\"%s\\\":\\\"0x%%llx\\\"\"", indent, v->cname);
			printf_arg(sb, v, obj);
			sb_puts(sb, ");\n");
		} else {
			sb_printf(sb, "%sprintf(\",\\\"%s\\\":%%%s\"", indent, v->cname, printf_conv(v));
			printf_arg(sb, v, obj);
			sb_puts(sb, ");\n");
		}
	}
}

void emit_header_and_cases(struct strbuf *hdr, struct strbuf *cases, const struct prog *p)
{
	const struct pprobe *only = NULL;
	int nprint = 0, evw = 5, i, j;

	for (i = 0; i < p->nr_probes; i++) {
		if (!p->probes[i].nr_print)
			continue;
		only = &p->probes[i];
		nprint++;
		if ((int)strlen(pprobe_event(only)) > evw)
			evw = strlen(pprobe_event(only));
	}
	if (nprint == 1) {
		struct strbuf fmt, args;

		sb_init(&fmt);
		sb_init(&args);
		sb_puts(&fmt, "%-8s");
		sb_puts(&args, ", \"TIME\"");
		emit_columns(&fmt, &args, only->vals, only->print, only->nr_print, " ");
		sb_printf(hdr, "printf(\"%s\\n\"%s);", fmt.buf, args.buf);
		sb_free(&fmt);
		sb_free(&args);
	} else {
		sb_printf(hdr, "printf(\"%%-8s %%-%ds %%s\\n\", \"TIME\", \"EVENT\", \"DETAILS\");", evw);
	}

	for (i = 0; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		if (!pr->nr_print)
			continue;
		sb_printf(cases, "case %s: {\n\tconst struct %s *e = data;\n\n", pr->type_enum, pr->rec_struct);
		sb_puts(cases, "\tif (env.json) {\n\t\tprintf(\"{\");\n\t\tprint_time();\n");
		sb_printf(cases, "\t\tprintf(\",\\\"event\\\":\\\"%s\\\"\");\n", pprobe_event(pr));
		emit_json_members(cases, pr->vals, pr->print, pr->nr_print, "e->", "\t\t");
		sb_puts(cases, "\t\tprintf(\"}\\n\");\n\t\tbreak;\n\t}\n\tprint_time();\n");
		/* text: columns when one event prints, name=value after the event's name otherwise */
		sb_puts(cases, "\tprintf(\"");
		if (nprint > 1)
			sb_printf(cases, "%%-%ds", evw);
		for (j = 0; j < pr->nr_print; j++) {
			const struct pvalue *v = &pr->vals[pr->print[j]];
			const char *conv = printf_conv(v);
			bool last = j == pr->nr_print - 1;

			if (nprint > 1)
				sb_printf(cases, " %s=%s%%%s", v->cname, v->kind == PV_PTR ? "0x" : "", conv);
			else if (last)
				sb_printf(cases, " %s%%%s", v->kind == PV_PTR ? "0x" : "", conv);
			else
				sb_printf(cases, " %s%%%s%d%s", v->kind == PV_PTR ? "0x" : "",
					  v->kind == PV_STR ? "-" : "",
					  col_width(v) - (v->kind == PV_PTR ? 2 : 0), conv);
		}
		sb_puts(cases, "\\n\"");
		if (nprint > 1)
			sb_printf(cases, ", \"%s\"", pprobe_event(pr));
		for (j = 0; j < pr->nr_print; j++)
			printf_arg(cases, &pr->vals[pr->print[j]], "e->");
		sb_puts(cases, ");\n\tbreak;\n}\n");
	}
}

void emit_summary(struct strbuf *sb, const struct prog *p)
{
	int i, j;
	bool first = true;

	for (i = 0; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		if (pr->nr_count) {
			struct strbuf title, fmt, args;

			sb_init(&title);
			sb_init(&fmt);
			sb_init(&args);
			sb_printf(&title, "%s: count by", pprobe_event(pr));
			sb_puts(&fmt, "%10s");
			sb_puts(&args, ", \"COUNT\"");
			for (j = 0; j < pr->nr_count; j++)
				sb_printf(&title, "%s %s", j ? "," : "", pr->vals[pr->count[j]].name);
			emit_columns(&fmt, &args, pr->vals, pr->count, pr->nr_count, "  ");
			if (!first)
				sb_putc(sb, '\n');
			first = false;
			sb_printf(sb, "{\t/* %s */\n", title.buf);
			sb_puts(sb, "\tstruct count_row *rows;\n\tchar *keys;\n\tint n, i;\n\n");
			sb_printf(sb, "\tn = read_counts(bpf_map__fd(skel->maps.%s_counts), sizeof(struct %s), "
				  "reset, &keys, &rows);\n", pr->pname, pr->key_struct);
			sb_printf(sb, "\tif (n > 0 && !env.json)\n\t\tprintf(\"\\n%s\\n%s\\n\"%s);\n", title.buf,
				  fmt.buf, args.buf);
			sb_puts(sb, "\tfor (i = 0; i < n; i++) {\n");
			sb_printf(sb, "\t\tconst struct %s *k = rows[i].key;\n\n", pr->key_struct);
			sb_puts(sb, "\t\tif (env.json) {\n");
			sb_printf(sb, "\t\t\tprintf(\"{\\\"counts\\\":\\\"%s\\\"\");\n", pprobe_event(pr));
			emit_json_members(sb, pr->vals, pr->count, pr->nr_count, "k->", "\t\t\t");
			sb_puts(sb, "\t\t\tprintf(\",\\\"count\\\":%llu}\\n\", (unsigned long long)rows[i].count);\n");
			sb_puts(sb, "\t\t\tcontinue;\n\t\t}\n");
			sb_puts(sb, "\t\tprintf(\"%10llu");
			for (j = 0; j < pr->nr_count; j++) {
				const struct pvalue *v = &pr->vals[pr->count[j]];

				if (j == pr->nr_count - 1)
					sb_printf(sb, "  %s%%%s", v->kind == PV_PTR ? "0x" : "", printf_conv(v));
				else
					sb_printf(sb, "  %s%%%s%d%s", v->kind == PV_PTR ? "0x" : "",
						  v->kind == PV_STR ? "-" : "",
						  col_width(v) - (v->kind == PV_PTR ? 2 : 0), printf_conv(v));
			}
			sb_puts(sb, "\\n\", (unsigned long long)rows[i].count");
			for (j = 0; j < pr->nr_count; j++)
				printf_arg(sb, &pr->vals[pr->count[j]], "k->");
			sb_puts(sb, ");\n\t}\n\tfree(keys);\n\tfree(rows);\n}\n");
			sb_free(&title);
			sb_free(&fmt);
			sb_free(&args);
		}
		if (pr->hist >= 0 || (pr->lat >= 0 && pr->lat_to)) {
			const struct spec_latency *lat = pr->lat >= 0 ? &p->spec->lats[pr->lat] : NULL;
			const char *arr = lat ? lat->name.s : pr->pname;

			if (!first)
				sb_putc(sb, '\n');
			first = false;
			if (lat)
				sb_printf(sb, "print_log2_hist(\"%s: %s -> %s\", skel->bss->%s_hist, TPGEN_MAX_SLOTS, "
					  "\"%s\");\n", lat->name.s, lat->from.event.s, lat->to.event.s, arr,
					  lat->unit.s);
			else
				sb_printf(sb, "print_log2_hist(\"%s: %s\", skel->bss->%s_hist, TPGEN_MAX_SLOTS, "
					  "\"%s\");\n", pprobe_event(pr), pr->vals[pr->hist].name, arr,
					  pr->vals[pr->hist].name);
			sb_printf(sb, "if (reset)\n\tmemset(skel->bss->%s_hist, 0, sizeof(skel->bss->%s_hist));\n",
				  arr, arr);
		}
	}
	if (p->any_print) {
		if (!first)
			sb_putc(sb, '\n');
		sb_puts(sb, "if (!reset && skel->bss->ringbuf_drops)\n"
			"\tfprintf(stderr, \"%llu records lost: the ring buffer was full\\n\",\n"
			"\t\t(unsigned long long)skel->bss->ringbuf_drops);\n");
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
			dup = !strcmp(pprobe_event(q), pprobe_event(pr)) &&
			      (q->attach == ATTACH_TRACEPOINT) == (pr->attach == ATTACH_TRACEPOINT);
		}
		if (dup)
			continue;
		if (pr->attach == ATTACH_TRACEPOINT)
			sb_printf(sb, "{ \"%s\", \"%s/%s\", NULL },\n", pprobe_event(pr), pr->ev->sys, pr->ev->name);
		else
			sb_printf(sb, "{ \"%s\", NULL, \"%s\" },\n", pprobe_event(pr), pr->raw->name);
		for (j = 0; j < i; j++)
			if (!strcmp(pprobe_event(&p->probes[j]), pprobe_event(pr)))
				break;
		if (j == i)
			sb_printf(what, "%s%s", what->len ? ", " : "", pprobe_event(pr));
	}
}

void emit_doc(struct strbuf *sb, const struct prog *p, const char *tool)
{
	struct strbuf d;
	const char *s, *e;

	sb_init(&d);
	sb_printf(&d, "%s: %s\n\n", tool, p->spec->description.s ? p->spec->description.s : "tracing");
	sb_printf(&d, "USAGE: %s [-d SECONDS] [-i SECONDS] [-p PID] [-c COMM] [-j] [-v]\n\n", tool);
	sb_puts(&d, "EXAMPLES:\n");
	sb_printf(&d, "    %s -d 5        # trace for 5 seconds, then print the summary\n", tool);
	sb_printf(&d, "    %s -i 1        # print (and reset) counts and histograms every second\n", tool);
	sb_printf(&d, "    %s -p 181      # only process 181\n", tool);
	sb_printf(&d, "    %s -c bash -j  # only tasks named bash, as JSON lines\n", tool);
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
	sb_free(&d);
}

/* ---- files ---------------------------------------------------------------- */
