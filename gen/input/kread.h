/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Reading kernel memory on the live target (root): a raw_tp BPF program of
 * 26 instructions, run in our own task by BPF_PROG_TEST_RUN, copies with
 * bpf_probe_read_kernel() (which never faults) into an array map. Needs no
 * kprobe, fentry, /proc/kcore or data symbols in /proc/kallsyms; layouts
 * come from the kernel's BTF.
 */
#ifndef __TPGEN_KREAD_H
#define __TPGEN_KREAD_H

#include <stdbool.h>
#include "lib/limits.h"

struct kread {
	int map_fd;
	int prog_fd;
};

/* Returns 0 or -errno (not root, no BPF). */
int kread_open(struct kread *kr);
void kread_close(struct kread *kr);
/* Copy 'len' (<= KREAD_MAX) bytes at kernel address 'src', or a string of at most 'len' with 'str'. */
int kread(struct kread *kr, unsigned long long src, void *dst, unsigned int len, bool str);
/* The address of our own task_struct (bpf_get_current_task()). */
int kread_current(struct kread *kr, unsigned long long *task);

#endif /* __TPGEN_KREAD_H */
