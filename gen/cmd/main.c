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
	return 0;
}

/* A spec, not a command: a file that is there, or a path that looks like a spec's. */
static bool is_spec(const char *arg)
{
	size_t n = strlen(arg);

	if (strchr(arg, '/') || (n > 5 && !strcmp(arg + n - 5, ".yaml")) ||
	    (n > 4 && !strcmp(arg + n - 4, ".yml")))
		return true;
	return path_exists(arg);
}

static int unknown_command(const char *arg)
{
	const char *names[ARRAY_SIZE(cmds)];
	const char *hint;
	struct strbuf sb;
	int n;

	for (n = 0; cmds[n].name; n++)
		names[n] = cmds[n].name;
	hint = str_suggest(arg, names, n);
	if (hint) {
		pr_err("unknown command '%s'; did you mean '%s'?", arg, hint);
		return -TPGEN_EUSAGE;
	}
	sb_init(&sb);
	for (n = 0; cmds[n].name; n++)
		sb_printf(&sb, "%s%s", n ? cmds[n + 1].name ? ", " : " or " : "", cmds[n].name);
	pr_err("unknown command '%s': not %s, nor a spec file; see 'tpgen --help'", arg, sb.buf);
	sb_clear(&sb);
	return -TPGEN_EUSAGE;
}

/*
 * As bpftool's cmd_select(): argv[1] names a command of cmds[]; else, with
 * an option first or a spec (is_spec()), the specs are generated; anything
 * else is an unknown command, with the nearest command as a suggestion.
 */
static int cmd_select(int argc, char **argv)
{
	const struct cmd *c;

	for (c = cmds; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->func(argc - 1, argv + 1);
	if (argv[1][0] == '-' || is_spec(argv[1]))
		return cmd_generate(argc, argv);
	return unknown_command(argv[1]);
}

int main(int argc, char **argv)
{
	int err;

	opterr = 0;	/* commands report bad options themselves, in one line */
	if (argc < 2) {
		usage(stderr);
		err = -TPGEN_EUSAGE;
	} else if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("tpgen %s\n", TPGEN_VERSION);
		err = 0;
	} else if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		err = cmd_help(argc - 1, argv + 1);
	} else {
		err = cmd_select(argc, argv);
	}
	return exit_code(err);
}
