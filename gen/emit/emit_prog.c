// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The pair's files: the model (gen/model/prog.c) printed into template variables,
 * the templates rendered with them. Templates look like their output; the
 * code here only makes the parts that vary with the spec.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/decode.h"
#include "emit/emit_prog.h"
#include "input/templates.h"

/* ---- loader pieces -------------------------------------------------------- */

static void add_file(struct prog_file **files, int *nr, char *name, struct strbuf *text)
{
	*files = xrealloc(*files, (*nr + 1) * sizeof(**files));
	(*files)[*nr].name = name;
	(*files)[*nr].text = *text;
	sb_init(text);
	(*nr)++;
}

static int render(const struct templates *tmpls, const char *tmpl, const struct tmpl_var *vars, int nv,
		  struct prog_file **files, int *nr, char *name)
{
	struct strbuf out;
	int err;

	sb_init(&out);
	err = tmpl_render(&out, tmpls, tmpl, vars, nv);
	if (err) {
		sb_clear(&out);
		free(name);
		return err;
	}
	add_file(files, nr, name, &out);
	return 0;
}

/* A file of the pair that is a template as it is (tpgen.h, tpgen_names.c, ...). */
static int copy_file(const struct templates *tmpls, const char *name, struct prog_file **files, int *nr)
{
	const struct template *t = templates_find(tmpls, name);
	struct strbuf sb;

	if (!t) {
		pr_err("no template '%s' (built without templates/%s?)", name, name);
		return -ENOENT;
	}
	sb_init(&sb);
	sb_puts(&sb, t->text);
	add_file(files, nr, xstrdup(name), &sb);
	return 0;
}

/* Which of the loader's show_value(), show_bytes() and print_json_name() the columns shown by name call. */
static void shows_used(const struct prog *p, bool *value, bool *bytes, bool *name)
{
	const struct decode *const *v;
	int n;

	*value = *bytes = *name = false;
	v = decodes_all(p, &n);
	for (int i = 0; i < n; i++) {
		if (show_is_bytes(v[i])) {
			*bytes = true;
		} else {
			*value = true;
			*name |= v[i]->kind != DECODE_NTOHS;
		}
	}
}

static bool expr_globs(const struct expr *e)
{
	return e && ((e->op == EX_GLOB && !expr_glob_is_prefix(e)) || expr_globs(e->a) || expr_globs(e->b) ||
		     expr_globs(e->c));
}

/* A filter, a let or a computed value matches a '~' glob: the program needs tpgen.h's tpgen_glob(). */
static bool prog_globs(const struct prog *p)
{
	for (int i = 0; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		if (expr_globs(pr->filter))
			return true;
		for (int j = 0; j < pr->nr_lets; j++)
			if (expr_globs(pr->lets[j].expr))
				return true;
		for (int j = 0; j < pr->nr_vals; j++)
			if (pr->vals[j].src == PV_EXPR && expr_globs(pr->vals[j].expr))
				return true;
	}
	return false;
}

int emit_prog(struct prog *p, const struct templates *tmpls, struct prog_file **files, int *nr_files)
{
	const char *tool = p->tool;
	struct strbuf desc, types, records, maps, handlers, header, cases, summary, probes, what, doc, sb;
	struct strbuf aggs, aggs_setup, agg_fns_decl, agg_offsets, agg_cols, layout, shows, show_kinds, show_names;
	char *guard, *skel, *text;
	bool json_str, show_value, show_bytes, show_name;
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
	sb_init(&aggs);
	sb_init(&aggs_setup);
	sb_init(&agg_fns_decl);
	sb_init(&agg_offsets);
	sb_init(&agg_cols);
	sb_init(&layout);
	sb_init(&shows);
	sb_init(&show_kinds);
	sb_init(&show_names);

	c_comment_text(&desc, p->description ? p->description : "generated tracing tool");
	emit_records(&records, &types, p);
	if (types.len && types.buf[types.len - 1] == '\n')
		types.buf[--types.len] = '\0';
	emit_maps(&maps, p);
	emit_handlers(&handlers, p);
	emit_header_and_cases(&header, &cases, p);
	emit_summary(&summary, p);
	emit_probes_table(&probes, &what, p);
	emit_doc(&doc, p, tool);
	emit_aggs_table(&aggs, &aggs_setup, p);
	if (p->any_agg)
		emit_agg_fns(&agg_fns_decl, &agg_offsets, &agg_cols);
	if (p->any_ctx)
		emit_layout(&layout, p);
	emit_shows(&shows, p);
	shows_used(p, &show_value, &show_bytes, &show_name);
	/* print_json_str(): strings, names and addresses, stacks' frames, and every summary's titles and units */
	json_str = show_bytes || show_name || p->any_stack || p->any_agg;
	if (p->any_names)
		emit_show_kinds(&show_kinds, &show_names);
	for (i = 0; i < p->nr_probes; i++) {
		for (j = 0; j < p->probes[i].print.nr; j++)
			json_str |= p->probes[i].vals[p->probes[i].print.v[j].val].kind == PV_STR;
		for (int k = 0; k < p->probes[i].nr_aggs; k++)
			for (j = 0; j < p->probes[i].aggs[k].keys.nr; j++)
				json_str |= p->probes[i].vals[p->probes[i].aggs[k].keys.v[j].val].kind == PV_STR;
	}
	guard = xasprintf("__%s", tool);
	for (char *c = guard; *c; c++)
		if (*c >= 'a' && *c <= 'z')
			*c -= 'a' - 'A';
	text = guard;
	guard = xasprintf("%s_TPGEN_H", text);	/* not <bpf/bpf.h>'s __LIBBPF_BPF_H for a tool libbpf_bpf */
	free(text);
	skel = xasprintf("%s_bpf", tool);

	{
		const struct tmpl_var vars[] = {
			{ "BANNER", p->banner },
			{ "TOOL", tool },
			{ "DESCRIPTION", desc.buf ? desc.buf : "" },
			{ "GUARD", guard },
			{ "VERSION", TPGEN_VERSION },
			{ "SKEL", skel },
			{ "DOC", doc.buf ? doc.buf : "" },
			{ "WHAT", what.buf ? what.buf : "" },
			{ "RINGBUF", p->any_print ? "1" : "" },
			{ "CORE_READ", p->any_core ? "1" : "" },
			{ "GLOB", prog_globs(p) ? "1" : "" },
			{ "SYSCALL_REGS", p->any_sysregs ? "1" : "" },
			{ "CTX_H", p->any_ctx ? "1" : "" },
			{ "RAW_H", p->any_raw ? "1" : "" },
			{ "INTERVAL", p->any_agg ? "1" : "" },	/* a summary: -i, -T, [interval] [count] */
			{ "ANY_HIST", p->any_hist || p->any_lhist ? "1" : "" },
			{ "HIST", p->any_hist ? "1" : "" },
			{ "LHIST", p->any_lhist ? "1" : "" },
			{ "AGG", p->any_agg ? "1" : "" },
			{ "GLOBAL_AGG", p->any_global_agg ? "1" : "" },	/* an aggregation without a key: a global */
			{ "MAP_READS", p->any_agg || p->any_stack ? "1" : "" },	/* bpf_map_*_elem() */
			{ "LOST", p->any_agg || p->nr_sets ? "1" : "" },
			{ "AGGS", aggs.buf ? aggs.buf : "" },
			{ "AGGS_SETUP", aggs_setup.buf ? aggs_setup.buf : "" },
			{ "AGG_FNS", agg_fns_decl.buf ? agg_fns_decl.buf : "" },
			{ "AGG_OFFSETS", agg_offsets.buf ? agg_offsets.buf : "" },
			{ "AGG_COLUMNS", agg_cols.buf ? agg_cols.buf : "" },
			{ "JSON_STR", json_str ? "1" : "" },
			{ "EVENT_TYPES", types.buf ? types.buf : "" },
			{ "RECORDS", records.buf ? records.buf : "" },
			{ "MAPS", maps.buf ? maps.buf : "" },
			{ "HANDLERS", handlers.buf ? handlers.buf : "" },
			{ "HEADER", header.buf ? header.buf : "" },
			{ "EVENT_CASES", cases.buf ? cases.buf : "" },
			{ "SUMMARY", summary.buf ? summary.buf : "" },
			{ "PROBES", probes.buf ? probes.buf : "" },
			{ "LAYOUT", layout.buf ? layout.buf : "" },
			{ "NAMES", p->any_names ? "1" : "" },
			{ "SHOW_VALUE", show_value ? "1" : "" },
			{ "SHOW_BYTES", show_bytes ? "1" : "" },
			{ "SHOW_NAME", show_name ? "1" : "" },
			{ "SHOWS", shows.buf ? shows.buf : "" },
			{ "SHOW_KINDS", show_kinds.buf ? show_kinds.buf : "" },
			{ "SHOW_NAMES", show_names.buf ? show_names.buf : "" },
			{ "STACKS", p->any_stack ? "1" : "" },
			{ "STACK_MAP", p->stack_map ? p->stack_map : "" },
			{ "ARGV", p->any_argv ? "1" : "" },
			{ "START", p->any_start ? "1" : "" },
		};
		int nv = ARRAY_SIZE(vars);

		err = render(tmpls, "Makefile", vars, nv, files, nr_files, xstrdup("Makefile"));
		if (!err)
			err = render(tmpls, "prog.bpf.c", vars, nv, files, nr_files,
				     xasprintf("%s.bpf.c", tool));
		if (!err)
			err = render(tmpls, "loader.c", vars, nv, files, nr_files, xasprintf("%s.c", tool));
		if (!err)
			err = render(tmpls, "prog.h", vars, nv, files, nr_files, xasprintf("%s.h", tool));
	}
	if (!err) {
		err = copy_file(tmpls, "tpgen.h", files, nr_files);
	}
	/* names for numbers: bpf/tpgen_names.c, compiled into the loader */
	for (i = 0; !err && p->any_names && i < 2; i++) {
		static const char *const names_files[] = { "tpgen_names.h", "tpgen_names.c" };

		err = copy_file(tmpls, names_files[i], files, nr_files);
	}
	/* kstack, ustack: the loader symbolizes them with tpgen_syms (libdwfl) */
	for (i = 0; !err && p->any_stack && i < 2; i++) {
		const char *name = i ? "tpgen_syms.h" : "tpgen_syms.c";

		err = copy_file(tmpls, name, files, nr_files);
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
	sb_clear(&desc);
	sb_clear(&types);
	sb_clear(&records);
	sb_clear(&maps);
	sb_clear(&handlers);
	sb_clear(&header);
	sb_clear(&cases);
	sb_clear(&summary);
	sb_clear(&probes);
	sb_clear(&what);
	sb_clear(&doc);
	sb_clear(&sb);
	sb_clear(&aggs);
	sb_clear(&aggs_setup);
	sb_clear(&agg_fns_decl);
	sb_clear(&agg_offsets);
	sb_clear(&agg_cols);
	sb_clear(&layout);
	sb_clear(&shows);
	sb_clear(&show_kinds);
	sb_clear(&show_names);
	return err;
}
