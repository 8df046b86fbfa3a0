// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tracefs format files -> model. Reads events/<sys>/<event>/format, parses
 * every "field:" line and classifies each field once into the C type that
 * tpgen emits (see ctype.c), then checks the layout: offsets, overlaps, gaps,
 * alignment and the size of the fixed part of the record.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fieldtype.h"
#include "model.h"
#include "util.h"

#define TRACEFS_MAX_RECORD	65536	/* a trace record never exceeds a page; offsets are u16 */
#define TRACEFS_MAX_FIELDS	1024

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* Parse "offset:8;" style "key:value;" into *val; returns the position after ';'. */
static char *parse_num_attr(char *p, const char *key, long *val, bool *ok)
{
	size_t klen = strlen(key);
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, key, klen) || p[klen] != ':') {
		*ok = false;
		return p;
	}
	p += klen + 1;
	errno = 0;
	*val = strtol(p, &end, 10);
	if (end == p || errno || *end != ';') {
		*ok = false;
		return p;
	}
	return end + 1;
}

/* Split a declaration "unsigned long caller[8]" into type, name and array text. */
static int split_decl(char *decl, char **type, char **name, char **array)
{
	char *p = decl + strlen(decl), *name_end;

	*array = NULL;
	if (p > decl && p[-1] == ']') {
		char *open = strrchr(decl, '[');

		if (!open)
			return -EINVAL;
		p[-1] = '\0';
		*array = trim(open + 1);
		p = open;
		*p = '\0';
	}
	while (p > decl && (p[-1] == ' ' || p[-1] == '\t'))
		*--p = '\0';
	name_end = p;
	while (p > decl && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
		p--;
	if (p == name_end || isdigit((unsigned char)*p))
		return -EINVAL;
	*name = p;
	*type = decl;
	/* the type ends right before the name; keep a '*' glued to the name */
	if (p == decl)
		return -EINVAL;
	if (p[-1] == '*') {
		/* "char *name": type is "char *" */
		size_t n = p - decl;
		char *t = xstrndup(decl, n);

		*type = t;
		return 1;	/* caller frees *type */
	}
	p[-1] = '\0';
	*type = decl;
	return 0;
}

static int parse_field(const char *path, int lineno, char *line, struct tp_field *f)
{
	char *p = line, *semi, *decl, *type, *name, *array;
	long off, size, sgn = 0;
	bool ok = true;
	int r;

	memset(f, 0, sizeof(*f));
	p = strstr(line, "field:");
	p += strlen("field:");
	semi = strchr(p, ';');
	if (!semi) {
		diag_error(path, lineno, (int)(p - line) + 1, "expected ';' after field declaration");
		return -EINVAL;
	}
	decl = xstrndup(p, semi - p);
	if (strstr(decl, "offset:")) {
		diag_error(path, lineno, (int)(strstr(p, "offset:") - line) + 1,
			   "expected ';' between the field declaration and 'offset:'");
		free(decl);
		return -EINVAL;
	}
	p = semi + 1;
	p = parse_num_attr(p, "offset", &off, &ok);
	if (ok)
		p = parse_num_attr(p, "size", &size, &ok);
	if (ok)
		p = parse_num_attr(p, "signed", &sgn, &ok);
	if (!ok) {
		diag_error(path, lineno, (int)(p - line) + 1,
			   "expected 'offset:N; size:N; signed:N;' after field '%s'", trim(decl));
		free(decl);
		return -EINVAL;
	}
	if (off < 0 || size < 0 || off >= TRACEFS_MAX_RECORD || off + size > TRACEFS_MAX_RECORD) {
		diag_error(path, lineno, 0, "field '%s' at offset %ld size %ld is outside a trace record (64 KiB)",
			   trim(decl), off, size);
		free(decl);
		return -ERANGE;
	}
	if (sgn != 0 && sgn != 1) {
		diag_error(path, lineno, 0, "field '%s': 'signed' must be 0 or 1, not %ld", trim(decl), sgn);
		free(decl);
		return -EINVAL;
	}
	f->decl = xstrdup(trim(decl));
	r = split_decl(trim(decl), &type, &name, &array);
	if (r < 0) {
		diag_error(path, lineno, 0, "cannot find a field name in '%s'", f->decl);
		free(decl);
		return -EINVAL;
	}
	f->type = xstrdup(trim(type));
	if (r == 1)
		free(type);
	f->name = xstrdup(name);
	f->array = array ? xstrdup(array) : NULL;
	f->offset = off;
	f->size = size;
	f->is_signed = sgn;
	f->line = lineno;
	free(decl);
	return ctype_classify(path, f);
}

static void tp_field_clear(struct tp_field *f)
{
	free(f->decl);
	free(f->type);
	free(f->name);
	free(f->cname);
	free(f->array);
	free(f->ctype);
	free(f->suffix);
	free(f->fwd);
	free(f->elem_ctype);
	memset(f, 0, sizeof(*f));
}

void tp_event_clear(struct tp_event *ev)
{
	int i;

	for (i = 0; i < ev->nr_fields; i++)
		tp_field_clear(&ev->fields[i]);
	free(ev->fields);
	free(ev->sys);
	free(ev->name);
	free(ev->path);
	free(ev->struct_name);
	free(ev->core_class);
	memset(ev, 0, sizeof(*ev));
}

static int field_off_cmp(const void *a, const void *b)
{
	const struct tp_field *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->line - y->line;	/* stable: file order */
}

/* Check the layout and compute the record's fixed size and alignment. */
static int check_layout(struct tp_event *ev)
{
	unsigned int end = 0, align = 1, i;
	const struct tp_field *prev = NULL;

	qsort(ev->fields, ev->nr_fields, sizeof(*ev->fields), field_off_cmp);
	for (i = 0; i < (unsigned int)ev->nr_fields; i++) {
		struct tp_field *f = &ev->fields[i];
		unsigned int a = ctype_align(f);
		int j;

		if (f->offset < end) {
			diag_error(ev->path, f->line, 0,
				   "field '%s' at offset %u overlaps field '%s' (offset %u, size %u)",
				   f->name, f->offset, prev->name, prev->offset, prev->size);
			return -EINVAL;
		}
		for (j = 0; j < (int)i; j++) {
			if (!strcmp(ev->fields[j].name, f->name)) {
				diag_error(ev->path, f->line, 0, "duplicate field '%s'", f->name);
				return -EINVAL;
			}
		}
		if (f->offset % a)
			ev->packed = true;
		else if (a > align)
			align = a;
		if (f->offset + f->size > end)
			end = f->offset + f->size;
		prev = f;
	}
	ev->align = align;
	ev->size = (end + align - 1) / align * align;
	return 0;
}

int tracefs_parse_format(const char *path, const char *text, const char *sys,
			 const char *name, struct tp_event *ev)
{
	char *copy = xstrdup(text), *line, *next;
	bool in_format = false, common = true, seen_name = false;
	int lineno = 0, cap = 0, err = 0;

	memset(ev, 0, sizeof(*ev));
	ev->sys = xstrdup(sys);
	ev->name = xstrdup(name);
	ev->path = xstrdup(path);
	ev->id = -1;
	ev->hash = fnv1a64(FNV1A64_INIT, text, strlen(text));
	for (line = copy; line && *line; line = next) {
		char *t;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		t = trim(line);
		if (!in_format) {
			if (!strncmp(t, "name:", 5)) {
				seen_name = true;
			} else if (!strncmp(t, "ID:", 3)) {
				char *end;
				long id;

				errno = 0;
				id = strtol(t + 3, &end, 10);
				if (errno || end == t + 3 || *trim(end) || id < 0 || id > 0xffff) {
					diag_error(path, lineno, 0, "bad event id '%s'", trim(t + 3));
					err = -EINVAL;
					break;
				}
				ev->id = id;
			} else if (!strcmp(t, "format:")) {
				in_format = true;
			} else if (*t) {
				diag_error(path, lineno, 1, "expected 'name:', 'ID:' or 'format:'");
				err = -EINVAL;
				break;
			}
			continue;
		}
		if (!*t) {
			if (ev->nr_fields)
				common = false;
			continue;
		}
		if (!strncmp(t, "print fmt:", 10))
			break;
		if (strncmp(t, "field:", 6)) {
			diag_error(path, lineno, (int)(t - line) + 1, "expected 'field:' or 'print fmt:'");
			err = -EINVAL;
			break;
		}
		if (ev->nr_fields >= TRACEFS_MAX_FIELDS) {
			diag_error(path, lineno, 0, "more than %d fields", TRACEFS_MAX_FIELDS);
			err = -E2BIG;
			break;
		}
		if (ev->nr_fields == cap) {
			cap = cap ? cap * 2 : 16;
			ev->fields = xrealloc(ev->fields, cap * sizeof(*ev->fields));
		}
		err = parse_field(path, lineno, line, &ev->fields[ev->nr_fields]);
		if (err) {
			tp_field_clear(&ev->fields[ev->nr_fields]);
			break;
		}
		ev->fields[ev->nr_fields].common = common &&
			!strncmp(ev->fields[ev->nr_fields].name, "common_", 7);
		ev->nr_fields++;
	}
	free(copy);
	if (!err && (!seen_name || !in_format)) {
		diag_error(path, lineno ? lineno : 1, 0, "not a tracefs format file (no '%s' line)",
			   seen_name ? "format:" : "name:");
		err = -EINVAL;
	}
	if (!err && !ev->nr_fields) {
		diag_error(path, lineno, 0, "event has no fields");
		err = -EINVAL;
	}
	if (!err)
		err = check_layout(ev);
	if (err)
		tp_event_clear(ev);
	return err;
}

static bool events_dir_ok(const char *dir)
{
	char *p = xasprintf("%s/header_page", dir);
	bool ok = !access(p, F_OK);

	free(p);
	if (!ok) {
		/* a copied tree (snapshot) has no header_page: any subdirectory will do */
		DIR *d = opendir(dir);
		struct dirent *de;

		if (!d)
			return false;
		while ((de = readdir(d)))
			if (de->d_name[0] != '.' && de->d_type == DT_DIR) {
				ok = true;
				break;
			}
		closedir(d);
	}
	return ok;
}

int tracefs_default_dir(char **dir)
{
	static const char *const cands[] = {
		"/sys/kernel/tracing/events",
		"/sys/kernel/debug/tracing/events",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cands); i++) {
		if (events_dir_ok(cands[i])) {
			*dir = xstrdup(cands[i]);
			return 0;
		}
	}
	/* tracefs not mounted: mount it where the kernel expects it */
	if (!mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) &&
	    events_dir_ok(cands[0])) {
		*dir = xstrdup(cands[0]);
		return 0;
	}
	pr_err("no tracefs: /sys/kernel/tracing/events is empty and mounting tracefs there failed (%s); "
	       "run as root, or mount it: mount -t tracefs nodev /sys/kernel/tracing, or pass --tracefs DIR",
	       strerror(errno));
	return -ENOENT;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the subdirectories of dirfd. */
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

static int read_at(int dirfd, const char *name, char **out)
{
	size_t n;
	int err = read_file_at(dirfd, name, out, &n);

	if (!err && memchr(*out, '\0', n)) {
		free(*out);
		*out = NULL;
		return -EILSEQ;
	}
	return err;
}

/* One system's events, read by whichever loader thread took it. */
struct sys_result {
	struct tp_event *ev;
	int nr;
	int bad;
};

struct loader {
	const char *dir;
	int rootfd;
	char **systems;
	int nsys;
	int next;		/* next system to take, atomically */
	struct sys_result *res;
};

static void load_system(struct loader *ld, int i)
{
	struct sys_result *res = &ld->res[i];
	const char *sys = ld->systems[i];
	char **events = NULL;
	int nev = 0, sysfd, j, cap = 0;

	sysfd = openat(ld->rootfd, sys, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sysfd < 0 || list_dirs(dup(sysfd), &events, &nev)) {
		if (sysfd >= 0)
			close(sysfd);
		return;
	}
	for (j = 0; j < nev; j++) {
		char *rel = xasprintf("%s/format", events[j]), *text = NULL, *path;
		struct tp_event ev;
		int r;

		r = read_at(sysfd, rel, &text);
		free(rel);
		if (r == -ENOENT) {
			free(events[j]);
			continue;
		}
		path = xasprintf("%s/%s/%s/format", ld->dir, sys, events[j]);
		if (r) {
			diag_error(path, 0, 0, "cannot read: %s",
				   r == -EILSEQ ? "contains NUL bytes" : strerror(-r));
			res->bad++;
		} else if (!tracefs_parse_format(path, text, sys, events[j], &ev)) {
			if (res->nr == cap) {
				cap = cap ? cap * 2 : 16;
				res->ev = xrealloc(res->ev, cap * sizeof(*res->ev));
			}
			res->ev[res->nr++] = ev;
		} else {
			res->bad++;
		}
		free(text);
		free(path);
		free(events[j]);
	}
	free(events);
	close(sysfd);
}

static void *loader_thread(void *arg)
{
	struct loader *ld = arg;
	int i;

	while ((i = __atomic_fetch_add(&ld->next, 1, __ATOMIC_RELAXED)) < ld->nsys)
		load_system(ld, i);
	return NULL;
}

#define LOADER_MAX_THREADS	4

/*
 * Read every <sys>/<event>/format under dir. Reading tracefs is mostly kernel
 * time spent printing the files, so systems are shared out among a few
 * threads; results are joined in sorted order, so output is the same.
 */
int tracefs_load(struct tp_events *evs, const char *dir)
{
	pthread_t threads[LOADER_MAX_THREADS];
	struct loader ld = { .dir = dir };
	int i, err, bad = 0, nthreads, started = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	memset(evs, 0, sizeof(*evs));
	evs->root = xstrdup(dir);
	ld.rootfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ld.rootfd < 0) {
		err = -errno;
		diag_error(dir, 0, 0, "cannot open events directory: %s", strerror(-err));
		return err;
	}
	err = list_dirs(dup(ld.rootfd), &ld.systems, &ld.nsys);
	if (err) {
		diag_error(dir, 0, 0, "cannot read events directory: %s", strerror(-err));
		close(ld.rootfd);
		return err;
	}
	ld.res = xcalloc(ld.nsys, sizeof(*ld.res));
	nthreads = ncpu < 1 ? 1 : ncpu > LOADER_MAX_THREADS ? LOADER_MAX_THREADS : ncpu;
	if (nthreads > ld.nsys)
		nthreads = ld.nsys;
	for (i = 1; i < nthreads; i++)
		if (!pthread_create(&threads[started], NULL, loader_thread, &ld))
			started++;
	loader_thread(&ld);
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);

	for (i = 0; i < ld.nsys; i++)
		evs->nr += ld.res[i].nr;
	evs->ev = xcalloc(evs->nr, sizeof(*evs->ev));
	evs->nr = 0;
	for (i = 0; i < ld.nsys; i++) {
		if (ld.res[i].nr)
			memcpy(evs->ev + evs->nr, ld.res[i].ev, ld.res[i].nr * sizeof(*evs->ev));
		evs->nr += ld.res[i].nr;
		bad += ld.res[i].bad;
		free(ld.res[i].ev);
		free(ld.systems[i]);
	}
	free(ld.res);
	free(ld.systems);
	close(ld.rootfd);
	if (bad)
		return -EINVAL;
	if (!evs->nr) {
		diag_error(dir, 0, 0, "no events found (expected <sys>/<event>/format files)");
		return -ENOENT;
	}
	return 0;
}

void tp_events_free(struct tp_events *evs)
{
	int i;

	for (i = 0; i < evs->nr; i++)
		tp_event_clear(&evs->ev[i]);
	free(evs->ev);
	free(evs->root);
	memset(evs, 0, sizeof(*evs));
}

struct tp_event *tp_events_find(struct tp_events *evs, const char *sys, const char *name)
{
	int lo = 0, hi = evs->nr - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2, c = strcmp(evs->ev[mid].sys, sys);

		if (!c)
			c = strcmp(evs->ev[mid].name, name);
		if (!c)
			return &evs->ev[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}
