// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * sysprobe, built with a generated syscall table (syscalls.h, from
 * sysnames_emit()) and bpf/tpgen_names.c, for tests/t_names.sh:
 *   tpgen_sysprobe                 checks the table (sorted; SYS_getppid, SYS_openat and
 *                                  SYS_kill of <sys/syscall.h> named so), then makes
 *                                  syscalls the test counts: 7 getppid, 5 kill(self, 0),
 *                                  3 openat of a path that does not exist, 2 SIGUSR1 to
 *                                  itself (ignored)
 *   tpgen_sysprobe syscall N       the table's name for syscall N
 *   tpgen_sysprobe errno N         tpgen_errno_name(N)
 *   tpgen_sysprobe signal N        tpgen_print_signal(N)
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "tpgen_names.h"
#include "syscalls.h"

#define N (sizeof(syscalls) / sizeof(syscalls[0]))

static int check(long nr, const char *name)
{
	const char *got = tpgen_syscall_name(syscalls, N, nr);

	if (!got || strcmp(got, name) || tpgen_syscall_nr(syscalls, N, name) != nr) {
		fprintf(stderr, "sysprobe: %ld is %s in the table, %s in <sys/syscall.h>\n", nr,
			got ? got : "(none)", name);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char buf[32];
	int i, bad = 0;

	if (argc == 3) {
		long n = strtol(argv[2], NULL, 0);
		const char *name = NULL;

		if (!strcmp(argv[1], "syscall"))
			name = tpgen_syscall_name(syscalls, N, n);
		else if (!strcmp(argv[1], "errno"))
			name = tpgen_errno_name(n);
		else if (!strcmp(argv[1], "signal") && tpgen_print_signal(buf, sizeof(buf), n) > 0)
			name = buf;
		printf("%s\n", name ? name : "?");
		return !name;
	}
	for (i = 1; i < (int)N; i++)
		if (syscalls[i].nr <= syscalls[i - 1].nr)
			bad |= fprintf(stderr, "sysprobe: table not sorted at %d\n", i) > 0;
	bad |= check(SYS_getppid, "getppid") | check(SYS_openat, "openat") | check(SYS_kill, "kill");
	for (i = 0; i < 7; i++)
		syscall(SYS_getppid);
	for (i = 0; i < 5; i++)
		syscall(SYS_kill, getpid(), 0);
	for (i = 0; i < 3; i++)
		if (syscall(SYS_openat, AT_FDCWD, "/nonexistent/tpgen-sysprobe", O_RDONLY) < 0)
			printf("sysprobe: openat: %s\n", tpgen_errno_name(-errno));
	signal(SIGUSR1, SIG_IGN);
	for (i = 0; i < 2; i++)
		kill(getpid(), SIGUSR1);
	printf("sysprobe: %zu syscalls in the table\n", N);
	return bad;
}
