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
			*name |= !decode_is_plain(v[i]->kind);
		}
	}
}

static bool expr_globs(const struct expr *e)
{
	return e && ((e->op == EX_GLOB && !expr_glob_is_prefix(e)) || expr_globs(e->a) || expr_globs(e->b) ||
		     expr_globs(e->c));
}

/* A "*suffix" glob of a user string: tpgen_glob_tail() (expr_emit()'s choice) */
static bool expr_glob_tails(const struct pprobe *pr, const struct expr *e)
{
	if (!e)
		return false;
	if (e->op == EX_GLOB && expr_glob_is_suffix(e) && e->a->op == EX_REF && e->a->ref >= 0 &&
	    pr->vals[e->a->ref].src == PV_USTR && !pr->vals[e->a->ref].argv)
		return true;
	return expr_glob_tails(pr, e->a) || expr_glob_tails(pr, e->b) || expr_glob_tails(pr, e->c);
}

static bool prog_glob_tails(const struct prog *p)
{
	for (int i = 0; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		if (expr_glob_tails(pr, pr->filter))
			return true;
		for (int j = 0; j < pr->nr_lets; j++)
			if (expr_glob_tails(pr, pr->lets[j].expr))
				return true;
		for (int j = 0; j < pr->nr_vals; j++)
			if (pr->vals[j].src == PV_EXPR && expr_glob_tails(pr, pr->vals[j].expr))
				return true;
	}
	return false;
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

/* usym(): the loader names user addresses of a process */
static bool any_usym(const struct prog *p)
{
	const struct decode *const *v;
	int n;

	v = decodes_all(p, &n);
	for (int i = 0; i < n; i++)
		if (v[i]->kind == DECODE_USYM)
			return true;
	return false;
}

/* A key shows part of a stack (kstack(N), kcaller): rows that show alike are merged by the loader. */
static bool keys_merge(const struct prog *p)
{
	for (int i = 0; i < p->nr_probes; i++)
		for (int k = 0; k < p->probes[i].nr_aggs; k++)
			for (int j = 0; j < p->probes[i].aggs[k].keys.nr; j++)
				if (p->probes[i].aggs[k].keys.v[j].frames || p->probes[i].aggs[k].keys.v[j].caller)
					return true;
	return false;
}

/* The parts of the pair that vary with the spec: each is a template variable's text. */
enum part {
	PART_DESC, PART_TYPES, PART_RECORDS, PART_MAPS, PART_HANDLERS, PART_HEADER, PART_CASES,
	PART_SUMMARY, PART_PROBES, PART_WHAT, PART_DOC, PART_AGGS, PART_AGGS_SETUP, PART_AGG_FNS,
	PART_AGG_OFFSETS, PART_AGG_COLUMNS, PART_LAYOUT, PART_SHOWS, PART_SHOW_KINDS, PART_SHOW_NAMES,
	PART_PARAM_GLOBALS, PART_PARAM_FIELDS, PART_PARAM_DEFAULTS, PART_PARAM_OPTS, PART_PARAM_CASES,
	PART_PARAM_ARGS, PART_PARAM_SET,
	PART_METRICS, PART_METRIC_EVENTS, PART_METRICS_DOC, PART_AGG_MERGE, PART_DERIVE_DECLS, PART_DERIVE,
	NR_PARTS
};

static const char *text(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

static void emit_parts(struct strbuf *part, const struct prog *p)
{
	struct strbuf *types = &part[PART_TYPES];

	c_comment_text(&part[PART_DESC], p->description ? p->description : "generated tracing tool");
	emit_records(&part[PART_RECORDS], types, p);
	if (types->len && types->buf[types->len - 1] == '\n')
		types->buf[--types->len] = '\0';
	emit_maps(&part[PART_MAPS], p);
	emit_handlers(&part[PART_HANDLERS], p);
	emit_header_and_cases(&part[PART_HEADER], &part[PART_CASES], p);
	emit_summary(&part[PART_SUMMARY], p);
	emit_probes_table(&part[PART_PROBES], &part[PART_WHAT], p);
	emit_doc(&part[PART_DOC], p, p->tool);
	emit_aggs_table(&part[PART_AGGS], &part[PART_AGGS_SETUP], p);
	if (p->any_agg) {
		emit_agg_fns(&part[PART_AGG_FNS], &part[PART_AGG_OFFSETS], &part[PART_AGG_COLUMNS]);
		emit_metrics(&part[PART_METRICS], &part[PART_METRIC_EVENTS], &part[PART_METRICS_DOC], p);
	}
	if (keys_merge(p))
		emit_agg_merge(&part[PART_AGG_MERGE]);
	if (p->any_derived)
		emit_derived(&part[PART_DERIVE_DECLS], &part[PART_DERIVE], p);
	if (p->any_ctx)
		emit_layout(&part[PART_LAYOUT], p);
	emit_shows(&part[PART_SHOWS], p);
	if (p->any_names)
		emit_show_kinds(&part[PART_SHOW_KINDS], &part[PART_SHOW_NAMES]);
	emit_param_globals(&part[PART_PARAM_GLOBALS], p);
	emit_param_parts(&part[PART_PARAM_FIELDS], &part[PART_PARAM_DEFAULTS], &part[PART_PARAM_OPTS],
			 &part[PART_PARAM_CASES], &part[PART_PARAM_ARGS], &part[PART_PARAM_SET], p);
}

/* print_json_str(): strings, names and addresses, stacks' frames, and every summary's titles and units */
static bool needs_json_str(const struct prog *p, bool show_bytes, bool show_name)
{
	bool json_str = show_bytes || show_name || p->any_stack || p->any_agg;

	for (int i = 0; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		for (int j = 0; j < pr->print.nr; j++)
			json_str |= pr->vals[pr->print.v[j].val].kind == PV_STR;
		for (int k = 0; k < pr->nr_aggs; k++)
			for (int j = 0; j < pr->aggs[k].keys.nr; j++)
				json_str |= pr->vals[pr->aggs[k].keys.v[j].val].kind == PV_STR;
	}
	return json_str;
}

/* "SCHEDSNOOP_TPGEN_H": not <bpf/bpf.h>'s __LIBBPF_BPF_H for a tool libbpf_bpf */
static char *header_guard(const char *tool)
{
	char *guard = xasprintf("__%s_TPGEN_H", tool);

	for (char *c = guard; *c; c++)
		if (*c >= 'a' && *c <= 'z')
			*c -= 'a' - 'A';
	return guard;
}

/* The files made from templates: Makefile, <tool>.bpf.c, <tool>.c, <tool>.h (and <tool>.service). */
static int render_pair(const struct prog *p, const struct templates *tmpls, const struct strbuf *part,
		       struct prog_file **files, int *nr_files)
{
	const char *tool = p->tool;
	char *guard = header_guard(tool), *skel = xasprintf("%s_bpf", tool);
	bool show_value, show_bytes, show_name;
	char hash[17] = "";
	int err;

	shows_used(p, &show_value, &show_bytes, &show_name);
	{
	const struct tmpl_var vars[] = {
		{ "BANNER", p->banner },
		{ "TOOL", tool },
		{ "DESCRIPTION", text(&part[PART_DESC]) },
		{ "GUARD", guard },
		{ "VERSION", TPGEN_VERSION },
		{ "SKEL", skel },
		{ "DOC", text(&part[PART_DOC]) },
		{ "WHAT", text(&part[PART_WHAT]) },
		{ "RINGBUF", p->any_print ? "1" : "" },
		{ "CORE_READ", p->any_core ? "1" : "" },
		{ "GLOB", prog_globs(p) ? "1" : "" },
		{ "GLOB_TAIL", prog_glob_tails(p) ? "1" : "" },
		{ "SYSCALL_REGS", p->any_sysregs ? "1" : "" },
		{ "CTX_H", p->any_ctx ? "1" : "" },
		{ "RAW_H", p->any_raw ? "1" : "" },
		{ "INTERVAL", p->any_agg ? "1" : "" },	/* a summary: -i, -T, [interval] [count] */
		{ "ANY_HIST", p->any_hist || p->any_lhist ? "1" : "" },
		{ "HIST", p->any_hist ? "1" : "" },
		{ "LHIST", p->any_lhist ? "1" : "" },
		{ "AGG", p->any_agg ? "1" : "" },
		{ "GLOBAL_AGG", p->any_global_agg ? "1" : "" },	/* an aggregation without a key: a global */
		{ "RUNNING_AGG", p->any_running_agg ? "1" : "" },	/* a table an entry subtracts from */
		{ "LOST", p->any_agg || p->nr_sets ? "1" : "" },
		{ "AGGS", text(&part[PART_AGGS]) },
		{ "AGGS_SETUP", text(&part[PART_AGGS_SETUP]) },
		{ "AGG_FNS", text(&part[PART_AGG_FNS]) },
		{ "AGG_OFFSETS", text(&part[PART_AGG_OFFSETS]) },
		{ "AGG_COLUMNS", text(&part[PART_AGG_COLUMNS]) },
		{ "AGG_MERGE", text(&part[PART_AGG_MERGE]) },
		{ "COLS", p->any_cols ? "1" : "" },	/* tables with named or derived columns */
		{ "DERIVED", p->any_derived ? "1" : "" },
		{ "AGG_DERIVE_DECLS", text(&part[PART_DERIVE_DECLS]) },
		{ "AGG_DERIVE", text(&part[PART_DERIVE]) },
		{ "STACK_MERGE", keys_merge(p) ? "1" : "" },	/* kstack(N) keys: rows merged */
		{ "JSON_STR", needs_json_str(p, show_bytes, show_name) ? "1" : "" },
		{ "TEXT_STR", emit_needs_text(p) ? "1" : "" },	/* text_str(): strings escaped for a terminal */
		{ "EVENT_TYPES", text(&part[PART_TYPES]) },
		{ "RECORDS", text(&part[PART_RECORDS]) },
		{ "MAPS", text(&part[PART_MAPS]) },
		{ "HANDLERS", text(&part[PART_HANDLERS]) },
		{ "HEADER", text(&part[PART_HEADER]) },
		{ "EVENT_CASES", text(&part[PART_CASES]) },
		{ "SUMMARY", text(&part[PART_SUMMARY]) },
		{ "PROBES", text(&part[PART_PROBES]) },
		{ "LAYOUT", text(&part[PART_LAYOUT]) },
		{ "NAMES", p->any_names ? "1" : "" },
		{ "SHOW_VALUE", show_value ? "1" : "" },
		{ "SHOW_BYTES", show_bytes ? "1" : "" },
		{ "SHOW_NAME", show_name ? "1" : "" },
		{ "SHOWS", text(&part[PART_SHOWS]) },
		{ "SHOW_KINDS", text(&part[PART_SHOW_KINDS]) },
		{ "SHOW_NAMES", text(&part[PART_SHOW_NAMES]) },
		{ "STACKS", p->any_stack ? "1" : "" },
		{ "KSYMS", p->any_ksym ? "1" : "" },	/* ksym(), %pS: kernel addresses named */
		{ "CALLER", p->any_caller ? "1" : "" },	/* kcaller: a frame of a kernel stack */
		{ "USYM", any_usym(p) ? "1" : "" },	/* usym(): user addresses with their process */
		{ "SYMS", p->any_stack || p->any_ksym ? "1" : "" },	/* the loader links tpgen_syms */
		/* --metrics: stacks as labels; a scrape's own tpgen_syms (its thread's) */
		{ "METRICS_STACKS", metrics_syms(p, true) ? "1" : "" },
		{ "METRICS_SYMS", metrics_syms(p, false) ? "1" : "" },
		{ "STACK_MAP", p->stack_map ? p->stack_map : "" },
		{ "ARGV", p->any_argv ? "1" : "" },
		{ "START", p->any_start ? "1" : "" },
		{ "PARAMS", p->nr_params ? "1" : "" },
		{ "PARAM_U", params_any(p, false) ? "1" : "" },
		{ "PARAM_S", params_any(p, true) ? "1" : "" },
		{ "PARAM_NUM", params_any(p, true) || params_any(p, false) ? "1" : "" },
		{ "POSITIONAL", p->nr_positional ? "1" : "" },
		{ "KEY_ARG", p->nr_positional || p->any_agg ? "1" : "" },	/* [min_us], [interval] [count] */
		{ "PID_OPT", p->pid_opt ? "1" : "" },
		{ "COMM_OPT", p->comm_opt ? "1" : "" },
		{ "PARAM_GLOBALS", text(&part[PART_PARAM_GLOBALS]) },
		{ "PARAM_FIELDS", text(&part[PART_PARAM_FIELDS]) },
		{ "PARAM_DEFAULTS", text(&part[PART_PARAM_DEFAULTS]) },
		{ "PARAM_OPTS", text(&part[PART_PARAM_OPTS]) },
		{ "PARAM_CASES", text(&part[PART_PARAM_CASES]) },
		{ "PARAM_ARGS", text(&part[PART_PARAM_ARGS]) },
		{ "PARAM_SET", text(&part[PART_PARAM_SET]) },
		{ "METRICS_TABLES", text(&part[PART_METRICS]) },
		{ "METRIC_EVENTS", text(&part[PART_METRIC_EVENTS]) },
		{ "SPEC_HASH", hash },	/* the program's: set once it is rendered */
		{ "METRICS_DOC", text(&part[PART_METRICS_DOC]) },
	};
		int nv = ARRAY_SIZE(vars);

		err = render(tmpls, "Makefile", vars, nv, files, nr_files, xstrdup("Makefile"));
		if (!err)
			err = render(tmpls, "prog.bpf.c", vars, nv, files, nr_files, xasprintf("%s.bpf.c", tool));
		if (!err) {
			/* --metrics' build_info: what the spec made of the BPF program, however written */
			const struct strbuf *bpf = &(*files)[*nr_files - 1].text;

			snprintf(hash, sizeof(hash), "%016llx", fnv1a64(FNV1A64_INIT, bpf->buf, bpf->len));
			err = render(tmpls, "loader.c", vars, nv, files, nr_files, xasprintf("%s.c", tool));
		}
		if (!err)
			err = render(tmpls, "prog.h", vars, nv, files, nr_files, xasprintf("%s.h", tool));
		/* an exporter (--metrics): its systemd unit */
		if (!err && p->any_agg)
			err = render(tmpls, "tool.service", vars, nv, files, nr_files, xasprintf("%s.service", tool));
	}
	free(guard);
	free(skel);
	return err;
}

int emit_prog(struct prog *p, const struct templates *tmpls, struct prog_file **files, int *nr_files)
{
	struct strbuf part[NR_PARTS], sb;
	int err, i;

	for (i = 0; i < NR_PARTS; i++)
		sb_init(&part[i]);
	sb_init(&sb);
	emit_parts(part, p);
	err = render_pair(p, tmpls, part, files, nr_files);
	if (!err)
		err = copy_file(tmpls, "tpgen.h", files, nr_files);
	/* names for numbers: bpf/tpgen_names.c, compiled into the loader */
	for (i = 0; !err && p->any_names && i < 2; i++) {
		static const char *const names_files[] = { "tpgen_names.h", "tpgen_names.c" };

		err = copy_file(tmpls, names_files[i], files, nr_files);
	}
	/* kstack, ustack, ksym(): the loader symbolizes them with tpgen_syms (libdwfl) */
	for (i = 0; !err && (p->any_stack || p->any_ksym) && i < 2; i++) {
		const char *name = i ? "tpgen_syms.h" : "tpgen_syms.c";

		err = copy_file(tmpls, name, files, nr_files);
	}
	if (!err && p->any_ctx) {
		char *name = xasprintf("%s.ctx.h", p->tool), *g = emit_guard(name, "__TPGEN_CTX_H");

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
			add_file(files, nr_files, xasprintf("%s.raw.h", p->tool), &sb);
	}
	for (i = 0; i < NR_PARTS; i++)
		sb_clear(&part[i]);
	sb_clear(&sb);
	return err;
}
