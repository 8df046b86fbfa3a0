// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Struct names for events: "<event>_ctx", as in the kernel's own docs
 * (struct xdp_exception_ctx). Where that name is already a kernel type in
 * BTF (iomap_readpage_ctx is a kernel struct) or two selected events share
 * it, every event with that name becomes "<sys>__<event>_ctx".
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "model.h"
#include "util.h"

/* Map everything but [A-Za-z0-9_] to '_', like bpftool's sanitize_identifier(). */
static char *sanitize(const char *s)
{
	char *p = xstrdup(s), *q;

	for (q = p; *q; q++)
		if (!isalnum((unsigned char)*q) && *q != '_')
			*q = '_';
	return p;
}

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

static int ev_idx_cmp(const void *a, const void *b, void *arg)
{
	const struct tp_events *evs = arg;
	const struct tp_event *x = &evs->ev[*(const int *)a], *y = &evs->ev[*(const int *)b];
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->sys, y->sys);
}

void tp_events_name(struct tp_events *evs, const bool *selected, const struct btf *btf)
{
	int *idx = xcalloc(evs->nr, sizeof(*idx));
	int i, n = 0, nr_kernel;
	char **kernel = kernel_ctx_names(btf, &nr_kernel);

	for (i = 0; i < evs->nr; i++) {
		free(evs->ev[i].struct_name);
		evs->ev[i].struct_name = NULL;
		evs->ev[i].rename_reason = NULL;
		if (!selected || selected[i])
			idx[n++] = i;
	}
	/* group selected events by event name to find clashes */
	qsort_r(idx, n, sizeof(*idx), ev_idx_cmp, evs);
	for (i = 0; i < n; i++) {
		struct tp_event *ev = &evs->ev[idx[i]];
		bool dup = (i > 0 && !strcmp(evs->ev[idx[i - 1]].name, ev->name)) ||
			   (i + 1 < n && !strcmp(evs->ev[idx[i + 1]].name, ev->name));
		char *sys = sanitize(ev->sys), *name = sanitize(ev->name);
		char *short_name = xasprintf("%s_ctx", name);

		if (dup) {
			ev->rename_reason = "another selected event has the same name";
		} else if (is_kernel_type(kernel, nr_kernel, short_name)) {
			ev->rename_reason = "the short name is a kernel type";
		}
		if (ev->rename_reason) {
			ev->struct_name = xasprintf("%s__%s_ctx", sys, name);
			free(short_name);
		} else {
			ev->struct_name = short_name;
		}
		free(sys);
		free(name);
	}
	free(kernel);
	free(idx);
}
