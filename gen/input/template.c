// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Templates of the generated pair: the embedded ones (templates/, via
 * gen/embed.sh) or a --templates DIR's, rendered with {{VAR}},
 * {{#if VAR}}...{{/if}} and {{> PARTIAL}} lines. A bad template fails with
 * its line, at generation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/limits.h"
#include "model/prog.h"
#include "input/templates.h"

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
	const char *dir;		/* --templates DIR, or NULL */
	const struct tmpl_var *vars;
	int nr_vars;
	const char *names[TMPL_MAX_NEST + 1];	/* the template, then the partials being rendered */
	int nest;
};

static int find_template(const char *dir, const char *name, char **text);
static int render(struct tmpl_ctx *c, struct strbuf *out, const char *tmpl_name, const char *text);

/* A line "{{> NAME}}": template NAME rendered with the same variables, in its place. */
static int render_partial(struct tmpl_ctx *c, struct strbuf *out, const char *tmpl_name, int lineno,
			  const char *line)
{
	const char *name = line + 4;
	size_t len = strlen(name);
	char *pname, *text;
	int err, i;

	/* a file name in the templates' directory: no '/', not hidden */
	if (len > 2 && !strcmp(name + len - 2, "}}"))
		len -= 2;
	else
		len = 0;
	if (!len || name[0] == '.' || memchr(name, '/', len) || memchr(name, ' ', len)) {
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
	err = find_template(c->dir, pname, &text);
	if (err == -ENOENT)
		diag_error(tmpl_name, lineno, 0, "unknown partial {{> %s}} in template", pname);
	if (err) {
		free(pname);
		return err;
	}
	c->names[++c->nest] = pname;
	err = render(c, out, pname, text);
	c->nest--;
	free(text);
	free(pname);
	return err;
}

int tmpl_render(struct strbuf *out, const char *dir, const char *tmpl_name, const char *text,
		const struct tmpl_var *vars, int nr_vars)
{
	struct tmpl_ctx c = { .dir = dir, .vars = vars, .nr_vars = nr_vars, .names = { tmpl_name } };

	return render(&c, out, tmpl_name, text);
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

/* Template 'name' from 'dir' or embedded; -ENOENT (unreported) when neither has it. */
static int find_template(const char *dir, const char *name, char **text)
{
	const struct tpgen_template *t;
	char *path;
	int err;

	if (dir) {
		path = xasprintf("%s/%s", dir, name);
		err = read_file(path, text, NULL);
		free(path);
		if (!err)
			return 0;
		if (err != -ENOENT) {
			diag_error(dir, 0, 0, "cannot read template %s: %s", name, read_strerror(err));
			return err;
		}
	}
	for (t = tpgen_templates; t->name; t++) {
		if (!strcmp(t->name, name)) {
			*text = xstrdup(t->text);
			return 0;
		}
	}
	return -ENOENT;
}

int load_template(const char *dir, const char *name, char **text)
{
	int err = find_template(dir, name, text);

	if (err != -ENOENT)
		return err;
	pr_err("no template '%s' (built without templates/%s?)", name, name);
	return -ENOENT;
}
