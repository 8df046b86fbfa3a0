// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Struct names for events: "<event>_ctx", as in the kernel's own docs
 * (struct xdp_exception_ctx). Where that name is already a kernel type in
 * BTF (iomap_readpage_ctx is a kernel struct) or two selected events share
 * it, every event with that name becomes "<sys>__<event>_ctx". Names are
 * tracefs names (ident.h); '.' and '-' become '_' ("a-b" -> a_b_ctx), and a
 * long form that still repeats gets "___2", "___3" in event order.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "lib/ident.h"
#include "model/model.h"
#include "lib/util.h"

/*
 * Sorted names of the kernel's struct, union and typedef types ending in
 * "_ctx": the only names a "<event>_ctx" struct can clash with. One pass over
 * BTF instead of a btf__find_by_name_kind() scan per event.
 */
static char **kernel_ctx_names(const struct btf *btf, int *nr)
{
	int i, n = 0, cap = 0, nr_types = btf ? (int)btf__type_cnt(btf) : 0;
	const char **v = NULL;

	for (i = 1; i < nr_types; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const char *name;
		size_t len;

		if (!btf_is_struct(t) && !btf_is_union(t) && !btf_is_typedef(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		len = name ? strlen(name) : 0;
		if (len < 4 || strcmp(name + len - 4, "_ctx"))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[n++] = name;
	}
	if (n)
		qsort(v, n, sizeof(*v), str_cmp);
	*nr = n;
	return (char **)v;
}

static bool is_kernel_type(char **names, int nr, const char *name)
{
	return nr && bsearch(&name, names, nr, sizeof(*names), str_cmp);
}

struct named {
	char *short_name;	/* "a_b" for event a-b */
	int idx;		/* in evs */
};

static int named_cmp(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->short_name, y->short_name);

	return c ? c : x->idx - y->idx;
}

static int idx_name_cmp(const void *a, const void *b, void *arg)
{
	const struct tp_events *evs = arg;
	int x = *(const int *)a, y = *(const int *)b;
	int c = strcmp(evs->ev[x].struct_name, evs->ev[y].struct_name);

	return c ? c : x - y;
}

void tp_events_name(struct tp_events *evs, const bool *selected, const struct btf *btf)
{
	struct named *v = xcalloc(evs->nr + 1, sizeof(*v));
	int *idx = xcalloc(evs->nr + 1, sizeof(*idx));
	int i, j, n = 0, nr_kernel;
	char **kernel = kernel_ctx_names(btf, &nr_kernel);

	for (i = 0; i < evs->nr; i++) {
		free(evs->ev[i].struct_name);
		evs->ev[i].struct_name = NULL;
		evs->ev[i].rename_reason = NULL;
		if (!selected || selected[i]) {
			v[n].short_name = ident_from_tracefs(evs->ev[i].name);
			v[n++].idx = i;
		}
	}
	/* group selected events by their identifier to find clashes */
	qsort(v, n, sizeof(*v), named_cmp);
	for (i = 0; i < n; i++) {
		struct tp_event *ev = &evs->ev[v[i].idx];
		bool dup = (i > 0 && !strcmp(v[i - 1].short_name, v[i].short_name)) ||
			   (i + 1 < n && !strcmp(v[i + 1].short_name, v[i].short_name));
		char *short_name = xstrcat(v[i].short_name, "_ctx", NULL);

		if (dup) {
			ev->rename_reason = "another selected event has the same name";
		} else if (is_kernel_type(kernel, nr_kernel, short_name)) {
			ev->rename_reason = "the short name is a kernel type";
		}
		if (ev->rename_reason) {
			char *sys = ident_from_tracefs(ev->sys);

			ev->struct_name = xstrcat(sys, "__", v[i].short_name, "_ctx", NULL);
			free(short_name);
			free(sys);
		} else {
			ev->struct_name = short_name;
		}
	}
	/* a-b/x and a_b/x: the long forms are the same too */
	for (i = 0; i < n; i++)
		idx[i] = v[i].idx;
	qsort_r(idx, n, sizeof(*idx), idx_name_cmp, evs);
	for (i = 1, j = 1; i < n; i++) {
		struct tp_event *ev = &evs->ev[idx[i]];
		const char *prev = evs->ev[idx[i - j]].struct_name;

		if (strcmp(ev->struct_name, prev)) {
			j = 1;
			continue;
		}
		char *s = xasprintf("%s___%d", prev, ++j);

		free(ev->struct_name);
		ev->struct_name = s;
		ev->rename_reason = "another selected event has the same name";
	}
	for (i = 0; i < n; i++)
		free(v[i].short_name);
	free(kernel);
	free(idx);
	free(v);
}
