// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The order headers print things in, decided here once so that emitters
 * only walk it (see order.h): forward declarations sorted and unique, and
 * the first event of each CO-RE class.
 */
#include <stdlib.h>
#include <string.h>

#include "input/rawtp.h"
#include "lib/util.h"
#include "model/model.h"
#include "model/order.h"

static int str_ptr_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sort v[0..n) and drop repeats: the count left. */
static int sort_unique(const char **v, int n)
{
	int i, m = 0;

	if (!n)		/* qsort(NULL, 0) is undefined */
		return 0;
	qsort(v, n, sizeof(*v), str_ptr_cmp);
	for (i = 0; i < n; i++)
		if (!m || strcmp(v[i], v[m - 1]))
			v[m++] = v[i];
	return m;
}

int order_ctx_forwards(const struct tp_events *evs, const bool *selected, const char ***out)
{
	const char **v = NULL;
	int n = 0, cap = 0, i, j;

	for (i = 0; i < evs->nr; i++) {
		if (selected && !selected[i])
			continue;
		for (j = 0; j < evs->ev[i].nr_fields; j++) {
			const char *fwd = evs->ev[i].fields[j].fwd;

			if (!fwd)
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				v = xrealloc(v, cap * sizeof(*v));
			}
			v[n++] = fwd;
		}
	}
	*out = v;
	return sort_unique(v, n);
}

int order_raw_forwards(const struct raw_tps *r, const bool *selected, bool modules_only, const char ***out)
{
	const char **v = NULL;
	int i, j, n = 0;

	for (i = 0; i < r->nr; i++) {
		if ((selected && !selected[i]) || r->tp[i].unsupported)
			continue;
		if (modules_only && !r->tp[i].module)
			continue;
		for (j = 0; j < r->tp[i].nr_args; j++) {
			if (!r->tp[i].args[j].fwd)
				continue;
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = r->tp[i].args[j].fwd;
		}
	}
	*out = v;
	return sort_unique(v, n);
}

static const struct tp_events *class_evs;

static int by_class(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	int c = strcmp(class_evs->ev[x].core_class, class_evs->ev[y].core_class);

	return c ? c : x - y;
}

void order_class_firsts(const struct tp_events *evs, const bool *selected, bool *first)
{
	int *v = xcalloc(evs->nr ? evs->nr : 1, sizeof(*v));
	int i, n = 0;

	for (i = 0; i < evs->nr; i++)
		if ((!selected || selected[i]) && evs->ev[i].core_class)
			v[n++] = i;
	class_evs = evs;
	qsort(v, n, sizeof(*v), by_class);
	for (i = 0; i < n; i++)
		first[v[i]] = !i || strcmp(evs->ev[v[i]].core_class, evs->ev[v[i - 1]].core_class);
	free(v);
}
