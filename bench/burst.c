// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bench B4's event source: names itself "tpgen-burst", waits for a line on
 * stdin, makes N getppid(2) calls as fast as it can, prints N and the seconds
 * it took.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 1000000;
	struct timespec a, b;
	char line[16];

	prctl(PR_SET_NAME, "tpgen-burst");
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%ld %.6f\n", n, (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
