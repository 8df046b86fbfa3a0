// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The name table of a generated program: every global identifier of its C
 * comes from here, unique, never a C keyword, a name of the C library or
 * libbpf the files include, or a type or enum constant of vmlinux.h.
 */
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "lib/ident.h"
#include "model/prog.h"

struct nametab {
	char **slot;		/* open addressing, NULL when empty */
	size_t cap, nr;
	bool btf_done;
};

static unsigned long long hash(const char *s)
{
	return fnv1a64(0xcbf29ce484222325ULL, s, strlen(s));
}

static bool tab_has(const struct nametab *t, const char *s)
{
	size_t i;

	if (!t->cap)
		return false;
	for (i = hash(s) & (t->cap - 1); t->slot[i]; i = (i + 1) & (t->cap - 1))
		if (!strcmp(t->slot[i], s))
			return true;
	return false;
}

static void tab_add(struct nametab *t, const char *s)
{
	size_t i;

	if (tab_has(t, s))
		return;
	if ((t->nr + 1) * 2 > t->cap) {
		struct nametab n = { .cap = t->cap ? t->cap * 2 : 1024 };

		n.slot = xcalloc(n.cap, sizeof(*n.slot));
		for (i = 0; i < t->cap; i++) {
			if (!t->slot[i])
				continue;
			size_t j = hash(t->slot[i]) & (n.cap - 1);

			while (n.slot[j])
				j = (j + 1) & (n.cap - 1);
			n.slot[j] = t->slot[i];
		}
		free(t->slot);
		t->slot = n.slot;
		t->cap = n.cap;
	}
	for (i = hash(s) & (t->cap - 1); t->slot[i]; i = (i + 1) & (t->cap - 1))
		;
	t->slot[i] = xstrdup(s);
	t->nr++;
}

/* Names the generated files use or include (libc, libbpf, the templates' own); C keywords: ident.h. */
static const char *const reserved[] = {
	"bool",
	"true", "false", "NULL", "main", "errno", "stdin", "stdout", "stderr", "exit", "time",
	"signal", "printf", "free", "memset", "memcpy", "strcmp", "abs", "min", "max", "env",
	"exiting", "LICENSE", "targ_tgid", "targ_comm", "events", "ringbuf_drops", "agg_drops",
	"vmlinux", "tpgen", "ctx", "args", "skel", "aggs", "probes", "argp", "opts", "SEC",
	"__u8", "__u16", "__u32", "__u64", "__s8", "__s16", "__s32", "__s64", "pid_t",
	"TASK_COMM_LEN", "TPGEN_MAX_SLOTS", "event_hdr", "col", "agg", "count_row",
	/* the loader's params (templates/loader_params.c) */
	"params", "param_digits", "parse_param_u", "parse_param_s",
};

static void add_btf_names(struct nametab *t, const struct btf *btf)
{
	__u32 id, n = btf__type_cnt(btf);

	for (id = 1; id < n; id++) {
		const struct btf_type *bt = btf__type_by_id(btf, id);
		const char *name = btf__name_by_offset(btf, bt->name_off);

		if (name && *name && !btf_is_func(bt) && !btf_is_var(bt) && !btf_is_datasec(bt))
			tab_add(t, name);
		if (btf_is_enum(bt)) {
			const struct btf_enum *e = btf_enum(bt);

			for (int i = 0; i < btf_vlen(bt); i++, e++)
				tab_add(t, btf__name_by_offset(btf, e->name_off));
		} else if (btf_is_enum64(bt)) {
			const struct btf_enum64 *e = btf_enum64(bt);

			for (int i = 0; i < btf_vlen(bt); i++, e++)
				tab_add(t, btf__name_by_offset(btf, e->name_off));
		}
	}
}

char *prog_ident(struct prog *p, const char *base)
{
	struct nametab *t;
	char *name, *s;
	int n = 1;

	if (!p->names) {
		p->names = xcalloc(1, sizeof(*p->names));
		for (size_t i = 0; i < ARRAY_SIZE(reserved); i++)
			tab_add(p->names, reserved[i]);
		if (p->spec && p->spec->tool.s) {
			char *skel = xasprintf("%s_bpf", p->spec->tool.s);

			tab_add(p->names, p->spec->tool.s);
			tab_add(p->names, skel);
			free(skel);
		}
	}
	t = p->names;
	if (!t->btf_done && p->btf) {
		add_btf_names(t, p->btf);
		t->btf_done = true;
	}
	/* a C identifier: other bytes become '_', never a leading digit */
	name = xasprintf("%s%s", base[0] >= '0' && base[0] <= '9' ? "_" : "", *base ? base : "_");
	for (s = name; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			*s = '_';
	if (!strncmp(name, "bpf_", 4) || !strncmp(name, "tpgen_", 6) || !strncmp(name, "__", 2)) {
		/* libbpf's, tpgen.h's and the compiler's name spaces */
		s = xasprintf("p%s", name);
		free(name);
		name = s;
	}
	s = xstrdup(name);
	while (tab_has(t, s) || ident_is_keyword(s)) {
		free(s);
		s = xasprintf("%s_%d", name, ++n);
	}
	free(name);
	tab_add(t, s);
	return s;
}

void nametab_free(struct nametab *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->cap; i++)
		free(t->slot[i]);
	free(t->slot);
	free(t);
}
