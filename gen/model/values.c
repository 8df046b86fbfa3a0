// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The values of a probe: names of a spec resolved to what the handler reads
 * -- tracefs format fields for tracepoint programs, raw arguments from BTF
 * for raw_tp/tp_btf (members read through pointer arguments), built-ins,
 * 'let' names and values a 'join' found -- each with its C type.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "lib/limits.h"
#include "model/prog.h"
#include "model/sysargs.h"
#include "model/values.h"

/* ---- values ------------------------------------------------------------ */

int unknown_field(struct resolver *r, const char *name, size_t off)
{
	const struct tp_event *ev;
	const char **cands = NULL;
	const char *hint;
	struct strbuf list;
	int n = 0, i;

	sb_init(&list);
	if (r->pr->attach == ATTACH_TRACEPOINT) {
		for (i = 0; i < r->pr->ev->nr_fields; i++) {
			cands = xrealloc(cands, (n + 1) * sizeof(*cands));
			cands[n++] = r->pr->ev->fields[i].name;
		}
	} else {
		n = sysargs_names_of(r->pr, &cands);
		for (i = 0; i < n; i++)
			sb_printf(&list, "%s, ", cands[i]);
		for (i = 0; i < r->pr->raw->nr_args; i++) {
			cands = xrealloc(cands, (n + 1) * sizeof(*cands));
			cands[n++] = r->pr->raw->args[i].name;
			sb_printf(&list, "%s%s", i ? ", " : "", r->pr->raw->args[i].name);
		}
	}
	hint = str_suggest(name, cands, n);
	ev = r->pr->attach == ATTACH_TRACEPOINT ? NULL : tp_events_find(r->p->evs, r->pr->sp->sys, r->pr->sp->name);
	for (i = 0; ev && i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			break;
	if (ev && i < ev->nr_fields)
		/* a format field the kernel computes in TP_fast_assign: say where it comes from */
		spec_error(r->p->spec, &r->src->loc, off, "'%s' is a field of %s/%s's format, which %s does not "
			   "read: write what the kernel fills it from, through the arguments of raw tracepoint "
			   "%s (%s), or use attach: tracepoint", name, ev->sys, ev->name,
			   r->pr->attach == ATTACH_RAW_TP ? "raw_tp" : "tp_btf", r->pr->raw->name, list.buf);
	else if (hint)
		spec_error(r->p->spec, &r->src->loc, off, "unknown field '%s' in %s (did you mean '%s'?)",
			   name, r->what, hint);
	else if (r->pr->attach != ATTACH_TRACEPOINT)
		spec_error(r->p->spec, &r->src->loc, off,
			   "unknown field '%s' in %s: not an argument of raw tracepoint %s (%s), "
			   "nor a member read through one", name, r->what, r->pr->raw->name, list.buf);
	else
		spec_error(r->p->spec, &r->src->loc, off, "unknown field '%s' in %s: %s/%s has no such field",
			   name, r->what, r->pr->ev->sys, r->pr->ev->name);
	sb_clear(&list);
	free(cands);
	return -EINVAL;
}

/* Fill v from a raw argument and a member path ("->mm->owner") or none. */
static int raw_value(struct resolver *r, struct pvalue *v, const struct raw_arg *a, const char *cast,
		     const char *members, size_t off)
{
	const struct btf *btf = r->pr->raw->btf ?: r->p->btf;	/* a module's tracepoint: its BTF */
	struct tinfo ti;
	int err;

	if (classify(btf, a->type_id, &ti)) {
		spec_error(r->p->spec, &r->src->loc, off, "'%s' has a type tpgen cannot read here "
			   "(integers, enums, pointers and char strings only)", v->name);
		return -EINVAL;
	}
	if (!members || !*members) {
		pvalue_set_raw(v, &ti);
		v->arg = xstrdup(a->name);
		return 0;
	}
	if (cast && ti.kind != PV_PTR && !(ti.kind == PV_INT && ti.size == 8)) {
		spec_error(r->p->spec, &r->src->loc, off, "'%s' is not a pointer: it cannot be cast to '%s *'",
			   a->name, cast);
		return -EINVAL;
	}
	if (ti.kind == PV_PTR && ti.struct_id && btf__base_btf(btf) &&
	    ti.struct_id >= btf__type_cnt(btf__base_btf(btf))) {
		/* vmlinux.h has no module type for BPF_CORE_READ() to read through */
		spec_error(r->p->spec, &r->src->loc, off, "'%s' points to a type of module %s: "
			   "tpgen cannot read members of modules' types yet", a->name, r->pr->raw->module);
		return -EINVAL;
	}
	err = path_value(r, v, a->name, a->type_id, cast, members, off);
	if (err)
		return err;
	if (cast) {
		v->arg_type = xasprintf("%s *", cast);
	} else {
		const struct btf_type *st = btf__type_by_id(btf, ti.struct_id);

		v->arg_type = xasprintf("%s %s *", btf_struct_kw(st), btf__name_by_offset(btf, st->name_off));
		/* tp_btf pointers are BTF-typed: their members are read directly, faults handled */
		v->btf_direct = r->pr->attach == ATTACH_TP_BTF && v->near;
	}
	/* CO-RE reads start from a local: args->x would be relocated against the args struct */
	v->arg_local = path_local(a->name, cast);
	v->arg = xstrdup(a->name);
	return 0;
}

static const struct builtin *find_builtin(const char *name, bool *upper);

static const struct raw_arg *find_arg(const struct raw_tp *tp, const char *name)
{
	for (int i = 0; i < tp->nr_args; i++)
		if (!strcmp(tp->args[i].name, name))
			return &tp->args[i];
	return NULL;
}

/*
 * Format fields the kernel computes in TP_fast_assign from an argument no
 * field is named after: the member path that reads the same value. A row
 * applies when its path's argument (and first member) exist on the target.
 */
static const struct {
	const char *tp, *field, *path;
} fmt_paths[] = {
	{ "softirq_entry", "vec", "vec_nr" },
	{ "softirq_exit", "vec", "vec_nr" },
	{ "softirq_raise", "vec", "vec_nr" },
	{ "workqueue_execute_start", "function", "work->func" },
	{ "kmem_cache_alloc", "bytes_req", "s->object_size" },
	{ "kmem_cache_alloc", "bytes_alloc", "s->size" },
	{ "kmem_cache_alloc", "name", "s->name" },
	{ "netif_receive_skb", "name", "skb->dev->name" },
	{ "netif_receive_skb", "skbaddr", "skb" },
	{ "netif_rx", "name", "skb->dev->name" },
	{ "netif_rx", "skbaddr", "skb" },
	{ "net_dev_queue", "name", "skb->dev->name" },
	{ "net_dev_queue", "skbaddr", "skb" },
	/* syscall_get_nr(): the number the registers keep */
	{ "sys_exit", "id", "regs->orig_ax" },		/* x86 */
	{ "sys_exit", "id", "regs->syscallno" },	/* arm64 */
};

static const char *fmt_path(const struct resolver *r, const char *name)
{
	const struct raw_tp *tp = r->pr->raw;
	const struct btf *btf = tp->btf ?: r->p->btf;

	for (size_t i = 0; i < ARRAY_SIZE(fmt_paths); i++) {
		const char *arrow = strstr(fmt_paths[i].path, "->");
		size_t len = arrow ? (size_t)(arrow - fmt_paths[i].path) : strlen(fmt_paths[i].path);
		struct tinfo ti;
		__u32 id;

		if (strcmp(fmt_paths[i].tp, tp->name) || strcmp(fmt_paths[i].field, name))
			continue;
		for (int j = 0; j < tp->nr_args; j++) {
			const char *a = tp->args[j].name;

			if (strlen(a) != len || strncmp(a, fmt_paths[i].path, len))
				continue;
			if (!arrow)
				return fmt_paths[i].path;
			if (!classify(btf, tp->args[j].type_id, &ti) && ti.kind == PV_PTR && ti.struct_id &&
			    !find_member(btf, ti.struct_id, strndupa(arrow + 2, strcspn(arrow + 2, "-.")), &id))
				return fmt_paths[i].path;
		}
	}
	return NULL;
}

static int resolve_raw(struct resolver *r, struct pvalue *v, const char *name, size_t off)
{
	const struct raw_tp *tp = r->pr->raw;
	const struct raw_arg *a, *found = NULL;
	const char *base, *cast, *path, *rest = NULL;
	char buf[512];
	struct tinfo ti;
	__u32 id;
	int i, err, nfound = 0;
	bool upper;

	if (!strcmp(name, "common_pid")) {
		/* the record's common_pid is current->pid, the thread, as under tracepoint */
		v->src = PV_TID;
		v->kind = PV_INT;
		v->size = 4;
		v->is_signed = true;
		return 0;
	}
	err = sysargs_value(r, v, name, off);	/* a syscall's argument, on sys_enter/sys_exit */
	if (err != -ENOENT)
		return err;
	if (strlen(name) >= sizeof(buf) - 2) {
		spec_error(r->p->spec, &r->src->loc, off, "'%.32s...' is too long a name", name);
		return -EINVAL;
	}
	path_split(name, buf, sizeof(buf), &base, &cast, &path);
	if (path || cast) {
		a = find_arg(tp, base);
		if (!a)
			return unknown_field(r, base, off);
		return raw_value(r, v, a, cast, path, off);
	}
	a = find_arg(tp, name);
	if (a)
		return raw_value(r, v, a, NULL, NULL, off);
	/*
	 * Format fields that the kernel fills from an argument's members, as
	 * sched_switch's next_comm (next->comm) or sched_wakeup's pid (p->pid):
	 * "<arg>_<member>" first, then a member that exactly one argument has.
	 */
	for (i = 0; i < tp->nr_args; i++) {
		size_t len = strlen(tp->args[i].name);

		if (classify(tp->btf ?: r->p->btf, tp->args[i].type_id, &ti) || ti.kind != PV_PTR || !ti.struct_id)
			continue;
		if (!strncmp(name, tp->args[i].name, len) && name[len] == '_' &&
		    !find_member(tp->btf ?: r->p->btf, ti.struct_id, name + len + 1, &id)) {
			found = &tp->args[i];
			rest = name + len + 1;
			nfound = 1;
			break;
		}
	}
	if (!found) {
		for (i = 0; i < tp->nr_args; i++) {
			if (classify(tp->btf ?: r->p->btf, tp->args[i].type_id, &ti) || ti.kind != PV_PTR ||
			    !ti.struct_id || find_member(tp->btf ?: r->p->btf, ti.struct_id, name, &id))
				continue;
			if (!found)
				found = &tp->args[i];
			nfound++;
		}
		rest = name;
	}
	if (nfound > 1 && find_builtin(name, &upper))
		return -ENOENT;		/* sched_switch's 'pid': the current task's, as under 'tracepoint' */
	if (nfound > 1) {
		spec_error(r->p->spec, &r->src->loc, off, "'%s' is ambiguous on raw tracepoint %s: "
			   "write '%s->%s' or another argument", name, tp->name, found->name, name);
		return -EINVAL;
	}
	if (!found) {
		const char *fp = fmt_path(r, name);

		/* softirq_entry's vec is vec_nr; the path's own names are the raw tracepoint's */
		const struct tp_event *ev;

		if (!fp || !strcmp(fp, name))
			return -ENOENT;
		err = resolve_raw(r, v, fp, off);
		ev = err ? NULL : tp_events_find(r->p->evs, r->pr->sp->sys, r->pr->sp->name);
		for (i = 0; ev && i < ev->nr_fields; i++) {
			if (!strcmp(ev->fields[i].name, name)) {
				v->fmt_field = &ev->fields[i];	/* the same value: shown as the print fmt shows it */
				v->fmt_ev = ev;
			}
		}
		return err;
	}
	{
		char *members = xasprintf("->%s", rest);
		int err = raw_value(r, v, found, NULL, members, off);

		free(members);
		return err;
	}
}

static int resolve_ctx(struct resolver *r, struct pvalue *v, const char *name, size_t off)
{
	const struct tp_event *ev = r->pr->ev;
	const struct tp_field *f = NULL;
	int i;

	for (i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			f = &ev->fields[i];
	if (!f)
		return -ENOENT;
	if (f->offset < 8) {
		/* tp programs cannot read the common header; common_pid is the current thread */
		if (!strcmp(f->name, "common_pid")) {
			v->src = PV_TID;
			v->kind = PV_INT;
			v->size = 4;
			v->is_signed = true;
			return 0;
		}
		spec_error(r->p->spec, &r->src->loc, off, "'%s' is in the common header, which BPF "
			   "programs cannot read (common_pid can be read)", name);
		return -EINVAL;
	}
	v->src = PV_CTX;
	v->field = f;
	switch (f->kind) {
	case FIELD_SCALAR:
		if (f->size > 8)
			break;
		v->kind = PV_INT;
		v->size = f->size;
		v->is_signed = f->is_signed;
		if (!strcmp(ev->sys, "syscalls"))
			syscall_arg_type(f, v);
		return 0;
	case FIELD_POINTER:
		if (!strcmp(ev->sys, "syscalls") && (!strcmp(f->type, "const char *") ||
						       !strcmp(f->type, "char *"))) {
			/* a syscall's string argument: in the caller's memory */
			v->src = PV_USTR;
			v->kind = PV_STR;
			v->size = 0;
			return 0;
		}
		v->kind = PV_PTR;
		v->size = 8;
		return 0;
	case FIELD_ARRAY:
		if (!f->is_string) {
			if (f->elem_size != 1 || !f->size || f->size > 64)
				break;
			/* __u8 saddr[4]: bytes, shown as an address or in hex (gen/model/decode.c) */
			v->kind = PV_BYTES;
			v->size = f->size;
			return 0;
		}
		v->kind = PV_STR;
		v->size = f->size;
		return 0;
	case FIELD_DATA_LOC:
	case FIELD_REL_LOC:
		if (!f->is_string)
			break;
		v->kind = PV_STR;
		v->size = 0;
		return 0;
	default:
		break;
	}
	spec_error(r->p->spec, &r->src->loc, off, "field '%s' (%s%s%s%s) has a type tpgen cannot read here "
		   "(integers, pointers and char strings only)", name, f->type, f->array ? "[" : "",
		   f->array ? f->array : "", f->array ? "]" : "");
	return -EINVAL;
}

/* An argv-style array of a syscall (execve's 'const char *const * argv'): its strings. */
static int resolve_uargv(struct resolver *r, struct pvalue *v, const char *name)
{
	const struct tp_event *ev = r->pr->ev;

	if (strcmp(ev->sys, "syscalls"))
		return -ENOENT;
	for (int i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];

		if (strcmp(f->name, name) || f->kind != FIELD_POINTER || f->offset < 8 ||
		    (strcmp(f->type, "const char *const *") && strcmp(f->type, "char **") &&
		     strcmp(f->type, "const char **") && strcmp(f->type, "char *const *")))
			continue;
		v->src = PV_UARGV;
		v->kind = PV_STR;
		v->size = ARGV_SIZE;
		v->argv = true;
		v->field = f;
		return 0;
	}
	return -ENOENT;
}

/* The C member of a value: "prev->mm->owner" -> prev_mm_owner, "((struct tcp_sock *)sk)->srtt_us" -> sk_srtt_us */
static char *c_name_of(const char *name)
{
	char *c = xmalloc(strlen(name) + 1), *d = c;
	const char *s = name, *e;

	if (!strncmp(s, "((", 2) && (e = strstr(s, " *)")))
		s = e + 3;	/* the cast's type is not part of the name */
	for (; *s; s++) {
		if (s[0] == '-' && s[1] == '>') {
			*d++ = '_';
			s++;
		} else if (*s == '.' || *s == '[') {
			*d++ = '_';
		} else if (*s != ')' && *s != ']') {
			*d++ = *s;
		}
	}
	*d = '\0';
	return c;
}

/* Built-ins: every attach type has them; upper case always, lower case unless a field has the name. */
static const struct builtin *find_builtin(const char *name, bool *upper)
{
	char lower[16];
	size_t i, n = strlen(name);
	bool all_upper = n > 0;

	*upper = false;
	if (n >= sizeof(lower))
		return NULL;
	for (i = 0; i <= n; i++) {
		lower[i] = name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i];
		if (i < n && !(name[i] >= 'A' && name[i] <= 'Z'))
			all_upper = false;
	}
	for (i = 0; i < ARRAY_SIZE(builtins); i++) {
		const struct builtin *b = &builtins[i];

		if (!strcmp(b->name, name) || (b->alias && !strcmp(b->alias, name)))
			return b;
		if (all_upper && (!strcmp(b->name, lower) || (b->alias && !strcmp(b->alias, lower)))) {
			*upper = true;	/* PID, COMM, TIME: always the built-in, as tracefs' COMM */
			return b;
		}
	}
	return NULL;
}

static bool has_field(const struct pprobe *pr, const char *cname)
{
	if (pr->attach == ATTACH_TRACEPOINT) {
		for (int i = 0; i < pr->ev->nr_fields; i++)
			if (!strcmp(pr->ev->fields[i].cname, cname))
				return true;
	} else {
		for (int i = 0; i < pr->raw->nr_args; i++)
			if (!strcmp(pr->raw->args[i].name, cname))
				return true;
		for (int i = 0; pr->sys_ev && i < pr->sys_ev->nr_fields; i++)
			if (!strcmp(pr->sys_ev->fields[i].cname, cname))
				return true;
	}
	return false;
}

/*
 * curtask->real_parent->comm: a path through the current task's struct
 * task_struct, from bpf_get_current_task_btf() under tp_btf (plain loads),
 * bpf_get_current_task() and CO-RE reads otherwise. CURTASK is always the
 * built-in; curtask is, unless a field or argument has that name.
 * -ENOENT when 'name' does not start at the current task.
 */
static int curtask_value(struct resolver *r, struct pvalue *v, const char *name, size_t off)
{
	const char *base, *cast, *path;
	char buf[512];
	int err;

	if (strlen(name) >= sizeof(buf) - 2)
		return -ENOENT;
	path_split(name, buf, sizeof(buf), &base, &cast, &path);
	if (cast || (strcmp(base, "CURTASK") && (strcmp(base, "curtask") || has_field(r->pr, base))))
		return -ENOENT;
	if (!path) {
		spec_error(r->p->spec, &r->src->loc, off, "'%s' is the current task's struct task_struct *: "
			   "read a member of it ('%s->pid', '%s->real_parent->comm')", base, base, base);
		return -EINVAL;
	}
	if (!r->p->btf) {
		spec_error(r->p->spec, &r->src->loc, off, "'%s' reads the current task as the kernel's BTF "
			   "lays it out: no BTF was found (--btf FILE)", name);
		return -EINVAL;
	}
	for (int i = 0; path[0] == '.' && i < r->pr->nr_joins; i++)
		if (!strcmp(r->p->sets[r->pr->joins[i].set].name, base))
			return -ENOENT;		/* curtask.x of a save named curtask */
	if (strncmp(path, "->", 2)) {
		spec_error(r->p->spec, &r->src->loc, off, "'%s' is a pointer: read its members with '->'", base);
		return -EINVAL;
	}
	err = path_value(r, v, base, 0, "struct task_struct", path, off);
	if (err)
		return err;
	v->curtask = true;
	v->arg = xstrdup("curtask");
	v->arg_type = xstrdup("struct task_struct *");
	v->arg_local = xstrdup(has_field(r->pr, "curtask") ? "tpgen_curtask" : "curtask");
	/* bpf_get_current_task_btf() is a trusted pointer: members are plain loads */
	v->btf_direct = r->pr->attach == ATTACH_TP_BTF;
	return 0;
}

/* join.member: a value a 'save' kept */
static int saved_value(struct resolver *r, struct pvalue *v, const char *name, size_t off)
{
	const char *dot = strchr(name, '.');
	struct pprobe *pr = r->pr;
	const struct psaved *set;
	size_t n = dot - name;
	int i;

	for (i = 0; i < pr->nr_joins; i++)
		if (strlen(r->p->sets[pr->joins[i].set].name) == n &&
		    !strncmp(r->p->sets[pr->joins[i].set].name, name, n))
			break;
	if (i == pr->nr_joins) {
		spec_error(r->p->spec, &r->src->loc, off, "'%.*s' is not joined here (add 'join: %.*s' to "
			   "this entry)", (int)n, name, (int)n, name);
		return -EINVAL;
	}
	set = &r->p->sets[pr->joins[i].set];
	for (int m = 0; m < set->nr_members; m++) {
		if (strcmp(set->members[m].name, dot + 1))
			continue;
		v->src = PV_SAVED;
		v->kind = set->members[m].kind;
		v->size = set->members[m].size;
		v->is_signed = set->members[m].is_signed;
		v->join = i;
		v->stack = set->members[m].stack;
		v->argv = set->members[m].argv;
		v->member = xstrdup(set->members[m].cname);
		v->field = set->members[m].field;
		v->field_ev = set->members[m].field_ev;
		return 0;
	}
	spec_error(r->p->spec, &r->src->loc, off + n + 1, "'%s' saves no '%s'", set->name, dot + 1);
	return -EINVAL;
}

static int value_resolve(struct resolver *r, struct pvalue *v, const char *name, size_t off);

/*
 * str(NAME): the string at the address a syscall argument holds (mount's void *
 * data, an unsigned long), read from the caller's memory as a char * argument
 * is (bpf_probe_read_user_str(), the same bounds). NULL reads "".
 * str(X, N): that, or X, any string of unknown length (a __data_loc field, a
 * char * argument or member), kept in N bytes with its NUL where a key holds
 * 64 and a record 256 (bpftrace's str(x, n)). It is a value of its own,
 * member X_N.
 */
static int str_value(struct resolver *r, struct pvalue *v, const char *name, size_t off)
{
	size_t n = strlen(name);
	const char *comma;
	unsigned long len = 0;
	char *arg, *end;
	bool sys;
	int err;

	if (strncmp(name, "str(", 4) || name[n - 1] != ')')
		return -ENOENT;
	comma = strchr(name, ',');
	arg = xstrndup(name + 4, (comma ? (size_t)(comma - name) : n - 1) - 4);
	if (comma) {
		len = strtoul(comma + 1, &end, 0);
		if (end != name + n - 1 || len < 2 || len > RECORD_STR_MAX) {
			spec_error(r->p->spec, &r->src->loc, off, "str(%s, N) keeps the string in N bytes with "
				   "its NUL: 2 to %d", arg, RECORD_STR_MAX);
			free(arg);
			return -EINVAL;
		}
	}
	sys = r->pr->sys_ev || (r->pr->attach == ATTACH_TRACEPOINT && !strcmp(r->pr->ev->sys, "syscalls"));
	if (!sys && !len) {
		spec_error(r->p->spec, &r->src->loc, off, "str() reads a syscall argument's string, and %s "
			   "is not a syscalls/ event (str(%s, N): a string of unknown length in N bytes)",
			   r->pr->event, arg);
		free(arg);
		return -EINVAL;
	}
	if (!sys)
		goto any;
	if (r->pr->attach == ATTACH_TRACEPOINT)
		err = resolve_ctx(r, v, arg, off);
	else
		err = sysargs_value(r, v, arg, off);
	if (err == -ENOENT && len)
		goto any;	/* not an argument: comm, a let, ... */
	if (err == -ENOENT)
		err = unknown_field(r, arg, off);
	if (!err && v->kind == PV_STR && v->str_ptr == (r->pr->attach != ATTACH_TRACEPOINT) &&
	    (v->src == PV_USTR || v->src == PV_SYSARG))
		goto out;	/* a char * already is a string: str(filename) is filename */
	if (!err && (v->src != PV_CTX && v->src != PV_SYSARG)) {
		spec_error(r->p->spec, &r->src->loc, off, "str() reads the string at a syscall argument's "
			   "address, and '%s' is not an argument", arg);
		err = -EINVAL;
	}
	if (!err && v->kind != PV_PTR && !(v->kind == PV_INT && v->field->size == 8 && v->size == 8)) {
		spec_error(r->p->spec, &r->src->loc, off, "str() reads the string at an address, and '%s' "
			   "(%s) is not one: a pointer or an unsigned long", arg, v->field->type);
		err = -EINVAL;
	}
	if (err)
		goto out;
	if (v->src == PV_CTX)
		v->src = PV_USTR;
	else
		v->str_ptr = true;
	v->kind = PV_STR;
	v->size = 0;
	v->is_signed = false;
	v->narrow = false;
	goto out;
any:
	*v = (struct pvalue){ .name = v->name, .join = -1, .let = -1 };
	err = value_resolve(r, v, arg, off);
	if (err == -ENOENT)
		err = unknown_field(r, arg, off);
	if (!err && (v->kind != PV_STR || v->size || v->argv || v->stack)) {
		if (v->kind == PV_STR && v->size)
			spec_error(r->p->spec, &r->src->loc, off, "str(%s, N) keeps a string of unknown length, "
				   "and '%s' is an array of %u bytes", arg, arg, v->size);
		else
			spec_error(r->p->spec, &r->src->loc, off, "str(%s, N) keeps a string, and '%s' is not "
				   "one", arg, arg);
		err = -EINVAL;
	}
out:
	if (!err && len) {
		char *c = c_name_of(arg);

		v->size = len;
		v->cname = xasprintf("%s_%lu", c, len);
		free(c);
	}
	free(arg);
	return err;
}

static int add_value(struct pprobe *pr, struct pvalue *v)
{
	pr->vals = xrealloc(pr->vals, (pr->nr_vals + 1) * sizeof(*pr->vals));
	pr->vals[pr->nr_vals] = *v;
	return pr->nr_vals++;
}

/*
 * What the name 'name' is, into *v (its name set, join and let -1): a let,
 * str(), the current task's member, a saved value, a param, a field, an
 * argument or a built-in. -ENOENT: none of them (not reported).
 */
static int value_resolve(struct resolver *r, struct pvalue *v, const char *name, size_t off)
{
	struct pprobe *pr = r->pr;
	const struct pparam *param;
	const struct builtin *b;
	bool upper;
	int i, err;

	for (i = 0; i < pr->nr_lets; i++) {
		if (strcmp(pr->lets[i].name, name))
			continue;
		*v = pr->lets[i].type;
		v->src = PV_LET;
		v->let = i;
		v->join = -1;
		return 0;
	}
	err = str_value(r, v, name, off);
	if (err != -ENOENT)
		return err;
	err = curtask_value(r, v, name, off);
	if (err != -ENOENT)
		return err;
	if (path_is_saved(r, name))
		return saved_value(r, v, name, off);
	if ((param = prog_find_param(r->p, name))) {
		if (has_field(pr, name)) {
			spec_error(r->p->spec, &r->src->loc, off, "'%s' is both a param and a%s of %s: rename "
				   "the param", name, pr->attach == ATTACH_TRACEPOINT ? " field" : "n argument",
				   pr->event);
			return -EINVAL;
		}
		v->src = PV_PARAM;
		v->kind = PV_INT;
		v->size = param->size;
		v->is_signed = param->is_signed;
		v->is_bool = param->is_bool;
		v->param = param->ident;
		return 0;
	}
	if (pr->attach == ATTACH_TRACEPOINT && !resolve_uargv(r, v, name))
		return 0;
	if (pr->attach == ATTACH_TRACEPOINT && (path_has_members(name) || strchr(name, '.'))) {
		err = path_resolve_ctx(r, v, name, off);
		if (err == -ENOENT) {
			char buf[512];
			const char *base, *cast, *path;

			path_split(name, buf, sizeof(buf), &base, &cast, &path);
			return unknown_field(r, base, off);
		}
		return err;
	}
	b = find_builtin(name, &upper);
	err = -ENOENT;
	if (!upper) {
		err = pr->attach == ATTACH_TRACEPOINT ? resolve_ctx(r, v, name, off)
						       : resolve_raw(r, v, name, off);
		if (err && err != -ENOENT)
			return err;
	}
	if (err == -ENOENT) {
		if (!b)
			return -ENOENT;
		v->src = b->src;
		v->kind = b->kind;
		v->size = b->size;
		v->is_signed = b->is_signed;
		if (b->src == PV_KSTACK || b->src == PV_USTACK) {
			v->stack = b->src == PV_KSTACK ? STACK_KERNEL : STACK_USER;
			if (!r->p->stack_map)
				r->p->stack_map = prog_ident(r->p, "stackmap");
			v->stack_map = r->p->stack_map;
		}
	}
	return 0;
}

int value_find(struct resolver *r, const char *name, size_t off)
{
	struct pprobe *pr = r->pr;
	struct pvalue v = { .name = (char *)name, .join = -1, .let = -1 };
	int i, err;

	for (i = 0; i < pr->nr_vals; i++)
		if (pr->vals[i].src != PV_EXPR && !strcmp(pr->vals[i].name, name))
			return i;
	err = value_resolve(r, &v, name, off);
	if (err)
		return err;
	if (v.cname) {
		/* str(X, N): named by str_value() */
	} else if (v.src == PV_CTX || v.src == PV_USTR || v.src == PV_UARGV ||
	    (v.src == PV_SYSARG && !strncmp(name, "str(", 4)))
		v.cname = xstrdup(v.field->cname);
	else if (v.src == PV_TID && !strcmp(name, "common_pid"))
		v.cname = xstrdup("common_pid");
	else if (v.src == PV_SAVED || v.src == PV_RAW || v.src == PV_LET || v.src == PV_SYSARG || v.src == PV_PARAM)
		v.cname = c_name_of(name);
	else {
		/* a built-in: its name (time for NSECS), or task_<name> beside a field of that name */
		const char *bname = builtin_of(v.src)->name;

		v.cname = has_field(pr, bname) ? xasprintf("task_%s", bname) : xstrdup(bname);
		for (i = 0; i < pr->nr_vals; i++)
			if (pr->vals[i].src == v.src && !strcmp(pr->vals[i].cname, v.cname)) {
				free(v.cname);
				return i;
			}
	}
	v.name = xstrdup(name);
	return add_value(pr, &v);
}

int value_add_expr(struct pprobe *pr, struct expr *e, const char *name)
{
	struct pvalue v = { .join = -1, .let = -1 };

	v.src = PV_EXPR;
	v.kind = PV_INT;
	v.size = e->t.size;
	v.is_signed = e->t.is_signed;
	v.expr = e;
	v.name = xstrdup(name);
	v.cname = c_name_of(name);
	return add_value(pr, &v);
}

int value_expr_resolve(void *ctx, const char *name, size_t off, struct expr_type *t, bool report)
{
	struct resolver *r = ctx;
	const struct pvalue *v;
	int id;

	id = value_find(r, name, off);
	if (id == -ENOENT && report)
		return unknown_field(r, name, off);
	if (id < 0)
		return id;
	v = &r->pr->vals[id];
	if (v->kind == PV_BYTES && !r->bytes_ok) {
		spec_error(r->p->spec, &r->src->loc, off, "'%s' is %u bytes: only print items and keys can use "
			   "it, as it is or as ipv4(%s)/ipv6(%s) (here: %s)", name, v->size, name, name, r->what);
		return -EINVAL;
	}
	t->kind = v->kind == PV_STR ? ET_STR : ET_INT;
	t->is_signed = v->kind == PV_INT && v->is_signed;
	t->is_ptr = v->kind == PV_PTR || v->stack;	/* a stack is compared or printed, never computed */
	t->size = v->kind == PV_STR ? (v->size ? v->size : FILTER_STR_MAX) : v->kind == PV_PTR ? 8 :
		  v->kind == PV_BYTES ? 8 : v->size;	/* bytes: refused by the item if computed with */
	return id;
}

void pvalue_clear(struct pvalue *v)
{
	free(v->name);
	free(v->cname);
	free(v->arg);
	free(v->path);
	free(v->arg_type);
	free(v->arg_local);
	free(v->member);
	expr_free(v->expr);
}
