// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The workload of t_spec_percpu.sh, named tpgenpcpu: N rounds (argv[2]) of
 * openat() of three missing files under argv[1], long, short, middle and
 * short again (a short path saved after a longer one must not keep the
 * longer one's tail), then 5 getppid() calls and 3 kill(self, 0) calls.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	static const char *const names[] = { "llllllllllllllll", "s", "mmmmmmmm", "s" };
	char path[4][128];
	int i, j, n;

	if (argc != 3)
		return 2;
	n = atoi(argv[2]);
	for (j = 0; j < 4; j++)
		snprintf(path[j], sizeof(path[j]), "%s/%s", argv[1], names[j]);
	for (i = 0; i < n; i++)
		for (j = 0; j < 4; j++)
			if (open(path[j], O_RDONLY) >= 0)
				return 1;
	for (i = 0; i < 5; i++)
		syscall(SYS_getppid);
	for (i = 0; i < 3; i++)
		kill(getpid(), 0);
	return 0;
}
