// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Expressions of "print fmt:" lines: tokens, a tree, C's integer arithmetic
 * and C text. See pfexpr.h.
 *
 * Types follow C on an LP64 target (long is env->long_bits wide): integer
 * literals take the first of int, unsigned int, long, ... that holds them,
 * operands are promoted and converted as C does, plain char is unsigned
 * (the kernel builds with -funsigned-char) and arithmetic wraps (-fwrapv).
 * What C leaves undefined and the kernel could not have compiled (division
 * by zero, a shift by the width or more) is an error.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pfexpr.h"

#define PF_MAX_DEPTH	64	/* nesting of parentheses and operators */

/* tokens */

static int punct2(char a, char b)
{
	static const struct { char a, b; int code; } two[] = {
		{ '-', '>', PF_ARROW }, { '<', '<', PF_SHL }, { '>', '>', PF_SHR },
		{ '<', '=', PF_LE }, { '>', '=', PF_GE }, { '=', '=', PF_EQ },
		{ '!', '=', PF_NE }, { '&', '&', PF_ANDAND }, { '|', '|', PF_OROR },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(two); i++)
		if (two[i].a == a && two[i].b == b)
			return two[i].code;
	return 0;
}

int pf_tokenize(const char *text, struct pf_toks *toks, unsigned int *bad)
{
	const char *p = text;
	int cap = 0;

	memset(toks, 0, sizeof(*toks));
	toks->text = text;
	for (;;) {
		struct pf_tok tok = {};

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		tok.pos = p - text;
		if (!*p) {
			tok.kind = PF_TOK_END;
		} else if (isdigit((unsigned char)*p)) {
			tok.kind = PF_TOK_NUM;
			while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
				p++;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			tok.kind = PF_TOK_IDENT;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
		} else if (*p == '"' || *p == '\'') {
			char q = *p++;

			tok.kind = q == '"' ? PF_TOK_STR : PF_TOK_CHAR;
			while (*p && *p != q) {
				if (*p == '\\' && p[1])
					p++;
				p++;
			}
			if (!*p) {
				*bad = tok.pos;
				pf_toks_free(toks);
				return -EINVAL;
			}
			p++;
		} else if (strchr("+-*/%<>=!&|^~?:,(){}[].;", *p)) {
			tok.kind = PF_TOK_PUNCT;
			tok.punct = punct2(p[0], p[1]);
			if (tok.punct) {
				p += 2;
			} else {
				tok.punct = (unsigned char)*p;
				p++;
			}
		} else {
			*bad = tok.pos;
			pf_toks_free(toks);
			return -EINVAL;
		}
		tok.len = (p - text) - tok.pos;
		if (toks->nr == cap) {
			cap = cap ? cap * 2 : 64;
			toks->t = xrealloc(toks->t, cap * sizeof(*toks->t));
		}
		toks->t[toks->nr++] = tok;
		if (tok.kind == PF_TOK_END)
			return 0;
	}
}

void pf_toks_free(struct pf_toks *toks)
{
	free(toks->t);
	toks->t = NULL;
	toks->nr = 0;
}

bool pf_tok_is(const struct pf_toks *toks, int i, int punct)
{
	return i < toks->nr && toks->t[i].kind == PF_TOK_PUNCT && toks->t[i].punct == punct;
}

bool pf_tok_ident(const struct pf_toks *toks, int i, const char *name)
{
	const struct pf_tok *t;

	if (i >= toks->nr)
		return false;
	t = &toks->t[i];
	return t->kind == PF_TOK_IDENT && strlen(name) == t->len &&
	       !strncmp(toks->text + t->pos, name, t->len);
}

static char *tok_strdup(const struct pf_toks *toks, int i)
{
	return xstrndup(toks->text + toks->t[i].pos, toks->t[i].len);
}

/* One escape after the backslash at *p; advances *p. Returns the byte, or -1. */
static int unescape(const char **p)
{
	static const char from[] = "ntrabfv\\'\"?", to[] = "\n\t\r\a\b\f\v\\'\"?";
	const char *s = *p, *c;
	int v = 0, n;

	if (*s && (c = strchr(from, *s))) {
		*p = s + 1;
		return to[c - from];
	}
	if (*s >= '0' && *s <= '7') {
		for (n = 0; n < 3 && *s >= '0' && *s <= '7'; n++, s++)
			v = v * 8 + (*s - '0');
		*p = s;
		return v > 255 ? -1 : v;
	}
	if (*s == 'x' && isxdigit((unsigned char)s[1])) {
		for (s++, n = 0; isxdigit((unsigned char)*s); s++, n++) {
			v = v * 16 + (isdigit((unsigned char)*s) ? *s - '0' : (tolower(*s) - 'a' + 10));
			if (v > 255)
				return -1;
		}
		*p = s;
		return v;
	}
	return -1;
}

char *pf_tok_string(const struct pf_toks *toks, int i, int *next)
{
	struct strbuf sb;

	sb_init(&sb);
	for (; i < toks->nr && toks->t[i].kind == PF_TOK_STR; i++) {
		const char *s = toks->text + toks->t[i].pos + 1;
		const char *end = toks->text + toks->t[i].pos + toks->t[i].len - 1;

		while (s < end) {
			int c = (unsigned char)*s++;

			if (c == '\\') {
				c = unescape(&s);
				if (c <= 0) {		/* malformed, or a NUL inside */
					sb_free(&sb);
					return NULL;
				}
			}
			sb_putc(&sb, c);
		}
	}
	if (next)
		*next = i;
	return sb_steal(&sb);
}

/* types and values */

static const struct pf_type t_int = { 32, true }, t_uint = { 32, false };

static unsigned char long_bits(const struct pf_env *env)
{
	return env && env->long_bits ? env->long_bits : 64;
}

static unsigned long long convert(unsigned long long v, struct pf_type t)
{
	if (t.bits == 1)
		return v != 0;
	if (t.bits == 0 || t.bits >= 64)
		return v;
	v &= (1ULL << t.bits) - 1;
	if (t.is_signed && (v >> (t.bits - 1)))
		v |= ~0ULL << t.bits;
	return v;
}

static struct pf_val mkval(unsigned long long v, struct pf_type t)
{
	return (struct pf_val){ convert(v, t), t };
}

struct pf_val pf_field_val(unsigned long long raw, unsigned int size, bool is_signed)
{
	struct pf_type t = { size >= 8 ? 64 : size * 8, is_signed };

	return mkval(raw, t);
}

static struct pf_val promote(struct pf_val a)
{
	if (a.type.bits < 32)
		return mkval(a.v, t_int);
	return a;
}

static struct pf_type common(struct pf_type a, struct pf_type b)
{
	struct pf_type u, s;

	if (a.is_signed == b.is_signed)
		return a.bits >= b.bits ? a : b;
	u = a.is_signed ? b : a;
	s = a.is_signed ? a : b;
	return u.bits >= s.bits ? u : s;
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
				*out = mkval(v, t);
				return 0;
			}
		}
		/* a decimal too large for long long: unsigned, as compilers do */
		*out = mkval(v, (struct pf_type){ 64, false });
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
		char *w = tok_strdup(toks, k);

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
		char *w = tok_strdup(toks, i + 1);
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
			c = unescape(&s);
		if (c < 0 || s != p->toks->text + t->pos + t->len - 1)
			return fail(p, p->i, "bad character constant");
		n = node(PF_NUM, t->pos);
		n->num = mkval(c, t_int);
		p->i++;
	} else if (pf_tok_ident(p->toks, p->i, "REC") && pf_tok_is(p->toks, p->i + 1, PF_ARROW) &&
		   p->toks->t[p->i + 2].kind == PF_TOK_IDENT) {
		n = node(PF_FIELD, t->pos);
		n->name = tok_strdup(p->toks, p->i + 2);
		p->i += 3;
	} else if (t->kind == PF_TOK_IDENT) {
		struct pf_val v;

		name = tok_strdup(p->toks, p->i);
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

/* evaluation */

struct evaluator {
	const struct pf_env *env;
	pf_field_fn field;
	void *ctx;
	unsigned int err_pos;
};

static int eval(struct evaluator *e, const struct pf_node *n, struct pf_val *out);

static int eval_binary(struct evaluator *e, const struct pf_node *n, struct pf_val *out)
{
	struct pf_val a, b;
	struct pf_type t;
	unsigned long long r;
	int err;

	err = eval(e, n->a, &a);
	if (err)
		return err;
	a = promote(a);
	if (n->op == PF_ANDAND || n->op == PF_OROR) {
		if ((n->op == PF_ANDAND) == !a.v) {
			*out = mkval(n->op == PF_OROR, t_int);
			return 0;
		}
		err = eval(e, n->b, &b);
		if (!err)
			*out = mkval(b.v != 0, t_int);
		return err;
	}
	err = eval(e, n->b, &b);
	if (err)
		return err;
	b = promote(b);
	if (n->op == PF_SHL || n->op == PF_SHR) {
		t = a.type;
		if ((b.type.is_signed && (long long)b.v < 0) || b.v >= t.bits) {
			e->err_pos = n->pos;
			return -EDOM;
		}
		if (n->op == PF_SHL)
			r = a.v << b.v;
		else if (t.is_signed)
			r = (unsigned long long)((long long)a.v >> b.v);
		else
			r = a.v >> b.v;
		*out = mkval(r, t);
		return 0;
	}
	t = common(a.type, b.type);
	a = mkval(a.v, t);
	b = mkval(b.v, t);
	switch (n->op) {
	case '*': r = a.v * b.v; break;
	case '/': case '%':
		if (!b.v || (t.is_signed && b.v == ~0ULL && a.v == convert(1ULL << (t.bits - 1), t))) {
			e->err_pos = n->pos;
			return -EDOM;
		}
		if (t.is_signed)
			r = n->op == '/' ? (unsigned long long)((long long)a.v / (long long)b.v) :
					   (unsigned long long)((long long)a.v % (long long)b.v);
		else
			r = n->op == '/' ? a.v / b.v : a.v % b.v;
		break;
	case '+': r = a.v + b.v; break;
	case '-': r = a.v - b.v; break;
	case '&': r = a.v & b.v; break;
	case '^': r = a.v ^ b.v; break;
	case '|': r = a.v | b.v; break;
	case PF_EQ: *out = mkval(a.v == b.v, t_int); return 0;
	case PF_NE: *out = mkval(a.v != b.v, t_int); return 0;
	case '<': case '>': case PF_LE: case PF_GE: {
		int c = t.is_signed ? ((long long)a.v > (long long)b.v) - ((long long)a.v < (long long)b.v) :
				      (a.v > b.v) - (a.v < b.v);

		r = n->op == '<' ? c < 0 : n->op == '>' ? c > 0 : n->op == PF_LE ? c <= 0 : c >= 0;
		*out = mkval(r, t_int);
		return 0;
	}
	default:
		e->err_pos = n->pos;
		return -EINVAL;
	}
	*out = mkval(r, t);
	return 0;
}

static int eval(struct evaluator *e, const struct pf_node *n, struct pf_val *out)
{
	struct pf_val a, b, c;
	int err;

	switch (n->kind) {
	case PF_NUM:
		*out = n->num;
		return 0;
	case PF_FIELD:
		if (!e->field || e->field(e->ctx, n->name, out)) {
			e->err_pos = n->pos;
			return -EINVAL;
		}
		return 0;
	case PF_NAME:
		if (e->env && e->env->enum_value && !e->env->enum_value(e->env->ctx, n->name, out))
			return 0;
		e->err_pos = n->pos;
		return -EINVAL;
	case PF_UNARY:
		err = eval(e, n->a, &a);
		if (err)
			return err;
		a = promote(a);
		switch (n->op) {
		case '-': *out = mkval(-a.v, a.type); break;
		case '+': *out = a; break;
		case '~': *out = mkval(~a.v, a.type); break;
		default: *out = mkval(!a.v, t_int); break;
		}
		return 0;
	case PF_BINARY:
		return eval_binary(e, n, out);
	case PF_COND:
		err = eval(e, n->a, &a);
		if (err)
			return err;
		/* the type is both branches' common type; only the chosen one must evaluate */
		err = eval(e, a.v ? n->b : n->c, &b);
		if (err)
			return err;
		b = promote(b);
		if (!eval(e, a.v ? n->c : n->b, &c))
			b = mkval(b.v, common(b.type, promote(c).type));
		*out = b;
		return 0;
	case PF_CAST:
		err = eval(e, n->a, &a);
		if (err)
			return err;
		*out = n->type.bits ? mkval(a.v, n->type) : a;
		return 0;
	}
	e->err_pos = n->pos;
	return -EINVAL;
}

int pf_eval(const struct pf_node *n, const struct pf_env *env, pf_field_fn field, void *ctx,
	    struct pf_val *out, unsigned int *err_pos)
{
	struct evaluator e = { .env = env, .field = field, .ctx = ctx };
	int err;

	err = eval(&e, n, out);
	if (err && err_pos)
		*err_pos = e.err_pos;
	return err;
}

/* walking */

struct fields_walk {
	const char *seen[16];
	int nr;
	void (*fn)(void *ctx, const char *name);
	void *ctx;
};

static void walk_fields(const struct pf_node *n, struct fields_walk *w)
{
	int i;

	if (!n)
		return;
	if (n->kind == PF_FIELD) {
		for (i = 0; i < w->nr; i++)
			if (!strcmp(w->seen[i], n->name))
				return;
		if (w->nr < (int)ARRAY_SIZE(w->seen))
			w->seen[w->nr++] = n->name;
		w->fn(w->ctx, n->name);
		return;
	}
	walk_fields(n->a, w);
	walk_fields(n->b, w);
	walk_fields(n->c, w);
}

void pf_node_fields(const struct pf_node *n, void (*fn)(void *ctx, const char *name), void *ctx)
{
	struct fields_walk w = { .fn = fn, .ctx = ctx };

	walk_fields(n, &w);
}

const char *pf_node_plain_field(const struct pf_node *n)
{
	/* casts to 64 bits or to an unknown typedef keep any field's value */
	while (n->kind == PF_CAST && (n->type.bits == 0 || n->type.bits == 64))
		n = n->a;
	return n->kind == PF_FIELD ? n->name : NULL;
}

bool pf_node_equal(const struct pf_node *a, const struct pf_node *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind || a->op != b->op)
		return false;
	switch (a->kind) {
	case PF_NUM:
		if (a->num.v != b->num.v || a->num.type.bits != b->num.type.bits ||
		    a->num.type.is_signed != b->num.type.is_signed)
			return false;
		break;
	case PF_FIELD: case PF_NAME:
		if (strcmp(a->name, b->name))
			return false;
		break;
	case PF_CAST:
		if (a->type.bits != b->type.bits || a->type.is_signed != b->type.is_signed)
			return false;
		break;
	default:
		break;
	}
	return pf_node_equal(a->a, b->a) && pf_node_equal(a->b, b->b) && pf_node_equal(a->c, b->c);
}

/* C text */

static const char *c_type(struct pf_type t)
{
	switch (t.bits) {
	case 1: return "_Bool";
	case 8: return t.is_signed ? "signed char" : "unsigned char";
	case 16: return t.is_signed ? "short" : "unsigned short";
	case 32: return t.is_signed ? "int" : "unsigned int";
	default: return t.is_signed ? "long long" : "unsigned long long";
	}
}

static void emit_num(struct strbuf *sb, struct pf_val v)
{
	const char *suffix = v.type.bits <= 32 ? (v.type.is_signed ? "" : "U") :
			     (v.type.is_signed ? "LL" : "ULL");
	struct pf_type t = v.type.bits < 32 ? t_int : v.type;

	if (v.type.bits < 32 && v.type.bits)
		sb_printf(sb, "(%s)", c_type(v.type));	/* an enum value of a narrow type */
	if (t.is_signed && (long long)v.v < 0) {
		/* -N as a negated literal; the most negative value as (-MAX - 1) */
		unsigned long long mag = -v.v;

		if (mag == 1ULL << (t.bits - 1))
			sb_printf(sb, "(-%llu%s - 1)", mag - 1, suffix);
		else
			sb_printf(sb, "(-%llu%s)", mag, suffix);
		return;
	}
	sb_printf(sb, "%llu%s", v.v & (t.bits >= 64 ? ~0ULL : (1ULL << t.bits) - 1), suffix);
}

static const char *op_text(int op)
{
	static char one[2];

	switch (op) {
	case PF_SHL: return "<<";
	case PF_SHR: return ">>";
	case PF_LE: return "<=";
	case PF_GE: return ">=";
	case PF_EQ: return "==";
	case PF_NE: return "!=";
	case PF_ANDAND: return "&&";
	case PF_OROR: return "||";
	default:
		one[0] = (char)op;
		return one;
	}
}

static void emit(struct strbuf *sb, const struct pf_node *n,
		 const char *(*field_c)(void *ctx, const char *name), void *ctx)
{
	switch (n->kind) {
	case PF_NUM:
		emit_num(sb, n->num);
		break;
	case PF_FIELD:
		sb_printf(sb, "(%s)", field_c(ctx, n->name));
		break;
	case PF_NAME:
		sb_puts(sb, "0 /* unresolved */");	/* never emitted: tables with names fail to build */
		break;
	case PF_UNARY:
		sb_printf(sb, "(%s", op_text(n->op));
		emit(sb, n->a, field_c, ctx);
		sb_putc(sb, ')');
		break;
	case PF_BINARY:
		/*
		 * A shift by a field's value out of range, or a division by
		 * it when it is zero, is 0, never undefined behaviour; the
		 * type stays C's (0 * A has A's promoted type).
		 */
		if (n->op == PF_SHL || n->op == PF_SHR) {
			sb_puts(sb, "((unsigned long long)");
			emit(sb, n->b, field_c, ctx);
			sb_puts(sb, " < sizeof(+");
			emit(sb, n->a, field_c, ctx);
			sb_puts(sb, ") * 8 ? ");
		} else if (n->op == '/' || n->op == '%') {
			sb_puts(sb, "(");
			emit(sb, n->b, field_c, ctx);
			sb_puts(sb, " ? ");
		}
		sb_putc(sb, '(');
		emit(sb, n->a, field_c, ctx);
		sb_printf(sb, " %s ", op_text(n->op));
		emit(sb, n->b, field_c, ctx);
		sb_putc(sb, ')');
		if (n->op == PF_SHL || n->op == PF_SHR || n->op == '/' || n->op == '%') {
			sb_puts(sb, " : 0 * ");
			emit(sb, n->a, field_c, ctx);
			sb_putc(sb, ')');
		}
		break;
	case PF_COND:
		sb_putc(sb, '(');
		emit(sb, n->a, field_c, ctx);
		sb_puts(sb, " ? ");
		emit(sb, n->b, field_c, ctx);
		sb_puts(sb, " : ");
		emit(sb, n->c, field_c, ctx);
		sb_putc(sb, ')');
		break;
	case PF_CAST:
		if (!n->type.bits) {
			emit(sb, n->a, field_c, ctx);
			break;
		}
		sb_printf(sb, "((%s)", c_type(n->type));
		emit(sb, n->a, field_c, ctx);
		sb_putc(sb, ')');
		break;
	}
}

void pf_emit_c(struct strbuf *sb, const struct pf_node *n,
	       const char *(*field_c)(void *ctx, const char *name), void *ctx)
{
	sb_puts(sb, "(unsigned long long)");
	emit(sb, n, field_c, ctx);
}
