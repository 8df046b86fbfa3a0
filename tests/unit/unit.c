// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests (cmocka) of the generator's small parts, built and run under
 * ASan and UBSan by tests/t_unit.sh: globs and patterns, the format-field
 * classifier, strbuf, JSON and C escaping, include guards, suggestions, the
 * expression parser, checker and compiler (whole expressions), names from
 * outside (ident.h), and the reader's and writer's limits.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit/emit.h"
#include "lib/cstring.h"
#include "model/expr.h"
#include "lib/ident.h"
#include "lib/term.h"
#include "lib/json.h"
#include "model/model.h"
#include "input/spec.h"
#include "lib/util.h"
#include "out/write.h"

static void test_glob(void **state)
{
	assert_true(glob_match("sched_*", "sched_switch"));
	assert_true(glob_match("*switch*", "sched_switch"));
	assert_true(glob_match("sys_enter_?ead", "sys_enter_read"));
	assert_true(glob_match("sys_[ef]*", "sys_exit"));
	assert_false(glob_match("sys_[!e]*", "sys_exit"));
	assert_true(glob_match("*", ""));
	assert_false(glob_match("sched", "sched_switch"));
	assert_false(glob_match("a*b", "acbd"));
	assert_true(glob_match("a*b*c", "aXbYbZc"));
}

static void test_patterns(void **state)
{
	assert_true(tp_pattern_match("sched/*", "sched", "sched_switch"));
	assert_true(tp_pattern_match("sched:sched_switch", "sched", "sched_switch"));
	assert_true(tp_pattern_match("sched", "sched", "sched_switch"));	/* a system */
	assert_true(tp_pattern_match("*switch", "sched", "sched_switch"));	/* an event */
	assert_false(tp_pattern_match("irq/*", "sched", "sched_switch"));
	assert_false(tp_pattern_match("sched/x*", "sched", "sched_switch"));
}

#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const struct tp_field *field(const struct tp_event *ev, const char *name)
{
	int i;

	for (i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return &ev->fields[i];
	fail_msg("no field %s", name);
	return NULL;
}

static void test_classify(void **state)
{
	static const char text[] =
		"name: t\nID: 7\nformat:\n" COMMON
		"\tfield:char comm[TASK_COMM_LEN];\toffset:8;\tsize:16;\tsigned:0;\n"
		"\tfield:const char *const * argv;\toffset:24;\tsize:8;\tsigned:0;\n"
		"\tfield:void __seg_gs * pcpu;\toffset:32;\tsize:8;\tsigned:0;\n"
		"\tfield:sigset_t * set;\toffset:40;\tsize:8;\tsigned:0;\n"
		"\tfield:__data_loc u64[] addrs;\toffset:48;\tsize:4;\tsigned:0;\n"
		"\tfield:int default;\toffset:52;\tsize:4;\tsigned:1;\n"
		"\tfield:struct in6_addr saddr;\toffset:56;\tsize:16;\tsigned:0;\n"
		"\tfield:int fd;\toffset:72;\tsize:8;\tsigned:1;\n"
		"\tfield:unsigned long args[];\toffset:80;\tsize:0;\tsigned:0;\n"
		"\nprint fmt: \"x\"\n";
	struct tp_event ev;
	const struct tp_field *f;

	diag_silent = true;
	assert_int_equal(tracefs_parse_format("t/format", text, "s", "t", &ev), 0);
	assert_int_equal(ev.id, 7);
	assert_int_equal(ev.nr_fields, 13);
	assert_true(field(&ev, "common_pid")->common);
	f = field(&ev, "comm");
	assert_int_equal(f->kind, FIELD_ARRAY);
	assert_string_equal(f->ctype, "char");
	assert_string_equal(f->suffix, "[16]");
	assert_true(f->is_string);
	f = field(&ev, "argv");
	assert_int_equal(f->kind, FIELD_POINTER);
	assert_string_equal(f->ctype, "const char *const *");
	assert_string_equal(field(&ev, "pcpu")->ctype, "void *");
	assert_string_equal(field(&ev, "set")->ctype, "void *");
	f = field(&ev, "addrs");
	assert_int_equal(f->kind, FIELD_DATA_LOC);
	assert_string_equal(f->elem_ctype, "__u64");
	assert_string_equal(field(&ev, "default")->cname, "default_");
	f = field(&ev, "saddr");
	assert_int_equal(f->kind, FIELD_BLOB);
	assert_string_equal(f->suffix, "[16]");
	assert_string_equal(field(&ev, "fd")->ctype, "__s64");	/* syscall args are longs */
	assert_int_equal(field(&ev, "args")->kind, FIELD_FLEX);
	assert_int_equal(ev.size, 80);
	tp_event_clear(&ev);
}

static void test_classify_errors(void **state)
{
	static const char *const bad[] = {
		"name: t\nformat:\n" COMMON "\tfield:int x;\toffset:6;\tsize:4;\tsigned:1;\n",	/* overlap */
		"name: t\nformat:\n" COMMON "\tfield:int x;\toffset:8;\tsize:2;\tsigned:1;\n",	/* too small */
		"name: t\nformat:\n" COMMON "\tfield:char x[3];\toffset:8;\tsize:4;\tsigned:0;\n",
		"name: t\nformat:\n" COMMON "\tfield:int x;\toffset:8;\tsize:4;\tsigned:7;\n",
		"name: t\nformat:\n" COMMON "\tfield:int;\toffset:8;\tsize:4;\tsigned:1;\n",
		"name: t\nformat:\n",
		"garbage",
	};
	struct tp_event ev;
	size_t i;
	int before;

	diag_silent = true;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		before = diag_error_count();
		assert_int_not_equal(tracefs_parse_format("t/format", bad[i], "s", "t", &ev), 0);
		assert_int_equal(diag_error_count(), before + 1);	/* exactly one located error */
	}
}

/* Strings in an arena keep their bytes however many blocks it grows by; a reservation is one block. */
static void test_arena(void **state)
{
	struct arena a = {};
	char *s[3000], want[64];
	const char *first;
	int i;

	for (i = 0; i < 3000; i++) {
		snprintf(want, sizeof(want), "%d:%.*s", i, i % 40, "0123456789012345678901234567890123456789");
		s[i] = i % 3 ? arena_strdup(&a, want) : arena_strndup(&a, want, strlen(want));
	}
	for (i = 0; i < 3000; i++) {
		snprintf(want, sizeof(want), "%d:%.*s", i, i % 40, "0123456789012345678901234567890123456789");
		assert_string_equal(s[i], want);
	}
	assert_string_equal(arena_strcat(&a, "default", "_"), "default_");
	arena_reserve(&a, 100000);
	first = arena_strdup(&a, "x");
	for (i = 0; i < 9000; i++)	/* 2 + 99,000 bytes: all in the reserved block */
		assert_ptr_equal(arena_strdup(&a, "0123456789"), first + 2 + 11 * i);
	arena_clear(&a);
	assert_null(a.last);
	arena_clear(&a);	/* twice is fine */
}

/*
 * tracefs_check_text() against the rule it implements, byte by byte, over
 * random texts: the first NUL, control byte (but tab, CR and newline) or byte
 * above '~' before the line that starts (after blanks) with "print fmt:",
 * else a NUL in the print format, located by line and column.
 */
static bool bad_byte_ref(const char *t, size_t n, int *line, int *col, unsigned char *byte)
{
	size_t i, bol = 0, fmt = n;

	*line = 1;
	for (i = 0; i < n; i++) {
		unsigned char c = t[i];

		if (c == '\n') {
			size_t j = i + 1;

			while (j < n && (t[j] == ' ' || t[j] == '\t'))
				j++;
			if (n - j >= 10 && !memcmp(t + j, "print fmt:", 10)) {
				fmt = i;
				break;
			}
			(*line)++;
			bol = i + 1;
		} else if (c == 0 || (c < 0x20 && c != '\t' && c != '\r') || c >= 0x7f) {
			*col = i - bol + 1;
			*byte = c;
			return true;
		}
	}
	for (i = fmt; i < n; i++) {
		if (t[i] == '\n') {
			(*line)++;
			bol = i + 1;
		} else if (!t[i]) {
			*col = i - bol + 1;
			*byte = 0;
			return true;
		}
	}
	return false;
}

static void test_check_text(void **state)
{
	static const char pieces[][16] = {
		"\tfield:", "int x;", "\toffset:8;", " ", "\t", "\n", "\r", "print fmt:", "\n  print fmt:",
		"abcdefgh", "~", "\x7f", "\x80", "\xff", "\x01", "\x1f", "\x0b", "",
	};
	char text[700], want[128];
	bool silent = diag_silent;
	struct strbuf got;
	unsigned int seed = 24;
	int it;

	sb_init(&got);
	for (it = 0; it < 200000; it++) {
		size_t n = 0, k = rand_r(&seed) % 40, i;
		int line, col, err;
		unsigned char byte;
		bool bad;

		for (i = 0; i < k; i++) {
			int p = rand_r(&seed) % (sizeof(pieces) / sizeof(pieces[0]));
			size_t len = p == sizeof(pieces) / sizeof(pieces[0]) - 1 ? 1 : strlen(pieces[p]);

			memcpy(text + n, pieces[p], len);	/* the last piece is a NUL */
			n += len;
		}
		text[n] = '\0';
		bad = bad_byte_ref(text, n, &line, &col, &byte);
		sb_reset(&got);
		diag_silent = false;
		diag_capture_start(&got);
		err = tracefs_check_text("t/format", text, n);
		diag_capture_stop();
		if (!bad) {
			assert_int_equal(err, 0);
			assert_int_equal(got.len, 0);
			continue;
		}
		assert_int_equal(err, -EILSEQ);
		if (byte)
			snprintf(want, sizeof(want), "t/format:%d:%d: error: byte 0x%02x in a format file: not text\n",
				 line, col, byte);
		else
			snprintf(want, sizeof(want), "t/format:%d:%d: error: NUL byte in a format file: not text\n",
				 line, col);
		assert_string_equal(got.buf, want);
	}
	diag_silent = silent;
	sb_clear(&got);
}

static void test_strbuf(void **state)
{
	struct strbuf sb;
	int i;

	sb_init(&sb);
	for (i = 0; i < 1000; i++)
		sb_printf(&sb, "%04d", i);
	assert_int_equal(sb.len, 4000);
	assert_memory_equal(sb.buf + 3996, "0999", 4);
	sb_reset(&sb);
	sb_puts(&sb, "\tint x;");
	sb_tab_to(&sb, 0, 24);
	assert_string_equal(sb.buf, "\tint x;\t\t");
	sb_reset(&sb);
	sb_putu(&sb, 0);
	sb_putc(&sb, ' ');
	sb_putu(&sb, 18446744073709551615ULL);
	assert_string_equal(sb.buf, "0 18446744073709551615");
	sb_clear(&sb);

	/* sized ahead: appends within the reservation never move the buffer */
	sb_init(&sb);
	sb_reserve(&sb, 100000);
	{
		const char *buf = sb.buf;

		for (i = 0; i < 10000; i++)
			sb_add(&sb, "0123456789", 10);
		assert_ptr_equal(sb.buf, buf);
		assert_int_equal(sb.len, 100000);
		assert_int_equal(sb.buf[sb.len], '\0');
	}
	sb_clear(&sb);
}

static void test_escaping(void **state)
{
	struct strbuf sb;

	sb_init(&sb);
	json_str(&sb, "a\"b\\c\n\x01");
	assert_string_equal(sb.buf, "\"a\\\"b\\\\c\\n\\u0001\"");
	sb_reset(&sb);
	c_comment_text(&sb, "x */ y");
	assert_null(strstr(sb.buf, "*/"));
	sb_reset(&sb);
	c_string(&sb, "q\"\\\n");
	assert_non_null(strstr(sb.buf, "\\\""));	/* the quote escaped */
	assert_null(strchr(sb.buf + 1, '\n'));		/* no raw newline */
	assert_int_equal(sb.buf[0], '"');
	assert_int_equal(sb.buf[sb.len - 1], '"');
	sb_clear(&sb);
}

static void test_guard_and_suggest(void **state)
{
	static const char *const keys[] = { "events", "latency", "tool", "description" };
	char *g = emit_guard("out/sched.ctx.h", "__X");

	assert_string_equal(g, "__SCHED_CTX_H");
	free(g);
	g = emit_guard(NULL, "__TPGEN_CTX_H");
	assert_string_equal(g, "__TPGEN_CTX_H");
	free(g);
	assert_string_equal(str_suggest("evnts", keys, 4), "events");
	assert_null(str_suggest("zzzzzz", keys, 4));
}

/* expressions over four values: pid (s32), count (u64), flags (u8), comm (char[16]) */
static int resolve(void *ctx, const char *name, size_t off, struct expr_type *t, bool report)
{
	static const struct {
		const char *name;
		struct expr_type t;
	} vals[] = {
		{ "pid", { ET_INT, 4, true, false } },
		{ "count", { ET_INT, 8, false, false } },
		{ "flags", { ET_INT, 1, false, false } },
		{ "comm", { ET_STR, 16, false, false } },
	};

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		if (!strcmp(name, vals[i].name)) {
			*t = vals[i].t;
			return i;
		}
	if (!report)
		return -ENOENT;
	spec_error(ctx, NULL, off, "unknown field '%s'", name);
	return -EINVAL;
}

static void value(void *ctx, struct strbuf *sb, int ref)
{
	sb_printf(sb, "v%d", ref);
}

static void string(void *ctx, struct strbuf *sb, int ref)
{
	sb_printf(sb, "s%d", ref);
}

/* The C of 'text' as a condition (or a value), or NULL when it is refused. */
static char *compile(const char *text, bool cond)
{
	static const struct expr_emit_ops ops = { .value = value, .string = string, .lit_prefix = "f" };
	struct spec s = { .path = "t.yaml", .text = (char *)text, .len = strlen(text) };
	struct spec_str src = { .s = (char *)text, .loc = { .line = 1, .col = 1 } };
	struct expr_lits lits = {};
	struct expr *e = NULL;
	struct strbuf sb;
	int err;

	sb_init(&sb);
	err = expr_parse(&s, &src, &e);
	if (!err)
		err = expr_check(e, &s, &src, cond, resolve, &s, &lits);
	if (!err)
		expr_emit(&sb, e, &ops, NULL);
	expr_free(e);
	expr_lits_clear(&lits);
	if (err) {
		sb_clear(&sb);
		return NULL;
	}
	return sb_steal(&sb);
}

static void expect(const char *text, const char *want)
{
	char *got = compile(text, true);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void refused(const char *text)
{
	char *got = compile(text, true);

	if (got)
		fail_msg("'%s' compiled to '%s'", text, got);
}

static void test_exprs(void **state)
{
	diag_silent = true;
	/* precedence: && binds tighter than ||; clang's -Wparentheses wants the parentheses */
	expect("pid == 1 || count > 0x10 && !(pid < 0)", "v0 == 1 || (v1 > 16ULL && !(v0 < 0))");
	expect("(pid == 1 || pid == 2) && count != 0", "(v0 == 1 || v0 == 2) && v1 != 0ULL");
	expect("count & 4", "v1 & 4");
	expect("flags & 0x3 == 0", "0");	/* C: flags & (3 == 0), which is 0 */
	/* numbers in the value's width, as the kernel's filters: -1 on a u8 is 255 */
	refused("flags == -1");			/* C: a u8 is never -1 (always false) */
	expect("flags == 0xff", "v2 == 255");
	expect("-1 == count", "18446744073709551615ULL == v1");	/* either side, in C's type */
	expect("-(-pid) == 1", "-(-v0) == 1");		/* not '--v0', a decrement */
	expect("- -pid == 1", "-(-v0) == 1");
	expect("+(+pid) == 1", "+(+v0) == 1");
	expect("~-pid == 1 && !-pid", "~-v0 == 1 && !-v0");
	expect("pid - -1 == 0 && pid + +1 == 0 && pid - -pid == 0", "v0 - -1 == 0 && v0 + 1 == 0 && v0 - -v0 == 0");
	refused("--pid == 1");			/* C's decrement */
	refused("pid++ == 1");
	expect("0xffffffff + 1 == pid", "0U == (__u32)v0");	/* unsigned int, as C types it */
	expect("pid < 5u", "(__u32)v0 < 5U");		/* C converts pid */
	expect("count == 1ull && pid == 07L", "v1 == 1ULL && v0 == 7LL");
	refused("count == 18446744073709551615");	/* a decimal too large for long */
	refused("count == 1lul");
	refused("count < 0");			/* always false */
	refused("flags <= 255");		/* always true */
	refused("pid == pid");			/* a value with itself */
	refused("(pid < 1) == 2");		/* a test is 0 or 1 */
	refused("~flags");			/* never 0 */
	expect("count == -1", "v1 == 18446744073709551615ULL");
	expect("pid != -2147483648", "v0 != -2147483648LL");	/* C: 2147483648 is a long */
	expect("pid != -2147483647 - 1", "v0 != (-2147483647 - 1)");
	/* arithmetic and bit operations keep C's precedence and types */
	expect("pid >> 8 & 0xff", "(v0 >> 8) & 255");
	expect("count / 1024 > 4", "v1 / 1024 > 4ULL");
	expect("pid / 2 > 0", "(__s32)tpgen_sdiv(v0, 2) > 0");	/* no signed division in BPF v1-v3 */
	expect("pid % 3 != 0", "(__s32)tpgen_smod(v0, 3) != 0");
	expect("pid - 1 - 2 == 0", "v0 - 1 - 2 == 0");
	expect("pid - (1 - 2) == 0", "v0 - -1 == 0");
	expect("pid * (count + 1) > 0", "v0 * (v1 + 1) > 0ULL");
	expect("pid > 0 ? count : 1", "((v0 > 0) ? v1 : 1ULL) != 0ULL");	/* a test: gcc's -Wint-in-bool-context */
	/* strings: ==, != and globs; bare words as in tracefs */
	expect("comm == \"bash\"", "tpgen_streq(s3, f_s0)");
	expect("comm != bash", "!tpgen_streq(s3, f_s0)");
	expect("comm ~ \"ba*\"", "tpgen_prefix(s3, f_s0, 2)");
	expect("comm ~ \"*sh\"", "tpgen_glob(s3, f_s0)");
	expect("comm ~ kworker/0:1", "tpgen_streq(s3, f_s0)");
	refused("pid ~ \"a*\"");		/* glob on a number */
	refused("pid == ");			/* syntax */
	refused("(pid == 1");			/* unbalanced */
	refused("nosuch == 1");			/* unknown field */
	refused("pid == 99999999999");		/* does not fit s32 */
	refused("flags == 256");		/* does not fit u8 */
	refused("flags == -129");		/* does not fit u8 either way */
	refused("count == 1 / 0");		/* division by zero */
	refused("pid << 40 > 0");		/* shift past the width */
	refused("comm < \"a\"");		/* strings compare with ==, != and ~ */
	refused("comm == \"0123456789abcdef\"");	/* longer than comm holds */
	refused("comm");			/* a string is no condition */
}

static void test_expr_limits(void **state)
{
	struct strbuf sb;
	char *got;

	diag_silent = true;
	sb_init(&sb);
	for (int i = 0; i < 100; i++)
		sb_putc(&sb, '(');
	sb_puts(&sb, "pid == 1");
	for (int i = 0; i < 100; i++)
		sb_putc(&sb, ')');
	refused(sb.buf);			/* deeper than EXPR_MAX_DEPTH */
	sb_reset(&sb);
	for (int i = 0; i < 100000; i++)
		sb_putc(&sb, '!');
	sb_puts(&sb, "pid");
	refused(sb.buf);
	sb_reset(&sb);
	for (int i = 0; i < 2000; i++)
		sb_puts(&sb, "pid == 1 && ");
	sb_puts(&sb, "pid == 1");
	refused(sb.buf);			/* more than EXPR_MAX_NODES terms */
	sb_reset(&sb);
	for (int i = 0; i < 200; i++)
		sb_puts(&sb, i & 1 ? "pid == 1 || " : "pid == 1 && ");
	sb_puts(&sb, "pid == 1");
	got = compile(sb.buf, true);		/* long chains stay shallow: one level of parentheses */
	assert_non_null(got);
	assert_null(strstr(got, "(("));
	free(got);
	sb_clear(&sb);
}

static void test_ident(void **state)
{
	struct strbuf sb;
	char *q;
	int col;

	assert_true(ident_is_c("sched_switch"));
	assert_true(ident_is_c("_x1"));
	assert_false(ident_is_c("1x"));
	assert_false(ident_is_c("a-b"));
	assert_false(ident_is_c(""));
	assert_true(ident_is_keyword("int"));
	assert_true(ident_is_keyword("_Static_assert"));
	assert_false(ident_is_keyword("bool"));		/* vmlinux.h's typedef */
	assert_true(ident_is_reserved("__tpgen_inline"));
	assert_true(ident_is_reserved("__TPGEN_RAW_SLOT"));
	assert_null(ident_tracefs_name("sched_switch"));
	assert_null(ident_tracefs_name("with-dash"));
	assert_null(ident_tracefs_name("foo.isra.0"));
	assert_non_null(ident_tracefs_name("123"));
	assert_non_null(ident_tracefs_name("a b"));
	assert_non_null(ident_tracefs_name("a\"b"));
	assert_non_null(ident_tracefs_name("a*/b"));
	assert_non_null(ident_tracefs_name(""));
	q = ident_from_tracefs("a-b.c");
	assert_string_equal(q, "a_b_c");
	free(q);
	assert_null(ident_release("6.18.44-fc-v669", &col));
	assert_null(ident_release("5.15.0+~rc1:x", &col));
	assert_non_null(ident_release("*/ int x = 42; /*", &col));
	assert_int_equal(col, 1);
	assert_non_null(ident_release("6.1 x", &col));
	assert_int_equal(col, 4);
	assert_non_null(ident_release("", &col));
	q = ident_quoted("a'\\\n\t\x1b\xff");
	assert_string_equal(q, "'a\\'\\\\\\n\\t\\x1b\\xff'");
	free(q);
	sb_init(&sb);
	term_quote(&sb, "ok \xc3\xa9 \x1b[2J\n\t\x9b\xc2\x9b\xff", 16, false);
	assert_string_equal(sb.buf, "ok \xc3\xa9 \\e[2J\\n\\t\\x9b\\xc2\\x9b\\xff");
	sb_reset(&sb);
	term_quote(&sb, "a\tb", 3, true);
	assert_string_equal(sb.buf, "a\tb");
	sb_clear(&sb);
}

/* Reading: regular files only, a size limit held while reading. */
static void test_read_limits(void **state)
{
	char dir[] = "/tmp/tpgen-unit.XXXXXX", path[64], *text = NULL;
	size_t len;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(read_file("/dev/zero", &text, &len), -TPGEN_ENOTREG);
	assert_int_equal(read_file(dir, &text, &len), -TPGEN_ENOTREG);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(read_file(path, &text, &len), -TPGEN_ENOTREG);	/* no hang */
	unlink(path);
	snprintf(path, sizeof(path), "%s/f", dir);
	f = fopen(path, "w");
	fputs("0123456789", f);
	fclose(f);
	assert_int_equal(read_file_at(AT_FDCWD, path, 9, &text, &len), -EFBIG);
	assert_int_equal(read_file_at(AT_FDCWD, path, 10, &text, &len), 0);
	assert_int_equal(len, 10);
	free(text);
	/* size 0 in stat, more when read: the limit holds while reading */
	assert_int_equal(read_file_at(AT_FDCWD, "/proc/self/maps", 16, &text, &len), -EFBIG);
	unlink(path);
	rmdir(dir);
}

/* Writing: a symlink at the destination is replaced, never followed; no temp file stays. */
static void test_write_atomic(void **state)
{
	char dir[] = "/tmp/tpgen-unit.XXXXXX", path[64], victim[64], *text;
	bool changed;
	size_t len;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(path, sizeof(path), "%s/out.h", dir);
	f = fopen(victim, "w");
	fputs("keep", f);
	fclose(f);
	assert_int_equal(symlink(victim, path), 0);
	assert_int_equal(write_file_atomic(path, "new\n", 4, &changed), 0);
	assert_true(changed);
	assert_int_equal(read_file(victim, &text, &len), 0);
	assert_string_equal(text, "keep");
	free(text);
	assert_int_equal(read_file(path, &text, &len), 0);
	assert_string_equal(text, "new\n");
	free(text);
	assert_int_equal(write_file_atomic(path, "new\n", 4, &changed), 0);
	assert_false(changed);			/* unchanged: left alone */
	unlink(path);
	unlink(victim);
	assert_int_equal(rmdir(dir), 0);	/* nothing else left behind */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glob),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_classify_errors),
		cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_arena),
		cmocka_unit_test(test_check_text),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_guard_and_suggest),
		cmocka_unit_test(test_exprs),
		cmocka_unit_test(test_expr_limits),
		cmocka_unit_test(test_ident),
		cmocka_unit_test(test_read_limits),
		cmocka_unit_test(test_write_atomic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
