// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The spec loader's YAML helpers (see spec_yaml.h): where a node is, errors
 * at it, scalars, the keys of a mapping and the names a spec gives.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "lib/ident.h"
#include "input/spec.h"
#include "lib/util.h"

#include "input/spec_yaml.h"

struct spec_loc node_loc(const yaml_node_t *node)
{
	struct spec_loc loc = {
		.line = node->start_mark.line + 1,
		.col = node->start_mark.column + 1,
		.index = node->start_mark.index,
		.style = SPEC_PLAIN,
	};

	if (node->type == YAML_SCALAR_NODE) {
		switch (node->data.scalar.style) {
		case YAML_SINGLE_QUOTED_SCALAR_STYLE:
			loc.style = SPEC_SINGLE;
			break;
		case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
			loc.style = SPEC_DOUBLE;
			break;
		case YAML_LITERAL_SCALAR_STYLE:
		case YAML_FOLDED_SCALAR_STYLE:
			loc.style = SPEC_BLOCK;
			break;
		default:
			break;
		}
	}
	return loc;
}

int node_error(struct loader *ld, const yaml_node_t *node, const char *fmt, ...)
{
	struct spec_loc loc = node_loc(node);
	va_list ap;

	va_start(ap, fmt);
	spec_verror(ld->spec, &loc, 0, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

const char *node_kind(const yaml_node_t *node)
{
	switch (node->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a list";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "empty";
	}
}

int get_str(struct loader *ld, yaml_node_t *node, const char *what, struct spec_str *out)
{
	if (node->type != YAML_SCALAR_NODE)
		return node_error(ld, node, "%s must be a string, not %s", what, node_kind(node));
	if (memchr(node->data.scalar.value, '\0', node->data.scalar.length))
		return node_error(ld, node, "%s contains a NUL character", what);
	free(out->s);
	out->s = xstrndup((const char *)node->data.scalar.value, node->data.scalar.length);
	out->loc = node_loc(node);
	return 0;
}

/* Check every key of a mapping against 'keys'; duplicates and unknown keys are errors. */
int check_keys(struct loader *ld, yaml_node_t *map, const char *what,
		      const char *const *keys, int nkeys)
{
	yaml_node_pair_t *p, *q;
	yaml_node_t *k, *k2;
	const char *hint;

	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		k = yaml_document_get_node(&ld->doc, p->key);
		if (k->type != YAML_SCALAR_NODE)
			return node_error(ld, k, "keys of %s must be names", what);
		for (q = map->data.mapping.pairs.start; q < p; q++) {
			k2 = yaml_document_get_node(&ld->doc, q->key);
			if (k2->type == YAML_SCALAR_NODE &&
			    !strcmp((char *)k2->data.scalar.value, (char *)k->data.scalar.value))
				return node_error(ld, k, "duplicate key '%s' in %s (first at line %lu)",
						  (char *)k->data.scalar.value, what,
						  (unsigned long)k2->start_mark.line + 1);
		}
		for (int i = 0; i < nkeys; i++)
			if (!strcmp((char *)k->data.scalar.value, keys[i]))
				goto next;
		hint = str_suggest((char *)k->data.scalar.value, keys, nkeys);
		if (hint)
			return node_error(ld, k, "unknown key '%s' in %s (did you mean '%s'?)",
					  (char *)k->data.scalar.value, what, hint);
		return node_error(ld, k, "unknown key '%s' in %s", (char *)k->data.scalar.value, what);
next:;
	}
	return 0;
}

bool spec_is_ident(const char *s)
{
	size_t i;

	if (!s[0] || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; s[i]; i++)
		if (!(s[i] == '_' || (s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z')))
			return false;
	return true;
}

/* C keywords (ident.h), and names a tool's files or identifiers would clash with */
static bool is_c_keyword(const char *s)
{
	static const char *const taken[] = {
		"main", "vmlinux", "tpgen", "env", "events",
		/* the record's header member, and libc's null pointer */
		"hdr", "NULL",
		/* <tool>.h would hide a header the loader includes */
		"argp", "errno", "signal", "stdbool", "stdio", "stdlib", "string", "time", "unistd",
		"limits", "stddef", "stdint", "stdarg", "stdatomic", "assert", "ctype", "float",
	};

	if (ident_is_keyword(s))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(taken); i++)
		if (!strcmp(s, taken[i]))
			return true;
	return false;
}

int check_ident(struct loader *ld, struct spec_str *v, const char *what, size_t max)
{
	size_t i;

	if (!spec_is_ident(v->s)) {
		for (i = 0; v->s[i]; i++)
			if (!(v->s[i] == '_' || (v->s[i] >= 'a' && v->s[i] <= 'z') ||
			      (v->s[i] >= 'A' && v->s[i] <= 'Z') || (i && v->s[i] >= '0' && v->s[i] <= '9')))
				break;
		spec_error(ld->spec, &v->loc, v->s[i] ? i : 0,
			   "%s '%s' is not a C identifier (letters, digits and '_', not starting with a digit)",
			   what, v->s);
		return -EINVAL;
	}
	if (strlen(v->s) > max) {
		spec_error(ld->spec, &v->loc, 0, "%s '%s' is longer than %zu characters", what, v->s, max);
		return -EINVAL;
	}
	if (is_c_keyword(v->s)) {
		spec_error(ld->spec, &v->loc, 0, "%s '%s' is reserved (a C keyword or a name the "
			   "generated code uses)", what, v->s);
		return -EINVAL;
	}
	return 0;
}
