/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The emitters of a pair, shared by gen/emit/emit_prog.c, gen/emit/emit_bpf.c and gen/emit/emit_loader.c. */
#ifndef __TPGEN_EMIT_PROG_H
#define __TPGEN_EMIT_PROG_H

#include "lib/limits.h"
#include "emit/emit.h"
#include "model/prog.h"

/* gen/emit/emit_maps.c */
void emit_member(struct strbuf *sb, const struct pvalue *v, const char *cname, unsigned int str_max);

/* gen/emit/emit_value.c: values and expressions as BPF C */
const char *pvalue_ctype(const struct pvalue *v);
void emit_value(struct strbuf *sb, const struct pprobe *pr, const struct pvalue *v);
void emit_read_str(struct strbuf *sb, const struct pprobe *pr, const struct pvalue *v, const char *dst,
		   const char *indent);
void emit_expr(struct strbuf *sb, const struct pprobe *pr, const struct expr *e);
void emit_expr_not(struct strbuf *sb, const struct pprobe *pr, const struct expr *e);
/* Where a syscall's char * argument points in the caller's memory (PV_USTR). */
void emit_ustr_addr(struct strbuf *sb, const struct pprobe *pr, const struct pvalue *v);
/* The syscall test at the top of a raw_tp/tp_btf entry on syscalls/sys_{enter,exit}_X. */
void emit_sysarg_test(struct strbuf *sb, const struct pprobe *pr, const char *leave);
/* A char * argument's address in the caller's memory, as a __u64. */
void emit_sysarg_ptr(struct strbuf *sb, const struct pvalue *v);

/* gen/emit/emit_filter.c */
void emit_filter_decls(struct strbuf *sb, const struct pprobe *pr);
void emit_value_strs(struct strbuf *sb, const struct pprobe *pr);
bool filter_str_buf(const struct pprobe *pr, const struct pvalue *v);
enum filter_phase { FILTER_EVENT, FILTER_JOINED };
void emit_filter(struct strbuf *sb, const struct pprobe *pr, enum filter_phase phase, const char *leave);
void emit_records(struct strbuf *sb, struct strbuf *types, const struct prog *p);
void emit_maps(struct strbuf *sb, const struct prog *p);
void emit_handlers(struct strbuf *sb, const struct prog *p);

/* gen/emit/emit_loader.c */
void emit_header_and_cases(struct strbuf *hdr, struct strbuf *cases, const struct prog *p);
bool emit_needs_text(const struct prog *p);
void emit_aggs_table(struct strbuf *sb, struct strbuf *setup, const struct prog *p);
/* The loader's enum, offsets and columns of the functions of model/aggfns.h. */
void emit_agg_fns(struct strbuf *decl, struct strbuf *offsets, struct strbuf *cols);
void emit_agg_merge(struct strbuf *sb);
void emit_derived(struct strbuf *decls, struct strbuf *defs, const struct prog *p);
void emit_summary(struct strbuf *sb, const struct prog *p);
void emit_layout(struct strbuf *sb, const struct prog *p);
void emit_probes_table(struct strbuf *sb, struct strbuf *what, const struct prog *p);
void emit_doc(struct strbuf *sb, const struct prog *p, const char *tool);
/* gen/emit/emit_params.c: the params' globals, and their parts of the loader */
void emit_param_globals(struct strbuf *sb, const struct prog *p);
void emit_param_parts(struct strbuf *fields, struct strbuf *defaults, struct strbuf *opts, struct strbuf *cases,
		      struct strbuf *args, struct strbuf *set, const struct prog *p);
/* " [-t TID] [-x]" and the places, " [min_us]", for the usage line */
void emit_param_usage(struct strbuf *sb, struct strbuf *positional, const struct prog *p);
/* A param parsed as a signed (or an unsigned) number. */
bool params_any(const struct prog *p, bool is_signed);

/* gen/emit/emit_metrics.c: --metrics' families of each aggregation, records' events, build_info's HELP */
void emit_metrics(struct strbuf *sb, struct strbuf *events, struct strbuf *doc, const struct prog *p);
/* ... whether a scrape names addresses (stack labels, or with !stacks_only also ksym()/usym() keys) */
bool metrics_syms(const struct prog *p, bool stacks_only);

/* gen/emit/emit_names.c: columns shown by name (gen/model/decode.h) */
struct decode;
void emit_shows(struct strbuf *sb, const struct prog *p);
/* The loader's enum show_kind and show_name(), from model/decode.h. */
void emit_show_kinds(struct strbuf *kinds, struct strbuf *names);
bool show_is_bytes(const struct decode *dc);
int show_width(const struct decode *dc, const char *cname);
void emit_show_locals(struct strbuf *sb, const struct pprobe *pr, const struct pitems *items, const char *obj);
void emit_show_json(struct strbuf *sb, const struct pitem *it, const struct pvalue *v, const char *obj,
		    const char *indent);

/* gen/emit/emit_prog.c: the files of the pair, rendered from the templates */
struct templates;
struct prog_file {
	char *name;		/* "schedsnoop.bpf.c" */
	struct strbuf text;
};

int emit_prog(struct prog *p, const struct templates *tmpls, struct prog_file **files, int *nr_files);

/* gen/emit/render.c: template 'tmpl_name' rendered with 'vars' (see render.c). */
struct tmpl_var {
	const char *name;
	const char *value;	/* "" is false for #if */
};

int tmpl_render(struct strbuf *out, const struct templates *t, const char *tmpl_name,
		const struct tmpl_var *vars, int nr_vars);

#endif /* __TPGEN_EMIT_PROG_H */
