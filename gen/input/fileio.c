// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Files: every input is read here (regular files only, with a size limit
 * that holds while reading). Outputs are written by gen/out/write.c.
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

bool path_exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
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
