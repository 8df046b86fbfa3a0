// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests (cmocka) of the generator's small parts, built and run under
 * ASan and UBSan by tests/t_unit.sh: globs and patterns, the format-field
 * classifier, strbuf, JSON and C escaping, include guards, suggestions, the
 * filter parser, checker and compiler (whole expressions), names from outside
 * (ident.h), and the reader's and writer's limits.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "filter.h"
#include "ident.h"
#include "json.h"
#include "model.h"
#include "spec.h"
#include "util.h"

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
		before = diag_errors;
		assert_int_not_equal(tracefs_parse_format("t/format", bad[i], "s", "t", &ev), 0);
		assert_int_equal(diag_errors, before + 1);	/* exactly one located error */
	}
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
	sb_free(&sb);
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
	sb_free(&sb);
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
	assert_string_equal(spec_suggest("evnts", keys, 4), "events");
	assert_null(spec_suggest("zzzzzz", keys, 4));
}

/* filters over three fields: pid (s32), count (u64), comm (char[16]) */
static int resolve(void *ctx, const char *name, size_t off, struct filter_field *f)
{
	if (!strcmp(name, "pid")) {
		*f = (struct filter_field){ .is_signed = true, .size = 4 };
		return 0;
	}
	if (!strcmp(name, "count")) {
		*f = (struct filter_field){ .size = 8 };
		return 1;
	}
	if (!strcmp(name, "comm")) {
		*f = (struct filter_field){ .is_str = true, .size = 16 };
		return 2;
	}
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

static int compile(const char *text, struct strbuf *out)
{
	static const struct filter_emit_ops ops = { value, string };
	struct spec s = { .path = "t.yaml", .text = (char *)text, .len = strlen(text) };
	struct spec_str src = { .s = (char *)text, .loc = { .line = 1, .col = 1 } };
	struct filter *f = NULL;
	int err;

	err = filter_parse(&s, &src, &f);
	if (!err)
		err = filter_check(f, &s, &src, resolve, &s);
	if (!err)
		filter_emit_expr(out, f, "f", &ops, NULL);
	filter_free(f);
	return err;
}

/* Each filter compiles to exactly this C: precedence and parentheses included. */
static void test_filters(void **state)
{
	static const struct { const char *filter, *c; } cases[] = {
		{ "pid == 1 || count > 0x10 && !(pid < 0)", "v0 == 1 || (v1 > 16U && !(v0 < 0))" },
		{ "(pid == 1 || pid == 2) && count != 3", "(v0 == 1 || v0 == 2) && v1 != 3U" },
		{ "!(pid == 1 && count == 2) || pid == -1", "!(v0 == 1 && v1 == 2U) || v0 == -1" },
		{ "pid == 1 && count == 2 || pid == 3", "(v0 == 1 && v1 == 2U) || v0 == 3" },
		{ "count & 4", "(v1 & 0x4U)" },
		{ "comm == \"bash\"", "tpgen_streq(s2, f_s0)" },
		{ "comm ~ \"ba*\" && pid >= 0", "tpgen_prefix(s2, f_s0, 2) && v0 >= 0" },
	};
	struct strbuf sb;
	size_t i;

	diag_silent = true;
	sb_init(&sb);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		sb_reset(&sb);
		assert_int_equal(compile(cases[i].filter, &sb), 0);
		assert_string_equal(sb.buf, cases[i].c);
	}
	assert_int_not_equal(compile("pid ~ \"a*\"", &sb), 0);		/* glob on a number */
	assert_int_not_equal(compile("pid == ", &sb), 0);		/* syntax */
	assert_int_not_equal(compile("(pid == 1", &sb), 0);		/* unbalanced */
	assert_int_not_equal(compile("nosuch == 1", &sb), 0);		/* unknown field */
	assert_int_not_equal(compile("pid == 99999999999", &sb), 0);	/* does not fit s32 */
	sb_free(&sb);
}

/* Names from outside: what passes the input boundary, and how refusals are shown. */
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
	ident_term(&sb, "ok \xc3\xa9 \x1b[2J\n\t\x9b\xc2\x9b\xff", 16, false);
	assert_string_equal(sb.buf, "ok \xc3\xa9 \\e[2J\\n\\t\\x9b\\xc2\\x9b\\xff");
	sb_reset(&sb);
	ident_term(&sb, "a\tb", 3, true);
	assert_string_equal(sb.buf, "a\tb");
	sb_free(&sb);
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
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_guard_and_suggest),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_ident),
		cmocka_unit_test(test_read_limits),
		cmocka_unit_test(test_write_atomic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
