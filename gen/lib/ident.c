// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Names from outside, checked once where they are read (see ident.h):
 * tracefs directory names, release lines and BTF names; and the two ways
 * tpgen shows text it did not write -- quoted in a diagnostic, or passed to
 * a terminal.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "lib/limits.h"
#include "lib/ident.h"
#include "lib/util.h"

#define C_ALPHA	1	/* [A-Za-z_] */
#define C_DIGIT	2	/* [0-9] */

static const unsigned char c_class[256] = {
	['A' ... 'Z'] = C_ALPHA, ['a' ... 'z'] = C_ALPHA, ['_'] = C_ALPHA, ['0' ... '9'] = C_DIGIT,
};

static bool is_alpha_(unsigned char c)
{
	return c_class[c] == C_ALPHA;
}

static bool is_alnum_(unsigned char c)
{
	return c_class[c];
}

bool ident_is_c(const char *s)
{
	if (!is_alpha_(*s))
		return false;
	while (*++s)
		if (!is_alnum_(*s))
			return false;
	return true;
}

bool ident_is_reserved(const char *s)
{
	return !strncmp(s, "__tpgen", 7) || !strncmp(s, "__TPGEN", 7);
}

/* Sorted: C11 keywords and GNU C's asm and typeof. */
static const char *const keywords[] = {
	"_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary",
	"_Noreturn", "_Static_assert", "_Thread_local", "asm", "auto", "break",
	"case", "char", "const", "continue", "default", "do", "double", "else", "enum",
	"extern", "float", "for", "goto", "if", "inline", "int", "long",
	"register", "restrict", "return", "short", "signed", "sizeof", "static",
	"struct", "switch", "typedef", "typeof", "union", "unsigned", "void",
	"volatile", "while",
};

bool ident_is_keyword(const char *s)
{
	size_t lo = 0, hi = ARRAY_SIZE(keywords);

	/* a binary search that compares first bytes before calling strcmp() */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *k = keywords[mid];
		int c = (unsigned char)*s - (unsigned char)*k;

		if (!c)
			c = strcmp(s, k);
		if (!c)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

const char *ident_tracefs_name(const char *s)
{
	if (!*s)
		return "is empty";
	if (!is_alpha_(*s))
		return "does not start with a letter or '_'";
	for (; *s; s++)
		if (!is_alnum_(*s) && *s != '.' && *s != '-')
			return "has a byte other than letters, digits, '_', '.' and '-'";
	return NULL;
}

char *ident_from_tracefs(const char *s)
{
	char *p = xstrdup(s), *q;

	for (q = p; *q; q++)
		if (*q == '.' || *q == '-')
			*q = '_';
	return p;
}

const char *ident_release(const char *s, int *col)
{
	const char *p;

	*col = 1;
	if (!*s)
		return "the release is empty";
	for (p = s; *p; p++) {
		if (!is_alnum_(*p) && !strchr(".+-~:", *p)) {
			*col = p - s + 1;
			return "only letters, digits and . _ + - ~ : may be in a kernel release (as uname -r prints it)";
		}
	}
	if (p - s > RELEASE_MAX) {
		*col = RELEASE_MAX + 1;
		return "a kernel release is at most 64 characters";
	}
	return NULL;
}

void ident_quote(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	sb_putc(sb, '\'');
	for (; *p; p++) {
		switch (*p) {
		case '\'': sb_puts(sb, "\\'"); break;
		case '\\': sb_puts(sb, "\\\\"); break;
		case '\n': sb_puts(sb, "\\n"); break;
		case '\t': sb_puts(sb, "\\t"); break;
		case '\r': sb_puts(sb, "\\r"); break;
		default:
			if (*p < 0x20 || *p >= 0x7f)
				sb_printf(sb, "\\x%02x", *p);
			else
				sb_putc(sb, *p);
		}
	}
	sb_putc(sb, '\'');
}

char *ident_quoted(const char *s)
{
	struct strbuf sb;

	sb_init(&sb);
	ident_quote(&sb, s);
	return sb_steal(&sb);
}

/* ---- BTF ------------------------------------------------------------------ */

static const char *const kind_names[] = {
	[BTF_KIND_INT] = "INT", [BTF_KIND_PTR] = "PTR", [BTF_KIND_ARRAY] = "ARRAY",
	[BTF_KIND_STRUCT] = "STRUCT", [BTF_KIND_UNION] = "UNION", [BTF_KIND_ENUM] = "ENUM",
	[BTF_KIND_FWD] = "FWD", [BTF_KIND_TYPEDEF] = "TYPEDEF", [BTF_KIND_VOLATILE] = "VOLATILE",
	[BTF_KIND_CONST] = "CONST", [BTF_KIND_RESTRICT] = "RESTRICT", [BTF_KIND_FUNC] = "FUNC",
	[BTF_KIND_FUNC_PROTO] = "FUNC_PROTO", [BTF_KIND_VAR] = "VAR", [BTF_KIND_DATASEC] = "DATASEC",
	[BTF_KIND_FLOAT] = "FLOAT", [BTF_KIND_DECL_TAG] = "DECL_TAG", [BTF_KIND_TYPE_TAG] = "TYPE_TAG",
	[BTF_KIND_ENUM64] = "ENUM64",
};

static const char *kind_name(const struct btf_type *t)
{
	unsigned int k = btf_kind(t);

	return k < ARRAY_SIZE(kind_names) && kind_names[k] ? kind_names[k] : "UNKNOWN";
}

enum name_rule {
	NAME_IDENT,		/* a C identifier, or empty */
	NAME_TYPE,		/* a C identifier that is no keyword and not tpgen's, or empty */
	NAME_WORDS,		/* "long unsigned int" */
	NAME_TAG,		/* "user", "address_space(1)" */
};

static const char *name_why(const char *s, enum name_rule rule)
{
	const char *p;

	if (!*s)
		return NULL;
	switch (rule) {
	case NAME_IDENT:
		return ident_is_c(s) ? NULL : "not a C identifier";
	case NAME_TYPE:
		if (!ident_is_c(s))
			return "not a C identifier";
		if (ident_is_keyword(s))
			return "a C keyword";
		return ident_is_reserved(s) ? "a name tpgen reserves for itself" : NULL;
	case NAME_WORDS:
		for (p = s; *p; p++)
			if (!is_alnum_(*p) && !(*p == ' ' && p > s && p[-1] != ' ' && p[1]))
				return "not a C type name";
		return NULL;
	case NAME_TAG:
		for (p = s; *p; p++)
			if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f || strchr("\"\\*/", *p))
				return "not a tag a C attribute can carry";
		return NULL;
	}
	return NULL;
}

struct btf_names {
	const struct btf *btf;
	const char *path;
	unsigned char *ok;	/* a bit per string offset: a C identifier starts there */
	__u32 str_len;		/* the offsets ok covers */
};

static bool has_ok(const struct btf_names *c, __u32 off)
{
	return off < c->str_len && (c->ok[off / 8] & (1 << (off % 8)));
}

static void set_ok(struct btf_names *c, __u32 off)
{
	if (off < c->str_len)
		c->ok[off / 8] |= 1 << (off % 8);
}

/*
 * Mark every string of this BTF's own section (offsets from 'first' on: a
 * split BTF's follow its base's) that is a C identifier, in one pass over
 * the section: a name is then checked by one bit, however many types share
 * it. An offset into the middle of a string, or into the base, is checked
 * when it is met (check_name()).
 */
static void mark_idents(struct btf_names *c, const char *strs, __u32 len, __u32 first)
{
	const char *p = strs, *end = strs + len, *s;

	if (!len || strs[len - 1])
		return;		/* libbpf refuses a section that does not end with a NUL */
	while (p < end) {
		s = p;
		if (is_alpha_(*p)) {
			while (is_alnum_(*++p))
				;
			if (!*p)
				set_ok(c, first + (s - strs));
		}
		while (*p)
			p++;
		p++;
	}
}

static int check_name_at(struct btf_names *c, __u32 id, const struct btf_type *t, const char *what,
			 int idx, __u32 off, enum name_rule rule)
{
	const char *name, *why;
	char *q;

	name = btf__name_by_offset(c->btf, off);
	if (!name) {
		diag_error(c->path, 0, 0, "malformed BTF: type [%u] has a name past the strings (-EINVAL)", id);
		return -EINVAL;
	}
	if (rule == NAME_TYPE && has_ok(c, off))	/* an identifier: a keyword, or tpgen's? */
		why = ident_is_keyword(name) ? "a C keyword" :
		      ident_is_reserved(name) ? "a name tpgen reserves for itself" : NULL;
	else
		why = name_why(name, rule);
	if (!why) {
		if (rule == NAME_IDENT)
			set_ok(c, off);
		return 0;
	}
	q = ident_quoted(name);
	if (what)
		diag_error(c->path, 0, 0, "malformed BTF: type [%u] %s %s %d is named %s: %s (-EINVAL)",
			   id, kind_name(t), what, idx, q, why);
	else
		diag_error(c->path, 0, 0, "malformed BTF: type [%u] %s is named %s: %s (-EINVAL)",
			   id, kind_name(t), q, why);
	free(q);
	return -EINVAL;
}

/* Name 'off' of type 'id' (member, value or parameter 'idx' of it: 'what') follows 'rule'. */
static inline int check_name(struct btf_names *c, __u32 id, const struct btf_type *t, const char *what,
			     int idx, __u32 off, enum name_rule rule)
{
	if (!off || (rule == NAME_IDENT && has_ok(c, off)))
		return 0;
	return check_name_at(c, id, t, what, idx, off, rule);
}

static int check_tp_name(struct btf_names *c, __u32 id, const char *name)
{
	const char *why = name[10] ? name_why(name + 10, NAME_TYPE) : NULL;
	char *q;

	if (!why)
		return 0;
	q = ident_quoted(name + 10);
	diag_error(c->path, 0, 0, "malformed BTF: type [%u] TYPEDEF btf_trace_%s: the tracepoint name %s is %s "
		   "(-EINVAL)", id, name + 10, q, why);
	free(q);
	return -EINVAL;
}

int ident_check_btf(const struct btf *btf, const char *path)
{
	struct btf_names c = { .btf = btf, .path = path };
	const struct btf *base = btf__base_btf(btf);
	__u32 n = btf__type_cnt(btf), id, sz, base_sz, first = 0;
	const struct btf_header *hdr;
	const void *raw, *base_raw;
	int err = 0, i;

	raw = btf__raw_data(btf, &sz);
	hdr = raw && sz >= sizeof(*hdr) ? raw : NULL;
	if (hdr && base && (base_raw = btf__raw_data(base, &base_sz)) && base_sz >= sizeof(*hdr))
		first = ((const struct btf_header *)base_raw)->str_len;
	else if (base)
		hdr = NULL;	/* no base header: names are checked one by one */
	c.str_len = hdr ? first + hdr->str_len : 0;
	c.ok = xcalloc(c.str_len / 8 + 1, 1);
	/* the header's section bounds, as libbpf checked them when it parsed */
	if (hdr && (__u64)hdr->hdr_len + hdr->str_off + hdr->str_len <= sz)
		mark_idents(&c, (const char *)raw + hdr->hdr_len + hdr->str_off, hdr->str_len, first);
	for (id = 1; id < n && !err; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		switch (btf_kind(t)) {
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			err = check_name(&c, id, t, NULL, 0, t->name_off, NAME_TYPE);
			for (i = 0; !err && i < btf_vlen(t); i++)
				err = check_name(&c, id, t, "member", i, btf_members(t)[i].name_off, NAME_IDENT);
			break;
		case BTF_KIND_ENUM:
			err = check_name(&c, id, t, NULL, 0, t->name_off, NAME_TYPE);
			for (i = 0; !err && i < btf_vlen(t); i++)
				err = check_name(&c, id, t, "value", i, btf_enum(t)[i].name_off, NAME_IDENT);
			break;
		case BTF_KIND_ENUM64:
			err = check_name(&c, id, t, NULL, 0, t->name_off, NAME_TYPE);
			for (i = 0; !err && i < btf_vlen(t); i++)
				err = check_name(&c, id, t, "value", i, btf_enum64(t)[i].name_off, NAME_IDENT);
			break;
		case BTF_KIND_FWD:
			err = check_name(&c, id, t, NULL, 0, t->name_off, NAME_TYPE);
			break;
		case BTF_KIND_TYPEDEF:
			err = check_name(&c, id, t, NULL, 0, t->name_off, NAME_TYPE);
			/* btf_trace_<tp>: <tp> names structs and macros (<tp>_raw_args, TP_BTF_<tp>) */
			if (!err && !strncmp(btf__name_by_offset(btf, t->name_off) ?: "", "btf_trace_", 10))
				err = check_tp_name(&c, id, btf__name_by_offset(btf, t->name_off));
			break;
		case BTF_KIND_FUNC:
			err = check_name(&c, id, t, NULL, 0, t->name_off, NAME_IDENT);
			break;
		case BTF_KIND_FUNC_PROTO:
			for (i = 0; !err && i < btf_vlen(t); i++)
				err = check_name(&c, id, t, "parameter", i, btf_params(t)[i].name_off, NAME_IDENT);
			break;
		case BTF_KIND_INT:
		case BTF_KIND_FLOAT:
			err = check_name(&c, id, t, NULL, 0, t->name_off, NAME_WORDS);
			break;
		case BTF_KIND_TYPE_TAG:
		case BTF_KIND_DECL_TAG:
			err = check_name(&c, id, t, NULL, 0, t->name_off, NAME_TAG);
			break;
		default:	/* VAR, DATASEC (".data..percpu"): never printed */
			break;
		}
	}
	free(c.ok);
	return err;
}
