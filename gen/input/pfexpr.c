// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Expressions of "print fmt:" lines parsed into a tree. See pfexpr.h.
 *
 * Types follow C on an LP64 target (long is env->long_bits wide): integer
 * literals take the first of int, unsigned int, long, ... that holds them;
 * plain char is unsigned (the kernel builds with -funsigned-char); casts
 * to typedefs nobody resolves keep the value.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/limits.h"
#include "input/pfexpr.h"

static const struct pf_type t_int = { 32, true }, t_uint = { 32, false };

static unsigned char long_bits(const struct pf_env *env)
{
	return env && env->long_bits ? env->long_bits : 64;
}

/* A literal's value and type: C's rules for suffixes, decimal and hex/octal. */
static int parse_number(const char *s, unsigned int len, const struct pf_env *env, struct pf_val *out)
{
	unsigned char lb = long_bits(env);
	unsigned long long v = 0;
	bool dec, u = false;
	unsigned int i = 0;
	int l = 0, base = 10, d;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (len > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
		base = 2;
		i = 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	dec = base == 10;
	for (; i < len && isxdigit((unsigned char)s[i]); i++) {
		d = isdigit((unsigned char)s[i]) ? s[i] - '0' : tolower(s[i]) - 'a' + 10;
		if (d >= base) {
			if (base == 16)
				break;
			return -EINVAL;
		}
		if (v > (ULLONG_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if ((base == 16 || base == 2) && i == 2)
		return -EINVAL;
	for (; i < len; i++) {
		if ((s[i] == 'u' || s[i] == 'U') && !u)
			u = true;
		else if ((s[i] == 'l' || s[i] == 'L') && !l)
			l = i + 1 < len && s[i + 1] == s[i] ? (i++, 2) : 1;
		else
			return -EINVAL;
	}
	{
		/* candidates in C's order; the first that holds v */
		struct pf_type c[6];
		int n = 0, k;

		if (!l) {
			c[n++] = t_int;
			if (!dec || u)
				c[n++] = t_uint;
		}
		if (l <= 1) {
			c[n++] = (struct pf_type){ lb, true };
			if (!dec || u)
				c[n++] = (struct pf_type){ lb, false };
		}
		c[n++] = (struct pf_type){ 64, true };
		if (!dec || u)
			c[n++] = (struct pf_type){ 64, false };
		for (k = 0; k < n; k++) {
			struct pf_type t = c[k];
			unsigned long long max;

			if (u && t.is_signed)
				continue;
			max = t.bits >= 64 ? (t.is_signed ? LLONG_MAX : ULLONG_MAX) :
			      (1ULL << (t.bits - t.is_signed)) - 1;
			if (v <= max) {
				*out = pf_val_make(v, t);
				return 0;
			}
		}
		/* a decimal too large for long long: unsigned, as compilers do */
		*out = pf_val_make(v, (struct pf_type){ 64, false });
		return 0;
	}
}
/* the parser */

struct parser {
	const struct pf_toks *toks;
	const struct pf_env *env;
	int i;
	int depth;
	unsigned int err_pos;
	const char *err_msg;
};

static struct pf_node *node(enum pf_node_kind kind, unsigned int pos)
{
	struct pf_node *n = xcalloc(1, sizeof(*n));

	n->kind = kind;
	n->pos = pos;
	return n;
}

void pf_node_free(struct pf_node *n)
{
	if (!n)
		return;
	pf_node_free(n->a);
	pf_node_free(n->b);
	pf_node_free(n->c);
	free(n->name);
	free(n);
}

static struct pf_node *fail(struct parser *p, int i, const char *msg)
{
	if (!p->err_msg) {
		p->err_pos = p->toks->t[i < p->toks->nr ? i : p->toks->nr - 1].pos;
		p->err_msg = msg;
	}
	return NULL;
}

static const struct pf_tok *tok(struct parser *p)
{
	return &p->toks->t[p->i];
}

static bool is(struct parser *p, int punct)
{
	return pf_tok_is(p->toks, p->i, punct);
}

/* Standard and kernel fixed-width type names. */
static bool builtin_type(const char *w, unsigned char lb, struct pf_type *t)
{
	static const struct { const char *name; unsigned char bits; bool is_signed; } names[] = {
		{ "u8", 8, false }, { "u16", 16, false }, { "u32", 32, false }, { "u64", 64, false },
		{ "s8", 8, true }, { "s16", 16, true }, { "s32", 32, true }, { "s64", 64, true },
		{ "__u8", 8, false }, { "__u16", 16, false }, { "__u32", 32, false }, { "__u64", 64, false },
		{ "__s8", 8, true }, { "__s16", 16, true }, { "__s32", 32, true }, { "__s64", 64, true },
		{ "uint8_t", 8, false }, { "uint16_t", 16, false }, { "uint32_t", 32, false },
		{ "uint64_t", 64, false }, { "int8_t", 8, true }, { "int16_t", 16, true },
		{ "int32_t", 32, true }, { "int64_t", 64, true },
		{ "__be16", 16, false }, { "__be32", 32, false }, { "__be64", 64, false },
		{ "__le16", 16, false }, { "__le32", 32, false }, { "__le64", 64, false },
		{ "size_t", 0, false }, { "ssize_t", 0, true }, { "uintptr_t", 0, false },
		{ "intptr_t", 0, true }, { "ptrdiff_t", 0, true },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(w, names[i].name)) {
			t->bits = names[i].bits ? names[i].bits : lb;
			t->is_signed = names[i].is_signed;
			return true;
		}
	}
	return false;
}

static bool type_word(const char *w)
{
	static const char *const words[] = {
		"unsigned", "signed", "char", "short", "int", "long", "void", "_Bool", "bool",
		"struct", "union", "enum", "const", "volatile",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcmp(w, words[i]))
			return true;
	return false;
}

/*
 * At '(' (token i): is this a cast? Returns the index of its ')' and the
 * type, or 0. 'name' gets the type as written.
 */
static int cast_at(struct parser *p, int i, struct pf_type *t, char **name)
{
	const struct pf_toks *toks = p->toks;
	unsigned char lb = long_bits(p->env);
	int j, words = 0, longs = 0;
	bool star = false, known = false, sign_set = false, is_signed = true, tagged = false;
	bool is_char = false, is_short = false, is_bool = false, is_void = false;
	struct pf_type named = {};
	struct strbuf sb;
	const struct pf_tok *next;

	for (j = i + 1; j < toks->nr; j++) {
		const struct pf_tok *k = &toks->t[j];

		if (k->kind == PF_TOK_IDENT)
			words++;
		else if (pf_tok_is(toks, j, '*'))
			star = true;
		else
			break;
	}
	if (!words || !pf_tok_is(toks, j, ')'))
		return 0;
	sb_init(&sb);
	for (int k = i + 1; k < j; k++) {
		char *w = pf_tok_strdup(toks, k);

		if (sb.len)
			sb_putc(&sb, ' ');
		sb_puts(&sb, w);
		if (!strcmp(w, "unsigned") || !strcmp(w, "signed")) {
			sign_set = true;
			is_signed = w[0] == 's';
			known = true;
		} else if (!strcmp(w, "long")) {
			longs++;
			known = true;
		} else if (!strcmp(w, "char")) {
			is_char = known = true;
		} else if (!strcmp(w, "short")) {
			is_short = known = true;
		} else if (!strcmp(w, "_Bool") || !strcmp(w, "bool")) {
			is_bool = known = true;
		} else if (!strcmp(w, "void")) {
			is_void = known = true;
		} else if (!strcmp(w, "struct") || !strcmp(w, "union") || !strcmp(w, "enum")) {
			tagged = known = true;
			if (w[0] == 'e')
				named = t_uint;
		} else if (type_word(w)) {
			known = true;	/* int, const, volatile */
		} else if (!tagged && !named.bits) {
			if (builtin_type(w, lb, &named) ||
			    (p->env && p->env->type_info && !p->env->type_info(p->env->ctx, w, &named)))
				known = true;
			else if (words > 1)
				known = true;	/* "foo_t const": a type nobody knows */
		}
		free(w);
	}
	*name = sb_steal(&sb);
	next = &toks->t[j + 1];
	if (!known && !star) {
		/* one unknown word: an enum constant in parentheses, or a typedef'd cast */
		struct pf_val v;
		char *w = pf_tok_strdup(toks, i + 1);
		bool is_const = p->env && p->env->enum_value && !p->env->enum_value(p->env->ctx, w, &v);

		free(w);
		if (is_const || !(next->kind == PF_TOK_NUM || next->kind == PF_TOK_IDENT ||
				  next->kind == PF_TOK_CHAR || pf_tok_is(toks, j + 1, '(') ||
				  pf_tok_is(toks, j + 1, '~') || pf_tok_is(toks, j + 1, '!'))) {
			free(*name);
			*name = NULL;
			return 0;
		}
	}
	if (star)
		*t = (struct pf_type){ lb, false };
	else if (is_bool)
		*t = (struct pf_type){ 1, false };
	else if (is_void || (tagged && !named.bits))
		*t = (struct pf_type){ 0, false };	/* no integer conversion we know */
	else if (named.bits)
		*t = named;
	else if (is_char)
		*t = (struct pf_type){ 8, sign_set && is_signed };
	else if (is_short)
		*t = (struct pf_type){ 16, is_signed };
	else if (longs)
		*t = (struct pf_type){ longs > 1 ? 64 : lb, is_signed };
	else if (known)
		*t = (struct pf_type){ 32, is_signed };
	else
		*t = (struct pf_type){ 0, false };	/* a typedef nobody resolved: value kept */
	return j;
}

static struct pf_node *parse_cond(struct parser *p);

static struct pf_node *parse_unary(struct parser *p)
{
	const struct pf_tok *t = tok(p);
	struct pf_node *n = NULL, *a;
	struct pf_type type;
	char *name = NULL;
	int j;

	if (++p->depth > PF_MAX_DEPTH)
		return fail(p, p->i, "expression nested too deeply");
	if (is(p, '-') || is(p, '+') || is(p, '~') || is(p, '!')) {
		int op = t->punct;

		p->i++;
		a = parse_unary(p);
		if (a) {
			n = node(PF_UNARY, t->pos);
			n->op = op;
			n->a = a;
		}
	} else if (is(p, '(') && (j = cast_at(p, p->i, &type, &name))) {
		p->i = j + 1;
		a = parse_unary(p);
		if (a) {
			n = node(PF_CAST, t->pos);
			n->type = type;
			n->name = name;
			name = NULL;
			n->a = a;
		}
		free(name);
	} else if (is(p, '(')) {
		p->i++;
		n = parse_cond(p);
		if (n && !is(p, ')')) {
			pf_node_free(n);
			n = fail(p, p->i, "expected ')'");
		} else if (n) {
			p->i++;
		}
	} else if (t->kind == PF_TOK_NUM) {
		n = node(PF_NUM, t->pos);
		if (parse_number(p->toks->text + t->pos, t->len, p->env, &n->num)) {
			pf_node_free(n);
			n = fail(p, p->i, "bad number");
		} else {
			p->i++;
		}
	} else if (t->kind == PF_TOK_CHAR) {
		const char *s = p->toks->text + t->pos + 1;
		int c = (unsigned char)*s++;

		if (c == '\\')
			c = pf_unescape(&s);
		if (c < 0 || s != p->toks->text + t->pos + t->len - 1)
			return fail(p, p->i, "bad character constant");
		n = node(PF_NUM, t->pos);
		n->num = pf_val_make(c, t_int);
		p->i++;
	} else if (pf_tok_ident(p->toks, p->i, "REC") && pf_tok_is(p->toks, p->i + 1, PF_ARROW) &&
		   p->toks->t[p->i + 2].kind == PF_TOK_IDENT) {
		n = node(PF_FIELD, t->pos);
		n->name = pf_tok_strdup(p->toks, p->i + 2);
		p->i += 3;
	} else if (t->kind == PF_TOK_IDENT) {
		struct pf_val v;

		name = pf_tok_strdup(p->toks, p->i);
		if (pf_tok_is(p->toks, p->i + 1, '(') || pf_tok_is(p->toks, p->i + 1, PF_ARROW) ||
		    !strcmp(name, "sizeof")) {
			free(name);
			return fail(p, p->i, "a call, member or sizeof where a number was expected");
		}
		if (p->env && p->env->enum_value && !p->env->enum_value(p->env->ctx, name, &v)) {
			n = node(PF_NUM, t->pos);
			n->num = v;
			n->name = name;		/* kept for messages; the value is what counts */
		} else {
			n = node(PF_NAME, t->pos);
			n->name = name;
		}
		p->i++;
	} else {
		n = fail(p, p->i, "expected a number, a name or REC->field");
	}
	p->depth--;
	if (n && (is(p, '[') || is(p, '.') || is(p, PF_ARROW))) {
		pf_node_free(n);
		return fail(p, p->i, "arrays and members are not numbers tpgen can decode");
	}
	return n;
}

static int binary_prec(struct parser *p)
{
	const struct pf_tok *t = tok(p);

	if (t->kind != PF_TOK_PUNCT)
		return 0;
	switch (t->punct) {
	case PF_OROR: return 1;
	case PF_ANDAND: return 2;
	case '|': return 3;
	case '^': return 4;
	case '&': return 5;
	case PF_EQ: case PF_NE: return 6;
	case '<': case '>': case PF_LE: case PF_GE: return 7;
	case PF_SHL: case PF_SHR: return 8;
	case '+': case '-': return 9;
	case '*': case '/': case '%': return 10;
	default: return 0;
	}
}

static struct pf_node *parse_binary(struct parser *p, int min_prec)
{
	struct pf_node *left = parse_unary(p);
	int prec;

	while (left && (prec = binary_prec(p)) >= min_prec) {
		const struct pf_tok *t = tok(p);
		struct pf_node *right, *n;

		p->i++;
		if (++p->depth > PF_MAX_DEPTH) {
			pf_node_free(left);
			return fail(p, p->i, "expression nested too deeply");
		}
		right = parse_binary(p, prec + 1);
		p->depth--;
		if (!right) {
			pf_node_free(left);
			return NULL;
		}
		n = node(PF_BINARY, t->pos);
		n->op = t->punct;
		n->a = left;
		n->b = right;
		left = n;
	}
	return left;
}

static struct pf_node *parse_cond(struct parser *p)
{
	struct pf_node *c = parse_binary(p, 1), *n;
	unsigned int pos;

	if (!c || !is(p, '?'))
		return c;
	pos = tok(p)->pos;
	p->i++;
	if (++p->depth > PF_MAX_DEPTH) {
		pf_node_free(c);
		return fail(p, p->i, "expression nested too deeply");
	}
	n = node(PF_COND, pos);
	n->a = c;
	n->b = parse_cond(p);
	if (n->b && !is(p, ':')) {
		pf_node_free(n);
		return fail(p, p->i, "expected ':'");
	}
	if (n->b) {
		p->i++;
		n->c = parse_cond(p);
	}
	p->depth--;
	if (!n->b || !n->c) {
		pf_node_free(n);
		return NULL;
	}
	return n;
}

int pf_parse_expr(const struct pf_toks *toks, int *i, const struct pf_env *env,
		  struct pf_node **out, unsigned int *err_pos, const char **err_msg)
{
	struct parser p = { .toks = toks, .env = env, .i = *i };

	*out = parse_cond(&p);
	if (!*out) {
		*err_pos = p.err_pos;
		*err_msg = p.err_msg ? p.err_msg : "bad expression";
		return -EINVAL;
	}
	*i = p.i;
	return 0;
}
