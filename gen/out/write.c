// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Writing one file (see write.h): an exclusive temp file beside it, then
 * rename(); never through a symlink someone planted; an unchanged file is
 * left alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "out/write.h"

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
