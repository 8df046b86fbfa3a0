// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * How a value is shown (see decode.h): the functions a spec writes around a
 * print item or a key (errno(ret), enum(x, sock_type)), and the names an
 * event's print fmt gives its fields (__print_symbolic, __print_flags,
 * %pI4), read from the format file only for the events a column needs.
 * Each way of showing is made once per program and shared by its columns.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "lib/limits.h"
#include "model/decode.h"
#include "input/pfbtf.h"
#include "input/printfmt.h"
#include "model/prog.h"
#include "model/values.h"
#include "input/sysnames.h"

#define FORMAT_MAX		(256 * 1024)

struct decodes {
	struct decode **v;
	char **keys;		/* what each one decodes: "pf:sys/event:field", "enum:sock_type", "errno" */
	int nr;
	struct printfmt *pf;	/* per event of p->evs, read when a column needs it */
	bool *pf_read;
	struct pf_btf *pfb;
	bool sysnames_warned;	/* syscall(): the warning that numbers are shown, once */
};

const struct decode_kind_desc decode_kinds[DECODE_NR_KINDS] = {
#define X(id, fn, key, width, number, what, loader)	\
	[DECODE_##id] = { fn, key, width, number, what, loader },
	DECODE_KINDS(X)
#undef X
};

static struct decodes *state(struct prog *p)
{
	if (!p->decodes)
		p->decodes = xcalloc(1, sizeof(*p->decodes));
	return p->decodes;
}

/* ---- syntax: fn(expr) ---------------------------------------------------- */

static bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The ')' that closes the '(' at 'open', skipping quoted strings; 0 if none. */
static size_t closing(const char *s, size_t open, size_t *comma)
{
	int depth = 0;
	char q = 0;

	*comma = 0;
	for (size_t i = open; s[i]; i++) {
		if (q) {
			if (s[i] == '\\' && s[i + 1])
				i++;
			else if (s[i] == q)
				q = 0;
			continue;
		}
		if (s[i] == '"' || s[i] == '\'')
			q = s[i];
		else if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && !--depth)
			return i;
		else if (s[i] == ',' && depth == 1)
			*comma = i;
	}
	return 0;
}

int decode_parse(struct resolver *r, const struct spec_item *it, struct spec_item *inner, char **enum_name,
		 size_t *name_off)
{
	const char *s = it->expr.s;
	size_t b = strspn(s, " \t"), e, open, close, comma, n;
	int fn = -1;
	char *t;

	*enum_name = NULL;
	for (e = b; is_ident_char(s[e]); e++)
		;
	open = e + strspn(s + e, " \t");
	if (e == b || s[open] != '(')
		return -ENOENT;
	for (int k = 0; k < DECODE_NR_KINDS; k++) {
		const char *name = decode_kinds[k].fn;

		if (name && strlen(name) == e - b && !strncmp(s + b, name, e - b))
			fn = k;
	}
	if (fn < 0)
		return -ENOENT;
	close = closing(s, open, &comma);
	if (!close) {
		spec_error(r->p->spec, &it->expr.loc, open, "%s( has no ')'%s", decode_kinds[fn].fn,
			   it->expr.loc.style == SPEC_PLAIN ? ": in a [flow, list] a comma ends the item; "
			   "quote it (\"enum(x, TCP_CLOSE)\") or write one item per line" : "");
		return -EINVAL;
	}
	if (s[close + 1 + strspn(s + close + 1, " \t")]) {
		spec_error(r->p->spec, &it->expr.loc, b, "%s(...) shows a whole %s item: nothing may follow it",
			   decode_kinds[fn].fn, r->what);
		return -EINVAL;
	}
	if (fn == DECODE_SYMBOLIC) {
		size_t nb, ne;

		if (!comma) {
			spec_error(r->p->spec, &it->expr.loc, close, "enum(VALUE, NAME) names a BTF enum, or "
				   "a constant of it: enum(newstate, TCP_ESTABLISHED)");
			return -EINVAL;
		}
		nb = comma + 1 + strspn(s + comma + 1, " \t");
		for (ne = nb; is_ident_char(s[ne]); ne++)
			;
		if (ne == nb || (s[nb] >= '0' && s[nb] <= '9') || ne + strspn(s + ne, " \t") != close) {
			spec_error(r->p->spec, &it->expr.loc, nb, "enum(VALUE, NAME): NAME is the name of a "
				   "BTF enum (sock_type of enum sock_type), or a constant of it");
			return -EINVAL;
		}
		*enum_name = xstrndup(s + nb, ne - nb);
		*name_off = nb;
	} else if (comma) {
		spec_error(r->p->spec, &it->expr.loc, comma, "%s() takes one value", decode_kinds[fn].fn);
		return -EINVAL;
	}
	/* the value: the text inside, at the same columns */
	n = strlen(s);
	t = xstrdup(s);
	memset(t, ' ', open + 1);
	memset(t + (fn == DECODE_SYMBOLIC ? comma : close), ' ', n - (fn == DECODE_SYMBOLIC ? comma : close));
	*inner = *it;
	inner->expr.s = t;
	return fn;
}

/* ---- the decodes of a program -------------------------------------------- */

static const struct decode *find(struct decodes *d, const char *key)
{
	for (int i = 0; i < d->nr; i++)
		if (!strcmp(d->keys[i], key))
			return d->v[i];
	return NULL;
}

static struct decode *add(struct prog *p, const char *key, enum decode_kind kind, const char *base)
{
	struct decodes *d = state(p);
	struct decode *dc = xcalloc(1, sizeof(*dc));

	dc->kind = kind;
	dc->ident = prog_ident(p, base);
	if (kind == DECODE_SYMBOLIC || kind == DECODE_FLAGS || kind == DECODE_SYSCALL) {
		char *t = xasprintf("%s_names", base);

		dc->table = prog_ident(p, t);
		free(t);
	}
	d->v = xrealloc(d->v, (d->nr + 1) * sizeof(*d->v));
	d->keys = xrealloc(d->keys, (d->nr + 1) * sizeof(*d->keys));
	d->v[d->nr] = dc;
	d->keys[d->nr++] = xstrdup(key);
	p->any_names = true;
	return dc;
}

static void add_sym(struct decode *dc, unsigned long long v, const char *name)
{
	int len = strlen(name);

	dc->syms = xrealloc(dc->syms, (dc->nr_syms + 1) * sizeof(*dc->syms));
	dc->syms[dc->nr_syms].value = v;
	dc->syms[dc->nr_syms++].name = xstrdup(name);
	if (len > dc->width)
		dc->width = len > DECODE_WIDTH_MAX ? DECODE_WIDTH_MAX : len;
}

static const struct decode *simple(struct prog *p, enum decode_kind kind)
{
	const char *key = decode_kinds[kind].key;
	const struct decode *old = find(state(p), key);
	struct decode *dc;
	char *base;

	if (old)
		return old;
	base = xasprintf("show_%s", key);
	dc = add(p, key, kind, base);
	free(base);
	dc->width = decode_kinds[kind].width;
	if (decode_is_ksym(kind))
		p->any_ksym = true;
	return dc;
}

/*
 * The target's syscall table, loaded by the command (p->sysnames): the
 * running kernel's, or the snapshot's (DIR/syscalls). Where there is none
 * (not root, a snapshot without one), the numbers are shown: -ENOENT after
 * one warning.
 */
static int load_syscalls(struct resolver *r, const struct spec_loc *loc, size_t off)
{
	struct decodes *d = state(r->p);
	const char *why = NULL;

	if (r->p->sysnames)
		return 0;
	if (d->sysnames_warned)
		return -ENOENT;
	if (r->p->kernel_dir) {
		why = "the snapshot has no DIR/syscalls (take it with 'tpgen snapshot' as root)";
	} else if (!r->p->live || !r->p->btf) {
		why = "the syscall names of a kernel given by --tracefs or --btf are not known "
		      "(--kernel DIR of a 'tpgen snapshot' has them)";
	} else if (geteuid()) {
		why = "reading the running kernel's syscall table needs root (or --kernel DIR of a "
		      "'tpgen snapshot')";
	}
	if (why) {
		d->sysnames_warned = true;
		diag_warning(r->p->spec->path, loc->line, loc->col + (int)off, "syscall(): %s; "
			     "syscall numbers are shown as numbers", why);
		return -ENOENT;
	}
	spec_error(r->p->spec, loc, off, "syscall(): cannot read the running kernel's syscall table "
		   "(see above; it needs root), or use --kernel DIR of a 'tpgen snapshot'");
	return -EINVAL;
}

static const struct decode *syscalls(struct resolver *r, const struct spec_loc *loc, size_t off, bool *numbers)
{
	struct decodes *d = state(r->p);
	const struct decode *old = find(d, "syscall");
	const struct sysnames *sn;
	struct decode *dc;
	int err;

	if (old)
		return old;
	err = load_syscalls(r, loc, off);
	if (err) {
		*numbers = err == -ENOENT;
		return NULL;
	}
	sn = r->p->sysnames;
	dc = (struct decode *)simple(r->p, DECODE_SYSCALL);
	dc->source = xasprintf("%s, from %s", sn->arch ? sn->arch : "unknown",
			       sn->source ? sn->source : "unknown");
	for (int i = 0; i < sn->nr; i++) {
		dc->syms = xrealloc(dc->syms, (dc->nr_syms + 1) * sizeof(*dc->syms));
		dc->syms[dc->nr_syms].value = sn->tab[i].nr;
		dc->syms[dc->nr_syms++].name = xstrdup(sn->tab[i].name);
	}
	return dc;
}

/* The first enum (anonymous ones too: the TCP states) with a constant 'name', or -ENOENT. */
static int enum_of_constant(const struct btf *btf, const char *name)
{
	for (__u32 id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!btf_is_enum(t) && !btf_is_enum64(t))
			continue;
		for (int i = 0; i < btf_vlen(t); i++) {
			__u32 off = btf_is_enum(t) ? btf_enum(t)[i].name_off : btf_enum64(t)[i].name_off;

			if (!strcmp(btf__name_by_offset(btf, off), name))
				return id;
		}
	}
	return -ENOENT;
}

/* enum(x, NAME): the constants of the kernel's enum NAME, in its order. */
static const struct decode *kernel_enum(struct resolver *r, const char *name, const struct spec_loc *loc,
				     size_t off)
{
	const struct btf *btf = r->p->btf;
	const struct btf_type *t = NULL;
	struct decode *dc;
	char *key, *base;
	int id = -ENOENT;

	key = xasprintf("enum:%s", name);
	if (find(state(r->p), key)) {
		const struct decode *old = find(state(r->p), key);

		free(key);
		return old;
	}
	if (btf) {
		id = btf__find_by_name_kind(btf, name, BTF_KIND_ENUM);
		if (id < 0)
			id = btf__find_by_name_kind(btf, name, BTF_KIND_ENUM64);
		if (id < 0)
			id = enum_of_constant(btf, name);
	}
	if (id < 0) {
		spec_error(r->p->spec, loc, off, btf ? "the kernel's BTF has no enum '%s', nor an enum with a "
			   "constant '%s'" : "enum(): no kernel BTF to find enum '%s' in (--btf FILE)", name, name);
		free(key);
		return NULL;
	}
	t = btf__type_by_id(btf, id);
	base = xasprintf("show_enum_%s", name);
	dc = add(r->p, key, DECODE_SYMBOLIC, base);
	free(base);
	free(key);
	dc->source = xasprintf(*btf__name_by_offset(btf, t->name_off) ? "enum %s of the kernel's BTF" :
			       "the enum of %s in the kernel's BTF", name);
	for (int i = 0; i < btf_vlen(t); i++) {
		unsigned long long v;
		const char *n;

		if (btf_is_enum(t)) {
			const struct btf_enum *e = btf_enum(t) + i;

			v = btf_kflag(t) ? (unsigned long long)(long long)e->val : (unsigned int)e->val;
			n = btf__name_by_offset(btf, e->name_off);
		} else {
			const struct btf_enum64 *e = btf_enum64(t) + i;

			v = btf_enum64_value(e);
			n = btf__name_by_offset(btf, e->name_off);
		}
		add_sym(dc, v, n ? n : "");
	}
	return dc;
}

/*
 * open_flags(), mount_flags(): the kernel's uapi has these as #defines, not
 * in BTF, so their values are written here, from the uapi headers. mount's
 * are the same on every architecture (linux/mount.h); open's O_* are
 * asm-generic/fcntl.h's, which x86 uses and arm64, powerpc, mips, sparc,
 * alpha, parisc do not (O_DIRECTORY, O_DIRECT, O_LARGEFILE...): they are
 * shown only for an x86 target. Names and their order are strace's: a name
 * of several bits (O_SYNC, O_TMPFILE) before its parts.
 */
struct flag_name {
	unsigned long long value;
	const char *name;
};

#define OPEN_ACCMODE		03
static const struct flag_name open_flag_names[] = {
	/* the access mode, a value of bits 0-1 (O_ACCMODE) */
	{ 00, "O_RDONLY" }, { 01, "O_WRONLY" }, { 02, "O_RDWR" }, { 03, "O_ACCMODE" },
	{ 0100, "O_CREAT" }, { 0200, "O_EXCL" }, { 0400, "O_NOCTTY" }, { 01000, "O_TRUNC" },
	{ 02000, "O_APPEND" }, { 04000, "O_NONBLOCK" },
	{ 04010000, "O_SYNC" },			/* __O_SYNC | O_DSYNC */
	{ 010000, "O_DSYNC" }, { 040000, "O_DIRECT" },
	{ 0100000, "O_LARGEFILE" }, { 0400000, "O_NOFOLLOW" }, { 01000000, "O_NOATIME" },
	{ 02000000, "O_CLOEXEC" }, { 010000000, "O_PATH" },
	{ 020200000, "O_TMPFILE" },		/* __O_TMPFILE | O_DIRECTORY */
	{ 0200000, "O_DIRECTORY" },
	{ 020000, "FASYNC" },			/* O_ASYNC, by strace's name */
};

static const struct flag_name mount_flag_names[] = {
	{ 1, "MS_RDONLY" }, { 2, "MS_NOSUID" }, { 4, "MS_NODEV" }, { 8, "MS_NOEXEC" },
	{ 16, "MS_SYNCHRONOUS" }, { 32, "MS_REMOUNT" }, { 64, "MS_MANDLOCK" }, { 128, "MS_DIRSYNC" },
	{ 256, "MS_NOSYMFOLLOW" }, { 1024, "MS_NOATIME" }, { 2048, "MS_NODIRATIME" },
	{ 4096, "MS_BIND" }, { 8192, "MS_MOVE" }, { 16384, "MS_REC" }, { 32768, "MS_SILENT" },
	{ 1 << 16, "MS_POSIXACL" }, { 1 << 17, "MS_UNBINDABLE" }, { 1 << 18, "MS_PRIVATE" },
	{ 1 << 19, "MS_SLAVE" }, { 1 << 20, "MS_SHARED" }, { 1 << 21, "MS_RELATIME" },
	{ 1 << 22, "MS_KERNMOUNT" }, { 1 << 23, "MS_I_VERSION" }, { 1 << 24, "MS_STRICTATIME" },
	{ 1 << 25, "MS_LAZYTIME" }, { 1 << 26, "MS_SUBMOUNT" }, { 1 << 27, "MS_NOREMOTELOCK" },
	{ 1 << 28, "MS_NOSEC" }, { 1 << 29, "MS_BORN" }, { 1 << 30, "MS_ACTIVE" },
	{ 1ULL << 31, "MS_NOUSER" },
};

/* Is the target x86 (its struct pt_regs has orig_ax)? Its O_* are asm-generic's. */
static bool target_is_x86(const struct btf *btf)
{
	__u32 id;
	int sid;

	if (!btf)
		return false;
	sid = btf__find_by_name_kind(btf, "pt_regs", BTF_KIND_STRUCT);
	return sid > 0 && !find_member(btf, sid, "orig_ax", &id);
}

static const struct decode *flag_names(struct resolver *r, int fn, const struct spec_loc *loc, size_t off)
{
	bool open = fn == DECODE_OPEN_FLAGS;
	const struct flag_name *tab = open ? open_flag_names : mount_flag_names;
	size_t n = open ? ARRAY_SIZE(open_flag_names) : ARRAY_SIZE(mount_flag_names);
	const char *key = open ? "open_flags" : "mount_flags";
	const struct decode *old = find(state(r->p), key);
	struct decode *dc;
	char *base;

	if (old)
		return old;
	if (open && !target_is_x86(r->p->btf)) {
		spec_error(r->p->spec, loc, off, "open_flags(): tpgen knows the O_* values of x86 only "
			   "(asm-generic/fcntl.h), and %s", r->p->btf ? "the target kernel's BTF is of "
			   "another architecture" : "there is no kernel BTF to tell the architecture (--btf FILE)");
		return NULL;
	}
	base = xasprintf("show_%s", key);
	dc = add(r->p, key, DECODE_FLAGS, base);
	free(base);
	dc->source = xstrdup(open ? "open(2)'s O_* flags (asm-generic/fcntl.h, x86), as strace names them" :
			     "mount(2)'s MS_* flags (linux/mount.h), as strace names them");
	dc->sep = xstrdup("|");
	if (open)
		dc->field = OPEN_ACCMODE;
	else
		dc->zero_name = xstrdup("0");
	for (size_t i = 0; i < n; i++)
		add_sym(dc, tab[i].value, tab[i].name);
	if (dc->width < 7)
		dc->width = 7;
	return dc;
}

/* The print fmt of event 'ev' (kept when its format file was read), parsed once. */
static const struct printfmt *event_printfmt(struct prog *p, const struct tp_event *ev)
{
	struct decodes *d = state(p);
	int i = ev - p->evs->ev;
	struct pf_env env = {};

	if (!d->pf) {
		d->pf = xcalloc(p->evs->nr, sizeof(*d->pf));
		d->pf_read = xcalloc(p->evs->nr, sizeof(*d->pf_read));
	}
	if (d->pf_read[i])
		return &d->pf[i];
	d->pf_read[i] = true;
	if (ev->print_fmt) {
		if (!d->pfb)
			d->pfb = pf_btf_new(p->btf);
		env = pf_btf_env(d->pfb);
		/* a call it cannot read is one warning, and that field stays a number */
		printfmt_parse(ev->path, ev->print_fmt_line, ev->print_fmt, &env, &d->pf[i]);
	}
	return &d->pf[i];
}

static const char *value_c_field(void *ctx, const char *name)
{
	return ctx;
}

struct other_fields {
	const char *field;
	bool other;
};

static void note_field(void *ctx, const char *name)
{
	struct other_fields *c = ctx;

	if (strcmp(name, c->field))
		c->other = true;
}

static const char *int_ctype(const struct pvalue *v)
{
	static const char *const types[2][4] = {
		{ "__u8", "__u16", "__u32", "__u64" }, { "__s8", "__s16", "__s32", "__s64" },
	};

	return types[v->is_signed][v->size == 1 ? 0 : v->size == 2 ? 1 : v->size == 4 ? 2 : 3];
}

/* A field the print fmt decodes with a table, or shows as an address. */
static const struct decode *from_printfmt(struct prog *p, const struct tp_event *ev, const struct pvalue *v)
{
	const struct printfmt *pf = event_printfmt(p, ev);
	const struct pf_table *t = printfmt_table(pf, v->field->name);
	const struct pf_addr *a = printfmt_addr(pf, v->field->name);
	const char *plain;
	struct decode *dc;
	char *key, *base;

	if (v->kind == PV_BYTES) {
		if (a && a->kind == PF_ADDR_IPV4 && v->size == 4)
			return simple(p, DECODE_IPV4);
		if (a && (a->kind == PF_ADDR_IPV6 || a->kind == PF_ADDR_IPV6C) && v->size == 16)
			return simple(p, DECODE_IPV6);
		return simple(p, DECODE_HEX);
	}
	/* an address: a kernel symbol (%pS, %ps) or hex (%p), of a number or a pointer of 8 bytes */
	if (a && !t && (v->kind == PV_INT || v->kind == PV_PTR) && (v->kind == PV_PTR || v->size == 8)) {
		if (a->kind == PF_ADDR_KSYM)
			return simple(p, DECODE_KSYM);
		if (a->kind == PF_ADDR_KSYM_NAME)
			return simple(p, DECODE_KSYM_NAME);
		if (a->kind == PF_ADDR_PTR && v->kind == PV_INT)
			return simple(p, DECODE_ADDR);
	}
	if (!t || v->kind != PV_INT)
		return NULL;
	/* the table's value must come from this field alone: REC->prev_state & 0xff */
	plain = t->direct ? v->field->name : pf_node_plain_field(t->expr);
	if (!plain) {
		struct other_fields c = { v->field->name, false };

		pf_node_fields(t->expr, note_field, &c);
		if (c.other)
			return NULL;
	}
	key = xasprintf("pf:%s/%s:%s", ev->sys, ev->name, v->field->name);
	if (find(state(p), key)) {
		const struct decode *old = find(state(p), key);

		free(key);
		return old;
	}
	base = xasprintf("show_%s_%s", ev->name, v->field->name);
	dc = add(p, key, t->kind == PF_FLAGS ? DECODE_FLAGS : DECODE_SYMBOLIC, base);
	free(base);
	free(key);
	dc->source = xasprintf("print fmt of %s/%s", ev->sys, ev->name);
	dc->sep = xstrdup(t->sep ? t->sep : "");
	dc->zero_name = t->zero_name ? xstrdup(t->zero_name) : NULL;
	for (int i = 0; i < t->nr_entries; i++)
		add_sym(dc, t->entries[i].value, t->entries[i].name);
	if (dc->width < 7)
		dc->width = 7;
	if (!plain) {
		struct strbuf sb;
		char *field = xasprintf("((%s)v)", int_ctype(v));

		sb_init(&sb);
		pf_emit_c(&sb, t->expr, value_c_field, field);
		dc->value_c = sb_steal(&sb);
		base = xasprintf("%s_value", dc->ident);
		dc->value_fn = prog_ident(p, base);
		free(base);
		free(field);
	}
	return dc;
}

/*
 * A joined value that every save of its name took from one field of one
 * event: shown as that event's print fmt shows the field (SPIN|WRITE).
 */
static const struct decode *saved_printfmt(struct resolver *r, const struct pvalue *v)
{
	const struct psaved *set = &r->p->sets[r->pr->joins[v->join].set];

	for (int i = 0; i < set->nr_members; i++)
		if (!strcmp(set->members[i].cname, v->member))
			return set->members[i].field ?
			       from_printfmt(r->p, set->members[i].field_ev, &set->members[i]) : NULL;
	return NULL;
}

/* ---- a column ------------------------------------------------------------ */

int decode_resolve(struct resolver *r, const struct spec_item *it, int fn, const char *enum_name,
		   size_t name_off, int val, bool plain, const struct decode **out)
{
	const struct pvalue *v = &r->pr->vals[val];
	const struct spec_loc *loc = &it->expr.loc;
	size_t off = strspn(it->expr.s, " \t");

	*out = NULL;
	if (fn < 0) {
		/* a format field, or what a save kept of one: as its event's print fmt shows it */
		if (plain && v->src == PV_CTX && (v->kind == PV_INT || v->kind == PV_BYTES || v->kind == PV_PTR))
			*out = from_printfmt(r->p, r->pr->ev, v);
		else if (plain && v->src == PV_SAVED && (v->kind == PV_INT || v->kind == PV_PTR))
			*out = saved_printfmt(r, v);
		else if (plain && v->src == PV_RAW && v->kind == PV_INT && v->fmt_field) {
			struct pvalue f = *v;	/* a raw_tp/tp_btf argument a format field is made from */

			f.field = v->fmt_field;
			*out = from_printfmt(r->p, v->fmt_ev, &f);
		}
		return 0;
	}
	switch (fn) {
	case DECODE_IPV4:
		if (!(v->kind == PV_BYTES || v->kind == PV_INT) || v->size != 4)
			goto mismatch;
		*out = simple(r->p, DECODE_IPV4);
		return 0;
	case DECODE_IPV6:
		if (v->kind != PV_BYTES || v->size != 16)
			goto mismatch;
		*out = simple(r->p, DECODE_IPV6);
		return 0;
	case DECODE_KSYM:
	case DECODE_USYM:
		if (v->stack || !(v->kind == PV_PTR || (v->kind == PV_INT && v->size == 8)))
			goto mismatch;
		*out = simple(r->p, fn);
		return 0;
	default:
		break;
	}
	if (v->kind != PV_INT)
		goto mismatch;
	switch (fn) {
	case DECODE_SYSCALL: {
		bool numbers = false;

		*out = syscalls(r, loc, off, &numbers);
		if (numbers)
			return 0;	/* no table: numbers, warned */
		break;
	}
	case DECODE_SYMBOLIC:
		*out = kernel_enum(r, enum_name, loc, name_off);
		break;
	case DECODE_OPEN_FLAGS:
	case DECODE_MOUNT_FLAGS:
		*out = flag_names(r, fn, loc, off);
		break;
	default:
		if (decode_kinds[fn].number)
			*out = simple(r->p, fn);	/* errno(), signal(), ...: any number */
		break;
	}
	return *out ? 0 : -EINVAL;
mismatch:
	spec_error(r->p->spec, loc, off, "%s() needs %s, and the value is %s", decode_kinds[fn].fn,
		   fn == DECODE_IPV4 ? "4 bytes (__u8[4]) or a 4-byte number (__be32)" :
		   fn == DECODE_IPV6 ? "16 bytes (__u8[16])" :
		   fn == DECODE_KSYM || fn == DECODE_USYM ? "an address (a pointer, or an 8-byte number)" :
		   "a number",
		   v->kind == PV_STR ? "a string" : v->kind == PV_PTR ? "a pointer" :
		   v->kind == PV_BYTES ? "bytes" : v->stack ? "a stack" : "a number of another size");
	return -EINVAL;
}

const struct decode *const *decodes_all(const struct prog *p, int *nr)
{
	*nr = p->decodes ? p->decodes->nr : 0;
	return p->decodes ? (const struct decode *const *)p->decodes->v : NULL;
}

void decodes_clear(struct prog *p)
{
	struct decodes *d = p->decodes;

	if (!d)
		return;
	for (int i = 0; i < d->nr; i++) {
		struct decode *dc = d->v[i];

		for (int k = 0; k < dc->nr_syms; k++)
			free(dc->syms[k].name);
		free(dc->syms);
		free(dc->ident);
		free(dc->table);
		free(dc->value_fn);
		free(dc->source);
		free(dc->sep);
		free(dc->zero_name);
		free(dc->value_c);
		free(dc);
		free(d->keys[i]);
	}
	free(d->v);
	free(d->keys);
	if (d->pf)
		for (int i = 0; i < p->evs->nr; i++)
			printfmt_clear(&d->pf[i]);
	free(d->pf);
	free(d->pf_read);
	pf_btf_free(d->pfb);
	free(d);
	p->decodes = NULL;
}

/* Does an item of 'it' show a value with syscall()? */
static bool items_show_syscall(const struct spec_items *it)
{
	const char *fn = decode_kinds[DECODE_SYSCALL].fn;
	size_t n = strlen(fn);

	for (int i = 0; i < it->nr; i++) {
		const char *s = it->v[i].expr.s + strspn(it->v[i].expr.s, " \t");

		if (!strncmp(s, fn, n) && s[n + strspn(s + n, " \t")] == '(')
			return true;
	}
	return false;
}

static bool probe_shows_syscall(const struct spec_probe *sp)
{
	if (items_show_syscall(&sp->print))
		return true;
	for (int i = 0; i < sp->nr_aggs; i++)
		if (items_show_syscall(&sp->aggs[i].by))
			return true;
	return false;
}

bool decode_wants_sysnames(const struct spec *s)
{
	for (int i = 0; i < s->nr_events; i++)
		if (probe_shows_syscall(&s->events[i]))
			return true;
	for (int i = 0; i < s->nr_lats; i++)
		if (probe_shows_syscall(&s->lats[i].from) || probe_shows_syscall(&s->lats[i].to))
			return true;
	return false;
}
