// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tpgen snapshot DIR: copy the live kernel's description so that headers can
 * be generated later, elsewhere, without root:
 *   DIR/events/<sys>/<event>/{format,id}   (read, not tar'ed: tracefs sizes are 0)
 *   DIR/vmlinux                            (raw BTF)
 *   DIR/release                            (uname -r)
 *   DIR/syscalls                           (syscall names and numbers, gen/sysnames.h)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd.h"
#include "sysnames.h"

static int copy_file(const char *from, const char *to)
{
	size_t len;
	char *data;
	int err;

	err = read_file(from, &data, &len);
	if (err) {
		diag_error(from, 0, 0, "cannot read: %s", strerror(-err));
		return err;
	}
	err = write_file_atomic(to, data, len, NULL);
	if (err)
		diag_error(to, 0, 0, "cannot write: %s", strerror(-err));
	free(data);
	return err;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tpgen snapshot [--tracefs DIR] [--btf FILE] DIR\n"
		"Copy this kernel's format files, BTF and release into DIR, for\n"
		"'tpgen --kernel DIR' later, elsewhere, without root.\n");
}

int cmd_snapshot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		INPUT_LONG_OPTIONS,
		{ 0 }
	};
	struct inputs in = {};
	const char *dir, *btf;
	struct utsname u;
	int opt, err, i;
	char *p, *q;

	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		err = inputs_option(&in, opt, optarg);
		if (err < 0)
			goto out;
		if (err)
			continue;
		inputs_free(&in);
		if (opt != 'h')
			return bad_option("snapshot", opt, argv);
		usage(stdout);
		return TPGEN_EXIT_OK;
	}
	if (argc - optind != 1) {
		pr_err("snapshot needs one directory; see 'tpgen snapshot --help'");
		inputs_free(&in);
		return TPGEN_EXIT_USAGE;
	}
	dir = argv[optind];
	err = inputs_load_events(&in);
	if (err) {
		err = err == -ENOENT && !in.tracefs ? -EACCES : err;
		goto out;
	}
	for (i = 0; i < in.evs.nr && !err; i++) {
		const struct tp_event *ev = &in.evs.ev[i];

		p = xasprintf("%s/events/%s/%s", dir, ev->sys, ev->name);
		err = mkdir_p(p);
		if (!err) {
			q = xasprintf("%s/format", p);
			err = copy_file(ev->path, q);
			free(q);
		}
		if (!err && ev->id >= 0) {
			char *id = xasprintf("%d\n", ev->id);

			q = xasprintf("%s/id", p);
			err = write_file_atomic(q, id, strlen(id), NULL);
			free(q);
			free(id);
		}
		free(p);
	}
	if (err)
		goto out;
	btf = in.btf_path ? in.btf_path : "/sys/kernel/btf/vmlinux";
	p = xasprintf("%s/vmlinux", dir);
	err = copy_file(btf, p);
	free(p);
	if (err)
		goto out;
	p = xasprintf("%s/release", dir);
	q = xasprintf("%s\n", in.tracefs ? inputs_release(&in) : uname(&u) ? "unknown" : u.release);
	err = write_file_atomic(p, q, strlen(q), NULL);
	free(p);
	free(q);
	/* the running kernel's syscall names (DIR/syscalls), when it can tell them */
	if (!err && !in.tracefs && !inputs_load_btf(&in, false))
		err = sysnames_snapshot(dir, &in.evs, in.btf);
	if (!err)
		fprintf(stderr, "tpgen: snapshot of %d events, BTF and release in %s\n", in.evs.nr, dir);
out:
	inputs_free(&in);
	return exit_code(err);
}
