// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Load ctx_live.bpf.o, then cause what it should see and check it: a fork
 * (its child's pid), an exec of a known path from that child (pid and the
 * __data_loc filename), a getppid() (its syscall number), and a thread
 * named "tpgen-named" sleeping (its tid and comm as prev of sched_switch).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/types.h>
#include <bpf/libbpf.h>
#include "ctx_live.h"
#include "ctx_live.skel.h"

#define EXEC_PATH "/bin/true"

static pid_t child, named_tid;
static int seen_fork, seen_exec, seen_getppid, seen_switch, failures;

static void check(int ok, const char *what)
{
	printf("%s %s\n", ok ? "ok  " : "FAIL", what);
	failures += !ok;
}

static int on_rec(void *ctx, void *data, size_t size)
{
	const struct rec *r = data;
	char buf[160];

	switch (r->type) {
	case REC_FORK:
		if (r->b != child)
			break;
		seen_fork = 1;
		snprintf(buf, sizeof(buf), "sched_process_fork: child_pid %lld is the child forked", (long long)r->b);
		check(1, buf);
		break;
	case REC_EXEC:
		if (r->a != child)
			break;
		seen_exec = 1;
		snprintf(buf, sizeof(buf), "sched_process_exec: pid %lld, filename '%s' (len %lld)",
			 (long long)r->a, r->str, (long long)r->c);
		check(!strcmp(r->str, EXEC_PATH) && r->c == sizeof(EXEC_PATH) && r->b == child, buf);
		break;
	case REC_GETPPID:
		seen_getppid = 1;
		snprintf(buf, sizeof(buf), "sys_enter_getppid: __syscall_nr %lld (SYS_getppid %d)",
			 (long long)r->a, SYS_getppid);
		check(r->a == SYS_getppid && r->tgid == (__u32)getpid(), buf);
		break;
	case REC_SWITCH:
		if ((pid_t)r->a != named_tid || seen_switch)
			break;
		seen_switch = 1;
		snprintf(buf, sizeof(buf), "sched_switch: prev_comm '%s', prev_pid %lld, prev_state %lld",
			 r->str, (long long)r->a, (long long)r->b);
		check(!strcmp(r->str, "tpgen-named"), buf);
		break;
	}
	return 0;
}

static void *named(void *arg)
{
	int i;

	prctl(PR_SET_NAME, "tpgen-named");
	named_tid = syscall(SYS_gettid);
	for (i = 0; i < 5; i++)
		usleep(2000);
	return arg;
}

int main(void)
{
	struct ctx_live_bpf *skel;
	struct ring_buffer *rb;
	pthread_t th;
	int i, st;

	skel = ctx_live_bpf__open();
	if (!skel)
		return 2;
	skel->rodata->targ_tgid = getpid();
	if (ctx_live_bpf__load(skel) || ctx_live_bpf__attach(skel)) {
		fprintf(stderr, "load/attach failed\n");
		return 2;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.rb), on_rec, NULL, NULL);
	if (!rb)
		return 2;

	child = fork();
	if (child == 0) {
		execl(EXEC_PATH, EXEC_PATH, (char *)NULL);
		_exit(127);
	}
	waitpid(child, &st, 0);
	syscall(SYS_getppid);
	pthread_create(&th, NULL, named, NULL);
	pthread_join(th, NULL);
	for (i = 0; i < 10; i++)
		ring_buffer__poll(rb, 50);

	check(seen_fork, "saw the fork");
	check(seen_exec, "saw the exec");
	check(seen_getppid, "saw getppid()");
	check(seen_switch, "saw the named thread switch out");
	ring_buffer__free(rb);
	ctx_live_bpf__destroy(skel);
	return failures ? 1 : 0;
}
