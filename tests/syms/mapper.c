// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * mapper, for tests/t_syms_hostile.sh: maps FILE (its first MiB at most)
 * readable and executable at ADDR (hex), prints "PID ADDR", then reads
 * commands on stdin: "exec FILE2" execs itself to map FILE2 at the same
 * address (same pid, new image); end of input exits.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

int main(int argc, char **argv)
{
	unsigned long addr;
	char line[4096];
	struct stat st;
	size_t len;
	void *p;
	int fd;

	if (argc != 3)
		return 2;
	addr = strtoul(argv[2], NULL, 16);
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		perror(argv[1]);
		return 1;
	}
	len = st.st_size < (1 << 20) ? (size_t)st.st_size : (1 << 20);
	p = mmap((void *)addr, len, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0);
	if (p == MAP_FAILED || (unsigned long)p != addr) {
		perror("mmap");
		return 1;
	}
	close(fd);
	printf("%d %lx\n", getpid(), addr);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "exec ", 5)) {
			munmap(p, len);
			execl("/proc/self/exe", argv[0], line + 5, argv[2], (char *)NULL);
			perror("exec");
			return 1;
		}
	}
	return 0;
}
