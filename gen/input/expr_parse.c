// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Spec expressions, read: a small lexer (tracefs' bare words included) and a
 * precedence-climbing parser into a tree with source offsets. Depth and size
 * are bounded, each with a located error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/limits.h"
#include "model/decode.h"
#include "model/expr.h"

enum tok {
	T_END, T_NUM, T_STR, T_NAME, T_BARE, T_OP, T_LPAREN, T_RPAREN, T_QUEST, T_COLON, T_BAD,
	T_CAST,		/* "(struct tcp_sock *)": text "struct tcp_sock" */
	T_PATH,		/* "->srtt_us", ".a[2]" right after a ')' */
};

struct parser {
	const struct spec *spec;
	const struct spec_str *src;
	const char *s;
	size_t pos;
	enum tok tok;
	size_t tok_off;
	enum expr_op op;	/* T_OP */
	bool unary_ok;		/* T_OP: '-', '+', '!' or '~' */
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
		sb_clear(&sb);
		return perr(p, p->pos, "unterminated string");
	}
	p->text = sb_steal(&sb);
	p->tok = T_STR;
	p->pos = i + 1;
	return 0;
}

/* "->name" or ".name": a member of what a parenthesized cast gave */
static bool path_start(const char *s)
{
	return (s[0] == '-' && s[1] == '>' && ident_start(s[2])) || (s[0] == '.' && ident_start(s[1]));
}

/* After '(': "struct NAME *)" or "union NAME *)", a cast to a pointer to a BTF type. */
static bool lex_cast(struct parser *p)
{
	const char *s = p->s + p->pos, *kw, *name;
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	kw = s;
	if (!strncmp(s, "struct", 6))
		s += 6;
	else if (!strncmp(s, "union", 5))
		s += 5;
	else
		return false;
	if (*s != ' ' && *s != '\t')
		return false;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!ident_start(*s))
		return false;
	name = s;
	while (ident_char(*s))
		s++;
	n = s - name;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s++ != '*')
		return false;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s++ != ')')
		return false;
	p->text = xasprintf("%s %.*s", kw[0] == 's' ? "struct" : "union", (int)n, name);
	p->tok = T_CAST;
	p->pos = s - p->s;
	return true;
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
	if (ident_start(s[i]) || (p->tok == T_RPAREN && path_start(s + i))) {
		bool path = !ident_start(s[i]);
		size_t j = i;

		for (;;) {
			while (ident_char(s[j]))
				j++;
			while (s[j] == '[' && s[j + 1] >= '0' && s[j + 1] <= '9') {
				size_t k = j + 1;

				while (s[k] >= '0' && s[k] <= '9')
					k++;
				if (s[k] != ']')
					break;
				j = k + 1;
			}
			if (s[j] == '.' && ident_start(s[j + 1]))
				j++;
			else if (s[j] == '-' && s[j + 1] == '>' && ident_start(s[j + 2]))
				j += 2;
			else
				break;
		}
		p->text = xstrndup(s + i, j - i);
		p->tok = path ? T_PATH : T_NAME;
		p->pos = j;
		return 0;
	}
	switch (s[i]) {
	case '(':
		p->pos++;
		if (lex_cast(p))
			return 0;
		p->tok = T_LPAREN;
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
	if ((s[i] == '-' || s[i] == '+') && s[i + 1] == s[i])
		return perr(p, i, "'%c%c' is C's %s, not two signs: write '%c(%cx)'", s[i], s[i],
			    s[i] == '-' ? "decrement" : "increment", s[i], s[i]);
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

/*
 * "name(...)": expressions have no calls. The functions a spec knows show a
 * whole print item or key (model/decode.h's list, and the stacks' frame
 * limit); say so, and name them.
 */
static int call(struct parser *p, size_t off)
{
	static const char *const fns[] = {
#define X(id, fn, ...)	fn,
		DECODE_KINDS(X)
#undef X
	};
	char known[256] = "";
	size_t n = 0;
	bool shows = false;

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		if (!fns[i])
			continue;
		shows |= !strcmp(fns[i], p->text);
		n += snprintf(known + n, sizeof(known) - n, "%s%s()", n ? ", " : "", fns[i]);
	}
	shows |= !strcmp(p->text, "kstack") || !strcmp(p->text, "ustack") || !strcmp(p->text, "kcaller");
	n += snprintf(known + n, sizeof(known) - n, ", kstack(N), ustack(N), kcaller(GLOB, ...)");
	if (shows)
		return perr(p, off, "%s() shows a whole print item or aggregation key ('print: [%s(x)]'); "
			    "it is not a value an expression can use", p->text, p->text);
	return perr(p, off, "unknown function '%s'; the functions are %s, each around a whole print "
		    "item or aggregation key, and str(ARG), a syscall argument's string, or str(X, N)", p->text, known);
}

/*
 * "str(data)": the string at a syscall argument's address (mount's void *
 * data), read from the caller's memory as a char * argument is; "str(X, N)":
 * the string X (that one, or any string of unknown length) in at most N
 * bytes. One reference, its text "str(NAME)" or "str(NAME, N)"; the model
 * checks what NAME is.
 */
static int parse_str(struct parser *p, size_t off, struct expr **out)
{
	char *name, *len = NULL;
	struct expr *e;
	size_t comma;
	int err;

	*out = NULL;
	err = next(p);
	if (!err && p->tok != T_LPAREN)
		err = perr(p, p->tok_off, "expected '(' after 'str'");
	if (!err)
		err = next(p);
	if (!err && p->tok != T_NAME)
		err = perr(p, p->tok_off, "str() takes the name of a syscall argument, 'str(data)', or a string "
			   "and its length, 'str(action->name, 32)'");
	if (err)
		return err;
	/* str(X, N): the lexer has no ',', the length is read here */
	comma = p->pos + strspn(p->s + p->pos, " \t");
	if (p->s[comma] != ',' && (strchr(p->text, '.') || strstr(p->text, "->") || strchr(p->text, '[')))
		return perr(p, p->tok_off, "str() takes the name of a syscall argument, not '%s' (or a string "
			    "and its length: 'str(%s, 32)')", p->text, p->text);
	name = p->text;
	p->text = NULL;
	if (p->s[comma] == ',') {
		p->pos = comma + 1;
		err = next(p);
		if (!err && p->tok != T_NUM)
			err = perr(p, p->tok_off, "str(%s, N) takes a length in bytes: a number", name);
		if (!err) {
			len = p->text;
			p->text = NULL;
		}
	}
	if (!err)
		err = next(p);
	if (!err && p->tok != T_RPAREN)
		err = perr(p, p->tok_off, "expected ')' after 'str(%s%s%s'", name, len ? ", " : "", len ? len : "");
	if (!err)
		err = next(p);
	if (err) {
		free(name);
		free(len);
		return err;
	}
	e = node(p, EX_REF, off);
	e->text = len ? xasprintf("str(%s, %s)", name, len) : xasprintf("str(%s)", name);
	free(name);
	free(len);
	*out = e;
	return 0;
}

/*
 * "((struct tcp_sock *)sk)->srtt_us": after "(", the cast; a name, ")" and
 * a member path follow. One reference, its text in that canonical form.
 */
static int parse_cast(struct parser *p, size_t off, struct expr **out)
{
	char *type = p->text, *name;
	struct expr *e;
	int err;

	p->text = NULL;
	err = next(p);
	if (!err && p->tok != T_NAME)
		err = perr(p, p->tok_off, "a cast applies to an argument or field: '((%s *)name)->member'", type);
	if (!err && (strchr(p->text, '.') || strstr(p->text, "->") || strchr(p->text, '[')))
		err = perr(p, p->tok_off, "a cast applies to an argument or field, not to '%s'", p->text);
	if (err) {
		free(type);
		return err;
	}
	name = p->text;
	p->text = NULL;
	err = next(p);
	if (!err && p->tok != T_RPAREN)
		err = perr(p, p->tok_off, "expected ')' after '(%s *)%s'", type, name);
	if (!err)
		err = next(p);
	if (!err && p->tok != T_PATH)
		err = perr(p, p->tok_off, "expected a member after '((%s *)%s)': '->name'", type, name);
	if (!err && p->text[0] != '-')
		err = perr(p, p->tok_off, "'((%s *)%s)' is a pointer: its members are read with '->'", type, name);
	if (err) {
		free(type);
		free(name);
		return err;
	}
	e = node(p, EX_REF, off);
	e->text = xasprintf("((%s *)%s)%s", type, name, p->text);
	free(type);
	free(name);
	err = next(p);
	if (err) {
		expr_free(e);
		return err;
	}
	*out = e;
	return 0;
}

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
		if (p->op != EX_SUB && p->op != EX_ADD && p->op != EX_LNOT && p->op != EX_GLOB)
			return perr(p, off, "expected a value, found an operator");
		e = node(p, p->op == EX_SUB ? EX_NEG : p->op == EX_ADD ? EX_POS :
			 p->op == EX_LNOT ? EX_LNOT : EX_BNOT, off);
		err = next(p);
		if (!err)
			err = parse_unary(p, &e->a);
		if (err) {
			expr_free(e);
			return err;
		}
		break;
	case T_CAST:
		return perr(p, off, "a cast is written '((%s *)name)->member': in parentheses, of an "
			    "argument or field, with a member after it", p->text);
	case T_LPAREN:
		err = next(p);
		if (!err && p->tok == T_CAST) {
			err = parse_cast(p, off, &e);
			if (err)
				return err;
			break;
		}
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
	case T_NAME:
		if (p->s[p->pos + strspn(p->s + p->pos, " \t")] == '(') {
			if (strcmp(p->text, "str"))
				return call(p, off);
			err = parse_str(p, off, &e);
			if (err)
				return err;
			break;
		}
		/* fallthrough */
	case T_NUM:
	case T_STR:
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
int expr_prec(enum expr_op op)
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
	while (p->tok == T_OP && (pr = expr_prec(p->op)) >= min_prec) {
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
	if (!err && p.tok == T_COLON && (*out)->op == EX_REF && !strpbrk((*out)->text, ".-")) {
		/* print: ['name: fn(x)'] is one YAML string, not a label and a value */
		err = perr(&p, p.tok_off, "'%s: ...' in quotes is one value, not a label and its value: "
			   "quote the value alone (%s: '...')", (*out)->text, (*out)->text);
		expr_free(*out);
		*out = NULL;
	} else if (!err && p.tok != T_END) {
		err = perr(&p, p.tok_off, p.tok == T_RPAREN ? "unbalanced ')'" :
			   "expected an operator or the end");
		expr_free(*out);
		*out = NULL;
	}
	free(p.text);
	return err;
}
