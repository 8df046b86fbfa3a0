// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * sleeper, for tests/t_stacks.sh: a thread named "tpgen-offcpu" that sleeps
 * in nanosleep() until it is killed. On x86_64 the system call is made from
 * tpgen_offcpu_sleep() itself (frame pointers kept), so its user stack
 * unwinds through a function of this program.
 */
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) void tpgen_offcpu_sleep(const struct timespec *ts)
{
#if defined(__x86_64__)
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "0"((long)SYS_nanosleep), "D"(ts), "S"(0L)
			 : "rcx", "r11", "memory");
#else
	nanosleep(ts, NULL);
#endif
}

int main(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	prctl(PR_SET_NAME, "tpgen-offcpu");
	printf("%d\n", getpid());
	fflush(stdout);
	for (;;)
		tpgen_offcpu_sleep(&ts);
}
