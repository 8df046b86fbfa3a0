/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * How a value is shown: the decode model of print columns and aggregation
 * keys (gen/decode.c), printed into the loader by gen/emit_names.c.
 *
 * A column is shown by name when the spec says how (errno(ret),
 * syscall(id), signal(sig), ipv4(addr), ipv6(addr), ntohs(port),
 * enum(x, sock_type)), or, for a format field written as it is, when the
 * event's print fmt decodes that field (__print_symbolic, __print_flags,
 * %pI4, %pI6c). Text shows the name; JSON keeps the number and adds
 * "<column>_name". Addresses are shown as text in both.
 */
#ifndef __TPGEN_DECODE_H
#define __TPGEN_DECODE_H

#include <stdbool.h>

enum decode_kind {
	DECODE_SYMBOLIC,	/* the first entry equal: __print_symbolic, a BTF enum */
	DECODE_FLAGS,		/* __print_flags: every entry whose bits are set */
	DECODE_ERRNO,		/* a negative return: -2 is ENOENT */
	DECODE_SIGNAL,
	DECODE_SYSCALL,		/* the target kernel's syscall numbers */
	DECODE_IPV4,		/* 4 bytes (__u8[4], a __be32) */
	DECODE_IPV6,		/* 16 bytes, compressed as %pI6c */
	DECODE_HEX,		/* other bytes: "0a1b2c" */
	DECODE_NTOHS,		/* a __be16 in host order: a number, no name */
};

struct decode_sym {
	unsigned long long value;
	char *name;
};

struct decode {
	enum decode_kind kind;
	char *ident;		/* the loader's 'struct show' of it */
	char *table;		/* its names (DECODE_SYMBOLIC, DECODE_FLAGS, DECODE_SYSCALL) */
	char *value_fn;		/* with value_c: the function computing it */
	char *source;		/* where the names come from, for a comment: "print fmt of irq/softirq_exit" */
	struct decode_sym *syms;	/* DECODE_SYMBOLIC, DECODE_FLAGS: in the kernel's order */
	int nr_syms;
	char *sep;		/* DECODE_FLAGS */
	char *zero_name;	/* DECODE_FLAGS: the name of 0 ("R"), or NULL */
	char *value_c;		/* the value a print fmt table decodes, as C of 'v'; NULL: v itself */
	int width;		/* a text column's width */
};

struct prog;
struct pprobe;
struct resolver;
struct spec_item;

/*
 * An item of print, count or by: "errno(ret)" and the like name how it is
 * shown; its value is what is inside, written into 'inner' with the call
 * blanked out (so that columns in errors stay right). enum(x, NAME) gives
 * NAME (an enum's name, or a constant of an anonymous one) and its offset. Returns the function's
 * kind (>= 0), -ENOENT for a plain item, or -EINVAL (reported).
 */
int decode_parse(struct resolver *r, const struct spec_item *it, struct spec_item *inner,
		 char **enum_name, size_t *name_off);
/*
 * How value 'val' of the probe is shown: 'fn' the function written (or -1,
 * then from the print fmt for a field written as it is, 'plain'). Sets *out
 * (NULL: as a number). Returns 0 or -EINVAL (reported).
 */
int decode_resolve(struct resolver *r, const struct spec_item *it, int fn, const char *enum_name,
		   size_t name_off, int val, bool plain, const struct decode **out);
void decodes_free(struct prog *p);
/* Every way of showing the program uses, in the order they were made. */
const struct decode *const *decodes_all(const struct prog *p, int *nr);

/* Does the spec show a value with syscall()? Then the command loads the target's syscall table. */
struct spec;
bool decode_wants_sysnames(const struct spec *s);

#endif /* __TPGEN_DECODE_H */
