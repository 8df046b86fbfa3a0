// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Program pairs from specs: options, resolve, emit, write. */
#include "prog.h"
#include "util.h"

int cmd_generate(int argc, char **argv)
{
	pr_err("program generation is not implemented yet");
	return TPGEN_EXIT_USAGE;
}
