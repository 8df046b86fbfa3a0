// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Reading kernel memory with BPF, for tpgen on the live target. See kread.h. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "lib/limits.h"
#include "input/kread.h"
#include "lib/util.h"

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

/*
 * A raw_tp program run with BPF_PROG_TEST_RUN, in our own task: ctx is
 * { src, len, mode }; mode 0 copies len (<= KREAD_MAX) bytes of kernel
 * memory at src into the map value after its first 8 bytes, which get the
 * helper's return value; mode 1 copies a string; mode 2 puts the address
 * of our task_struct (bpf_get_current_task()) in the first 8 bytes.
 */
int kread_open(struct kread *kr)
{
	struct bpf_insn prog[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0),
		INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4),
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, 0),	/* map fd, below */
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 16, 0),		/* -> 24 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_7, BPF_REG_0, 0, 0),
		INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_8, BPF_REG_6, 16, 0),	/* mode */
		INSN(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_8, 0, 3, 2),		/* -> 14 */
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_task),
		INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_7, BPF_REG_0, 0, 0),
		INSN(BPF_JMP | BPF_JA, 0, 0, 10, 0),					/* -> 24 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_7, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, 8),
		INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_2, BPF_REG_6, 8, 0),
		INSN(BPF_JMP | BPF_JGT | BPF_K, BPF_REG_2, 0, 6, KREAD_MAX),		/* -> 24 */
		INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_3, BPF_REG_6, 0, 0),
		INSN(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_8, 0, 2, 0),			/* -> 22 */
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_probe_read_kernel),
		INSN(BPF_JMP | BPF_JA, 0, 0, 1, 0),					/* -> 23 */
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_probe_read_kernel_str),
		INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_7, BPF_REG_0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	int err;

	kr->prog_fd = -1;
	kr->map_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "tpgen_kread", 4, 8 + KREAD_MAX, 1, NULL);
	if (kr->map_fd < 0)
		return -errno;
	prog[4].imm = kr->map_fd;
	kr->prog_fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "tpgen_kread", "GPL", prog,
				    ARRAY_SIZE(prog), NULL);
	if (kr->prog_fd < 0) {
		err = -errno;
		close(kr->map_fd);
		return err;
	}
	return 0;
}

void kread_close(struct kread *kr)
{
	close(kr->prog_fd);
	close(kr->map_fd);
}

/* Our task_struct's address. */
int kread_current(struct kread *kr, unsigned long long *task)
{
	unsigned long long args[3] = { 0, 0, 2 };
	unsigned char value[8 + KREAD_MAX];
	__u32 key = 0;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));

	memset(value, 0, sizeof(value));
	if (bpf_map_update_elem(kr->map_fd, &key, value, BPF_ANY) ||
	    bpf_prog_test_run_opts(kr->prog_fd, &opts) ||
	    bpf_map_lookup_elem(kr->map_fd, &key, value))
		return -errno;
	memcpy(task, value, sizeof(*task));
	return *task ? 0 : -ENOENT;
}

/* Copy 'len' bytes (a string of at most 'len' with 'str') at kernel address 'src'. */
int kread(struct kread *kr, unsigned long long src, void *dst, unsigned int len, bool str)
{
	unsigned long long args[3] = { src, len, str };
	unsigned char value[8 + KREAD_MAX];
	long long ret;
	__u32 key = 0;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));

	if (len > KREAD_MAX || (str && !len))
		return -E2BIG;
	memset(value, 0, sizeof(value));
	if (bpf_map_update_elem(kr->map_fd, &key, value, BPF_ANY) ||
	    bpf_prog_test_run_opts(kr->prog_fd, &opts) ||
	    bpf_map_lookup_elem(kr->map_fd, &key, value))
		return -errno;
	memcpy(&ret, value, sizeof(ret));
	if (ret < 0)
		return (int)ret;
	memcpy(dst, value + 8, len);
	if (str)
		((char *)dst)[len - 1] = '\0';
	return 0;
}
