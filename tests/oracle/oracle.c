// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oracle EVENTS_DIR: tpgen's format-file reader against libtraceevent's
 * (tep_parse_format), field by field for every event under EVENTS_DIR:
 * name, offset, size, signedness, array and dynamic (__data_loc) and
 * relative (__rel_loc) flags. Prints every disagreement and a count line:
 * "oracle: N events, M fields compared, K mismatches".
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "model.h"
#include "util.h"

static int events, fields, mismatches, skipped;

static void mismatch(const char *path, const char *field, const char *what, long ours, long theirs)
{
	mismatches++;
	printf("MISMATCH %s: %s: %s: tpgen %ld, libtraceevent %ld\n", path, field, what, ours, theirs);
}

static const struct tp_field *find(const struct tp_event *ev, const char *name)
{
	int i;

	for (i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return &ev->fields[i];
	return NULL;
}

static void compare_list(const char *path, const struct tp_event *ev, struct tep_format_field *tf, int *n)
{
	for (; tf; tf = tf->next, (*n)++) {
		const struct tp_field *f = find(ev, tf->name);
		bool array, dynamic, relative;

		fields++;
		if (!f) {
			mismatch(path, tf->name, "missing in tpgen", 0, 1);
			continue;
		}
		/* as the format says it: "char x[16]", "char x[]", "__data_loc char[] x" (not "__data_loc cpumask_t x") */
		array = f->kind == FIELD_ARRAY || f->kind == FIELD_FLEX ||
			((f->kind == FIELD_DATA_LOC || f->kind == FIELD_REL_LOC) && strstr(f->type, "[]"));
		dynamic = f->kind == FIELD_DATA_LOC || f->kind == FIELD_REL_LOC;
		relative = f->kind == FIELD_REL_LOC;
		if ((long)f->offset != tf->offset)
			mismatch(path, tf->name, "offset", f->offset, tf->offset);
		if ((long)f->size != tf->size)
			mismatch(path, tf->name, "size", f->size, tf->size);
		if (f->is_signed != !!(tf->flags & TEP_FIELD_IS_SIGNED))
			mismatch(path, tf->name, "signed", f->is_signed, !!(tf->flags & TEP_FIELD_IS_SIGNED));
		if (array != !!(tf->flags & TEP_FIELD_IS_ARRAY))
			mismatch(path, tf->name, "array", array, !!(tf->flags & TEP_FIELD_IS_ARRAY));
		if (dynamic != !!(tf->flags & TEP_FIELD_IS_DYNAMIC))
			mismatch(path, tf->name, "dynamic", dynamic, !!(tf->flags & TEP_FIELD_IS_DYNAMIC));
		if (relative != !!(tf->flags & TEP_FIELD_IS_RELATIVE))
			mismatch(path, tf->name, "relative", relative, !!(tf->flags & TEP_FIELD_IS_RELATIVE));
		/* element counts of fixed arrays with a numeric size */
		if (f->kind == FIELD_ARRAY && tf->arraylen && f->array && f->array[0] >= '0' &&
		    f->array[0] <= '9' && (long)(f->size / f->elem_size) != (long)tf->arraylen &&
		    f->elem_size == tf->elementsize)
			mismatch(path, tf->name, "array length", f->size / f->elem_size, tf->arraylen);
	}
}

static void one(struct tep_handle *tep, const char *dir, const char *sys, const char *name)
{
	char *path = xasprintf("%s/%s/%s/format", dir, sys, name), *text;
	struct tep_event *tev = NULL;
	struct tp_event ev;
	size_t len;
	int n = 0;

	if (read_file(path, &text, &len)) {
		free(path);
		return;
	}
	if (tep_parse_format(tep, &tev, text, len, sys) || !tev) {
		printf("SKIP %s: libtraceevent cannot parse it\n", path);
		skipped++;
	} else if (tracefs_parse_format(path, text, sys, name, &ev)) {
		mismatch(path, "*", "tpgen rejects what libtraceevent parses", 1, 0);
	} else {
		events++;
		compare_list(path, &ev, tev->format.common_fields, &n);
		compare_list(path, &ev, tev->format.fields, &n);
		if (n != ev.nr_fields)
			mismatch(path, "*", "number of fields", ev.nr_fields, n);
		tp_event_clear(&ev);
	}
	free(text);
	free(path);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
	struct dirent **systems, **evs;
	struct tep_handle *tep;
	int i, j, ns, ne;

	if (argc != 2) {
		fprintf(stderr, "usage: %s EVENTS_DIR\n", argv[0]);
		return 2;
	}
	tep = tep_alloc();
	tep_set_long_size(tep, 8);
	ns = scandir(argv[1], &systems, NULL, by_name);
	for (i = 0; i < ns; i++) {
		char *sd = xasprintf("%s/%s", argv[1], systems[i]->d_name);

		ne = systems[i]->d_name[0] == '.' ? -1 : scandir(sd, &evs, NULL, by_name);
		for (j = 0; j < ne; j++) {
			if (evs[j]->d_name[0] != '.')
				one(tep, argv[1], systems[i]->d_name, evs[j]->d_name);
			free(evs[j]);
		}
		if (ne >= 0)
			free(evs);
		free(sd);
		free(systems[i]);
	}
	free(systems);
	tep_free(tep);
	printf("oracle: %d events, %d fields compared, %d mismatches, %d skipped\n",
	       events, fields, mismatches, skipped);
	return mismatches ? 1 : 0;
}
