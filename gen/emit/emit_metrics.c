// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The loader's --metrics tables: for each aggregation, the Prometheus
 * families it is exported as (names, types, HELP), its key columns' label
 * names and the factor to base units; the records' events.
 * Every name is decided here, once, so that none collides with another.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cstring.h"
#include "model/decode.h"
#include "emit/emit_prog.h"

/* the names taken so far, to refuse a second family of one name */
struct names {
	char **v;
	int nr;
};

static bool taken(const struct names *n, const char *s)
{
	for (int i = 0; i < n->nr; i++)
		if (!strcmp(n->v[i], s))
			return true;
	return false;
}

static void take(struct names *n, const char *s)
{
	n->v = xrealloc(n->v, (n->nr + 1) * sizeof(*n->v));
	n->v[n->nr++] = xstrdup(s);
}

static void names_free(struct names *n)
{
	for (int i = 0; i < n->nr; i++)
		free(n->v[i]);
	free(n->v);
}

/* a unit as the spec writes it: the base unit's suffix, and the factor to it */
static const struct metric_unit {
	const char *unit;
	const char *suffix;
	const char *scale;
} units[] = {
	{ "nsecs", "_seconds", "1e-9" }, { "ns", "_seconds", "1e-9" },
	{ "usecs", "_seconds", "1e-6" }, { "us", "_seconds", "1e-6" },
	{ "msecs", "_seconds", "1e-3" }, { "ms", "_seconds", "1e-3" },
	{ "secs", "_seconds", "1" }, { "seconds", "_seconds", "1" },
	{ "bytes", "_bytes", "1" }, { "kbytes", "_bytes", "1024" },
	{ "mbytes", "_bytes", "1048576" },
};

static const struct metric_unit *unit_of(const char *unit)
{
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (unit && !strcmp(unit, units[i].unit))
			return &units[i];
	return NULL;
}

/*
 * A table's metric name: its map's, less the words of abbreviated units
 * ("ns", "usecs": the unit is the name's suffix, in base units, as
 * Prometheus' lint wants it) and an "in" they leave at the end.
 */
static char *table_base(const char *tool, const char *map)
{
	static const char *const abbrev[] = {
		"s", "ms", "us", "ns", "sec", "secs", "msec", "msecs", "usec", "usecs", "nsec", "nsecs",
		"b", "kb", "mb", "gb", "tb", "pb", "m", "h", "d",
	};
	struct strbuf sb;
	char *words = xstrdup(map), *w, *save = NULL;
	size_t in_at = 0;

	sb_init(&sb);
	sb_puts(&sb, tool);
	for (w = strtok_r(words, "_", &save); w; w = strtok_r(NULL, "_", &save)) {
		bool unit = false;

		for (size_t i = 0; i < ARRAY_SIZE(abbrev) && !unit; i++)
			unit = !strcmp(w, abbrev[i]);
		if (unit) {
			if (in_at)
				sb.buf[sb.len = in_at] = '\0';
			continue;
		}
		in_at = !strcmp(w, "in") ? sb.len : 0;
		sb_printf(&sb, "_%s", w);
	}
	free(words);
	if (!strcmp(sb.buf, tool))
		sb_puts(&sb, "_table");
	return sb_steal(&sb);
}

/* one family of a table: what it exports, of which type, under which name */
struct fam {
	unsigned int fn;	/* AGG_* bit, 0: a named column's */
	int col;		/* the named column + 1 (struct pcol), 0: a function's */
	const char *fn_name;
	const char *type;
	char *name;
};

/* The families of one table under 'base'; false when a name is taken. */
static int table_fams(const struct pagg *a, const char *base, const struct metric_unit *u, struct fam *fams)
{
	const char *suffix = u ? u->suffix : "";
	int n = 0;

	for (int f = 0; f < AGG_NR_FNS; f++) {
		unsigned int bit = 1u << f;
		struct fam *fm = &fams[n];

		if (!(a->fns & bit))
			continue;
		fm->fn = bit;
		fm->fn_name = agg_fns[f].name;
		if (bit == AGG_HIST || bit == AGG_LHIST) {
			fm->type = "histogram";
			fm->name = xasprintf("%s%s", base, suffix);
		} else if (!agg_fns[f].heading) {
			continue;	/* a member others need (sqsum) */
		} else if (bit == AGG_COUNT) {
			/* a table taken back from (subtract): what is outstanding, a gauge */
			fm->type = a->running ? "gauge" : "counter";
			fm->name = xasprintf(a->running ? "%s_current" : "%s_total", base);
		} else if (bit == AGG_SUM && !(a->is_signed & AGG_SUM)) {
			fm->type = "counter";
			fm->name = xasprintf("%s_sum%s_total", base, suffix);
		} else if (bit == AGG_SUM) {
			/* it can go down: a gauge, never named "_sum" (histograms' own suffix) */
			fm->type = "gauge";
			fm->name = xasprintf("%s_%s%s", base, a->running ? "current" : "sum",
					     *suffix ? suffix : "_value");
		} else {
			fm->type = "gauge";
			fm->name = xasprintf("%s_%s%s", base, agg_fns[f].name, suffix);
		}
		fm->col = 0;
		n++;
	}
	/*
	 * Named columns: counts and sums as the functions', named after the
	 * column; a value max_at keeps and a derived column, gauges of the
	 * value as the loader shows it (no unit: a pid, a ratio). A
	 * function's own column under a name is that function's family.
	 */
	for (int j = 0; j < a->nr_cols; j++) {
		const struct pcol *c = &a->cols[j];
		struct fam *fm = &fams[n];

		if (c->fn)
			continue;
		fm->fn = 0;
		fm->col = j + 1;
		fm->fn_name = c->name;
		if (c->kind == PCOL_COUNT && !c->is_signed) {
			fm->type = "counter";
			fm->name = xasprintf("%s_%s_total", base, c->name);
		} else if (c->kind == PCOL_SUM && !c->is_signed) {
			fm->type = "counter";
			fm->name = xasprintf("%s_%s%s_total", base, c->name, suffix);
		} else {
			fm->type = "gauge";
			fm->name = xasprintf("%s_%s%s", base, c->name, c->kind == PCOL_SUM ? suffix : "");
		}
		n++;
	}
	return n;
}

/* whether a family's name (less a counter's "_total") ends in its unit's suffix */
static bool has_unit(const struct fam *fm, const struct metric_unit *u)
{
	size_t len = strlen(fm->name), n = u ? strlen(u->suffix) : 0;

	if (!u || fm->fn == AGG_COUNT)
		return false;
	if (!strcmp(fm->type, "counter"))
		len -= strlen("_total");
	return len > n && !strncmp(fm->name + len - n, u->suffix, n);
}

/* every name a family shows in an exposition, or that Prometheus derives from it */
static int fam_names(const struct fam *fm, char **out)
{
	int n = 0;

	out[n++] = xstrdup(fm->name);
	if (!strcmp(fm->type, "histogram")) {
		out[n++] = xasprintf("%s_bucket", fm->name);
		out[n++] = xasprintf("%s_count", fm->name);
		out[n++] = xasprintf("%s_sum", fm->name);
	} else if (!strcmp(fm->type, "counter")) {
		/* "x_total": Prometheus' clients call the family "x" */
		out[n++] = xstrndup(fm->name, strlen(fm->name) - strlen("_total"));
	}
	return n;
}

static void help_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			sb_puts(sb, "\\\\");
		else if (*s == '\n')
			sb_puts(sb, "\\n");
		else
			sb_putc(sb, *s);
	}
}

/* A key column's label: the name users see (errno, syscall, signal), else the column's. */
static char *label_name(const struct pitem *it)
{
	static const char *const fns[] = { "errno(", "syscall(", "signal(" };
	const char *c = it->cname;

	for (size_t i = 0; i < ARRAY_SIZE(fns); i++)
		if (!strncmp(it->label, fns[i], strlen(fns[i])))
			return xstrndup(fns[i], strlen(fns[i]) - 1);
	/* "__x" is Prometheus' own; "le" a histogram's bucket; "other" the series of the rest */
	if (c[0] == '_' && c[1] == '_')
		return xasprintf("k%s", c);
	if (!strcmp(c, "le") || !strcmp(c, "other"))
		return xasprintf("%s_", c);
	return xstrdup(c);
}

static void emit_labels(struct strbuf *sb, const struct pprobe *pr, const struct pagg *a)
{
	struct names seen = {};

	if (!a->keys.nr)
		return;
	sb_puts(sb, "\t\t.labels = (const char *const[]){ ");
	for (int j = 0; j < a->keys.nr; j++) {
		char *l;

		if (a->keys.v[j].hidden)
			continue;	/* usym()'s process: no column of the loader's */
		/* a stack: a label when the spec asks (metrics: { stacks: folded }), for its cardinality */
		if (pr->vals[a->keys.v[j].val].stack && (!a->stack_labels || a->keys.v[j].caller)) {
			sb_puts(sb, "NULL, ");
			continue;
		}
		l = label_name(&a->keys.v[j]);
		for (int k = 2; taken(&seen, l); k++) {
			char *base = label_name(&a->keys.v[j]);

			free(l);
			l = xasprintf("%s_%d", base, k);
			free(base);
		}
		take(&seen, l);
		sb_printf(sb, "\"%s\", ", l);
		free(l);
	}
	sb_puts(sb, "},\n");
	names_free(&seen);
}

/*
 * Whether a scrape names addresses (a stack label, a key shown by ksym() or
 * usym()): then it has a tpgen_syms of its own thread.
 */
bool metrics_syms(const struct prog *p, bool stacks_only)
{
	for (int i = 0; i < p->nr_probes; i++)
		for (int k = 0; k < p->probes[i].nr_aggs; k++) {
			const struct pagg *a = &p->probes[i].aggs[k];

			if (a->feeder)
				continue;
			for (int j = 0; j < a->keys.nr; j++) {
				const struct pitem *it = &a->keys.v[j];

				if (p->probes[i].vals[it->val].stack && !it->caller && a->stack_labels)
					return true;
				if (!stacks_only && it->dec && decode_is_ksym(it->dec->kind))
					return true;
			}
		}
	return false;
}

void emit_metrics(struct strbuf *sb, struct strbuf *events, struct strbuf *doc, const struct prog *p)
{
	struct names all = {};
	struct strbuf help;
	/* build_info's OpenMetrics family is "build" */
	char *fixed[] = { "build_info", "build", "lost_total", "lost", "events_total", "events", "folded_series" };

	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++) {
		char *s = xasprintf("%s_%s", p->tool, fixed[i]);

		take(&all, s);
		free(s);
	}
	for (int i = 0; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		for (int k = 0; k < pr->nr_aggs; k++) {
			const struct pagg *a = &pr->aggs[k];
			const struct metric_unit *u;
			struct fam fams[AGG_NR_FNS + SPEC_MAX_ITEMS + 1];
			char *base, *names[4], *plain;
			int nf, m;

			if (a->feeder)
				continue;	/* an earlier aggregate's table: the loader's aggs[] has it once */
			u = unit_of(a->unit);
			base = table_base(p->tool, a->map);
			plain = xstrdup(base);

			/* a table's names all free, or the table's name numbered */
			for (int try = 2;; try++) {
				bool clash = false;

				nf = table_fams(a, base, u, fams);
				for (int f = 0; f < nf && !clash; f++) {
					m = fam_names(&fams[f], names);
					for (int j = 0; j < m; j++) {
						clash |= taken(&all, names[j]);
						free(names[j]);
					}
				}
				if (!clash)
					break;
				for (int f = 0; f < nf; f++)
					free(fams[f].name);
				free(base);
				base = xasprintf("%s_%d", plain, try);
			}
			sb_puts(sb, "\t{\n\t\t.table = ");
			c_string(sb, a->map);
			sb_puts(sb, ",\n");
			emit_labels(sb, pr, a);
			sb_printf(sb, "\t\t.scale = %s,\n", u ? u->scale : "1");
			/* integers as counted: a bucket's bound is its last value; else where it ends */
			sb_printf(sb, "\t\t.le_inclusive = %s,\n",
				  !u || (!strcmp(u->scale, "1") && strcmp(u->suffix, "_seconds")) ? "true" : "false");
			if (a->fns & (AGG_HIST | AGG_LHIST))
				sb_printf(sb, "\t\t.off_hist_sum = offsetof(struct %s, hist_sum),\n"
					  "\t\t.hist_signed = %s,\n", a->val_struct,
					  pr->vals[a->hist].is_signed ? "true" : "false");
			sb_puts(sb, "\t\t.fams = (const struct metric_fam[]){\n");
			for (int f = 0; f < nf; f++) {
				struct strbuf help;

				m = fam_names(&fams[f], names);
				for (int j = 0; j < m; j++) {
					take(&all, names[j]);
					free(names[j]);
				}
				sb_init(&help);
				help_text(&help, a->title);
				sb_printf(&help, ": %s", fams[f].fn_name);
				if (fams[f].col) {
					const struct pcol *c = &a->cols[fams[f].col - 1];

					sb_puts(&help, c->kind == PCOL_COUNT ? " per key" :
						       c->kind == PCOL_SUM ? " of its value per key" :
						       c->kind == PCOL_AT ? " when max was set, per key" :
						       ", derived from the row, per key");
					if (c->kind == PCOL_SUM && u)
						sb_printf(&help, ", in %s (from %s)", u->suffix + 1, u->unit);
					sb_printf(sb, "\t\t\t{ 0, \"%s\", \"%s\", ", fams[f].type, fams[f].name);
					c_string(sb, help.buf);
					if (has_unit(&fams[f], u))
						sb_printf(sb, ", \"%s\"", u->suffix + 1);
					else
						sb_puts(sb, ", NULL");
					sb_printf(sb, ", %d },\n", fams[f].col);
					sb_clear(&help);
					free(fams[f].name);
					continue;
				}
				if (fams[f].fn == AGG_HIST || fams[f].fn == AGG_LHIST || fams[f].fn == AGG_COUNT)
					sb_puts(&help, " per key");
				else
					sb_puts(&help, " of the value per key");
				if (fams[f].fn == AGG_COUNT)
					;
				else if (u)
					sb_printf(&help, ", in %s (from %s)", u->suffix + 1, u->unit);
				else if (a->unit && *a->unit && fams[f].fn != AGG_COUNT)
					sb_printf(&help, ", in %s", a->unit);
				sb_puts(sb, "\t\t\t{ AGG_");
				for (const char *c = fams[f].fn_name; *c; c++)
					sb_putc(sb, *c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);	/* max_at */
				sb_printf(sb, ", \"%s\", \"%s\", ", fams[f].type, fams[f].name);
				c_string(sb, help.buf);
				/* OpenMetrics' UNIT: the family's suffix, when it has one (not a count's) */
				if (has_unit(&fams[f], u))
					sb_printf(sb, ", \"%s\"", u->suffix + 1);
				else
					sb_puts(sb, ", NULL");
				sb_puts(sb, p->any_cols ? ", 0 },\n" : " },\n");
				sb_clear(&help);
				free(fams[f].name);
			}
			sb_printf(sb, "\t\t},\n\t\t.nr_fams = %d,\n\t},\n", nf);
			free(base);
			free(plain);
		}
	}
	if (sb->len && sb->buf[sb->len - 1] == '\n')
		sb->buf[--sb->len] = '\0';
	names_free(&all);

	for (int i = 0; i < p->nr_probes; i++) {
		const struct pprobe *pr = &p->probes[i];

		if (pr->print.nr)
			sb_printf(events, "%s{ %s, \"%s\" },", events->len ? "\n" : "", pr->type_enum, pr->event);
	}
	/* build_info's HELP, a C string */
	sb_init(&help);
	sb_printf(&help, "%s: ", p->tool);
	help_text(&help, p->description ? p->description : "tracing");
	sb_puts(&help, "; the kernel it runs on, and the hash of the BPF program its spec made");
	c_string(doc, help.buf);
	sb_clear(&help);
}
