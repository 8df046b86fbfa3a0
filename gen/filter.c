// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tracefs filter expressions: a recursive-descent parser over a tiny lexer,
 * a checker that types each predicate by its field, and a compiler to C.
 * String predicates compile to calls of bpf/tpgen.h helpers: tpgen_streq()
 * and tpgen_prefix() (bpf_strncmp) and tpgen_glob() (bpf_loop).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"

enum tok {
	T_END, T_LPAREN, T_RPAREN, T_NOT, T_ANDAND, T_OROR, T_OP, T_WORD, T_STRING, T_BAD,
};

struct parser {
	const struct spec *spec;
	const struct spec_str *src;
	const char *s;
	size_t pos;		/* next character */
	enum tok tok;		/* current token */
	size_t tok_off;
	char *text;		/* T_WORD/T_STRING value */
	enum filter_op op;	/* T_OP */
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

static bool word_char(char c)
{
	return c && !strchr(" \t\n\r()!&|=<>~\"'", c);
}

static int next(struct parser *p)
{
	const char *s = p->s;
	size_t i;

	free(p->text);
	p->text = NULL;
	while (s[p->pos] == ' ' || s[p->pos] == '\t' || s[p->pos] == '\n' || s[p->pos] == '\r')
		p->pos++;
	p->tok_off = p->pos;
	i = p->pos;
	switch (s[i]) {
	case '\0':
		p->tok = T_END;
		return 0;
	case '(':
		p->tok = T_LPAREN;
		p->pos++;
		return 0;
	case ')':
		p->tok = T_RPAREN;
		p->pos++;
		return 0;
	case '!':
		if (s[i + 1] == '=') {
			p->tok = T_OP;
			p->op = FOP_NE;
			p->pos += 2;
		} else {
			p->tok = T_NOT;
			p->pos++;
		}
		return 0;
	case '&':
		p->tok = s[i + 1] == '&' ? T_ANDAND : T_OP;
		p->op = FOP_AND_BITS;
		p->pos += s[i + 1] == '&' ? 2 : 1;
		return 0;
	case '|':
		if (s[i + 1] != '|')
			return perr(p, i, "'|' is not an operator in filters (use '||')");
		p->tok = T_OROR;
		p->pos += 2;
		return 0;
	case '=':
		if (s[i + 1] != '=')
			return perr(p, i, "use '==' to compare, not '='");
		p->tok = T_OP;
		p->op = FOP_EQ;
		p->pos += 2;
		return 0;
	case '<':
	case '>':
		p->tok = T_OP;
		if (s[i + 1] == '=')
			p->op = s[i] == '<' ? FOP_LE : FOP_GE;
		else
			p->op = s[i] == '<' ? FOP_LT : FOP_GT;
		p->pos += s[i + 1] == '=' ? 2 : 1;
		return 0;
	case '~':
		p->tok = T_OP;
		p->op = FOP_GLOB;
		p->pos++;
		return 0;
	case '"':
	case '\'': {
		char q = s[i];
		size_t j = i + 1;

		while (s[j] && s[j] != q)
			j++;
		if (!s[j])
			return perr(p, i, "unterminated string (missing closing %c)", q);
		p->tok = T_STRING;
		p->text = xstrndup(s + i + 1, j - i - 1);
		p->pos = j + 1;
		return 0;
	}
	}
	if (!word_char(s[i]))
		return perr(p, i, "unexpected character '%c' in filter", s[i]);
	for (;;) {
		if (s[p->pos] == '-' && s[p->pos + 1] == '>')	/* prev->pid */
			p->pos += 2;
		else if (word_char(s[p->pos]))
			p->pos++;
		else
			break;
	}
	p->tok = T_WORD;
	p->text = xstrndup(s + i, p->pos - i);
	return 0;
}

static void node_free(struct filter_node *n)
{
	if (!n)
		return;
	node_free(n->l);
	node_free(n->r);
	free(n->field);
	free(n->str);
	free(n);
}

static int parse_or(struct parser *p, struct filter_node **out);

static bool is_ident(const char *s)
{
	if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

/* A field: an identifier, or members read through pointers: prev->pid, prev->mm->owner */
static bool is_field(const char *s)
{
	char *copy = xstrdup(s), *tok, *save = NULL, *rest = copy;
	bool ok = true;
	size_t n = strlen(s);

	if (n >= 2 && (!strncmp(s, "->", 2) || !strcmp(s + n - 2, "->") || strstr(s, "->->")))
		ok = false;
	while (ok && (tok = strtok_r(rest, "-", &save))) {
		rest = NULL;
		if (tok != copy) {
			if (*tok != '>') {
				ok = false;
				break;
			}
			tok++;
		}
		ok = is_ident(tok);
	}
	free(copy);
	return ok;
}

static int parse_pred(struct parser *p, struct filter_node **out)
{
	struct filter_node *n;
	int err;

	if (p->tok != T_WORD)
		return perr(p, p->tok_off, p->tok == T_END ? "filter ends early: expected a field name"
							    : "expected a field name");
	if (!is_field(p->text))
		return perr(p, p->tok_off, "'%s' is not a field name", p->text);
	n = xcalloc(1, sizeof(*n));
	n->kind = FN_PRED;
	n->lit = -1;
	n->ref = -1;
	n->field = xstrdup(p->text);
	n->field_off = p->tok_off;
	err = next(p);
	if (err)
		goto err;
	if (p->tok != T_OP) {
		err = perr(p, p->tok_off, "expected an operator (== != < <= > >= & ~) after '%s'",
			   n->field);
		goto err;
	}
	n->op = p->op;
	n->op_off = p->tok_off;
	err = next(p);
	if (err)
		goto err;
	if (p->tok != T_WORD && p->tok != T_STRING) {
		err = perr(p, p->tok_off, "expected a number or a string after the operator");
		goto err;
	}
	n->quoted = p->tok == T_STRING;
	n->str = xstrdup(p->text);
	n->val_off = p->tok_off;
	err = next(p);
	if (err)
		goto err;
	*out = n;
	return 0;
err:
	node_free(n);
	return err;
}

static int parse_unary(struct parser *p, struct filter_node **out)
{
	struct filter_node *n;
	size_t off = p->tok_off;
	int err;

	if (p->tok == T_NOT) {
		err = next(p);
		if (!err)
			err = parse_unary(p, out);
		if (err)
			return err;
		n = xcalloc(1, sizeof(*n));
		n->kind = FN_NOT;
		n->l = *out;
		*out = n;
		return 0;
	}
	if (p->tok == T_LPAREN) {
		err = next(p);
		if (!err)
			err = parse_or(p, out);
		if (err)
			return err;
		if (p->tok != T_RPAREN) {
			node_free(*out);
			return perr(p, p->tok == T_END ? off : p->tok_off,
				    p->tok == T_END ? "unbalanced '(': missing ')'" : "expected ')'");
		}
		err = next(p);
		if (err) {
			node_free(*out);
			*out = NULL;
		}
		return err;
	}
	return parse_pred(p, out);
}

static int parse_bin(struct parser *p, struct filter_node **out, enum tok tok, enum filter_node_kind kind,
		     int (*sub)(struct parser *, struct filter_node **))
{
	struct filter_node *l, *r, *n;
	int err;

	err = sub(p, &l);
	if (err)
		return err;
	while (p->tok == tok) {
		err = next(p);
		if (!err)
			err = sub(p, &r);
		if (err) {
			node_free(l);
			return err;
		}
		n = xcalloc(1, sizeof(*n));
		n->kind = kind;
		n->l = l;
		n->r = r;
		l = n;
	}
	*out = l;
	return 0;
}

static int parse_and(struct parser *p, struct filter_node **out)
{
	return parse_bin(p, out, T_ANDAND, FN_AND, parse_unary);
}

static int parse_or(struct parser *p, struct filter_node **out)
{
	return parse_bin(p, out, T_OROR, FN_OR, parse_and);
}

int filter_parse(const struct spec *s, const struct spec_str *src, struct filter **out)
{
	struct parser p = { .spec = s, .src = src, .s = src->s };
	struct filter_node *root = NULL;
	int err;

	*out = NULL;
	err = next(&p);
	if (!err)
		err = parse_or(&p, &root);
	if (!err && p.tok != T_END) {
		err = perr(&p, p.tok_off, p.tok == T_RPAREN ? "unbalanced ')'"
			   : "expected '&&', '||' or the end of the filter");
		node_free(root);
	}
	free(p.text);
	if (err)
		return err;
	*out = xcalloc(1, sizeof(**out));
	(*out)->root = root;
	return 0;
}

static const char *op_name(enum filter_op op)
{
	static const char *const names[] = { "==", "!=", "<", "<=", ">", ">=", "&", "~" };

	return names[op];
}

static int parse_number(const char *s, unsigned long long *v)
{
	const char *p = s;
	bool neg = false;
	char *end;

	if (*p == '-') {
		neg = true;
		p++;
	}
	if (!(*p >= '0' && *p <= '9'))
		return -EINVAL;
	errno = 0;
	*v = strtoull(p, &end, 0);
	if (errno || *end)
		return -EINVAL;
	if (neg)
		*v = -*v;
	return 0;
}

static int check_node(struct filter *f, struct filter_node *n, const struct spec *s,
		      const struct spec_str *src, filter_resolve_fn resolve, void *ctx)
{
	struct filter_field ff = {};
	int err, id, i;

	if (n->kind != FN_PRED) {
		err = check_node(f, n->l, s, src, resolve, ctx);
		if (!err && n->r)
			err = check_node(f, n->r, s, src, resolve, ctx);
		return err;
	}
	id = resolve(ctx, n->field, n->field_off, &ff);
	if (id < 0)
		return id;
	n->ref = id;
	for (i = 0; i < f->nr_refs; i++)
		if (f->refs[i] == id)
			break;
	if (i == f->nr_refs) {
		f->refs = xrealloc(f->refs, (f->nr_refs + 1) * sizeof(*f->refs));
		f->refs[f->nr_refs++] = id;
	}
	n->is_str = ff.is_str;
	n->is_signed = ff.is_signed;
	n->size = ff.size;
	if (ff.is_str) {
		if (n->op != FOP_EQ && n->op != FOP_NE && n->op != FOP_GLOB) {
			spec_error(s, &src->loc, n->op_off, "'%s' is a string: compare it with ==, != or ~, not '%s'",
				   n->field, op_name(n->op));
			return -EINVAL;
		}
		if (n->op == FOP_GLOB && strchr(n->str, '[')) {
			spec_error(s, &src->loc, n->val_off + n->quoted + (strchr(n->str, '[') - n->str),
				   "character classes ([...]) are not supported in globs; use '*' and '?'");
			return -EINVAL;
		}
		if (strlen(n->str) >= ff.size) {
			spec_error(s, &src->loc, n->val_off,
				   "string is longer than '%s' can hold (%u bytes with the NUL)", n->field, ff.size);
			return -EINVAL;
		}
		n->lit = f->nr_lits;
		f->lits = xrealloc(f->lits, (f->nr_lits + 1) * sizeof(*f->lits));
		f->lits[f->nr_lits++] = xstrdup(n->str);
		/* a glob with no wildcard is an equality, as in the kernel */
		if (n->op == FOP_GLOB && !strpbrk(n->str, "*?["))
			n->op = FOP_EQ;
		return 0;
	}
	if (n->op == FOP_GLOB) {
		spec_error(s, &src->loc, n->op_off, "'~' matches strings, and '%s' is a number", n->field);
		return -EINVAL;
	}
	if (n->quoted || parse_number(n->str, &n->num)) {
		spec_error(s, &src->loc, n->val_off, "'%s' is a number: compare it with a number, not '%s'",
			   n->field, n->str);
		return -EINVAL;
	}
	if (ff.size < 8) {
		unsigned long long max = (1ULL << (ff.size * 8)) - 1;
		long long sv = (long long)n->num;

		if (ff.is_signed ? (sv < -(long long)(max / 2) - 1 || sv > (long long)(max / 2))
				 : (n->num > max && n->str[0] != '-')) {
			spec_error(s, &src->loc, n->val_off, "%s does not fit in '%s' (%s%u bits)", n->str,
				   n->field, ff.is_signed ? "signed, " : "", ff.size * 8);
			return -EINVAL;
		}
		/* the kernel compares in the field's width: -1 on a u32 is 0xffffffff */
		if (!ff.is_signed)
			n->num &= max;
	}
	return 0;
}

int filter_check(struct filter *f, const struct spec *s, const struct spec_str *src,
		 filter_resolve_fn resolve, void *ctx)
{
	return check_node(f, f->root, s, src, resolve, ctx);
}

void filter_free(struct filter *f)
{
	if (!f)
		return;
	node_free(f->root);
	for (int i = 0; i < f->nr_lits; i++)
		free(f->lits[i]);
	free(f->lits);
	free(f->refs);
	free(f);
}

void c_string(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	sb_putc(sb, '"');
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_printf(sb, "\\%c", *p);
		else if (*p == '?')
			sb_puts(sb, "\\?");	/* no trigraphs */
		else if (*p == '\n')
			sb_puts(sb, "\\n");
		else if (*p == '\t')
			sb_puts(sb, "\\t");
		else if (*p < 0x20 || *p >= 0x7f)
			sb_printf(sb, "\\%03o", *p);
		else
			sb_putc(sb, *p);
	}
	sb_putc(sb, '"');
}

void c_comment_text(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++) {
		if (*p == '*' && p[1] == '/')
			sb_puts(sb, "* ");
		else if (*p == '/' && p[1] == '*')
			sb_puts(sb, "/ ");
		else if (*p < 0x20 || *p == 0x7f)
			sb_putc(sb, ' ');
		else
			sb_putc(sb, *p);
	}
}

void filter_emit_literals(struct strbuf *sb, const struct filter *f, const char *prefix)
{
	for (int i = 0; i < f->nr_lits; i++) {
		sb_printf(sb, "const char %s_s%d[] = ", prefix, i);
		c_string(sb, f->lits[i]);
		sb_puts(sb, ";\n");
	}
}

static void emit_node(struct strbuf *sb, const struct filter_node *n, const char *prefix,
		      const struct filter_emit_ops *ops, void *ctx, enum filter_node_kind parent)
{
	static const char *const cops[] = { "==", "!=", "<", "<=", ">", ">=" };
	const char *pat;
	bool paren;

	switch (n->kind) {
	case FN_OR:
	case FN_AND:
		paren = parent != n->kind && parent != FN_PRED;
		if (paren)
			sb_putc(sb, '(');
		emit_node(sb, n->l, prefix, ops, ctx, n->kind);
		sb_puts(sb, n->kind == FN_OR ? " || " : " && ");
		emit_node(sb, n->r, prefix, ops, ctx, n->kind);
		if (paren)
			sb_putc(sb, ')');
		return;
	case FN_NOT:
		sb_putc(sb, '!');
		emit_node(sb, n->l, prefix, ops, ctx, FN_NOT);
		return;
	case FN_PRED:
		break;
	}
	if (n->is_str) {
		pat = n->str;
		if (n->op == FOP_NE)
			sb_putc(sb, '!');
		if (n->op == FOP_GLOB) {
			size_t len = strlen(pat);

			/* "abc*" with no other wildcard: a prefix, as the kernel's MATCH_FRONT_ONLY */
			if (len > 1 && pat[len - 1] == '*' && !strpbrk(pat, "?[") &&
			    strchr(pat, '*') == pat + len - 1) {
				sb_puts(sb, "tpgen_prefix(");
				ops->string(ctx, sb, n->ref);
				sb_printf(sb, ", %s_s%d, %zu)", prefix, n->lit, len - 1);
				return;
			}
			sb_puts(sb, "tpgen_glob(");
		} else {
			sb_puts(sb, "tpgen_streq(");
		}
		ops->string(ctx, sb, n->ref);
		sb_printf(sb, ", %s_s%d)", prefix, n->lit);
		return;
	}
	if (n->op == FOP_AND_BITS) {
		sb_puts(sb, "(");
		ops->value(ctx, sb, n->ref);
		sb_printf(sb, " & 0x%llx%s)", n->num, n->num > 0xffffffffULL ? "ULL" : "U");
		return;
	}
	paren = parent == FN_NOT;
	if (paren)
		sb_putc(sb, '(');
	ops->value(ctx, sb, n->ref);
	sb_printf(sb, " %s ", cops[n->op]);
	if (n->is_signed)
		sb_printf(sb, "%lld%s", (long long)n->num,
			  (long long)n->num > 0x7fffffffLL || (long long)n->num < -0x7fffffffLL ? "LL" : "");
	else
		sb_printf(sb, "%llu%s", n->num, n->num > 0xffffffffULL ? "ULL" : "U");
	if (paren)
		sb_putc(sb, ')');
}

void filter_emit_expr(struct strbuf *sb, const struct filter *f, const char *prefix,
		      const struct filter_emit_ops *ops, void *ctx)
{
	emit_node(sb, f->root, prefix, ops, ctx, FN_PRED);
}
