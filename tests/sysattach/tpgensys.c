// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The workload of t_spec_sysattach.sh, named tpgensys (the tools run with
 * -c tpgensys): kill(self, 0) 5 times, kill(-1, 0) 3 times, getppid() 7
 * times, openat() of a missing and of an existing file, and an mmap() of
 * the existing one at offset 8192 (its sixth argument). Prints its pid.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	char path[64];
	void *p;
	int i, fd;

	if (argc != 2)
		return 2;
	for (i = 0; i < 5; i++)
		kill(getpid(), 0);
	for (i = 0; i < 3; i++)
		kill(-1, 0);
	for (i = 0; i < 7; i++)
		syscall(SYS_getppid);
	snprintf(path, sizeof(path), "%s-%d", argv[1], (int)getpid());
	fd = openat(AT_FDCWD, path, O_RDONLY);
	if (fd >= 0)
		return 1;
	fd = openat(AT_FDCWD, argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 8192);
	if (p == MAP_FAILED)
		return 1;
	munmap(p, 4096);
	close(fd);
	printf("%d\n", (int)getpid());
	return 0;
}
