/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Expressions of a spec: C's integer expressions over an event's values
 * (fields, raw arguments and members, built-ins, saved and named values),
 * with the tracefs filter grammar as a subset (bare words and '~' globs).
 *
 *   cond  := lor ( '?' cond ':' cond )?
 *   lor   := land ( '||' land )*          land := bor ( '&&' bor )*
 *   bor   := bxor ( '|' bxor )*           bxor := band ( '^' band )*
 *   band  := eq ( '&' eq )*               eq   := rel ( ('=='|'!='|'~') rel )*
 *   rel   := shift ( ('<'|'<='|'>'|'>=') shift )*
 *   shift := add ( ('<<'|'>>') add )*     add  := mul ( ('+'|'-') mul )*
 *   mul   := unary ( ('*'|'/'|'%') unary )*
 *   unary := ('!'|'-'|'+'|'~') unary | '(' cond ')' | NUMBER | STRING | NAME
 *   NUMBER:= C's integer constants: decimal, 0x hex, 0 octal, suffixes u l ul ll ull,
 *            typed as C11 6.4.4.1 types them ('--' and '++' are refused: C's
 *            decrement and increment)
 *   NAME  := ident ( ('.'|'->') ident )*
 *
 * Values keep their C type (width and sign), so the generated C computes
 * exactly what C would (tests/t_expr_c.sh compares the two); a number
 * compared with a value is checked to fit it (-1 on a u32 is 0xffffffff, in
 * C as in the kernel's filters), and a comparison C knows the answer of
 * ('mode == -1' on a u16, 'len < 0' on an unsigned, 'a == a') is refused.
 */
#ifndef __TPGEN_EXPR_H
#define __TPGEN_EXPR_H

#include <stdbool.h>
#include "lib/limits.h"
#include "input/spec.h"
#include "lib/util.h"

enum expr_op {
	EX_NUM, EX_STR, EX_REF,
	EX_NEG, EX_BNOT, EX_LNOT,
	EX_MUL, EX_DIV, EX_MOD, EX_ADD, EX_SUB, EX_SHL, EX_SHR,
	EX_LT, EX_LE, EX_GT, EX_GE, EX_EQ, EX_NE, EX_GLOB,
	EX_BAND, EX_BXOR, EX_BOR, EX_LAND, EX_LOR, EX_COND,
	EX_POS,		/* unary '+': C's promotion */
};

enum expr_kind { ET_INT, ET_STR };

struct expr_type {
	enum expr_kind kind;
	unsigned int size;	/* ET_INT: 1, 2, 4, 8; ET_STR: buffer size */
	bool is_signed;
	bool is_ptr;		/* a kernel address: compared or printed, no arithmetic */
};

struct expr {
	enum expr_op op;
	struct expr *a, *b, *c;
	size_t off;		/* byte offset in the source text, for diagnostics */
	char *text;		/* EX_REF: the name; EX_STR: the string; EX_NUM: as written */
	bool quoted;		/* EX_STR: written in quotes (not a bare word) */
	unsigned long long num;	/* EX_NUM, and any constant after checking */
	/* after expr_check() */
	struct expr_type t;
	bool is_const;
	int ref;		/* EX_REF: the resolver's id */
	int lit;		/* EX_STR: index of the literal */
	/* the checker's cache of what C knows of the value's range, for the type it had then */
	bool range_known;
	struct expr_type range_t;
	__int128 range_lo, range_hi;
};

/*
 * What a name is: an id >= 0 and its type. An unknown name gives -ENOENT
 * without a word when !report (the checker may take it as a bare word), and
 * is reported (-EINVAL) otherwise; other errors are reported, -EINVAL.
 */
typedef int (*expr_resolve_fn)(void *ctx, const char *name, size_t off, struct expr_type *t, bool report);

struct expr_lits {
	char **v;
	int nr;
};

int expr_parse(const struct spec *s, const struct spec_str *src, struct expr **out);
/* Type 'e' (a condition when 'cond'); string literals are added to 'lits'. */
int expr_check(struct expr *e, const struct spec *s, const struct spec_str *src, bool cond,
	       expr_resolve_fn resolve, void *ctx, struct expr_lits *lits);
void expr_free(struct expr *e);
/* The distinct ids the expression reads, in order; with 'strings', only string ones. */
void expr_refs(const struct expr *e, int **refs, int *nr);
/* A '~' whose pattern is "abc*": a prefix test, not a glob (tpgen_prefix()). */
bool expr_glob_is_prefix(const struct expr *e);
/* '~' with "*suffix": one '*', the first byte, a suffix of at most 127 bytes */
bool expr_glob_is_suffix(const struct expr *e);
/* A product, shift or '?:' (under signs): as a truth value, gcc's -Wint-in-bool-context wants 'x != 0' */
bool expr_int_in_bool(const struct expr *e);
/* A bare reference's name, or NULL when 'e' computes something. */
const char *expr_ref_name(const struct expr *e);

struct expr_emit_ops {
	void (*value)(void *ctx, struct strbuf *sb, int ref);	/* an integer C expression */
	void (*string)(void *ctx, struct strbuf *sb, int ref);	/* a char buffer */
	const char *lit_prefix;					/* literals are <prefix>_s<N> */
	/* the address of a string in user memory, which a "*suffix" glob reads the tail of; false: none */
	bool (*user_addr)(void *ctx, struct strbuf *sb, int ref);
};

void expr_emit(struct strbuf *sb, const struct expr *e, const struct expr_emit_ops *ops, void *ctx);
/* The negation of a condition: a == b -> a != b, !x -> x, else !(...). */
void expr_emit_not(struct strbuf *sb, const struct expr *e, const struct expr_emit_ops *ops, void *ctx);
/* The C type of a value of type 't': "__s32", "__u64" ... */
const char *expr_ctype(const struct expr_type *t);
/* 'const char <prefix>_s<N>[] = "...";' for each literal. */
void expr_emit_literals(struct strbuf *sb, const struct expr_lits *lits, const char *prefix);
void expr_lits_clear(struct expr_lits *lits);

/* Shared by the parser, checker and printer. */
int expr_prec(enum expr_op op);		/* binding power of a binary operator, 0 if none */
unsigned long long expr_in_type(unsigned long long v, struct expr_type t);
const char *expr_op_text(enum expr_op op);

#endif /* __TPGEN_EXPR_H */
