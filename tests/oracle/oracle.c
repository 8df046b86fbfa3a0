// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oracle EVENTS_DIR: tpgen's format-file reader against libtraceevent's
 * (tep_parse_format), field by field for every event under EVENTS_DIR:
 * name, offset, size, signedness, array, dynamic (__data_loc) and relative
 * (__rel_loc) flags, common or not, array length, and the event id.
 *
 * tpgen's side is what the generator reads: tracefs_load() over the whole
 * directory (its threads, sorting and lookups included), so an event it
 * loses or invents is a mismatch too. libtraceevent rejects two things
 * tracefs may have that say nothing about fields: a format without an "ID:"
 * line (ftrace/print in a copied tree) and an event name that is not an
 * identifier; it is given "ID: 0" and the name with '_' for those, counted
 * as "adapted".
 *
 * Prints every disagreement and one count line:
 * "oracle: N events, M fields compared, K mismatches, S skipped, A adapted".
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <traceevent/event-parse.h>

#include "model/model.h"
#include "lib/util.h"

static int events, fields, mismatches, skipped, adapted;
static bool load_failed;

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

static void compare_list(const char *path, const struct tp_event *ev, struct tep_format_field *tf,
			 bool common, int *n)
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
		if (f->common != common)
			mismatch(path, tf->name, "common", f->common, common);
		/*
		 * Element counts of fixed arrays with a numeric size, where both
		 * know the element (tpgen makes bytes of elements it cannot size).
		 */
		if (f->kind == FIELD_ARRAY && tf->arraylen && f->array && isdigit((unsigned char)f->array[0]) &&
		    f->elem_size == (unsigned int)tf->elementsize && (long)(f->size / f->elem_size) != tf->arraylen)
			mismatch(path, tf->name, "array length", f->size / f->elem_size, tf->arraylen);
	}
}

/*
 * The text libtraceevent is given: with "ID: 0" when the format has no ID
 * line, and the name line's non-identifier characters as '_'.
 */
static char *for_tep(const char *text, bool *changed)
{
	struct strbuf sb;
	const char *p;
	bool has_id = strstr(text, "\nID:") != NULL;

	*changed = !has_id;
	sb_init(&sb);
	for (p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p + 1) : strlen(p);

		if (!strncmp(p, "name: ", 6)) {
			size_t i;

			sb_puts(&sb, "name: ");
			for (i = 6; i < n; i++) {
				char c = p[i];

				if (c != '\n' && c != '_' && !isalnum((unsigned char)c)) {
					c = '_';
					*changed = true;
				}
				sb_putc(&sb, c);
			}
			if (!has_id)
				sb_puts(&sb, "ID: 0\n");
		} else {
			sb_add(&sb, p, n);
		}
		p += n;
	}
	return sb_steal(&sb);
}

static void one(struct tep_handle *tep, struct tp_events *evs, const char *dir, const char *sys,
		const char *name)
{
	char *path = xasprintf("%s/%s/%s/format", dir, sys, name), *text, *ttext;
	struct tep_event *tev = NULL;
	struct tp_event *ev, own = { 0 };
	bool changed;
	size_t len;
	int n = 0;

	if (read_file(path, &text, &len)) {
		free(path);
		return;
	}
	ttext = for_tep(text, &changed);
	if (tep_parse_format(tep, &tev, ttext, strlen(ttext), sys) || !tev) {
		printf("SKIP %s: libtraceevent cannot parse it\n", path);
		skipped++;
	} else if (!(ev = tp_events_find(evs, sys, name)) && !load_failed) {
		mismatch(path, "*", "not loaded by tpgen, parsed by libtraceevent", 0, 1);
	} else if (!ev && tracefs_parse_format(path, text, sys, name, &own)) {
		/* the loader failed: this file alone, for a precise report */
		mismatch(path, "*", "rejected by tpgen, parsed by libtraceevent", 0, 1);
	} else {
		ev = ev ? ev : &own;
		events++;
		adapted += changed;
		if (strstr(text, "\nID:") && ev->id != tev->id)
			mismatch(path, "*", "id", ev->id, tev->id);
		compare_list(path, ev, tev->format.common_fields, true, &n);
		compare_list(path, ev, tev->format.fields, false, &n);
		if (n != ev->nr_fields)
			mismatch(path, "*", "number of fields", ev->nr_fields, n);
		tp_event_clear(&own);
	}
	free(ttext);
	free(text);
	free(path);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
	struct dirent **systems, **evd;
	struct tep_handle *tep;
	struct tp_events evs;
	int i, j, ns, ne, seen = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s EVENTS_DIR\n", argv[0]);
		return 2;
	}
	if (tracefs_load(&evs, argv[1])) {
		mismatch(argv[1], "*", "tpgen's loader fails on it (events read one by one below)", 1, 0);
		load_failed = true;
	}
	tep = tep_alloc();
	tep_set_long_size(tep, 8);
	ns = scandir(argv[1], &systems, NULL, by_name);
	if (ns < 0) {
		perror(argv[1]);
		return 2;
	}
	for (i = 0; i < ns; i++) {
		char *sd = xasprintf("%s/%s", argv[1], systems[i]->d_name);

		ne = systems[i]->d_name[0] == '.' ? -1 : scandir(sd, &evd, NULL, by_name);
		for (j = 0; j < ne; j++) {
			char *fmt = xasprintf("%s/%s/format", sd, evd[j]->d_name);

			if (evd[j]->d_name[0] != '.' && !access(fmt, R_OK)) {
				one(tep, &evs, argv[1], systems[i]->d_name, evd[j]->d_name);
				seen++;
			}
			free(fmt);
			free(evd[j]);
		}
		if (ne >= 0)
			free(evd);
		free(sd);
		free(systems[i]);
	}
	free(systems);
	if (!load_failed && evs.nr != seen)
		mismatch(argv[1], "*", "events loaded (tpgen) vs format files found", evs.nr, seen);
	tep_free(tep);
	tp_events_clear(&evs);
	printf("oracle: %d events, %d fields compared, %d mismatches, %d skipped, %d adapted\n",
	       events, fields, mismatches, skipped, adapted);
	return mismatches ? 1 : 0;
}
