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
	if (e->op == EX_GLOB && expr_glob_is_prefix(e)) {
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
		sb_puts(sb, expr_op_text(e->op));
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
	if ((e->op == EX_DIV || e->op == EX_MOD) && e->t.is_signed) {
		/* BPF before v4 (and clang before 17) has no signed division: tpgen.h's, as C's */
		sb_printf(sb, "(%s)tpgen_s%s(", expr_ctype(&e->t), e->op == EX_DIV ? "div" : "mod");
		emit_node(sb, e->a, ops, ctx);
		sb_puts(sb, ", ");
		emit_node(sb, e->b, ops, ctx);
		sb_putc(sb, ')');
		return;
	}
	emit_child(sb, e, e->a, false, ops, ctx);
	sb_printf(sb, " %s ", expr_op_text(e->op));
	/* a number against a value is taken in the value's width, as the kernel's filters do */
	if (e->b->is_const && !e->a->is_const && expr_prec(e->op) >= 6 && expr_prec(e->op) <= 7)
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
