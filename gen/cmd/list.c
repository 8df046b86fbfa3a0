// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tpgen list: each event with its id, fields (offset, size, signed, type),
 * the struct name tpgen gives it, and the raw tracepoint it fires from with
 * that tracepoint's arguments from BTF; then the raw-only tracepoints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "emit/emit.h"
#include "lib/json.h"
#include "input/kmods.h"
#include "input/rawtp.h"

static const char *const name_src_str[] = {
	[RAW_NAME_PROBESTUB] = "probestub",
	[RAW_NAME_TRACEITER] = "traceiter",
	[RAW_NAME_BPF_TRACE] = "bpf_trace",
	[RAW_NAME_NONE] = "none",
};

static const char *const kind_str[] = {
	[FIELD_SCALAR] = "scalar",
	[FIELD_POINTER] = "pointer",
	[FIELD_ARRAY] = "array",
	[FIELD_FLEX] = "flex",
	[FIELD_DATA_LOC] = "data_loc",
	[FIELD_REL_LOC] = "rel_loc",
	[FIELD_BLOB] = "bytes",
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tpgen list [OPTIONS] [PATTERN...]\n"
		"List tracepoint events with their fields, struct names and raw arguments.\n\n"
		"  -j, --json            one JSON document\n"
		"      --core-stats      per system: events tpgen SPEC reads with CO-RE, and those\n"
		"                        whose static layout the loader checks at start-up\n"
		"      --tracefs DIR     read format files from DIR\n"
		"      --btf FILE        read BTF from FILE\n"
		"      --kernel DIR      a 'tpgen snapshot' directory\n"
		"  -h, --help            this help\n");
}

/* A raw argument declared with kernel types, "struct task_struct *prev", in 'decl'. */
static const char *raw_decl(const struct raw_spell *sp, const struct raw_tp *tp, int i, struct strbuf *decl)
{
	sb_reset(decl);
	raw_spell_kernel(sp, tp, i, true, decl);
	return decl->buf;
}

static void raw_text(struct strbuf *sb, const struct raw_spell *sp, const struct raw_tp *tp)
{
	struct strbuf decl;
	int i;

	sb_init(&decl);
	sb_printf(sb, "    raw_tp/tp_btf %s%s%s%s: %d arg%s, names from %s\n", tp->name,
		  tp->module ? " (module " : "", tp->module ? tp->module : "", tp->module ? ")" : "",
		  tp->nr_args, tp->nr_args == 1 ? "" : "s", tp->name_from ? tp->name_from : "nowhere (argN)");
	for (i = 0; i < tp->nr_args; i++)
		sb_printf(sb, "      %-4d %-4u %s\n", i, tp->args[i].size, raw_decl(sp, tp, i, &decl));
	sb_clear(&decl);
}

static void raw_json(struct strbuf *sb, const struct raw_spell *sp, const struct raw_tp *tp)
{
	struct strbuf decl;
	int i;

	sb_init(&decl);
	sb_puts(sb, "{\"name\":");
	json_str(sb, tp->name);
	if (tp->module) {
		sb_puts(sb, ",\"module\":");
		json_str(sb, tp->module);
	}
	sb_puts(sb, ",\"names_from\":");
	json_str(sb, name_src_str[tp->name_src]);
	if (tp->name_from) {
		sb_puts(sb, ",\"names_func\":");
		json_str(sb, tp->name_from);
	}
	sb_printf(sb, ",\"struct\":\"%s_raw_args\",\"args\":[", tp->name);
	for (i = 0; i < tp->nr_args; i++) {
		sb_puts(sb, i ? ",{\"name\":" : "{\"name\":");
		json_str(sb, tp->args[i].name);
		sb_puts(sb, ",\"decl\":");
		json_str(sb, raw_decl(sp, tp, i, &decl));
		sb_printf(sb, ",\"size\":%u,\"signed\":%s,\"pointer\":%s}", tp->args[i].size,
			  tp->args[i].is_signed ? "true" : "false", tp->args[i].is_ptr ? "true" : "false");
	}
	sb_puts(sb, "]}");
	sb_clear(&decl);
}

static void event_text(struct strbuf *sb, const struct tp_event *ev, const struct raw_spell *sp,
		       const struct raw_tp *tp)
{
	int i;

	sb_printf(sb, "%s/%s", ev->sys, ev->name);
	if (ev->id >= 0)
		sb_printf(sb, " (id %d)", ev->id);
	sb_printf(sb, ": struct %s, %u bytes", ev->struct_name, ev->size);
	if (ev->rename_reason)
		sb_printf(sb, " (%s)", ev->rename_reason);
	sb_puts(sb, "\n    offset size sign  field\n");
	for (i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];

		sb_printf(sb, "    %6u %4u %4s  %s %s", f->offset, f->size,
			  f->is_signed ? "s" : "u", f->type, f->name);
		if (f->array)
			sb_printf(sb, "[%s]", f->array);
		sb_putc(sb, '\n');
	}
	if (tp)
		raw_text(sb, sp, tp);
}

static void event_json(struct strbuf *sb, const struct tp_event *ev, const struct raw_spell *sp,
		       const struct raw_tp *tp)
{
	int i;

	sb_puts(sb, "{\"sys\":");
	json_str(sb, ev->sys);
	sb_puts(sb, ",\"name\":");
	json_str(sb, ev->name);
	if (ev->id >= 0)
		sb_printf(sb, ",\"id\":%d", ev->id);
	else
		sb_puts(sb, ",\"id\":null");
	sb_puts(sb, ",\"struct\":");
	json_str(sb, ev->struct_name);
	if (ev->rename_reason) {
		sb_puts(sb, ",\"struct_reason\":");
		json_str(sb, ev->rename_reason);
	}
	sb_printf(sb, ",\"size\":%u,\"fields\":[", ev->size);
	for (i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];

		sb_puts(sb, i ? ",{\"name\":" : "{\"name\":");
		json_str(sb, f->name);
		sb_puts(sb, ",\"type\":");
		json_str(sb, f->type);
		if (f->array) {
			sb_puts(sb, ",\"array\":");
			json_str(sb, f->array);
		}
		sb_printf(sb, ",\"offset\":%u,\"size\":%u,\"signed\":%s,\"kind\":\"%s\",\"common\":%s,"
			  "\"ctype\":", f->offset, f->size, f->is_signed ? "true" : "false",
			  kind_str[f->kind], f->common ? "true" : "false");
		{
			char *c = xasprintf("%s%s", f->ctype, f->suffix);

			json_str(sb, c);
			free(c);
		}
		sb_putc(sb, '}');
	}
	sb_puts(sb, "],\"raw\":");
	if (tp)
		raw_json(sb, sp, tp);
	else
		sb_puts(sb, "null");
	sb_putc(sb, '}');
}

/*
 * Raw-only tracepoints have no system: "sys/glob" matches one when the glob
 * matches its name and "sys" matches its first word (sched/<glob> lists
 * sched_update_nr_running_tp); a bare glob matches the name.
 */
static bool raw_selected(char **pats, int npats, const char *name)
{
	int j;

	for (j = 0; j < npats; j++) {
		const char *sep = strpbrk(pats[j], "/:");
		char *sys, *word;
		bool hit;

		if (!sep) {
			if (glob_match(pats[j], name))
				return true;
			continue;
		}
		sys = xstrndup(pats[j], sep - pats[j]);
		word = xstrndup(name, strcspn(name, "_"));
		hit = glob_match(sys, word) && glob_match(sep + 1, name);
		free(sys);
		free(word);
		if (hit)
			return true;
	}
	return !npats;
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json",	no_argument,	NULL, 'j' },
		{ "core-stats",	no_argument,	NULL, 'c' },
		{ "help",	no_argument,	NULL, 'h' },
		INPUT_LONG_OPTIONS,
		{ 0 }
	};
	struct inputs in = {};
	struct raw_tps r = {};
	struct raw_spell sp = {};
	struct kmods km = {};
	bool json = false, stats = false, *sel = NULL, *used = NULL, first = true;
	struct strbuf sb;
	int opt, err, i, npats;
	char **pats;

	while ((opt = getopt_long(argc, argv, ":jh", opts, NULL)) != -1) {
		err = inputs_option(&in, opt, optarg);
		if (err < 0)
			goto out;
		if (err)
			continue;
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'c':
			stats = true;
			break;
		case 'h':
			usage(stdout);
			inputs_clear(&in);
			return 0;
		default:
			inputs_clear(&in);
			return bad_option("list", opt, argv);
		}
	}
	pats = argv + optind;
	npats = argc - optind;
	inputs_want(&in, pats, npats);
	err = inputs_load_events(&in);
	if (err)
		goto out;
	err = tp_events_select(&in.evs, pats, npats, &sel);
	if (err)
		goto out;
	err = inputs_load_btf(&in, false);
	if (err)
		goto out;
	if (stats) {
		sb_init(&sb);
		core_stats(&sb, &in.evs, sel, in.btf, json);
		err = write_output(NULL, &sb);
		sb_clear(&sb);
		goto out;
	}
	if (in.btf) {
		err = rawtp_load(&r, in.btf);
		if (!err)
			err = kmods_load(&in, &km);	/* loaded modules' tracepoints too */
		if (err)
			goto out;
		kmods_add_rawtps(&km, &r);
		err = raw_spell_init(&sp, &r, NULL, in.btf);
		if (err)
			goto out;
	}
	tp_events_name(&in.evs, sel, in.btf);
	used = xcalloc(r.nr ? r.nr : 1, sizeof(*used));
	sb_init(&sb);
	if (json) {
		sb_puts(&sb, "{\"kernel\":");
		json_str(&sb, inputs_release(&in));
		sb_printf(&sb, ",\"btf\":%s,\"events\":[", in.btf ? "true" : "false");
	}
	for (i = 0; i < in.evs.nr; i++) {
		const struct tp_event *ev = &in.evs.ev[i];
		const char *rname = rawtp_for_event(ev->sys, ev->name);
		struct raw_tp *tp = r.nr ? rawtp_find(&r, rname) : NULL;

		if (tp)
			used[tp - r.tp] = true;
		if (!sel[i])
			continue;
		if (json) {
			if (!first)
				sb_putc(&sb, ',');
			event_json(&sb, ev, &sp, tp);
		} else {
			event_text(&sb, ev, &sp, tp);
		}
		first = false;
	}
	if (json)
		sb_puts(&sb, "],\"raw_only\":[");
	first = true;
	for (i = 0; i < r.nr; i++) {
		if (used[i] || !raw_selected(pats, npats, r.tp[i].name))
			continue;
		if (json) {
			if (!first)
				sb_putc(&sb, ',');
			raw_json(&sb, &sp, &r.tp[i]);
		} else {
			if (first)
				sb_puts(&sb, "\nraw tracepoints with no trace event:\n");
			raw_text(&sb, &sp, &r.tp[i]);
		}
		first = false;
	}
	if (json)
		sb_puts(&sb, "]}\n");
	err = write_output(NULL, &sb);
	sb_clear(&sb);
out:
	free(used);
	free(sel);
	raw_spell_clear(&sp);
	rawtp_clear(&r);
	kmods_clear(&km);
	inputs_clear(&in);
	return err;
}
