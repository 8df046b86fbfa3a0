// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The spec's params in the model: each a const volatile of the BPF program
 * named through the name table, typed, with the option and the range the
 * loader parses it with. Expressions find them by name (gen/model/values.c);
 * they are values read at run time, never constants: the checker folds
 * nothing of a default into the code.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/prog.h"

static const char *param_ctype(const struct spec_param *sp)
{
	static const char *const u[] = { "__u8", "__u16", NULL, "__u32", NULL, NULL, NULL, "__u64" };
	static const char *const s[] = { "__s8", "__s16", NULL, "__s32", NULL, NULL, NULL, "__s64" };

	if (sp->type == PARAM_BOOL)
		return "bool";
	return sp->is_signed ? s[sp->size - 1] : u[sp->size - 1];
}

/* "min_us" is the built-in's name, any case ("PID" is pid too) */
static const struct builtin *builtin_named(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(builtins); i++) {
		const struct builtin *b = &builtins[i];

		if (!strcasecmp(b->name, name) || (b->alias && !strcasecmp(b->alias, name)))
			return b;
	}
	return NULL;
}

int prog_resolve_params(struct prog *p)
{
	const struct spec *s = p->spec;

	p->pid_opt = p->comm_opt = true;
	if (!s->nr_params)
		return 0;
	p->params = xcalloc(s->nr_params, sizeof(*p->params));
	for (int i = 0; i < s->nr_params; i++) {
		const struct spec_param *sp = &s->params[i];
		struct pparam *pa = &p->params[p->nr_params++];
		const struct builtin *b = builtin_named(sp->name.s);

		if (b) {
			spec_error(s, &sp->name.loc, 0, "param '%s' has the name of the built-in '%s' (%s): "
				   "choose another, such as 'targ_%s'", sp->name.s, b->name,
				   b->kind == PV_STR ? "a string" : "a number", b->name);
			return -EINVAL;
		}
		pa->name = sp->name.s;
		pa->ident = prog_ident(p, sp->name.s);
		pa->ctype = param_ctype(sp);
		pa->is_bool = sp->type == PARAM_BOOL;
		pa->is_signed = sp->is_signed;
		pa->size = sp->size;
		pa->def = sp->def;
		pa->smin = sp->smin;
		pa->smax = sp->smax;
		pa->umin = sp->umin;
		pa->umax = sp->umax;
		pa->short_opt = sp->short_opt;
		pa->key = sp->short_opt ? sp->short_opt : 0x100 + i;
		pa->long_name = sp->long_name.s;
		pa->arg = xstrdup(sp->long_name.s);
		for (char *c = pa->arg; *c; c++)
			*c = *c == '-' ? '_' : *c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c;
		pa->help = sp->help.s;
		pa->positional = sp->positional;
		p->nr_positional += sp->positional > 0;
		/* -p, --pid and -c, --comm: the loader's task filters, unless a param means them otherwise */
		if (sp->short_opt == 'p' || !strcmp(sp->long_name.s, "pid"))
			p->pid_opt = false;
		if (sp->short_opt == 'c' || !strcmp(sp->long_name.s, "comm"))
			p->comm_opt = false;
	}
	return 0;
}

const struct pparam *prog_find_param(const struct prog *p, const char *name)
{
	for (int i = 0; i < p->nr_params; i++)
		if (!strcmp(p->params[i].name, name))
			return &p->params[i];
	return NULL;
}

void prog_params_clear(struct prog *p)
{
	for (int i = 0; i < p->nr_params; i++) {
		free(p->params[i].ident);
		free(p->params[i].arg);
	}
	free(p->params);
	p->params = NULL;
	p->nr_params = 0;
}
