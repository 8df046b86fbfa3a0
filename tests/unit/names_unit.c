// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Unit tests (cmocka) of names for numbers, built and run under ASan and
 * UBSan by tests/t_names.sh: C's integer arithmetic in print fmt
 * expressions (gen/pf*.c), tables from odd print fmts (gen/input/printfmt.c),
 * syscall tables from unistd headers and snapshot files (gen/input/sysnames.c),
 * and the loader's names (bpf/tpgen_names.c): flags and symbols, errno and
 * signal names against glibc's, IPv6 text against inet_ntop().
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "input/printfmt.h"
#include "input/sysnames.h"
#include "lib/util.h"
#include "../../bpf/tpgen_names.h"

/* an expression's value as pf_eval() computes it, or the error */
static int eval(const char *text, unsigned long long *v)
{
	struct pf_toks toks;
	struct pf_node *n = NULL;
	struct pf_val val;
	unsigned int pos;
	const char *msg;
	int i = 0, err;

	if (pf_tokenize(text, &toks, &pos))
		return -EINVAL;
	err = pf_parse_expr(&toks, &i, NULL, &n, &pos, &msg);
	if (!err && toks.t[i].kind != PF_TOK_END)
		err = -EINVAL;
	if (!err)
		err = pf_eval(n, NULL, NULL, NULL, &val, &pos);
	if (!err)
		*v = val.v;
	pf_node_free(n);
	pf_toks_clear(&toks);
	return err;
}

/* C's own value of an expression that is defined in C: the compiler is the oracle */
#define C(expr) { #expr, (unsigned long long)(expr) }

static void test_expr_like_c(void **state)
{
	static const struct { const char *text; unsigned long long v; } cases[] = {
		C(-1), C(~0U), C(~0UL), C(0xffffffff), C(4294967296), C(-6ULL), C((unsigned char)300),
		C((signed char)100), C((unsigned short)-1), C(1 ? 2 : 3U), C(-1 < 0U), C(-1L < 0U),
		C((-8) >> 1), C(7 / -2), C(7 % -2), C('A'), C('\n'), C(1 && 0), C(0 || 5),
		C(1ULL << 63), C((_Bool)5), C(!5), C(0x10UL | 1), C((1 << 10) - 1), C(-0x80000000),
		C(0x80000000), C(2147483648), C(~0xffff), C(~0xffffU), C((unsigned long)(0x400u)),
		C(((((0x00000000 | 0x00000001 | 0x00000002) + 1) << 1) - 1)), C(-1 >> 31), C(-1U >> 31),
		C(3 > 2 > 1), C(1 + 2 * 3 - 4 / 2 % 3), C(5 & 3 ^ 6 | 8), C(010), C(0x7fffffffffffffff),
		C((unsigned int)-1 == -1), C((signed char)-1 == 255), C(~(unsigned char)0),
	};
	unsigned long long v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(eval(cases[i].text, &v), 0);
		if (v != cases[i].v)
			fail_msg("%s: tpgen 0x%llx, C 0x%llx", cases[i].text, v, cases[i].v);
	}
	/* what C does not define, the kernel could not have compiled: an error, not a value */
	assert_int_equal(eval("1 / 0", &v), -EDOM);
	assert_int_equal(eval("1 % (2 - 2)", &v), -EDOM);
	assert_int_equal(eval("1 << 32", &v), -EDOM);
	assert_int_equal(eval("1ULL << 64", &v), -EDOM);
	assert_int_equal(eval("1 << -1", &v), -EDOM);
	assert_int_equal(eval("0 && 1 / 0", &v), 0);	/* not evaluated */
	assert_int_equal(v, 0);
	assert_int_equal(eval("NOT_A_CONSTANT", &v), -EINVAL);
	assert_int_equal(eval("f(1)", &v), -EINVAL);
	assert_int_equal(eval("1 +", &v), -EINVAL);
	assert_int_equal(eval("0x", &v), -EINVAL);
	assert_int_equal(eval("99999999999999999999", &v), -EINVAL);
	assert_int_equal(eval("1UU", &v), -EINVAL);
	/* C's int: 1 << 31 is INT_MIN, which is 0xffffffff80000000 as an unsigned long */
	assert_int_equal(eval("1 << 31", &v), 0);
	assert_int_equal(v, 0xffffffff80000000ULL);
}

static const char *field_c(void *ctx, const char *name)
{
	return "ctx->x";
}

static void test_emit_c(void **state)
{
	struct printfmt pf;
	struct strbuf sb;

	printfmt_parse(NULL, 0, "\"%s\", __print_symbolic((((REC->x) >> 13) & (8 - 1)), { 1, \"RT\" })",
		       NULL, &pf);
	assert_int_equal(pf.nr_tables, 1);
	assert_false(pf.tables[0].direct);
	sb_init(&sb);
	pf_emit_c(&sb, pf.tables[0].expr, field_c, NULL);
	assert_string_equal(sb.buf, "(unsigned long long)(((unsigned long long)13 < sizeof(+(ctx->x)) * 8 ? "
				    "((ctx->x) >> 13) : 0 * (ctx->x)) & (8 - 1))");
	sb_clear(&sb);
	printfmt_clear(&pf);
}

static void test_tables(void **state)
{
	static const char sched_switch[] =
		"print fmt: \"prev_state=%s%s ==> next_comm=%s\", (REC->prev_state & ((((0x00000000 | "
		"0x00000001 | 0x00000002) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & ((((0x00000000 | "
		"0x00000001 | 0x00000002) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }) "
		": \"R\", REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002) + 1) << 1) ? \"+\" : \"\", "
		"REC->next_comm";
	struct tpgen_sym syms[8];
	const struct pf_table *t;
	struct printfmt pf;
	char buf[64];
	int i;

	printfmt_parse("f", 5, sched_switch, NULL, &pf);
	assert_int_equal(pf.nr_tables, 1);
	assert_int_equal(pf.nr_skipped, 0);
	t = printfmt_table(&pf, "prev_state");
	assert_non_null(t);
	assert_int_equal(t->kind, PF_FLAGS);
	assert_false(t->direct);
	assert_string_equal(t->sep, "|");
	assert_string_equal(t->zero_name, "R");
	assert_int_equal(t->nr_entries, 2);
	for (i = 0; i < t->nr_entries; i++)
		syms[i] = (struct tpgen_sym){ t->entries[i].value, t->entries[i].name };
	tpgen_print_flags(buf, sizeof(buf), syms, 2, t->sep, 3);
	assert_string_equal(buf, "S|D");
	tpgen_print_flags(buf, sizeof(buf), syms, 2, t->sep, 0x13);
	assert_string_equal(buf, "S|D|0x10");
	printfmt_clear(&pf);

	/* the kernel's terminator, negative values, _u64, a string across lines */
	printfmt_parse("f", 5, "print fmt: \"a=%s\nb=%s\", __print_symbolic(REC->a, { -1, \"NEG\" }, "
			       "{ 0, ((void *)0) }), __print_symbolic_u64(REC->b, { -6ULL, \"M6\" })", NULL, &pf);
	assert_int_equal(pf.nr_tables, 2);
	assert_int_equal(pf.tables[0].nr_entries, 1);
	assert_int_equal(pf.tables[0].entries[0].value, ~0ULL);
	assert_true(pf.tables[1].u64);
	assert_int_equal(pf.tables[1].entries[0].value, -6ULL);
	printfmt_clear(&pf);

	/* addresses and conversions that take arguments of their own */
	printfmt_parse(NULL, 0, "\"%*d %pI4 %.*s %pI6c %pISpc %pM %%pI4 %s\", REC->w, REC->n, REC->saddr, "
				"REC->len, REC->s, REC->d6, REC->sa, &REC->mac, "
				"__print_hex(__get_dynamic_array(buf), __get_dynamic_array_len(buf))", NULL, &pf);
	assert_int_equal(pf.nr_addrs, 5);
	assert_int_equal(printfmt_addr(&pf, "saddr")->kind, PF_ADDR_IPV4);
	assert_int_equal(printfmt_addr(&pf, "d6")->kind, PF_ADDR_IPV6C);
	assert_string_equal(printfmt_addr(&pf, "sa")->flags, "pc");
	assert_int_equal(printfmt_addr(&pf, "mac")->kind, PF_ADDR_MAC);
	assert_int_equal(printfmt_addr(&pf, "buf")->kind, PF_ADDR_HEX);
	assert_null(printfmt_addr(&pf, "n"));
	printfmt_clear(&pf);
}

static void test_tables_bad(void **state)
{
	static const char *const bad[] = {
		"print fmt: \"%s\", __print_symbolic(REC->x, { UNKNOWN, \"U\" })",
		"print fmt: \"%s\", __print_symbolic(REC->x, { 1 << 99, \"BIG\" })",
		"print fmt: \"%s\", __print_flags(REC->x, { 1, \"A\" })",		/* no separator */
		"print fmt: \"%s\", __print_symbolic(REC->x, { 1, \"A\" }",		/* never closed */
		"print fmt: \"%s\", __print_symbolic(REC->x, { 1, A })",
		"print fmt: \"%s\", __print_symbolic(REC->x[0], { 1, \"A\" })",
		"print fmt: \"%s\", __print_symbolic(sizeof(REC->x), { 1, \"A\" })",
		("print fmt: \"%s\", __print_symbolic(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((("
		 "((((((((REC->x)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))), { 1, \"A\" })"),
		"print fmt: \"unterminated, __print_symbolic(REC->x, { 1, \"A\" })",
		"print fmt: REC->x, __print_symbolic(REC->x, { 1, \"A\" })",
		"print fmt: \"%s\", __print_symbolic(REC->x, { 1, \"A\\q\" })",
	};
	struct printfmt pf;
	size_t i;

	diag_quiet_warnings = true;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		printfmt_parse("f", 1, bad[i], NULL, &pf);
		if (pf.nr_tables || pf.nr_skipped != 1)
			fail_msg("%s: %d tables, %d skipped", bad[i], pf.nr_tables, pf.nr_skipped);
		printfmt_clear(&pf);
	}
	/* the rest of the line still counts */
	printfmt_parse("f", 1, "print fmt: \"%s %s\", __print_symbolic(REC->x, { NOPE, \"N\" }), "
			       "__print_symbolic(REC->y, { 1, \"Y\" })", NULL, &pf);
	assert_int_equal(pf.nr_tables, 1);
	assert_int_equal(pf.nr_skipped, 1);
	assert_string_equal(pf.tables[0].field, "y");
	printfmt_clear(&pf);
	diag_quiet_warnings = false;
}

static void test_unistd(void **state)
{
	static const char mips_like[] =
		"#ifndef _ASM_UNISTD_N32_H\n"
		"#define __NR_Linux 6000\n"
		"#define __NR_read (__NR_Linux + 0)\n"
		"#define __NR_write (__NR_Linux + 1) /* a comment */\n"
		"#define __NR3264_fcntl 25\n"
		"#define __NR_fcntl __NR3264_fcntl\n"
		"#define __NR_syscalls 3\n"
		"#define __NR_x32_only(x) (x)\n"
		"#endif\n";
	struct sysnames sn;
	struct strbuf sb;

	assert_int_equal(sysnames_parse_unistd("u.h", mips_like, "mips64", &sn), 0);
	assert_int_equal(sn.nr, 3);
	assert_int_equal(sysnames_nr(&sn, "read"), 6000);
	assert_int_equal(sysnames_nr(&sn, "write"), 6001);
	assert_int_equal(sysnames_nr(&sn, "fcntl"), 25);
	assert_int_equal(sysnames_nr(&sn, "Linux"), -1);
	assert_string_equal(sysnames_name(&sn, 6001), "write");
	assert_null(sysnames_name(&sn, 6002));
	sb_init(&sb);
	sysnames_emit(&sb, &sn, "tab");
	assert_string_equal(sb.buf, "/* syscalls of mips64, from u.h */\n"
				    "static const struct tpgen_syscall tab[] = {\n"
				    "\t{ 25, \"fcntl\" },\n\t{ 6000, \"read\" },\n\t{ 6001, \"write\" },\n};\n");
	sb_clear(&sb);
	sysnames_clear(&sn);

	diag_silent = true;
	assert_int_equal(sysnames_parse_unistd("u.h", "#define __NR_read UNKNOWN\n", NULL, &sn), -EINVAL);
	assert_int_equal(sysnames_parse_unistd("u.h", "#define __NR_read -1\n", NULL, &sn), -EINVAL);
	assert_int_equal(sysnames_parse_unistd("u.h", "#define __NR_read \"x\n", NULL, &sn), -EINVAL);
	assert_int_equal(sysnames_parse_unistd("u.h", "int x;\n", NULL, &sn), -EINVAL);
	diag_silent = false;
}

static int load_text(const char *text, struct sysnames *sn)
{
	char path[] = "/tmp/tpgen-sysnames-XXXXXX";
	int fd = mkstemp(path), err;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	err = sysnames_load(path, sn);
	unlink(path);
	return err;
}

static void test_snapshot_file(void **state)
{
	struct sysnames sn;
	struct strbuf sb;

	assert_int_equal(load_text("# tpgen syscalls: x86_64, from kernel syscall metadata\n"
				   "62 kill\n110 getppid\n0 read\n", &sn), 0);
	assert_string_equal(sn.arch, "x86_64");
	assert_int_equal(sn.tab[0].nr, 0);
	assert_string_equal(sysnames_name(&sn, 110), "getppid");
	sysnames_clear(&sn);

	/* text from a file goes into a C comment: nothing in it can end the comment */
	assert_int_equal(load_text("# tpgen syscalls: x*/evil, from */ system(\"x\"); /*\n1 write\n", &sn), 0);
	sb_init(&sb);
	sysnames_emit(&sb, &sn, "t");
	assert_null(strstr(sb.buf + 2, "*/ s"));
	assert_non_null(strstr(sb.buf, "/* syscalls of x??evil, from ?? system??x??? ?? */\n"));
	sb_clear(&sb);
	sysnames_clear(&sn);

	diag_silent = true;
	assert_int_equal(load_text("1 write\n1 read\n", &sn), -EINVAL);	/* one number, two names */
	assert_int_equal(load_text("1 write extra\n", &sn), -EINVAL);
	assert_int_equal(load_text("x write\n", &sn), -EINVAL);
	assert_int_equal(load_text("-1 write\n", &sn), -EINVAL);
	assert_int_equal(load_text("1 Write\n", &sn), -EINVAL);
	assert_int_equal(load_text("99999999999 write\n", &sn), -EINVAL);
	assert_int_equal(load_text("# nothing\n", &sn), -EINVAL);
	assert_int_equal(sysnames_load("/nonexistent/syscalls", &sn), -ENOENT);
	diag_silent = false;
}

static void test_symbols(void **state)
{
	static const struct tpgen_sym states[] = { { 1, "TCP_ESTABLISHED" }, { 2, "TCP_SYN_SENT" } };
	static const struct tpgen_sym flags[] = { { 0, "NONE" }, { 0x3, "AB" }, { 0x1, "A" }, { 0x4, "C" },
						  { 1ULL << 63, "TOP" } };
	char buf[64], small[6];

	assert_int_equal(tpgen_print_symbolic(buf, sizeof(buf), states, 2, 1), 15);
	assert_string_equal(buf, "TCP_ESTABLISHED");
	tpgen_print_symbolic(buf, sizeof(buf), states, 2, 12);
	assert_string_equal(buf, "0xc");
	assert_null(tpgen_symbolic_name(states, 2, 3));
	tpgen_print_flags(buf, sizeof(buf), flags, 5, "|", 0x7);
	assert_string_equal(buf, "AB|C");
	tpgen_print_flags(buf, sizeof(buf), flags, 5, "|", 0x1 | 0x10 | (1ULL << 63));
	assert_string_equal(buf, "A|TOP|0x10");
	assert_int_equal(tpgen_print_flags(buf, sizeof(buf), flags, 5, "|", 0), 0);
	assert_string_equal(buf, "");
	/* truncation: the length it wanted, the NUL inside */
	assert_int_equal(tpgen_print_flags(small, sizeof(small), flags, 5, ", ", 0x7), 5);
	assert_string_equal(small, "AB, C");
	assert_int_equal(tpgen_print_flags(small, 3, flags, 5, ", ", 0x7), 5);
	assert_string_equal(small, "AB");
	assert_int_equal(tpgen_print_flags(small, 3, flags, 5, ", ", 0x17), 11);
	assert_string_equal(small, "AB");
}

static void test_errno_signals(void **state)
{
	char buf[32];
	int e, s;

	assert_string_equal(tpgen_errno_name(-2), "ENOENT");
	assert_string_equal(tpgen_errno_name(ENOENT), "ENOENT");
	assert_string_equal(tpgen_errno_name(-512), "ERESTARTSYS");
	assert_null(tpgen_errno_name(-4000));
	assert_null(tpgen_errno_name(0));
	/* every errno glibc names, named the same (glibc knows them for this architecture too) */
	for (e = 1; e < 200; e++) {
		const char *g = strerrorname_np(e), *t = tpgen_errno_name(e);

		if (g && (!t || strcmp(g, t)))
			fail_msg("errno %d: tpgen %s, glibc %s", e, t ? t : "(none)", g);
	}
	assert_string_equal(tpgen_signal_name(9), "SIGKILL");
	assert_string_equal(tpgen_signal_name(SIGUSR1), "SIGUSR1");
#if defined(__x86_64__) || defined(__aarch64__)
	assert_int_equal(SIGUSR1, 10);
	assert_string_equal(tpgen_signal_name(10), "SIGUSR1");
#endif
	for (s = 1; s < 32; s++) {
		const char *g = sigabbrev_np(s), *t = tpgen_signal_name(s);

		if (g && !strcmp(g, "POLL"))
			g = "IO";	/* the kernel's name; SIGPOLL is its alias */
		if (g && (!t || strncmp(t, "SIG", 3) || strcmp(t + 3, g)))
			fail_msg("signal %d: tpgen %s, glibc SIG%s", s, t ? t : "(none)", g);
	}
	tpgen_print_signal(buf, sizeof(buf), 34);
	assert_string_equal(buf, "SIGRT_2");
	tpgen_print_signal(buf, sizeof(buf), 200);
	assert_string_equal(buf, "200");
}

static void test_addresses(void **state)
{
	static const unsigned char lo4[4] = { 127, 0, 0, 1 };
	static const unsigned char mapped[16] = { [10] = 0xff, [11] = 0xff, 192, 0, 2, 7 };
	static const unsigned char isatap[16] = { 0xfe, 0x80, [10] = 0x5e, [11] = 0xfe, 192, 0, 2, 1 };
	static const unsigned char mac[6] = { 0x00, 0x1b, 0x2c, 0xaa, 0xbb, 0xff };
	unsigned char a[16], sa[28] = {};
	char ours[64], theirs[64];
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(80) };
	int i, k;

	tpgen_print_ipv4(ours, sizeof(ours), lo4);
	assert_string_equal(ours, "127.0.0.1");
	tpgen_print_ipv6(ours, sizeof(ours), mapped, true);
	assert_string_equal(ours, "::ffff:192.0.2.7");
	tpgen_print_ipv6(ours, sizeof(ours), isatap, true);
	assert_string_equal(ours, "fe80::5efe:192.0.2.1");
	tpgen_print_ipv6(ours, sizeof(ours), mapped, false);
	assert_string_equal(ours, "0000:0000:0000:0000:0000:ffff:c000:0207");
	/* compressed like inet_ntop (RFC 5952) wherever the kernel does not print a dotted quad */
	srand(13);
	for (k = 0; k < 20000; k++) {
		for (i = 0; i < 16; i += 2) {
			int zero = rand() % 3 == 0;

			a[i] = zero ? 0 : rand() % 3 ? 0 : rand();
			a[i + 1] = zero ? 0 : rand();
		}
		if (!memcmp(a, mapped, 10) || (a[10] == 0x5e && a[11] == 0xfe) ||
		    ((a[10] == 0xff || !a[10]) && !memcmp(a, mapped, 10)))
			continue;
		if (!memcmp(a, "\0\0\0\0\0\0\0\0\0\0\0\0", 12))
			continue;	/* glibc prints ::a.b.c.d (deprecated IPv4-compatible), the kernel does not */
		tpgen_print_ipv6(ours, sizeof(ours), a, true);
		inet_ntop(AF_INET6, a, theirs, sizeof(theirs));
		if (strcmp(ours, theirs))
			fail_msg("tpgen %s, inet_ntop %s", ours, theirs);
	}
	inet_pton(AF_INET, "127.0.0.1", &in.sin_addr);
	memcpy(sa, &in, sizeof(in));
	tpgen_print_sockaddr(ours, sizeof(ours), sa, sizeof(sa), "pc");
	assert_string_equal(ours, "127.0.0.1:80");
	{
		struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(8080) };

		inet_pton(AF_INET6, "::1", &in6.sin6_addr);
		tpgen_print_sockaddr(ours, sizeof(ours), &in6, sizeof(in6), "pc");
		assert_string_equal(ours, "[::1]:8080");
		tpgen_print_sockaddr(ours, sizeof(ours), &in6, sizeof(in6) - 1, "pc");
		assert_string_equal(ours, "");
	}
	tpgen_print_mac(ours, sizeof(ours), mac);
	assert_string_equal(ours, "00:1b:2c:aa:bb:ff");
	tpgen_print_hex(ours, sizeof(ours), mac, 3, false);
	assert_string_equal(ours, "00 1b 2c");
	tpgen_print_hex(ours, sizeof(ours), mac, 3, true);
	assert_string_equal(ours, "001b2c");
	assert_int_equal(tpgen_be16(htons(443)), 443);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expr_like_c),
		cmocka_unit_test(test_emit_c),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_tables_bad),
		cmocka_unit_test(test_unistd),
		cmocka_unit_test(test_snapshot_file),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_errno_signals),
		cmocka_unit_test(test_addresses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
