// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Templates of the generated pair, loaded once (see templates.h): the
 * embedded ones (templates/, via gen/input/embed.sh), each replaced by
 * --templates DIR's file of the same name, and the partials only DIR has.
 * Each file read is kept for the depfile.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/templates.h"
#include "lib/limits.h"
#include "lib/util.h"

/* Templates in one set: the embedded ones and a directory's partials. */
#define TEMPLATES_MAX	256

static void add(struct templates *t, char *name, char *text, char *path)
{
	t->v = xrealloc(t->v, (t->nr + 1) * sizeof(*t->v));
	t->v[t->nr++] = (struct template){ .name = name, .text = text, .path = path };
}

/* DIR/NAME into *text (0), -ENOENT (unreported), or -errno (reported). */
static int read_template(const char *dir, const char *name, char **text, char **path)
{
	int err;

	*path = xasprintf("%s/%s", dir, name);
	err = read_file(*path, text, NULL);
	if (err) {
		if (err != -ENOENT)
			diag_error(dir, 0, 0, "cannot read template %s: %s", name, read_strerror(err));
		free(*path);
		*path = NULL;
	}
	return err;
}

int templates_load(struct templates *t, const char *dir)
{
	const struct tpgen_template *e;
	char *text, *path;
	int err, i;

	memset(t, 0, sizeof(*t));
	for (e = tpgen_templates; e->name; e++) {
		err = dir ? read_template(dir, e->name, &text, &path) : -ENOENT;
		if (err == -ENOENT)
			add(t, xstrdup(e->name), xstrdup(e->text), NULL);
		else if (!err)
			add(t, xstrdup(e->name), text, path);
		else
			goto err;
	}
	/* partials that only DIR has: named by a "{{> NAME}}" line of a template loaded */
	for (i = 0; dir && i < t->nr; i++) {
		for (const char *line = t->v[i].text; line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
			const char *name;
			size_t len = template_partial_name(line, &name);
			char *pname;

			if (!len)
				continue;
			pname = xstrndup(name, len);
			if (templates_find(t, pname) || t->nr == TEMPLATES_MAX) {
				free(pname);
				continue;
			}
			err = read_template(dir, pname, &text, &path);
			if (!err) {
				add(t, pname, text, path);
				continue;
			}
			free(pname);
			if (err != -ENOENT)
				goto err;
			/* unknown: the renderer says so at the line that names it */
		}
	}
	return 0;
err:
	templates_clear(t);
	return err;
}

void templates_clear(struct templates *t)
{
	for (int i = 0; i < t->nr; i++) {
		free(t->v[i].name);
		free(t->v[i].text);
		free(t->v[i].path);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}
