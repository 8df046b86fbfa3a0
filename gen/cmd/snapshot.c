// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tpgen snapshot DIR: copy the live kernel's description so that headers can
 * be generated later, elsewhere, without root:
 *   DIR/events/<sys>/<event>/{format,id}   (read, not tar'ed: tracefs sizes are 0)
 *   DIR/vmlinux                            (raw BTF)
 *   DIR/release                            (uname -r)
 *   DIR/syscalls                           (syscall names and numbers, gen/input/sysnames.h)
 *   DIR/btf/<module>                       (loaded modules' BTF, split on vmlinux's: gen/input/kmods.h)
 * Everything is checked as it would be when read back (names, format files,
 * BTF, release), and DIR appears whole or not at all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "cmd/cmd.h"
#include "input/kmods.h"
#include "out/output.h"
#include "input/sysnames.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tpgen snapshot [--tracefs DIR] [--btf FILE] DIR\n"
		"Copy this kernel's format files, BTF and release into DIR, for\n"
		"'tpgen --kernel DIR' later, elsewhere, without root.\n");
}

static int add_copy(struct outputs *o, const char *dir, const char *from, const char *name)
{
	struct strbuf sb;
	size_t len;
	char *data;
	int err;

	err = read_file(from, &data, &len);
	if (err) {
		diag_error(from, 0, 0, "cannot read: %s", read_strerror(err));
		return err;
	}
	sb_init(&sb);
	sb_add(&sb, data, len);
	outputs_add_in(o, dir, name, &sb);
	free(data);
	return 0;
}

/* BTF as raw bytes (also when read from an ELF's .BTF), into DIR/name. */
static int add_btf(struct outputs *o, const char *dir, const char *name, const struct btf *btf)
{
	struct strbuf sb;
	const void *raw;
	__u32 len;

	raw = btf__raw_data(btf, &len);
	if (!raw) {
		pr_err("cannot copy BTF: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	sb_init(&sb);
	sb_add(&sb, raw, len);
	outputs_add_in(o, dir, name, &sb);
	return 0;
}

int cmd_snapshot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		INPUT_LONG_OPTIONS,
		{ 0 }
	};
	struct inputs in = {};
	struct outputs o = {};
	struct kmods km = {};
	struct strbuf sb;
	const char *dir;
	int opt, err, sn_err = 0, i;
	char *p;

	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		err = inputs_option(&in, opt, optarg);
		if (err < 0)
			goto out;
		if (err)
			continue;
		inputs_clear(&in);
		if (opt != 'h')
			return bad_option("snapshot", opt, argv);
		usage(stdout);
		return 0;
	}
	if (argc - optind != 1) {
		pr_err("snapshot needs one directory; see 'tpgen snapshot --help'");
		inputs_clear(&in);
		return -TPGEN_EUSAGE;
	}
	dir = argv[optind];
	err = inputs_load_events(&in);
	if (err)
		goto out;
	for (i = 0; i < in.evs.nr && !err; i++) {
		const struct tp_event *ev = &in.evs.ev[i];

		p = xasprintf("events/%s/%s/format", ev->sys, ev->name);
		err = add_copy(&o, dir, ev->path, p);
		free(p);
		if (!err && ev->id >= 0) {
			sb_init(&sb);
			sb_printf(&sb, "%d\n", ev->id);
			p = xasprintf("events/%s/%s/id", ev->sys, ev->name);
			outputs_add_in(&o, dir, p, &sb);
			free(p);
		}
	}
	if (err)
		goto out;
	/* the BTF as libbpf read it (raw BTF, also from an ELF's .BTF), checked */
	err = inputs_load_btf(&in, true);
	if (err) {
		err = err == -ENOENT ? -EACCES : err;
		goto out;
	}
	err = add_btf(&o, dir, "vmlinux", in.btf);
	if (err)
		goto out;
	sb_init(&sb);
	sb_printf(&sb, "%s\n", inputs_release(&in));
	outputs_add_in(&o, dir, "release", &sb);
	/* modules' BTF, each checked as it will be read back (split on this vmlinux) */
	err = kmods_load(&in, &km);
	if (err)
		goto out;
	for (i = 0; i < km.nr && !err; i++) {
		p = xasprintf("btf/%s", km.m[i].name);
		err = add_btf(&o, dir, p, km.m[i].btf);
		free(p);
	}
	if (err)
		goto out;
	if (!in.tracefs) {
		/*
		 * The running kernel's syscall names, when it can tell them. When
		 * not, the error is reported and the rest of the snapshot is still
		 * written (usable, as a snapshot without DIR/syscalls is), and the
		 * error returned.
		 */
		struct sysnames sn = {};

		sn_err = sysnames_read_kernel(&sn, &in.evs, in.btf);
		if (!sn_err) {
			sb_init(&sb);
			sysnames_text(&sb, &sn);
			outputs_add_in(&o, dir, "syscalls", &sb);
		} else {
			pr_warn("the snapshot has no syscall names (DIR/syscalls); see the message above");
		}
		sysnames_clear(&sn);
	}
	err = outputs_commit(&o);
	if (!err)
		fprintf(stderr, "tpgen: snapshot of %d events, BTF%s and release in %s\n", in.evs.nr,
			km.nr ? " (vmlinux and modules)" : "", dir);
	err = err ?: sn_err;
out:
	kmods_clear(&km);
	outputs_clear(&o);
	inputs_clear(&in);
	return err;
}
