// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * sysnames_tool: gen/input/sysnames.c from the command line, for tests/t_names.sh.
 *   sysnames_tool kernel          the running kernel's table, as sysnames_text() prints it
 *   sysnames_tool emit VAR        the running kernel's table as C (sysnames_emit())
 *   sysnames_tool load FILE       a snapshot's table, read back and written again
 *   sysnames_tool unistd FILE     a unistd header's table
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "model/model.h"
#include "input/sysnames.h"
#include "lib/util.h"

static int kernel(struct sysnames *sn)
{
	struct btf *btf = btf__load_vmlinux_btf();
	struct tp_events evs;
	int err;

	if (!btf || tracefs_load(&evs, "/sys/kernel/tracing/events"))
		return 1;
	err = sysnames_read_kernel(sn, &evs, btf);
	tp_events_clear(&evs);
	btf__free(btf);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct sysnames sn;
	struct strbuf sb;
	int err;

	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "kernel") || !strcmp(argv[1], "emit"))
		err = kernel(&sn);
	else if (!strcmp(argv[1], "load") && argc == 3)
		err = sysnames_load(argv[2], &sn);
	else if (!strcmp(argv[1], "unistd") && argc == 3) {
		char *text;
		size_t len;

		err = read_file(argv[2], &text, &len);
		if (!err) {
			err = sysnames_parse_unistd(argv[2], text, NULL, &sn);
			free(text);
		}
	} else {
		return 2;
	}
	if (err)
		return 1;
	sb_init(&sb);
	if (!strcmp(argv[1], "emit"))
		sysnames_emit(&sb, &sn, argc > 2 ? argv[2] : "syscalls");
	else
		sysnames_text(&sb, &sn);
	fputs(sb.buf, stdout);
	sb_clear(&sb);
	sysnames_clear(&sn);
	return 0;
}
