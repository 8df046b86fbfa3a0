// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The workload of t_spec_strarg.sh, named tpgenmnt: in a mount namespace of
 * its own, R rounds of mount(2) of a tmpfs on DIR with each data string of
 * the command line ("-" passes NULL), each unmounted when it succeeded.
 *
 *   tpgenmnt DIR R DATA...
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

int main(int argc, char **argv)
{
	int r, i, n;

	if (argc < 4)
		return 2;
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return 1;
	n = atoi(argv[2]);
	for (r = 0; r < n; r++) {
		for (i = 3; i < argc; i++) {
			const char *data = strcmp(argv[i], "-") ? argv[i] : NULL;

			if (!mount("none", argv[1], "tmpfs", 0, data) && umount(argv[1]))
				return 1;
		}
	}
	return 0;
}
