// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Event patterns: "sys/event" or "sys:event" with globs on either side
 * ("sched/<glob>", "syscalls:sys_enter_<glob>"), or one glob matching a system or an
 * event name ("sched", "*switch*").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "lib/util.h"

bool tp_pattern_match(const char *pattern, const char *sys, const char *name)
{
	const char *sep = strpbrk(pattern, "/:");
	bool hit;
	char *sys_pat;

	if (!sep)
		return glob_match(pattern, sys) || glob_match(pattern, name);
	sys_pat = xstrndup(pattern, sep - pattern);
	hit = glob_match(sys_pat, sys) && glob_match(sep + 1, name);
	free(sys_pat);
	return hit;
}

/*
 * selected[i] for every event matching any pattern (all events without
 * patterns). A pattern that matches nothing is an error.
 */
int tp_events_select(struct tp_events *evs, char **patterns, int nr, bool **selected)
{
	bool *sel = xcalloc(evs->nr, sizeof(*sel));
	int i, j, err = 0;

	for (j = 0; j < nr; j++) {
		bool any = false;

		for (i = 0; i < evs->nr; i++) {
			if (tp_pattern_match(patterns[j], evs->ev[i].sys, evs->ev[i].name)) {
				sel[i] = true;
				any = true;
			}
		}
		if (!any) {
			pr_err("no event matches '%s' in %s", patterns[j], evs->root);
			err = -ENOENT;
		}
	}
	if (!nr)
		for (i = 0; i < evs->nr; i++)
			sel[i] = true;
	if (err) {
		free(sel);
		return err;
	}
	*selected = sel;
	return 0;
}
