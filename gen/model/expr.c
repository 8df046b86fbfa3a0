// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Spec expressions, typed: every node gets its C type (C's promotions and
 * usual arithmetic conversions), constants are folded, a number compared
 * with a value must fit it, strings are compared with literals only.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/expr.h"

/* 'v' as a value of type 't': truncated, sign-extended */
unsigned long long expr_in_type(unsigned long long v, struct expr_type t)
{
	unsigned int bits = t.size * 8;

	if (bits >= 64)
		return v;
	v &= (1ULL << bits) - 1;
	if (t.is_signed && (v >> (bits - 1)))
		v |= ~0ULL << bits;
	return v;
}

const char *expr_op_text(enum expr_op op)
{
	static const char *const s[] = {
		[EX_NEG] = "-", [EX_BNOT] = "~", [EX_LNOT] = "!", [EX_MUL] = "*", [EX_DIV] = "/",
		[EX_MOD] = "%", [EX_ADD] = "+", [EX_SUB] = "-", [EX_SHL] = "<<", [EX_SHR] = ">>",
		[EX_LT] = "<", [EX_LE] = "<=", [EX_GT] = ">", [EX_GE] = ">=", [EX_EQ] = "==",
		[EX_NE] = "!=", [EX_BAND] = "&", [EX_BXOR] = "^", [EX_BOR] = "|", [EX_LAND] = "&&",
		[EX_LOR] = "||", [EX_POS] = "+",
	};

	return s[op];
}

/* A glob "text*": one star, at the end, no '?' (tested as a prefix, no loop). */
bool expr_glob_is_prefix(const struct expr *e)
{
	const char *pat = e->b->text;
	size_t len = strlen(pat);

	return len > 1 && pat[len - 1] == '*' && strchr(pat, '*') == pat + len - 1 && !strchr(pat, '?');
}

bool expr_glob_is_suffix(const struct expr *e)
{
	const char *pat = e->b->text;
	size_t len = strlen(pat);

	/* tpgen_glob_tail() matches the last 127 bytes (TPGEN_GLOB_MAX - 1) */
	return len > 1 && len <= 128 && pat[0] == '*' && !strchr(pat + 1, '*');
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

static const struct expr_type t_int = { .kind = ET_INT, .size = 4, .is_signed = true };

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
	return (struct expr_type){ .kind = ET_INT, .size = a.size, .is_signed = a.is_signed && b.is_signed };
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

/*
 * An integer constant as C11 6.4.4.1 reads and types it (LP64): decimal
 * without 'u' is int, long; hex and octal are int, unsigned int, long,
 * unsigned long; 'u' makes it unsigned, 'l'/'ll' at least 64 bits. A decimal
 * too large for long (C makes it __int128, or warns) is refused.
 */
static int parse_number(const char *s, unsigned long long *v, struct expr_type *t)
{
	bool hex_oct = s[0] == '0' && s[1], u = false;
	int l = 0;
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -EINVAL;
	for (const char *q = end; *q; ) {
		if ((*q == 'u' || *q == 'U') && !u) {
			u = true;
			q++;
		} else if ((*q == 'l' || *q == 'L') && !l) {
			l = q[1] == q[0] ? 2 : 1;
			q += l;
		} else {
			return -EINVAL;
		}
	}
	t->kind = ET_INT;
	t->is_ptr = false;
	if (!l && !u && *v <= INT_MAX) {
		t->size = 4;
		t->is_signed = true;
	} else if (!l && (u || hex_oct) && *v <= UINT_MAX) {
		t->size = 4;
		t->is_signed = false;
	} else if (!u && *v <= LLONG_MAX) {
		t->size = 8;
		t->is_signed = true;
	} else if (u || hex_oct) {
		t->size = 8;
		t->is_signed = false;
	} else {
		return -ERANGE;
	}
	return 0;
}

static void add_lit(struct checker *c, struct expr *e)
{
	c->lits->v = xrealloc(c->lits->v, (c->lits->nr + 1) * sizeof(*c->lits->v));
	c->lits->v[c->lits->nr] = xstrdup(e->text);
	e->lit = c->lits->nr++;
}

static int check(struct checker *c, struct expr *e);

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
	l->t = (struct expr_type){ .kind = ET_STR, .size = strlen(l->text) + 1 };
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

/* ---- comparisons C knows the answer of ----------------------------------- */

typedef __int128 wide;

/* 0 or 1, as C's compilers see it: a test, '+', '& | ^' and '?:' of tests */
static bool is_truth(const struct expr *e)
{
	if (e->is_const)
		return e->num <= 1;
	switch (e->op) {
	case EX_LT: case EX_LE: case EX_GT: case EX_GE: case EX_EQ: case EX_NE: case EX_GLOB:
	case EX_LNOT: case EX_LAND: case EX_LOR:
		return true;
	case EX_POS:
		return is_truth(e->a);
	case EX_BAND: case EX_BOR: case EX_BXOR:
		return is_truth(e->a) && is_truth(e->b);
	case EX_COND:
		return is_truth(e->b) && is_truth(e->c);
	default:
		return false;
	}
}

static wide type_min(struct expr_type t)
{
	return t.is_signed ? -((wide)1 << (t.size * 8 - 1)) : 0;
}

static wide type_max(struct expr_type t)
{
	return t.is_signed ? ((wide)1 << (t.size * 8 - 1)) - 1 : ((wide)1 << (t.size * 8)) - 1;
}

static wide as_wide(unsigned long long v, struct expr_type t)
{
	v = expr_in_type(v, t);
	return t.is_signed ? (wide)(long long)v : (wide)v;
}

static void value_range(const struct expr *e, wide *lo, wide *hi);

/* 'x + 0', '0 + x', 'x - 0', 'x | 0', 'x ^ 0', 'x * 1', 'x / 1', 'x << 0', 'x >> 0': x */
static const struct expr *identity_of(const struct expr *e)
{
	const struct expr *k, *x;

	if (e->is_const || !e->b || e->op == EX_COND || !(e->a->is_const || e->b->is_const))
		return NULL;
	k = e->a->is_const ? e->a : e->b;
	x = k == e->a ? e->b : e->a;
	switch (e->op) {
	case EX_ADD: case EX_BOR: case EX_BXOR:
		return k->num == 0 ? x : NULL;
	case EX_SUB: case EX_SHL: case EX_SHR:
		return k == e->b && k->num == 0 ? x : NULL;
	case EX_MUL:
		return expr_in_type(k->num, e->t) == 1 ? x : NULL;
	case EX_DIV:
		return k == e->b && expr_in_type(k->num, e->t) == 1 ? x : NULL;
	default:
		return NULL;
	}
}

/*
 * '~x' of a u8 or u16 (or what C narrows to one: 'u8 | 5'; or a u32 made
 * 64 bits): x is widened first, so its high bits are ones, never 0. Its
 * width in bits, or 0.
 */
static unsigned int narrow_unsigned_not(const struct expr *e)
{
	const struct expr *x = NULL;
	wide lo, hi;

	if (e->is_const)
		return 0;
	if (e->op == EX_BNOT) {
		x = e->a;
	} else if (e->op == EX_SUB && e->a->is_const && !e->b->is_const &&
		   expr_in_type(e->a->num, e->t) == expr_in_type(~0ULL, e->t)) {
		/* '0xffffffffffffffff - x' is '~x' */
		x = e->b;
	} else if (e->op == EX_BXOR && !e->a->is_const && !e->b->is_const &&
		   (e->a->op == EX_BNOT) != (e->b->op == EX_BNOT)) {
		/* 'x ^ ~y' is '~(x ^ y)' to the compilers */
		const struct expr *n = e->a->op == EX_BNOT ? e->a : e->b, *o = n == e->a ? e->b : e->a;
		wide olo, ohi;

		value_range(o, &olo, &ohi);
		value_range(n->a, &lo, &hi);
		if (olo < 0 || lo < 0)
			return 0;
		hi = hi > ohi ? hi : ohi;
		for (unsigned int bits = 8; bits < e->t.size * 8; bits *= 2)
			if (hi < ((wide)1 << bits))
				return bits;
		return 0;
	} else if (e->op == EX_BXOR && (e->a->is_const || e->b->is_const)) {
		/* 'x ^ 0xffff': the compilers make it '~x' */
		const struct expr *k = e->a->is_const ? e->a : e->b;
		unsigned long long m = expr_in_type(k->num, e->t);

		x = k == e->a ? e->b : e->a;
		value_range(x, &lo, &hi);
		if (lo < 0 || !(m == expr_in_type(~0ULL, e->t) || m == 0xff || m == 0xffff || m == 0xffffffff))
			return 0;
		if (m != expr_in_type(~0ULL, e->t) && hi > (wide)m)
			return 0;
	}
	if (!x)
		return 0;
	while (identity_of(x))
		x = identity_of(x);
	value_range(x, &lo, &hi);
	if (lo < 0)
		return 0;
	for (unsigned int bits = 8; bits < e->t.size * 8; bits *= 2)
		if (hi < ((wide)1 << bits))
			return bits;
	return 0;
}

static bool not_of_narrow_unsigned(const struct expr *e)
{
	return narrow_unsigned_not(e) != 0;
}

static void range_of(const struct expr *e, wide *lo, wide *hi);

/*
 * What C knows of a value's range: a truth value is 0 or 1, a value read is
 * its type's (before promotion). Kept in the node: the rules look at their
 * operands' ranges more than once, and nesting would make that exponential.
 */
static void value_range(const struct expr *e, wide *lo, wide *hi)
{
	struct expr *m = (struct expr *)e;	/* the cache only */

	if (!(e->range_known && e->range_t.size == e->t.size && e->range_t.is_signed == e->t.is_signed &&
	      e->range_t.kind == e->t.kind && !e->is_const)) {
		range_of(e, lo, hi);
		m->range_known = true;
		m->range_t = e->t;
		m->range_lo = *lo;
		m->range_hi = *hi;
		if (e->is_const)
			m->range_known = false;	/* folded later: read it again */
		return;
	}
	*lo = e->range_lo;
	*hi = e->range_hi;
}

static void range_of(const struct expr *e, wide *lo, wide *hi)
{
	unsigned int bits;

	if (!e->is_const && e->op == EX_LNOT) {
		wide alo, ahi;

		value_range(e->a, &alo, &ahi);
		*lo = alo == 0 && ahi == 0;
		*hi = !(alo > 0 || ahi < 0);
		return;
	}
	if (is_truth(e)) {
		*lo = 0;
		*hi = 1;
		return;
	}
	bits = narrow_unsigned_not(e);	/* once: it looks at e's operands' ranges */
	if (bits) {
		*lo = -((wide)1 << bits);
		*hi = -1;
		return;
	}
	if (e->is_const) {
		*lo = *hi = as_wide(e->num, e->t);
		return;
	}
	if (e->op == EX_POS) {
		value_range(e->a, lo, hi);
		return;
	}
	if (identity_of(e)) {
		/* 'x + 0', 'x | 0', 'x * 1': the compilers see x (widened) */
		value_range(identity_of(e), lo, hi);
		if (*lo >= 0 || e->t.is_signed)
			return;
	}
	if (e->op == EX_NEG && e->t.is_signed) {
		wide alo, ahi;

		value_range(e->a, &alo, &ahi);
		if (alo > type_min(e->t)) {
			*lo = -ahi;
			*hi = -alo;
			return;
		}
	}
	if ((e->op == EX_DIV || e->op == EX_MOD || e->op == EX_SHR) && e->b->is_const) {
		wide alo, ahi, k = as_wide(e->b->num, e->b->t);

		value_range(e->a, &alo, &ahi);
		if (alo >= 0 && k > 0) {
			*lo = e->op == EX_DIV ? alo / k : e->op == EX_SHR ? alo >> k : 0;
			*hi = e->op == EX_DIV ? ahi / k : e->op == EX_SHR ? ahi >> k : (ahi < k - 1 ? ahi : k - 1);
			return;
		}
	}
	if (e->op == EX_BNOT) {
		/* ~x is -x - 1, or max - x unsigned */
		wide alo, ahi;

		value_range(e->a, &alo, &ahi);
		if (e->t.is_signed) {
			*lo = -ahi - 1;
			*hi = -alo - 1;
			return;
		}
		if (alo >= 0) {
			*lo = type_max(e->t) - ahi;
			*hi = type_max(e->t) - alo;
			return;
		}
	}
	if (e->op == EX_COND) {
		/* either branch (the one a constant test picks), unless C makes a negative one unsigned */
		wide blo, bhi, clo, chi;

		value_range(e->a->num ? e->b : e->c, &blo, &bhi);
		if (!e->a->is_const) {
			value_range(e->c, &clo, &chi);
			blo = blo < clo ? blo : clo;
			bhi = bhi > chi ? bhi : chi;
		}
		if (blo >= 0 || e->t.is_signed) {
			*lo = blo;
			*hi = bhi;
			return;
		}
	}
	if (e->op == EX_BAND || e->op == EX_BOR || e->op == EX_BXOR) {
		/* what the compilers narrow: bits of values that are never negative */
		wide alo, ahi, blo, bhi, top = 1;

		value_range(e->a, &alo, &ahi);
		value_range(e->b, &blo, &bhi);
		if (e->op == EX_BAND && (alo >= 0 || blo >= 0)) {
			*lo = 0;
			*hi = alo >= 0 && blo >= 0 ? (ahi < bhi ? ahi : bhi) : alo >= 0 ? ahi : bhi;
			if (e->a->is_const != e->b->is_const) {
				/* 'x & m' with x below 2^n: at most m's low n bits */
				const struct expr *k = e->a->is_const ? e->a : e->b;
				wide xhi = k == e->a ? bhi : ahi, xlo = k == e->a ? blo : alo;

				if (xlo >= 0) {
					while (top <= xhi)
						top <<= 1;
					if ((wide)(expr_in_type(k->num, e->t) & (unsigned long long)(top - 1)) < *hi)
						*hi = expr_in_type(k->num, e->t) & (unsigned long long)(top - 1);
					top = 1;
				}
			}
			return;
		}
		if (e->op != EX_BAND && alo >= 0 && blo >= 0) {
			while (top <= ahi || top <= bhi)
				top <<= 1;
			*lo = 0;
			*hi = top - 1;
			return;
		}
		if (e->t.is_signed || (alo >= 0 && blo >= 0) || e->t.size == 8) {
			/*
			 * both in b bits, two's complement: so is the result (a u64 one as
			 * if signed: to_type() wraps it, and nothing widens a u64)
			 */
			while (-top > alo || -top > blo || top - 1 < ahi || top - 1 < bhi)
				top <<= 1;
			if (top < ((wide)1 << (e->t.size * 8 - 1))) {
				*lo = -top;
				*hi = top - 1;
				return;
			}
		}
	}
	*lo = type_min(e->t);
	*hi = type_max(e->t);
}

static bool same_expr(const struct expr *a, const struct expr *b)
{
	if (!a || !b)
		return a == b;
	if (a->op != b->op || a->is_const != b->is_const)
		return false;
	if (a->is_const)
		return a->num == b->num && a->t.size == b->t.size && a->t.is_signed == b->t.is_signed;
	if (a->op == EX_REF)
		return a->ref == b->ref;
	if (a->op == EX_STR)
		return false;
	return same_expr(a->a, b->a) && same_expr(a->b, b->b) && same_expr(a->c, b->c);
}

/* [lo, hi] as C converts it to 't': one or two ranges */
static int to_type(wide lo, wide hi, struct expr_type t, wide out[2][2])
{
	wide m = t.is_signed ? 0 : (wide)1 << (t.size * 8);

	if (lo >= 0 || t.is_signed) {
		out[0][0] = lo;
		out[0][1] = hi;
		return 1;
	}
	if (hi < 0) {
		out[0][0] = lo + m;
		out[0][1] = hi + m;
		return 1;
	}
	out[0][0] = 0;
	out[0][1] = hi;
	out[1][0] = lo + m;
	out[1][1] = m - 1;
	return 2;
}

/* 'a OP b' for a in [alo, ahi], b in [blo, bhi]: always false (0), always true (1), or -1 */
static int known(enum expr_op op, wide lo, wide hi, wide klo, wide khi)
{
	switch (op) {
	case EX_LT: return hi < klo ? 1 : lo >= khi ? 0 : -1;
	case EX_LE: return hi <= klo ? 1 : lo > khi ? 0 : -1;
	case EX_GT: return lo > khi ? 1 : hi <= klo ? 0 : -1;
	case EX_GE: return lo >= khi ? 1 : hi < klo ? 0 : -1;
	case EX_EQ: return khi < lo || klo > hi ? 0 : lo == hi && klo == khi && lo == klo ? 1 : -1;
	case EX_NE: return khi < lo || klo > hi ? 1 : lo == hi && klo == khi && lo == klo ? 0 : -1;
	default: return -1;
	}
}

/*
 * A comparison whose answer C knows ('len < 0' on an unsigned, 'mode == -1'
 * on a u16, '(a < b) == 2', 'a == a'): the compilers warn, and the filter
 * would test nothing. Refused, with the reason.
 */
static int check_cmp_known(struct checker *c, struct expr *e)
{
	const struct expr *k = e->b, *v = e->a;
	struct expr_type t = usual(e->a->t, e->b->t);
	wide lo, hi, klo, khi;
	int res = -1;	/* always false (0), always true (1), or not known (-1) */
	char text[64];

	if (!e->a->is_const && !e->b->is_const && same_expr(e->a, e->b) && e->a->t.kind == ET_INT) {
		bool eq = e->op == EX_EQ || e->op == EX_LE || e->op == EX_GE;

		return cerr(c, e->off, "'%s' compares a value with itself: always %s", expr_op_text(e->op),
			    eq ? "true" : "false");
	}
	if (e->a->is_const && e->b->is_const)
		return 0;
	if (!e->a->is_const && !e->b->is_const && not_of_narrow_unsigned(e->a) != not_of_narrow_unsigned(e->b))
		return cerr(c, e->off, "'%s' compares '~' of a narrower unsigned value (widened first, so its "
			    "high bits are ones) with another value: C's compilers warn", expr_op_text(e->op));
	if (e->a->is_const) {
		k = e->a;
		v = e->b;
	} else if (!e->b->is_const) {
		k = NULL;
	}
	if (k && (e->op == EX_EQ || e->op == EX_NE) && (v->op == EX_BAND || v->op == EX_BOR) &&
	    (v->a->is_const || v->b->is_const)) {
		/* '(x & 4) == 8', '(x | 4) == 2': clang's -Wtautological-bitwise-compare */
		unsigned long long m = v->a->is_const ? v->a->num : v->b->num, kv = expr_in_type(k->num, t);

		m = expr_in_type(m, t);
		if (v->op == EX_BAND ? (kv & ~m) != 0 : (m & ~kv) != 0)
			return cerr(c, k->off, "'%s' is always %s: '%s' with %#llx never gives %#llx",
				    expr_op_text(e->op), e->op == EX_NE ? "true" : "false", expr_op_text(v->op),
				    m, kv);
	}
	value_range(v, &lo, &hi);
	if (k)
		klo = khi = as_wide(k->num, t);
	else
		value_range(v == e->a ? e->b : e->a, &klo, &khi);
	{
		/* each side as C converts it to t: a negative part of a range wraps when t is unsigned */
		wide vr[2][2], kr[2][2];
		int nv = to_type(lo, hi, t, vr), nk = to_type(klo, khi, t, kr);
		enum expr_op op = v == e->b ? (e->op == EX_LT ? EX_GT : e->op == EX_GT ? EX_LT :
					       e->op == EX_LE ? EX_GE : e->op == EX_GE ? EX_LE : e->op) : e->op;

		for (int i = 0; i < nv; i++)
			for (int j = 0; j < nk; j++) {
				int r = known(op, vr[i][0], vr[i][1], kr[j][0], kr[j][1]);

				res = i + j == 0 ? r : res == r ? res : -1;
			}
	}
	if (res >= 0 && !k)
		return cerr(c, e->off, "'%s' is always %s here: the values of its two sides do not overlap "
			    "(C promotes '~' of an unsigned u8/u16 to a negative int; a test gives 0 or 1)",
			    expr_op_text(e->op), res ? "true" : "false");
	if (res < 0)
		return 0;
	const_text(k, text, sizeof(text));
	if (is_truth(v))
		return cerr(c, k->off, "a comparison with %s is always %s: '%s' gives 0 or 1", text,
			    res ? "true" : "false", expr_op_text(v->op));
	return cerr(c, k->off, "a comparison with %s is always %s in C: %s%s%s is %s%u bits (%lld to %llu)",
		    text, res ? "true" : "false", v->op == EX_REF ? "'" : "", v->op == EX_REF ? v->text : "the value",
		    v->op == EX_REF ? "'" : "", v->t.is_signed ? "signed, " : "unsigned, ", v->t.size * 8,
		    (long long)lo, (unsigned long long)hi);
}

/* A value tested as true or false ('!x', 'x && y', 'x ? :', a filter) */
static int check_truth(struct checker *c, const struct expr *e)
{
	int err;

	while (!e->is_const && (e->op == EX_POS || e->op == EX_NEG || identity_of(e)))
		e = e->op == EX_POS || e->op == EX_NEG ? e->a : identity_of(e);
	if (!e->is_const && e->op == EX_COND) {
		/* the compilers test the branches */
		err = e->a->is_const && !e->a->num ? 0 : check_truth(c, e->b);
		if (!err && !(e->a->is_const && e->a->num))
			err = check_truth(c, e->c);
		return err;
	}
	if (!e->is_const && e->op == EX_BOR && ((e->a->is_const && e->a->num) || (e->b->is_const && e->b->num)))
		return cerr(c, e->off, "'|' with a constant that is not 0 is never 0: as a test it is always true");
	if (not_of_narrow_unsigned(e))
		return cerr(c, e->off, "'~' of a %u-bit unsigned value is never 0 (C widens it to %u bits "
			    "first): as a test it is always true", narrow_unsigned_not(e), e->t.size * 8);
	return 0;
}

static unsigned long long fold(const struct expr *e, int *err)
{
	unsigned long long a = e->a ? e->a->num : 0, b = e->b ? e->b->num : 0;
	bool s = e->a && usual(e->a->t, e->b ? e->b->t : e->a->t).is_signed;

	if (e->a && e->b && e->op != EX_COND && e->op != EX_SHL && e->op != EX_SHR &&
	    e->op != EX_LAND && e->op != EX_LOR) {
		/* both operands converted to their common type first, as C does ('-1 > 4294967295u') */
		struct expr_type t = usual(e->a->t, e->b->t);

		a = expr_in_type(a, t);
		b = expr_in_type(b, t);
	}

	switch (e->op) {
	case EX_NEG: return -a;
	case EX_POS: return a;
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

/* Arithmetic on a kernel address: the verifier refuses it on BTF pointers, and it means nothing */
static int check_not_ptr(struct checker *c, const struct expr *e, enum expr_op op)
{
	if (e->t.is_ptr)
		return cerr(c, e->off, "'%s' is a pointer: compare it with == or != or print it; '%s' "
			    "does not apply", e->text ? e->text : "this", expr_op_text(op));
	return 0;
}

static int check(struct checker *c, struct expr *e)
{
	int err, id, zero = 0;

	switch (e->op) {
	case EX_NUM:
		err = parse_number(e->text, &e->num, &e->t);
		if (err == -ERANGE)
			return cerr(c, e->off, "%s is too large for a signed decimal constant (C would make it "
				    "unsigned, with a warning): write %su or 0x%llx", e->text, e->text, e->num);
		if (err)
			return cerr(c, e->off, "'%s' is not a number (decimal, 0x hex or 0 octal, at most 64 bits, "
				    "with C's suffixes u, l, ul, ll, ull)", e->text);
		e->is_const = true;
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
	case EX_POS:
	case EX_BNOT:
	case EX_LNOT:
		err = check(c, e->a);
		if (!err)
			err = check_int(c, e->a, e->op == EX_LNOT ? "'!'" : e->op == EX_BNOT ? "'~'" :
					e->op == EX_NEG ? "'-'" : "'+'");
		if (!err && e->op != EX_LNOT)
			err = check_not_ptr(c, e->a, e->op);
		if (!err && e->op == EX_LNOT)
			err = check_truth(c, e->a);
		if (!err && e->op == EX_BNOT && is_truth(e->a) && !e->a->is_const)
			err = cerr(c, e->off, "'~' of a truth value (0 or 1) is -1 or -2, never 0: did you mean '!'?");
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
			if (!err)
				err = check_truth(c, e->a);
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
			/* a constant test picks a constant: C folds it */
			if (e->a->is_const && (e->a->num ? e->b : e->c)->is_const)
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
				    e->a->text ? e->a->text : "this", expr_op_text(e->op));
		if (e->b->op == EX_STR || (e->b->op == EX_REF && bare_word(c, e->b)))
			return cerr(c, e->b->off, "'%s' is a number: compare it with a number, not '%s'",
				    e->a->text ? e->a->text : "this", e->b->text);
		err = check(c, e->b);
		if (!err)
			err = check_int(c, e->b, "this operator");
		if (!err && e->op != EX_EQ && e->op != EX_NE && e->op != EX_LAND && e->op != EX_LOR) {
			err = check_not_ptr(c, e->a, e->op);
			if (!err)
				err = check_not_ptr(c, e->b, e->op);
		}
		if (err)
			return err;
		switch (e->op) {
		case EX_LT: case EX_LE: case EX_GT: case EX_GE: case EX_EQ: case EX_NE:
			/* a number against a value: it must fit the value, taken in its width */
			if (e->b->is_const && !e->a->is_const)
				err = check_const_fits(c, e->b, e->a);
			else if (e->a->is_const && !e->b->is_const)
				err = check_const_fits(c, e->a, e->b);
			if (!err)
				err = check_cmp_known(c, e);
			if (err)
				return err;
			e->t = t_int;
			break;
		case EX_LAND: case EX_LOR:
			err = check_truth(c, e->a);
			if (!err)
				err = check_truth(c, e->b);
			if (err)
				return err;
			e->t = t_int;
			/* 'x || 1' is 1, 'x && 0' is 0 (no side effects): C's compilers fold them */
			if ((e->a->is_const || e->b->is_const) &&
			    !!(e->a->is_const ? e->a->num : e->b->num) == (e->op == EX_LOR)) {
				e->num = e->op == EX_LOR;
				e->is_const = true;
				return 0;
			}
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
	if ((e->op == EX_BAND || e->op == EX_MUL) && ((e->a->is_const && !e->a->num) ||
						       (e->b->is_const && !e->b->num))) {
		/* 'x & 0', 'x * 0': 0, as C's compilers fold it */
		e->num = 0;
		e->is_const = true;
		return 0;
	}
	if (!e->a->is_const || (e->b && !e->b->is_const))
		return 0;
constant:
	e->num = expr_in_type(fold(e, &zero), e->t);
	if (zero)
		return cerr(c, e->off, "division by zero");
	e->is_const = true;
	return 0;
}

bool expr_int_in_bool(const struct expr *e)
{
	/* the compilers look through signs: '-x' is 0 when x is */
	while (!e->is_const && (e->op == EX_POS || e->op == EX_NEG))
		e = e->a;
	return !e->is_const && (e->op == EX_MUL || e->op == EX_SHL || e->op == EX_COND);
}

/*
 * A condition's conjuncts (printed one by one, each tested as a truth value)
 * that are a product, a shift or a '?:': 'x != 0', as gcc's
 * -Wint-in-bool-context wants, the same test.
 */
static void conjuncts_as_tests(struct expr *e)
{
	struct expr *v, *zero;

	if (e->is_const)
		return;
	if (e->op == EX_LAND) {
		conjuncts_as_tests(e->a);
		conjuncts_as_tests(e->b);
		return;
	}
	if (!expr_int_in_bool(e))
		return;
	v = xmalloc(sizeof(*v));
	*v = *e;
	zero = xcalloc(1, sizeof(*zero));
	*zero = (struct expr){ .op = EX_NUM, .off = e->off, .text = xstrdup("0"), .t = v->t, .is_const = true,
			       .ref = -1, .lit = -1 };
	*e = (struct expr){ .op = EX_NE, .a = v, .b = zero, .off = e->off, .t = t_int, .ref = -1, .lit = -1 };
}

int expr_check(struct expr *e, const struct spec *s, const struct spec_str *src, bool cond,
	       expr_resolve_fn resolve, void *ctx, struct expr_lits *lits)
{
	struct checker c = { .spec = s, .src = src, .resolve = resolve, .ctx = ctx, .lits = lits };
	int err = check(&c, e);

	if (!err && e->t.kind == ET_STR && cond)
		return cerr(&c, e->off, "a condition needs a comparison, and '%s' is a string", e->text);
	if (!err && cond)
		err = check_truth(&c, e);
	if (!err && cond)
		conjuncts_as_tests(e);
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

void expr_lits_clear(struct expr_lits *lits)
{
	for (int i = 0; i < lits->nr; i++)
		free(lits->v[i]);
	free(lits->v);
	lits->v = NULL;
	lits->nr = 0;
}
