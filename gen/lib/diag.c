// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Diagnostics: errors and warnings in compiler form ("file:line:col: error:
 * ..."), to stderr or captured per thread, every byte made safe for a terminal.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/term.h"
#include "lib/util.h"

static int diag_nr_errors;
bool diag_quiet_warnings;
bool diag_silent;

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
 * names from inputs, so no control byte passes (term_quote()).
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
		term_quote(&out, file, strlen(file), false);
	if (file && line > 0 && col > 0)
		sb_printf(&out, ":%d:%d: %s: ", line, col, kind);
	else if (file && line > 0)
		sb_printf(&out, ":%d: %s: ", line, kind);
	else if (file)
		sb_printf(&out, ": %s: ", kind);
	else
		sb_printf(&out, "tpgen: %s: ", kind);
	sb_vprintf(&msg, fmt, ap);
	term_quote(&out, msg.buf ? msg.buf : "", msg.len, false);
	sb_putc(&out, '\n');
	if (diag_capture) {
		sb_add(diag_capture, out.buf, out.len);
	} else {
		pthread_mutex_lock(&diag_lock);
		fwrite(out.buf, 1, out.len, stderr);
		pthread_mutex_unlock(&diag_lock);
	}
	sb_clear(&msg);
	sb_clear(&out);
}

void diag_error(const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;

	__atomic_fetch_add(&diag_nr_errors, 1, __ATOMIC_RELAXED);
	va_start(ap, fmt);
	vdiag("error", file, line, col, fmt, ap);
	va_end(ap);
}

int diag_error_count(void)
{
	return __atomic_load_n(&diag_nr_errors, __ATOMIC_RELAXED);
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
	term_quote(&sb, src_line, n, true);
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
	sb_clear(&sb);
}

void pr_err(const char *fmt, ...)
{
	va_list ap;

	__atomic_fetch_add(&diag_nr_errors, 1, __ATOMIC_RELAXED);
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
