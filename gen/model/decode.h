/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * How a value is shown: the decode model of print columns and aggregation
 * keys (gen/model/decode.c), printed into the loader by gen/emit/emit_names.c.
 *
 * A column is shown by name when the spec says how (errno(ret),
 * syscall(id), signal(sig), ipv4(addr), ipv6(addr), ntohs(port),
 * enum(x, sock_type)), or, for a format field written as it is, when the
 * event's print fmt decodes that field (__print_symbolic, __print_flags,
 * %pI4, %pI6c, %pS). Text shows the name; JSON keeps the number and adds
 * "<column>_name". Addresses are shown as text in both; a kernel or user
 * address (ksym(), usym(), %pS, %p) is a hex string in JSON.
 */
#ifndef __TPGEN_DECODE_H
#define __TPGEN_DECODE_H

#include <stdbool.h>

/*
 * The ways of showing a value: one line each. The list makes enum
 * decode_kind and decode_kinds[] (model/decode.c), which the parser, the
 * resolver and emit/emit_names.c read, and the loader's enum show_kind and
 * show_name() (templates/loader_names.c): a show is one line here, and the
 * loader's function naming its numbers (docs/extending.md).
 *
 * X(ID, fn, key, width, number, what, loader)
 *   ID      DECODE_<ID>, and SHOW_<ID> in the loader
 *   fn      the function a spec writes around a value ("errno"), or NULL
 *           for what only a print fmt shows
 *   key     what a program's shows of it are found by and named after
 *           (show_errno), NULL for those with a table each (enum, flags)
 *   width   a text column's width
 *   number  the spec's function takes any number, and needs nothing more
 *   what    the comment of its show in the loader, or NULL (it says its source)
 *   loader  the loader's name for the number v, C of a const char * (NULL:
 *           no name), or NULL where show_value() does more than name it
 */
#define DECODE_KINDS(X)									\
	/* the first entry equal: __print_symbolic, a BTF enum */				\
	X(SYMBOLIC, "enum", NULL, 0, false, NULL, NULL)					\
	/* __print_flags: every entry whose bits are set */				\
	X(FLAGS, NULL, NULL, 0, false, NULL, NULL)					\
	/* a negative return: -2 is ENOENT */						\
	X(ERRNO, "errno", "errno", 7, true, "errno names of negative values",		\
	  "(long long)v < 0 ? tpgen_errno_name((long)v) : NULL")			\
	X(SIGNAL, "signal", "signal", 7, true, "signal names", NULL)			\
	/* the target kernel's syscall numbers */					\
	X(SYSCALL, "syscall", "syscall", 16, false, NULL, NULL)				\
	/* 4 bytes (__u8[4], a __be32) */						\
	X(IPV4, "ipv4", "ipv4", 15, false, "IPv4 addresses", NULL)			\
	/* 16 bytes, compressed as %pI6c */						\
	X(IPV6, "ipv6", "ipv6", 25, false, "IPv6 addresses, compressed", NULL)		\
	/* other bytes: "0a1b2c" */							\
	X(HEX, NULL, "hex", 7, false, "bytes in hex", NULL)				\
	/* a __be16 in host order: a number, no name */					\
	X(NTOHS, "ntohs", "ntohs", 5, true,						\
	  "16-bit values in network order, shown in host order (ports)", NULL)		\
	/* an address family: 10 is AF_INET6 */						\
	X(AF, "af", "af", 10, true, "address families (AF_*)", "tpgen_af_name((long)v)")	\
	/* a kernel address: "kfree_skb_reason+0x12" (kallsyms), as %pS */		\
	X(KSYM, "ksym", "ksym", 24, false, "kernel symbols with their offset (%pS)", NULL)	\
	/* the symbol alone, as %ps */							\
	X(KSYM_NAME, NULL, "ksym_name", 24, false, "kernel symbols (%ps)", NULL)		\
	/* an address of the process the event was in, with its tgid: "main+0x1a" */	\
	X(USYM, "usym", "usym", 24, false, "user symbols of the process", NULL)		\
	/* an address without a symbol, as %p: "0xffff8881..." */			\
	X(ADDR, NULL, "addr", 18, false, "addresses in hex (%p)", NULL)	\
	/* open(2)'s flags as strace shows them: O_RDONLY|O_CLOEXEC (a FLAGS show) */	\
	X(OPEN_FLAGS, "open_flags", NULL, 0, false, NULL, NULL)			\
	/* mount(2)'s flags: MS_NOSUID|MS_NODEV (a FLAGS show) */		\
	X(MOUNT_FLAGS, "mount_flags", NULL, 0, false, NULL, NULL)

enum decode_kind {
#define X(id, ...)	DECODE_##id,
	DECODE_KINDS(X)
#undef X
	DECODE_NR_KINDS
};

struct decode_kind_desc {
	const char *fn;
	const char *key;
	int width;
	bool number;
	const char *what;
	const char *loader;
};

/* model/decode.c: one entry per line of DECODE_KINDS */
extern const struct decode_kind_desc decode_kinds[DECODE_NR_KINDS];

struct decode_sym {
	unsigned long long value;
	char *name;
};

/* Shown as text with no name beside it in JSON: ntohs(), %p. */
static inline bool decode_is_plain(enum decode_kind kind)
{
	return kind == DECODE_NTOHS || kind == DECODE_ADDR;
}

/* An address: a hex string in JSON, symbolized by the loader (ksym(), %pS, %ps, usym()). */
static inline bool decode_is_ksym(enum decode_kind kind)
{
	return kind == DECODE_KSYM || kind == DECODE_KSYM_NAME || kind == DECODE_USYM;
}

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
	unsigned long long field;	/* DECODE_FLAGS: bits holding one value, named first (O_ACCMODE) */
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
void decodes_clear(struct prog *p);
/* Every way of showing the program uses, in the order they were made. */
const struct decode *const *decodes_all(const struct prog *p, int *nr);

/* Does the spec show a value with syscall()? Then the command loads the target's syscall table. */
struct spec;
bool decode_wants_sysnames(const struct spec *s);

#endif /* __TPGEN_DECODE_H */
