// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Inputs: live tracefs and BTF, or copies of them, loaded once on demand. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/btf.h>

#include "inputs.h"
#include "rawtp.h"
#include "util.h"

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

/* A snapshot keeps release and vmlinux beside events/. */
static char *sibling(const char *events_dir, const char *name)
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

const char *inputs_release(struct inputs *in)
{
	struct utsname u;
	char *text, *path;

	if (in->release)
		return in->release;
	if (!in->tracefs) {
		in->release = xstrdup(uname(&u) ? "unknown" : u.release);
		return in->release;
	}
	path = sibling(in->tracefs, "release");
	if (!read_file(path, &text, NULL)) {
		text[strcspn(text, "\n")] = '\0';
		in->release = text;
		note_read(in, path);
	} else {
		in->release = xstrdup("unknown");
	}
	free(path);
	return in->release;
}

int inputs_load_events(struct inputs *in)
{
	char *dir = NULL;
	int err;

	if (in->evs_loaded)
		return 0;
	if (in->tracefs) {
		dir = xstrdup(in->tracefs);
	} else {
		err = tracefs_default_dir(&dir);
		if (err)
			return err;
	}
	err = tracefs_load(&in->evs, dir);
	if (!err) {
		in->evs_loaded = true;
		note_read(in, dir);
	} else {
		tp_events_free(&in->evs);
	}
	free(dir);
	return err;
}

int inputs_load_btf(struct inputs *in, bool required)
{
	const char *path = in->btf_path;
	char *guess = NULL;
	int err;

	if (in->btf_tried)
		return in->btf ? 0 : -ENOENT;
	in->btf_tried = true;
	if (!path && in->tracefs) {
		/* offline input stays offline: a snapshot's vmlinux, never the live one */
		guess = sibling(in->tracefs, "vmlinux");
		if (access(guess, R_OK)) {
			if (required)
				pr_err("no BTF beside %s: pass --btf FILE", in->tracefs);
			free(guess);
			return -ENOENT;
		}
		path = guess;
	}
	if (!path && access("/sys/kernel/btf/vmlinux", R_OK)) {
		if (required)
			pr_err("no kernel BTF: /sys/kernel/btf/vmlinux is missing (CONFIG_DEBUG_INFO_BTF=y), "
			       "pass --btf FILE");
		return -ENOENT;
	}
	err = kbtf_load(path, &in->btf);
	if (!err) {
		__u32 len;
		const void *data = btf__raw_data(in->btf, &len);	/* no second read */

		note_read(in, path ? path : "/sys/kernel/btf/vmlinux");
		if (data)
			in->btf_hash = fnv1a64(FNV1A64_INIT, data, len);
	}
	free(guess);
	return err;
}

void inputs_free(struct inputs *in)
{
	int i;

	if (in->evs_loaded)
		tp_events_free(&in->evs);
	btf__free(in->btf);
	for (i = 0; i < in->nr_read; i++)
		free(in->read[i]);
	free(in->read);
	free(in->tracefs);
	free(in->btf_path);
	free(in->kernel);
	free(in->release);
	memset(in, 0, sizeof(*in));
}
