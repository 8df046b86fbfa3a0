// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bench B5's workloads, each a fixed amount of work the traced tools see:
 *
 *   b5_work getppid N    N getppid(2) calls (syscount: one sys_exit each)
 *   b5_work open N       N openat(2) of /dev/null, each closed (opensnoop)
 *   b5_work pingpong N   two threads passing a byte N times each way through
 *                        two pipes: every pass a wakeup and a switch (runqlat)
 *   b5_work exec N       N fork()s, each child an execve() of /bin/true, waited
 *                        for (execsnoop, exitsnoop)
 *   b5_work tcp N        N TCP connections over loopback, accepted and closed
 *                        (tcpstates: ~10 state changes each; softirqs: NET_RX)
 *
 * Prints the seconds the work took (CLOCK_MONOTONIC).
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int ping[2], pong[2];
static long rounds;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void *ponger(void *arg __attribute__((unused)))
{
	char c;

	for (long i = 0; i < rounds; i++) {
		if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
			die("ponger");
	}
	return NULL;
}

static void pingpong(void)
{
	pthread_t t;
	char c = 'x';

	if (pipe(ping) || pipe(pong))
		die("pipe");
	if (pthread_create(&t, NULL, ponger, NULL))
		die("pthread_create");
	for (long i = 0; i < rounds; i++) {
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			die("pinger");
	}
	pthread_join(t, NULL);
}

static void spawn(long n)
{
	for (long i = 0; i < n; i++) {
		int status;
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
			die("/bin/true");
	}
}

static void tcp(long n)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int one = 1, l;

	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 16) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		die("listen");
	for (long i = 0; i < n; i++) {
		int c = socket(AF_INET, SOCK_STREAM, 0), s;

		if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a)))
			die("connect");
		s = accept(l, NULL, NULL);
		if (s < 0)
			die("accept");
		/* the client closes first: FIN_WAIT1, FIN_WAIT2, TIME_WAIT on its side */
		close(c);
		close(s);
	}
	close(l);
}

int main(int argc, char **argv)
{
	struct timespec a, b;
	long i, n;

	if (argc != 3 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: b5_work getppid|open|pingpong|exec|tcp N\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (!strcmp(argv[1], "getppid")) {
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
	} else if (!strcmp(argv[1], "open")) {
		for (i = 0; i < n; i++) {
			int fd = openat(AT_FDCWD, "/dev/null", O_RDONLY);

			if (fd < 0)
				die("openat");
			close(fd);
		}
	} else if (!strcmp(argv[1], "pingpong")) {
		rounds = n;
		pingpong();
	} else if (!strcmp(argv[1], "exec")) {
		spawn(n);
	} else if (!strcmp(argv[1], "tcp")) {
		tcp(n);
	} else {
		fprintf(stderr, "b5_work: unknown workload '%s'\n", argv[1]);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.6f\n", (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
