// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * metrics-work COMM N M [P [W [R]]]: renamed COMM (prctl(PR_SET_NAME), any
 * bytes: "\n", "\xff" as C escapes), N getppid() calls, then M opens that
 * fail with ENOENT, of P distinct paths (default 1), then W writes to
 * /dev/null of 1, 2, ..., W bytes (W * (W + 1) / 2 in all), then R round
 * trips through pipes with a child of the same name, each one waking the
 * other.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] == 'n') {
			*o++ = '\n';
			s++;
		} else if (s[0] == '\\' && s[1] == 'x' && s[2] && s[3]) {
			char hex[3] = { s[2], s[3], 0 };

			*o++ = (char)strtol(hex, NULL, 16);
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

int main(int argc, char **argv)
{
	long n, m, p = 1, w = 0, r = 0;
	char path[64], buf[4096] = {};
	int fd, to[2], from[2];
	pid_t child;

	if (argc < 4 || argc > 7)
		return 2;
	if (argc >= 5)
		p = atol(argv[4]);
	if (argc >= 6)
		w = atol(argv[5]);
	if (argc >= 7)
		r = atol(argv[6]);
	if (w < 0 || w > (long)sizeof(buf))
		return 2;
	unescape(argv[1]);
	n = atol(argv[2]);
	m = atol(argv[3]);
	if (prctl(PR_SET_NAME, argv[1]))
		return 1;
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	for (long i = 0; i < m; i++) {
		snprintf(path, sizeof(path), "/nonexistent-tpgen-metrics/%ld", p > 1 ? i % p : 0);
		if (open(path, O_RDONLY) >= 0)
			return 1;
	}
	if (w) {
		fd = open("/dev/null", O_WRONLY);
		if (fd < 0)
			return 1;
		for (long i = 1; i <= w; i++)
			if (write(fd, buf, i) != i)
				return 1;
		close(fd);
	}
	if (!r)
		return 0;
	if (pipe(to) || pipe(from))
		return 1;
	child = fork();
	if (child < 0)
		return 1;
	if (!child) {
		close(to[1]);
		close(from[0]);
		while (read(to[0], buf, 1) == 1)
			if (write(from[1], buf, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(to[0]);
	close(from[1]);
	for (long i = 0; i < r; i++)
		if (write(to[1], "x", 1) != 1 || read(from[0], buf, 1) != 1)
			return 1;
	close(to[1]);
	return waitpid(child, NULL, 0) == child ? 0 : 1;
}
