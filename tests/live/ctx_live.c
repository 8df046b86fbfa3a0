// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * ctx_live EXEC_PATH: load ctx_live.bpf.o, cause what it should see, print
 * what it caused ("caused: ...") and what the program reported (one line per
 * record of interest) for t_ctx_live.sh to check:
 *  - fork(): the child execs EXEC_PATH and exits;
 *  - getppid() three times from the main thread;
 *  - a thread named "tpgen-named" sleeps three times (it switches out).
 * Every event has already been written when its cause returns (tracepoints
 * run synchronously), so one ring_buffer__consume() at the end reads them all.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/types.h>
#include <bpf/libbpf.h>
#include "ctx_live.h"
#include "ctx_live.skel.h"

static const char *exec_path;
static pid_t child;

/* 1 when every byte of the key after its first NUL is 0 */
static int tail_zero(const struct rec *r)
{
	size_t i = strnlen((const char *)r->key, r->key_size);

	for (; i < r->key_size && i < sizeof(r->key); i++)
		if (r->key[i])
			return 0;
	return 1;
}

static int on_rec(void *ctx, void *data, size_t size)
{
	const struct rec *r = data;

	(void)ctx;
	if (size < sizeof(*r))
		return 0;
	switch (r->type) {
	case REC_FORK:
		printf("fork: tgid=%u tid=%u child_pid=%d parent_pid=%d parent_comm=%s child_comm=%s\n",
		       r->tgid, r->tid, r->pid, r->pid2, r->str, r->str2);
		break;
	case REC_EXEC:
		if (r->pid == child || r->pid2 == child || !strcmp(r->str, exec_path))
			printf("exec: tgid=%u pid=%d old_pid=%d filename_len=%d filename=%s key=%s tail_zero=%d\n",
			       r->tgid, r->pid, r->pid2, r->len, r->str, (const char *)r->key, tail_zero(r));
		break;
	case REC_GETPPID:
		printf("getppid: tgid=%u tid=%u syscall_nr=%d\n", r->tgid, r->tid, r->pid);
		break;
	case REC_SWITCH:
		printf("switch: tgid=%u tid=%u prev_pid=%d prev_state=%d direct_match=%d prev_comm=%s key=%.16s tail_zero=%d\n",
		       r->tgid, r->tid, r->pid, r->pid2, r->len, r->str, (const char *)r->key, tail_zero(r));
		break;
	}
	return 0;
}

static void *named(void *arg)
{
	const struct timespec ts = { .tv_nsec = 1000000 };
	int i;

	prctl(PR_SET_NAME, "tpgen-named");
	*(pid_t *)arg = syscall(SYS_gettid);
	for (i = 0; i < 3; i++)
		nanosleep(&ts, NULL);
	return NULL;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	return level == LIBBPF_DEBUG ? 0 : vfprintf(stderr, fmt, args);
}

int main(int argc, char **argv)
{
	struct ring_buffer *rb = NULL;
	struct ctx_live_bpf *skel;
	pid_t named_tid = 0;
	char comm[16] = "";
	int i, st, err = 1;
	pthread_t th;

	if (argc != 2) {
		fprintf(stderr, "usage: %s EXEC_PATH\n", argv[0]);
		return 2;
	}
	exec_path = argv[1];
	libbpf_set_print(libbpf_print);
	skel = ctx_live_bpf__open();
	if (!skel) {
		fprintf(stderr, "Failed to open the BPF object\n");
		return 1;
	}
	skel->rodata->targ_tgid = getpid();
	if (ctx_live_bpf__load(skel)) {
		fprintf(stderr, "Failed to load the BPF object\n");
		goto cleanup;
	}
	if (ctx_live_bpf__attach(skel)) {
		fprintf(stderr, "Failed to attach\n");
		goto cleanup;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.rb), on_rec, NULL, NULL);
	if (!rb) {
		fprintf(stderr, "Failed to create the ring buffer\n");
		goto cleanup;
	}

	child = fork();
	if (child == 0) {
		execl(exec_path, exec_path, (char *)NULL);
		_exit(127);
	}
	if (child < 0 || waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "Failed to run %s in a child\n", exec_path);
		goto cleanup;
	}
	for (i = 0; i < 3; i++)
		syscall(SYS_getppid);
	if (pthread_create(&th, NULL, named, &named_tid) || pthread_join(th, NULL)) {
		fprintf(stderr, "Failed to run the named thread\n");
		goto cleanup;
	}
	prctl(PR_GET_NAME, comm);
	printf("caused: pid=%d tid=%d comm=%s child=%d exec=%s getppid_calls=3 SYS_getppid=%d named_tid=%d\n",
	       getpid(), (int)syscall(SYS_gettid), comm, child, exec_path, SYS_getppid, named_tid);
	if (ring_buffer__consume(rb) < 0) {
		fprintf(stderr, "Failed to read the ring buffer\n");
		goto cleanup;
	}
	err = 0;
cleanup:
	fflush(stdout);
	ring_buffer__free(rb);
	ctx_live_bpf__destroy(skel);
	return err;
}
