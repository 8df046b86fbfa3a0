/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The order headers print things in: decided in the model, walked by the emitters. */
#ifndef __TPGEN_ORDER_H
#define __TPGEN_ORDER_H

#include <stdbool.h>

struct raw_tps;
struct tp_events;

/*
 * The forward declarations ("struct sock") the selected events' fields (or
 * raw tracepoints' arguments; with 'modules_only', of modules' tracepoints
 * only) need, sorted and each once: their count, *out to free().
 */
int order_ctx_forwards(const struct tp_events *evs, const bool *selected, const char ***out);
int order_raw_forwards(const struct raw_tps *r, const bool *selected, bool modules_only, const char ***out);
/* --core: first[i] for the first selected event of each class (by name, then index). */
void order_class_firsts(const struct tp_events *evs, const bool *selected, bool *first);

#endif /* __TPGEN_ORDER_H */
