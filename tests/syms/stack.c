// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * stack: a thread sleeps in nanosleep() 20 times while stack.bpf.c records
 * its kernel and user stacks at each switch; the stacks are printed folded
 * ("comm;user...;-;kernel... count") and indented through bpf/tpgen_syms.c.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>

#include "stack.skel.h"
#include "tpgen_syms.h"

#define MAX_DEPTH 127

struct key {
	int kstack;
	int ustack;
};

static volatile int tid;
static pthread_barrier_t ready, go;	/* waits in futex, not nanosleep: not counted */

static void *sleeper(void *arg __attribute__((unused)))
{
	struct timespec ts = { 0, 2 * 1000 * 1000 };
	int i;

	prctl(PR_SET_NAME, "tpgen-sleeper");
	tid = syscall(SYS_gettid);
	pthread_barrier_wait(&ready);
	pthread_barrier_wait(&go);
	for (i = 0; i < 20; i++)
		nanosleep(&ts, NULL);
	return NULL;
}

int main(void)
{
	unsigned long long kips[MAX_DEPTH], uips[MAX_DEPTH];
	struct key key, next, *prev = NULL;
	struct tpgen_syms *syms;
	struct stack_bpf *skel;
	pthread_t t;
	char line[8192];
	__u64 count;
	int err, n = 0;

	pthread_barrier_init(&ready, NULL, 2);
	pthread_barrier_init(&go, NULL, 2);
	if (pthread_create(&t, NULL, sleeper, NULL))
		return 1;
	pthread_barrier_wait(&ready);
	skel = stack_bpf__open();
	if (!skel)
		return 1;
	skel->rodata->target_tid = tid;
	err = stack_bpf__load(skel) || stack_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "stack: cannot load or attach the BPF program\n");
		return 1;
	}
	pthread_barrier_wait(&go);
	pthread_join(t, NULL);
	stack_bpf__detach(skel);
	syms = tpgen_syms_new();
	while (!bpf_map_get_next_key(bpf_map__fd(skel->maps.counts), prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.counts), &key, &count))
			continue;
		memset(kips, 0, sizeof(kips));
		memset(uips, 0, sizeof(uips));
		if (key.kstack >= 0)
			bpf_map_lookup_elem(bpf_map__fd(skel->maps.stacks), &key.kstack, kips);
		if (key.ustack >= 0)
			bpf_map_lookup_elem(bpf_map__fd(skel->maps.stacks), &key.ustack, uips);
		tpgen_stack_folded(syms, line, sizeof(line), "tpgen-sleeper", getpid(), uips, MAX_DEPTH, kips,
				   MAX_DEPTH);
		printf("folded: %s %llu\n", line, (unsigned long long)count);
		printf("kernel stack (%d):\n", key.kstack);
		tpgen_stack_print(syms, stdout, "    ", -1, kips, MAX_DEPTH);
		printf("user stack (%d):\n", key.ustack);
		tpgen_stack_print(syms, stdout, "    ", getpid(), uips, MAX_DEPTH);
		n++;
	}
	printf("stack: %d distinct stacks of thread %d\n", n, tid);
	tpgen_syms_free(syms);
	stack_bpf__destroy(skel);
	return n ? 0 : 1;
}
