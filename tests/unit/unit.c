// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests (cmocka) of the generator's small parts, built and run under
 * ASan and UBSan by tests/t_unit.sh: globs and patterns, the format-field
 * classifier, strbuf, JSON and C escaping, include guards, suggestions, and
 * the filter parser, checker and compiler.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "emit.h"
#include "filter.h"
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
	sb_reset(&sb);
	sb_putu(&sb, 0);
	sb_putc(&sb, ' ');
	sb_putu(&sb, 18446744073709551615ULL);
	assert_string_equal(sb.buf, "0 18446744073709551615");
	sb_free(&sb);

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

static void test_filters(void **state)
{
	struct strbuf sb;

	diag_silent = true;
	sb_init(&sb);
	assert_int_equal(compile("pid == 1 || count > 0x10 && !(pid < 0)", &sb), 0);
	assert_non_null(strstr(sb.buf, "v0"));
	assert_non_null(strstr(sb.buf, "v1"));
	assert_non_null(strstr(sb.buf, "||"));
	sb_reset(&sb);
	assert_int_equal(compile("count & 4", &sb), 0);
	sb_reset(&sb);
	assert_int_equal(compile("comm == \"bash\"", &sb), 0);
	assert_non_null(strstr(sb.buf, "s2"));
	sb_reset(&sb);
	assert_int_not_equal(compile("pid ~ \"a*\"", &sb), 0);		/* glob on a number */
	assert_int_not_equal(compile("pid == ", &sb), 0);		/* syntax */
	assert_int_not_equal(compile("(pid == 1", &sb), 0);		/* unbalanced */
	assert_int_not_equal(compile("nosuch == 1", &sb), 0);		/* unknown field */
	assert_int_not_equal(compile("pid == 99999999999", &sb), 0);	/* does not fit s32 */
	sb_free(&sb);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
