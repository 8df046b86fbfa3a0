/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* tpgen: small shared helpers: growable strings, diagnostics, allocation. */
#ifndef __TPGEN_UTIL_H
#define __TPGEN_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include "lib/limits.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A growable, always NUL-terminated string buffer: the single sink of every emitter. */
struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

void sb_init(struct strbuf *sb);
void sb_clear(struct strbuf *sb);
void sb_reset(struct strbuf *sb);
/* Room for 'extra' more bytes and the NUL, doubling (appends copy the buffer O(log n) times). */
void sb_grow_slow(struct strbuf *sb, size_t extra);

/* Appends are inline: the emitters make half a million of them for a whole kernel. */
static inline void sb_add(struct strbuf *sb, const char *s, size_t n)
{
	if (sb->len + n + 1 > sb->cap)
		sb_grow_slow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

static inline void sb_puts(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

static inline void sb_putc(struct strbuf *sb, char c)
{
	if (sb->len + 2 > sb->cap)
		sb_grow_slow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}
void sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
/* Room for 'extra' more bytes, allocated now: emitters size their output ahead. */
void sb_reserve(struct strbuf *sb, size_t extra);
/* A number in decimal, without printf. */
void sb_putu(struct strbuf *sb, unsigned long long v);
/* Pad with tabs so that the next character lands at column 'col' (tab stops of 8). */
void sb_tab_to(struct strbuf *sb, size_t line_start, int col);
char *sb_steal(struct strbuf *sb);

/*
 * Print items [0, nr) into 'out' in order with emit(sb, arg, i); size_of(arg,
 * i) guesses an item's bytes (0: not printed). When the second half is large
 * it is printed into another buffer on another core at the same time, so
 * emit() may only read what it shares.
 */
void sb_emit_split(struct strbuf *out, int nr, const void *arg,
		   size_t (*size_of)(const void *arg, int i),
		   void (*emit)(struct strbuf *sb, const void *arg, int i));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The strings up to a NULL, one after the other: xasprintf("%s %s", a, b) without printf. */
char *xstrcat(const char *s, ...) __attribute__((sentinel));

/*
 * Strings that are made and freed together (an event's names, fields and
 * types), carved out of a few blocks instead of a malloc() each: a
 * whole-kernel run reads 20,000 fields of 2,300 events. A string never
 * moves; none is freed alone, arena_clear() frees them all.
 */
struct arena_block;
struct arena {
	struct arena_block *last;	/* the block strings are carved from; it links the older ones */
};

/* Room for n more bytes in one block: what a caller knows it will take. */
void arena_reserve(struct arena *a, size_t n);
/* n bytes for a string (not aligned for anything else) */
char *arena_alloc(struct arena *a, size_t n);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);
/* "a" "b": the two strings one after the other, in one new string */
char *arena_strcat(struct arena *a, const char *s1, const char *s2);
void arena_clear(struct arena *a);

/*
 * Diagnostics in compiler form: "file:line:col: error: msg". line/col of 0 are
 * omitted. 'src_line', when given, is printed under the message with a caret
 * under column 'col'.
 */
void diag_error(const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void diag_warning(const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void diag_caret(const char *src_line, int col);
/* "tpgen: error: ..." for errors with no file. */
void pr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Errors reported so far, for tests and fuzzers that check each error
 * returned was reported. Errors are returned (-errno), never counted: the
 * exit status does not read this.
 */
int diag_error_count(void);
extern bool diag_quiet_warnings;
extern bool diag_silent;		/* count errors, print nothing (fuzzers) */

/*
 * Diagnostics of one job (a format file read by a loader thread) kept in
 * 'sb' instead of printed, so they can be printed in a fixed order.
 */
void diag_capture_start(struct strbuf *sb);
void diag_capture_stop(void);
void diag_flush(const struct strbuf *sb);

/*
 * Read a whole regular file of at most 'max' bytes (tracefs and sysfs files
 * report size 0; the limit holds while reading). -TPGEN_ENOTREG for a FIFO,
 * device or directory (checked before opening, and opened O_NONBLOCK),
 * -EFBIG past 'max', else -errno. read_file() allows READ_FILE_MAX.
 */
#define TPGEN_ENOTREG	4096
int read_file(const char *path, char **out, size_t *len);
int read_file_at(int dirfd, const char *path, size_t max, char **out, size_t *len);
/* read_file() with the diagnostic: "spec.yaml: error: cannot read spec: a FIFO". */
int read_input(const char *path, const char *what, size_t max, char **out, size_t *len);
/* Something (a file, a directory, a dangling symlink) is at 'path'. */
bool path_exists(const char *path);
/* "a FIFO", "a character device": what a mode says a file is. */
const char *file_kind(unsigned int mode);
/* strerror() that knows -TPGEN_ENOTREG. */
const char *read_strerror(int err);

/* Glob match with '*', '?' and '[...]' (fnmatch semantics without FNM_PATHNAME). */
bool glob_match(const char *pat, const char *s);
int str_cmp(const void *a, const void *b);
/* The candidate closest to 'word' (edit distance at most 2, or a third of it), or NULL. */
const char *str_suggest(const char *word, const char *const *cands, int n);

/* 64-bit FNV-1a style hash (word at a time), for the input hash in banners. */
unsigned long long fnv1a64(unsigned long long h, const void *data, size_t n);
#define FNV1A64_INIT 0xcbf29ce484222325ULL

#endif /* __TPGEN_UTIL_H */
