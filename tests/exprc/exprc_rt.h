/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What written.c, emitted.c, table.c and exprc_main.c share (tests/t_expr_c.sh). */
#ifndef EXPRC_RT_H
#define EXPRC_RT_H

/* as <linux/types.h> has them, without the header (also built with -target bpf) */
typedef signed char __s8;
typedef unsigned char __u8;
typedef short __s16;
typedef unsigned short __u16;
typedef int __s32;
typedef unsigned int __u32;
typedef long long __s64;
typedef unsigned long long __u64;

struct vals {
	__u8 u8a, u8b;
	__s8 s8a, s8b;
	__u16 u16a, u16b;
	__s16 s16a, s16b;
	__u32 u32a, u32b;
	__s32 s32a, s32b;
	__u64 u64a, u64b;
	__s64 s64a, s64b;
};

struct result {
	unsigned long long val;
	unsigned int size;
	int sgn;
	int cond;	/* tpgen's negated condition (a filter of one test), inverted */
	int cond2;	/* tpgen's condition in '!(...)' (a filter of several tests) */
};

#define VARS								\
	__u8 u8a = v->u8a, u8b = v->u8b;				\
	__s8 s8a = v->s8a, s8b = v->s8b;				\
	__u16 u16a = v->u16a, u16b = v->u16b;				\
	__s16 s16a = v->s16a, s16b = v->s16b;				\
	__u32 u32a = v->u32a, u32b = v->u32b;				\
	__s32 s32a = v->s32a, s32b = v->s32b;				\
	__u64 u64a = v->u64a, u64b = v->u64b;				\
	__s64 s64a = v->s64a, s64b = v->s64b;				\
	(void)u8a; (void)u8b; (void)s8a; (void)s8b; (void)u16a; (void)u16b;	\
	(void)s16a; (void)s16b; (void)u32a; (void)u32b; (void)s32a; (void)s32b;	\
	(void)u64a; (void)u64b; (void)s64a; (void)s64b

/* C's type of X (never evaluated twice: sizeof and _Generic do not evaluate) */
#define SIGNED(X) _Generic((X), signed char: 1, short: 1, int: 1, long: 1, long long: 1, default: 0)
#define EVAL(X) do {							\
		r->val = (unsigned long long)(X);			\
		r->size = sizeof(X);					\
		r->sgn = SIGNED(X);					\
	} while (0)
/* C's truth value of X, as written */
#define TRUTH(X) (r->cond = r->cond2 = (X) != 0)

struct case_info {
	void (*written)(const struct vals *, struct result *);
	void (*emitted)(const struct vals *, struct result *);
	const char *text, *c;
	unsigned int size;	/* tpgen's type */
	int sgn;
	int is_const;		/* and the constant it folded */
	unsigned long long num;
};

#endif
