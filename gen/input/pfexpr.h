/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * C expressions as the kernel writes them in a format file's "print fmt:"
 * (macros already expanded): a tokenizer (pftokens.c), a parser into a
 * small tree (pfexpr.c), an evaluator with C's integer types (int, long,
 * unsigned, casts, the usual arithmetic conversions) and a printer that
 * writes the tree back as C with every name resolved, for a loader to
 * compile (pfeval.c).
 *
 * Names that are not REC->field are enum constants the kernel left
 * unexpanded (TCP_ESTABLISHED) and typedefs in casts (gfp_t); a caller
 * resolves them (from BTF, see pfbtf.h) or they stay unknown.
 */
#ifndef __TPGEN_PFEXPR_H
#define __TPGEN_PFEXPR_H

#include <stdbool.h>
#include "lib/util.h"

enum pf_tok_kind {
	PF_TOK_END,
	PF_TOK_NUM,		/* 12, 0x1fUL, 1ULL */
	PF_TOK_STR,		/* "..." */
	PF_TOK_CHAR,		/* 'x' */
	PF_TOK_IDENT,
	PF_TOK_PUNCT,		/* one of the codes below, or a single character */
};

/* two-character punctuators */
enum {
	PF_ARROW = 256, PF_SHL, PF_SHR, PF_LE, PF_GE, PF_EQ, PF_NE, PF_ANDAND, PF_OROR,
};

struct pf_tok {
	enum pf_tok_kind kind;
	int punct;		/* PF_TOK_PUNCT: the character or PF_* code */
	unsigned int pos;	/* offset in the text */
	unsigned int len;
};

struct pf_toks {
	const char *text;
	struct pf_tok *t;	/* ends with PF_TOK_END */
	int nr;
};

/*
 * Split 'text' into tokens. Returns 0, or -EINVAL with *bad the offset of a
 * character that starts no token (an unterminated string, a stray byte).
 */
int pf_tokenize(const char *text, struct pf_toks *toks, unsigned int *bad);
void pf_toks_clear(struct pf_toks *toks);
bool pf_tok_is(const struct pf_toks *toks, int i, int punct);
bool pf_tok_ident(const struct pf_toks *toks, int i, const char *name);
/* A string literal's (or adjacent literals') value, escapes decoded; NULL if malformed. */
char *pf_tok_string(const struct pf_toks *toks, int i, int *next);
char *pf_tok_strdup(const struct pf_toks *toks, int i);
/* One escape after a backslash at *p (n, x41, 101, ...); advances *p. Returns the byte, or -1. */
int pf_unescape(const char **p);

/* An integer type: width in bits (1 for _Bool) and signedness. */
struct pf_type {
	unsigned char bits;
	bool is_signed;
};

struct pf_val {
	unsigned long long v;	/* the value converted to 'type', then to 64 bits as C would */
	struct pf_type type;
};

enum pf_node_kind {
	PF_NUM,			/* literal, or a resolved name (num + type) */
	PF_FIELD,		/* REC->name */
	PF_NAME,		/* an identifier not resolved at parse time */
	PF_UNARY,		/* op a: - + ~ ! */
	PF_BINARY,		/* a op b */
	PF_COND,		/* a ? b : c */
	PF_CAST,		/* (type) a; type.bits == 0: a typedef nobody resolved, value kept */
};

struct pf_node {
	enum pf_node_kind kind;
	int op;
	struct pf_val num;	/* PF_NUM */
	struct pf_type type;	/* PF_CAST */
	char *name;		/* PF_FIELD, PF_NAME; PF_CAST: the type as written */
	struct pf_node *a, *b, *c;
	unsigned int pos;	/* offset in the text, for diagnostics */
};

/* How names are resolved: both callbacks may be NULL; they return 0 or -ENOENT. */
struct pf_env {
	int (*enum_value)(void *ctx, const char *name, struct pf_val *val);
	int (*type_info)(void *ctx, const char *name, struct pf_type *type);
	void *ctx;
	unsigned char long_bits;	/* the target's long: 64 (0 means 64) */
};

/*
 * Parse the expression in tokens [*i, end) (end: index of the first token
 * not to read, or -1 for "up to PF_TOK_END"); stops before a ',' '}' ')' at
 * depth 0 or at 'end'. Enum constants are resolved here when the env can.
 * Returns 0 with *out set and *i advanced, or -EINVAL with *err_pos and
 * *err_msg (static text) set.
 */
int pf_parse_expr(const struct pf_toks *toks, int *i, const struct pf_env *env,
		  struct pf_node **out, unsigned int *err_pos, const char **err_msg);
void pf_node_free(struct pf_node *n);

/*
 * Evaluate. 'field' gives a REC->name's value (NULL: a field is an error).
 * Returns 0, or -EINVAL (a name nobody resolved, a field without a getter),
 * -EDOM (division by zero, a shift out of range) with *err_pos set.
 */
typedef int (*pf_field_fn)(void *ctx, const char *name, struct pf_val *val);
int pf_eval(const struct pf_node *n, const struct pf_env *env, pf_field_fn field, void *ctx,
	    struct pf_val *out, unsigned int *err_pos);

/* The value of a field of 'size' bytes read as 'raw', as C promotes it. */
struct pf_val pf_field_val(unsigned long long raw, unsigned int size, bool is_signed);
/* 'v' converted to type 't' as C converts. */
struct pf_val pf_val_make(unsigned long long v, struct pf_type t);

/* Calls 'fn' for each distinct REC->field in the tree, in order. */
void pf_node_fields(const struct pf_node *n, void (*fn)(void *ctx, const char *name), void *ctx);
/* The tree is REC->name, maybe under casts that keep its value: the name, else NULL. */
const char *pf_node_plain_field(const struct pf_node *n);
bool pf_node_equal(const struct pf_node *a, const struct pf_node *b);

/*
 * Print the tree as a C expression of type unsigned long long with the
 * meaning pf_eval() gives it: literals typed by suffix, casts to standard C
 * types, each REC->name as the text 'field_c' returns for it.
 */
void pf_emit_c(struct strbuf *sb, const struct pf_node *n,
	       const char *(*field_c)(void *ctx, const char *name), void *ctx);

#endif /* __TPGEN_PFEXPR_H */
