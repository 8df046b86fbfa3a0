/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Names from outside -- tracefs directory names, format-file declarations,
 * BTF names, release files -- are checked here, once, where they are read.
 * The model then only holds text that is safe wherever an emitter puts it:
 * C code, C strings and comments, depfiles, terminals. Diagnostics quote
 * what they refuse with ident_quote(), and util.c's diagnostics pass every
 * byte through term_quote() (term.h), so no control byte reaches a terminal.
 */
#ifndef __TPGEN_IDENT_H
#define __TPGEN_IDENT_H

#include <stdbool.h>
#include <stddef.h>

struct btf;
struct strbuf;

/* [A-Za-z_][A-Za-z0-9_]* */
bool ident_is_c(const char *s);
/* A C11 keyword, or GNU C's asm or typeof. */
bool ident_is_keyword(const char *s);
/* Names tpgen's own macros and helpers use: __tpgen*, __TPGEN*. */
bool ident_is_reserved(const char *s);

/*
 * A tracefs system or event directory name: letters, digits, '_', '.' and
 * '-', starting with a letter or '_' (the kernel allows '.' in probe event
 * names). NULL when it is one, else why not.
 */
const char *ident_tracefs_name(const char *s);
/* Its C identifier: '.' and '-' become '_' ("a-b" -> "a_b"); xstrdup'd. */
char *ident_from_tracefs(const char *s);

/*
 * One kernel release ("6.18.44-fc-v669"): 1..64 of letters, digits and
 * . _ + - ~ : (what uname -r prints). NULL when it is one, else why not,
 * with *col the 1-based column of the first byte that is not.
 */
const char *ident_release(const char *s, int *col);

/*
 * Every name in a BTF that tpgen (or libbpf's btf_dump, for tpgen) may
 * print: structs, unions, enums, typedefs, forwards, functions, members,
 * parameters and enumerators are C identifiers (type names also not C
 * keywords, and none reserved for tpgen); INT and FLOAT names are such
 * words separated by spaces; type and declaration tags have no quote,
 * backslash, '*' or '/'. Reports the first offence located at 'path' and
 * returns -EINVAL.
 */
int ident_check_btf(const struct btf *btf, const char *path);

/* 'text', with C escapes for quotes, backslashes, control and non-ASCII bytes. */
void ident_quote(struct strbuf *sb, const char *s);
/* The same, in a new string. */
char *ident_quoted(const char *s);

#endif /* __TPGEN_IDENT_H */
