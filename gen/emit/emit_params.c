// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The params of a tool (struct pparam): const volatile globals of the BPF
 * program, and in the loader their defaults, argp options, places on the
 * command line and the range each value is checked against before the
 * skeleton's .rodata is set, as libbpf-tools' runqslower sets min_us.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cstring.h"
#include "emit/emit_prog.h"

/* A value of the param's type as a C constant: 10000, 4294967295ULL, (-9223372036854775807LL - 1) */
static void emit_const(struct strbuf *sb, const struct pparam *pa, unsigned long long v)
{
	if (pa->is_bool) {
		sb_puts(sb, v ? "true" : "false");
	} else if (!pa->is_signed) {
		sb_printf(sb, v <= INT_MAX ? "%llu" : "%lluULL", v);
	} else {
		long long s = (long long)v;

		if (s == LLONG_MIN)
			sb_puts(sb, "(-9223372036854775807LL - 1)");
		else
			sb_printf(sb, s >= INT_MIN && s <= INT_MAX ? "%lld" : "%lldLL", s);
	}
}

static void emit_options_of(struct strbuf *sb, const struct pparam *pa)
{
	if (pa->short_opt)
		sb_printf(sb, "-%c, ", pa->short_opt);
	sb_printf(sb, "--%s", pa->long_name);
	if (pa->positional)
		sb_printf(sb, ", [%s]", pa->name);
}

void emit_param_globals(struct strbuf *sb, const struct prog *p)
{
	for (int i = 0; i < p->nr_params; i++) {
		const struct pparam *pa = &p->params[i];

		sb_printf(sb, "const volatile %s %s = ", pa->ctype, pa->ident);
		emit_const(sb, pa, pa->def);
		sb_puts(sb, ";\t/* ");
		emit_options_of(sb, pa);
		sb_puts(sb, " */\n");
	}
}

static void emit_key(struct strbuf *sb, const struct pparam *pa)
{
	if (pa->short_opt)
		sb_printf(sb, "'%c'", pa->short_opt);
	else
		sb_printf(sb, "%#x", pa->key);
}

/* params.x = parse_param_u(arg, "--x", min, max, state); */
static void emit_parse(struct strbuf *sb, const struct pparam *pa, const char *what, const char *indent)
{
	sb_printf(sb, "%sparams.%s = parse_param_%c(arg, \"%s\", ", indent, pa->ident, pa->is_signed ? 's' : 'u',
		  what);
	if (pa->is_signed) {
		emit_const(sb, pa, (unsigned long long)pa->smin);
		sb_puts(sb, ", ");
		emit_const(sb, pa, (unsigned long long)pa->smax);
	} else {
		emit_const(sb, pa, pa->umin);
		sb_puts(sb, ", ");
		emit_const(sb, pa, pa->umax);
	}
	sb_puts(sb, ", state);\n");
}

/* --help's text of a param: its help, then its default and range */
static void emit_help(struct strbuf *sb, const struct pparam *pa)
{
	struct strbuf h;
	bool range;

	sb_init(&h);
	if (pa->help)
		sb_puts(&h, pa->help);
	if (!pa->is_bool) {
		range = pa->is_signed ? pa->smin != -(long long)((1ULL << (pa->size * 8 - 1)) - 1) - 1 ||
					pa->smax != (long long)((1ULL << (pa->size * 8 - 1)) - 1)
				      : pa->umin || pa->umax != (pa->size == 8 ? ~0ULL : (1ULL << pa->size * 8) - 1);
		sb_printf(&h, "%s(default: ", h.len ? " " : "");
		if (pa->is_signed)
			sb_printf(&h, "%lld", (long long)pa->def);
		else
			sb_printf(&h, "%llu", pa->def);
		if (range && pa->is_signed)
			sb_printf(&h, ", %lld..%lld", pa->smin, pa->smax);
		else if (range)
			sb_printf(&h, ", %llu..%llu", pa->umin, pa->umax);
		sb_putc(&h, ')');
	}
	c_string(sb, h.buf ? h.buf : "");
	sb_clear(&h);
}

void emit_param_parts(struct strbuf *fields, struct strbuf *defaults, struct strbuf *opts, struct strbuf *cases,
		      struct strbuf *args, struct strbuf *set, const struct prog *p)
{
	for (int i = 0; i < p->nr_params; i++) {
		const struct pparam *pa = &p->params[i];
		char *what;

		sb_printf(fields, "%s %s;\n", pa->ctype, pa->ident);
		sb_printf(defaults, ".%s = ", pa->ident);
		emit_const(defaults, pa, pa->def);
		sb_puts(defaults, ",\n");

		sb_puts(opts, "{ ");
		c_string(opts, pa->long_name);
		sb_puts(opts, ", ");
		emit_key(opts, pa);
		if (pa->is_bool)
			sb_puts(opts, ", NULL, 0, ");
		else
			sb_printf(opts, ", \"%s\", 0, ", pa->arg);
		emit_help(opts, pa);
		sb_puts(opts, ", 0 },\n");

		sb_puts(cases, "case ");
		emit_key(cases, pa);
		sb_puts(cases, ":\n");
		if (pa->is_bool) {
			sb_printf(cases, "\tparams.%s = true;\n", pa->ident);
		} else {
			what = xasprintf("--%s", pa->long_name);
			emit_parse(cases, pa, what, "\t");
			free(what);
		}
		sb_puts(cases, "\tbreak;\n");

		sb_printf(set, "skel->rodata->%s = params.%s;\n", pa->ident, pa->ident);
	}
	/* the places on the command line, in their order */
	for (int n = 1; n <= p->nr_positional; n++)
		for (int i = 0; i < p->nr_params; i++) {
			const struct pparam *pa = &p->params[i];

			if (pa->positional != n)
				continue;
			sb_printf(args, "if (state->arg_num == %d) {\n", n - 1);
			emit_parse(args, pa, pa->name, "\t");
			sb_puts(args, "\tbreak;\n}\n");
		}
}

void emit_param_usage(struct strbuf *sb, struct strbuf *positional, const struct prog *p)
{
	for (int i = 0; i < p->nr_params; i++) {
		const struct pparam *pa = &p->params[i];

		if (pa->short_opt)
			sb_printf(sb, " [-%c%s%s]", pa->short_opt, pa->is_bool ? "" : " ", pa->is_bool ? "" : pa->arg);
		else
			sb_printf(sb, " [--%s%s%s]", pa->long_name, pa->is_bool ? "" : " ", pa->is_bool ? "" : pa->arg);
	}
	for (int n = 1; n <= p->nr_positional; n++)
		for (int i = 0; i < p->nr_params; i++)
			if (p->params[i].positional == n)
				sb_printf(positional, " [%s]", p->params[i].name);
}

bool params_any(const struct prog *p, bool is_signed)
{
	for (int i = 0; i < p->nr_params; i++)
		if (!p->params[i].is_bool && p->params[i].is_signed == is_signed)
			return true;
	return false;
}
