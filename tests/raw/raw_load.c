// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Loads raw_args.bpf.o, attaches every program (raw_tp and tp_btf), then
 * makes the events it checks: getpgid(RAW_TEST_ARG) for sys_enter, a thread
 * that sleeps in read() on a pipe for sched_switch (TASK_INTERRUPTIBLE), a
 * child that execs /bin/true, one killed with SIGUSR1 (signal_generate and
 * sched_process_exit). Prints one line per value; exits 1 on a wrong one.
 *
 *   raw_load OBJ
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "raw_test.h"

static int wake_pipe[2];	/* the sleeper reads it */
static volatile pid_t sleeper_tid;
static int bad;

static void *sleeper(void *arg)
{
	char c;

	(void)arg;
	sleeper_tid = syscall(SYS_gettid);
	while (read(wake_pipe[0], &c, 1) == 1 && c != 'q')
		;
	return NULL;
}

static void check(const char *what, const char *prog, long long got, long long want)
{
	bool ok = got == want;

	printf("%s %-18s %-7s %lld%s", ok ? "ok  " : "FAIL", what, prog, got, ok ? "\n" : "");
	if (!ok) {
		printf(" (want %lld)\n", want);
		bad = 1;
	}
}

static struct bpf_map *find_map(struct bpf_object *obj, const char *suffix)
{
	size_t n = strlen(suffix);
	struct bpf_map *m;

	bpf_object__for_each_map(m, obj) {
		const char *name = bpf_map__name(m);
		size_t len = strlen(name);

		if (len >= n && !strcmp(name + len - n, suffix))
			return m;
	}
	return NULL;
}

static pid_t spawn(int gate, bool do_exec)
{
	pid_t pid = fork();
	char c;

	if (pid)
		return pid;
	if (read(gate, &c, 1) != 1)
		_exit(1);
	if (do_exec)
		execl("/bin/true", "true", (char *)NULL);
	else
		pause();
	_exit(127);
}

int main(int argc, char **argv)
{
	static const char *const flavor[2] = { "raw_tp", "tp_btf" };
	struct bpf_link *links[32] = {};
	int gate[2], nr_links = 0, i, zero = 0, err = 1;
	struct bpf_object *obj = NULL;
	struct bpf_map *rodata, *bss;
	struct bpf_program *prog;
	struct raw_result res = {};
	struct raw_cfg *cfg, want;
	pid_t exec_child, kill_child;
	pthread_t thr;
	size_t sz;

	if (argc != 2) {
		fprintf(stderr, "usage: raw_load OBJ\n");
		return 2;
	}
	if (pipe(wake_pipe) || pipe(gate) || pthread_create(&thr, NULL, sleeper, NULL)) {
		perror("raw_load: setup");
		return 1;
	}
	exec_child = spawn(gate[0], true);
	kill_child = spawn(gate[0], false);
	while (!sleeper_tid)
		poll(NULL, 0, 1);

	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "Failed to open %s: %s\n", argv[1], strerror(errno));
		goto cleanup;
	}
	rodata = find_map(obj, ".rodata");
	bss = find_map(obj, ".bss");
	cfg = rodata ? (void *)bpf_map__initial_value(rodata, &sz) : NULL;
	if (!cfg || sz < sizeof(*cfg) || !bss) {
		fprintf(stderr, "Failed to find .rodata/.bss in %s\n", argv[1]);
		goto cleanup;
	}
	cfg->loader = getpid();
	cfg->sleeper = sleeper_tid;
	cfg->exec_child = exec_child;
	cfg->kill_child = kill_child;
	want = *cfg;
	if (bpf_object__load(obj)) {
		fprintf(stderr, "Failed to load %s: %s\n", argv[1], strerror(errno));
		goto cleanup;
	}
	bpf_object__for_each_program(prog, obj) {
		struct bpf_link *l = bpf_program__attach(prog);

		if (!l || nr_links == (int)(sizeof(links) / sizeof(links[0]))) {
			fprintf(stderr, "Failed to attach %s: %s\n", bpf_program__name(prog), strerror(errno));
			goto cleanup;
		}
		links[nr_links++] = l;
	}

	syscall(SYS_getpgid, RAW_TEST_ARG);
	for (i = 0; i < 5; i++) {	/* the sleeper wakes, reads, sleeps again */
		if (write(wake_pipe[1], "w", 1) != 1)
			break;
		poll(NULL, 0, 5);
	}
	if (write(gate[1], "go", 2) != 2)
		goto cleanup;
	waitpid(exec_child, NULL, 0);
	poll(NULL, 0, 5);
	kill(kill_child, SIGUSR1);
	waitpid(kill_child, NULL, 0);
	exec_child = kill_child = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(bss), &zero, &res)) {
		fprintf(stderr, "Failed to read .bss: %s\n", strerror(errno));
		goto cleanup;
	}
	for (i = 0; i < 2; i++) {
		check("sys_enter.id", flavor[i], res.sys_id[i], SYS_getpgid);
		check("sys_enter.regs", flavor[i], res.sys_arg[i], RAW_TEST_ARG);
		check("sched_switch.hits", flavor[i], res.sw_hits[i] > 0, 1);
		check("sched_switch.pid", flavor[i], res.sw_pid[i], want.sleeper);
		check("sched_switch.cur", flavor[i], res.sw_cur[i], want.sleeper);
		check("sched_switch.state", flavor[i], res.sw_state[i], 1);	/* TASK_INTERRUPTIBLE */
		check("sched_switch.pre", flavor[i], res.sw_preempt[i], 0);
		check("sched_switch.next", flavor[i], res.sw_next_ok[i], 1);
		check("exec.hits", flavor[i], res.exec_hits[i] > 0, 1);
		check("exec.old_pid", flavor[i], res.exec_old_pid[i], want.exec_child);
		check("exec.p_pid", flavor[i], res.exec_pid[i], want.exec_child);
		check("exit.pid", flavor[i], res.exit_pid[i], want.kill_child);
		check("exit.group_dead", flavor[i], res.exit_group_dead[i], 1);
		check("signal.sig", flavor[i], res.sig[i], SIGUSR1);
		check("signal.pid", flavor[i], res.sig_pid[i], want.kill_child);
		check("signal.group", flavor[i], res.sig_group[i], 1);
	}
	err = bad;
cleanup:
	if (exec_child || kill_child) {
		if (exec_child)
			kill(exec_child, SIGKILL);
		if (kill_child)
			kill(kill_child, SIGKILL);
		while (wait(NULL) > 0)
			;
	}
	if (write(wake_pipe[1], "q", 1) == 1)
		pthread_join(thr, NULL);
	for (i = 0; i < nr_links; i++)
		bpf_link__destroy(links[i]);
	bpf_object__close(obj);
	return err;
}
