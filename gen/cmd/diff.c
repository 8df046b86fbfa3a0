// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tpgen diff OLD NEW: what changed between two kernels' descriptions (two
 * snapshot directories): events added and removed, fields moved, resized,
 * retyped, added and removed, raw tracepoints and their arguments likewise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "emit/emit.h"
#include "lib/json.h"
#include "input/rawtp.h"

struct differ {
	struct strbuf out;
	bool json;
	int nr;			/* changes reported */
	int nr_json;		/* entries in the current JSON array */
};

/* One change: text "<sign> <what>: <detail>", or a JSON object. */
static void change(struct differ *d, char sign, const char *kind, const char *what,
		   const char *item, const char *detail, const char *old_val, const char *new_val)
{
	d->nr++;
	if (!d->json) {
		sb_printf(&d->out, "%c %s %s", sign, kind, what);
		if (item)
			sb_printf(&d->out, ": %s", item);
		if (detail)
			sb_printf(&d->out, " %s", detail);
		if (sign != '~' && (old_val || new_val))
			sb_printf(&d->out, " (%s)", old_val ? old_val : new_val);
		else if (old_val || new_val)
			sb_printf(&d->out, " %s -> %s", old_val ? old_val : "-", new_val ? new_val : "-");
		sb_putc(&d->out, '\n');
		return;
	}
	sb_puts(&d->out, d->nr_json++ ? ",\n  {" : "\n  {");
	sb_printf(&d->out, "\"change\":\"%s\",\"kind\":\"%s\",\"name\":",
		  sign == '+' ? "added" : sign == '-' ? "removed" : detail ? detail : "changed", kind);
	json_str(&d->out, what);
	if (item) {
		sb_puts(&d->out, ",\"item\":");
		json_str(&d->out, item);
	}
	if (old_val) {
		sb_puts(&d->out, ",\"old\":");
		json_str(&d->out, old_val);
	}
	if (new_val) {
		sb_puts(&d->out, ",\"new\":");
		json_str(&d->out, new_val);
	}
	sb_putc(&d->out, '}');
}

static char *field_desc(const struct tp_field *f)
{
	return xasprintf("%s%s%s%s, offset %u, size %u", f->type, f->array ? "[" : "",
			 f->array ? f->array : "", f->array ? "]" : "", f->offset, f->size);
}

static const struct tp_field *find_field(const struct tp_event *ev, const char *name)
{
	int i;

	for (i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return &ev->fields[i];
	return NULL;
}

static void diff_event(struct differ *d, const struct tp_event *a, const struct tp_event *b)
{
	char *what = xasprintf("%s/%s", a->sys, a->name);
	char o[64], n[64];
	int i;

	for (i = 0; i < a->nr_fields; i++) {
		const struct tp_field *fa = &a->fields[i], *fb = find_field(b, fa->name);
		char *s;

		if (!fb) {
			s = field_desc(fa);
			change(d, '-', "field", what, fa->name, NULL, s, NULL);
			free(s);
			continue;
		}
		if (fa->offset != fb->offset) {
			snprintf(o, sizeof(o), "%u", fa->offset);
			snprintf(n, sizeof(n), "%u", fb->offset);
			change(d, '~', "field", what, fa->name, "moved", o, n);
		}
		if (fa->size != fb->size) {
			snprintf(o, sizeof(o), "%u", fa->size);
			snprintf(n, sizeof(n), "%u", fb->size);
			change(d, '~', "field", what, fa->name, "resized", o, n);
		}
		if (strcmp(fa->type, fb->type) || strcmp(fa->array ? fa->array : "", fb->array ? fb->array : "") ||
		    fa->is_signed != fb->is_signed) {
			char *ta = xasprintf("%s%s%s%s%s", fa->type, fa->array ? "[" : "", fa->array ? fa->array : "",
					     fa->array ? "]" : "", fa->is_signed ? " (signed)" : "");
			char *tb = xasprintf("%s%s%s%s%s", fb->type, fb->array ? "[" : "", fb->array ? fb->array : "",
					     fb->array ? "]" : "", fb->is_signed ? " (signed)" : "");

			change(d, '~', "field", what, fa->name, "retyped", ta, tb);
			free(ta);
			free(tb);
		}
	}
	for (i = 0; i < b->nr_fields; i++) {
		if (!find_field(a, b->fields[i].name)) {
			char *s = field_desc(&b->fields[i]);

			change(d, '+', "field", what, b->fields[i].name, NULL, NULL, s);
			free(s);
		}
	}
	free(what);
}

static void diff_events(struct differ *d, const struct tp_events *a, const struct tp_events *b)
{
	int i = 0, j = 0;

	while (i < a->nr || j < b->nr) {
		int c = i >= a->nr ? 1 : j >= b->nr ? -1 : strcmp(a->ev[i].sys, b->ev[j].sys);
		char *what;

		if (!c)
			c = strcmp(a->ev[i].name, b->ev[j].name);
		if (!c) {
			diff_event(d, &a->ev[i++], &b->ev[j++]);
			continue;
		}
		if (c < 0) {
			what = xasprintf("%s/%s", a->ev[i].sys, a->ev[i].name);
			change(d, '-', "event", what, NULL, NULL, NULL, NULL);
			i++;
		} else {
			what = xasprintf("%s/%s", b->ev[j].sys, b->ev[j].name);
			change(d, '+', "event", what, NULL, NULL, NULL, NULL);
			j++;
		}
		free(what);
	}
}

/* Arguments compared as declared with kernel types ("struct task_struct *prev"). */
static void diff_raw_tp(struct differ *d, const struct raw_spell *sa, const struct raw_tp *a,
			const struct raw_spell *sb, const struct raw_tp *b)
{
	int i, n = a->nr_args > b->nr_args ? a->nr_args : b->nr_args;
	struct strbuf x, y;
	char item[64];

	sb_init(&x);
	sb_init(&y);
	for (i = 0; i < n; i++) {
		sb_reset(&x);
		sb_reset(&y);
		if (i < a->nr_args)
			raw_spell_kernel(sa, a, i, true, &x);
		if (i < b->nr_args)
			raw_spell_kernel(sb, b, i, true, &y);
		snprintf(item, sizeof(item), "arg %d", i);
		if (i >= b->nr_args)
			change(d, '-', "raw_arg", a->name, item, NULL, x.buf, NULL);
		else if (i >= a->nr_args)
			change(d, '+', "raw_arg", a->name, item, NULL, NULL, y.buf);
		else if (strcmp(x.buf, y.buf))
			change(d, '~', "raw_arg", a->name, item,
			       strcmp(a->args[i].name, b->args[i].name) && a->args[i].size == b->args[i].size ?
			       "renamed" : "retyped", x.buf, y.buf);
	}
	sb_clear(&x);
	sb_clear(&y);
}

static void diff_raw(struct differ *d, const struct raw_spell *sa, const struct raw_tps *a,
		     const struct raw_spell *sb, const struct raw_tps *b)
{
	int i = 0, j = 0;

	while (i < a->nr || j < b->nr) {
		int c = i >= a->nr ? 1 : j >= b->nr ? -1 : strcmp(a->tp[i].name, b->tp[j].name);

		if (!c)
			diff_raw_tp(d, sa, &a->tp[i++], sb, &b->tp[j++]);
		else if (c < 0)
			change(d, '-', "raw_tp", a->tp[i++].name, NULL, NULL, NULL, NULL);
		else
			change(d, '+', "raw_tp", b->tp[j++].name, NULL, NULL, NULL, NULL);
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tpgen diff [--json] [--exit-code] OLD NEW\n"
		"What changed between two kernels: OLD and NEW are 'tpgen snapshot' directories.\n"
		"Events and fields (added, removed, moved, resized, retyped), raw tracepoints\n"
		"and their arguments (added, removed, renamed, retyped).\n\n"
		"  -j, --json            one JSON document\n"
		"      --exit-code       exit 1 when there are differences\n");
}

static int load(struct inputs *in, const char *dir, struct raw_tps *r)
{
	int err;

	err = inputs_option(in, 'K', dir);
	if (err < 0)
		return err;
	err = inputs_load_events(in);
	if (err)
		return err;
	err = inputs_load_btf(in, true);
	if (err)
		return err;
	return rawtp_load(r, in->btf);
}

int cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json",	no_argument,	NULL, 'j' },
		{ "exit-code",	no_argument,	NULL, 'x' },
		{ "help",	no_argument,	NULL, 'h' },
		{ 0 }
	};
	struct inputs a = {}, b = {};
	struct raw_tps ra = {}, rb = {};
	struct raw_spell sa = {}, sb = {};
	struct differ d = {};
	bool exit_on_diff = false;
	int opt, err;

	while ((opt = getopt_long(argc, argv, ":jh", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			d.json = true;
			break;
		case 'x':
			exit_on_diff = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return bad_option("diff", opt, argv);
		}
	}
	if (argc - optind != 2) {
		pr_err("diff needs two snapshot directories; see 'tpgen diff --help'");
		return -TPGEN_EUSAGE;
	}
	err = load(&a, argv[optind], &ra);
	if (!err)
		err = load(&b, argv[optind + 1], &rb);
	if (!err)
		err = raw_spell_init(&sa, &ra, NULL, a.btf);
	if (!err)
		err = raw_spell_init(&sb, &rb, NULL, b.btf);
	if (err)
		goto out;
	sb_init(&d.out);
	if (d.json) {
		sb_puts(&d.out, "{\"old\":");
		json_str(&d.out, inputs_release(&a));
		sb_puts(&d.out, ",\"new\":");
		json_str(&d.out, inputs_release(&b));
		sb_puts(&d.out, ",\"changes\":[");
	} else {
		sb_printf(&d.out, "--- %s (%s)\n+++ %s (%s)\n", argv[optind], inputs_release(&a),
			  argv[optind + 1], inputs_release(&b));
	}
	diff_events(&d, &a.evs, &b.evs);
	diff_raw(&d, &sa, &ra, &sb, &rb);
	if (d.json)
		sb_printf(&d.out, "%s],\"total\":%d}\n", d.nr_json ? "\n" : "", d.nr);
	else
		sb_printf(&d.out, "%d change%s\n", d.nr, d.nr == 1 ? "" : "s");
	err = write_output(NULL, &d.out);
	sb_clear(&d.out);
out:
	raw_spell_clear(&sa);
	raw_spell_clear(&sb);
	rawtp_clear(&ra);
	rawtp_clear(&rb);
	inputs_clear(&a);
	inputs_clear(&b);
	if (!err && exit_on_diff && d.nr)
		return 1;	/* a finding, not an error */
	return err;
}
