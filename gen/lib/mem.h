/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Memory for a whole-kernel run: one arena on huge pages. */
#ifndef __TPGEN_MEM_H
#define __TPGEN_MEM_H

#include <stdbool.h>

/*
 * Call once, before the first thread starts. A whole-kernel run touches
 * tens of megabytes once (libbpf's copy of the BTF, the parsed format
 * files, the headers); faulting them in a 4 KiB page at a time is most of
 * its time on a virtual machine. Afterwards every thread allocates from one
 * heap whose pages are transparent huge pages where the kernel allows
 * (MADV_HUGEPAGE). Nothing changes but speed; without glibc it does nothing.
 * True when that heap is set up: the process may then exit without freeing
 * what it built (the heap goes with it; tearing down a whole kernel's model
 * was 3-4% of a run's CPU time, after its output was written). False
 * under a sanitizer's allocator, whose leak check wants everything freed.
 */
bool mem_batch_init(void);

#endif /* __TPGEN_MEM_H */
