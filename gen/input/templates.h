/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Templates of the generated pair: the ones embedded from templates/ by
 * gen/input/embed.sh, each replaced by DIR/NAME when --templates DIR has
 * it, loaded once by the command. The emitters render them from memory.
 */
#ifndef __TPGEN_TEMPLATES_H
#define __TPGEN_TEMPLATES_H

#include <stddef.h>
#include <string.h>

struct tpgen_template {
	const char *name;	/* file name under templates/ */
	const char *text;
};

/* build/templates.c: every template, ending in { 0 } */
extern const struct tpgen_template tpgen_templates[];

struct template {
	char *name;
	char *text;
	char *path;		/* the file it was read from (for depfiles), NULL: embedded */
};

struct templates {
	struct template *v;
	int nr;
};

/*
 * Every embedded template, or DIR/NAME for each that 'dir' (may be NULL)
 * has, and the partials they name that only DIR has. 0, or -errno after
 * one error ("DIR: error: cannot read template NAME: ...").
 */
int templates_load(struct templates *t, const char *dir);
void templates_clear(struct templates *t);

/* Template 'name', or NULL. */
static inline const struct template *templates_find(const struct templates *t, const char *name)
{
	for (int i = 0; i < t->nr; i++)
		if (!strcmp(t->v[i].name, name))
			return &t->v[i];
	return NULL;
}

/* A "{{> NAME}}" line's NAME, if it is a file name in a templates directory (no '/', not hidden): its length, else 0. */
static inline size_t template_partial_name(const char *line, const char **name)
{
	size_t len;

	line += strspn(line, " \t");
	if (strncmp(line, "{{> ", 4))
		return 0;
	*name = line + 4;
	len = strcspn(*name, "\n");
	if (len <= 2 || strncmp(*name + len - 2, "}}", 2))
		return 0;
	len -= 2;
	if ((*name)[0] == '.' || memchr(*name, '/', len) || memchr(*name, ' ', len))
		return 0;
	return len;
}

#endif /* __TPGEN_TEMPLATES_H */
