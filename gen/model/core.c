// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * CO-RE for context structs. The kernel describes each event class's record
 * in BTF as 'struct trace_event_raw_<class>' (struct trace_entry ent; fields;
 * __data_loc_<name> for dynamic ones). An event is matched to its class by
 * name, or through the '__bpf_trace_<class>' function that shares the
 * prototype of the event's '__probestub_<event>'; where several classes
 * share it, the one whose members sit at the event's offsets wins.
 * syscalls/ events have no class: core_sys.c reads them through struct
 * syscall_trace_enter/exit.
 */
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "model/model.h"
#include "lib/util.h"

struct name_id {
	const char *name;	/* without its prefix */
	__u32 id;		/* struct id, or the FUNC's prototype id */
};

struct core_index {
	struct name_id *raw;	/* trace_event_raw_<class> -> struct id, by name */
	int nr_raw;
	struct name_id *stub;	/* __probestub_<event> -> proto id, by name */
	int nr_stub;
	struct name_id *cls;	/* __bpf_trace_<class> -> proto id, by proto id */
	int nr_cls;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct name_id *)a)->name, ((const struct name_id *)b)->name);
}

static int by_id(const void *a, const void *b)
{
	const struct name_id *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void push(struct name_id **v, int *n, const char *name, __u32 id)
{
	/* grow at 64, 128, 256, ...: *n is a power of two from 64 on */
	if (*n == 0 || (*n >= 64 && !(*n & (*n - 1))))
		*v = xrealloc(*v, (*n ? *n * 2 : 64) * sizeof(**v));
	(*v)[*n].name = name;
	(*v)[(*n)++].id = id;
}

static void index_build(struct core_index *x, const struct btf *btf)
{
	int i, n = btf__type_cnt(btf);

	memset(x, 0, sizeof(*x));
	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const char *name = btf__name_by_offset(btf, t->name_off);

		if (!name || !*name)
			continue;
		if (btf_is_struct(t) && !strncmp(name, "trace_event_raw_", 16))
			push(&x->raw, &x->nr_raw, name + 16, i);
		else if (btf_is_func(t) && !strncmp(name, "__probestub_", 12))
			push(&x->stub, &x->nr_stub, name + 12, t->type);
		else if (btf_is_func(t) && !strncmp(name, "__bpf_trace_", 12))
			push(&x->cls, &x->nr_cls, name + 12, t->type);
	}
	qsort(x->raw, x->nr_raw, sizeof(*x->raw), by_name);
	qsort(x->stub, x->nr_stub, sizeof(*x->stub), by_name);
	qsort(x->cls, x->nr_cls, sizeof(*x->cls), by_id);
}

static const struct name_id *find_name(const struct name_id *v, int n, const char *name)
{
	struct name_id key = { .name = name };

	return n ? bsearch(&key, v, n, sizeof(*v), by_name) : NULL;
}

static const struct btf_member *find_member(const struct btf *btf, __u32 id, const char *name)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m = btf_members(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), name))
			return m;
	return NULL;
}

/* BTF member name of a format field: name, or __data_loc_<name> / __rel_loc_<name>. */
static const struct btf_member *field_member(const struct btf *btf, __u32 id, const struct tp_field *f)
{
	const struct btf_member *m;
	char *n;

	if (f->kind != FIELD_DATA_LOC && f->kind != FIELD_REL_LOC)
		return find_member(btf, id, f->name);
	n = xasprintf("%s_%s", f->kind == FIELD_DATA_LOC ? "__data_loc" : "__rel_loc", f->name);
	m = find_member(btf, id, n);
	free(n);
	return m;
}

static const struct btf_type *skip_mods(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, t->type);
	return t;
}

/*
 * Whether libbpf can relocate the member tpgen declares for f against the
 * kernel's member m: it matches kinds (an integer with an integer, a pointer
 * with a pointer, an array with an array of integers), and an anonymous enum
 * with any enum. Returns 0, FIELD_CORE_ENUM (f is declared as an anonymous
 * enum), FIELD_CORE_PTR (as a void *), or -1: the field is read at its static
 * offset.
 */
static int member_compat(const struct btf *btf, const struct btf_member *m, const struct tp_field *f)
{
	const struct btf_type *t = skip_mods(btf, m->type);
	bool array = *f->suffix || f->kind == FIELD_FLEX;

	if (!t)
		return -1;
	if (array) {
		if (!btf_is_array(t))
			return -1;
		t = skip_mods(btf, btf_array(t)->type);
		return t && btf_is_int(t) ? 0 : -1;
	}
	if (f->ctype[strlen(f->ctype) - 1] == '*')
		return btf_is_ptr(t) ? 0 : -1;
	if (btf_is_int(t))
		return 0;
	if (btf_is_ptr(t) && f->size == 8)
		return FIELD_CORE_PTR;	/* fl_owner_t owner: an integer in the format file */
	if (btf_is_enum(t) && (t->size == 1 || t->size == 2 || t->size == 4) && t->size == f->size)
		return FIELD_CORE_ENUM;
	return -1;
}

/* How many of the event's own fields sit in class struct 'id' at their offsets. */
static int layout_score(const struct btf *btf, __u32 id, const struct tp_event *ev)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int i, score = 0;

	for (i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];
		const struct btf_member *m;

		if (f->common)
			continue;
		m = field_member(btf, id, f);
		if (!m || btf_member_bit_offset(t, m - btf_members(t)) != f->offset * 8)
			return -1;
		score++;
	}
	return score;
}

static const char *find_class(const struct core_index *x, const struct btf *btf,
			      const struct tp_event *ev, const char **why)
{
	const struct name_id *raw = find_name(x->raw, x->nr_raw, ev->name), *stub, *c;
	const char *best = NULL;
	int lo, hi, nr_best = 0;

	if (raw && layout_score(btf, raw->id, ev) >= 0)
		return raw->name;
	stub = find_name(x->stub, x->nr_stub, ev->name);
	if (!stub) {
		*why = "no __probestub_ in BTF";
		return NULL;
	}
	/* classes sharing the event's prototype: a run of cls[] with the same id */
	lo = 0;
	hi = x->nr_cls;
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (x->cls[mid].id < stub->id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (c = x->cls + lo; c < x->cls + x->nr_cls && c->id == stub->id; c++) {
		raw = find_name(x->raw, x->nr_raw, c->name);
		if (!raw || layout_score(btf, raw->id, ev) < 0)
			continue;
		if (!best)
			best = raw->name;
		nr_best++;
	}
	if (nr_best == 1)
		return best;
	*why = nr_best ? "several classes fit" : "no trace_event_raw_<class> fits";
	return NULL;
}

bool tp_event_core(const struct tp_event *ev)
{
	if (ev->core_sys)
		return true;
	if (!ev->core_class)
		return false;
	for (int i = 0; i < ev->nr_fields; i++)
		if (ev->fields[i].core_static)
			return false;
	return true;
}

int tp_events_core(struct tp_events *evs, const bool *selected, const struct btf *btf, bool warn)
{
	struct core_index x;
	int i, j, missing = 0;

	index_build(&x, btf);
	for (i = 0; i < evs->nr; i++) {
		struct tp_event *ev = &evs->ev[i];
		const struct name_id *raw;
		const char *cls, *why = NULL;

		free(ev->core_class);
		ev->core_class = NULL;
		ev->core_why = NULL;
		ev->core_sys = CORE_SYS_NONE;
		if (selected && !selected[i])
			continue;
		cls = find_class(&x, btf, ev, &why);
		if (!cls && core_sys_match(btf, ev, &why))
			continue;
		if (!cls) {
			ev->core_why = why;
			missing++;
			continue;
		}
		ev->core_class = xstrdup(cls);
		raw = find_name(x.raw, x.nr_raw, cls);
		for (j = 0; j < ev->nr_fields; j++) {
			struct tp_field *f = &ev->fields[j];
			const struct btf_member *m = f->common ? NULL : field_member(btf, raw->id, f);
			int compat = m ? member_compat(btf, m, f) : -1;

			f->core_static = !f->common && compat < 0;
			f->core_enum = compat == FIELD_CORE_ENUM;
			f->core_ptr = compat == FIELD_CORE_PTR;
			if (f->core_static && warn)
				diag_warning(ev->path, f->line, 0,
					     "%s/%s: field '%s' has no member of its type in struct "
					     "trace_event_raw_%s: static offset %u", ev->sys, ev->name, f->name, cls,
					     f->offset);
		}
	}
	free(x.raw);
	free(x.stub);
	free(x.cls);
	return missing;
}
