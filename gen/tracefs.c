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
#include "ident.h"
#include "model.h"
#include "util.h"

#define TRACEFS_MAX_RECORD	65536	/* a trace record never exceeds a page; offsets are u16 */
#define TRACEFS_MAX_FIELDS	1024
#define TRACEFS_MAX_FORMAT	(256 * 1024)	/* 1024 fields; the largest live one is 5.5 KiB */

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
	char *p = line, *semi, *decl, *type, *name, *array, *q;
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
	for (q = decl; *q; q++) {
		/* no quote, backslash, '/', '#': the text goes into comments and list output */
		if (!isalnum((unsigned char)*q) && !strchr("_ \t*[]()+-,<>.", *q)) {
			diag_error(path, lineno, (int)(p - line + (q - decl)) + 1,
				   "unexpected '%c' in a field declaration", *q);
			free(decl);
			return -EINVAL;
		}
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
	if (ident_is_reserved(name)) {
		diag_error(path, lineno, 0, "field '%s': names starting with __tpgen are tpgen's own", name);
		free(decl);
		return -EINVAL;
	}
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

struct accessor {
	char *name;		/* after "<struct>__": "x", "x_len", "read_x" */
	const struct tp_field *f;
};

static int accessor_cmp(const void *a, const void *b)
{
	const struct accessor *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->f->line - y->f->line;
}

/*
 * The ctx header gives __data_loc fields <struct>__x(), __x_len() and
 * __read_x(), and arrays __read_x(): two fields must not get the same one
 * (a __data_loc 'x' and a __data_loc 'x_len', say).
 */
static int check_accessors(const struct tp_event *ev)
{
	struct accessor *v = xcalloc(ev->nr_fields * 3 + 1, sizeof(*v));
	int i, n = 0, err = 0;

	for (i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];

		if (f->kind == FIELD_DATA_LOC || f->kind == FIELD_REL_LOC) {
			v[n++] = (struct accessor){ xstrdup(f->cname), f };
			v[n++] = (struct accessor){ xasprintf("%s_len", f->cname), f };
		}
		if (f->kind == FIELD_DATA_LOC || f->kind == FIELD_REL_LOC || f->kind == FIELD_ARRAY)
			v[n++] = (struct accessor){ xasprintf("read_%s", f->cname), f };
	}
	qsort(v, n, sizeof(*v), accessor_cmp);
	for (i = 1; i < n && !err; i++) {
		if (strcmp(v[i].name, v[i - 1].name) || v[i].f == v[i - 1].f)
			continue;
		diag_error(ev->path, v[i].f->line, 0, "fields '%s' and '%s' would both have the accessor "
			   "<struct>__%s()", v[i - 1].f->name, v[i].f->name, v[i].name);
		err = -EINVAL;
	}
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	return err;
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
	return check_accessors(ev);
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
	struct tp_event *ev;

	if (evs->nr == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		evs->ev = xrealloc(evs->ev, *cap * sizeof(*evs->ev));
	}
	ev = &evs->ev[evs->nr++];
	memset(ev, 0, sizeof(*ev));
	ev->sys = xstrdup(sys);
	ev->name = xstrdup(name);
	ev->path = xasprintf("%s/%s/%s/format", evs->root, sys, name);
	ev->id = -1;
}

int tracefs_open(struct tp_events *evs, const char *dir)
{
	char **systems = NULL;
	int rootfd, nsys = 0, i, j, cap = 0, err;

	memset(evs, 0, sizeof(*evs));
	evs->root = xstrdup(dir);
	rootfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		err = -errno;
		diag_error(dir, 0, 0, "cannot open events directory: %s", strerror(-err));
		return err == -EACCES || err == -EPERM ? -EACCES : err;
	}
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
				char *rel = xasprintf("%s/%s/format", systems[i], events[j]);

				/* a directory without a format file is not an event */
				if (!faccessat(rootfd, rel, F_OK, 0))
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

/* The first NUL or other control byte outside the print format, as line and column. */
static bool find_bad_byte(const char *text, size_t len, int *line, int *col, unsigned char *byte)
{
	const char *p = text, *bol = text, *end = text + len;

	*line = 1;
	for (; p < end; p++) {
		unsigned char c = *p;

		if (c == '\n') {
			const char *t = p + 1;

			while (t < end && (*t == ' ' || *t == '\t'))
				t++;
			if ((size_t)(end - t) >= 10 && !memcmp(t, "print fmt:", 10))
				break;	/* the print format is never read */
			(*line)++;
			bol = p + 1;
			continue;
		}
		if (c == '\0' || (c < 0x20 && c != '\t' && c != '\r') || c >= 0x7f) {
			*col = p - bol + 1;
			*byte = c;
			return true;
		}
	}
	/* a NUL in the print format is still not text */
	if (p < end && memchr(p, '\0', end - p)) {
		const char *nul = memchr(p, '\0', end - p);

		for (; p < nul; p++)
			if (*p == '\n') {
				(*line)++;
				bol = p + 1;
			}
		*col = nul - bol + 1;
		*byte = 0;
		return true;
	}
	return false;
}

int tracefs_check_text(const char *path, const char *text, size_t len)
{
	unsigned char byte;
	int line, col;

	if (!find_bad_byte(text, len, &line, &col, &byte))
		return 0;
	if (byte)
		diag_error(path, line, col, "byte 0x%02x in a format file: not text", byte);
	else
		diag_error(path, line, col, "NUL byte in a format file: not text");
	return -EILSEQ;
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
	const char *why;
	size_t len = 0;
	char *text = NULL, *rel, *q;
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
	rel = xasprintf("%s/%s/format", ev->sys, ev->name);
	err = read_file_at(rd->rootfd, rel, TRACEFS_MAX_FORMAT, &text, &len);
	if (err == -EFBIG) {
		diag_error(ev->path, 0, 0, "format file is more than the %d KiB a format file may have",
			   TRACEFS_MAX_FORMAT / 1024);
		free(rel);
		return err;
	}
	if (err == -TPGEN_ENOTREG) {
		struct stat st = {};

		fstatat(rd->rootfd, rel, &st, 0);
		diag_error(ev->path, 0, 0, "cannot read: %s", file_kind(st.st_mode));
	} else if (err) {
		diag_error(ev->path, 0, 0, "cannot read: %s", strerror(-err));
	}
	free(rel);
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

#define READER_MAX_THREADS	4
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
		sb_free(&job->diag);
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
