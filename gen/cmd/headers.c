// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tpgen headers: context structs (default), raw tracepoint argument structs
 * (--raw), or both from one reading of the inputs (--all).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "emit/emit.h"
#include "input/kmods.h"
#include "lib/mem.h"
#include "out/output.h"
#include "input/rawtp.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tpgen headers [OPTIONS] [PATTERN...]\n"
		"Write one header with a struct per tracepoint event (default: all events).\n\n"
		"  -o, --output FILE     write to FILE (atomically) instead of stdout\n"
		"  -M, --depfile FILE    write a make/ninja depfile naming every input read\n"
		"      --check           write nothing; exit 1 if FILE is stale for these inputs\n"
		"      --raw             raw tracepoint argument structs from BTF instead\n"
		"      --all             both, every event, from one reading of the inputs:\n"
		"                        -o DIR writes DIR/ctx.h and DIR/raw.h\n"
		"      --vmlinux-h       (--raw) use kernel types as they are; include vmlinux.h first\n"
		"      --core            CO-RE: relocatable structs named after trace_event_raw_<class>\n"
		"      --tracefs DIR     read format files from DIR (<sys>/<event>/format)\n"
		"      --btf FILE        read BTF from FILE (raw BTF or ELF with .BTF)\n"
		"      --kernel DIR      a 'tpgen snapshot' directory (events/, vmlinux, release)\n"
		"  -h, --help            this help\n\n"
		"PATTERN: sys/event or sys:event, with globs (sched/*, *switch*), or a system name.\n");
}

/*
 * raw.h of --all, made from the BTF alone: on the live kernel, by the thread
 * that parses the BTF while the format files are read; its diagnostics are
 * kept and printed after ctx.h's, and only if ctx.h was made (as when the two
 * are made one after the other).
 */
struct raw_job {
	struct strbuf sb;	/* the header */
	struct strbuf diag;	/* what making it said */
	struct kmods km;	/* the module BTFs read (deps) */
	int err;
	bool done;
};

struct btf_job {
	struct inputs *in;
	bool required;
	struct raw_job *raw;	/* --all: make raw.h here too */
	int err;
};

static int raw_make(struct inputs *in, char **pats, int npats, enum raw_mode mode,
		    struct strbuf *sb, struct kmods *km);

static void *btf_thread(void *arg)
{
	struct btf_job *job = arg;
	struct raw_job *raw = job->raw;

	job->err = inputs_load_btf(job->in, job->required);
	if (!job->err && raw) {
		diag_capture_start(&raw->diag);
		raw->err = raw_make(job->in, NULL, 0, RAW_MODE_STANDALONE, &raw->sb, &raw->km);
		diag_capture_stop();
		raw->done = true;
	}
	return NULL;
}

/* The header: file 'output', or file 'output' of directory 'dir' (--all) */
static void add_header(struct outputs *o, const char *dir, const char *output, struct strbuf *sb)
{
	if (dir)
		outputs_add_in(o, dir, output, sb);
	else
		outputs_add(o, output, sb);
}

static int ctx_headers(struct inputs *in, char **pats, int npats, const char *dir, const char *output,
		       bool core, struct outputs *o, struct raw_job *raw)
{
	unsigned long long hash = FNV1A64_INIT;
	struct btf_job job = { .in = in, .required = core || dir };
	bool threaded = false;
	struct strbuf sb;
	bool *sel = NULL;
	char *banner, *guard;
	pthread_t th;
	int err, i;

	inputs_want(in, pats, npats);
	/*
	 * BTF decides struct names here (without it, names stay short), and
	 * the CO-RE classes. The live kernel's BTF is mapped and parsed while
	 * the format files are read; offline inputs and --core load one after
	 * the other, so that their diagnostics always come out in one order.
	 */
	if (!in->tracefs && !in->btf_path && !core) {
		/* raw.h's banner names the release: known before the thread reads it */
		if (raw) {
			err = inputs_load_release(in);
			if (err)
				return err;
			job.raw = raw;
		}
		threaded = !pthread_create(&th, NULL, btf_thread, &job);
		if (!threaded)
			job.raw = NULL;
	}
	err = inputs_load_events(in);
	if (threaded)
		pthread_join(th, NULL);
	if (err)
		return err == -ENOENT && !in->tracefs ? -EACCES : err;
	if (!threaded)
		btf_thread(&job);
	if (job.err)
		return job.err;
	err = tp_events_select(&in->evs, pats, npats, &sel);
	if (err)
		return err;
	tp_events_name(&in->evs, sel, in->btf);
	if (core) {
		int n = tp_events_core(&in->evs, sel, in->btf, true);

		if (n)
			diag_warning(NULL, 0, 0, "%d event%s no trace_event_raw_<class> in BTF and keep%s the "
				     "static layout (see the comment above each struct)", n,
				     n == 1 ? " has" : "s have", n == 1 ? "s" : "");
	}
	for (i = 0; i < in->evs.nr; i++)
		if (sel[i])
			hash = fnv1a64(hash, &in->evs.ev[i].hash, sizeof(in->evs.ev[i].hash));
	hash = fnv1a64(hash, &in->btf_hash, sizeof(in->btf_hash));
	banner = make_banner(in, hash);
	guard = emit_guard(output, "__TPGEN_CTX_H");
	sb_init(&sb);
	err = emit_ctx_header(&sb, &in->evs, sel, guard, banner);
	if (!err) {
		add_header(o, dir, output, &sb);
		for (i = 0; i < in->evs.nr; i++)
			if (sel[i])
				outputs_dep(o, in->evs.ev[i].path);
		for (i = 0; i < in->nr_read; i++)
			if (strcmp(in->read[i], in->evs.root))
				outputs_dep(o, in->read[i]);
	}
	sb_clear(&sb);
	free(guard);
	free(banner);
	free(sel);
	return err;
}

/* raw.h into sb: the raw tracepoints of the BTF and of the loaded modules' (km). */
static int raw_make(struct inputs *in, char **pats, int npats, enum raw_mode mode,
		    struct strbuf *sb, struct kmods *km)
{
	struct raw_tps r = {};
	bool *sel;
	char *banner;
	int err, i, j;

	memset(km, 0, sizeof(*km));
	err = inputs_load_btf(in, true);
	if (err)
		return err == -ENOENT && !in->btf_path ? -EACCES : err;
	err = mode == RAW_MODE_VMLINUX ? rawtp_load(&r, in->btf) : rawtp_load_standalone(&r, in->btf);
	if (err)
		return err;
	err = kmods_load(in, km);	/* loaded modules' tracepoints too */
	if (err) {
		rawtp_clear(&r);
		return err;
	}
	kmods_add_rawtps(km, &r);
	sel = xcalloc(r.nr, sizeof(*sel));
	for (i = 0; i < r.nr; i++)
		sel[i] = !npats;
	for (j = 0; j < npats; j++) {
		const char *pat = pats[j], *sep = strpbrk(pat, "/:");
		bool any = false;

		/* raw tracepoints have no system: "sched/sched_switch" names sched_switch */
		if (sep)
			pat = sep + 1;
		for (i = 0; i < r.nr; i++) {
			if (glob_match(pat, r.tp[i].name)) {
				sel[i] = true;
				any = true;
			}
		}
		if (!any) {
			pr_err("no raw tracepoint matches '%s'", pats[j]);
			err = -ENOENT;
		}
	}
	if (!err) {
		banner = make_banner(in, km->nr ? km->hash : in->btf_hash);
		err = emit_raw_header(sb, &r, sel, in->btf, mode, banner);
		free(banner);
	}
	free(sel);
	rawtp_clear(&r);
	return err;
}

static void raw_add(struct inputs *in, const struct kmods *km, const char *dir, const char *output,
		    struct strbuf *sb, struct outputs *o)
{
	int i;

	add_header(o, dir, output, sb);
	for (i = 0; i < in->nr_read; i++)
		outputs_dep(o, in->read[i]);
	for (i = 0; i < km->nr; i++)	/* the module BTFs read */
		outputs_dep(o, km->m[i].path);
}

static int raw_headers(struct inputs *in, char **pats, int npats, const char *dir, const char *output,
		       enum raw_mode mode, struct outputs *o)
{
	struct kmods km;
	struct strbuf sb;
	int err;

	sb_init(&sb);
	err = raw_make(in, pats, npats, mode, &sb, &km);
	if (!err)
		raw_add(in, &km, dir, output, &sb, o);
	sb_clear(&sb);
	kmods_clear(&km);
	return err;
}

int cmd_headers(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output",	required_argument,	NULL, 'o' },
		{ "depfile",	required_argument,	NULL, 'M' },
		{ "check",	no_argument,		NULL, 'C' },
		{ "raw",	no_argument,		NULL, 'r' },
		{ "all",	no_argument,		NULL, 'a' },
		{ "vmlinux-h",	no_argument,		NULL, 'V' },
		{ "core",	no_argument,		NULL, 'c' },
		{ "help",	no_argument,		NULL, 'h' },
		INPUT_LONG_OPTIONS,
		{ 0 }
	};
	struct inputs in = {};
	struct outputs o = {};
	const char *output = NULL;
	bool raw = false, vmlinux_h = false, core = false, all = false;
	bool batch;
	int opt, err;

	batch = mem_batch_init();
	while ((opt = getopt_long(argc, argv, ":o:M:h", opts, NULL)) != -1) {
		err = inputs_option(&in, opt, optarg);
		if (err < 0)
			goto out;
		if (err)
			continue;
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case 'M':
			o.depfile = optarg;
			break;
		case 'C':
			o.check = true;
			break;
		case 'r':
			raw = true;
			break;
		case 'a':
			all = true;
			break;
		case 'V':
			vmlinux_h = true;
			break;
		case 'c':
			core = true;
			break;
		case 'h':
			usage(stdout);
			inputs_clear(&in);
			return 0;
		default:
			inputs_clear(&in);
			return bad_option("headers", opt, argv);
		}
	}
	if (all && (raw || vmlinux_h || optind < argc || !output || !strcmp(output, "-"))) {
		pr_err("--all writes every event's ctx.h and raw.h into -o DIR: %s",
		       raw || vmlinux_h ? "not with --raw or --vmlinux-h" : optind < argc ? "no PATTERN" :
		       "-o DIR is needed");
		inputs_clear(&in);
		return -TPGEN_EUSAGE;
	}
	if (core && raw) {
		pr_err("--core applies to context headers, not --raw (raw arguments are read from BTF as they are)");
		inputs_clear(&in);
		return -TPGEN_EUSAGE;
	}
	if (vmlinux_h && !raw) {
		pr_err("--vmlinux-h only applies to --raw headers");
		inputs_clear(&in);
		return -TPGEN_EUSAGE;
	}
	if ((o.check || o.depfile) && (!output || !strcmp(output, "-"))) {
		pr_err("%s needs an output file (-o FILE)", o.check ? "--check" : "--depfile");
		inputs_clear(&in);
		return -TPGEN_EUSAGE;
	}
	if (all) {
		struct raw_job rj = {};

		/* one reading of the format files and the BTF for both headers */
		sb_init(&rj.sb);
		sb_init(&rj.diag);
		err = ctx_headers(&in, NULL, 0, output, "ctx.h", core, &o, &rj);
		if (!err && rj.done) {
			diag_flush(&rj.diag);
			err = rj.err;
			if (!err)
				raw_add(&in, &rj.km, output, "raw.h", &rj.sb, &o);
		} else if (!err) {
			err = raw_headers(&in, NULL, 0, output, "raw.h", RAW_MODE_STANDALONE, &o);
		}
		sb_clear(&rj.sb);
		sb_clear(&rj.diag);
		if (rj.done)
			kmods_clear(&rj.km);
	} else if (raw)
		err = raw_headers(&in, argv + optind, argc - optind, NULL, output,
				  vmlinux_h ? RAW_MODE_VMLINUX : RAW_MODE_STANDALONE, &o);
	else
		err = ctx_headers(&in, argv + optind, argc - optind, NULL, output, core, &o, NULL);
	if (!err)
		err = outputs_commit(&o);
	if (batch)
		return err;	/* written: the model and buffers go with the process */
out:
	outputs_clear(&o);
	inputs_clear(&in);
	return err;
}
