// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Files: every input is read here (regular files only, with a size limit
 * that holds while reading), every output written here (an exclusive temp
 * file beside it, then rename(); never through a symlink someone planted).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/limits.h"
#include "lib/util.h"

/* What kind of file st is, for "not a regular file (a FIFO)". */
const char *file_kind(unsigned int mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:	return "a directory";
	case S_IFCHR:	return "a character device";
	case S_IFBLK:	return "a block device";
	case S_IFIFO:	return "a FIFO";
	case S_IFSOCK:	return "a socket";
	case S_IFLNK:	return "a symbolic link";
	}
	return "not a regular file";
}

const char *read_strerror(int err)
{
	if (err == -TPGEN_ENOTREG)
		return "not a regular file";
	return strerror(-err);
}

/*
 * The one reader of input files. Only regular files: a FIFO would block and
 * /dev/zero never ends, so the file is opened O_NONBLOCK (a FIFO opens at
 * once) and its type checked on the descriptor. At most 'max' bytes, checked
 * before and while reading (tracefs and sysfs files report size 0). *st
 * (optional) is the file's stat, for the caller's message.
 */
static int read_checked(int dirfd, const char *path, size_t max, char **out, size_t *len,
			struct stat *st)
{
	size_t cap, n = 0;
	struct stat s;
	char *buf;
	int fd, err = 0;

	if (!st)
		st = &s;
	memset(st, 0, sizeof(*st));
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return errno == ENXIO ? -TPGEN_ENOTREG : -errno;	/* a socket, a FIFO's other end */
	if (fstat(fd, st) || !S_ISREG(st->st_mode)) {
		close(fd);
		return -TPGEN_ENOTREG;
	}
	if ((unsigned long long)st->st_size > max) {
		close(fd);
		return -EFBIG;
	}
	cap = (size_t)st->st_size < max ? (size_t)st->st_size + 1 : max + 1;
	if (cap < 4096)
		cap = max + 1 < 4096 ? max + 1 : 4096;
	buf = xmalloc(cap + 1);
	for (;;) {
		ssize_t r;

		if (n == cap) {
			if (cap > max)
				break;
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			buf = xrealloc(buf, cap + 1);
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	if (!err && n > max)
		err = -EFBIG;
	if (err) {
		free(buf);
		return err;
	}
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

int read_file_at(int dirfd, const char *path, size_t max, char **out, size_t *len)
{
	return read_checked(dirfd, path, max, out, len, NULL);
}

int read_file(const char *path, char **out, size_t *len)
{
	return read_checked(AT_FDCWD, path, READ_FILE_MAX, out, len, NULL);
}

int read_input(const char *path, const char *what, size_t max, char **out, size_t *len)
{
	struct stat st;
	int err = read_checked(AT_FDCWD, path, max, out, len, &st);

	if (!err)
		return 0;
	*out = NULL;
	if (err == -TPGEN_ENOTREG)
		diag_error(path, 0, 0, "cannot read %s: %s", what, file_kind(st.st_mode));
	else if (err == -EFBIG && (unsigned long long)st.st_size > max)
		diag_error(path, 0, 0, "%s is %llu bytes, more than the %zu KiB a %s may have",
			   what, (unsigned long long)st.st_size, max / 1024, what);
	else if (err == -EFBIG)
		diag_error(path, 0, 0, "%s is more than the %zu KiB a %s may have", what, max / 1024, what);
	else
		diag_error(path, 0, 0, "cannot read %s: %s", what, strerror(-err));
	return err;
}

int mkdir_p(const char *path)
{
	char *p = xstrdup(path), *s;
	int err = 0;

	for (s = *p ? p + 1 : p; ; s++) {
		if (*s == '/' || !*s) {
			char c = *s;

			*s = '\0';
			if (*p && mkdir(p, 0777) && errno != EEXIST) {
				err = -errno;
				diag_error(p, 0, 0, "cannot create directory: %s", strerror(errno));
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return err;
}

static mode_t umask_value(void)
{
	static mode_t mask = (mode_t)-1;

	if (mask == (mode_t)-1) {
		mask = umask(0);
		umask(mask);
	}
	return mask;
}

unsigned int file_mode_default(void)
{
	return 0666 & ~umask_value();
}

unsigned int dir_mode_default(void)
{
	return 0777 & ~umask_value();
}

bool same_file_content(int dirfd, const char *path, const char *data, size_t len, struct stat *st)
{
	size_t off = 0;
	char buf[16384];
	bool same = true;
	int fd;

	/* never through a symlink: whoever planted it does not decide what is compared */
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return false;
	if (fstat(fd, st) || !S_ISREG(st->st_mode) || (size_t)st->st_size != len) {
		close(fd);
		return false;
	}
	while (same) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			same = r == 0 && off == len;
			break;
		}
		same = off + r <= len && !memcmp(buf, data + off, r);
		off += r;
	}
	close(fd);
	return same;
}

int write_all(int fd, const char *data, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		off += w;
	}
	return 0;
}

/* A device or FIFO the user named: /dev/null, /dev/stdout (a symlink into /proc), a pipe. */
static int write_through(const char *path, const char *data, size_t len, bool follow)
{
	struct stat st;
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW));
	if (fd < 0)
		return -errno;
	/* through /dev/stdout, a file the shell opened (> out.h) is written where it stands */
	if (fstat(fd, &st) || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) ||
				(follow && S_ISREG(st.st_mode)))) {
		close(fd);
		return -TPGEN_ENOTREG;
	}
	/* blocking writes from here: a pipe reader may be slow */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	err = write_all(fd, data, len);
	if (close(fd) && !err)
		err = -errno;
	return err;
}

int write_file_atomic(const char *path, const char *data, size_t len, bool *changed)
{
	const char *slash = strrchr(path, '/');
	mode_t mode = file_mode_default();
	struct stat st;
	char *tmp;
	int fd, err = 0;

	if (changed)
		*changed = false;
	if (!lstat(path, &st)) {
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
			return write_through(path, data, len, false);
		/* /dev/stdout and /proc/self/fd/N are symlinks; nobody else may plant one there */
		if (S_ISLNK(st.st_mode) && (!strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6)))
			return write_through(path, data, len, true);
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		if (S_ISBLK(st.st_mode))
			return -TPGEN_ENOTREG;
		/* a regular file, or a symlink that rename() replaces (never followed) */
		if (S_ISREG(st.st_mode)) {
			if (same_file_content(AT_FDCWD, path, data, len, &st))
				return 0;
			mode = st.st_mode & 07777;
		}
	} else if (errno != ENOENT) {
		return -errno;
	}
	/* exclusive and unpredictable, beside the destination: nobody can plant it */
	if (slash)
		tmp = xasprintf("%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
	else
		tmp = xasprintf(".%s.XXXXXX", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		free(tmp);
		return err;
	}
	if (fchmod(fd, mode))
		err = -errno;
	if (!err)
		err = write_all(fd, data, len);
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	else if (changed)
		*changed = true;
	free(tmp);
	return err;
}
