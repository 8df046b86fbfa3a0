// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Loader of the hand-written reference: bench_ref tp|raw_tp|tp_btf runs one
 * program until SIGINT/SIGTERM, then prints the histogram's non-empty slots.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "bench_ref.skel.h"

static volatile sig_atomic_t exiting;

static void sig_handler(int sig)
{
	exiting = 1;
}

int main(int argc, char **argv)
{
	struct bench_ref_bpf *skel;
	const char *mode = argc > 1 ? argv[1] : "tp";
	int err, i;

	skel = bench_ref_bpf__open();
	if (!skel) {
		fprintf(stderr, "Failed to open BPF skeleton\n");
		return 1;
	}
	bpf_program__set_autoload(skel->progs.tp_write, !strcmp(mode, "tp"));
	bpf_program__set_autoload(skel->progs.raw_tp_write, !strcmp(mode, "raw_tp"));
	bpf_program__set_autoload(skel->progs.tp_btf_write, !strcmp(mode, "tp_btf"));
	err = bench_ref_bpf__load(skel);
	if (err) {
		fprintf(stderr, "Failed to load BPF skeleton: %d\n", err);
		goto cleanup;
	}
	err = bench_ref_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "Failed to attach BPF skeleton: %d\n", err);
		goto cleanup;
	}
	signal(SIGINT, sig_handler);
	signal(SIGTERM, sig_handler);
	printf("attached %s\n", mode);
	fflush(stdout);
	while (!exiting)
		pause();
	for (i = 0; i < 32; i++)
		if (skel->bss->hist[i])
			printf("slot %d: %llu\n", i, (unsigned long long)skel->bss->hist[i]);
cleanup:
	bench_ref_bpf__destroy(skel);
	return err ? 1 : 0;
}
