// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Classify a format-file field. Scalars become fixed-width __u8..__s64 by
 * size and sign (the kernel spelling stays in a comment), pointers keep their
 * shape with bases that compile without vmlinux.h (struct/union forward
 * declared, other typedefs and enums as void), arrays get their element type
 * (symbolic counts such as TASK_COMM_LEN are derived from the size), and
 * __data_loc/__rel_loc fields are the kernel's u32 "offset | len << 16".
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/fieldtype.h"
#include "lib/ident.h"
#include "lib/util.h"

struct known_type {
	const char *name;
	const char *ctype;	/* pointee spelling for pointers to it */
	unsigned int size;
};

/* Types whose size tpgen knows without BTF (x86-64/bpf: long is 8). */
static const struct known_type known_types[] = {
	{ "char", "char", 1 },
	{ "signed char", "__s8", 1 },
	{ "unsigned char", "__u8", 1 },
	{ "bool", "_Bool", 1 }, { "_Bool", "_Bool", 1 },
	{ "short", "__s16", 2 }, { "short int", "__s16", 2 }, { "signed short", "__s16", 2 },
	{ "unsigned short", "__u16", 2 }, { "short unsigned int", "__u16", 2 },
	{ "unsigned short int", "__u16", 2 },
	{ "int", "int", 4 }, { "signed", "int", 4 }, { "signed int", "int", 4 },
	{ "unsigned", "unsigned int", 4 }, { "unsigned int", "unsigned int", 4 },
	{ "long", "long", 8 }, { "long int", "long", 8 }, { "signed long", "long", 8 },
	{ "unsigned long", "unsigned long", 8 }, { "long unsigned int", "unsigned long", 8 },
	{ "unsigned long int", "unsigned long", 8 },
	{ "long long", "long long", 8 }, { "long long int", "long long", 8 },
	{ "unsigned long long", "unsigned long long", 8 },
	{ "long long unsigned int", "unsigned long long", 8 },
	{ "u8", "__u8", 1 }, { "__u8", "__u8", 1 }, { "uint8_t", "__u8", 1 },
	{ "s8", "__s8", 1 }, { "__s8", "__s8", 1 }, { "int8_t", "__s8", 1 },
	{ "u16", "__u16", 2 }, { "__u16", "__u16", 2 }, { "uint16_t", "__u16", 2 },
	{ "s16", "__s16", 2 }, { "__s16", "__s16", 2 }, { "int16_t", "__s16", 2 },
	{ "__be16", "__u16", 2 }, { "__le16", "__u16", 2 },
	{ "u32", "__u32", 4 }, { "__u32", "__u32", 4 }, { "uint32_t", "__u32", 4 },
	{ "s32", "__s32", 4 }, { "__s32", "__s32", 4 }, { "int32_t", "__s32", 4 },
	{ "__be32", "__u32", 4 }, { "__le32", "__u32", 4 }, { "uint", "unsigned int", 4 },
	{ "pid_t", "int", 4 }, { "uid_t", "__u32", 4 }, { "gid_t", "__u32", 4 },
	{ "u64", "__u64", 8 }, { "__u64", "__u64", 8 }, { "uint64_t", "__u64", 8 },
	{ "s64", "__s64", 8 }, { "__s64", "__s64", 8 }, { "int64_t", "__s64", 8 },
	{ "__be64", "__u64", 8 }, { "__le64", "__u64", 8 },
	{ "size_t", "unsigned long", 8 }, { "ssize_t", "long", 8 },
	{ "loff_t", "long long", 8 }, { "off_t", "long", 8 },
	{ "void", "void", 0 },
};

/* Attributes and qualifiers that say nothing about layout. */
static const char *const dropped_words[] = {
	"__seg_gs", "__seg_fs", "__user", "__rcu", "__iomem", "__percpu", "__force",
	"__kernel", "__bitwise", "volatile", "__restrict", "restrict",
};

/* Members are also never bool, true or false: <stdbool.h> makes them macros. */
bool ctype_is_keyword(const char *s)
{
	switch (*s) {
	case 'b': return !strcmp(s, "bool") || ident_is_keyword(s);
	case 't': return !strcmp(s, "true") || ident_is_keyword(s);
	case 'f': return !strcmp(s, "false") || ident_is_keyword(s);
	}
	return ident_is_keyword(s);
}

const char *ctype_fixed(unsigned int size, bool is_signed)
{
	switch (size) {
	case 1: return is_signed ? "__s8" : "__u8";
	case 2: return is_signed ? "__s16" : "__u16";
	case 4: return is_signed ? "__s32" : "__u32";
	case 8: return is_signed ? "__s64" : "__u64";
	}
	return NULL;
}

static const struct known_type *find_known(const char *type)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known_types); i++)
		if (*type == *known_types[i].name && !strcmp(type, known_types[i].name))
			return &known_types[i];
	return NULL;
}

/*
 * Normalize a spelling: drop layout-neutral words and leading "const", squeeze
 * blanks. Made in place in an arena copy: it only gets shorter.
 */
static char *base_words(const char *type, bool *is_const, struct arena *a)
{
	char *out = arena_strdup(a, type), *o = out;
	const char *p = out;

	*is_const = false;
	while (*p) {
		const char *w;
		size_t n, i;
		bool drop = false;

		while (*p == ' ' || *p == '\t')
			p++;
		w = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		n = p - w;
		if (!n)
			break;
		if (n == 5 && !strncmp(w, "const", 5)) {
			*is_const = true;
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(dropped_words); i++)
			if (*w == *dropped_words[i] && !strncmp(w, dropped_words[i], n) && !dropped_words[i][n])
				drop = true;
		if (drop)
			continue;
		if (o > out)
			*o++ = ' ';
		memmove(o, w, n);
		o += n;
	}
	*o = '\0';
	return out;
}

/* The size of a type tpgen knows (x86-64), or 0. */
static unsigned int known_size(const char *type, struct arena *a)
{
	const struct known_type *k;
	bool is_const;

	if (strchr(type, '*'))
		return 8;
	k = find_known(base_words(type, &is_const, a));
	return k ? k->size : 0;
}

/*
 * A pointer spelling -> one that compiles standalone: "void __seg_gs *" ->
 * "void *", "struct iocb * *" -> "struct iocb **", "const char *const *"
 * kept, "sigset_t *" -> "void *" (the typedef is not known without BTF).
 */
static int classify_pointer(const char *path, struct tp_field *f, struct arena *a)
{
	const char *star = strchr(f->type, '*');
	const struct known_type *k;
	struct strbuf sb;
	bool is_const;
	const char *p;
	char *base;

	base = base_words(arena_strndup(a, f->type, star - f->type), &is_const, a);
	sb_init(&sb);
	if (is_const)
		sb_puts(&sb, "const ");
	if (!strncmp(base, "struct ", 7) || !strncmp(base, "union ", 6)) {
		const char *tag = base + (base[0] == 's' ? 7 : 6);

		/* forward-declared as it is: "struct x;" must declare nothing else */
		if (!ident_is_c(tag) || ctype_is_keyword(tag) || ident_is_reserved(tag)) {
			diag_error(path, f->line, 0, "field '%s': '%s' is not a struct a C program can name",
				   f->name, base);
			sb_clear(&sb);
			return -EINVAL;
		}
		sb_puts(&sb, base);
		f->fwd = base;
	} else if ((k = find_known(base))) {
		sb_puts(&sb, k->ctype);
	} else {
		sb_puts(&sb, "void");	/* enum x *, kernel typedef * */
	}
	sb_putc(&sb, ' ');
	for (p = star; *p; p++) {
		if (*p == '*') {
			sb_putc(&sb, '*');
		} else if (!strncmp(p, "const", 5) && !isalnum((unsigned char)p[5]) && p[5] != '_') {
			sb_puts(&sb, "const ");
			p += 4;
		}
	}
	/* "char *const " -> "char *const": the name follows a space after const */
	f->ctype = arena_strndup(a, sb.buf, sb.len);
	sb_clear(&sb);
	return 0;
}

/* Element of an array: returns its size, sets ctype. */
static unsigned int classify_elem(struct tp_field *f, const char *elem, unsigned int elem_size,
				  struct arena *a)
{
	const struct known_type *k;
	bool is_const;
	char *base = base_words(elem, &is_const, a);

	k = strchr(elem, '*') ? NULL : find_known(base);
	if (!strcmp(base, "char") || !strcmp(base, "signed char") || !strcmp(base, "unsigned char")) {
		if (!strcmp(base, "char"))
			f->is_string = true;
	}
	if (!elem_size)
		elem_size = strchr(elem, '*') ? 8 : k ? k->size : 0;
	if (f->is_string && elem_size == 1)
		f->elem_ctype = arena_strdup(a, "char");
	else if (elem_size && ctype_fixed(elem_size, f->is_signed))
		f->elem_ctype = arena_strdup(a, ctype_fixed(elem_size, f->is_signed));
	return elem_size;
}

/* "[n]" */
static char *arena_suffix(struct arena *a, unsigned long n)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "[%lu]", n);
	return arena_strdup(a, buf);
}

static int parse_count(const char *s, unsigned long *n)
{
	char *end;

	if (!*s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*n = strtoul(s, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

static int classify_dyn(const char *path, struct tp_field *f, bool rel, struct arena *a)
{
	const char *p = f->type + strlen(rel ? "__rel_loc" : "__data_loc");
	char *elem = arena_strdup(a, p), *br;
	unsigned int es;

	f->kind = rel ? FIELD_REL_LOC : FIELD_DATA_LOC;
	br = strstr(elem, "[]");
	if (br)
		*br = '\0';
	if (f->size != 4) {
		diag_error(path, f->line, 0, "%s field '%s' has size %u, expected 4",
			   rel ? "__rel_loc" : "__data_loc", f->name, f->size);
		return -EINVAL;
	}
	f->ctype = arena_strdup(a, "__u32");
	f->suffix = arena_strdup(a, "");
	es = classify_elem(f, elem, 0, a);
	if (!f->elem_ctype) {		/* cpumask_t, unknown typedefs: bytes */
		f->elem_ctype = arena_strdup(a, "__u8");
		es = 1;
	}
	f->elem_size = es;
	return 0;
}

int ctype_classify(const char *path, struct tp_field *f, struct arena *a)
{
	unsigned int known;
	const char *fixed;

	/* a field named like a C keyword cannot be a member: "default" becomes "default_" */
	f->cname = ctype_is_keyword(f->name) ? arena_strcat(a, f->name, "_") : f->name;

	if (!strncmp(f->type, "__data_loc", 10) && (f->type[10] == ' ' || !f->type[10]))
		return classify_dyn(path, f, false, a);
	if (!strncmp(f->type, "__rel_loc", 9) && (f->type[9] == ' ' || !f->type[9]))
		return classify_dyn(path, f, true, a);

	if (f->array) {
		unsigned long count = 0;
		bool numeric = !parse_count(f->array, &count);
		unsigned int es;

		if (numeric && count == 0 && f->size) {
			diag_error(path, f->line, 0, "array '%s[0]' has size %u, expected 0",
				   f->name, f->size);
			return -EINVAL;
		}
		if (!*f->array && f->size) {
			diag_error(path, f->line, 0, "flexible array '%s[]' has size %u, expected 0",
				   f->name, f->size);
			return -EINVAL;
		}
		if (!*f->array || (numeric && count == 0) || f->size == 0) {
			f->kind = FIELD_FLEX;
			es = classify_elem(f, f->type, 0, a);
			if (!f->elem_ctype) {
				f->elem_ctype = arena_strdup(a, "__u8");
				es = 1;
			}
			f->elem_size = es;
			f->ctype = f->elem_ctype;
			f->suffix = arena_strdup(a, "[]");
			return 0;
		}
		f->kind = FIELD_ARRAY;
		if (numeric) {
			if (f->size % count) {
				diag_error(path, f->line, 0,
					   "array '%s[%lu]' has size %u, not a multiple of its %lu elements",
					   f->name, count, f->size, count);
				return -EINVAL;
			}
			es = classify_elem(f, f->type, f->size / count, a);
		} else {
			/* symbolic: char comm[TASK_COMM_LEN]: count = size / element size */
			es = classify_elem(f, f->type, 0, a);
			if (es && f->size % es) {
				diag_error(path, f->line, 0,
					   "array '%s[%s]' has size %u, not a multiple of its %u-byte element",
					   f->name, f->array, f->size, es);
				return -EINVAL;
			}
			count = es ? f->size / es : 0;
		}
		if (!f->elem_ctype || !count) {
			/* element of an unknown or odd size: bytes */
			f->elem_ctype = arena_strdup(a, "__u8");
			es = 1;
			count = f->size;
		}
		f->elem_size = es;
		f->ctype = f->elem_ctype;
		f->suffix = arena_suffix(a, count);
		return 0;
	}

	if (strchr(f->type, '*') && f->size != 8) {
		diag_error(path, f->line, 0, "pointer field '%s' has size %u, expected 8 (64-bit kernels only)",
			   f->name, f->size);
		return -EINVAL;
	}
	/*
	 * A field never holds less than its type. It may hold more: syscall
	 * events store every argument in a long (int fd; size:8).
	 */
	known = known_size(f->type, a);
	if (known && f->size != known && (f->size < known || f->size != 8)) {
		diag_error(path, f->line, 0, "field '%s' of type '%s' has size %u, but '%s' is %u bytes",
			   f->name, f->type, f->size, f->type, known);
		return -EINVAL;
	}
	if (strchr(f->type, '*')) {
		f->kind = FIELD_POINTER;
		f->suffix = arena_strdup(a, "");
		return classify_pointer(path, f, a);
	}
	fixed = ctype_fixed(f->size, f->is_signed);
	if (fixed) {
		f->kind = FIELD_SCALAR;
		f->ctype = arena_strdup(a, fixed);
		f->suffix = arena_strdup(a, "");
		return 0;
	}
	if (f->size == 0) {
		diag_error(path, f->line, 0, "field '%s' of type '%s' has size 0", f->name, f->type);
		return -EINVAL;
	}
	/* a by-value struct or an odd-sized type: bytes at the right offset */
	f->kind = FIELD_BLOB;
	f->ctype = arena_strdup(a, "__u8");
	f->suffix = arena_suffix(a, f->size);
	f->elem_size = 1;
	return 0;
}

unsigned int ctype_align(const struct tp_field *f)
{
	switch (f->kind) {
	case FIELD_SCALAR:
		return f->size;
	case FIELD_POINTER:
		return 8;
	case FIELD_DATA_LOC:
	case FIELD_REL_LOC:
		return 4;
	case FIELD_ARRAY:
	case FIELD_FLEX:
		return f->elem_size ? f->elem_size : 1;
	case FIELD_BLOB:
		return 1;
	}
	return 1;
}
