// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bench B6's loader: loads a BPF object (no attach) with the verifier's
 * statistics log (BPF_LOG_STATS) and prints one line per program: its
 * section, the instructions the verifier processed (the kernel's
 * verified_insns), its peak and total states and its verification time,
 * then the whole bpf_object__load() in microseconds. With -i, the
 * verified_insns of programs already loaded (another tool's), by id.
 *
 *   verifier OBJ.bpf.o
 *   verifier -i ID...
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LOG_SIZE 4096
#define MAX_PROGS 64

static char logs[MAX_PROGS][LOG_SIZE];

/* the number after 'key' in the verifier's statistics, or -1 */
static long stat_of(const char *log, const char *key)
{
	const char *p = strstr(log, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static long long usec_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* -i ID...: name and verified_insns of loaded programs */
static int show_ids(int argc, char **argv)
{
	struct bpf_prog_info info;
	int i, fd;
	__u32 len;

	for (i = 0; i < argc; i++) {
		fd = bpf_prog_get_fd_by_id(strtoul(argv[i], NULL, 10));
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len)) {
			fprintf(stderr, "verifier: no program %s\n", argv[i]);
			return 1;
		}
		printf("%-40s insns %7u\n", info.name, info.verified_insns);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct bpf_prog_info info;
	struct bpf_program *prog;
	struct bpf_object *obj;
	long long start, load_us;
	__u32 len;
	int n = 0, err;

	if (argc > 2 && !strcmp(argv[1], "-i"))
		return show_ids(argc - 2, argv + 2);
	if (argc != 2) {
		fprintf(stderr, "usage: verifier OBJ.bpf.o | -i ID...\n");
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj || libbpf_get_error(obj)) {
		fprintf(stderr, "verifier: cannot open %s\n", argv[1]);
		return 1;
	}
	bpf_object__for_each_program(prog, obj) {
		if (n == MAX_PROGS || !bpf_program__autoload(prog))
			continue;
		bpf_program__set_log_level(prog, 4);	/* BPF_LOG_STATS */
		bpf_program__set_log_buf(prog, logs[n++], LOG_SIZE);
	}
	start = usec_now();
	err = bpf_object__load(obj);
	load_us = usec_now() - start;
	if (err) {
		fprintf(stderr, "verifier: cannot load %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	n = 0;
	bpf_object__for_each_program(prog, obj) {
		const char *log;

		if (n == MAX_PROGS || !bpf_program__autoload(prog))
			continue;
		log = logs[n++];
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			info.verified_insns = 0;
		printf("%-40s insns %7u  states %6ld peak %6ld  verify %8ld us\n",
		       bpf_program__section_name(prog), info.verified_insns,
		       stat_of(log, "total_states "), stat_of(log, "peak_states "),
		       stat_of(log, "verification time "));
	}
	printf("load %lld us\n", load_us);
	bpf_object__close(obj);
	return 0;
}
