// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * syms_check, for tests/t_syms.sh (bpf/tpgen_syms.c):
 *   syms_check kernel ADDR...   each kernel address as "ADDR name+0xoff [module]"
 *   syms_check self             symbolizes itself: a function of its own (PIE), getppid of libc
 *                               (from dlsym), a stack folded and indented; prints what it finds
 *                               and exits 1 on a wrong answer
 *   syms_check user             reads "PID ADDR" lines (ADDR in hex) on stdin, prints each as
 *                               "ADDR name+0xoff module (err)" at once; at the end of input, its
 *                               peak memory: "VmHWM: N kB"
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "tpgen_syms.h"

/* long enough that marker + 3 is inside it */
__attribute__((noinline)) int tpgen_syms_marker(int n)
{
	volatile int sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += i * n;
	return sum;
}

__attribute__((noinline)) static int local_marker(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

static int bad;

int main(int argc, char **argv);

static void expect(struct tpgen_syms *s, const char *what, unsigned long long addr, const char *names,
		   unsigned long long off, const char *module)
{
	struct tpgen_sym_info info;
	char buf[256], list[256], *n, *save;
	int err = tpgen_syms_user(s, getpid(), addr, &info);
	bool ok = false;

	tpgen_sym_str(buf, sizeof(buf), &info, true);
	printf("%s: %#llx %s (%s)\n", what, addr, buf, info.module ? info.module : "-");
	snprintf(list, sizeof(list), "%s", names);
	for (n = strtok_r(list, "|", &save); n && !err; n = strtok_r(NULL, "|", &save))
		ok |= info.name && !strcmp(info.name, n);
	if (!ok || info.offset != off || (module && (!info.module || !strstr(info.module, module)))) {
		fprintf(stderr, "syms_check: %s: got %s in %s, want %s+0x%llx in *%s*\n", what, buf,
			info.module ? info.module : "-", names, off, module ? module : "");
		bad = 1;
	}
}

static int self(void)
{
	struct tpgen_syms *s = tpgen_syms_new();
	void *getppid_addr = dlsym(RTLD_DEFAULT, "getppid");
	unsigned long long stack[4], kstack[2] = { 0, 0 };
	struct tpgen_sym_info info;
	char folded[512];
	void *anon;

	if (!s || !getppid_addr)
		return 1;
	expect(s, "own function", (unsigned long long)tpgen_syms_marker + 3, "tpgen_syms_marker", 3, "syms_check");
	expect(s, "own static function", (unsigned long long)local_marker, "local_marker", 0, "syms_check");
	expect(s, "libc getppid", (unsigned long long)getppid_addr, "getppid|__getppid", 0, "libc");
	expect(s, "libc getppid+1", (unsigned long long)getppid_addr + 1, "getppid|__getppid", 1, "libc");
	/* an anonymous mapping (maps read again): no symbol */
	tpgen_syms_forget(s, getpid());
	anon = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (anon != MAP_FAILED) {
		int err = tpgen_syms_user(s, getpid(), (unsigned long long)anon + 8, &info);

		tpgen_sym_str(folded, sizeof(folded), &info, true);
		printf("anonymous: %d %s\n", err, folded);
		if (!err || strcmp(folded, "[unknown]"))
			bad = 1;
		munmap(anon, 4096);
	}
	/* a stack as bpf_get_stackid() stores it: innermost first, 0 ends it */
	stack[0] = (unsigned long long)getppid_addr + 2;
	stack[1] = (unsigned long long)tpgen_syms_marker + 1;
	stack[2] = (unsigned long long)main + 1;
	stack[3] = 0;
	tpgen_stack_folded(s, folded, sizeof(folded), "syms;check", getpid(), stack, 4, kstack, 2);
	printf("folded: %s 1\n", folded);
	if (strcmp(folded, "syms\\x3bcheck;main;tpgen_syms_marker;getppid") &&
	    strcmp(folded, "syms\\x3bcheck;main;tpgen_syms_marker;__getppid"))
		bad = fprintf(stderr, "syms_check: folded stack %s\n", folded) > 0;
	printf("indented:\n");
	tpgen_stack_print(s, stdout, "    ", getpid(), stack, 4);
	tpgen_syms_free(s);
	return bad;
}

static int user(void)
{
	struct tpgen_syms *s = tpgen_syms_new();
	char line[256];
	FILE *f;

	if (!s)
		return 1;
	while (fgets(line, sizeof(line), stdin)) {
		struct tpgen_sym_info info;
		unsigned long long addr;
		char buf[128];
		int pid, err;

		if (sscanf(line, "%d %llx", &pid, &addr) != 2)
			continue;
		err = tpgen_syms_user(s, pid, addr, &info);
		tpgen_sym_str(buf, sizeof(buf), &info, true);
		printf("%llx %s %s (%d)\n", addr, buf, info.module ? info.module : "-", err);
		fflush(stdout);
	}
	tpgen_syms_free(s);
	f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6))
			fputs(line, stdout);
	if (f)
		fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct tpgen_syms *s;
	int i, err;

	if (argc == 2 && !strcmp(argv[1], "self"))
		return self();
	if (argc == 2 && !strcmp(argv[1], "user"))
		return user();
	if (argc < 3 || strcmp(argv[1], "kernel"))
		return 2;
	s = tpgen_syms_new();
	if (!s)
		return 1;
	for (i = 2; i < argc; i++) {
		unsigned long long addr = strtoull(argv[i], NULL, 16);
		struct tpgen_sym_info info;
		char buf[256];

		err = tpgen_syms_kernel(s, addr, &info);
		tpgen_sym_str(buf, sizeof(buf), &info, true);
		printf("%llx %s%s%s (%d)\n", addr, buf, info.module ? " " : "", info.module ? info.module : "", err);
	}
	tpgen_syms_free(s);
	return 0;
}
