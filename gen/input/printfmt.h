/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * An event's "print fmt:" line, read for what turns its numbers into names:
 *
 *   __print_symbolic(REC->state, { 1, "TCP_ESTABLISHED" }, ...)   a value -> a name
 *   __print_flags(REC->flags, "|", { 0x1, "A" }, { 0x2, "B" })     bits -> "A|B"
 *   (and their _u64 forms), and the fields printed as addresses or bytes:
 *   %pI4 %pI6 %pI6c %pIS[pc] %pM, __print_hex(REC->field, len); and the
 *   addresses: %pS %pB (symbol+offset), %ps (symbol), %p %px %pK (hex).
 *
 * Values are C constant expressions (1 << 3, ((unsigned long)(0x400u)), -1,
 * enum constants the kernel left unexpanded, resolved through pf_env); the
 * value decoded may be an expression of fields (REC->prev_state & 0xff,
 * (REC->ioprio >> 13) & 7). A __print_* call the parser cannot read leaves
 * its field numeric with one warning; parsing never fails because of one.
 *
 * Rendering follows libtraceevent (what perf and trace-cmd print), see
 * bpf/tpgen_names.h: tpgen_print_symbolic(), tpgen_print_flags().
 */
#ifndef __TPGEN_PRINTFMT_H
#define __TPGEN_PRINTFMT_H

#include <stdbool.h>
#include "input/pfexpr.h"

enum pf_table_kind {
	PF_SYMBOLIC,		/* __print_symbolic[_u64]: the first entry equal to the value */
	PF_FLAGS,		/* __print_flags[_u64]: every entry whose bits are all set, joined by sep */
};

struct pf_entry {
	unsigned long long value;	/* as the kernel compares it: the constant converted to unsigned long (u64) */
	char *name;
	bool from_btf;		/* the value names an enum constant resolved through pf_env */
	unsigned int vstart, vend;	/* the value expression in the print fmt text */
};

struct pf_table {
	enum pf_table_kind kind;
	bool u64;		/* __print_*_u64 */
	/*
	 * The field the value comes from: the only REC->field in 'expr', or
	 * the last one (REC->found ? REC->status : 0 decodes status). NULL
	 * when no field is involved (__print_symbolic(3, ...)).
	 */
	char *field;
	/* The decoded value. Plain REC->field (maybe cast to 64 bits) when 'direct'. */
	struct pf_node *expr;
	bool direct;
	char *sep;		/* PF_FLAGS: the separator, "" when none */
	/*
	 * "cond ? __print_flags(X, ...) : "R"" with cond the same as X: the
	 * name printed for 0 instead of the table ("R" for a running task).
	 */
	char *zero_name;
	struct pf_entry *entries;	/* in the order of the print fmt: order decides flags */
	int nr_entries;
	/* The call (with its ternary when zero_name is set) in the print fmt text, and its first argument. */
	unsigned int start, end;
	unsigned int call_start, call_end, arg_start, arg_end;
};

enum pf_addr_kind {
	PF_ADDR_IPV4,		/* %pI4, %pi4: 4 bytes, dotted quad */
	PF_ADDR_IPV6,		/* %pI6: 16 bytes, 8 groups of 4 hex digits */
	PF_ADDR_IPV6C,		/* %pI6c: 16 bytes, RFC 5952 compressed */
	PF_ADDR_SOCKADDR,	/* %pIS[pc...]: struct sockaddr_in/_in6 */
	PF_ADDR_MAC,		/* %pM: 6 bytes, aa:bb:cc:dd:ee:ff */
	PF_ADDR_HEX,		/* __print_hex(REC->field, len), __print_hex_str */
	PF_ADDR_KSYM,		/* %pS, %pB (%pF, %pSR): a kernel text address, "symbol+0xoff" */
	PF_ADDR_KSYM_NAME,	/* %ps (%pf): the symbol without its offset */
	PF_ADDR_PTR,		/* %p, %px, %pK (no extension letter): an address, in hex */
};

struct pf_addr {
	enum pf_addr_kind kind;
	char *field;		/* REC->field or __get_dynamic_array(field) */
	char *flags;		/* %pIS: the letters after "IS" ("pc"); %pM: "R", "F"; else "" */
	char *conv;		/* the conversion as written ("pI4", "pISpc"); NULL for __print_hex */
	/* the argument (__print_hex: the whole call) in the print fmt text */
	unsigned int start, end;
};

struct printfmt {
	struct pf_table *tables;	/* in the order of the print fmt */
	int nr_tables;
	struct pf_addr *addrs;
	int nr_addrs;
	int nr_skipped;			/* __print_* calls left numeric (each warned once) */
};

/*
 * Read 'text', the "print fmt:" line of the format file 'path' (line 'line';
 * with or without its "print fmt: " prefix; columns in warnings count from
 * the line's start). 'env' resolves names (may be NULL). Always returns 0
 * and fills 'pf' with what it could read; warnings name what it could not.
 */
int printfmt_parse(const char *path, int line, const char *text, const struct pf_env *env,
		   struct printfmt *pf);
void printfmt_clear(struct printfmt *pf);

/* The first table decoding 'field', or NULL. */
const struct pf_table *printfmt_table(const struct printfmt *pf, const char *field);
/* How 'field' is printed as an address or bytes, or NULL. */
const struct pf_addr *printfmt_addr(const struct printfmt *pf, const char *field);

/*
 * The value a table decodes, given a getter of field values (see pf_eval).
 * Returns 0, or -EINVAL/-EDOM when the expression cannot be evaluated for
 * these values (a shift by 40): print the number then.
 */
int pf_table_value(const struct pf_table *t, pf_field_fn field, void *ctx,
		   unsigned long long *value);

#endif /* __TPGEN_PRINTFMT_H */
