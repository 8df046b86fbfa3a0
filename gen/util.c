// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* tpgen: growable strings, diagnostics, allocation, file I/O. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ident.h"
#include "util.h"

int diag_errors;
bool diag_quiet_warnings;
bool diag_silent;

static void die_oom(void)
{
	fputs("tpgen: error: out of memory\n", stderr);
	exit(TPGEN_EXIT_ENV);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die_oom();
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		die_oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die_oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;

	sb_init(&sb);
	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	return sb_steal(&sb);
}

void sb_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->cap = 0;
}

void sb_free(struct strbuf *sb)
{
	free(sb->buf);
	sb_init(sb);
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

static void sb_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->cap)
		return;
	if (need < sb->cap * 2)
		need = sb->cap * 2;
	if (need < 256)
		need = 256;
	sb->buf = xrealloc(sb->buf, need);
	sb->cap = need;
}

void sb_add(struct strbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_puts(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_putc(struct strbuf *sb, char c)
{
	sb_add(sb, &c, 1);
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	/* print straight into the spare room; grow and print again only if it did not fit */
	sb_grow(sb, 128);
	va_copy(aq, ap);
	n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, aq);
	va_end(aq);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= sb->cap - sb->len) {
		sb_grow(sb, n);
		vsnprintf(sb->buf + sb->len, n + 1, fmt, ap);
	}
	sb->len += n;
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

void sb_tab_to(struct strbuf *sb, size_t line_start, int col)
{
	int cur = 0;
	size_t i;

	for (i = line_start; i < sb->len; i++)
		cur = sb->buf[i] == '\t' ? (cur / 8 + 1) * 8 : cur + 1;
	if (cur >= col) {
		sb_putc(sb, '\t');
		return;
	}
	while (cur < col) {
		sb_putc(sb, '\t');
		cur = (cur / 8 + 1) * 8;
	}
}

char *sb_steal(struct strbuf *sb)
{
	char *p = sb->buf ? sb->buf : xstrdup("");

	sb_init(sb);
	return p;
}

static pthread_mutex_t diag_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread struct strbuf *diag_capture;

void diag_capture_start(struct strbuf *sb)
{
	diag_capture = sb;
}

void diag_capture_stop(void)
{
	diag_capture = NULL;
}

void diag_flush(const struct strbuf *sb)
{
	if (!sb->len || diag_silent)
		return;
	pthread_mutex_lock(&diag_lock);
	fwrite(sb->buf, 1, sb->len, stderr);
	pthread_mutex_unlock(&diag_lock);
}

/*
 * Every diagnostic goes through here: the file name and message may carry
 * names from inputs, so no control byte passes (ident_term()).
 */
static void vdiag(const char *kind, const char *file, int line, int col,
		  const char *fmt, va_list ap)
{
	struct strbuf msg, out;

	if (diag_silent)
		return;
	sb_init(&msg);
	sb_init(&out);
	if (file)
		ident_term(&out, file, strlen(file), false);
	if (file && line > 0 && col > 0)
		sb_printf(&out, ":%d:%d: %s: ", line, col, kind);
	else if (file && line > 0)
		sb_printf(&out, ":%d: %s: ", line, kind);
	else if (file)
		sb_printf(&out, ": %s: ", kind);
	else
		sb_printf(&out, "tpgen: %s: ", kind);
	sb_vprintf(&msg, fmt, ap);
	ident_term(&out, msg.buf ? msg.buf : "", msg.len, false);
	sb_putc(&out, '\n');
	if (diag_capture) {
		sb_add(diag_capture, out.buf, out.len);
	} else {
		pthread_mutex_lock(&diag_lock);
		fwrite(out.buf, 1, out.len, stderr);
		pthread_mutex_unlock(&diag_lock);
	}
	sb_free(&msg);
	sb_free(&out);
}

void diag_error(const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;

	__atomic_fetch_add(&diag_errors, 1, __ATOMIC_RELAXED);
	va_start(ap, fmt);
	vdiag("error", file, line, col, fmt, ap);
	va_end(ap);
}

void diag_warning(const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;

	if (diag_quiet_warnings)
		return;
	va_start(ap, fmt);
	vdiag("warning", file, line, col, fmt, ap);
	va_end(ap);
}

void diag_caret(const char *src_line, int col)
{
	struct strbuf sb;
	size_t n, i;

	if (!src_line || diag_silent)
		return;
	n = strcspn(src_line, "\n");
	sb_init(&sb);
	ident_term(&sb, src_line, n, true);
	sb_putc(&sb, '\n');
	/* the caret under column col: tabs copied, each byte as wide as it was printed */
	for (i = 0; i + 1 < (size_t)col && i < n; i++) {
		unsigned char c = src_line[i];

		if (c == '\t')
			sb_putc(&sb, '\t');
		else if (c >= 0x80 && c < 0xc0)
			continue;	/* a UTF-8 continuation byte */
		else if (c < 0x20 || c == 0x7f)
			sb_puts(&sb, c == '\n' || c == '\r' || c == 0x1b ? "  " : "    ");
		else
			sb_putc(&sb, ' ');
	}
	sb_puts(&sb, "^\n");
	fputs(sb.buf, stderr);
	sb_free(&sb);
}

void pr_err(const char *fmt, ...)
{
	va_list ap;

	__atomic_fetch_add(&diag_errors, 1, __ATOMIC_RELAXED);
	va_start(ap, fmt);
	vdiag("error", NULL, 0, 0, fmt, ap);
	va_end(ap);
}

void pr_warn(const char *fmt, ...)
{
	va_list ap;

	if (diag_quiet_warnings)
		return;
	va_start(ap, fmt);
	vdiag("warning", NULL, 0, 0, fmt, ap);
	va_end(ap);
}

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

static bool class_match(const char **pp, char c)
{
	const char *p = *pp + 1;
	bool neg = false, hit = false;

	if (*p == '!' || *p == '^') {
		neg = true;
		p++;
	}
	if (*p == ']') {
		hit = c == ']';
		p++;
	}
	while (*p && *p != ']') {
		if (p[1] == '-' && p[2] && p[2] != ']') {
			if (c >= p[0] && c <= p[2])
				hit = true;
			p += 3;
		} else {
			if (c == *p)
				hit = true;
			p++;
		}
	}
	*pp = *p ? p + 1 : p;
	return hit != neg;
}

bool glob_match(const char *pat, const char *s)
{
	const char *star_p = NULL, *star_s = NULL;

	while (*s) {
		if (*pat == '*') {
			star_p = ++pat;
			star_s = s;
			continue;
		}
		if (*pat == '?' || (*pat && *pat != '[' && *pat == *s)) {
			pat++;
			s++;
			continue;
		}
		if (*pat == '[') {
			const char *p = pat;

			if (class_match(&p, *s)) {
				pat = p;
				s++;
				continue;
			}
		}
		if (!star_p)
			return false;
		pat = star_p;
		s = ++star_s;
	}
	while (*pat == '*')
		pat++;
	return !*pat;
}

int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* FNV-1a over 8-byte words (then bytes): deterministic, and fast on 5 MiB of BTF. */
unsigned long long fnv1a64(unsigned long long h, const void *data, size_t n)
{
	const unsigned char *p = data;

	for (; n >= 8; n -= 8, p += 8) {
		unsigned long long w;

		memcpy(&w, p, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 32;
	}
	while (n--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}
