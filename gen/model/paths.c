// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Member paths through kernel (and a syscall's user) data, as the kernel's
 * BTF lays it out: '->' through pointers, '.' into embedded structs and
 * unions, '[N]' into arrays, and casts to a named struct or union
 * ("((struct tcp_sock *)sk)->srtt_us"). What gen/model/values.c reads through
 * raw arguments and record fields; emitted as BPF_CORE_READ() paths. And
 * what a BTF type is to a handler (classify()), for arguments and members.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "lib/limits.h"
#include "model/values.h"

__u32 skip_mods(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	return id;
}

/* What a BTF type is to a handler; -EOPNOTSUPP for what it cannot read or print. */
int classify(const struct btf *btf, __u32 id, struct tinfo *ti)
{
	const struct btf_type *t = btf__type_by_id(btf, skip_mods(btf, id)), *e;

	memset(ti, 0, sizeof(*ti));
	if (!t)
		return -EOPNOTSUPP;
	if (btf_is_int(t) && t->size <= 8) {
		ti->kind = PV_INT;
		ti->size = t->size;
		ti->is_signed = btf_int_encoding(t) & BTF_INT_SIGNED;
		ti->is_bool = btf_int_encoding(t) & BTF_INT_BOOL;
		return 0;
	}
	if (btf_is_enum(t) || btf_is_enum64(t)) {
		ti->kind = PV_INT;
		ti->size = t->size;
		ti->is_signed = btf_kflag(t);
		return 0;
	}
	if (btf_is_ptr(t)) {
		__u32 pid = skip_mods(btf, t->type);

		e = btf__type_by_id(btf, pid);
		ti->kind = PV_PTR;
		ti->size = 8;
		if (e && btf_is_int(e) && e->size == 1) {
			ti->kind = PV_STR;
			ti->str_ptr = true;
			ti->size = 0;
		} else if (e && (btf_is_struct(e) || btf_is_union(e))) {
			ti->struct_id = pid;
		}
		return 0;
	}
	if (btf_is_array(t)) {
		e = btf__type_by_id(btf, skip_mods(btf, btf_array(t)->type));
		if (e && btf_is_int(e) && e->size == 1 && btf_array(t)->nelems) {
			ti->kind = PV_STR;
			ti->size = btf_array(t)->nelems;
			return 0;
		}
	}
	return -EOPNOTSUPP;
}

/* A member of a struct or union, looking into anonymous members as C does. */
/* find_member(), and the member's offset in bits from the start of the struct */
static int member_at(const struct btf *btf, __u32 struct_id, const char *name, __u32 *type_id,
		     unsigned long long *bits)
{
	const struct btf_type *t = btf__type_by_id(btf, struct_id), *mt;
	const struct btf_member *m;
	unsigned long long inner;
	int i;

	if (!t || !(btf_is_struct(t) || btf_is_union(t)))
		return -ENOENT;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *mname = btf__name_by_offset(btf, m->name_off);

		if (mname && *mname) {
			if (!strcmp(mname, name)) {
				*type_id = m->type;
				*bits = btf_member_bit_offset(t, i);
				/* a bit-field has no address: BPF_CORE_READ() cannot take it */
				return btf_member_bitfield_size(t, i) ? -EOPNOTSUPP : 0;
			}
			continue;
		}
		mt = btf__type_by_id(btf, skip_mods(btf, m->type));
		if (mt && (btf_is_struct(mt) || btf_is_union(mt)) &&
		    !member_at(btf, skip_mods(btf, m->type), name, type_id, &inner)) {
			*bits = btf_member_bit_offset(t, i) + inner;
			return 0;
		}
	}
	return -ENOENT;
}

int find_member(const struct btf *btf, __u32 struct_id, const char *name, __u32 *type_id)
{
	unsigned long long bits;

	return member_at(btf, struct_id, name, type_id, &bits);
}

void pvalue_set_raw(struct pvalue *v, const struct tinfo *ti)
{
	v->src = PV_RAW;
	v->kind = ti->kind;
	v->size = ti->size;
	v->is_signed = ti->is_signed;
	v->str_ptr = ti->str_ptr;
	v->is_bool = ti->is_bool;
}

const char *btf_struct_kw(const struct btf_type *t)
{
	return btf_is_union(t) ? "union" : "struct";
}

/* A named struct or union of the kernel's BTF, for a cast: "struct tcp_sock". */
static int find_struct(const struct btf *btf, const char *spelled, __u32 *id)
{
	bool is_union = !strncmp(spelled, "union ", 6);
	const char *name = spelled + (is_union ? 6 : 7);
	int i;

	i = btf__find_by_name_kind(btf, name, is_union ? BTF_KIND_UNION : BTF_KIND_STRUCT);
	if (i <= 0)
		return -ENOENT;
	*id = i;
	return 0;
}

/*
 * Fill v from a base pointer and a member path ("->mm->owner",
 * "->__sk_common.skc_family", "->cred->uid.val", "->comm[0]"): '->'
 * through pointers to structs or unions, '.' into embedded ones, '[N]' into
 * arrays (N checked against the array's size). 'base' is the argument's
 * type, 'cast' a struct or union the base pointer is taken as, or NULL.
 * The C path is BPF_CORE_READ()'s: one argument per pointer followed,
 * "mm, owner", "__sk_common.skc_family".
 */
int path_value(struct resolver *r, struct pvalue *v, const char *base_name, __u32 base,
	       const char *cast, const char *members, size_t off)
{
	/* a module's tracepoint: its split BTF, which holds vmlinux's types too */
	const struct btf *btf = r->pr->raw && r->pr->raw->btf ? r->pr->raw->btf : r->p->btf;
	const struct btf_type *t;
	struct strbuf path;
	struct tinfo ti;
	__u32 id = base, sid = 0;
	const char *s = members, *prev = base_name;
	char name[128], prev_name[128];
	unsigned long long bits, first_off = 0;	/* bytes into what the first '->' points to */
	int err, hops = 0;

	sb_init(&path);
	if (cast) {
		if (find_struct(btf, cast, &sid)) {
			spec_error(r->p->spec, &r->src->loc, off, "the kernel's BTF has no %s", cast);
			return -EINVAL;
		}
	}
	while (*s) {
		char op = *s == '-' ? '>' : *s;
		size_t n = 0;

		if (op == '>' && ++hops > PATH_MAX_HOPS) {
			spec_error(r->p->spec, &r->src->loc, off, "'%s' follows more than %d pointers ('->'): "
				   "BPF_CORE_READ() follows at most %d", v->name,
				   PATH_MAX_HOPS, PATH_MAX_HOPS);
			goto fail;
		}
		s += op == '>' ? 2 : 1;
		if (op == '[') {
			unsigned long long idx = strtoull(s, NULL, 10);
			const struct btf_array *arr;

			t = btf__type_by_id(btf, skip_mods(btf, id));
			while (*s && *s != ']')
				s++;
			if (*s)
				s++;
			if (!t || !btf_is_array(t)) {
				spec_error(r->p->spec, &r->src->loc, off, "'%s' is not an array: '[%llu]' does not "
					   "apply", prev, idx);
				goto fail;
			}
			arr = btf_array(t);
			if (idx >= arr->nelems) {
				spec_error(r->p->spec, &r->src->loc, off, "'%s' has %u elements: [%llu] is past its end",
					   prev, arr->nelems, idx);
				goto fail;
			}
			id = arr->type;
			if (hops == 1)
				first_off += idx * (unsigned long long)btf__resolve_size(btf, id);
			sb_printf(&path, "[%llu]", idx);
			continue;
		}
		while (s[n] && s[n] != '.' && s[n] != '[' && !(s[n] == '-' && s[n + 1] == '>'))
			n++;
		if (n >= sizeof(name)) {
			spec_error(r->p->spec, &r->src->loc, off, "member name '%.*s' is too long", (int)n, s);
			goto fail;
		}
		memcpy(name, s, n);
		name[n] = '\0';
		s += n;
		if (op == '>') {
			if (!cast) {
				if (classify(btf, id, &ti) || ti.kind != PV_PTR || !ti.struct_id) {
					spec_error(r->p->spec, &r->src->loc, off, "'%s' is not a pointer to a struct: "
						   "cannot read '%s' through it", prev, name);
					goto fail;
				}
				sid = ti.struct_id;
			}
			sb_puts(&path, path.len ? ", " : "");
		} else {
			sid = skip_mods(btf, id);
			t = btf__type_by_id(btf, sid);
			if (!t || !(btf_is_struct(t) || btf_is_union(t))) {
				spec_error(r->p->spec, &r->src->loc, off, "'%s' is not a struct or union: cannot "
					   "read '.%s' of it%s", prev, name, classify(btf, id, &ti) == 0 &&
					   ti.struct_id ? " (a pointer: use '->')" : "");
				goto fail;
			}
			sb_putc(&path, '.');
		}
		err = member_at(btf, sid, name, &id, &bits);
		if (!err && hops == 1)
			first_off += bits / 8;
		if (err) {
			t = btf__type_by_id(btf, sid);
			if (err == -EOPNOTSUPP)
				spec_error(r->p->spec, &r->src->loc, off, "'%s' of %s %s is a bit-field: tpgen "
					   "cannot read bit-fields", name, btf_struct_kw(t), btf__name_by_offset(btf, t->name_off));
			else
				spec_error(r->p->spec, &r->src->loc, off, "%s %s has no member '%s'", btf_struct_kw(t),
					   btf__name_by_offset(btf, t->name_off), name);
			goto fail;
		}
		sb_puts(&path, name);
		memcpy(prev_name, name, sizeof(name));
		prev = prev_name;
		cast = NULL;
	}
	if (classify(btf, id, &ti)) {
		spec_error(r->p->spec, &r->src->loc, off, "'%s' has a type tpgen cannot read here "
			   "(integers, enums, pointers and char strings only)", v->name);
		goto fail;
	}
	/* in6_addr's __u8 u6_addr8[16] under ipv6(): 16 bytes, read as they are, not up to a NUL */
	if (ti.kind == PV_STR && !ti.str_ptr && r->want_bytes)
		ti.kind = PV_BYTES;
	pvalue_set_raw(v, &ti);
	/*
	 * A plain load (tp_btf) reaches one pointer's member within the 16-bit
	 * offset of a load; past a second pointer, which may be NULL (skb->sk),
	 * or 32 KiB into the struct, the value is read with BPF_CORE_READ().
	 */
	v->near = hops == 1 && first_off <= 32767;
	v->path = sb_steal(&path);
	sb_clear(&path);
	return 0;
fail:
	sb_clear(&path);
	return -EINVAL;
}

/* The local a path starts from: the argument's name, "arg_<name>" for one the handler uses. */
char *path_local(const char *name, const char *cast)
{
	static const char *const taken[] = { "ctx", "args", "e", "key", "ts", "tsp", "delta", "val" };

	if (cast)	/* ((struct tcp_sock *)sk): sk_tcp_sock */
		return xasprintf("%s_%s", name, strchr(cast, ' ') + 1);
	for (size_t i = 0; i < ARRAY_SIZE(taken); i++)
		if (!strcmp(name, taken[i]) || !strncmp(name, "buf_", 4))
			return xasprintf("arg_%s", name);
	return xstrdup(name);
}

/*
 * "name", "name->path" or "((struct T *)name)->path": the base name, the cast
 * (NULL without one) and the path (NULL without one), copied into 'buf'.
 */
void path_split(const char *ref, char *buf, size_t size, const char **name, const char **cast,
		const char **path)
{
	char *p;

	snprintf(buf, size, "%s", ref);
	*cast = NULL;
	*path = NULL;
	if (!strncmp(buf, "((", 2) && (p = strstr(buf, " *)"))) {
		*p = '\0';
		*cast = buf + 2;
		*name = p + 3;
		p = strchr(p + 3, ')');
		if (p) {
			*p = '\0';
			*path = p + 1;
		}
		return;
	}
	*name = buf;
	for (p = buf; *p; p++)
		if (*p == '.' || *p == '[' || (p[0] == '-' && p[1] == '>'))
			break;
	if (*p) {
		*path = ref + (p - buf);	/* with its first operator */
		*p = '\0';
	}
}

/*
 * A member path through a pointer field of a tracepoint's record:
 * "((struct sock *)skaddr)->__sk_common.skc_family", or "p->pid" where the
 * format file names the field's struct. CO-RE reads from a local holding it.
 * -ENOENT, reported by the caller, when the path does not start at a field.
 */
int path_resolve_ctx(struct resolver *r, struct pvalue *v, const char *name, size_t off)
{
	const struct tp_event *ev = r->pr->ev;
	const struct tp_field *f = NULL;
	const char *base, *cast, *path;
	char buf[512], *fwd = NULL;
	int i, err;

	if (strlen(name) >= sizeof(buf)) {
		spec_error(r->p->spec, &r->src->loc, off, "'%.32s...' is too long a name", name);
		return -EINVAL;
	}
	path_split(name, buf, sizeof(buf), &base, &cast, &path);
	for (i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, base))
			f = &ev->fields[i];
	if (!f)
		return -ENOENT;
	if (f->offset < 8 || !(f->kind == FIELD_POINTER || (f->kind == FIELD_SCALAR && f->size == 8))) {
		spec_error(r->p->spec, &r->src->loc, off, "'%s' (%s) is not a pointer: no member path "
			   "through it", base, f->type);
		return -EINVAL;
	}
	if (!r->p->btf) {
		spec_error(r->p->spec, &r->src->loc, off, "'%s' reads kernel memory as the kernel's BTF lays "
			   "it out: no BTF was found (--btf FILE)", name);
		return -EINVAL;
	}
	if (!cast) {
		if (!f->fwd) {
			spec_error(r->p->spec, &r->src->loc, off, "'%s' is a '%s': say what it points to with a "
				   "cast, '((struct NAME *)%s)%s'", base, f->type, base, path);
			return -EINVAL;
		}
		fwd = xstrdup(f->fwd);
		cast = fwd;
	}
	err = path_value(r, v, base, 0, cast, path, off);
	if (!err) {
		v->field = f;
		/* a syscall's pointer argument points into the caller's memory */
		v->user_mem = !strcmp(ev->sys, "syscalls");
		v->arg = xstrdup(f->cname);
		v->arg_type = xasprintf("%s *", cast);
		v->arg_local = path_local(f->cname, fwd ? NULL : cast);
	}
	free(fwd);
	return err;
}

/* A name with a path or a cast: "p->pid", "sk->__sk_common.skc_family", "((struct x *)p)->y" */
bool path_has_members(const char *name)
{
	return name[0] == '(' || strstr(name, "->") || strchr(name, '[');
}

/* "start.ts" is a joined value when 'start' is a plain name that is no argument or field */
bool path_is_saved(const struct resolver *r, const char *name)
{
	const char *dot = strchr(name, '.');
	size_t n;

	if (!dot)
		return false;
	n = dot - name;
	for (size_t i = 0; i < n; i++)
		if (!(name[i] == '_' || (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
		      (name[i] >= '0' && name[i] <= '9')))
			return false;	/* "p->cred.x", "((struct s *)p)->a.b": a path */
	for (int i = 0; i < r->pr->nr_joins; i++)
		if (strlen(r->p->sets[r->pr->joins[i].set].name) == n &&
		    !strncmp(r->p->sets[r->pr->joins[i].set].name, name, n))
			return true;
	if (r->pr->attach == ATTACH_TRACEPOINT) {
		for (int i = 0; i < r->pr->ev->nr_fields; i++)
			if (strlen(r->pr->ev->fields[i].name) == n && !strncmp(r->pr->ev->fields[i].name, name, n))
				return false;
	} else {
		for (int i = 0; i < r->pr->raw->nr_args; i++)
			if (strlen(r->pr->raw->args[i].name) == n && !strncmp(r->pr->raw->args[i].name, name, n))
				return false;
	}
	return true;
}

