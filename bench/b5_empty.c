// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bench B5's floor: loads a BPF object of empty programs (bench/b5.sh writes
 * one per tool, a 'return 0' in each section the generated tool attaches),
 * attaches every program, says so and waits for SIGINT. What these programs
 * cost per run is what any program on the same tracepoints, attached the same
 * way, pays before doing anything.
 *
 *   b5_empty OBJ.bpf.o
 */
#include <bpf/libbpf.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile sig_atomic_t exiting;

static void on_sigint(int sig)
{
	(void)sig;
	exiting = 1;
}

int main(int argc, char **argv)
{
	struct bpf_program *prog;
	struct bpf_object *obj;
	int n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: b5_empty OBJ.bpf.o\n");
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj || libbpf_get_error(obj) || bpf_object__load(obj)) {
		fprintf(stderr, "b5_empty: cannot load %s\n", argv[1]);
		return 1;
	}
	bpf_object__for_each_program(prog, obj) {
		if (libbpf_get_error(bpf_program__attach(prog))) {
			fprintf(stderr, "b5_empty: cannot attach %s\n", bpf_program__section_name(prog));
			return 1;
		}
		n++;
	}
	signal(SIGINT, on_sigint);
	signal(SIGTERM, on_sigint);
	printf("Tracing with %d empty programs... Hit Ctrl-C to end.\n", n);
	fflush(stdout);
	while (!exiting)
		pause();
	bpf_object__close(obj);
	return 0;
}
