// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * An events directory (tracefs events/, or a copy of it): every <sys>/<event>
 * with a format file is listed (tracefs_open()), and only the format files a
 * command needs are read (tracefs_read()), by a few threads, with their
 * diagnostics kept and printed in event order. Directory names are checked
 * here, when an event is read (ident.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "lib/limits.h"
#include "lib/ident.h"
#include "model/model.h"
#include "lib/util.h"

/* An events directory: tracefs has header_page; a copy (snapshot) any subdirectory. */
static int events_dir_check(const char *dir)
{
	struct dirent *de;
	int err = -ENOENT;
	char *p;
	DIR *d;

	p = xasprintf("%s/header_page", dir);
	if (!access(p, F_OK))
		err = 0;
	free(p);
	if (!err)
		return 0;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] != '.' && de->d_type == DT_DIR) {
			err = 0;
			break;
		}
	}
	closedir(d);
	return err;
}

int tracefs_default_dir(char **dir)
{
	static const char *const cands[] = {
		"/sys/kernel/tracing/events",
		"/sys/kernel/debug/tracing/events",
	};
	size_t i;
	int err, denied = 0;

	for (i = 0; i < ARRAY_SIZE(cands); i++) {
		err = events_dir_check(cands[i]);
		if (!err) {
			*dir = xstrdup(cands[i]);
			return 0;
		}
		if (err == -EACCES || err == -EPERM)
			denied = err;
	}
	if (denied) {
		/* tracefs is there (mode 0700), we may not read it: that is not "empty" */
		pr_err("cannot read /sys/kernel/tracing/events: permission denied; run as root, "
		       "or pass --tracefs DIR (a copy made by 'tpgen snapshot')");
		return -EACCES;
	}
	/* tracefs not mounted: mount it where the kernel expects it */
	if (!mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) &&
	    !events_dir_check(cands[0])) {
		*dir = xstrdup(cands[0]);
		return 0;
	}
	pr_err("no tracefs: /sys/kernel/tracing/events is empty and mounting tracefs there failed (%s); "
	       "run as root, or mount it: mount -t tracefs nodev /sys/kernel/tracing, or pass --tracefs DIR",
	       strerror(errno));
	return -EACCES;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the subdirectories of dirfd (closed here). */
static int list_dirs(int dirfd, char ***out, int *nr)
{
	DIR *d = fdopendir(dirfd);
	struct dirent *de;
	char **v = NULL;
	int n = 0, cap = 0;

	if (!d) {
		close(dirfd);
		return -errno;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (de->d_type != DT_DIR) {
			struct stat st;

			if (de->d_type != DT_UNKNOWN ||
			    fstatat(dirfd, de->d_name, &st, 0) || !S_ISDIR(st.st_mode))
				continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), name_cmp);
	*out = v;
	*nr = n;
	return 0;
}

static void add_event(struct tp_events *evs, int *cap, const char *sys, const char *name)
{
	size_t nroot = strlen(evs->root), nsys = strlen(sys), nname = strlen(name), plen;
	struct tp_event *ev;
	char *p;

	if (evs->nr == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		evs->ev = xrealloc(evs->ev, *cap * sizeof(*evs->ev));
	}
	ev = &evs->ev[evs->nr++];
	memset(ev, 0, sizeof(*ev));
	/* sys, name and "<root>/<sys>/<name>/format" */
	plen = nroot + 1 + nsys + 1 + nname + sizeof("/format");
	arena_reserve(&ev->strs, nsys + 1 + nname + 1 + plen);
	ev->sys = arena_strndup(&ev->strs, sys, nsys);
	ev->name = arena_strndup(&ev->strs, name, nname);
	ev->path = p = arena_alloc(&ev->strs, plen);
	p = memcpy(p, evs->root, nroot) + nroot;
	*p++ = '/';
	p = memcpy(p, sys, nsys) + nsys;
	*p++ = '/';
	p = memcpy(p, name, nname) + nname;
	memcpy(p, "/format", sizeof("/format"));
	ev->id = -1;
}

#define TRACEFS_MAGIC	0x74726163

int tracefs_open(struct tp_events *evs, const char *dir)
{
	char **systems = NULL;
	int rootfd, nsys = 0, i, j, cap = 0, err;
	struct statfs sfs;
	bool tracefs;

	memset(evs, 0, sizeof(*evs));
	evs->root = xstrdup(dir);
	rootfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		err = -errno;
		diag_error(dir, 0, 0, "cannot open events directory: %s", strerror(-err));
		return err == -EACCES || err == -EPERM ? -EACCES : err;
	}
	/* in tracefs itself, every event directory has its format file (eventfs makes it) */
	tracefs = !fstatfs(rootfd, &sfs) && sfs.f_type == TRACEFS_MAGIC;
	err = list_dirs(dup(rootfd), &systems, &nsys);
	if (err) {
		diag_error(dir, 0, 0, "cannot read events directory: %s", strerror(-err));
		close(rootfd);
		return err == -EACCES || err == -EPERM ? -EACCES : err;
	}
	for (i = 0; i < nsys; i++) {
		char **events = NULL;
		int nev = 0, sysfd;

		sysfd = openat(rootfd, systems[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sysfd >= 0 && !list_dirs(sysfd, &events, &nev)) {
			for (j = 0; j < nev; j++) {
				char *rel = tracefs ? NULL : xasprintf("%s/%s/format", systems[i], events[j]);

				/* in a copy, a directory without a format file is not an event */
				if (tracefs || !faccessat(rootfd, rel, F_OK, 0))
					add_event(evs, &cap, systems[i], events[j]);
				free(rel);
				free(events[j]);
			}
		}
		free(events);
		free(systems[i]);
	}
	free(systems);
	close(rootfd);
	if (!evs->nr) {
		diag_error(dir, 0, 0, "no events found (expected <sys>/<event>/format files)");
		return -ENOENT;
	}
	return 0;
}

/* One format file, read and parsed; diagnostics into ev's buffer. */
struct read_job {
	struct tp_event ev;	/* the result */
	struct strbuf diag;	/* what it says, printed in event order */
	int err;
};

struct reader {
	struct tp_events *evs;
	int rootfd;
	int *idx;		/* events to read */
	struct read_job *jobs;
	int nr;
	int next;		/* next job to take, atomically */
};

static int read_event(struct reader *rd, const struct tp_event *ev, struct tp_event *out)
{
	/* "<sys>/<event>/format", the tail of its path */
	const char *rel = ev->path + strlen(rd->evs->root) + 1, *why;
	size_t len = 0;
	char *text = NULL, *q;
	int err;

	if ((why = ident_tracefs_name(ev->sys))) {
		q = ident_quoted(ev->sys);
		diag_error(ev->path, 0, 0, "system directory %s is not a tracefs name: %s", q, why);
		free(q);
		return -EINVAL;
	}
	if ((why = ident_tracefs_name(ev->name))) {
		q = ident_quoted(ev->name);
		diag_error(ev->path, 0, 0, "event directory %s is not a tracefs name: %s", q, why);
		free(q);
		return -EINVAL;
	}
	err = read_file_at(rd->rootfd, rel, TRACEFS_MAX_FORMAT, &text, &len);
	if (err == -EFBIG) {
		diag_error(ev->path, 0, 0, "format file is more than the %d KiB a format file may have",
			   TRACEFS_MAX_FORMAT / 1024);
		return err;
	}
	if (err == -TPGEN_ENOTREG) {
		struct stat st = {};

		fstatat(rd->rootfd, rel, &st, 0);
		diag_error(ev->path, 0, 0, "cannot read: %s", file_kind(st.st_mode));
	} else if (err) {
		diag_error(ev->path, 0, 0, "cannot read: %s", strerror(-err));
	}
	if (err)
		return err;
	err = tracefs_check_text(ev->path, text, len);
	if (!err)
		err = tracefs_parse_format(ev->path, text, ev->sys, ev->name, out);
	free(text);
	return err;
}

static void *reader_thread(void *arg)
{
	struct reader *rd = arg;
	int i;

	while ((i = __atomic_fetch_add(&rd->next, 1, __ATOMIC_RELAXED)) < rd->nr) {
		struct read_job *job = &rd->jobs[i];

		sb_init(&job->diag);
		diag_capture_start(&job->diag);
		job->err = read_event(rd, &rd->evs->ev[rd->idx[i]], &job->ev);
		diag_capture_stop();
	}
	return NULL;
}

#define READER_PER_THREAD	64	/* fewer files than this are not worth a thread */

/*
 * Read the format files of the wanted events not read yet. Reading tracefs
 * is mostly kernel time spent printing the files, so they are shared out
 * among a few threads; each one's diagnostics are kept and printed in event
 * order afterwards, so the output is the same from run to run.
 */
int tracefs_read(struct tp_events *evs, const bool *want)
{
	pthread_t threads[READER_MAX_THREADS];
	struct reader rd = { .evs = evs };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int i, err = 0, nthreads, started = 0;

	rd.idx = xcalloc(evs->nr, sizeof(*rd.idx));
	for (i = 0; i < evs->nr; i++)
		if ((!want || want[i]) && !evs->ev[i].loaded)
			rd.idx[rd.nr++] = i;
	if (!rd.nr) {
		free(rd.idx);
		return 0;
	}
	rd.rootfd = open(evs->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rd.rootfd < 0) {
		err = -errno;
		diag_error(evs->root, 0, 0, "cannot open events directory: %s", strerror(-err));
		free(rd.idx);
		return err;
	}
	rd.jobs = xcalloc(rd.nr, sizeof(*rd.jobs));
	nthreads = ncpu < 1 ? 1 : ncpu > READER_MAX_THREADS ? READER_MAX_THREADS : ncpu;
	if (nthreads > (rd.nr + READER_PER_THREAD - 1) / READER_PER_THREAD)
		nthreads = (rd.nr + READER_PER_THREAD - 1) / READER_PER_THREAD;
	for (i = 1; i < nthreads; i++)
		if (!pthread_create(&threads[started], NULL, reader_thread, &rd))
			started++;
	reader_thread(&rd);
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	close(rd.rootfd);

	for (i = 0; i < rd.nr; i++) {
		struct tp_event *ev = &evs->ev[rd.idx[i]];
		struct read_job *job = &rd.jobs[i];

		diag_flush(&job->diag);
		sb_clear(&job->diag);
		if (job->err) {
			err = err ?: job->err;
			continue;
		}
		tp_event_clear(ev);
		*ev = job->ev;
		ev->loaded = true;
	}
	free(rd.jobs);
	free(rd.idx);
	return err ? -EINVAL : 0;
}

int tracefs_load(struct tp_events *evs, const char *dir)
{
	int err = tracefs_open(evs, dir);

	return err ?: tracefs_read(evs, NULL);
}
