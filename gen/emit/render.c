// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Templates rendered (see input/templates.h for where they come from):
 * {{VAR}}, {{#if VAR}} / {{#if !VAR}} ... {{/if}} lines, and {{> NAME}}
 * lines (template NAME, with the same variables, nested up to
 * TMPL_MAX_NEST deep). A bad template fails with its line, at generation.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit_prog.h"
#include "input/templates.h"
#include "lib/limits.h"

static const char *var_value(const struct tmpl_var *vars, int n, const char *name, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(vars[i].name) == len && !strncmp(vars[i].name, name, len))
			return vars[i].value;
	return NULL;
}

/* "{{NAME}}" at s: the name's length, or 0. */
static size_t var_at(const char *s, const char **name)
{
	const char *e;

	if (strncmp(s, "{{", 2))
		return 0;
	e = strstr(s + 2, "}}");
	if (!e)
		return 0;
	*name = s + 2;
	return e - s - 2;
}

struct tmpl_ctx {
	const struct templates *t;
	const struct tmpl_var *vars;
	int nr_vars;
	const char *names[TMPL_MAX_NEST + 1];	/* the template, then the partials being rendered */
	int nest;
};

static int render(struct tmpl_ctx *c, struct strbuf *out, const char *tmpl_name, const char *text);

/* A line "{{> NAME}}": template NAME rendered with the same variables, in its place. */
static int render_partial(struct tmpl_ctx *c, struct strbuf *out, const char *tmpl_name, int lineno,
			  const char *line)
{
	const struct template *tp;
	const char *name;
	size_t len = template_partial_name(line, &name);
	char *pname;
	int err, i;

	if (!len) {
		diag_error(tmpl_name, lineno, 0, "bad partial in template: %s", line);
		return -EINVAL;
	}
	pname = xstrndup(name, len);
	for (i = 0; i <= c->nest; i++) {
		if (!strcmp(c->names[i], pname)) {
			diag_error(tmpl_name, lineno, 0, "partial {{> %s}} includes itself", pname);
			free(pname);
			return -EINVAL;
		}
	}
	if (c->nest == TMPL_MAX_NEST) {
		diag_error(tmpl_name, lineno, 0, "partial {{> %s}} nested more than %d deep",
			   pname, TMPL_MAX_NEST);
		free(pname);
		return -EINVAL;
	}
	tp = templates_find(c->t, pname);
	if (!tp) {
		diag_error(tmpl_name, lineno, 0, "unknown partial {{> %s}} in template", pname);
		free(pname);
		return -ENOENT;
	}
	c->names[++c->nest] = pname;
	err = render(c, out, pname, tp->text);
	c->nest--;
	free(pname);
	return err;
}

int tmpl_render(struct strbuf *out, const struct templates *t, const char *tmpl_name,
		const struct tmpl_var *vars, int nr_vars)
{
	struct tmpl_ctx c = { .t = t, .vars = vars, .nr_vars = nr_vars, .names = { tmpl_name } };
	const struct template *tp = templates_find(t, tmpl_name);

	if (!tp) {
		pr_err("no template '%s' (built without templates/%s?)", tmpl_name, tmpl_name);
		return -ENOENT;
	}
	return render(&c, out, tmpl_name, tp->text);
}

static int render(struct tmpl_ctx *c, struct strbuf *out, const char *tmpl_name, const char *text)
{
	const struct tmpl_var *vars = c->vars;
	int nr_vars = c->nr_vars, err;
	bool on[32] = { true };
	int depth = 0, lineno = 0;
	const char *line = text, *nl, *name, *val;
	size_t len, n, ind;
	char *buf;

	for (; *line; line = nl ? nl + 1 : line + len) {
		nl = strchr(line, '\n');
		len = nl ? (size_t)(nl - line) : strlen(line);
		lineno++;
		buf = xstrndup(line, len);
		ind = strspn(buf, " \t");
		if (!strncmp(buf + ind, "{{#if ", 6)) {
			bool neg = buf[ind + 6] == '!';
			const char *vn = buf + ind + 6 + neg;
			char *end = strstr(vn, "}}");

			if (!end || depth == 31 || !(val = var_value(vars, nr_vars, vn, end - vn))) {
				diag_error(tmpl_name, lineno, 0, "bad or unknown condition in template: %s", buf);
				free(buf);
				return -EINVAL;
			}
			depth++;
			on[depth] = on[depth - 1] && (neg ? !*val : !!*val);
			free(buf);
			continue;
		}
		if (!strcmp(buf + ind, "{{/if}}")) {
			if (!depth) {
				diag_error(tmpl_name, lineno, 0, "{{/if}} without {{#if}}");
				free(buf);
				return -EINVAL;
			}
			depth--;
			free(buf);
			continue;
		}
		if (!on[depth]) {
			free(buf);
			continue;
		}
		if (!strncmp(buf + ind, "{{> ", 4)) {
			err = render_partial(c, out, tmpl_name, lineno, buf + ind);
			free(buf);
			if (err)
				return err;
			continue;
		}
		/* a line of just {{VAR}}: a block, indented like the line; empty: no line */
		n = var_at(buf + ind, &name);
		if (n && !buf[ind + n + 4]) {
			val = var_value(vars, nr_vars, name, n);
			if (!val) {
				diag_error(tmpl_name, lineno, 0, "unknown variable {{%.*s}} in template", (int)n, name);
				free(buf);
				return -EINVAL;
			}
			while (*val) {
				const char *e = strchr(val, '\n');
				size_t l = e ? (size_t)(e - val) : strlen(val);

				if (l)
					sb_add(out, buf, ind);
				sb_add(out, val, l);
				sb_putc(out, '\n');
				val += l + (e ? 1 : 0);
			}
			free(buf);
			continue;
		}
		for (const char *s = buf; *s; ) {
			n = var_at(s, &name);
			if (!n) {
				sb_putc(out, *s++);
				continue;
			}
			val = var_value(vars, nr_vars, name, n);
			if (!val) {
				diag_error(tmpl_name, lineno, 0, "unknown variable {{%.*s}} in template", (int)n, name);
				free(buf);
				return -EINVAL;
			}
			sb_puts(out, val);
			s += n + 4;
		}
		if (nl)
			sb_putc(out, '\n');
		free(buf);
	}
	if (depth) {
		diag_error(tmpl_name, lineno, 0, "{{#if}} without {{/if}}");
		return -EINVAL;
	}
	return 0;
}
