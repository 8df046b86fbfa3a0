// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Memory for a whole-kernel run: one glibc arena, grown in steps, on huge pages. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "lib/mem.h"

#define HUGE_PAGE	(2UL << 20)
#define HEAP_STEP	(64UL << 20)	/* a whole-kernel run stays within one step */

bool mem_batch_init(void)
{
#ifdef __GLIBC__
	uintptr_t start, end, from;
	void *volatile p;

	/*
	 * One arena: the loader threads' allocations land on the same heap
	 * (malloc locks, but parsing is not malloc-bound). Big blocks (libbpf's
	 * BTF copy, output buffers) come from the heap too, not from fresh
	 * mmap()s, and the heap is neither trimmed nor grown a page at a time.
	 */
	mallopt(M_ARENA_MAX, 1);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt(M_TOP_PAD, HEAP_STEP);
	start = (uintptr_t)sbrk(0);
	p = malloc(1);		/* grows the heap by a step, never trimmed back */
	end = (uintptr_t)sbrk(0);
	free(p);
	if (start == (uintptr_t)-1 || end <= start)
		return false;	/* no brk heap (a sanitizer's allocator, say) */
	from = (start + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	if (end > from + HUGE_PAGE)
		madvise((void *)from, (end - from) & ~(HUGE_PAGE - 1), MADV_HUGEPAGE);
	return true;
#else
	return false;
#endif
}
