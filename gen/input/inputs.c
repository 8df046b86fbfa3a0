// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Inputs: live tracefs and BTF, or copies of them, loaded once on demand.
 * Only the events a command needs are read (inputs_want()); the release and
 * every BTF name are checked here, where they come in (ident.h).
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <bpf/btf.h>

#include "lib/limits.h"
#include "lib/ident.h"
#include "input/inputs.h"
#include "input/rawtp.h"
#include "input/sysnames.h"
#include "lib/util.h"

/* BTF and the format files may load at once (tpgen headers): one list, one lock */
static pthread_mutex_t read_lock = PTHREAD_MUTEX_INITIALIZER;

static void note_read(struct inputs *in, const char *path)
{
	pthread_mutex_lock(&read_lock);
	in->read = xrealloc(in->read, (in->nr_read + 1) * sizeof(*in->read));
	in->read[in->nr_read++] = xstrdup(path);
	pthread_mutex_unlock(&read_lock);
}

int inputs_option(struct inputs *in, int opt, const char *arg)
{
	switch (opt) {
	case 'T':
		free(in->tracefs);
		in->tracefs = xstrdup(arg);
		return 1;
	case 'B':
		free(in->btf_path);
		in->btf_path = xstrdup(arg);
		in->btf_given = true;
		return 1;
	case 'K':
		free(in->kernel);
		in->kernel = xstrdup(arg);
		if (access(arg, F_OK)) {
			diag_error(arg, 0, 0, "no such snapshot directory");
			return -ENOENT;
		}
		if (!in->tracefs)
			in->tracefs = xasprintf("%s/events", arg);
		if (!in->btf_path)
			in->btf_path = xasprintf("%s/vmlinux", arg);
		return 1;
	}
	return 0;
}

static void want_add(struct inputs *in, char *sys, char *name, bool glob)
{
	in->want = xrealloc(in->want, (in->nr_want + 1) * sizeof(*in->want));
	in->want[in->nr_want++] = (struct input_want){ sys, name, glob };
}

void inputs_want(struct inputs *in, char **patterns, int nr)
{
	int i;

	if (!nr)
		in->want_all = true;
	for (i = 0; i < nr; i++)
		want_add(in, xstrdup(patterns[i]), NULL, true);
}

void inputs_want_event(struct inputs *in, const char *sys, const char *name)
{
	want_add(in, xstrdup(sys), xstrdup(name), false);
}

static bool wanted(const struct inputs *in, const struct tp_event *ev)
{
	int i;

	if (in->want_all || !in->nr_want)
		return true;
	for (i = 0; i < in->nr_want; i++) {
		const struct input_want *w = &in->want[i];

		if (w->glob ? tp_pattern_match(w->sys, ev->sys, ev->name)
			    : !strcmp(w->sys, ev->sys) && !strcmp(w->name, ev->name))
			return true;
	}
	return false;
}

/* A snapshot keeps release, vmlinux, syscalls and btf/ beside events/. */
char *inputs_sibling(const char *events_dir, const char *name)
{
	char *dir = xstrdup(events_dir), *slash, *p;
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		dir[--n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	p = xasprintf("%s/%s", slash ? (*dir ? dir : "/") : ".", name);
	free(dir);
	return p;
}

/*
 * The kernel release: uname -r, or a snapshot's release file (one line).
 * It goes into every banner comment and into list and diff output, so it is
 * checked (ident_release()), not escaped later.
 */
static int load_release(struct inputs *in)
{
	const char *why;
	struct utsname u;
	char *text, *path, *nl;
	int err, col;

	if (in->release)
		return 0;
	if (!in->tracefs) {
		in->release = xstrdup(uname(&u) ? "unknown" : u.release);
		why = ident_release(in->release, &col);
		if (why) {
			char *q = ident_quoted(in->release);

			pr_err("kernel release (uname -r) %s: %s", q, why);
			free(q);
			return -EINVAL;
		}
		return 0;
	}
	path = inputs_sibling(in->tracefs, "release");
	if (access(path, F_OK)) {
		in->release = xstrdup("unknown");
		free(path);
		return 0;
	}
	err = read_input(path, "release file", RELEASE_FILE_MAX, &text, NULL);
	if (err) {
		free(path);
		return err == -EACCES || err == -EPERM ? -EACCES : -EINVAL;
	}
	nl = strchr(text, '\n');
	if (nl && nl[1]) {
		diag_error(path, 2, 1, "a release file holds one line, the kernel release");
		err = -EINVAL;
	}
	if (nl)
		*nl = '\0';
	if (!err && (why = ident_release(text, &col))) {
		char c[2] = { text[col - 1], 0 };
		char *q = ident_quoted(c);

		if (*c && !isalnum((unsigned char)*c) && !strchr("_.+-~:", *c))
			diag_error(path, 1, col, "unexpected %s in the kernel release: %s", q, why);
		else
			diag_error(path, 1, col, "%s", why);
		free(q);
		err = -EINVAL;
	}
	if (!err) {
		in->release = text;
		note_read(in, path);
	} else {
		free(text);
	}
	free(path);
	return err;
}

int inputs_load_release(struct inputs *in)
{
	return load_release(in);
}

const char *inputs_release(struct inputs *in)
{
	if (!in->release && load_release(in))
		in->release = xstrdup("unknown");	/* reported; the command has failed */
	return in->release;
}

int inputs_load_events(struct inputs *in)
{
	bool *want;
	char *dir = NULL;
	int err, i;

	if (!in->evs_open) {
		if (in->tracefs) {
			dir = xstrdup(in->tracefs);
		} else {
			err = tracefs_default_dir(&dir);
			if (err)
				return err;
		}
		err = tracefs_open(&in->evs, dir);
		if (err) {
			tp_events_clear(&in->evs);
			free(dir);
			/* the live tracefs that lists no event is the environment's fault */
			return err == -ENOENT && !in->tracefs ? -EACCES : err;
		}
		in->evs_open = true;
		note_read(in, dir);
		free(dir);
	}
	err = load_release(in);
	if (err)
		return err;
	want = xcalloc(in->evs.nr + 1, sizeof(*want));
	for (i = 0; i < in->evs.nr; i++)
		want[i] = wanted(in, &in->evs.ev[i]);
	err = tracefs_read(&in->evs, want);
	free(want);
	if (!err)
		in->evs_loaded = true;
	return err;
}

/* BTF must come from a regular file: a FIFO blocks, /dev/zero never ends. */
static int check_btf_file(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return 0;	/* kbtf_load() says what is missing */
	if (S_ISREG(st.st_mode))
		return 0;
	diag_error(path, 0, 0, "cannot read BTF: %s", file_kind(st.st_mode));
	return -EINVAL;
}

/*
 * BTF: the given file, the snapshot's vmlinux, or the running kernel's. Where
 * none is there, 0 with in->btf NULL, unless 'required' (then reported,
 * -ENOENT); a file that is there but cannot be read or is malformed is an
 * error either way (-EINVAL), reported once.
 */
int inputs_load_btf(struct inputs *in, bool required)
{
	const char *path = in->btf_path, *shown;
	char *guess = NULL;
	int err;

	if (in->btf_tried)
		return in->btf_err;
	if (!path && in->tracefs) {
		/* offline input stays offline: a snapshot's vmlinux, never the live one */
		guess = inputs_sibling(in->tracefs, "vmlinux");
		if (access(guess, F_OK)) {
			free(guess);
			if (!required)
				return 0;
			pr_err("no BTF beside %s: pass --btf FILE", in->tracefs);
			return -ENOENT;
		}
		path = guess;
	}
	if (in->kernel && !in->btf_given && access(path, F_OK)) {
		/* a snapshot without vmlinux: only what needs BTF fails */
		if (!required)
			return 0;
		pr_err("no BTF in %s: pass --btf FILE", in->kernel);
		return -ENOENT;
	}
	if (!path && access("/sys/kernel/btf/vmlinux", F_OK)) {
		if (!required)
			return 0;
		pr_err("no kernel BTF: /sys/kernel/btf/vmlinux is missing (CONFIG_DEBUG_INFO_BTF=y), "
		       "pass --btf FILE");
		return -ENOENT;
	}
	in->btf_tried = true;
	shown = path ? path : "/sys/kernel/btf/vmlinux";
	err = path ? check_btf_file(path) : 0;
	if (!err)
		err = kbtf_load(path, &in->btf);
	if (!err) {
		err = ident_check_btf(in->btf, shown);
		if (err) {
			btf__free(in->btf);
			in->btf = NULL;
		}
	}
	if (!err) {
		__u32 len;
		const void *data = btf__raw_data(in->btf, &len);	/* no second read */

		note_read(in, shown);
		if (data)
			in->btf_hash = fnv1a64(FNV1A64_INIT, data, len);
		err = load_release(in);
	} else if (err != -EACCES && err != -EPERM) {
		err = -EINVAL;	/* there, but not BTF we can use: the input's fault */
	}
	in->btf_err = err;
	free(guess);
	return err;
}

void inputs_clear(struct inputs *in)
{
	int i;

	if (in->evs_open)
		tp_events_clear(&in->evs);
	btf__free(in->btf);
	for (i = 0; i < in->nr_read; i++)
		free(in->read[i]);
	for (i = 0; i < in->nr_want; i++) {
		free(in->want[i].sys);
		free(in->want[i].name);
	}
	free(in->want);
	free(in->read);
	free(in->tracefs);
	free(in->btf_path);
	free(in->kernel);
	free(in->release);
	memset(in, 0, sizeof(*in));
}

int inputs_sysnames(struct inputs *in, struct sysnames *sn, char **why, char **path)
{
	char *file;
	bool *want;
	int err, i;

	*why = NULL;
	*path = NULL;
	if (in->tracefs) {
		/* offline input stays offline: the snapshot's table, never the running kernel's */
		file = in->kernel ? xasprintf("%s/syscalls", in->kernel) : inputs_sibling(in->tracefs, "syscalls");
		err = sysnames_load(file, sn);
		if (!err) {
			*path = file;
			return 0;
		}
		if (err == -EINVAL) {
			free(file);
			return err;	/* reported, located */
		}
		*why = xasprintf("%s: %s ('tpgen snapshot' writes it when run as root on the target)",
				 file, err == -ENOENT ? "no such file" : read_strerror(err));
		free(file);
		return -ENOENT;
	}
	if (!in->btf) {
		*why = xstrdup("the running kernel's syscall table is read through its BTF, which was not found");
		return -ENOENT;
	}
	if (geteuid()) {
		*why = xstrdup("reading the running kernel's syscall table needs root (or --kernel DIR of "
			       "a 'tpgen snapshot')");
		return -ENOENT;
	}
	/*
	 * The metadata is reached through one syscall entry event, whose id
	 * must be read: a spec on sys_exit_X alone reads none of them.
	 */
	want = xcalloc(in->evs.nr ? in->evs.nr : 1, sizeof(*want));
	for (i = 0; i < in->evs.nr; i++)
		if (!strcmp(in->evs.ev[i].sys, "syscalls") && !strncmp(in->evs.ev[i].name, "sys_enter_", 10)) {
			want[i] = true;
			break;
		}
	err = tracefs_read(&in->evs, want);
	free(want);
	if (!err)
		err = sysnames_read_kernel(sn, &in->evs, in->btf);	/* says what is missing */
	if (!err)
		return 0;
	*why = xstrdup("the running kernel's syscall metadata cannot be read (see above)");
	return -ENOENT;
}
