// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * metrics-work COMM N M [P]: renamed COMM (prctl(PR_SET_NAME), any bytes:
 * "\n", "\xff" as C escapes), N getppid() calls, then M opens that fail
 * with ENOENT, of P distinct paths (default 1).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

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
	long n, m, p = 1;
	char path[64];

	if (argc != 4 && argc != 5)
		return 2;
	if (argc == 5)
		p = atol(argv[4]);
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
	return 0;
}
