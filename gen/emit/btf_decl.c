// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A BTF type spelled as C, the way libbpf's btf_dump__emit_type_decl()
 * spells it ("const char *", "struct task_struct *", "void (*)(void *, int)",
 * "char * const"), but with every name as the kernel has it: btf_dump
 * renames repeated names (foo___2) in the order a whole dump meets them, and
 * learning that order takes a dump of every type. Standalone raw headers
 * only print this spelling in comments, where the kernel's name is the one
 * to show.
 */
#include <bpf/btf.h>

#include "lib/limits.h"
#include "input/rawtp.h"
#include "lib/util.h"

static const char *name_of(const struct btf *btf, const struct btf_type *t)
{
	const char *n = btf__name_by_offset(btf, t->name_off);

	return n ? n : "";
}

/* The qualifiers just under the top of the chain, as "const volatile " (btf_dump_emit_mods). */
static void put_mods(const struct btf *btf, const __u32 *ids, int *cnt, struct strbuf *sb)
{
	while (*cnt) {
		const struct btf_type *t = btf__type_by_id(btf, ids[*cnt - 1]);

		if (btf_is_volatile(t))
			sb_puts(sb, "volatile ");
		else if (btf_is_const(t))
			sb_puts(sb, "const ");
		else if (btf_is_restrict(t))
			sb_puts(sb, "restrict ");
		else
			return;
		(*cnt)--;
	}
}

static bool put_decl(const struct btf *btf, __u32 id, const char *fname, struct strbuf *sb, int depth);

/* btf_dump_emit_type_chain(): the base type first, then what is around it. */
static bool put_chain(const struct btf *btf, const __u32 *ids, int cnt, const char *fname,
		      struct strbuf *sb, int depth)
{
	bool last_was_ptr = true;
	int i;

	while (cnt) {
		__u32 id = ids[--cnt];
		const struct btf_type *t;

		if (!id) {
			put_mods(btf, ids, &cnt, sb);
			sb_puts(sb, "void");
			last_was_ptr = false;
			continue;
		}
		t = btf__type_by_id(btf, id);
		switch (btf_kind(t)) {
		case BTF_KIND_INT:
		case BTF_KIND_FLOAT:
		case BTF_KIND_TYPEDEF:
			put_mods(btf, ids, &cnt, sb);
			sb_puts(sb, name_of(btf, t));
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_FWD:
			if (!t->name_off)
				return false;	/* btf_dump would print the body */
			put_mods(btf, ids, &cnt, sb);
			sb_puts(sb, btf_is_any_enum(t) ? "enum " :
				    (btf_is_fwd(t) ? btf_kflag(t) : btf_is_union(t)) ? "union " : "struct ");
			sb_puts(sb, name_of(btf, t));
			break;
		case BTF_KIND_PTR:
			sb_puts(sb, last_was_ptr ? "*" : " *");
			break;
		case BTF_KIND_VOLATILE:
			sb_puts(sb, " volatile");
			break;
		case BTF_KIND_CONST:
			sb_puts(sb, " const");
			break;
		case BTF_KIND_RESTRICT:
			sb_puts(sb, " restrict");
			break;
		case BTF_KIND_TYPE_TAG:
			put_mods(btf, ids, &cnt, sb);
			sb_printf(sb, " __attribute__((btf_type_tag(\"%s\")))", name_of(btf, t));
			break;
		case BTF_KIND_FUNC_PROTO: {
			const struct btf_param *p = btf_params(t);
			int vlen = btf_vlen(t);

			while (cnt && btf_is_mod(btf__type_by_id(btf, ids[cnt - 1])))
				cnt--;	/* btf_dump drops them (a GCC quirk) */
			if (cnt) {
				sb_puts(sb, " (");
				if (!put_chain(btf, ids, cnt, fname, sb, depth + 1))
					return false;
				sb_putc(sb, ')');
			} else if (*fname) {
				sb_printf(sb, "%s%s", last_was_ptr ? "" : " ", fname);
			}
			sb_putc(sb, '(');
			if (vlen == 0 || (vlen == 1 && !p->type)) {
				sb_puts(sb, "void)");
				return true;
			}
			for (i = 0; i < vlen; i++, p++) {
				if (i)
					sb_puts(sb, ", ");
				if (i == vlen - 1 && !p->type) {
					sb_puts(sb, "...");
					break;
				}
				if (!put_decl(btf, p->type, btf__name_by_offset(btf, p->name_off) ?: "",
					      sb, depth + 1))
					return false;
			}
			sb_putc(sb, ')');
			return true;
		}
		default:
			return false;	/* arrays and the rest: not an argument's type */
		}
		last_was_ptr = btf_is_ptr(t);
	}
	if (*fname)
		sb_printf(sb, "%s%s", last_was_ptr ? "" : " ", fname);
	return true;
}

/* btf_dump_emit_type_decl(): push the chain down to its base type, then print it. */
static bool put_decl(const struct btf *btf, __u32 id, const char *fname, struct strbuf *sb, int depth)
{
	__u32 ids[BTF_MAX_DEPTH];
	int cnt = 0;

	if (depth > BTF_MAX_DEPTH)
		return false;
	for (;;) {
		const struct btf_type *t;

		if (cnt == BTF_MAX_DEPTH)
			return false;
		ids[cnt++] = id;
		if (!id)
			break;
		t = btf__type_by_id(btf, id);
		if (!t)
			return false;
		if (btf_is_ptr(t) || btf_is_mod(t) || btf_is_func_proto(t))
			id = t->type;
		else
			break;
	}
	return put_chain(btf, ids, cnt, fname, sb, depth);
}

char *kbtf_decl(const struct btf *btf, __u32 id, const char *name)
{
	struct strbuf sb;

	sb_init(&sb);
	if (!put_decl(btf, id, name ? name : "", &sb, 0)) {
		sb_free(&sb);
		return NULL;
	}
	return sb_steal(&sb);
}
