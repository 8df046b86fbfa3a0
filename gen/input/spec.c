// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Spec loader: libyaml's document tree, walked once into struct spec. Every
 * error names the spec, line and column, shows the line with a caret, and
 * stops the load: one error per run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "lib/limits.h"
#include "lib/ident.h"
#include "input/spec.h"
#include "lib/util.h"

#include "input/spec_yaml.h"

static int get_attach(struct loader *ld, yaml_node_t *node, enum attach_kind *a, struct spec_loc *loc)
{
	static const char *const names[] = { "tracepoint", "raw_tp", "tp_btf" };
	struct spec_str s = {};
	const char *hint;
	int err;

	err = get_str(ld, node, "attach", &s);
	if (err)
		return err;
	*loc = s.loc;
	if (!strcmp(s.s, "tracepoint") || !strcmp(s.s, "tp"))
		*a = ATTACH_TRACEPOINT;
	else if (!strcmp(s.s, "raw_tp") || !strcmp(s.s, "raw_tracepoint"))
		*a = ATTACH_RAW_TP;
	else if (!strcmp(s.s, "tp_btf"))
		*a = ATTACH_TP_BTF;
	else {
		hint = str_suggest(s.s, names, ARRAY_SIZE(names));
		err = node_error(ld, node, "unknown attach type '%s': use tracepoint, raw_tp or tp_btf%s%s%s",
				 s.s, hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
	}
	free(s.s);
	return err;
}

/* "sched/sched_switch" or "sched:sched_switch": both parts non-empty names. */
static int split_event(struct loader *ld, struct spec_probe *pr)
{
	const char *s = pr->event.s, *sep = strpbrk(s, "/:");
	size_t i;

	if (!sep || sep == s || !sep[1] || strpbrk(sep + 1, "/:")) {
		spec_error(ld->spec, &pr->event.loc, 0,
			   "event '%s' must be written 'system/event' (as in sched/sched_switch)", s);
		return -EINVAL;
	}
	for (i = 0; s[i]; i++) {
		if (s + i == sep)
			continue;
		if (!(s[i] == '_' || s[i] == '-' || s[i] == '.' || (s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z'))) {
			spec_error(ld->spec, &pr->event.loc, i,
				   "invalid character '%c' in event name '%s'", s[i], s);
			return -EINVAL;
		}
	}
	pr->sys = xstrndup(s, sep - s);
	pr->name = xstrdup(sep + 1);
	return 0;
}

static int check_probe_keys(struct loader *ld, yaml_node_t *map, bool latency_end, const char *what)
{
	static const char *const ev_keys[] = {
		"event", "attach", "filter", "let", "join", "save", "print", "count", "hist", "aggregate",
	};
	static const char *const lat_keys[] = { "event", "attach", "filter", "key" };
	if (map->type != YAML_MAPPING_NODE)
		return node_error(ld, map, "%s must be a mapping with an 'event' key, not %s", what,
				  node_kind(map));
	if (latency_end)
		return check_keys(ld, map, what, lat_keys, ARRAY_SIZE(lat_keys));
	return check_keys(ld, map, what, ev_keys, ARRAY_SIZE(ev_keys));
}

static int fill_probe(struct loader *ld, yaml_node_t *map, struct spec_probe *pr, bool latency_end,
		      const char *what)
{
	const char *key;
	yaml_node_t *val;
	yaml_node_pair_t *p;
	bool ends = false;
	int err;

	err = check_probe_keys(ld, map, latency_end, what);
	if (err)
		return err;
	pr->loc = node_loc(map);
	for_each_pair(ld, map, key, val, p) {
		if (!strcmp(key, "event"))
			err = get_str(ld, val, "event", &pr->event);
		else if (!strcmp(key, "attach"))
			err = get_attach(ld, val, &pr->attach, &pr->attach_loc);
		else if (!strcmp(key, "filter"))
			err = get_str(ld, val, "filter", &pr->filter);
		else if (!strcmp(key, "let"))
			err = get_lets(ld, val, pr);
		else if (!strcmp(key, "join"))
			err = get_joins(ld, val, pr);
		else if (!strcmp(key, "save"))
			err = get_saves(ld, val, pr);
		else if (!strcmp(key, "print"))
			err = get_items(ld, val, "print", &pr->print);
		else if (!strcmp(key, "count"))
			err = add_legacy_agg(ld, val, pr, false);
		else if (!strcmp(key, "hist"))
			err = add_legacy_agg(ld, val, pr, true);
		else if (!strcmp(key, "aggregate"))
			err = get_aggs(ld, val, pr);
		else if (!strcmp(key, "key"))
			err = get_str(ld, val, "key", &pr->key);
		if (err)
			return err;
	}
	if (!pr->event.s)
		return node_error(ld, map, "%s has no 'event' (add 'event: system/event')", what);
	err = split_event(ld, pr);
	if (err)
		return err;
	if (pr->filter.s && !*pr->filter.s) {
		spec_error(ld->spec, &pr->filter.loc, 0, "empty filter");
		return -EINVAL;
	}
	if (latency_end && !pr->key.s)
		return node_error(ld, map, "%s has no 'key' (the field joining both ends, such as pid)",
				  what);
	/* a join alone ends what was saved (it deletes it), unless it keeps it */
	for (int i = 0; i < pr->nr_joins; i++)
		ends |= !pr->joins[i].keep;
	if (!latency_end && !pr->print.nr && !pr->nr_aggs && !pr->nr_saves && !ends)
		return node_error(ld, map, "event '%s' does nothing: give it 'print', 'count', 'hist', "
				  "'aggregate', 'save' or a 'join' that ends what was saved", pr->event.s);
	return 0;
}

static int load_latency(struct loader *ld, yaml_node_t *map, struct spec_latency *lat, int idx)
{
	static const char *const keys[] = { "name", "unit", "from", "to" };
	const char *key;
	yaml_node_t *val, *from = NULL, *to = NULL;
	yaml_node_pair_t *p;
	int err;

	lat->loc = node_loc(map);
	if (map->type != YAML_MAPPING_NODE)
		return node_error(ld, map, "a latency entry must be a mapping with 'from' and 'to', not %s",
				  node_kind(map));
	err = check_keys(ld, map, "latency", keys, ARRAY_SIZE(keys));
	if (err)
		return err;
	for_each_pair(ld, map, key, val, p) {
		if (!strcmp(key, "name"))
			err = get_str(ld, val, "name", &lat->name);
		else if (!strcmp(key, "unit"))
			err = get_str(ld, val, "unit", &lat->unit);
		else if (!strcmp(key, "from"))
			from = val;
		else if (!strcmp(key, "to"))
			to = val;
		if (err)
			return err;
	}
	if (!from || !to)
		return node_error(ld, map, "latency needs both 'from' and 'to'");
	err = fill_probe(ld, from, &lat->from, true, "latency 'from'");
	if (!err)
		err = fill_probe(ld, to, &lat->to, true, "latency 'to'");
	if (err)
		return err;
	if (lat->name.s) {
		err = check_ident(ld, &lat->name, "latency name", 48);
		if (err)
			return err;
	} else {
		lat->name.s = xasprintf("lat%d", idx);
		lat->name.loc = lat->loc;
	}
	if (lat->unit.s && strcmp(lat->unit.s, "nsecs") && strcmp(lat->unit.s, "usecs") &&
	    strcmp(lat->unit.s, "msecs")) {
		spec_error(ld->spec, &lat->unit.loc, 0, "unknown unit '%s' (nsecs, usecs or msecs)",
			   lat->unit.s);
		return -EINVAL;
	}
	if (!lat->unit.s)
		lat->unit.s = xstrdup("usecs");
	return 0;
}

/* layout: core (the default: CO-RE reads) or static (the offsets of the inputs, checked at start-up) */
static int get_layout(struct loader *ld, yaml_node_t *node, bool *is_static)
{
	struct spec_str s = {};
	int err;

	err = get_str(ld, node, "layout", &s);
	if (err)
		return err;
	if (!strcmp(s.s, "static"))
		*is_static = true;
	else if (strcmp(s.s, "core"))
		err = node_error(ld, node, "unknown layout '%s': use core (CO-RE, the default) or static", s.s);
	free(s.s);
	return err;
}

static int load_root(struct loader *ld, yaml_node_t *root)
{
	static const char *const keys[] = { "tool", "description", "attach", "layout", "params", "events",
					      "latency" };
	struct spec *s = ld->spec;
	yaml_node_t *val, *events = NULL, *lats = NULL;
	yaml_node_item_t *it;
	yaml_node_pair_t *p;
	const char *key;
	int err = 0;

	if (!root)
		return diag_error(s->path, 0, 0, "empty spec (start with 'tool: NAME')"), -EINVAL;
	if (root->type != YAML_MAPPING_NODE)
		return node_error(ld, root, "a spec is a mapping (tool:, events:, ...), not %s",
				  node_kind(root));
	err = check_keys(ld, root, "the spec", keys, ARRAY_SIZE(keys));
	if (err)
		return err;
	for_each_pair(ld, root, key, val, p) {
		if (!strcmp(key, "tool"))
			err = get_str(ld, val, "tool", &s->tool);
		else if (!strcmp(key, "description"))
			err = get_str(ld, val, "description", &s->description);
		else if (!strcmp(key, "attach"))
			err = get_attach(ld, val, &s->attach, &s->attach_loc);
		else if (!strcmp(key, "layout"))
			err = get_layout(ld, val, &s->static_layout);
		else if (!strcmp(key, "params"))
			err = get_params(ld, val);
		else if (!strcmp(key, "events"))
			events = val;
		else if (!strcmp(key, "latency"))
			lats = val;
		if (err)
			return err;
	}
	if (!s->tool.s)
		return node_error(ld, root, "the spec has no 'tool' (the generated program's name)");
	err = check_ident(ld, &s->tool, "tool name", 32);
	if (!err) {
		/* the generated Makefile's own targets and files */
		static const char *const make_names[] = { "Makefile", "all", "clean", "tpgen_names", "tpgen_syms" };

		for (size_t i = 0; i < ARRAY_SIZE(make_names); i++)
			if (!strcmp(s->tool.s, make_names[i])) {
				spec_error(s, &s->tool.loc, 0, "tool name '%s' is reserved (the generated "
					   "Makefile's target or file '%s'); choose another", s->tool.s, s->tool.s);
				err = -EINVAL;
			}
	}
	if (err)
		return err;
	if (events) {
		if (events->type != YAML_SEQUENCE_NODE)
			return node_error(ld, events, "'events' must be a list, not %s", node_kind(events));
		for (it = events->data.sequence.items.start; it < events->data.sequence.items.top; it++) {
			if (s->nr_events >= SPEC_MAX_ENTRIES)
				return node_error(ld, yaml_node(ld, *it), "more than %d entries in 'events': "
						  "split the spec", SPEC_MAX_ENTRIES);
			s->events = xrealloc(s->events, (s->nr_events + 1) * sizeof(*s->events));
			memset(&s->events[s->nr_events], 0, sizeof(*s->events));
			s->nr_events++;
			err = fill_probe(ld, yaml_document_get_node(&ld->doc, *it),
					 &s->events[s->nr_events - 1], false, "an 'events' entry");
			if (err)
				return err;
		}
	}
	if (lats) {
		if (lats->type != YAML_SEQUENCE_NODE)
			return node_error(ld, lats, "'latency' must be a list, not %s", node_kind(lats));
		for (it = lats->data.sequence.items.start; it < lats->data.sequence.items.top; it++) {
			if (s->nr_lats >= SPEC_MAX_ENTRIES / 2)
				return node_error(ld, yaml_node(ld, *it), "more than %d latency pairs: split the spec",
						  SPEC_MAX_ENTRIES / 2);
			s->lats = xrealloc(s->lats, (s->nr_lats + 1) * sizeof(*s->lats));
			memset(&s->lats[s->nr_lats], 0, sizeof(*s->lats));
			s->nr_lats++;
			err = load_latency(ld, yaml_document_get_node(&ld->doc, *it),
					   &s->lats[s->nr_lats - 1], s->nr_lats - 1);
			if (err)
				return err;
		}
		for (int i = 0; i < s->nr_lats; i++)
			for (int j = 0; j < i; j++)
				if (!strcmp(s->lats[i].name.s, s->lats[j].name.s)) {
					spec_error(s, &s->lats[i].name.loc, 0,
						   "latency name '%s' is used twice", s->lats[i].name.s);
					return -EINVAL;
				}
	}
	if (!s->nr_events && !s->nr_lats)
		return node_error(ld, root, "the spec traces nothing: add 'events:' or 'latency:'");
	return 0;
}

/*
 * Walk the YAML events once before building the document: nesting and
 * aliases are bounded (libyaml's document loader would expand a "billion
 * laughs" of aliases, and is quadratic in deep nesting), each with its place.
 */
static int check_shape(const struct spec *s)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	int depth = 0, aliases = 0, err = 0;

	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)s->text, s->len);
	for (;;) {
		struct spec_loc loc;

		if (!yaml_parser_parse(&parser, &ev))
			break;	/* the loader reports the syntax error */
		loc = (struct spec_loc){ .line = ev.start_mark.line + 1, .col = ev.start_mark.column + 1,
					 .index = ev.start_mark.index };
		if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) {
			if (++depth > SPEC_MAX_DEPTH) {
				spec_error(s, &loc, 0, "YAML nested more than %d levels deep", SPEC_MAX_DEPTH);
				err = -EINVAL;
			}
		} else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) {
			depth--;
		} else if (ev.type == YAML_ALIAS_EVENT && ++aliases > SPEC_MAX_ALIASES) {
			spec_error(s, &loc, 0, "more than %d YAML aliases", SPEC_MAX_ALIASES);
			err = -EINVAL;
		}
		if (ev.type == YAML_STREAM_END_EVENT || err) {
			yaml_event_delete(&ev);
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return err;
}

int spec_parse(struct spec **out, const char *path, const char *text, size_t len)
{
	struct loader ld = {};
	yaml_parser_t parser;
	struct spec *s;
	int err;

	*out = NULL;
	s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(path);
	s->text = xstrndup(text, len);
	s->len = len;
	ld.spec = s;
	if (memchr(text, '\0', len)) {
		diag_error(path, 0, 0, "not a text file (contains NUL bytes)");
		spec_free(s);
		return -EINVAL;
	}
	err = check_shape(s);
	if (err) {
		spec_free(s);
		return err;
	}
	if (!yaml_parser_initialize(&parser))
		return spec_free(s), -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)s->text, len);
	if (!yaml_parser_load(&parser, &ld.doc)) {
		struct spec_loc loc = {
			.line = parser.problem_mark.line + 1,
			.col = parser.problem_mark.column + 1,
			.index = parser.problem_mark.index,
		};

		if (parser.context)
			spec_error(s, &loc, 0, "invalid YAML: %s %s", parser.problem, parser.context);
		else
			spec_error(s, &loc, 0, "invalid YAML: %s", parser.problem ? parser.problem : "error");
		yaml_parser_delete(&parser);
		spec_free(s);
		return -EINVAL;
	}
	err = load_root(&ld, yaml_document_get_root_node(&ld.doc));
	yaml_document_delete(&ld.doc);
	yaml_parser_delete(&parser);
	if (err) {
		spec_free(s);
		return err;
	}
	*out = s;
	return 0;
}

int spec_load(struct spec **out, const char *path)
{
	size_t len;
	char *text;
	int err;

	/* a spec is a page of YAML; megabytes are a mistake (or an attack): the limit holds while reading */
	err = read_input(path, "spec", SPEC_MAX_SIZE, &text, &len);
	if (err) {
		*out = NULL;
		return err;
	}
	err = spec_parse(out, path, text, len);
	free(text);
	return err;
}

void spec_free(struct spec *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < s->nr_events; i++)
		spec_probe_clear(&s->events[i]);
	for (i = 0; i < s->nr_lats; i++) {
		free(s->lats[i].name.s);
		free(s->lats[i].unit.s);
		spec_probe_clear(&s->lats[i].from);
		spec_probe_clear(&s->lats[i].to);
	}
	spec_params_clear(s);
	free(s->events);
	free(s->lats);
	free(s->tool.s);
	free(s->description.s);
	free(s->path);
	free(s->text);
	free(s);
}
