// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* tpgen: allocation, growable strings, globs, hashing (diagnostics: diag.c). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"

static void die_oom(void)
{
	fputs("tpgen: error: out of memory\n", stderr);
	exit(3);	/* the environment's exit status (TPGEN_EXIT_ENV, cmd/cmd.h) */
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

struct arena_block {
	struct arena_block *prev;
	size_t len, cap;
	char data[];
};

#define ARENA_BLOCK	256	/* the least a block holds */

static void arena_grow(struct arena *a, size_t n)
{
	struct arena_block *b = xmalloc(sizeof(*b) + n);

	b->prev = a->last;
	b->len = 0;
	b->cap = n;
	a->last = b;
}

void arena_reserve(struct arena *a, size_t n)
{
	if (!a->last || a->last->cap - a->last->len < n)
		arena_grow(a, n);
}

char *arena_alloc(struct arena *a, size_t n)
{
	struct arena_block *b = a->last;

	if (!b || b->cap - b->len < n) {
		size_t cap = b ? b->cap * 2 : ARENA_BLOCK;

		arena_grow(a, cap < n ? n : cap);
		b = a->last;
	}
	b->len += n;
	return b->data + b->len - n;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_strcat(struct arena *a, const char *s1, const char *s2)
{
	size_t n1 = strlen(s1), n2 = strlen(s2);
	char *p = arena_alloc(a, n1 + n2 + 1);

	memcpy(p, s1, n1);
	memcpy(p + n1, s2, n2 + 1);
	return p;
}

void arena_clear(struct arena *a)
{
	struct arena_block *b, *prev;

	for (b = a->last; b; b = prev) {
		prev = b->prev;
		free(b);
	}
	a->last = NULL;
}

char *xstrcat(const char *s, ...)
{
	const char *p;
	size_t n = 0;
	va_list ap;
	char *out, *o;

	va_start(ap, s);
	for (p = s; p; p = va_arg(ap, const char *))
		n += strlen(p);
	va_end(ap);
	o = out = xmalloc(n + 1);
	va_start(ap, s);
	for (p = s; p; p = va_arg(ap, const char *)) {
		n = strlen(p);
		memcpy(o, p, n);
		o += n;
	}
	va_end(ap);
	*o = '\0';
	return out;
}

void sb_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->cap = 0;
}

void sb_clear(struct strbuf *sb)
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

void sb_grow_slow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need < sb->cap * 2)
		need = sb->cap * 2;
	if (need < 256)
		need = 256;
	sb->buf = xrealloc(sb->buf, need);
	sb->cap = need;
}

static inline void sb_grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 > sb->cap)
		sb_grow_slow(sb, extra);
}

void sb_reserve(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need > sb->cap) {
		sb->buf = xrealloc(sb->buf, need);
		sb->cap = need;
	}
}

struct split_job {
	struct strbuf *sb;
	const void *arg;
	size_t (*size_of)(const void *arg, int i);
	void (*emit)(struct strbuf *sb, const void *arg, int i);
	int lo, hi;
};

static void *split_range(void *p)
{
	struct split_job *job = p;
	int i;

	for (i = job->lo; i < job->hi; i++)
		if (job->size_of(job->arg, i))
			job->emit(job->sb, job->arg, i);
	return NULL;
}

void sb_emit_split(struct strbuf *out, int nr, const void *arg,
		   size_t (*size_of)(const void *arg, int i),
		   void (*emit)(struct strbuf *sb, const void *arg, int i))
{
	size_t total = 0, done = 0;
	struct split_job job[2];
	bool threaded = false;
	struct strbuf tail;
	pthread_t th;
	int i, mid;

	for (i = 0; i < nr; i++)
		total += size_of(arg, i);
	sb_reserve(out, total);
	for (mid = 0; mid < nr && done < total / 2; mid++)
		done += size_of(arg, mid);
	sb_init(&tail);
	job[0] = (struct split_job){ out, arg, size_of, emit, 0, mid };
	job[1] = (struct split_job){ &tail, arg, size_of, emit, mid, nr };
	if (total - done > (1 << 18) && sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		sb_reserve(&tail, total - done);
		threaded = !pthread_create(&th, NULL, split_range, &job[1]);
	}
	split_range(&job[0]);
	if (threaded)
		pthread_join(th, NULL);
	else
		split_range(&job[1]);
	sb_add(out, tail.buf ? tail.buf : "", tail.len);
	sb_clear(&tail);
}

void sb_putu(struct strbuf *sb, unsigned long long v)
{
	char tmp[20], *p = tmp + sizeof(tmp);

	do
		*--p = '0' + v % 10;
	while (v /= 10);
	sb_add(sb, p, tmp + sizeof(tmp) - p);
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
