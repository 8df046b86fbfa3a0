// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <unistd.h>
#include <stdlib.h>
#include <sys/syscall.h>
/* tpgen-getppid N ROUNDS: N getppid() calls, ROUNDS times, 0.6 s apart */
int main(int argc, char **argv)
{
	long n = atol(argv[1]), r = atol(argv[2]);

	for (long j = 0; j < r; j++) {
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		usleep(600000);
	}
	return 0;
}
