// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tpgen: tracepoint headers and BPF programs from tracefs, BTF and a spec.
 *
 *   tpgen SPEC... [-o DIR]          program + loader pairs from YAML specs
 *   tpgen headers [--raw] [PATTERN...]
 *   tpgen list [--json] [PATTERN...]
 *   tpgen snapshot DIR
 *   tpgen diff OLD NEW
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "model/prog.h"

static int cmd_help(int argc, char **argv);

struct cmd {
	const char *name;
	int (*func)(int argc, char **argv);
	const char *help;
};

static const struct cmd cmds[] = {
	{ "headers",	cmd_headers,	"context structs (or --raw argument structs) for events" },
	{ "list",	cmd_list,	"events, fields, struct names and raw arguments" },
	{ "snapshot",	cmd_snapshot,	"copy this kernel's format files, BTF and release" },
	{ "diff",	cmd_diff,	"what changed between two snapshots" },
	{ "help",	cmd_help,	"this help" },
	{ 0 }
};

static void usage(FILE *f)
{
	const struct cmd *c;

	fprintf(f,
		"Usage: tpgen SPEC.yaml... [-o DIR]     generate BPF program + loader pairs\n"
		"       tpgen COMMAND [OPTIONS] [ARGS]\n"
		"       tpgen --version\n\n"
		"Commands:\n");
	for (c = cmds; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->help);
	fprintf(f, "\n'tpgen COMMAND --help' for each command's options.\n"
		"Exit status: 0 ok, 1 input error, 2 usage, 3 environment (root, tracefs, BTF).\n");
}

static int cmd_help(int argc, char **argv)
{
	usage(stdout);
	return TPGEN_EXIT_OK;
}

int main(int argc, char **argv)
{
	const struct cmd *c;
	int rc;

	opterr = 0;	/* commands report bad options themselves, in one line */
	if (argc < 2) {
		usage(stderr);
		return TPGEN_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("tpgen %s\n", TPGEN_VERSION);
		return TPGEN_EXIT_OK;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(argc, argv);
	for (c = cmds; c->name; c++)
		if (!strcmp(argv[1], c->name))
			break;
	rc = c->name ? c->func(argc - 1, argv + 1) : cmd_generate(argc, argv);
	/* an error was printed: the exit status says so, whatever path led here */
	if (rc == TPGEN_EXIT_OK && diag_errors)
		rc = TPGEN_EXIT_INPUT;
	return rc;
}
