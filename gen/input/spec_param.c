// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * params: the tool's run-time parameters, as libbpf-tools take them
 * ('runqslower 10000', '-t TID', '-x'): each a typed value with a default, an
 * option of the generated tool and a const volatile of its BPF program.
 *
 *   params:
 *     min_us: { default: 10000, positional: 1, help: "Only waits longer than this" }
 *     tid:    { type: u32, short: t, help: "Only this thread (0: all)" }
 *     failed: { type: bool, short: x, help: "Only failed calls" }
 *
 * Every value is checked here, where its line and column are known: types,
 * defaults and ranges, option letters and names against the loader's own.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/limits.h"
#include "input/spec_yaml.h"
#include "lib/util.h"

static const struct {
	const char *name;
	enum param_type type;
	unsigned int size;
	bool is_signed;
} param_types[] = {
	{ "bool", PARAM_BOOL, 1, false },
	{ "u8", PARAM_U8, 1, false },
	{ "u16", PARAM_U16, 2, false },
	{ "u32", PARAM_U32, 4, false },
	{ "u64", PARAM_U64, 8, false },
	{ "s8", PARAM_S8, 1, true },
	{ "s16", PARAM_S16, 2, true },
	{ "s32", PARAM_S32, 4, true },
	{ "s64", PARAM_S64, 8, true },
};

/*
 * The loader's own options (templates/loader.c, and argp's --help, --usage
 * and -V, --version). -p, --pid and -c, --comm filter on the current task; a
 * tool whose events are about another task (runqslower: the one woken) may
 * give them its own meaning: a param taking either letter or name replaces
 * that option.
 */
static const char reserved_short[] = "dijTrvfhV";
static const char *const reserved_long[] = {
	"duration", "interval", "json", "timestamp", "rate", "verbose", "folded", "ringbuf-size",
	"stack-storage-size", "help", "usage", "version",
};

static int set_type(struct loader *ld, yaml_node_t *node, struct spec_param *pa)
{
	const char *names[ARRAY_SIZE(param_types)];
	struct spec_str s = {};
	const char *hint;
	int err;

	err = get_str(ld, node, "type", &s);
	if (err)
		return err;
	for (size_t i = 0; i < ARRAY_SIZE(param_types); i++) {
		names[i] = param_types[i].name;
		if (!strcmp(s.s, param_types[i].name)) {
			pa->type = param_types[i].type;
			pa->size = param_types[i].size;
			pa->is_signed = param_types[i].is_signed;
			free(s.s);
			return 0;
		}
	}
	hint = str_suggest(s.s, names, ARRAY_SIZE(names));
	err = node_error(ld, node, "unknown param type '%s': use bool, u8, u16, u32, u64, s8, s16, s32 or s64%s%s%s",
			 s.s, hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
	free(s.s);
	return err;
}

/* The type's range, before min: and max: narrow it. */
static void type_range(struct spec_param *pa)
{
	unsigned int bits = pa->size * 8;

	if (pa->is_signed) {
		pa->smax = (long long)((1ULL << (bits - 1)) - 1);
		pa->smin = -pa->smax - 1;
	} else {
		pa->umin = 0;
		pa->umax = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
	}
}

static void range_text(const struct spec_param *pa, char *buf, size_t n)
{
	if (pa->is_signed)
		snprintf(buf, n, "%lld..%lld", pa->smin, pa->smax);
	else
		snprintf(buf, n, "%llu..%llu", pa->umin, pa->umax);
}

/*
 * A number of the param's type: decimal or 0x hex, '-' for signed types, in
 * [lo, hi] of its range ('what' names it in the error). The bits in *out.
 */
static int get_number(struct loader *ld, yaml_node_t *node, const struct spec_param *pa, const char *what,
		      unsigned long long *out)
{
	struct spec_str s = {};
	const char *p;
	unsigned long long mag;
	char range[64], *end;
	bool neg;
	int err;

	err = get_str(ld, node, what, &s);
	if (err)
		return err;
	p = s.s;
	neg = *p == '-';
	p += neg || *p == '+';
	errno = 0;
	if (!strncmp(p, "0x", 2) || !strncmp(p, "0X", 2))
		mag = p[2] && p[2] != '-' && p[2] != '+' && p[2] != ' ' ? strtoull(p + 2, &end, 16) : (end = (char *)p, 0);
	else
		mag = *p >= '0' && *p <= '9' ? strtoull(p, &end, 10) : (end = (char *)p, 0);
	if (end == p || *end || errno == ERANGE) {
		err = node_error(ld, node, "%s '%s' is not a number (decimal or 0x hex%s)", what, s.s,
				 errno == ERANGE ? ", at most 64 bits" : "");
		goto out;
	}
	range_text(pa, range, sizeof(range));
	if (pa->is_signed) {
		long long v;

		if (neg ? mag > (1ULL << 63) : mag > (unsigned long long)LLONG_MAX)
			goto range;
		v = neg ? (long long)(0 - mag) : (long long)mag;
		if (v < pa->smin || v > pa->smax)
			goto range;
		*out = (unsigned long long)v;
	} else {
		if ((neg && mag) || mag < pa->umin || mag > pa->umax)
			goto range;
		*out = mag;
	}
	goto out;
range:
	err = node_error(ld, node, "%s '%s' is out of range %s (%s%u)", what, s.s, range,
			 pa->is_signed ? "s" : "u", pa->size * 8);
out:
	free(s.s);
	return err;
}

static int get_short(struct loader *ld, yaml_node_t *node, struct spec_param *pa)
{
	struct spec_str s = {};
	int err;

	err = get_str(ld, node, "short", &s);
	if (err)
		return err;
	if (strlen(s.s) != 1 || !((s.s[0] >= 'a' && s.s[0] <= 'z') || (s.s[0] >= 'A' && s.s[0] <= 'Z') ||
				   (s.s[0] >= '0' && s.s[0] <= '9')))
		err = node_error(ld, node, "short '%s' is not one letter or digit (short: t gives -t)", s.s);
	else if (strchr(reserved_short, s.s[0]))
		err = node_error(ld, node, "-%c is the tool's own option (-d, -i, -j, -T, -r, -v, -f, -h, -V): choose "
				 "another letter", s.s[0]);
	else
		pa->short_opt = s.s[0];
	free(s.s);
	return err;
}

static int check_long(struct loader *ld, struct spec_param *pa)
{
	const char *s = pa->long_name.s;
	size_t i;

	for (i = 0; s[i]; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		      (s[i] == '-' && i) || s[i] == '_'))
			break;
	if (!*s || s[i] || strlen(s) > 32) {
		spec_error(ld->spec, &pa->long_name.loc, s[i] ? i : 0, "long option '%s' is not a name of at most "
			   "32 letters, digits, '-' and '_' (not starting with '-'; long: min-us gives --min-us)", s);
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(reserved_long); i++)
		if (!strcmp(s, reserved_long[i])) {
			spec_error(ld->spec, &pa->long_name.loc, 0, "--%s is the tool's own option: choose another "
				   "name%s", s, pa->long_name.loc.line == pa->name.loc.line &&
				   pa->long_name.loc.col == pa->name.loc.col ? " (or give 'long:')" : "");
			return -EINVAL;
		}
	return 0;
}

/* --help's line: text, no control characters (argp wraps it) */
static int get_help(struct loader *ld, yaml_node_t *node, struct spec_param *pa)
{
	int err = get_str(ld, node, "help", &pa->help);

	for (size_t i = 0; !err && pa->help.s[i]; i++)
		if ((unsigned char)pa->help.s[i] < 0x20 || pa->help.s[i] == 0x7f) {
			spec_error(ld->spec, &pa->help.loc, 0, "help of param '%s' has a control character "
				   "(byte %zu): one line of text", pa->name.s, i);
			err = -EINVAL;
		}
	return err;
}

static bool is_bool_text(const char *s, bool *v)
{
	if (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "on"))
		*v = true;
	else if (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "off"))
		*v = false;
	else
		return false;
	return true;
}

static int one_param(struct loader *ld, yaml_node_t *name, yaml_node_t *map, struct spec_param *pa)
{
	static const char *const keys[] = { "type", "default", "help", "short", "long", "positional", "min", "max" };
	yaml_node_t *val, *def = NULL, *min = NULL, *max = NULL, *pos = NULL, *type = NULL;
	yaml_node_pair_t *p;
	const char *key;
	char *c;
	int err;

	err = get_str(ld, name, "a param name", &pa->name);
	if (!err)
		err = check_ident(ld, &pa->name, "param name", 32);
	if (!err && !strcmp(pa->name.s, "event"))
		err = node_error(ld, name, "param name 'event' is reserved (each JSON record has an \"event\" key); "
				 "choose another");
	if (err)
		return err;
	pa->loc = node_loc(name);
	if (map->type == YAML_SCALAR_NODE && !map->data.scalar.length && map->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
		map = NULL;	/* 'name:' alone: a u64, 0 by default */
	else if (map->type != YAML_MAPPING_NODE)
		return node_error(ld, map, "param '%s' is a mapping ({ type: u32, default: 0, short: t, help: \"...\" }), "
				  "not %s", pa->name.s, node_kind(map));
	if (map) {
		err = check_keys(ld, map, "a param", keys, ARRAY_SIZE(keys));
		if (err)
			return err;
		for_each_pair(ld, map, key, val, p) {
			if (!strcmp(key, "type"))
				type = val;
			else if (!strcmp(key, "default"))
				def = val;
			else if (!strcmp(key, "help"))
				err = get_help(ld, val, pa);
			else if (!strcmp(key, "short"))
				err = get_short(ld, val, pa);
			else if (!strcmp(key, "long"))
				err = get_str(ld, val, "long", &pa->long_name);
			else if (!strcmp(key, "positional"))
				pos = val;
			else if (!strcmp(key, "min"))
				min = val;
			else if (!strcmp(key, "max"))
				max = val;
			if (err)
				return err;
		}
	}
	/* the type: as written, or of the default (true/false: bool, negative: s64, else u64) */
	if (type) {
		err = set_type(ld, type, pa);
	} else {
		bool b;
		const char *d = def && def->type == YAML_SCALAR_NODE ? (const char *)def->data.scalar.value : "";

		pa->type = is_bool_text(d, &b) ? PARAM_BOOL : d[0] == '-' ? PARAM_S64 : PARAM_U64;
		pa->size = pa->type == PARAM_BOOL ? 1 : 8;
		pa->is_signed = pa->type == PARAM_S64;
	}
	if (err)
		return err;
	if (pa->type == PARAM_BOOL) {
		yaml_node_t *bad = min ? min : max ? max : pos;

		if (bad)
			return node_error(ld, bad, "param '%s' is a bool, a switch: it has no %s", pa->name.s,
					  bad == pos ? "place on the command line (give it 'short:')" : "range");
		if (def) {
			struct spec_str s = {};
			bool b = false;

			err = get_str(ld, def, "default", &s);
			if (!err && !is_bool_text(s.s, &b))
				err = node_error(ld, def, "the default of bool '%s' is true or false, not '%s'",
						 pa->name.s, s.s);
			else if (!err && b)
				err = node_error(ld, def, "bool '%s' is a switch, off unless its option is given: "
						 "its default is false (name the opposite switch instead)", pa->name.s);
			free(s.s);
			if (err)
				return err;
		}
	} else {
		type_range(pa);
		if (min) {
			unsigned long long v;

			err = get_number(ld, min, pa, "min", &v);
			if (err)
				return err;
			if (pa->is_signed)
				pa->smin = (long long)v;
			else
				pa->umin = v;
		}
		if (max) {
			unsigned long long v;

			err = get_number(ld, max, pa, "max", &v);
			if (err)
				return err;	/* below min: out of its range */
			if (pa->is_signed)
				pa->smax = (long long)v;
			else
				pa->umax = v;
		}
		if (def)
			err = get_number(ld, def, pa, "default", &pa->def);
		else if (pa->is_signed ? pa->smin > 0 || pa->smax < 0 : pa->umin > 0)
			err = node_error(ld, map, "param '%s' has no default, and 0 is out of its range: give "
					 "'default:'", pa->name.s);
		if (err)
			return err;
	}
	if (pos) {
		struct spec_str s = {};

		err = get_str(ld, pos, "positional", &s);
		if (err)
			return err;
		pa->positional = strtol(s.s, &c, 10);
		if (*c || c == s.s || pa->positional < 1 || pa->positional > SPEC_MAX_ITEMS)
			err = node_error(ld, pos, "positional is the argument's place on the command line, "
					 "1 to %d, not '%s'", SPEC_MAX_ITEMS, s.s);
		free(s.s);
		if (err)
			return err;
	}
	if (!pa->long_name.s) {
		pa->long_name.s = xstrdup(pa->name.s);
		pa->long_name.loc = pa->name.loc;
		for (c = pa->long_name.s; *c; c++)
			if (*c == '_')
				*c = '-';
	}
	return check_long(ld, pa);
}

int get_params(struct loader *ld, yaml_node_t *node)
{
	struct spec *s = ld->spec;
	yaml_node_pair_t *p;
	int err, npos = 0;

	if (node->type != YAML_MAPPING_NODE)
		return node_error(ld, node, "'params' is a mapping of names to params "
				  "({ min_us: { default: 10000, help: \"...\" } }), not %s", node_kind(node));
	for (p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
		struct spec_param *pa;

		if (s->nr_params >= SPEC_MAX_ITEMS)
			return node_error(ld, yaml_node(ld, p->key), "more than %d params", SPEC_MAX_ITEMS);
		s->params = xrealloc(s->params, (s->nr_params + 1) * sizeof(*s->params));
		pa = &s->params[s->nr_params++];
		memset(pa, 0, sizeof(*pa));
		err = one_param(ld, yaml_node(ld, p->key), yaml_node(ld, p->value), pa);
		if (err)
			return err;
		for (int i = 0; i < s->nr_params - 1; i++) {
			const struct spec_param *q = &s->params[i];

			if (!strcmp(q->name.s, pa->name.s)) {
				spec_error(s, &pa->name.loc, 0, "param '%s' is declared twice (first at line %d)",
					   pa->name.s, q->name.loc.line);
				return -EINVAL;
			}
			if (pa->short_opt && q->short_opt == pa->short_opt) {
				spec_error(s, &pa->loc, 0, "-%c is the option of params '%s' and '%s': give one "
					   "another 'short:'", pa->short_opt, q->name.s, pa->name.s);
				return -EINVAL;
			}
			if (!strcmp(q->long_name.s, pa->long_name.s)) {
				spec_error(s, &pa->long_name.loc, 0, "--%s is the option of params '%s' and '%s': give "
					   "one another 'long:'", pa->long_name.s, q->name.s, pa->name.s);
				return -EINVAL;
			}
			if (pa->positional && q->positional == pa->positional) {
				spec_error(s, &pa->loc, 0, "params '%s' and '%s' are both positional %d", q->name.s,
					   pa->name.s, pa->positional);
				return -EINVAL;
			}
		}
		npos += pa->positional > 0;
	}
	/* positional 1, 2, ... N: each place taken once, none skipped */
	for (int i = 0; i < s->nr_params; i++)
		if (s->params[i].positional > npos) {
			spec_error(s, &s->params[i].loc, 0, "param '%s' is positional %d, but %d param%s positional: "
				   "number them 1 to %d", s->params[i].name.s, s->params[i].positional, npos,
				   npos == 1 ? " is" : "s are", npos);
			return -EINVAL;
		}
	return 0;
}

void spec_params_clear(struct spec *s)
{
	for (int i = 0; i < s->nr_params; i++) {
		free(s->params[i].name.s);
		free(s->params[i].help.s);
		free(s->params[i].long_name.s);
	}
	free(s->params);
	s->params = NULL;
	s->nr_params = 0;
}
