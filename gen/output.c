// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The writer stage: atomic replace, --check compare, depfile. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

void outputs_add(struct outputs *o, const char *path, struct strbuf *sb)
{
	struct output_file *f;

	o->files = xrealloc(o->files, (o->nr + 1) * sizeof(*o->files));
	f = &o->files[o->nr++];
	f->path = path ? xstrdup(path) : NULL;
	f->data = *sb;
	sb_init(sb);
}

void outputs_dep(struct outputs *o, const char *path)
{
	if (!o->depfile)
		return;		/* only a depfile needs them */
	if (!(o->nr_deps & (o->nr_deps - 1)))	/* 0, 1, 2, 4, ...: double */
		o->deps = xrealloc(o->deps, (o->nr_deps ? o->nr_deps * 2 : 1) * sizeof(*o->deps));
	o->deps[o->nr_deps++] = xstrdup(path);
}

static bool is_stdout(const char *path)
{
	return !path || !strcmp(path, "-");
}

/* make syntax: escape spaces, '#' and '$' */
static void dep_escape(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == ' ' || *s == '#' || *s == '\\')
			sb_putc(sb, '\\');
		if (*s == '$')
			sb_putc(sb, '$');
		sb_putc(sb, *s);
	}
}

static int write_depfile(struct outputs *o)
{
	struct strbuf sb;
	int i, err, n = 0;

	sb_init(&sb);
	for (i = 0; i < o->nr; i++) {
		if (is_stdout(o->files[i].path))
			continue;
		if (n++)
			sb_putc(&sb, ' ');
		dep_escape(&sb, o->files[i].path);
	}
	if (!n) {
		sb_free(&sb);
		pr_err("--depfile needs output files (-o)");
		return -EINVAL;
	}
	qsort(o->deps, o->nr_deps, sizeof(*o->deps), str_cmp);	/* same bytes every run */
	sb_putc(&sb, ':');
	for (i = 0; i < o->nr_deps; i++) {
		if (i && !strcmp(o->deps[i], o->deps[i - 1]))
			continue;
		sb_puts(&sb, " \\\n  ");
		dep_escape(&sb, o->deps[i]);
	}
	sb_putc(&sb, '\n');
	/* like gcc -MP: a rule per input, so a removed input does not break make */
	for (i = 0; i < o->nr_deps; i++) {
		if (i && !strcmp(o->deps[i], o->deps[i - 1]))
			continue;
		sb_putc(&sb, '\n');
		dep_escape(&sb, o->deps[i]);
		sb_puts(&sb, ":\n");
	}
	err = write_file_atomic(o->depfile, sb.buf, sb.len, NULL);
	if (err)
		diag_error(o->depfile, 0, 0, "cannot write: %s", strerror(-err));
	sb_free(&sb);
	return err;
}

int outputs_commit(struct outputs *o)
{
	int i, err, stale = 0;

	if (o->check) {
		for (i = 0; i < o->nr; i++) {
			struct output_file *f = &o->files[i];
			size_t len;
			char *old;

			if (is_stdout(f->path)) {
				pr_err("--check needs output files (-o)");
				return -EINVAL;
			}
			if (read_file(f->path, &old, &len)) {
				fprintf(stderr, "%s: missing\n", f->path);
				stale++;
				continue;
			}
			if (len != f->data.len || memcmp(old, f->data.buf ? f->data.buf : "", len)) {
				fprintf(stderr, "%s: stale\n", f->path);
				stale++;
			}
			free(old);
		}
		return stale ? 1 : 0;
	}
	for (i = 0; i < o->nr; i++) {
		struct output_file *f = &o->files[i];
		bool changed;

		if (is_stdout(f->path)) {
			if (f->data.len && (fwrite(f->data.buf, 1, f->data.len, stdout) != f->data.len ||
					    fflush(stdout))) {
				pr_err("writing to stdout: %s", strerror(errno));
				return -EIO;
			}
			continue;
		}
		err = write_file_atomic(f->path, f->data.buf ? f->data.buf : "", f->data.len, &changed);
		if (err) {
			diag_error(f->path, 0, 0, "cannot write: %s", strerror(-err));
			return err;
		}
		o->written += changed;
	}
	return o->depfile ? write_depfile(o) : 0;
}

void outputs_free(struct outputs *o)
{
	int i;

	for (i = 0; i < o->nr; i++) {
		free(o->files[i].path);
		sb_free(&o->files[i].data);
	}
	for (i = 0; i < o->nr_deps; i++)
		free(o->deps[i]);
	free(o->files);
	free(o->deps);
	memset(o, 0, sizeof(*o));
}
