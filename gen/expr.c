// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Spec expressions: a precedence-climbing parser over a small lexer, a
 * checker that gives every node its C type (and folds constants), and a
 * printer of C that clang accepts with -Wall -Wextra -Werror.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "cstring.h"

enum tok {
	T_END, T_NUM, T_STR, T_NAME, T_BARE, T_OP, T_LPAREN, T_RPAREN, T_QUEST, T_COLON, T_BAD,
};

struct parser {
	const struct spec *spec;
	const struct spec_str *src;
	const char *s;
	size_t pos;
	enum tok tok;
	size_t tok_off;
	enum expr_op op;	/* T_OP */
	bool unary_ok;		/* T_OP: '-', '!' or '~' */
	char *text;		/* T_NUM, T_STR, T_NAME, T_BARE */
	int depth;
	int nodes;
	bool after_cmp;		/* the token before was ==, != or ~: bare words allowed */
};

static int perr(struct parser *p, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int perr(struct parser *p, size_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	spec_verror(p->spec, &p->src->loc, off, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool ident_start(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool ident_char(char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

/* tracefs' bare words: anything up to a space, parenthesis, operator or quote */
static bool word_char(char c)
{
	return c && !strchr(" \t\n\r()!&|=<>~\"'", c);
}

static const struct {
	const char *s;
	enum expr_op op;
} ops[] = {
	{ "<<", EX_SHL }, { ">>", EX_SHR }, { "<=", EX_LE }, { ">=", EX_GE }, { "==", EX_EQ },
	{ "!=", EX_NE }, { "&&", EX_LAND }, { "||", EX_LOR }, { "<", EX_LT }, { ">", EX_GT },
	{ "+", EX_ADD }, { "-", EX_SUB }, { "*", EX_MUL }, { "/", EX_DIV }, { "%", EX_MOD },
	{ "&", EX_BAND }, { "|", EX_BOR }, { "^", EX_BXOR }, { "~", EX_GLOB }, { "!", EX_LNOT },
};

static int lex_string(struct parser *p)
{
	const char *s = p->s;
	char q = s[p->pos];
	struct strbuf sb;
	size_t i = p->pos + 1;

	sb_init(&sb);
	for (; s[i] && s[i] != q; i++) {
		if (s[i] == '\\' && s[i + 1]) {
			i++;
			switch (s[i]) {
			case 'n':
				sb_putc(&sb, '\n');
				break;
			case 't':
				sb_putc(&sb, '\t');
				break;
			default:
				sb_putc(&sb, s[i]);
			}
			continue;
		}
		sb_putc(&sb, s[i]);
	}
	if (!s[i]) {
		sb_free(&sb);
		return perr(p, p->pos, "unterminated string");
	}
	p->text = sb_steal(&sb);
	p->tok = T_STR;
	p->pos = i + 1;
	return 0;
}

static int next(struct parser *p)
{
	const char *s = p->s;
	bool after_cmp = p->tok == T_OP && (p->op == EX_EQ || p->op == EX_NE || p->op == EX_GLOB);
	size_t i;

	free(p->text);
	p->text = NULL;
	while (s[p->pos] == ' ' || s[p->pos] == '\t' || s[p->pos] == '\n' || s[p->pos] == '\r')
		p->pos++;
	p->tok_off = p->pos;
	i = p->pos;
	if (!s[i]) {
		p->tok = T_END;
		return 0;
	}
	if (s[i] == '"' || s[i] == '\'')
		return lex_string(p);
	if (after_cmp && word_char(s[i]) && !(s[i] >= '0' && s[i] <= '9') && s[i] != '-') {
		/* a bare word ('comm == kworker/0:1'): a name only when it reads as one */
		size_t j = i, k = i;

		while (word_char(s[j]))
			j++;
		while (k < j && (ident_char(s[k]) || s[k] == '.' || (s[k] == '-' && s[k + 1] == '>')))
			k += s[k] == '-' ? 2 : 1;
		if (k < j) {
			p->text = xstrndup(s + i, j - i);
			p->tok = T_BARE;
			p->pos = j;
			return 0;
		}
	}
	if (s[i] >= '0' && s[i] <= '9') {
		size_t j = i;

		while (ident_char(s[j]))
			j++;
		p->text = xstrndup(s + i, j - i);
		p->tok = T_NUM;
		p->pos = j;
		return 0;
	}
	if (ident_start(s[i])) {
		size_t j = i;

		for (;;) {
			while (ident_char(s[j]))
				j++;
			if (s[j] == '.' && ident_start(s[j + 1]))
				j++;
			else if (s[j] == '-' && s[j + 1] == '>' && ident_start(s[j + 2]))
				j += 2;
			else
				break;
		}
		p->text = xstrndup(s + i, j - i);
		p->tok = T_NAME;
		p->pos = j;
		return 0;
	}
	switch (s[i]) {
	case '(':
		p->tok = T_LPAREN;
		p->pos++;
		return 0;
	case ')':
		p->tok = T_RPAREN;
		p->pos++;
		return 0;
	case '?':
		p->tok = T_QUEST;
		p->pos++;
		return 0;
	case ':':
		p->tok = T_COLON;
		p->pos++;
		return 0;
	}
	for (size_t k = 0; k < ARRAY_SIZE(ops); k++) {
		size_t n = strlen(ops[k].s);

		if (!strncmp(s + i, ops[k].s, n)) {
			p->tok = T_OP;
			p->op = ops[k].op;
			p->pos += n;
			return 0;
		}
	}
	if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
		return perr(p, i, "unexpected byte 0x%02x", (unsigned char)s[i]);
	return perr(p, i, "unexpected '%c'", s[i]);
}

static struct expr *node(struct parser *p, enum expr_op op, size_t off)
{
	struct expr *e = xcalloc(1, sizeof(*e));

	e->op = op;
	e->off = off;
	e->ref = -1;
	e->lit = -1;
	p->nodes++;
	return e;
}

void expr_free(struct expr *e)
{
	if (!e)
		return;
	expr_free(e->a);
	expr_free(e->b);
	expr_free(e->c);
	free(e->text);
	free(e);
}

static int parse_cond(struct parser *p, struct expr **out);

static int parse_unary(struct parser *p, struct expr **out)
{
	struct expr *e;
	size_t off = p->tok_off;
	int err;

	if (p->nodes > EXPR_MAX_NODES)
		return perr(p, off, "expression has more than %d terms", EXPR_MAX_NODES);
	if (++p->depth > EXPR_MAX_DEPTH)
		return perr(p, off, "expression is nested more than %d levels deep", EXPR_MAX_DEPTH);
	switch (p->tok) {
	case T_OP:
		if (p->op != EX_SUB && p->op != EX_LNOT && p->op != EX_GLOB)
			return perr(p, off, "expected a value, found an operator");
		e = node(p, p->op == EX_SUB ? EX_NEG : p->op == EX_LNOT ? EX_LNOT : EX_BNOT, off);
		err = next(p);
		if (!err)
			err = parse_unary(p, &e->a);
		if (err) {
			expr_free(e);
			return err;
		}
		break;
	case T_LPAREN:
		err = next(p);
		if (!err)
			err = parse_cond(p, &e);
		else
			return err;
		if (err)
			return err;
		if (p->tok != T_RPAREN) {
			expr_free(e);
			if (p->tok == T_END)
				return perr(p, off, "unbalanced '(': missing ')'");
			return perr(p, p->tok_off, "expected ')'");
		}
		err = next(p);
		if (err) {
			expr_free(e);
			return err;
		}
		break;
	case T_NUM:
	case T_STR:
	case T_NAME:
	case T_BARE:
		e = node(p, p->tok == T_NUM ? EX_NUM : p->tok == T_NAME ? EX_REF : EX_STR, off);
		e->text = p->text;
		e->quoted = p->tok == T_STR;
		p->text = NULL;
		err = next(p);
		if (err) {
			expr_free(e);
			return err;
		}
		break;
	case T_END:
		return perr(p, off, "expected a value at the end");
	default:
		return perr(p, off, "expected a value");
	}
	p->depth--;
	*out = e;
	return 0;
}

/* Binding power of a binary operator; 0 for what is not one. */
static int prec(enum expr_op op)
{
	switch (op) {
	case EX_MUL: case EX_DIV: case EX_MOD:
		return 10;
	case EX_ADD: case EX_SUB:
		return 9;
	case EX_SHL: case EX_SHR:
		return 8;
	case EX_LT: case EX_LE: case EX_GT: case EX_GE:
		return 7;
	case EX_EQ: case EX_NE: case EX_GLOB:
		return 6;
	case EX_BAND:
		return 5;
	case EX_BXOR:
		return 4;
	case EX_BOR:
		return 3;
	case EX_LAND:
		return 2;
	case EX_LOR:
		return 1;
	default:
		return 0;
	}
}

static int parse_bin(struct parser *p, int min_prec, struct expr **out)
{
	struct expr *l, *r, *e;
	int err, pr;

	err = parse_unary(p, &l);
	if (err)
		return err;
	while (p->tok == T_OP && (pr = prec(p->op)) >= min_prec) {
		e = node(p, p->op, p->tok_off);
		e->a = l;
		err = next(p);
		if (!err)
			err = parse_bin(p, pr + 1, &r);
		if (err) {
			expr_free(e);
			return err;
		}
		e->b = r;
		l = e;
	}
	*out = l;
	return 0;
}

static int parse_cond(struct parser *p, struct expr **out)
{
	struct expr *e, *c;
	int err;

	err = parse_bin(p, 1, &c);
	if (err || p->tok != T_QUEST) {
		*out = err ? NULL : c;
		return err;
	}
	if (++p->depth > EXPR_MAX_DEPTH) {
		expr_free(c);
		return perr(p, p->tok_off, "expression is nested more than %d levels deep", EXPR_MAX_DEPTH);
	}
	e = node(p, EX_COND, p->tok_off);
	e->a = c;
	err = next(p);
	if (!err)
		err = parse_cond(p, &e->b);
	if (!err && p->tok != T_COLON)
		err = perr(p, p->tok_off, "expected ':' of '? :'");
	if (!err)
		err = next(p);
	if (!err)
		err = parse_cond(p, &e->c);
	if (err) {
		expr_free(e);
		return err;
	}
	p->depth--;
	*out = e;
	return 0;
}

int expr_parse(const struct spec *s, const struct spec_str *src, struct expr **out)
{
	struct parser p = { .spec = s, .src = src, .s = src->s, .tok = T_BAD };
	int err;

	*out = NULL;
	err = next(&p);
	if (!err && p.tok == T_END)
		err = perr(&p, 0, "empty expression");
	if (!err)
		err = parse_cond(&p, out);
	if (!err && p.tok != T_END) {
		err = perr(&p, p.tok_off, p.tok == T_RPAREN ? "unbalanced ')'" :
			   "expected an operator or the end");
		expr_free(*out);
		*out = NULL;
	}
	free(p.text);
	return err;
}

/* ---- types ---------------------------------------------------------------- */

struct checker {
	const struct spec *spec;
	const struct spec_str *src;
	expr_resolve_fn resolve;
	void *ctx;
	struct expr_lits *lits;
};

static int cerr(struct checker *c, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int cerr(struct checker *c, size_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	spec_verror(c->spec, &c->src->loc, off, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const struct expr_type t_int = { ET_INT, 4, true };

static struct expr_type promote(struct expr_type t)
{
	if (t.size < 4)
		return t_int;
	return t;
}

/* C's usual arithmetic conversions */
static struct expr_type usual(struct expr_type a, struct expr_type b)
{
	a = promote(a);
	b = promote(b);
	if (a.size != b.size)
		return a.size > b.size ? a : b;
	return (struct expr_type){ ET_INT, a.size, a.is_signed && b.is_signed };
}

/* 'v' as a value of type 't': truncated, sign-extended */
static unsigned long long in_type(unsigned long long v, struct expr_type t)
{
	unsigned int bits = t.size * 8;

	if (bits >= 64)
		return v;
	v &= (1ULL << bits) - 1;
	if (t.is_signed && (v >> (bits - 1)))
		v |= ~0ULL << bits;
	return v;
}

static bool fits(unsigned long long v, bool v_signed, struct expr_type t)
{
	unsigned int bits = t.size * 8;
	long long sv = (long long)v;

	if (v_signed && sv < 0) {
		/* a negative number on an unsigned field: its two's complement, as the kernel does */
		long long min = bits >= 64 ? LLONG_MIN : -(1LL << (bits - 1));

		return sv >= min;
	}
	if (t.is_signed)
		return bits >= 64 ? v <= (unsigned long long)LLONG_MAX : v < (1ULL << (bits - 1));
	return bits >= 64 || v < (1ULL << bits);
}

static int parse_number(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

static void add_lit(struct checker *c, struct expr *e)
{
	c->lits->v = xrealloc(c->lits->v, (c->lits->nr + 1) * sizeof(*c->lits->v));
	c->lits->v[c->lits->nr] = xstrdup(e->text);
	e->lit = c->lits->nr++;
}

static int check(struct checker *c, struct expr *e);
static const char *c_op(enum expr_op op);

/* A name that is nothing here: a bare word of the tracefs grammar */
static bool bare_word(struct checker *c, const struct expr *e)
{
	struct expr_type t;

	return c->resolve(c->ctx, e->text, e->off, &t, false) == -ENOENT;
}

/* A constant as written: "0x100000000", "-1" */
static void const_text(const struct expr *k, char *buf, size_t n)
{
	if (k->op == EX_NUM)
		snprintf(buf, n, "%s", k->text);
	else if (k->op == EX_NEG && k->a->op == EX_NUM)
		snprintf(buf, n, "-%s", k->a->text);
	else if (k->t.is_signed && (long long)k->num < 0)
		snprintf(buf, n, "%lld", (long long)k->num);
	else
		snprintf(buf, n, "%llu", k->num);
}

/* ==, != and ~ on strings: a string value against a literal */
static int check_str_cmp(struct checker *c, struct expr *e)
{
	struct expr *v = e->a, *l = e->b;

	if (v->op == EX_STR && l->op != EX_STR) {
		v = e->b;
		l = e->a;
		e->a = v;
		e->b = l;
	}
	if (l->op == EX_REF) {
		/* a bare word ('comm == bash') that is no name of this event */
		struct expr_type t;
		int id = c->resolve(c->ctx, l->text, l->off, &t, false);

		if (id == -EINVAL)
			return id;
		if (id >= 0)
			return cerr(c, l->off, "strings compare with a literal (\"...\"), and '%s' is a value",
				    l->text);
		l->op = EX_STR;
	}
	if (l->op != EX_STR)
		return cerr(c, l->off, "'%s' is a string: compare it with a string literal", v->text);
	if (e->op == EX_GLOB && strchr(l->text, '['))
		return cerr(c, l->off + l->quoted + (strchr(l->text, '[') - l->text),
			    "character classes ([...]) are not supported in globs; use '*' and '?'");
	if (strlen(l->text) >= v->t.size)
		return cerr(c, l->off, "string is longer than '%s' can hold (%u bytes with the NUL)",
			    v->text, v->t.size);
	/* a glob with no wildcard is an equality, as in the kernel */
	if (e->op == EX_GLOB && !strpbrk(l->text, "*?"))
		e->op = EX_EQ;
	l->t = (struct expr_type){ ET_STR, strlen(l->text) + 1, false };
	add_lit(c, l);
	e->t = t_int;
	return 0;
}

static int check_const_fits(struct checker *c, struct expr *k, const struct expr *v)
{
	char text[64];

	if (!fits(k->num, k->t.is_signed, v->t)) {
		const char *name = expr_ref_name(v);

		const_text(k, text, sizeof(text));
		return cerr(c, k->off, "%s does not fit in %s%s%s (%s%u bits)", text,
			    name ? "'" : "", name ? name : "the value", name ? "'" : "",
			    v->t.is_signed ? "signed, " : "", v->t.size * 8);
	}
	return 0;
}

static unsigned long long fold(const struct expr *e, int *err)
{
	unsigned long long a = e->a ? e->a->num : 0, b = e->b ? e->b->num : 0;
	bool s = e->a && usual(e->a->t, e->b ? e->b->t : e->a->t).is_signed;

	switch (e->op) {
	case EX_NEG: return -a;
	case EX_BNOT: return ~a;
	case EX_LNOT: return !a;
	case EX_MUL: return a * b;
	case EX_DIV:
	case EX_MOD:
		if (!b) {
			*err = 1;
			return 0;
		}
		if (s && (long long)b == -1)
			return e->op == EX_DIV ? -a : 0;
		if (s)
			return e->op == EX_DIV ? (unsigned long long)((long long)a / (long long)b)
					       : (unsigned long long)((long long)a % (long long)b);
		return e->op == EX_DIV ? a / b : a % b;
	case EX_ADD: return a + b;
	case EX_SUB: return a - b;
	case EX_SHL: return a << b;
	case EX_SHR: return e->a->t.is_signed ? (unsigned long long)((long long)a >> b) : a >> b;
	case EX_LT: return s ? (long long)a < (long long)b : a < b;
	case EX_LE: return s ? (long long)a <= (long long)b : a <= b;
	case EX_GT: return s ? (long long)a > (long long)b : a > b;
	case EX_GE: return s ? (long long)a >= (long long)b : a >= b;
	case EX_EQ: return a == b;
	case EX_NE: return a != b;
	case EX_BAND: return a & b;
	case EX_BXOR: return a ^ b;
	case EX_BOR: return a | b;
	case EX_LAND: return a && b;
	case EX_LOR: return a || b;
	case EX_COND: return a ? e->b->num : e->c->num;
	default: return 0;
	}
}

static int check_int(struct checker *c, struct expr *e, const char *what)
{
	if (e->t.kind != ET_INT)
		return cerr(c, e->off, "%s needs a number, and '%s' is a string", what,
			    e->text ? e->text : "this");
	return 0;
}

static int check(struct checker *c, struct expr *e)
{
	int err, id, zero = 0;

	switch (e->op) {
	case EX_NUM:
		if (parse_number(e->text, &e->num))
			return cerr(c, e->off, "'%s' is not a number (decimal, 0x hex or 0 octal, at most 64 bits)",
				    e->text);
		e->is_const = true;
		e->t = e->num <= INT_MAX ? t_int : e->num <= LLONG_MAX ?
			(struct expr_type){ ET_INT, 8, true } : (struct expr_type){ ET_INT, 8, false };
		return 0;
	case EX_STR:
		return cerr(c, e->off, "a string can only be compared with a string value (==, != or ~)");
	case EX_REF:
		id = c->resolve(c->ctx, e->text, e->off, &e->t, true);
		if (id < 0)
			return id;
		e->ref = id;
		return 0;
	case EX_NEG:
	case EX_BNOT:
	case EX_LNOT:
		err = check(c, e->a);
		if (!err)
			err = check_int(c, e->a, e->op == EX_LNOT ? "'!'" : e->op == EX_NEG ? "'-'" : "'~'");
		if (err)
			return err;
		e->t = e->op == EX_LNOT ? t_int : promote(e->a->t);
		break;
	case EX_EQ:
	case EX_NE:
	case EX_GLOB:
		if (e->a->op != EX_STR) {
			err = check(c, e->a);
			if (err)
				return err;
		}
		if (e->a->op == EX_STR || e->a->t.kind == ET_STR) {
			if (e->a->op == EX_STR) {
				err = check(c, e->b);
				if (err)
					return err;
				if (e->b->t.kind != ET_STR)
					return cerr(c, e->a->off, "a string can only be compared with a string value");
			}
			return check_str_cmp(c, e);
		}
		if (e->op == EX_GLOB)
			return cerr(c, e->off, "'~' matches strings, and '%s' is a number",
				    e->a->text ? e->a->text : "this");
		/* fall through */
	default:
		if (e->op == EX_COND) {
			err = check(c, e->a);
			if (!err)
				err = check_int(c, e->a, "'?'");
			if (err)
				return err;
			err = check(c, e->b);
			if (!err)
				err = check(c, e->c);
			if (!err)
				err = check_int(c, e->b, "'?:'");
			if (!err)
				err = check_int(c, e->c, "'?:'");
			if (err)
				return err;
			e->t = usual(e->b->t, e->c->t);
			if (e->a->is_const && e->b->is_const && e->c->is_const)
				goto constant;
			return 0;
		}
		if (e->op != EX_EQ && e->op != EX_NE) {
			err = check(c, e->a);
			if (err)
				return err;
		}
		if (e->a->op == EX_STR || e->a->t.kind == ET_STR)
			return cerr(c, e->off, "'%s' is a string: compare it with ==, != or ~, not '%s'",
				    e->a->text ? e->a->text : "this", c_op(e->op));
		if (e->b->op == EX_STR || (e->b->op == EX_REF && bare_word(c, e->b)))
			return cerr(c, e->b->off, "'%s' is a number: compare it with a number, not '%s'",
				    e->a->text ? e->a->text : "this", e->b->text);
		err = check(c, e->b);
		if (!err)
			err = check_int(c, e->b, "this operator");
		if (err)
			return err;
		switch (e->op) {
		case EX_LT: case EX_LE: case EX_GT: case EX_GE: case EX_EQ: case EX_NE:
			/* a number against a value: it must fit the value, taken in its width */
			if (e->b->is_const && !e->a->is_const)
				err = check_const_fits(c, e->b, e->a);
			else if (e->a->is_const && !e->b->is_const)
				err = check_const_fits(c, e->a, e->b);
			if (err)
				return err;
			e->t = t_int;
			break;
		case EX_LAND: case EX_LOR:
			e->t = t_int;
			break;
		case EX_SHL: case EX_SHR:
			e->t = promote(e->a->t);
			if (e->b->is_const && e->b->num >= e->t.size * 8)
				return cerr(c, e->b->off, "shift by %llu: '%s' has %u bits", e->b->num,
					    e->a->text ? e->a->text : "the value", e->t.size * 8);
			break;
		case EX_DIV: case EX_MOD:
			if (e->b->is_const && !e->b->num)
				return cerr(c, e->b->off, "division by zero");
			/* fall through */
		default:
			e->t = usual(e->a->t, e->b->t);
		}
	}
	if (!e->a->is_const || (e->b && !e->b->is_const))
		return 0;
constant:
	e->num = in_type(fold(e, &zero), e->t);
	if (zero)
		return cerr(c, e->off, "division by zero");
	e->is_const = true;
	return 0;
}

int expr_check(struct expr *e, const struct spec *s, const struct spec_str *src, bool cond,
	       expr_resolve_fn resolve, void *ctx, struct expr_lits *lits)
{
	struct checker c = { .spec = s, .src = src, .resolve = resolve, .ctx = ctx, .lits = lits };
	int err = check(&c, e);

	if (!err && e->t.kind == ET_STR && cond)
		return cerr(&c, e->off, "a condition needs a comparison, and '%s' is a string", e->text);
	return err;
}

static void refs(const struct expr *e, int **out, int *nr)
{
	if (!e)
		return;
	if (e->op == EX_REF && e->ref >= 0) {
		for (int i = 0; i < *nr; i++)
			if ((*out)[i] == e->ref)
				return;
		*out = xrealloc(*out, (*nr + 1) * sizeof(**out));
		(*out)[(*nr)++] = e->ref;
	}
	refs(e->a, out, nr);
	refs(e->b, out, nr);
	refs(e->c, out, nr);
}

void expr_refs(const struct expr *e, int **out, int *nr)
{
	refs(e, out, nr);
}

const char *expr_ref_name(const struct expr *e)
{
	return e && e->op == EX_REF ? e->text : NULL;
}

void expr_lits_free(struct expr_lits *lits)
{
	for (int i = 0; i < lits->nr; i++)
		free(lits->v[i]);
	free(lits->v);
	lits->v = NULL;
	lits->nr = 0;
}

/* ---- C ------------------------------------------------------------------- */

const char *expr_ctype(const struct expr_type *t)
{
	static const char *const s[] = { "__s8", "__s16", "__s32", "__s64" };
	static const char *const u[] = { "__u8", "__u16", "__u32", "__u64" };
	int i = t->size == 1 ? 0 : t->size == 2 ? 1 : t->size <= 4 ? 2 : 3;

	return t->is_signed ? s[i] : u[i];
}

/* A constant of type 't' as C writes it: no warning, no wrong type. */
static void emit_const(struct strbuf *sb, unsigned long long v, struct expr_type t)
{
	v = in_type(v, t);
	if (!t.is_signed) {
		sb_printf(sb, "%llu%s", v, t.size > 4 ? "ULL" : "U");
		return;
	}
	if ((long long)v == LLONG_MIN)
		sb_puts(sb, "(-9223372036854775807LL - 1)");
	else if (t.size > 4 || (long long)v < INT_MIN || (long long)v > INT_MAX)
		sb_printf(sb, "%lldLL", (long long)v);
	else if ((long long)v == INT_MIN)
		sb_puts(sb, "(-2147483647 - 1)");
	else
		sb_printf(sb, "%lld", (long long)v);
}

static const char *c_op(enum expr_op op)
{
	static const char *const s[] = {
		[EX_NEG] = "-", [EX_BNOT] = "~", [EX_LNOT] = "!", [EX_MUL] = "*", [EX_DIV] = "/",
		[EX_MOD] = "%", [EX_ADD] = "+", [EX_SUB] = "-", [EX_SHL] = "<<", [EX_SHR] = ">>",
		[EX_LT] = "<", [EX_LE] = "<=", [EX_GT] = ">", [EX_GE] = ">=", [EX_EQ] = "==",
		[EX_NE] = "!=", [EX_BAND] = "&", [EX_BXOR] = "^", [EX_BOR] = "|", [EX_LAND] = "&&",
		[EX_LOR] = "||",
	};

	return s[op];
}

static bool is_binary(const struct expr *e)
{
	return prec(e->op) > 0 || e->op == EX_COND;
}

/*
 * Parentheses where C needs them, and where clang's -Wparentheses wants them:
 * && inside ||, and any mix of bit operators, shifts and comparisons.
 */
static bool needs_parens(const struct expr *parent, const struct expr *child, bool right)
{
	int pp = prec(parent->op), cp = prec(child->op);

	if (child->is_const || !is_binary(child))
		return false;
	if (child->op == EX_COND || parent->op == EX_COND)
		return true;
	if (cp < pp || (right && cp == pp))
		return true;
	if (cp == pp)
		return false;
	/* child binds tighter: clang's -Wparentheses warns for these mixes */
	switch (parent->op) {
	case EX_LOR:
		return child->op == EX_LAND;
	case EX_BAND: case EX_BXOR: case EX_BOR:
		return true;
	case EX_SHL: case EX_SHR:
		return cp == 9;
	case EX_EQ: case EX_NE:
		return cp == 7;
	default:
		return false;
	}
}

static void emit_node(struct strbuf *sb, const struct expr *e, const struct expr_emit_ops *ops, void *ctx);

static void emit_child(struct strbuf *sb, const struct expr *parent, const struct expr *child, bool right,
		       const struct expr_emit_ops *ops, void *ctx)
{
	bool paren = needs_parens(parent, child, right);

	if (paren)
		sb_putc(sb, '(');
	emit_node(sb, child, ops, ctx);
	if (paren)
		sb_putc(sb, ')');
}

static void emit_str_cmp(struct strbuf *sb, const struct expr *e, const struct expr_emit_ops *ops, void *ctx)
{
	const char *pat = e->b->text;
	size_t len = strlen(pat);

	if (e->op == EX_NE)
		sb_putc(sb, '!');
	if (e->op == EX_GLOB && len > 1 && pat[len - 1] == '*' && strchr(pat, '*') == pat + len - 1 &&
	    !strchr(pat, '?')) {
		/* "abc*" with no other wildcard: a prefix, as the kernel's MATCH_FRONT_ONLY */
		sb_puts(sb, "tpgen_prefix(");
		ops->string(ctx, sb, e->a->ref);
		sb_printf(sb, ", %s_s%d, %zu)", ops->lit_prefix, e->b->lit, len - 1);
		return;
	}
	sb_puts(sb, e->op == EX_GLOB ? "tpgen_glob(" : "tpgen_streq(");
	ops->string(ctx, sb, e->a->ref);
	sb_printf(sb, ", %s_s%d)", ops->lit_prefix, e->b->lit);
}

static void emit_node(struct strbuf *sb, const struct expr *e, const struct expr_emit_ops *ops, void *ctx)
{
	if (e->is_const) {
		emit_const(sb, e->num, e->t);
		return;
	}
	switch (e->op) {
	case EX_REF:
		ops->value(ctx, sb, e->ref);
		return;
	case EX_NEG:
	case EX_BNOT:
	case EX_LNOT:
		sb_puts(sb, c_op(e->op));
		if (is_binary(e->a) && !e->a->is_const) {
			sb_putc(sb, '(');
			emit_node(sb, e->a, ops, ctx);
			sb_putc(sb, ')');
		} else {
			emit_node(sb, e->a, ops, ctx);
		}
		return;
	case EX_COND:
		emit_child(sb, e, e->a, false, ops, ctx);
		sb_puts(sb, " ? ");
		emit_child(sb, e, e->b, false, ops, ctx);
		sb_puts(sb, " : ");
		emit_child(sb, e, e->c, false, ops, ctx);
		return;
	default:
		break;
	}
	if (e->b->t.kind == ET_STR && e->b->op == EX_STR) {
		emit_str_cmp(sb, e, ops, ctx);
		return;
	}
	emit_child(sb, e, e->a, false, ops, ctx);
	sb_printf(sb, " %s ", c_op(e->op));
	/* a number against a value is taken in the value's width, as the kernel's filters do */
	if (e->b->is_const && !e->a->is_const && prec(e->op) >= 6 && prec(e->op) <= 7)
		emit_const(sb, e->b->num, e->a->t);
	else
		emit_child(sb, e, e->b, true, ops, ctx);
}

void expr_emit(struct strbuf *sb, const struct expr *e, const struct expr_emit_ops *ops, void *ctx)
{
	emit_node(sb, e, ops, ctx);
}

void expr_emit_literals(struct strbuf *sb, const struct expr_lits *lits, const char *prefix)
{
	for (int i = 0; i < lits->nr; i++) {
		sb_printf(sb, "const char %s_s%d[] = ", prefix, i);
		c_string(sb, lits->v[i]);
		sb_puts(sb, ";\n");
	}
}

/* The negation of a condition, as a person would write it: a == b -> a != b, !x -> x. */
void expr_emit_not(struct strbuf *sb, const struct expr *e, const struct expr_emit_ops *ops, void *ctx)
{
	static const enum expr_op inverse[] = {
		[EX_LT] = EX_GE, [EX_LE] = EX_GT, [EX_GT] = EX_LE, [EX_GE] = EX_LT,
		[EX_EQ] = EX_NE, [EX_NE] = EX_EQ,
	};

	if (!e->is_const && e->op == EX_LNOT) {
		emit_node(sb, e->a, ops, ctx);
		return;
	}
	if (!e->is_const && e->op >= EX_LT && e->op <= EX_NE && e->b->op != EX_STR) {
		struct expr flip = *e;

		flip.op = inverse[e->op];
		emit_node(sb, &flip, ops, ctx);
		return;
	}
	sb_puts(sb, "!(");
	emit_node(sb, e, ops, ctx);
	sb_putc(sb, ')');
}
