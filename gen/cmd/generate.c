// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tpgen SPEC... : for each spec, load it, resolve its probes against the
 * kernel's events and raw tracepoints (prog.c), emit the pair (emit_prog.c)
 * and queue its files; all files are written at the end, or none.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "emit/emit.h"
#include "emit/emit_prog.h"
#include "input/templates.h"
#include "lib/cstring.h"
#include "input/kmods.h"
#include "out/output.h"
#include "model/decode.h"
#include "model/prog.h"
#include "model/sysargs.h"
#include "input/sysnames.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tpgen SPEC.yaml... [OPTIONS]\n"
		"Write a BPF program + loader pair for each spec into DIR/<tool>/.\n\n"
		"  -o, --output DIR      where the pairs go (default: out)\n"
		"      --templates DIR   read templates from DIR first (default: the built-in ones)\n"
		"  -M, --depfile FILE    write a make/ninja depfile naming every input read\n"
		"      --check           write nothing; exit 1 if the pairs on disk are stale\n"
		"      --static-layout   read records at the offsets of these inputs, checked at start-up\n"
		"                        (default: CO-RE, relocated by libbpf to the running kernel)\n"
		"      --tracefs DIR     read format files from DIR (<sys>/<event>/format)\n"
		"      --btf FILE        read BTF from FILE (raw BTF or ELF with .BTF)\n"
		"      --kernel DIR      a 'tpgen snapshot' directory (events/, vmlinux, release)\n"
		"  -h, --help            this help\n\n"
		"Then: make -C DIR/<tool> && sudo DIR/<tool>/<tool> -h\n");
}

static bool needs_raw(const struct spec *s)
{
	int i;

	if (s->attach == ATTACH_RAW_TP || s->attach == ATTACH_TP_BTF)
		return true;
	for (i = 0; i < s->nr_events; i++)
		if (s->events[i].attach == ATTACH_RAW_TP || s->events[i].attach == ATTACH_TP_BTF)
			return true;
	for (i = 0; i < s->nr_lats; i++)
		if (s->lats[i].from.attach == ATTACH_RAW_TP || s->lats[i].from.attach == ATTACH_TP_BTF ||
		    s->lats[i].to.attach == ATTACH_RAW_TP || s->lats[i].to.attach == ATTACH_TP_BTF)
			return true;
	return false;
}

/*
 * CO-RE by default: the records of events BTF describes (trace_event_raw_<class>,
 * syscall_trace_enter/exit) are read through relocatable structs. The others
 * keep the static layout, which the loader checks at start-up (emit_layout()),
 * as does an event with a field its class struct lacks. Without BTF, or with
 * --static-layout, every event is static.
 */
static void core_select(struct prog *p, bool static_layout)
{
	int i;

	if (p->btf && !static_layout)
		tp_events_core(p->evs, p->ctx_sel, p->btf, false);
	for (i = 0; i < p->evs->nr; i++) {
		struct tp_event *ev = &p->evs->ev[i];

		if (!static_layout && p->btf && p->ctx_sel[i] && tp_event_core(ev))
			continue;
		free(ev->core_class);
		ev->core_class = NULL;
		ev->core_sys = CORE_SYS_NONE;
	}
}

struct gen_ctx {
	struct inputs in;
	const char *outdir;
	const char *tmpl_dir;
	struct templates tmpls;	/* loaded at the first spec */
	bool tmpls_loaded;
	bool static_layout;	/* --static-layout: no CO-RE, every field checked at start-up */
	struct raw_tps raws;
	bool raws_loaded;
	struct kmods kmods;		/* loaded modules' BTF, which module tracepoints point into */
	struct sysnames sysnames;	/* the target's syscall numbers (raw_tp/tp_btf on syscalls/) */
	bool sysnames_tried;
	int sysnames_err;
	char *sysnames_why, *sysnames_path;
	struct outputs out;	/* every spec's files, written at the end: all or nothing */
};

static int generate(struct gen_ctx *g, const char *path)
{
	struct prog p = {};
	struct spec *spec;
	struct prog_file *files = NULL;
	const char *base;
	char *dir = NULL;
	int nr_files = 0, err, i;

	err = spec_load(&spec, path);
	if (err)
		return err;
	p.spec = spec;
	/* only the spec's events are read: a bad format file elsewhere does not matter */
	for (i = 0; i < spec->nr_events; i++)
		inputs_want_event(&g->in, spec->events[i].sys, spec->events[i].name);
	for (i = 0; i < spec->nr_lats; i++) {
		inputs_want_event(&g->in, spec->lats[i].from.sys, spec->lats[i].from.name);
		inputs_want_event(&g->in, spec->lats[i].to.sys, spec->lats[i].to.name);
	}
	err = inputs_load_events(&g->in);
	if (err)
		goto out;	/* reported; -EACCES is the environment's */
	p.evs = &g->in.evs;
	if (needs_raw(spec)) {
		err = inputs_load_btf(&g->in, true);
		if (err) {
			if (err == -ENOENT)
				err = -EACCES;	/* no BTF: the environment; a bad one: the input */
			goto out;
		}
		if (!g->raws_loaded) {
			err = rawtp_load(&g->raws, g->in.btf);
			if (err)
				goto out;
			g->raws_loaded = true;
			err = kmods_load(&g->in, &g->kmods);	/* loaded modules' tracepoints too */
			if (err)
				goto out;
			kmods_add_rawtps(&g->kmods, &g->raws);
		}
		p.raws = &g->raws;
		p.raw_sel = xcalloc(g->raws.nr ? g->raws.nr : 1, sizeof(*p.raw_sel));
	} else {
		err = inputs_load_btf(&g->in, false);	/* struct names avoid the kernel's, when known */
		if (err)
			goto out;
	}
	/* the target's syscall table: raw_tp/tp_btf entries on syscalls/, and syscall() */
	if ((sysargs_needed(spec) || decode_wants_sysnames(spec)) && !g->sysnames_tried) {
		g->sysnames_tried = true;
		g->sysnames_err = inputs_sysnames(&g->in, &g->sysnames, &g->sysnames_why, &g->sysnames_path);
	}
	if (g->sysnames_err == -EINVAL) {	/* a bad table: reported */
		err = -EINVAL;
		goto out;
	}
	p.sysnames = g->sysnames_tried && !g->sysnames_err ? &g->sysnames : NULL;
	p.sysnames_why = g->sysnames_why;
	p.btf = g->in.btf;
	p.kernel_dir = g->in.kernel;
	p.live = !g->in.tracefs && !g->in.kernel && !g->in.btf_given;
	p.ctx_sel = xcalloc(p.evs->nr ? p.evs->nr : 1, sizeof(*p.ctx_sel));

	err = prog_resolve(&p);
	if (err)
		goto out;
	if (p.any_ctx) {
		tp_events_name(p.evs, p.ctx_sel, p.btf);
		core_select(&p, g->static_layout || spec->static_layout);
	}

	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	{
		struct strbuf b;

		sb_init(&b);
		sb_printf(&b, "generated by tpgen %s from ", TPGEN_VERSION);
		c_comment_text(&b, base);
		sb_puts(&b, ": do not edit");
		p.banner = sb_steal(&b);
		sb_clear(&b);
	}
	{
		unsigned long long hash = FNV1A64_INIT;

		for (i = 0; i < p.evs->nr; i++)
			if (p.ctx_sel[i])
				hash = fnv1a64(hash, &p.evs->ev[i].hash, sizeof(p.evs->ev[i].hash));
		hash = fnv1a64(hash, &g->in.btf_hash, sizeof(g->in.btf_hash));
		p.banner_ctx = make_banner(&g->in, hash);
	}

	if (!g->tmpls_loaded) {
		err = templates_load(&g->tmpls, g->tmpl_dir);
		if (err)
			goto out;
		g->tmpls_loaded = true;
	}
	err = emit_prog(&p, &g->tmpls, &files, &nr_files);
	if (err)
		goto out;
	dir = xasprintf("%s/%s", g->outdir, spec->tool.s);
	for (i = 0; i < g->out.nr; i++) {
		if (!strncmp(g->out.files[i].path, dir, strlen(dir)) && g->out.files[i].path[strlen(dir)] == '/') {
			spec_error(spec, &spec->tool.loc, 0, "tool '%s' is generated by another spec too",
				   spec->tool.s);
			err = -EINVAL;
			goto out;
		}
	}
	for (i = 0; i < nr_files; i++)	/* DIR/<tool>/ appears whole, or not at all */
		outputs_add_in(&g->out, dir, files[i].name, &files[i].text);
	/* the depfile: the spec, overriding templates, format files and BTF read */
	outputs_dep(&g->out, path);
	for (i = 0; i < g->tmpls.nr; i++)
		if (g->tmpls.v[i].path)
			outputs_dep(&g->out, g->tmpls.v[i].path);
	for (i = 0; i < p.evs->nr; i++)
		if (p.ctx_sel[i])
			outputs_dep(&g->out, p.evs->ev[i].path);
	for (i = 0; i < g->in.nr_read; i++)
		if (!g->in.evs_loaded || strcmp(g->in.read[i], g->in.evs.root))
			outputs_dep(&g->out, g->in.read[i]);
	if (p.sysnames && g->sysnames_path)
		outputs_dep(&g->out, g->sysnames_path);
	for (i = 0; p.raws && i < p.raws->nr; i++)	/* the module BTFs the spec's tracepoints are in */
		for (int m = 0; p.raw_sel[i] && p.raws->tp[i].module && m < g->kmods.nr; m++)
			if (!strcmp(g->kmods.m[m].name, p.raws->tp[i].module))
				outputs_dep(&g->out, g->kmods.m[m].path);
out:
	for (i = 0; i < nr_files; i++) {
		free(files[i].name);
		sb_clear(&files[i].text);
	}
	free(files);
	free(dir);
	prog_clear(&p);
	spec_free(spec);
	return err;
}

int cmd_generate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output",	required_argument,	NULL, 'o' },
		{ "templates",	required_argument,	NULL, 't' },
		{ "depfile",	required_argument,	NULL, 'M' },
		{ "check",	no_argument,		NULL, 'C' },
		{ "static-layout", no_argument,		NULL, 'S' },
		{ "help",	no_argument,		NULL, 'h' },
		INPUT_LONG_OPTIONS,
		{ 0 }
	};
	struct gen_ctx g = { .outdir = "out" };
	int opt, err = 0, i;

	optind = 1;
	while ((opt = getopt_long(argc, argv, ":o:M:h", opts, NULL)) != -1) {
		err = inputs_option(&g.in, opt, optarg);
		if (err < 0) {
			inputs_clear(&g.in);
			return err;
		}
		if (err)
			continue;
		switch (opt) {
		case 'o':
			g.outdir = optarg;
			break;
		case 't':
			g.tmpl_dir = optarg;
			break;
		case 'M':
			g.out.depfile = optarg;
			break;
		case 'C':
			g.out.check = true;
			break;
		case 'S':
			g.static_layout = true;
			break;
		case 'h':
			usage(stdout);
			inputs_clear(&g.in);
			return 0;
		default:
			inputs_clear(&g.in);
			if (opt == '?' && optind > 1 && argv[optind - 1][0] == '-' &&
			    !strchr(argv[optind - 1] + 1, '.')) {
				pr_err("unknown command or option '%s'; see 'tpgen --help'", argv[optind - 1]);
				return -TPGEN_EUSAGE;
			}
			return bad_option("", opt, argv);
		}
	}
	err = 0;
	if (optind >= argc) {
		usage(stderr);
		inputs_clear(&g.in);
		return -TPGEN_EUSAGE;
	}
	for (i = optind; i < argc && !err; i++)
		err = generate(&g, argv[i]);
	if (!err)
		err = outputs_commit(&g.out);	/* 1: --check found stale files */
	outputs_clear(&g.out);
	if (g.raws_loaded)
		rawtp_clear(&g.raws);
	kmods_clear(&g.kmods);
	templates_clear(&g.tmpls);
	sysnames_clear(&g.sysnames);
	free(g.sysnames_why);
	free(g.sysnames_path);
	inputs_clear(&g.in);
	return err;
}
