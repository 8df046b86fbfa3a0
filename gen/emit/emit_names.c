// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The loader's names for numbers (the decode model of gen/model/decode.c): a
 * 'struct show' for each way a column is shown, with its table of names,
 * and the code of a print case that fills a column's text and says whether
 * it is a name. Rendering is bpf/tpgen_names.c's, compiled into the loader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cstring.h"
#include "lib/term.h"
#include "model/decode.h"
#include "emit/emit_prog.h"

/*
 * A name from a print fmt (a snapshot's may hold any byte) as a C string the
 * loader prints as it is: escaped as the loader escapes strings (\n, \x1b).
 */
static void name_string(struct strbuf *sb, const char *s)
{
	struct strbuf t;

	sb_init(&t);
	term_text(&t, s, strlen(s));
	c_string(sb, t.len ? t.buf : "");
	sb_clear(&t);
}

/* "SHOW_ERRNO" */
static void show_kind(struct strbuf *sb, enum decode_kind kind)
{
	static const char *const ids[] = {
#define X(id, ...)	[DECODE_##id] = "SHOW_" #id,
		DECODE_KINDS(X)
#undef X
	};

	sb_puts(sb, ids[kind]);
}

/*
 * The loader's side of DECODE_KINDS (model/decode.h): enum show_kind, and
 * show_name(), the name of a number for the shows that only name it.
 */
void emit_show_kinds(struct strbuf *kinds, struct strbuf *names)
{
	sb_puts(kinds, "enum show_kind {\n");
	for (int k = 0; k < DECODE_NR_KINDS; k++) {
		sb_putc(kinds, '\t');
		show_kind(kinds, k);
		sb_putc(kinds, ',');
		if (decode_kinds[k].what)
			sb_printf(kinds, "\t/* %s */", decode_kinds[k].what);
		sb_putc(kinds, '\n');
	}
	sb_puts(kinds, "};");
	sb_puts(names, "/* the name of v, for the shows that name a number; NULL: none */\n"
		"static const char *show_name(enum show_kind kind, unsigned long long v)\n{\n"
		"\tswitch (kind) {\n");
	for (int k = 0; k < DECODE_NR_KINDS; k++) {
		if (!decode_kinds[k].loader)
			continue;
		sb_puts(names, "\tcase ");
		show_kind(names, k);
		sb_printf(names, ":\n\t\treturn %s;\n", decode_kinds[k].loader);
	}
	sb_puts(names, "\tdefault:\n\t\treturn NULL;\n\t}\n}");
}

/* The tables and shows of the program, in the order the spec made them. */
void emit_shows(struct strbuf *sb, const struct prog *p)
{
	const struct decode *const *v;
	int n;

	v = decodes_all(p, &n);
	for (int i = 0; i < n; i++) {
		const struct decode *dc = v[i];

		if (sb->len)
			sb_putc(sb, '\n');
		sb_puts(sb, "/* ");
		c_comment_text(sb, dc->source ? dc->source : decode_kinds[dc->kind].what);
		sb_puts(sb, " */\n");
		if (dc->table && dc->nr_syms) {
			sb_printf(sb, "static const struct %s %s[] = {\n",
				  dc->kind == DECODE_SYSCALL ? "tpgen_syscall" : "tpgen_sym", dc->table);
			for (int k = 0; k < dc->nr_syms; k++) {
				if (dc->kind == DECODE_SYSCALL)
					sb_printf(sb, "\t{ %d, ", (int)dc->syms[k].value);
				else
					sb_printf(sb, "\t{ 0x%llx, ", dc->syms[k].value);
				name_string(sb, dc->syms[k].name);
				sb_puts(sb, " },\n");
			}
			sb_puts(sb, "};\n\n");
		}
		if (dc->value_fn)
			sb_printf(sb, "/* the value the table decodes */\n"
				  "static unsigned long long %s(unsigned long long v)\n{\n\treturn %s;\n}\n\n",
				  dc->value_fn, dc->value_c);
		sb_printf(sb, "static const struct show %s = {\n\t.kind = ", dc->ident);
		show_kind(sb, dc->kind);
		sb_puts(sb, ",\n");
		if (dc->table && dc->nr_syms) {
			sb_printf(sb, "\t.%s = %s,\n", dc->kind == DECODE_SYSCALL ? "syscalls" : "syms", dc->table);
			sb_printf(sb, "\t.nr = sizeof(%s) / sizeof(%s[0]),\n", dc->table, dc->table);
		}
		if (dc->kind == DECODE_FLAGS) {
			sb_puts(sb, "\t.sep = ");
			name_string(sb, dc->sep);
			sb_puts(sb, ",\n");
		}
		if (dc->field)
			sb_printf(sb, "\t.field = 0x%llx,\n", dc->field);
		if (dc->zero_name) {
			sb_puts(sb, "\t.zero = ");
			name_string(sb, dc->zero_name);
			sb_puts(sb, ",\n");
		}
		if (dc->value_fn)
			sb_printf(sb, "\t.value = %s,\n", dc->value_fn);
		sb_puts(sb, "};\n");
	}
}

bool show_is_bytes(const struct decode *dc)
{
	return dc->kind == DECODE_IPV4 || dc->kind == DECODE_IPV6 || dc->kind == DECODE_HEX;
}

int show_width(const struct decode *dc, const char *cname)
{
	int n = strlen(cname);

	return n > dc->width ? n : dc->width;
}

/*
 * A shown column of a record: its text in n_<cname>, and for a number,
 * named_<cname> (false: the text is the number).
 */
void emit_show_locals(struct strbuf *sb, const struct pprobe *pr, const struct pitems *items,
		      const char *obj)
{
	for (int i = 0; i < items->nr; i++) {
		const struct pitem *it = &items->v[i];

		if (!it->dec && !it->caller)
			continue;
		sb_printf(sb, "\tchar n_%s[%d];\n", it->cname, it->dec && it->dec->kind == DECODE_FLAGS ? 256 :
			  it->caller ? 128 : 64);
	}
	for (int i = 0; i < items->nr; i++) {	/* kcaller: a frame of the stack */
		const struct pitem *it = &items->v[i];

		if (!it->caller)
			continue;
		sb_printf(sb, "\tstack_caller(%s%s, ", obj, it->cname);
		sb_puts(sb, "(const char *const[]){ ");
		for (int k = 0; k < it->nr_skip; k++) {
			c_string(sb, it->skip[k]);
			sb_puts(sb, ", ");
		}
		sb_printf(sb, "NULL }, n_%s, sizeof(n_%s));\n", it->cname, it->cname);
	}
	/* declarations first: numbers with names, then ports and bytes */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < items->nr; i++) {
			const struct pitem *it = &items->v[i];
			const struct pvalue *v = &pr->vals[it->val];
			bool named = it->dec && !show_is_bytes(it->dec) && !decode_is_plain(it->dec->kind);

			if (!it->dec || named != !pass)
				continue;
			if (named)
				sb_printf(sb, "\tbool named_%s = ", it->cname);
			else
				sb_putc(sb, '\t');
			if (it->dec->kind == DECODE_USYM)	/* the process is the member after it */
				sb_printf(sb, "usym_name(%s%s, %s%s, n_%s, sizeof(n_%s));\n", obj, it->cname, obj,
					  items->v[i + 1].cname, it->cname, it->cname);
			else if (show_is_bytes(it->dec))	/* a __u8[4], or a __be32 as it sits in memory */
				sb_printf(sb, "show_bytes(&%s, %s%s%s, sizeof(%s%s), n_%s, sizeof(n_%s));\n",
					  it->dec->ident, v->kind == PV_BYTES ? "" : "&", obj, it->cname, obj,
					  it->cname, it->cname, it->cname);
			else
				sb_printf(sb, "show_value(&%s, %s%s, %s, n_%s, sizeof(n_%s));\n", it->dec->ident,
					  obj, it->cname, v->is_signed ? "true" : "false", it->cname, it->cname);
		}
	}
}

/* JSON: a number and its name ("newstate":1,"newstate_name":"TCP_ESTABLISHED"), or an address. */
void emit_show_json(struct strbuf *sb, const struct pitem *it, const struct pvalue *v, const char *obj,
		    const char *indent)
{
	const char *conv = v->size == 8 ? (v->is_signed ? "lld" : "llu") : v->is_signed ? "d" : "u";
	const char *cast = v->size == 8 ? (v->is_signed ? "(long long)" : "(unsigned long long)") : "";

	if (show_is_bytes(it->dec)) {
		sb_printf(sb, "%sprintf(\",\\\"%s\\\":\");\n%sprint_json_str(n_%s);\n", indent, it->name, indent,
			  it->cname);
	} else if (it->dec->kind == DECODE_NTOHS) {
		sb_printf(sb, "%sprintf(\",\\\"%s\\\":%%s\", n_%s);\n", indent, it->name, it->cname);
	} else if (it->dec->kind == DECODE_ADDR) {
		sb_printf(sb, "%sprintf(\",\\\"%s\\\":\\\"%%s\\\"\", n_%s);\n", indent, it->name, it->cname);
	} else if (decode_is_ksym(it->dec->kind)) {
		/* the address as a hex string, and its symbol beside it */
		sb_printf(sb, "%sprintf(\",\\\"%s\\\":\\\"0x%%llx\\\",\\\"%s_name\\\":\", (unsigned long long)%s%s);\n",
			  indent, it->name, it->name, obj, it->cname);
		sb_printf(sb, "%sprint_json_name(n_%s, named_%s);\n", indent, it->cname, it->cname);
	} else {
		sb_printf(sb, "%sprintf(\",\\\"%s\\\":%%%s,\\\"%s_name\\\":\", %s%s%s);\n", indent, it->name, conv,
			  it->name, cast, obj, it->cname);
		sb_printf(sb, "%sprint_json_name(n_%s, named_%s);\n", indent, it->cname, it->cname);
	}
}
