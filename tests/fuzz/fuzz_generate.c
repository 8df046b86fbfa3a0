// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer harness: a whole 'tpgen SPEC' -- the spec loader, the resolver
 * (events, raw arguments, member paths, built-ins, joins, filters, stacks,
 * names) and every emitter of the pair -- against the running kernel's
 * format files and BTF, read once, or, where there is no tracefs, the
 * committed tests/spec/events (then with BTF only if the kernel has it).
 * Any input gives the pair's files in memory or at least one located error;
 * nothing is written. Seeds: every spec of specs/ and tests/spec/.
 */
#include <fcntl.h>
#include <stdint.h>

#include "../../gen/cmd/generate.c"

static struct gen_ctx g = { .outdir = "out" };
static char spec_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	diag_silent = !getenv("FUZZ_VERBOSE");
	if (access("/sys/kernel/tracing/events/sched/sched_switch/format", R_OK))
		g.in.tracefs = xstrdup("tests/spec/events");
	snprintf(spec_path, sizeof(spec_path), "/dev/shm/tpgen-fuzz-%d.yaml", (int)getpid());
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int before = diag_error_count(), fd, err;

	fd = open(spec_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	err = generate(&g, spec_path);
	if (err && err != -EACCES && diag_error_count() == before)
		abort();	/* a refusal must say why */
	outputs_clear(&g.out);
	memset(&g.out, 0, sizeof(g.out));
	return 0;
}
