/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The record ctx_live.bpf.c sends to ctx_live.c. */
#ifndef __CTX_LIVE_H
#define __CTX_LIVE_H

enum { REC_FORK = 1, REC_EXEC, REC_GETPPID, REC_SWITCH };

struct rec {
	__u32 type;
	__u32 tgid;		/* bpf_get_current_pid_tgid() */
	__u32 tid;
	__s32 pid;		/* child_pid, exec pid, syscall nr, prev_pid */
	__s32 pid2;		/* parent_pid, old_pid, -, prev_state */
	__s32 len;		/* exec: filename_len(); switch: prev_comm read directly from ctx matched */
	char str[128];		/* exec filename; fork parent_comm; switch prev_comm through the reader */
	char str2[32];		/* fork child_comm */
	__u32 key_size;		/* exec, switch: a string read into a buffer full of garbage, */
	unsigned char key[64];	/* as a map key on the stack would be: the bytes after the NUL */
};

#endif
