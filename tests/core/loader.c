// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * loader OBJ: load and attach every program of OBJ, run a thread named
 * "tpgen-core" that sleeps a few times, print the object's 'result' global
 * and the thread's tid.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/libbpf.h>

static int tid;

static void *named(void *arg __attribute__((unused)))
{
	int i;

	prctl(PR_SET_NAME, "tpgen-core");
	tid = syscall(SYS_gettid);
	for (i = 0; i < 20; i++)
		usleep(2000);
	return NULL;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *bss;
	struct { int pid, prio; unsigned int hits; } res;
	pthread_t th;
	int zero = 0;

	if (argc != 2)
		return 2;
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj || bpf_object__load(obj)) {
		fprintf(stderr, "load failed\n");
		return 1;
	}
	bpf_object__for_each_program(prog, obj)
		if (!bpf_program__attach(prog)) {
			fprintf(stderr, "attach failed\n");
			return 1;
		}
	pthread_create(&th, NULL, named, NULL);
	pthread_join(th, NULL);
	bss = bpf_object__find_map_by_name(obj, ".bss");
	if (!bss || bpf_map__lookup_elem(bss, &zero, sizeof(zero), &res, sizeof(res), 0)) {
		fprintf(stderr, "no .bss\n");
		return 1;
	}
	printf("tid=%d pid=%d prio=%d hits=%u\n", tid, res.pid, res.prio, res.hits);
	return 0;
}
