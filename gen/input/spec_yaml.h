/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The spec loader's YAML helpers, shared by gen/input/spec.c and gen/input/spec_entry.c. */
#ifndef __TPGEN_SPEC_YAML_H
#define __TPGEN_SPEC_YAML_H

#include <yaml.h>
#include "input/spec.h"

struct loader {
	struct spec *spec;
	yaml_document_t doc;
};

struct spec_loc node_loc(const yaml_node_t *node);
int node_error(struct loader *ld, const yaml_node_t *node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *node_kind(const yaml_node_t *node);
int get_str(struct loader *ld, yaml_node_t *node, const char *what, struct spec_str *out);
/* Every key of 'map' is one of 'keys', once. */
int check_keys(struct loader *ld, yaml_node_t *map, const char *what, const char *const *keys, int nkeys);
bool spec_is_ident(const char *s);
int check_ident(struct loader *ld, struct spec_str *v, const char *what, size_t max);

#define for_each_pair(ld, map, key, val, p)							\
	for (p = (map)->data.mapping.pairs.start;						\
	     p < (map)->data.mapping.pairs.top &&						\
	     ((key = (const char *)yaml_document_get_node(&(ld)->doc, p->key)->data.scalar.value), \
	      (val = yaml_document_get_node(&(ld)->doc, p->value)), 1);			\
	     p++)

#define yaml_node(ld, id) yaml_document_get_node(&(ld)->doc, (id))

/* gen/input/spec_entry.c: what an entry does */
int get_items(struct loader *ld, yaml_node_t *node, const char *what, struct spec_items *out);
int get_lets(struct loader *ld, yaml_node_t *node, struct spec_probe *pr);
int get_joins(struct loader *ld, yaml_node_t *node, struct spec_probe *pr);
int get_saves(struct loader *ld, yaml_node_t *node, struct spec_probe *pr);
int get_aggs(struct loader *ld, yaml_node_t *node, struct spec_probe *pr);
int add_legacy_agg(struct loader *ld, yaml_node_t *node, struct spec_probe *pr, bool hist);
void spec_probe_clear(struct spec_probe *pr);

/* gen/input/spec_param.c: the tool's parameters */
int get_params(struct loader *ld, yaml_node_t *node);
void spec_params_clear(struct spec *s);

#endif /* __TPGEN_SPEC_YAML_H */
