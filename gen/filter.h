/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Event filters in the tracefs grammar (Documentation/trace/events.rst,
 * "Event filtering"): parsed, type-checked against the event's fields and
 * compiled to a C expression for the BPF program.
 *
 *   expr  := or
 *   or    := and ( '||' and )*
 *   and   := unary ( '&&' unary )*
 *   unary := '!' unary | '(' expr ')' | pred
 *   pred  := FIELD OP VALUE | FIELD '&' NUMBER
 *   OP    := == != < <= > >= & ~
 *   VALUE := NUMBER (decimal, 0x hex, 0 octal, leading -) | "string" | 'string' | word
 */
#ifndef __TPGEN_FILTER_H
#define __TPGEN_FILTER_H

#include <stdbool.h>
#include "spec.h"
#include "util.h"

enum filter_op {
	FOP_EQ, FOP_NE, FOP_LT, FOP_LE, FOP_GT, FOP_GE, FOP_AND_BITS, FOP_GLOB,
};

enum filter_node_kind { FN_OR, FN_AND, FN_NOT, FN_PRED };

struct filter_node {
	enum filter_node_kind kind;
	struct filter_node *l, *r;
	/* FN_PRED */
	char *field;
	size_t field_off;	/* byte offsets in the filter text, for diagnostics */
	enum filter_op op;
	size_t op_off;
	char *str;		/* string value, or the number's text */
	bool quoted;		/* the value was a quoted string */
	size_t val_off;
	unsigned long long num;
	bool is_str;		/* after checking: a string comparison */
	bool is_signed;		/* after checking: the field's signedness and size */
	unsigned int size;
	int ref;		/* after checking: the resolver's id of the field */
	int lit;		/* string literal index, or -1 */
};

struct filter {
	struct filter_node *root;
	char **lits;		/* string literals (patterns), in order of appearance */
	int nr_lits;
	int *refs;		/* distinct field ids used, in order of appearance */
	int nr_refs;
};

/* What the checker learns about a field from the resolver. */
struct filter_field {
	bool is_str;		/* char array, __data_loc char[] or char pointer */
	bool is_signed;
	unsigned int size;	/* scalar size, or the string buffer size */
};

/*
 * Resolve 'name' (at byte 'off' of the filter) to an id >= 0, or report the
 * error itself (spec_error) and return -EINVAL.
 */
typedef int (*filter_resolve_fn)(void *ctx, const char *name, size_t off, struct filter_field *f);

int filter_parse(const struct spec *s, const struct spec_str *src, struct filter **out);
int filter_check(struct filter *f, const struct spec *s, const struct spec_str *src,
		 filter_resolve_fn resolve, void *ctx);
void filter_free(struct filter *f);

struct filter_emit_ops {
	/* an integer expression for the field */
	void (*value)(void *ctx, struct strbuf *sb, int ref);
	/* the name of a char buffer holding the field's string */
	void (*string)(void *ctx, struct strbuf *sb, int ref);
};

/* 'const char <prefix>_s<N>[] = "...";' for each pattern (global: clang may merge
 * a static one into .rodata.str1.1, which BTF then misplaces). */
void filter_emit_literals(struct strbuf *sb, const struct filter *f, const char *prefix);
/* The filter as one C expression, true when the event passes. */
void filter_emit_expr(struct strbuf *sb, const struct filter *f, const char *prefix,
		      const struct filter_emit_ops *ops, void *ctx);

/* A C string literal (with quotes) for arbitrary bytes; safe in any C context. */
void c_string(struct strbuf *sb, const char *s);
/* Text safe inside a C comment: no "*" "/" pair, no control characters. */
void c_comment_text(struct strbuf *sb, const char *s);

#endif /* __TPGEN_FILTER_H */
