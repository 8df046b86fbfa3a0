// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The pair's files: the model (gen/prog.c) printed into template variables,
 * the templates rendered with them. Templates look like their output; the
 * code here only makes the parts that vary with the spec.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "prog.h"

/* Strings of no fixed size: bytes kept in records and in count keys. */
#define RECORD_STR_MAX	256
#define KEY_STR_MAX	64

/* ---- C pieces ------------------------------------------------------------ */

static const char *int_type(const struct pvalue *v)
{
	static const char *const s[] = { "__s8", "__s16", "__s32", "__s64" };
	static const char *const u[] = { "__u8", "__u16", "__u32", "__u64" };
	int i = v->size == 1 ? 0 : v->size == 2 ? 1 : v->size <= 4 ? 2 : 3;

	if (v->kind == PV_PTR)
		return "__u64";
	return v->is_signed ? s[i] : u[i];
}

/* A member of a record or key: "__s32 pid;", "char comm[16];" */
static void emit_member(struct strbuf *sb, const struct pvalue *v, unsigned int str_max)
{
	if (v->kind == PV_STR)
		sb_printf(sb, "\tchar %s[%u];\n", v->cname, v->size ? v->size : str_max);
	else
		sb_printf(sb, "\t%s %s;\n", int_type(v), v->cname);
}

static void emit_int(struct strbuf *sb, const struct pvalue *v)
{
	if (v->kind == PV_PTR)
		sb_puts(sb, "(__u64)");
	switch (v->src) {
	case PV_CTX:
		sb_printf(sb, "ctx->%s", v->field->cname);
		break;
	case PV_RAW:
		if (v->path && v->btf_direct) {
			const char *p;

			/* "mm, owner" -> p->mm->owner: a plain load in tp_btf, no helper call */
			sb_printf(sb, "%s->", v->arg_local);
			for (p = v->path; *p; p++) {
				if (p[0] == ',' && p[1] == ' ') {
					sb_puts(sb, "->");
					p++;
				} else {
					sb_putc(sb, *p);
				}
			}
		} else if (v->path) {
			sb_printf(sb, "BPF_CORE_READ(%s, %s)", v->arg_local, v->path);
		} else {
			sb_printf(sb, "args->%s", v->arg);
		}
		break;
	case PV_CPU:
		sb_puts(sb, "bpf_get_smp_processor_id()");
		break;
	case PV_TID:
		sb_puts(sb, "(__s32)bpf_get_current_pid_tgid()");
		break;
	case PV_COMM:
		break;
	}
}

/* Copy the string 'v' into the char array 'dst' (an lvalue), NUL-terminated. */
static void emit_read_str(struct strbuf *sb, const struct pprobe *pr, const struct pvalue *v,
			  const char *dst)
{
	switch (v->src) {
	case PV_CTX:
		if (v->field->kind == FIELD_ARRAY)
			sb_printf(sb, "\tbpf_probe_read_kernel_str(%s, sizeof(%s), ctx->%s);\n", dst, dst,
				  v->field->cname);
		else
			sb_printf(sb, "\t%s__read_%s(ctx, %s, sizeof(%s));\n", pr->ev->struct_name,
				  v->field->cname, dst, dst);
		break;
	case PV_RAW:
		if (!v->str_ptr)
			sb_printf(sb, "\tBPF_CORE_READ_STR_INTO(&%s, %s, %s);\n", dst, v->arg_local, v->path);
		else if (v->path)
			sb_printf(sb, "\tbpf_probe_read_kernel_str(%s, sizeof(%s), BPF_CORE_READ(%s, %s));\n",
				  dst, dst, v->arg_local, v->path);
		else
			sb_printf(sb, "\tbpf_probe_read_kernel_str(%s, sizeof(%s), args->%s);\n", dst, dst, v->arg);
		break;
	case PV_COMM:
		sb_printf(sb, "\tbpf_get_current_comm(%s, sizeof(%s));\n", dst, dst);
		break;
	case PV_CPU:
	case PV_TID:
		break;
	}
}

/* "lvalue = value;" for a member of a record or key */
static void emit_store(struct strbuf *sb, const struct pprobe *pr, const struct pvalue *v, const char *obj)
{
	char *dst = xasprintf("%s%s", obj, v->cname);

	if (v->kind == PV_STR) {
		emit_read_str(sb, pr, v, dst);
	} else {
		sb_printf(sb, "\t%s = ", dst);
		emit_int(sb, v);
		sb_puts(sb, ";\n");
	}
	free(dst);
}

static void fop_value(void *ctx, struct strbuf *sb, int ref)
{
	const struct pprobe *pr = ctx;

	emit_int(sb, &pr->vals[ref]);
}

static void fop_string(void *ctx, struct strbuf *sb, int ref)
{
	const struct pprobe *pr = ctx;

	sb_printf(sb, "buf_%s", pr->vals[ref].cname);
}

static const struct filter_emit_ops fops = { .value = fop_value, .string = fop_string };

const char *pprobe_event(const struct pprobe *pr)
{
	return pr->sp->event.s;
}

static void emit_section(struct strbuf *sb, const struct pprobe *pr)
{
	bool uses_ctx = false;

	for (int i = 0; i < pr->nr_vals; i++)
		uses_ctx |= pr->vals[i].src == PV_CTX || pr->vals[i].src == PV_RAW;
	switch (pr->attach) {
	case ATTACH_TRACEPOINT:
		sb_printf(sb, "SEC(\"tp/%s/%s\")\n", pr->ev->sys, pr->ev->name);
		if (uses_ctx)
			sb_printf(sb, "int %s(struct %s *ctx)\n{\n", pr->handler, pr->ev->struct_name);
		else
			sb_printf(sb, "int %s(void *ctx __attribute__((unused)))\n{\n", pr->handler);
		break;
	case ATTACH_RAW_TP:
	case ATTACH_TP_BTF:
		sb_printf(sb, "SEC(\"%s/%s\")\n", pr->attach == ATTACH_RAW_TP ? "raw_tp" : "tp_btf",
			  pr->raw->name);
		if (!uses_ctx) {
			sb_printf(sb, "int %s(__u64 *ctx __attribute__((unused)))\n{\n", pr->handler);
			break;
		}
		sb_printf(sb, "int %s(__u64 *ctx)\n{\n", pr->handler);
		sb_printf(sb, "\tstruct %s_raw_args *args = (void *)ctx;\n", pr->raw->name);
		for (int i = 0; i < pr->nr_vals; i++) {
			const struct pvalue *v = &pr->vals[i];
			int j;

			if (v->src != PV_RAW || !v->arg_local)
				continue;
			for (j = 0; j < i; j++)
				if (pr->vals[j].arg_local && !strcmp(pr->vals[j].arg_local, v->arg_local))
					break;
			if (j == i)
				sb_printf(sb, "\t%s%s = args->%s;\n", v->arg_type, v->arg_local, v->arg);
		}
		break;
	default:
		break;
	}
}

/* Filter buffers (declarations), then their reads and the early return. */
static void emit_filter_decls(struct strbuf *sb, const struct pprobe *pr)
{
	if (!pr->filter)
		return;
	for (int i = 0; i < pr->filter->nr_refs; i++) {
		const struct pvalue *v = &pr->vals[pr->filter->refs[i]];

		if (v->kind == PV_STR)
			sb_printf(sb, "\tchar buf_%s[%u] = {};\n", v->cname, v->size ? v->size : 128);
	}
}

static void emit_filter(struct strbuf *sb, const struct pprobe *pr)
{
	char *prefix;

	if (!pr->filter)
		return;
	for (int i = 0; i < pr->filter->nr_refs; i++) {
		const struct pvalue *v = &pr->vals[pr->filter->refs[i]];

		if (v->kind == PV_STR) {
			char *dst = xasprintf("buf_%s", v->cname);

			emit_read_str(sb, pr, v, dst);
			free(dst);
		}
	}
	prefix = xasprintf("%s_filter", pr->pname);
	sb_puts(sb, "\t/* ");
	c_comment_text(sb, pr->sp->filter.s);
	sb_puts(sb, " */\n\tif (!(");
	filter_emit_expr(sb, pr->filter, prefix, &fops, (void *)pr);
	sb_puts(sb, "))\n\t\treturn 0;\n");
	free(prefix);
}

static const char *lat_div(const char *unit)
{
	if (!strcmp(unit, "nsecs"))
		return "";
	if (!strcmp(unit, "msecs"))
		return " / 1000000";
	return " / 1000";
}

static void emit_handler(struct strbuf *sb, const struct prog *p, const struct pprobe *pr)
{
	const struct spec_latency *lat = pr->lat >= 0 ? &p->spec->lats[pr->lat] : NULL;
	int i;

	if (lat)
		sb_printf(sb, "\n/* latency %s: %s, %s */\n", lat->name.s, pr->lat_to ? "end" : "start",
			  pprobe_event(pr));
	else
		sb_printf(sb, "\n/* %s */\n", pprobe_event(pr));
	emit_section(sb, pr);
	if (lat) {
		if (pr->lat_to)
			sb_puts(sb, "\t__u64 key, *tsp, delta;\n");
		else
			sb_puts(sb, "\t__u64 key, ts;\n");
		emit_filter_decls(sb, pr);
		sb_putc(sb, '\n');
		emit_filter(sb, pr);
		sb_puts(sb, "\tkey = ");
		emit_int(sb, &pr->vals[pr->key]);
		sb_puts(sb, ";\n");
		if (!pr->lat_to) {
			sb_puts(sb, "\tts = bpf_ktime_get_ns();\n");
			sb_printf(sb, "\tbpf_map_update_elem(&%s_start, &key, &ts, BPF_ANY);\n", lat->name.s);
		} else {
			sb_printf(sb, "\ttsp = bpf_map_lookup_elem(&%s_start, &key);\n", lat->name.s);
			sb_puts(sb, "\tif (!tsp)\n\t\treturn 0;\n");
			sb_puts(sb, "\tdelta = bpf_ktime_get_ns() - *tsp;\n");
			sb_printf(sb, "\tbpf_map_delete_elem(&%s_start, &key);\n", lat->name.s);
			sb_printf(sb, "\ttpgen_hist_add(%s_hist, delta%s);\n", lat->name.s, lat_div(lat->unit.s));
		}
		sb_puts(sb, "\treturn 0;\n}\n");
		return;
	}
	if (pr->nr_print)
		sb_printf(sb, "\tstruct %s *e;\n", pr->rec_struct);
	if (pr->nr_count)
		sb_printf(sb, "\tstruct %s key;\n", pr->key_struct);
	emit_filter_decls(sb, pr);
	if (sb->len < 2 || strcmp(sb->buf + sb->len - 2, "{\n"))
		sb_putc(sb, '\n');	/* a blank line after declarations, as kernel style has it */
	sb_puts(sb, "\tif (!tpgen_task_wanted(targ_tgid, targ_comm))\n\t\treturn 0;\n");
	emit_filter(sb, pr);
	if (pr->nr_count) {
		sb_puts(sb, "\n\t__builtin_memset(&key, 0, sizeof(key));\n");
		for (i = 0; i < pr->nr_count; i++)
			emit_store(sb, pr, &pr->vals[pr->count[i]], "key.");
		sb_printf(sb, "\ttpgen_count(&%s_counts, &key);\n", pr->pname);
	}
	if (pr->hist >= 0) {
		sb_printf(sb, "\n\ttpgen_hist_add(%s_hist, ", pr->pname);
		emit_int(sb, &pr->vals[pr->hist]);
		sb_puts(sb, ");\n");
	}
	if (pr->nr_print) {
		sb_puts(sb, "\n\te = tpgen_ringbuf_reserve(&events, sizeof(*e), &ringbuf_drops);\n");
		sb_puts(sb, "\tif (!e)\n\t\treturn 0;\n");
		sb_printf(sb, "\te->hdr.type = %s;\n", pr->type_enum);
		sb_puts(sb, "\te->hdr.cpu = bpf_get_smp_processor_id();\n");
		sb_puts(sb, "\te->hdr.ts_ns = bpf_ktime_get_ns();\n");
		for (i = 0; i < pr->nr_print; i++)
			emit_store(sb, pr, &pr->vals[pr->print[i]], "e->");
		sb_puts(sb, "\ttpgen_ringbuf_submit(e, &events);\n");
	}
	sb_puts(sb, "\treturn 0;\n}\n");
}

static void emit_maps(struct strbuf *sb, const struct prog *p)
{
	int i;

	for (i = 0; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		if (pr->filter && pr->filter->nr_lits) {
			char *prefix = xasprintf("%s_filter", pr->pname);

			sb_printf(sb, "\n/* %s: patterns of the filter */\n", pprobe_event(pr));
			filter_emit_literals(sb, pr->filter, prefix);
			free(prefix);
		}
		if (pr->nr_count) {
			sb_printf(sb, "\n/* %s: count by", pprobe_event(pr));
			for (int j = 0; j < pr->nr_count; j++)
				sb_printf(sb, "%s %s", j ? "," : "", pr->vals[pr->count[j]].name);
			sb_printf(sb, " */\nstruct {\n"
				  "\t__uint(type, BPF_MAP_TYPE_HASH);\n"
				  "\t__uint(max_entries, 10240);\n"
				  "\t__type(key, struct %s);\n"
				  "\t__type(value, __u64);\n"
				  "} %s_counts SEC(\".maps\");\n", pr->key_struct, pr->pname);
		}
		if (pr->hist >= 0)
			sb_printf(sb, "\n/* %s: log2 histogram of %s */\n__u64 %s_hist[TPGEN_MAX_SLOTS] = {};\n",
				  pprobe_event(pr), pr->vals[pr->hist].name, pr->pname);
		if (pr->lat >= 0 && !pr->lat_to) {
			const struct spec_latency *lat = &p->spec->lats[pr->lat];

			sb_printf(sb, "\n/* latency %s: %s (%s) -> %s (%s), log2 histogram in %s */\n",
				  lat->name.s, lat->from.event.s, lat->from.key.s, lat->to.event.s,
				  lat->to.key.s, lat->unit.s);
			sb_printf(sb, "struct {\n"
				  "\t__uint(type, BPF_MAP_TYPE_HASH);\n"
				  "\t__uint(max_entries, 10240);\n"
				  "\t__type(key, __u64);\n"
				  "\t__type(value, __u64);\n"
				  "} %s_start SEC(\".maps\");\n\n"
				  "__u64 %s_hist[TPGEN_MAX_SLOTS] = {};\n", lat->name.s, lat->name.s);
		}
	}
}

static void emit_records(struct strbuf *sb, struct strbuf *types, const struct prog *p)
{
	int i, j, nt = 0;

	for (i = 0; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		if (pr->nr_print) {
			sb_printf(types, "%s%s = %d,\t/* %s */\n", nt ? "" : "", pr->type_enum, nt + 1,
				  pprobe_event(pr));
			nt++;
			sb_printf(sb, "\n/* %s */\nstruct %s {\n\tstruct event_hdr hdr;\n", pprobe_event(pr),
				  pr->rec_struct);
			for (j = 0; j < pr->nr_print; j++)
				emit_member(sb, &pr->vals[pr->print[j]], RECORD_STR_MAX);
			sb_puts(sb, "};\n");
		}
		if (pr->nr_count) {
			sb_printf(sb, "\n/* %s: the key of %s_counts */\nstruct %s {\n", pprobe_event(pr),
				  pr->pname, pr->key_struct);
			for (j = 0; j < pr->nr_count; j++)
				emit_member(sb, &pr->vals[pr->count[j]], KEY_STR_MAX);
			sb_puts(sb, "};\n");
		}
	}
	if (p->any_hist)
		sb_puts(sb, "\n/* log2 histogram slots, as in tpgen.h */\n#define TPGEN_MAX_SLOTS 64\n");
}

/* ---- loader pieces -------------------------------------------------------- */

static void add_file(struct prog_file **files, int *nr, char *name, struct strbuf *text)
{
	*files = xrealloc(*files, (*nr + 1) * sizeof(**files));
	(*files)[*nr].name = name;
	(*files)[*nr].text = *text;
	sb_init(text);
	(*nr)++;
}

static int render(const char *dir, const char *tmpl, const struct tmpl_var *vars, int nv,
		  struct prog_file **files, int *nr, char *name)
{
	struct strbuf out;
	char *text;
	int err;

	err = load_template(dir, tmpl, &text);
	if (err) {
		free(name);
		return err;
	}
	sb_init(&out);
	err = tmpl_render(&out, tmpl, text, vars, nv);
	free(text);
	if (err) {
		sb_free(&out);
		free(name);
		return err;
	}
	add_file(files, nr, name, &out);
	return 0;
}

int emit_prog(struct prog *p, const char *tmpl_dir, struct prog_file **files, int *nr_files)
{
	const char *tool = p->spec->tool.s;
	struct strbuf desc, types, records, maps, handlers, header, cases, summary, probes, what, doc, sb;
	char *guard, *skel, *text;
	bool json_str = false;
	int err, i, j;

	sb_init(&desc);
	sb_init(&types);
	sb_init(&records);
	sb_init(&maps);
	sb_init(&handlers);
	sb_init(&header);
	sb_init(&cases);
	sb_init(&summary);
	sb_init(&probes);
	sb_init(&what);
	sb_init(&doc);
	sb_init(&sb);

	c_comment_text(&desc, p->spec->description.s ? p->spec->description.s : "generated tracing tool");
	emit_records(&records, &types, p);
	if (types.len && types.buf[types.len - 1] == '\n')
		types.buf[--types.len] = '\0';
	emit_maps(&maps, p);
	for (i = 0; i < p->nr_probes; i++)
		emit_handler(&handlers, p, &p->probes[i]);
	emit_header_and_cases(&header, &cases, p);
	emit_summary(&summary, p);
	emit_probes_table(&probes, &what, p);
	emit_doc(&doc, p, tool);
	for (i = 0; i < p->nr_probes; i++) {
		for (j = 0; j < p->probes[i].nr_print; j++)
			json_str |= p->probes[i].vals[p->probes[i].print[j]].kind == PV_STR;
		for (j = 0; j < p->probes[i].nr_count; j++)
			json_str |= p->probes[i].vals[p->probes[i].count[j]].kind == PV_STR;
	}
	guard = xasprintf("__%s", tool);
	for (char *c = guard; *c; c++)
		if (*c >= 'a' && *c <= 'z')
			*c -= 'a' - 'A';
	text = guard;
	guard = xasprintf("%s_H", text);
	free(text);
	skel = xasprintf("%s_bpf", tool);

	{
		const struct tmpl_var vars[] = {
			{ "BANNER", p->banner },
			{ "TOOL", tool },
			{ "DESCRIPTION", desc.buf },
			{ "GUARD", guard },
			{ "VERSION", TPGEN_VERSION },
			{ "SKEL", skel },
			{ "DOC", doc.buf },
			{ "WHAT", what.buf },
			{ "RINGBUF", p->any_print ? "1" : "" },
			{ "CORE_READ", p->any_core ? "1" : "" },
			{ "CTX_H", p->any_ctx ? "1" : "" },
			{ "RAW_H", p->any_raw ? "1" : "" },
			{ "HIST", p->any_hist ? "1" : "" },
			{ "COUNT", p->any_count ? "1" : "" },
			{ "JSON_STR", json_str ? "1" : "" },
			{ "EVENT_TYPES", types.buf },
			{ "RECORDS", records.buf },
			{ "MAPS", maps.buf },
			{ "HANDLERS", handlers.buf },
			{ "HEADER", header.buf },
			{ "EVENT_CASES", cases.buf },
			{ "SUMMARY", summary.buf },
			{ "PROBES", probes.buf },
		};
		int nv = ARRAY_SIZE(vars);

		err = render(tmpl_dir, "Makefile", vars, nv, files, nr_files, xstrdup("Makefile"));
		if (!err)
			err = render(tmpl_dir, "prog.bpf.c", vars, nv, files, nr_files,
				     xasprintf("%s.bpf.c", tool));
		if (!err)
			err = render(tmpl_dir, "loader.c", vars, nv, files, nr_files, xasprintf("%s.c", tool));
		if (!err)
			err = render(tmpl_dir, "prog.h", vars, nv, files, nr_files, xasprintf("%s.h", tool));
	}
	if (!err) {
		err = load_template(tmpl_dir, "tpgen.h", &text);
		if (!err) {
			sb_puts(&sb, text);
			free(text);
			add_file(files, nr_files, xstrdup("tpgen.h"), &sb);
		}
	}
	if (!err && p->any_ctx) {
		char *name = xasprintf("%s.ctx.h", tool), *g = emit_guard(name, "__TPGEN_CTX_H");

		err = emit_ctx_header(&sb, p->evs, p->ctx_sel, g, p->banner_ctx);
		free(g);
		if (!err)
			add_file(files, nr_files, name, &sb);
		else
			free(name);
	}
	if (!err && p->any_raw) {
		err = emit_raw_header(&sb, p->raws, p->raw_sel, p->btf, RAW_MODE_VMLINUX, p->banner_ctx);
		if (!err)
			add_file(files, nr_files, xasprintf("%s.raw.h", tool), &sb);
	}
	free(guard);
	free(skel);
	sb_free(&desc);
	sb_free(&types);
	sb_free(&records);
	sb_free(&maps);
	sb_free(&handlers);
	sb_free(&header);
	sb_free(&cases);
	sb_free(&summary);
	sb_free(&probes);
	sb_free(&what);
	sb_free(&doc);
	sb_free(&sb);
	return err;
}
