// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The workloads of t_spec_rows*.sh, named tpgenrows:
 *
 *   tpgenrows kills R
 *	R rounds of kill(self, 0), kill(self, SIGWINCH), getppid(), getppid():
 *	the first getppid() of a round follows two saves, the second one
 *	follows none.
 *   tpgenrows fds DIR N READY
 *	openat() of DIR/a with mode i (i = 1..N) and of DIR/b with mode 100 + i
 *	(i = 1..N/2), dup() of the a fds of even i, close() of the a fds of
 *	i % 3 == 0 and of the dups of i % 4 == 0; then creates READY and
 *	waits, holding the rest, until killed.
 *   tpgenrows eventfds N K READY
 *	N eventfd()s, the first K closed; then creates READY and waits.
 *   tpgenrows sleeps N MS
 *	N sleeps of 1 ms: N wakeups, each a wait on a run queue; halfway, one
 *	wait of MS milliseconds at least, behind a SCHED_FIFO child on this
 *	CPU (named tpgenrows-spin) that spins for MS ms.
 *   tpgenrows writes SIZE...
 *	write(1000 + i, NULL, SIZE) for the i-th SIZE: each fails (EBADF), its
 *	fd and count known.
 *   tpgenrows errs N
 *	N openat()s of a missing file (ENOENT), N / 2 close(-1) (EBADF) and
 *	N getppid()s.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static void ready(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);

	if (fd < 0)
		exit(1);
	close(fd);
	for (;;)
		pause();
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * One wait on the run queue of at least ms milliseconds: this task and a child
 * on one CPU; the child, SCHED_FIFO, preempts it when the pipe wakes it and
 * spins for ms ms. The wait starts when this task is preempted (runnable).
 */
static int long_wait(int ms)
{
	struct sched_param sp = { .sched_priority = 1 };
	int cpu = sched_getcpu(), ready[2], go[2], st;
	cpu_set_t set, was;
	char c = 0;
	pid_t pid;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (cpu < 0 || sched_getaffinity(0, sizeof(was), &was) || sched_setaffinity(0, sizeof(set), &set) ||
	    pipe(ready) || pipe(go))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		double end;

		prctl(PR_SET_NAME, "tpgenrows-spin");
		if (sched_setscheduler(0, SCHED_FIFO, &sp) || write(ready[1], &c, 1) != 1 ||
		    read(go[0], &c, 1) != 1)
			_exit(1);
		for (end = now_ms() + ms; now_ms() < end;)
			;
		_exit(0);
	}
	/* the child is FIFO once ready; the go wakes it, and it runs at once */
	if (read(ready[0], &c, 1) != 1 || write(go[1], &c, 1) != 1 || waitpid(pid, &st, 0) != pid)
		return -1;
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	if (sched_setaffinity(0, sizeof(was), &was))
		return -1;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

int main(int argc, char **argv)
{
	char a[4096], b[4096];
	int i, n, k, *fds;

	signal(SIGWINCH, SIG_IGN);
	if (argc == 3 && !strcmp(argv[1], "kills")) {
		n = atoi(argv[2]);
		for (i = 0; i < n; i++) {
			if (syscall(SYS_kill, getpid(), 0) || syscall(SYS_kill, getpid(), SIGWINCH))
				return 1;
			syscall(SYS_getppid);
			syscall(SYS_getppid);
		}
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "fds")) {
		n = atoi(argv[3]);
		snprintf(a, sizeof(a), "%s/a", argv[2]);
		snprintf(b, sizeof(b), "%s/b", argv[2]);
		for (i = 1; i <= n; i++) {
			int fd = syscall(SYS_openat, AT_FDCWD, a, O_RDONLY | O_CREAT, i), d = -1;

			if (fd < 0)
				return 1;
			if (i % 2 == 0 && (d = dup(fd)) < 0)
				return 1;
			if (i % 3 == 0)
				close(fd);
			if (d >= 0 && i % 4 == 0)
				close(d);
		}
		for (i = 1; i <= n / 2; i++)
			if (syscall(SYS_openat, AT_FDCWD, b, O_RDONLY | O_CREAT, 100 + i) < 0)
				return 1;
		ready(argv[4]);
	}
	if (argc == 4 && !strcmp(argv[1], "sleeps")) {
		n = atoi(argv[2]);
		for (i = 0; i < n; i++) {
			usleep(1000);
			if (i == n / 2 && long_wait(atoi(argv[3])))
				return 1;
		}
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "writes")) {
		for (i = 2; i < argc; i++)
			if (syscall(SYS_write, 1000 + i - 2, NULL, strtoul(argv[i], NULL, 0)) != -1)
				return 1;
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "errs")) {
		n = atoi(argv[2]);
		for (i = 0; i < n; i++) {
			if (syscall(SYS_openat, AT_FDCWD, "/nonexistent-tpgenrows", O_RDONLY) >= 0)
				return 1;
			if (i % 2 == 0 && syscall(SYS_close, -1) == 0)
				return 1;
			syscall(SYS_getppid);
		}
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "eventfds")) {
		n = atoi(argv[2]);
		k = atoi(argv[3]);
		fds = calloc(n, sizeof(*fds));
		if (!fds)
			return 1;
		for (i = 0; i < n; i++)
			if ((fds[i] = eventfd(0, 0)) < 0)
				return 1;
		for (i = 0; i < k && i < n; i++)
			close(fds[i]);
		ready(argv[4]);
	}
	return 2;
}
