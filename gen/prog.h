/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Program pairs: a YAML spec (gen/spec.c) resolved against the kernel's
 * events (tracefs) and raw tracepoints (BTF) into the model of one BPF
 * program and its loader (gen/prog.c), then printed through the templates
 * (gen/emit_prog.c).
 */
#ifndef __TPGEN_PROG_H
#define __TPGEN_PROG_H

#include <stdbool.h>
#include "filter.h"
#include "model.h"
#include "rawtp.h"
#include "spec.h"
#include "util.h"

/* tpgen SPEC... [-o DIR] [--tracefs DIR] [--btf FILE] [--templates DIR]: an exit code. */
int cmd_generate(int argc, char **argv);

enum pvalue_kind {
	PV_INT,			/* integers and enums */
	PV_PTR,			/* a kernel address, printed in hex */
	PV_STR,			/* char array, __data_loc char[], char pointer, comm */
};

enum pvalue_src {
	PV_CTX,			/* a format field of the tracepoint record: ctx->x */
	PV_RAW,			/* a raw argument or members read through it */
	PV_COMM,		/* COMM: the current task's comm */
	PV_CPU,			/* CPU: the current CPU */
	PV_TID,			/* common_pid: BPF cannot read the record's first 8 bytes */
};

/* A value an event handler reads: a field, a raw argument, a member chain. */
struct pvalue {
	char *name;		/* as written: "next_comm", "prev->pid", "COMM" */
	char *cname;		/* the member in records and keys: "next_comm", "prev_pid" */
	enum pvalue_kind kind;
	enum pvalue_src src;
	unsigned int size;	/* PV_INT: bytes; PV_STR: the array's size, 0 when dynamic */
	bool is_signed;
	const struct tp_field *field;	/* PV_CTX */
	char *arg;		/* PV_RAW: the argument, "prev" */
	char *path;		/* PV_RAW: members after it, "pid" or "mm, owner", or NULL */
	char *arg_type;		/* PV_RAW with a path: the argument's type, "struct task_struct *" */
	char *arg_local;	/* PV_RAW with a path: the local holding it, "prev" */
	bool str_ptr;		/* PV_RAW strings: through a char pointer, not in an array */
	bool btf_direct;	/* PV_RAW with a path in tp_btf: read directly (BTF pointers) */
};

/* One BPF program: an events entry or one end of a latency pair. */
struct pprobe {
	const struct spec_probe *sp;
	enum attach_kind attach;
	struct tp_event *ev;	/* tracepoint programs */
	struct raw_tp *raw;	/* raw_tp and tp_btf programs */
	char *pname;		/* C prefix of everything this probe owns: "sched_switch" */
	char *handler;		/* "handle_sched_switch" */
	char *type_enum;	/* "SCHEDSNOOP_SCHED_SWITCH" (print only) */
	char *rec_struct;	/* "sched_switch_event" (print only) */
	char *key_struct;	/* "sched_switch_key" (count only) */
	struct filter *filter;
	struct pvalue *vals;	/* every value used, once each */
	int nr_vals;
	int *print;		/* indices into vals */
	int nr_print;
	int *count;
	int nr_count;
	int hist;		/* index into vals, or -1 */
	int key;		/* latency key, or -1 */
	int lat;		/* index of the latency pair, or -1 */
	bool lat_to;
};

struct prog {
	struct spec *spec;
	struct tp_events *evs;	/* tracefs */
	struct raw_tps *raws;	/* BTF (loaded when a probe needs it) */
	const struct btf *btf;
	struct pprobe *probes;
	int nr_probes;
	bool *ctx_sel;		/* events needing a ctx struct */
	bool *raw_sel;		/* raw tracepoints needing an args struct */
	bool any_ctx, any_raw, any_print, any_count, any_hist, any_core, any_str_print;
	char *banner;
	char *banner_ctx;	/* for the ctx/raw headers: includes the kernel */
};

/* gen/emit_prog.c: the files of the pair, by template; 'tmpl_dir' overrides the embedded ones. */
struct prog_file {
	char *name;		/* "schedsnoop.bpf.c" */
	struct strbuf text;
};

int emit_prog(struct prog *p, const char *tmpl_dir, struct prog_file **files, int *nr_files);

/* Render a template: {{VAR}}, {{#if VAR}} / {{#if !VAR}} ... {{/if}} lines. */
struct tmpl_var {
	const char *name;
	const char *value;	/* "" is false for #if */
};

int tmpl_render(struct strbuf *out, const char *tmpl_name, const char *text,
		const struct tmpl_var *vars, int nr_vars);
/* gen/prog.c: resolve one spec entry (or latency end) into a probe of p. */
int prog_add_probe(struct prog *p, const struct spec_probe *sp, int lat, bool lat_to);
void prog_free(struct prog *p);

/* gen/emit_prog.c: the event as the spec names it ("sched/sched_switch"), for comments. */
const char *pprobe_event(const struct pprobe *pr);

/* gen/emit_loader.c: the loader's print cases, summary, probe table and --help text. */
void emit_header_and_cases(struct strbuf *hdr, struct strbuf *cases, const struct prog *p);
void emit_summary(struct strbuf *sb, const struct prog *p);
void emit_probes_table(struct strbuf *sb, struct strbuf *what, const struct prog *p);
void emit_doc(struct strbuf *sb, const struct prog *p, const char *tool);

/* gen/template.c: template 'name' from 'dir' when it is there, else the embedded one. */
int load_template(const char *dir, const char *name, char **text);

#endif /* __TPGEN_PROG_H */
