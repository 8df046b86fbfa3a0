/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef __CTX_LIVE_H
#define __CTX_LIVE_H

enum { REC_FORK = 1, REC_EXEC, REC_GETPPID, REC_SWITCH };

struct rec {
	__u32 type;
	__u32 tgid;
	__u32 tid;
	__s64 a, b, c;
	char str[64];
};

#endif
