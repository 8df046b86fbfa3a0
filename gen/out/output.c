// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The writer stage: files replaced atomically, program directories swapped
 * in whole, --check comparisons, and the depfile.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/limits.h"
#include "lib/ident.h"
#include "out/output.h"
#include "out/write.h"

static struct output_file *add_file(struct outputs *o, char *path, int dir, struct strbuf *sb)
{
	struct output_file *f;

	o->files = xrealloc(o->files, (o->nr + 1) * sizeof(*o->files));
	f = &o->files[o->nr++];
	f->path = path;
	f->dir = dir;
	f->name = path;
	f->data = *sb;
	sb_init(sb);
	return f;
}

void outputs_add(struct outputs *o, const char *path, struct strbuf *sb)
{
	add_file(o, path ? xstrdup(path) : NULL, -1, sb);
}

void outputs_add_in(struct outputs *o, const char *dir, const char *name, struct strbuf *sb)
{
	struct output_file *f;
	int d;

	for (d = 0; d < o->nr_dirs && strcmp(o->dirs[d], dir); d++)
		;
	if (d == o->nr_dirs) {
		o->dirs = xrealloc(o->dirs, (o->nr_dirs + 1) * sizeof(*o->dirs));
		o->dirs[o->nr_dirs++] = xstrdup(dir);
	}
	f = add_file(o, xasprintf("%s/%s", dir, name), d, sb);
	f->name = f->path + strlen(dir) + 1;
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

/* ---- the depfile ----------------------------------------------------------- */

/*
 * What make cannot read back in a file name, whatever the escaping: a line
 * break or tab ends the rule or starts a recipe, ';' starts a recipe, '='
 * makes a variable, '|' order-only prerequisites, '(' an archive member, a
 * leading '~' a home directory; a backslash changes what follows it.
 */
static const char *dep_unsafe(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (*p == '~')
		return "a leading '~'";
	for (; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return *p == '\n' ? "a newline" : *p == '\t' ? "a tab" : "a control character";
		switch (*p) {
		case ';': return "';'";
		case '=': return "'='";
		case '|': return "'|'";
		case '(':
		case ')': return "a parenthesis";
		case '\\': return "a backslash";
		}
	}
	return NULL;
}

/*
 * GNU make's escapes: '\ ', '\#', '$$', '\:', '\*', '\?', '\['; '%' is
 * special only in a target (a pattern rule), where it is '\%'.
 */
static void dep_escape(struct strbuf *sb, const char *s, bool target)
{
	for (; *s; s++) {
		switch (*s) {
		case '$':
			sb_puts(sb, "$$");
			continue;
		case '%':
			if (target)
				sb_putc(sb, '\\');
			break;
		case ' ': case '#': case ':': case '*': case '?': case '[':
			sb_putc(sb, '\\');
			break;
		}
		sb_putc(sb, *s);
	}
}

static int dep_check(const struct outputs *o, const char *path)
{
	const char *why = dep_unsafe(path);
	char *q;

	if (!why)
		return 0;
	q = ident_quoted(path);
	diag_error(o->depfile, 0, 0, "cannot name %s in a depfile: make has no escape for %s in a file name",
		   q, why);
	free(q);
	return -EINVAL;
}

static int make_depfile(struct outputs *o, struct strbuf *sb)
{
	int i, n = 0, err = 0;

	for (i = 0; i < o->nr && !err; i++)
		if (!is_stdout(o->files[i].path))
			err = dep_check(o, o->files[i].path);
	for (i = 0; i < o->nr_deps && !err; i++)
		err = dep_check(o, o->deps[i]);
	if (err)
		return err;
	for (i = 0; i < o->nr; i++) {
		if (is_stdout(o->files[i].path))
			continue;
		if (n++)
			sb_putc(sb, ' ');
		dep_escape(sb, o->files[i].path, true);
	}
	if (!n) {
		pr_err("--depfile needs output files (-o)");
		return -EINVAL;
	}
	qsort(o->deps, o->nr_deps, sizeof(*o->deps), str_cmp);	/* same bytes every run */
	sb_putc(sb, ':');
	for (i = 0; i < o->nr_deps; i++) {
		if (i && !strcmp(o->deps[i], o->deps[i - 1]))
			continue;
		sb_puts(sb, " \\\n  ");
		dep_escape(sb, o->deps[i], false);
	}
	sb_putc(sb, '\n');
	/* like gcc -MP: a rule per input, so a removed input does not break make */
	for (i = 0; i < o->nr_deps; i++) {
		if (i && !strcmp(o->deps[i], o->deps[i - 1]))
			continue;
		sb_putc(sb, '\n');
		dep_escape(sb, o->deps[i], true);
		sb_puts(sb, ":\n");
	}
	return 0;
}

/* ---- directories written whole --------------------------------------------- */

/* Remove what fd's directory holds, never following a symlink; then fd is closed. */
static void remove_all_at(int fd, int depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *de;

	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d))) {
		int sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!unlinkat(fd, de->d_name, 0) || errno != EISDIR)
			continue;
		sub = depth < REMOVE_MAX_DEPTH ?
		      openat(fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
		if (sub >= 0)
			remove_all_at(sub, depth + 1);
		unlinkat(fd, de->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

static void remove_tree(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0)
		remove_all_at(fd, 0);
	rmdir(path);
}

/* Make the directories above 'name' (a path inside dirfd's directory). */
static int mkdirs_at(int dirfd, const char *name)
{
	char *p = xstrdup(name), *s;
	int err = 0;

	for (s = strchr(p, '/'); s && !err; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdirat(dirfd, p, dir_mode_default()) && errno != EEXIST)
			err = -errno;
		*s = '/';
	}
	free(p);
	return err;
}

static int write_new_at(int dirfd, const char *name, const struct strbuf *data, const struct stat *times)
{
	int fd, err;

	err = mkdirs_at(dirfd, name);
	if (err)
		return err;

	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, file_mode_default());
	if (fd < 0)
		return -errno;
	err = write_all(fd, data->buf ? data->buf : "", data->len);
	if (!err && times) {
		struct timespec ts[2] = { times->st_atim, times->st_mtim };

		futimens(fd, ts);	/* the old file's times: make sees no change */
	}
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* Does tpgen write 'name' (an entry of the directory), or something under it? */
static bool in_dir(const struct outputs *o, int d, const char *name)
{
	size_t n = strlen(name);
	int i;

	for (i = 0; i < o->nr; i++)
		if (o->files[i].dir == d && !strncmp(o->files[i].name, name, n) &&
		    (!o->files[i].name[n] || o->files[i].name[n] == '/'))
			return true;
	return false;
}

/*
 * Move what directory 'from' holds besides tpgen's files (a build's
 * .output/, the binary) into 'to'; on failure, move it back.
 */
static int move_foreign(const struct outputs *o, int d, int from, int to)
{
	char **moved = NULL;
	int n = 0, i, err = 0, fd = dup(from);
	struct dirent *de;
	DIR *dir;

	dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	while (!err && (de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || in_dir(o, d, de->d_name))
			continue;
		if (renameat(from, de->d_name, to, de->d_name)) {
			err = -errno;
			break;
		}
		moved = xrealloc(moved, (n + 1) * sizeof(*moved));
		moved[n++] = xstrdup(de->d_name);
	}
	closedir(dir);
	for (i = 0; i < n; i++) {
		if (err)
			renameat(to, moved[i], from, moved[i]);
		free(moved[i]);
	}
	free(moved);
	return err;
}

/* Put the directory 'tmp' in the place of 'dir' (which may not exist); the old one ends at 'tmp'. */
static int swap_in(const char *tmp, const char *dir, const char *parent, const char *base)
{
	bool moved;
	char *old;
	int err;

	if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE))
		return 0;
	if (errno == ENOENT && !renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_NOREPLACE)) {
		/* nothing was there: an empty one goes back to tmp, for the caller to remove */
		mkdir(tmp, 0700);
		return 0;
	}
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	/* no RENAME_EXCHANGE here: move the old one aside onto an empty directory, then rename */
	old = xasprintf("%s/.%s.old.XXXXXX", parent, base);
	if (!mkdtemp(old)) {
		err = -errno;
		free(old);
		return err;
	}
	moved = !rename(dir, old);
	if (!moved && errno != ENOENT) {
		err = -errno;
		rmdir(old);
		free(old);
		return err;
	}
	if (rename(tmp, dir)) {
		err = -errno;
		if (moved)
			rename(old, dir);
		else
			rmdir(old);
		free(old);
		return err;
	}
	err = rename(old, tmp) ? -errno : 0;
	if (err)
		remove_tree(old);
	free(old);
	return 0;
}

/*
 * Can 'dir' be swapped for a new one? Not '.' or '..' (rename() refuses
 * them), nor the directory tpgen runs in: the shell that started it would be
 * left in a removed directory.
 */
static bool swappable(const char *dir)
{
	const char *slash = strrchr(dir, '/'), *base = slash ? slash + 1 : dir;
	struct stat st, cwd;

	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return false;
	return stat(dir, &st) || stat(".", &cwd) || st.st_dev != cwd.st_dev || st.st_ino != cwd.st_ino;
}

/* The files of a directory that cannot be swapped, replaced one by one */
static int commit_in_place(struct outputs *o, int d)
{
	const char *slash;
	int i, err = 0;
	char *sub;

	for (i = 0; i < o->nr && !err; i++) {
		struct output_file *f = &o->files[i];
		bool changed;

		if (f->dir != d)
			continue;
		slash = strrchr(f->path, '/');
		sub = xstrndup(f->path, slash - f->path);	/* the directory, or one below it */
		err = mkdir_p(sub);	/* says why it cannot */
		free(sub);
		if (err)
			break;
		err = write_file_atomic(f->path, f->data.buf ? f->data.buf : "", f->data.len, &changed);
		if (err)
			diag_error(f->path, 0, 0, "cannot write: %s", read_strerror(err));
		else
			o->written += changed;
	}
	return err;
}

static int commit_dir(struct outputs *o, int d)
{
	const char *dir = o->dirs[d], *slash = strrchr(dir, '/');
	char *parent = slash ? xstrndup(dir, slash - dir + (slash == dir)) : xstrdup(".");
	const char *base = slash ? slash + 1 : dir;
	int oldfd = -1, newfd = -1, i, err = 0, changed = 0;
	bool exists = false, *same = xcalloc(o->nr + 1, sizeof(*same)), all_same = true;
	struct stat st, *old_st = xcalloc(o->nr + 1, sizeof(*old_st));
	char *tmp = NULL;

	if (!swappable(dir)) {
		free(parent);
		free(same);
		free(old_st);
		return commit_in_place(o, d);
	}
	if (strcmp(parent, ".") && (err = mkdir_p(parent)))
		goto out_quiet;
	if (!lstat(dir, &st)) {
		if (!S_ISDIR(st.st_mode)) {
			diag_error(dir, 0, 0, "cannot write: it exists and is not a directory");
			err = -ENOTDIR;
			goto out_quiet;
		}
		exists = true;
		oldfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (oldfd < 0) {
			err = -errno;
			goto out;
		}
	} else if (errno != ENOENT) {
		err = -errno;
		goto out;
	}
	for (i = 0; i < o->nr; i++) {
		if (o->files[i].dir != d)
			continue;
		same[i] = exists && same_file_content(oldfd, o->files[i].name, o->files[i].data.buf ?: "",
						       o->files[i].data.len, &old_st[i]);
		all_same &= same[i];
	}
	if (exists && all_same)
		goto out_quiet;		/* nothing to write: not even the directory changes */

	/* the new directory, private until it is complete */
	tmp = xasprintf("%s/.%s.XXXXXX", parent, base);
	if (!mkdtemp(tmp)) {
		err = -errno;
		free(tmp);
		tmp = NULL;
		goto out;
	}
	if (chmod(tmp, exists ? st.st_mode & 07777 : dir_mode_default())) {
		err = -errno;
		goto out;
	}
	newfd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (newfd < 0) {
		err = -errno;
		goto out;
	}
	for (i = 0; i < o->nr && !err; i++) {
		if (o->files[i].dir != d)
			continue;
		/* unchanged: the same inode, so its mtime too; else a copy with the old times */
		if (same[i] && !mkdirs_at(newfd, o->files[i].name) &&
		    !linkat(oldfd, o->files[i].name, newfd, o->files[i].name, 0))
			continue;
		err = write_new_at(newfd, o->files[i].name, &o->files[i].data, same[i] ? &old_st[i] : NULL);
		changed += !same[i];
	}
	if (!err && exists)
		err = move_foreign(o, d, oldfd, newfd);
	if (!err) {
		err = swap_in(tmp, dir, parent, base);
		if (err && exists)
			move_foreign(o, d, newfd, oldfd);	/* the build's files go back */
	}
	if (!err)
		o->written += changed;
out:
	if (err)
		diag_error(dir, 0, 0, "cannot write: %s", strerror(-err));
out_quiet:
	if (newfd >= 0)
		close(newfd);
	if (oldfd >= 0)
		close(oldfd);
	if (tmp)
		remove_tree(tmp);	/* the old directory after a swap; the new one after a failure */
	free(tmp);
	free(parent);
	free(same);
	free(old_st);
	return err;
}

/* ---- commit ------------------------------------------------------------------ */

static int check_all(struct outputs *o)
{
	int i, stale = 0;

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

int outputs_commit(struct outputs *o)
{
	struct strbuf dep;
	int i, err = 0;

	if (o->check)
		return check_all(o);
	sb_init(&dep);
	if (o->depfile)
		err = make_depfile(o, &dep);	/* refused before anything is written */
	for (i = 0; i < o->nr_dirs && !err; i++)
		err = commit_dir(o, i);
	for (i = 0; i < o->nr && !err; i++) {
		struct output_file *f = &o->files[i];
		bool changed;

		if (f->dir >= 0)
			continue;
		if (is_stdout(f->path)) {
			if (f->data.len && (fwrite(f->data.buf, 1, f->data.len, stdout) != f->data.len ||
					    fflush(stdout))) {
				pr_err("writing to stdout: %s", strerror(errno));
				err = -EIO;
			}
			continue;
		}
		err = write_file_atomic(f->path, f->data.buf ? f->data.buf : "", f->data.len, &changed);
		if (err)
			diag_error(f->path, 0, 0, "cannot write: %s", read_strerror(err));
		else
			o->written += changed;
	}
	if (!err && o->depfile) {
		err = write_file_atomic(o->depfile, dep.buf, dep.len, NULL);
		if (err)
			diag_error(o->depfile, 0, 0, "cannot write: %s", read_strerror(err));
	}
	sb_clear(&dep);
	return err;
}

void outputs_clear(struct outputs *o)
{
	int i;

	for (i = 0; i < o->nr; i++) {
		free(o->files[i].path);
		sb_clear(&o->files[i].data);
	}
	for (i = 0; i < o->nr_deps; i++)
		free(o->deps[i]);
	for (i = 0; i < o->nr_dirs; i++)
		free(o->dirs[i]);
	free(o->files);
	free(o->deps);
	free(o->dirs);
	memset(o, 0, sizeof(*o));
}
