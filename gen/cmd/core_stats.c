// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tpgen list --core-stats: per system, how many events a spec-generated tool
 * reads with CO-RE (a trace_event_raw_<class> struct, or syscall_trace_enter
 * and _exit) and how many keep the static layout, whose fields the loader
 * checks at start-up against the running kernel's format files.
 */
#include <string.h>

#include "lib/json.h"
#include "model/model.h"
#include "lib/util.h"

struct core_count {
	int events, class, sys, fixed;
};

static void count(struct core_count *c, const struct tp_event *ev)
{
	bool core = tp_event_core(ev);

	c->events++;
	c->class += core && ev->core_class;
	c->sys += core && ev->core_sys;
	c->fixed += !core;
}

static void put_row(struct strbuf *sb, const char *sys, const struct core_count *c, bool json, bool first)
{
	if (json) {
		sb_puts(sb, first ? "{\"system\":" : ",{\"system\":");
		json_str(sb, sys);
		sb_printf(sb, ",\"events\":%d,\"core_class\":%d,\"core_syscall\":%d,\"static\":%d}", c->events,
			  c->class, c->sys, c->fixed);
	} else {
		sb_printf(sb, "%-24s %7d %7d %7d %7d\n", sys, c->events, c->class, c->sys, c->fixed);
	}
}

void core_stats(struct strbuf *sb, struct tp_events *evs, const bool *sel, const struct btf *btf, bool json)
{
	struct core_count sys = {}, total = {};
	const char *cur = NULL;
	bool first = true;
	int i;

	if (btf)
		tp_events_core(evs, sel, btf, false);
	if (json)
		sb_printf(sb, "{\"btf\":%s,\"systems\":[", btf ? "true" : "false");
	else
		sb_printf(sb, "%-24s %7s %7s %7s %7s\n", "SYSTEM", "EVENTS", "CLASS", "SYSCALL", "STATIC");
	for (i = 0; i < evs->nr; i++) {
		const struct tp_event *ev = &evs->ev[i];

		if (!sel[i])
			continue;
		if (cur && strcmp(cur, ev->sys)) {
			put_row(sb, cur, &sys, json, first);
			first = false;
			memset(&sys, 0, sizeof(sys));
		}
		cur = ev->sys;
		count(&sys, ev);
		count(&total, ev);
	}
	if (cur)
		put_row(sb, cur, &sys, json, first);
	if (json)
		sb_printf(sb, "],\"events\":%d,\"core_class\":%d,\"core_syscall\":%d,\"static\":%d}\n",
			  total.events, total.class, total.sys, total.fixed);
	else
		put_row(sb, "total", &total, false, false);
}
