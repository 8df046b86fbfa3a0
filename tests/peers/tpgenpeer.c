// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A workload of t_spec_peers.sh, named tpgenpeer: opens argv[1] with the path
 * read from a page the process has never touched (a fresh file mapping of
 * argv[2], which holds the path), so a BPF program at the syscall's entry
 * cannot read it (bpf_probe_read_user_str() does not fault pages in) and the
 * kernel faults it in during the call. Prints the fd.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	size_t n;
	char *p;
	int fd;

	if (argc != 3)
		return 2;
	n = strlen(argv[1]) + 1;
	fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, argv[1], n) != (ssize_t)n)
		return 1;
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return 1;
	fd = open(p, O_RDONLY);
	printf("%d\n", fd);
	return fd < 0;
}
