// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * C's integer arithmetic on print fmt expressions, and the expressions as
 * C text. See pfexpr.h.
 *
 * Types follow C on an LP64 target: operands are promoted and converted as
 * C does and arithmetic wraps (-fwrapv). What C leaves undefined and the
 * kernel could not have compiled (division by zero, a shift by the width
 * or more) is an error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "input/pfexpr.h"

static const struct pf_type t_int = { 32, true };

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

struct pf_val pf_val_make(unsigned long long v, struct pf_type t)
{
	return (struct pf_val){ convert(v, t), t };
}

struct pf_val pf_field_val(unsigned long long raw, unsigned int size, bool is_signed)
{
	struct pf_type t = { size >= 8 ? 64 : size * 8, is_signed };

	return pf_val_make(raw, t);
}

static struct pf_val promote(struct pf_val a)
{
	if (a.type.bits < 32)
		return pf_val_make(a.v, t_int);
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
			*out = pf_val_make(n->op == PF_OROR, t_int);
			return 0;
		}
		err = eval(e, n->b, &b);
		if (!err)
			*out = pf_val_make(b.v != 0, t_int);
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
		*out = pf_val_make(r, t);
		return 0;
	}
	t = common(a.type, b.type);
	a = pf_val_make(a.v, t);
	b = pf_val_make(b.v, t);
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
	case PF_EQ: *out = pf_val_make(a.v == b.v, t_int); return 0;
	case PF_NE: *out = pf_val_make(a.v != b.v, t_int); return 0;
	case '<': case '>': case PF_LE: case PF_GE: {
		int c = t.is_signed ? ((long long)a.v > (long long)b.v) - ((long long)a.v < (long long)b.v) :
				      (a.v > b.v) - (a.v < b.v);

		r = n->op == '<' ? c < 0 : n->op == '>' ? c > 0 : n->op == PF_LE ? c <= 0 : c >= 0;
		*out = pf_val_make(r, t_int);
		return 0;
	}
	default:
		e->err_pos = n->pos;
		return -EINVAL;
	}
	*out = pf_val_make(r, t);
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
		case '-': *out = pf_val_make(-a.v, a.type); break;
		case '+': *out = a; break;
		case '~': *out = pf_val_make(~a.v, a.type); break;
		default: *out = pf_val_make(!a.v, t_int); break;
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
			b = pf_val_make(b.v, common(b.type, promote(c).type));
		*out = b;
		return 0;
	case PF_CAST:
		err = eval(e, n->a, &a);
		if (err)
			return err;
		*out = n->type.bits ? pf_val_make(a.v, n->type) : a;
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
