// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The emitter's BTF-to-C speller, for raw tracepoints' arguments (the model
 * holds their type ids, emit_raw.c, list and diff print them), three ways:
 *
 * - kbtf_decl(): a type as libbpf's btf_dump__emit_type_decl() spells it
 *   ("const char *", "struct task_struct *", "void (*)(void *, int)",
 *   "char * const"), but with every name as the kernel has it: btf_dump
 *   renames repeated names (foo___2) in the order a whole dump meets them,
 *   and learning that order takes a dump of every type. Standalone raw
 *   headers only print this spelling in comments, where the kernel's name is
 *   the one to show, and modules' types (in no vmlinux.h) are spelled so.
 *   It only reads the BTF: several threads may spell at once.
 * - btf_dump itself, for vmlinux's types loaded by rawtp_load(): the names
 *   vmlinux.h gives them, renames and all. btf_dump keeps state, so
 *   raw_spell_init() spells every argument it will be asked for up front, in
 *   one thread, and the header is printed in two after.
 * - the standalone spelling: fixed-width integers, pointers to structs by
 *   name (forward-declared), anything else as void.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "emit/emit.h"
#include "lib/limits.h"
#include "input/fieldtype.h"
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
		sb_clear(&sb);
		return NULL;
	}
	return sb_steal(&sb);
}

/* kbtf_decl() appended to 'sb'; false, with 'sb' as it was, where it gives NULL. */
static bool kbtf_decl_sb(const struct btf *btf, __u32 id, const char *name, struct strbuf *sb)
{
	size_t len = sb->len;

	if (put_decl(btf, id, name, sb, 0))
		return true;
	sb->len = len;
	if (sb->buf)
		sb->buf[len] = '\0';
	return false;
}

/*
 * The standalone spelling of type 'id' where a pointer points to it:
 * structs and unions by name (kbtf_pointee_fwd() names the one to
 * forward-declare), scalars as fixed-width types, anything else (functions,
 * arrays, anonymous types) as void.
 */
static void sa_pointee(const struct btf *btf, __u32 id, struct strbuf *sb, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	bool is_const = false, is_volatile = false;
	const char *name, *base = "void";

	for (; id && t && depth < BTF_MAX_DEPTH; depth++) {
		if (btf_is_const(t))
			is_const = true;
		else if (btf_is_volatile(t))
			is_volatile = true;
		else if (!btf_is_typedef(t) && !btf_is_restrict(t) && btf_kind(t) != BTF_KIND_TYPE_TAG)
			break;
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (id && t && depth < BTF_MAX_DEPTH && btf_is_ptr(t)) {
		size_t len;

		sa_pointee(btf, t->type, sb, depth + 1);
		len = sb->len;
		sb_puts(sb, len && sb->buf[len - 1] == '*' ? "*" : " *");
		if (is_const)
			sb_puts(sb, " const");
		if (is_volatile)
			sb_puts(sb, " volatile");
		return;
	}
	name = id && t && t->name_off ? btf__name_by_offset(btf, t->name_off) : NULL;
	if (is_const)
		sb_puts(sb, "const ");
	if (is_volatile)
		sb_puts(sb, "volatile ");
	if (!id || !t || depth >= BTF_MAX_DEPTH) {
		/* void */
	} else if (btf_is_int(t)) {
		__u8 enc = btf_int_encoding(t);

		if (enc & BTF_INT_BOOL)
			base = "_Bool";
		else if (name && !strcmp(name, "char"))
			base = "char";
		else if (ctype_fixed(t->size, enc & BTF_INT_SIGNED))
			base = ctype_fixed(t->size, enc & BTF_INT_SIGNED);
	} else if (btf_is_any_enum(t)) {
		if (ctype_fixed(t->size, btf_kflag(t)))
			base = ctype_fixed(t->size, btf_kflag(t));
	} else if ((btf_is_struct(t) || btf_is_union(t) || btf_is_fwd(t)) && name && *name) {
		sb_puts(sb, (btf_is_fwd(t) ? btf_kflag(t) : btf_is_union(t)) ? "union " : "struct ");
		base = name;
	}
	sb_puts(sb, base);
}

static const struct btf *btf_of(const struct raw_spell *s, const struct raw_tp *tp)
{
	return tp->btf ? tp->btf : s->btf;
}

void raw_spell_sa(const struct raw_spell *s, const struct raw_tp *tp, int arg, bool named,
		  struct strbuf *sb)
{
	const struct raw_arg *a = &tp->args[arg];

	switch (a->sa) {
	case RAW_SA_NONE:
		sb_add(sb, "__u64", 5);
		break;
	case RAW_SA_FIXED:
		sb_puts(sb, ctype_fixed(a->size, a->is_signed));
		break;
	case RAW_SA_BOOL:
		sb_add(sb, "_Bool", 5);
		break;
	case RAW_SA_PTR:
		sa_pointee(btf_of(s, tp), a->pointee_id, sb, 0);	/* never empty */
		sb_puts(sb, sb->buf[sb->len - 1] == '*' ? "*" : " *");
		break;
	}
	if (named) {
		if (sb->buf[sb->len - 1] != '*')
			sb_putc(sb, ' ');
		sb_puts(sb, a->name);
	}
}

/* btf_dump's spellings of argument 'arg' of 'tp': declaration, then type alone; NULL: not btf_dump's. */
static char **dumped(const struct raw_spell *s, const struct raw_tp *tp, int arg)
{
	if (!s->dump || tp->btf)
		return NULL;
	return &s->dump[2 * (s->first[tp - s->r->tp] + arg)];
}

void raw_spell_kernel(const struct raw_spell *s, const struct raw_tp *tp, int arg, bool named,
		      struct strbuf *sb)
{
	const struct raw_arg *a = &tp->args[arg];
	char **d;

	if (a->kernel_sa) {
		raw_spell_sa(s, tp, arg, named, sb);
	} else if ((d = dumped(s, tp, arg))) {
		if (d[!named])
			sb_puts(sb, d[!named]);
		else	/* btf_dump could not spell it (or raw_spell_init() was not asked to) */
			raw_spell_sa(s, tp, arg, named, sb);
	} else if (!kbtf_decl_sb(btf_of(s, tp), a->type_id, named ? a->name : "", sb)) {
		raw_spell_sa(s, tp, arg, named, sb);
	}
}

static void dump_printf(void *ctx, const char *fmt, va_list ap)
{
	struct raw_spell *s = ctx;

	if (!s->quiet)
		sb_vprintf(&s->out, fmt, ap);
}

static char *dump_decl(struct raw_spell *s, struct btf_dump *d, __u32 id, const char *name)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o, .field_name = name);

	sb_reset(&s->out);
	if (btf_dump__emit_type_decl(d, id, &o))
		return NULL;
	return xstrdup(s->out.buf ? s->out.buf : "");
}

int raw_spell_init(struct raw_spell *s, const struct raw_tps *r, const bool *selected,
		   const struct btf *btf)
{
	struct btf_dump *d;
	__u32 upto = 0, id;
	int i, k, n = 0, err;

	memset(s, 0, sizeof(*s));
	s->r = r;
	s->btf = btf;
	if (!r->vmlinux_names)
		return 0;	/* kbtf_decl(), when printing */
	s->first = xcalloc(r->nr ? r->nr : 1, sizeof(*s->first));
	for (i = 0; i < r->nr; i++) {
		s->first[i] = n;
		n += r->tp[i].nr_args;
		if ((selected && !selected[i]) || r->tp[i].btf)
			continue;
		for (k = 0; k < r->tp[i].nr_args; k++)
			if (!r->tp[i].args[k].kernel_sa && r->tp[i].args[k].dup_last > upto)
				upto = r->tp[i].args[k].dup_last;
	}
	s->dump = xcalloc(2 * n + 1, sizeof(*s->dump));
	sb_init(&s->out);
	d = btf_dump__new(btf, dump_printf, s, NULL);
	if (!d) {
		err = -errno ?: -ENOMEM;
		pr_err("cannot print BTF types: %s", strerror(-err));
		raw_spell_clear(s);
		return err;
	}
	/*
	 * A repeated name gets ___2, ___3 in the order btf_dump first meets its
	 * types. Meet them as 'bpftool btf dump format c' does (every id in
	 * turn) up to the last one we print: the names then match vmlinux.h.
	 */
	s->quiet = true;
	for (id = 1; id <= upto; id++)
		btf_dump__dump_type(d, id);
	s->quiet = false;
	for (i = 0; i < r->nr; i++) {
		if ((selected && !selected[i]) || r->tp[i].btf)
			continue;
		for (k = 0; k < r->tp[i].nr_args; k++) {
			const struct raw_arg *a = &r->tp[i].args[k];
			char **v = &s->dump[2 * (s->first[i] + k)];

			if (a->kernel_sa)
				continue;
			v[0] = dump_decl(s, d, a->type_id, a->name);
			v[1] = v[0] ? dump_decl(s, d, a->type_id, "") : NULL;
			if (!v[1]) {
				free(v[0]);
				v[0] = NULL;
			}
		}
	}
	btf_dump__free(d);
	sb_clear(&s->out);
	return 0;
}

void raw_spell_clear(struct raw_spell *s)
{
	int i, n = 0;

	if (s->dump) {
		for (i = 0; i < s->r->nr; i++)
			n += s->r->tp[i].nr_args;
		for (i = 0; i < 2 * n; i++)
			free(s->dump[i]);
	}
	free(s->dump);
	free(s->first);
	sb_clear(&s->out);
	memset(s, 0, sizeof(*s));
}
