// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Spec expressions, printed as C that clang accepts with -Wall -Wextra
 * -Werror: constants typed as C would type them, parentheses where C or
 * clang's -Wparentheses want them, string tests as tpgen.h's helpers.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cstring.h"
#include "model/expr.h"

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
	v = expr_in_type(v, t);
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

static bool is_binary(const struct expr *e)
{
	return expr_prec(e->op) > 0 || e->op == EX_COND;
}

/*
 * Parentheses where C needs them, and where clang's -Wparentheses wants them:
 * && inside ||, and any mix of bit operators, shifts and comparisons.
 */
static bool needs_parens(const struct expr *parent, const struct expr *child, bool right)
{
	int pp = expr_prec(parent->op), cp = expr_prec(child->op);

	if (child->is_const || !is_binary(child))
		return false;
	if (child->op == EX_COND || parent->op == EX_COND)
		return true;
	if (cp < pp || (right && cp == pp))
		return true;
	/* 'a < b < c', 'a == b == c': gcc's -Wparentheses */
	if ((pp == 6 || pp == 7) && (cp == 6 || cp == 7))
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

static bool is_cmp(enum expr_op op)
{
	return op >= EX_LT && op <= EX_NE;
}

static void emit_child(struct strbuf *sb, const struct expr *parent, const struct expr *child, bool right,
		       const struct expr_emit_ops *ops, void *ctx)
{
	/* '(!a) == b', '(!a) | b': gcc's -Wlogical-not-parentheses and -Wparentheses */
	bool paren = needs_parens(parent, child, right) ||
		     ((is_cmp(parent->op) || parent->op == EX_BAND || parent->op == EX_BOR ||
		       parent->op == EX_BXOR) && child->op == EX_LNOT && !child->is_const);

	if (paren)
		sb_putc(sb, '(');
	emit_node(sb, child, ops, ctx);
	if (paren)
		sb_putc(sb, ')');
}

/*
 * An operand of a comparison or of '?:', whose values C converts to 't' (the
 * usual arithmetic conversions): a constant is written in 't', a signed value
 * made unsigned is cast as C casts it (what -Wsign-compare asks for).
 */
static void emit_converted(struct strbuf *sb, const struct expr *parent, const struct expr *child, bool right,
			   struct expr_type t, const struct expr_emit_ops *ops, void *ctx)
{
	struct expr_type ct = child->t;

	if (child->is_const) {
		emit_const(sb, child->num, t);
		return;
	}
	if (ct.size < 4)
		ct.is_signed = true;	/* promoted to int */
	if (ct.is_signed && !t.is_signed) {
		bool paren = is_binary(child);

		sb_printf(sb, "(%s)%s", expr_ctype(&t), paren ? "(" : "");
		emit_node(sb, child, ops, ctx);
		if (paren)
			sb_putc(sb, ')');
		return;
	}
	emit_child(sb, parent, child, right, ops, ctx);
}

/* The type C compares 'a' and 'b' in */
static struct expr_type common_type(struct expr_type a, struct expr_type b)
{
	if (a.size < 4)
		a = (struct expr_type){ .kind = ET_INT, .size = 4, .is_signed = true };
	if (b.size < 4)
		b = (struct expr_type){ .kind = ET_INT, .size = 4, .is_signed = true };
	if (a.size != b.size)
		return a.size > b.size ? a : b;
	a.is_signed = a.is_signed && b.is_signed;
	return a;
}

/* An operand of '!', '&&', '||' or the test of '?:' */
static void emit_bool(struct strbuf *sb, const struct expr *parent, const struct expr *child,
		      bool right, const struct expr_emit_ops *ops, void *ctx)
{
	if (child->is_const && parent->op != EX_COND) {
		/* clang's -Wconstant-logical-operand: '&& 4' is '&& 1' */
		sb_puts(sb, child->num ? "1" : "0");
		return;
	}
	if (expr_int_in_bool(child)) {
		sb_putc(sb, '(');
		emit_node(sb, child, ops, ctx);
		sb_puts(sb, ") != 0");
		return;
	}
	emit_child(sb, parent, child, right, ops, ctx);
}

static void emit_str_cmp(struct strbuf *sb, const struct expr *e, const struct expr_emit_ops *ops, void *ctx)
{
	const char *pat = e->b->text;
	size_t len = strlen(pat);

	if (e->op == EX_NE)
		sb_putc(sb, '!');
	if (e->op == EX_GLOB && expr_glob_is_prefix(e)) {
		/* "abc*" with no other wildcard: a prefix, as the kernel's MATCH_FRONT_ONLY */
		sb_puts(sb, "tpgen_prefix(");
		ops->string(ctx, sb, e->a->ref);
		sb_printf(sb, ", %s_s%d, %zu)", ops->lit_prefix, e->b->lit, len - 1);
		return;
	}
	if (e->op == EX_GLOB && expr_glob_is_suffix(e) && ops->user_addr && ops->user_addr(ctx, NULL, e->a->ref)) {
		/* a string longer than its buffer: its tail is read and matched */
		sb_puts(sb, "tpgen_glob_tail(");
		ops->string(ctx, sb, e->a->ref);
		sb_printf(sb, ", %s_s%d, ", ops->lit_prefix, e->b->lit);
		ops->user_addr(ctx, sb, e->a->ref);
		sb_putc(sb, ')');
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
	case EX_LNOT:
		if (expr_int_in_bool(e->a)) {
			sb_puts(sb, "((");
			emit_node(sb, e->a, ops, ctx);
			sb_puts(sb, ") == 0)");
			return;
		}
		/* fall through */
	case EX_NEG:
	case EX_POS:
	case EX_BNOT:
		sb_puts(sb, expr_op_text(e->op));
		/* '-(-a)', not '--a' (a decrement) */
		if (!e->a->is_const && (is_binary(e->a) || ((e->op == EX_NEG || e->op == EX_POS) &&
							   (e->a->op == EX_NEG || e->a->op == EX_POS)))) {
			sb_putc(sb, '(');
			emit_node(sb, e->a, ops, ctx);
			sb_putc(sb, ')');
		} else {
			emit_node(sb, e->a, ops, ctx);
		}
		return;
	case EX_COND:
		if (expr_int_in_bool(e->a)) {
			sb_putc(sb, '(');
			emit_bool(sb, e, e->a, false, ops, ctx);
			sb_putc(sb, ')');
		} else {
			emit_child(sb, e, e->a, false, ops, ctx);
		}
		sb_puts(sb, " ? ");
		emit_converted(sb, e, e->b, false, e->t, ops, ctx);
		sb_puts(sb, " : ");
		emit_converted(sb, e, e->c, false, e->t, ops, ctx);
		return;
	default:
		break;
	}
	if (e->b->t.kind == ET_STR && e->b->op == EX_STR) {
		emit_str_cmp(sb, e, ops, ctx);
		return;
	}
	if ((e->op == EX_DIV || e->op == EX_MOD) && e->t.is_signed) {
		/* BPF before v4 (and clang before 17) has no signed division: tpgen.h's, as C's */
		sb_printf(sb, "(%s)tpgen_s%s(", expr_ctype(&e->t), e->op == EX_DIV ? "div" : "mod");
		emit_node(sb, e->a, ops, ctx);
		sb_puts(sb, ", ");
		emit_node(sb, e->b, ops, ctx);
		sb_putc(sb, ')');
		return;
	}
	if (e->op == EX_LAND || e->op == EX_LOR) {
		emit_bool(sb, e, e->a, false, ops, ctx);
		sb_printf(sb, " %s ", expr_op_text(e->op));
		emit_bool(sb, e, e->b, true, ops, ctx);
		return;
	}
	if (is_cmp(e->op)) {
		struct expr_type t = common_type(e->a->t, e->b->t);

		emit_converted(sb, e, e->a, false, t, ops, ctx);
		sb_printf(sb, " %s ", expr_op_text(e->op));
		emit_converted(sb, e, e->b, true, t, ops, ctx);
		return;
	}
	emit_child(sb, e, e->a, false, ops, ctx);
	sb_printf(sb, " %s ", expr_op_text(e->op));
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
		if (expr_int_in_bool(e->a)) {
			sb_putc(sb, '(');
			emit_node(sb, e->a, ops, ctx);
			sb_puts(sb, ") != 0");
			return;
		}
		emit_node(sb, e->a, ops, ctx);
		return;
	}
	if (expr_int_in_bool(e)) {
		sb_putc(sb, '(');
		emit_node(sb, e, ops, ctx);
		sb_puts(sb, ") == 0");
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
