// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Context headers: one struct per tracepoint event laid out exactly as the
 * kernel's record. Every field's offset and size and every record's size are
 * asserted through one short macro each (__TPGEN_FIELD, __TPGEN_SIZE); the
 * common header is one struct, 'ent' in each record, asserted once. Arrays and
 * __data_loc/__rel_loc fields get accessor macros over a few helpers defined
 * once. Each struct sits in an include guard of its own, so headers that share
 * events can be included in one file.
 *
 * The whole-kernel header is megabytes: it is written with plain appends
 * into a buffer sized ahead, never printf, and kept small so that it compiles
 * faster than vmlinux.h. The fixed text is in emit_ctx_text.c, the accessors
 * in emit_ctx_access.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit/emit.h"
#include "emit/emit_ctx.h"
#include "model/order.h"
#include "input/fieldtype.h"

#define COMMENT_COL	48

char *emit_guard(const char *path, const char *fallback)
{
	const char *base = path ? strrchr(path, '/') : NULL;
	struct strbuf sb;

	base = base ? base + 1 : path;
	if (!base || !*base || !strcmp(base, "-"))
		return xstrdup(fallback);
	sb_init(&sb);
	sb_puts(&sb, "__");
	for (; *base; base++)
		sb_putc(&sb, isalnum((unsigned char)*base) ? toupper((unsigned char)*base) : '_');
	return sb_steal(&sb);
}

void emit_fixed_types(struct strbuf *out)
{
	sb_puts(out,
		"/*\n"
		" * Fixed-width types, spelled as vmlinux.h and <linux/types.h> spell them:\n"
		" * repeating an identical typedef is valid C11, so any include order works.\n"
		" */\n"
		"typedef signed char __s8;\n"
		"typedef unsigned char __u8;\n"
		"typedef short int __s16;\n"
		"typedef short unsigned int __u16;\n"
		"typedef int __s32;\n"
		"typedef unsigned int __u32;\n"
		"typedef long long int __s64;\n"
		"typedef long long unsigned int __u64;\n\n");
}

/* "unsigned short, 0": the kernel's spelling and the offset, for the comment. */
static void put_spelling(struct strbuf *out, const struct tp_field *f)
{
	sb_puts(out, f->type);
	if (f->array) {
		sb_putc(out, '[');
		sb_puts(out, f->array);
		sb_putc(out, ']');
	}
	sb_add(out, ", ", 2);
	sb_putu(out, f->offset);
	if (strcmp(f->name, f->cname)) {
		sb_add(out, "; '", 3);
		sb_puts(out, f->name);
		sb_puts(out, "' is a C keyword");
	}
}

/* --core: an enum field is an anonymous enum of its size and sign, which libbpf matches with the kernel's */
static const char *const core_enums[2][5] = {
	{ NULL, "__tpgen_enum_u8", "__tpgen_enum_u16", NULL, "__tpgen_enum_u32" },
	{ NULL, "__tpgen_enum_s8", "__tpgen_enum_s16", NULL, "__tpgen_enum_s32" },
};

/* "\t__u32 __data_loc_filename" (no ';'), as the field is declared. */
static void put_decl(struct strbuf *out, const struct tp_field *f, bool last, bool core)
{
	const char *ct = !core ? f->ctype : f->core_enum ? core_enums[f->is_signed][f->size] :
			 f->core_ptr ? "void *" : f->ctype;
	size_t n = strlen(ct);

	sb_putc(out, '\t');
	sb_add(out, ct, n);
	if (ct[n - 1] != '*' && ct[n - 1] != ' ')
		sb_putc(out, ' ');
	ctx_put_member_name(out, f);
	if (f->kind == FIELD_FLEX && !last)
		sb_add(out, "[0]", 3);	/* zero-size array before another field */
	else
		sb_puts(out, f->suffix);
}

static void emit_member(struct strbuf *out, const struct tp_field *f, bool last, bool core)
{
	size_t start = out->len;

	put_decl(out, f, last, core);
	sb_putc(out, ';');
	sb_tab_to(out, start, COMMENT_COL);
	sb_add(out, "/* ", 3);
	put_spelling(out, f);
	sb_add(out, " */\n", 4);
}

static void emit_pad(struct strbuf *out, unsigned int at, unsigned int n)
{
	size_t start = out->len;

	sb_add(out, "\t__u8 __pad_", 12);
	sb_putu(out, at);
	sb_putc(out, '[');
	sb_putu(out, n);
	sb_add(out, "];", 2);
	sb_tab_to(out, start, COMMENT_COL);
	sb_add(out, "/* gap, ", 8);
	sb_putu(out, at);
	sb_add(out, " */\n", 4);
}

/*
 * The common header: the leading common_* fields, back to back from offset 0.
 * It is one struct, 'ent' in every record; events whose common headers are
 * alike share it (tpgen_trace_entry, tpgen_trace_entry_2 for another, ...).
 */
struct common_hdr {
	const struct tp_event *ev;	/* the first event with it */
	int nr;				/* its first nr fields */
};

static int common_len(const struct tp_event *ev)
{
	unsigned int end = 0;
	int i;

	for (i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];

		/* the member is the name without "common_": one that is a C name */
		if (!f->common || f->offset != end || f->kind == FIELD_FLEX || !f->cname[7] ||
		    ctype_is_keyword(f->cname + 7))
			break;
		end += f->size;
	}
	return i;
}

static bool same_field(const struct tp_field *a, const struct tp_field *b)
{
	return a->offset == b->offset && a->size == b->size && !strcmp(a->name, b->name) &&
	       !strcmp(a->ctype, b->ctype) && !strcmp(a->suffix, b->suffix) &&
	       !strcmp(a->type, b->type) && !a->array == !b->array &&
	       (!a->array || !strcmp(a->array, b->array));
}

/* Index of the common header of ev's first n fields in hdrs, adding it when new. */
static int common_find(struct common_hdr **hdrs, int *nr, const struct tp_event *ev, int n)
{
	int i, j;

	for (i = 0; i < *nr; i++) {
		const struct common_hdr *h = &(*hdrs)[i];

		if (h->nr != n)
			continue;
		for (j = 0; j < n && same_field(&h->ev->fields[j], &ev->fields[j]); j++)
			;
		if (j == n)
			return i;
	}
	*hdrs = xrealloc(*hdrs, (*nr + 1) * sizeof(**hdrs));
	(*hdrs)[*nr].ev = ev;
	(*hdrs)[*nr].nr = n;
	return (*nr)++;
}

/* "tpgen_trace_entry", "tpgen_trace_entry_2", ... */
static void put_entry_name(struct strbuf *out, int idx)
{
	sb_puts(out, "tpgen_trace_entry");
	if (idx) {
		sb_putc(out, '_');
		sb_putu(out, idx + 1);
	}
}

/* The kernel's trace_entry member of a common field: "common_pid" -> "pid". */
static const char *entry_member(const struct tp_field *f)
{
	return f->cname + 7;
}

static void emit_common(struct strbuf *out, const struct common_hdr *h, int idx)
{
	unsigned int end, align = 1;
	int i;

	sb_puts(out, "/* The common header of event records (the kernel's struct trace_entry) */\n");
	sb_puts(out, "#ifndef __TPGEN_TRACE_ENTRY");
	if (idx)
		sb_printf(out, "_%d", idx + 1);
	sb_puts(out, "\n#define __TPGEN_TRACE_ENTRY");
	if (idx)
		sb_printf(out, "_%d", idx + 1);
	sb_add(out, "\nstruct ", 8);
	put_entry_name(out, idx);
	sb_add(out, " {\n", 3);
	for (i = 0; i < h->nr; i++) {
		const struct tp_field *f = &h->ev->fields[i];
		const char *ct = f->ctype;
		size_t start = out->len, n = strlen(ct);

		sb_putc(out, '\t');
		sb_add(out, ct, n);
		if (ct[n - 1] != '*' && ct[n - 1] != ' ')
			sb_putc(out, ' ');
		sb_puts(out, entry_member(f));
		sb_puts(out, f->suffix);
		sb_putc(out, ';');
		sb_tab_to(out, start, COMMENT_COL);
		sb_add(out, "/* ", 3);
		sb_puts(out, f->name);
		sb_add(out, ": ", 2);
		put_spelling(out, f);
		sb_add(out, " */\n", 4);
	}
	/*
	 * A header whose end is not a multiple of its alignment (10 bytes on RT
	 * kernels, whose records start at 12): packed, so that no tail padding
	 * moves the fields after it; the record's own pad says where they are.
	 */
	end = h->ev->fields[h->nr - 1].offset + h->ev->fields[h->nr - 1].size;
	for (i = 0; i < h->nr; i++)
		if (ctype_align(&h->ev->fields[i]) > align)
			align = ctype_align(&h->ev->fields[i]);
	sb_add(out, "}", 1);
	if (end % align)
		sb_puts(out, " __attribute__((packed))");
	sb_puts(out, ";\n#endif\n");
	for (i = 0; i < h->nr; i++) {
		const struct tp_field *f = &h->ev->fields[i];

		sb_add(out, "__TPGEN_FIELD(", 14);
		put_entry_name(out, idx);
		sb_add(out, ", ", 2);
		sb_puts(out, entry_member(f));
		sb_add(out, ", ", 2);
		sb_putu(out, f->offset);
		sb_add(out, ", ", 2);
		sb_putu(out, f->size);
		sb_add(out, ");\n", 3);
	}
	sb_add(out, "__TPGEN_SIZE(", 13);
	put_entry_name(out, idx);
	sb_add(out, ", ", 2);
	sb_putu(out, h->ev->fields[h->nr - 1].offset + h->ev->fields[h->nr - 1].size);
	sb_add(out, ");\n\n", 4);
}

/* The struct tag: "sched_switch_ctx", or with --core the class's flavor. */
static void put_tag(struct strbuf *out, const struct tp_event *ev)
{
	if (ev->core_class) {
		sb_add(out, "trace_event_raw_", 16);
		sb_puts(out, ev->core_class);
		sb_add(out, "___tpgen", 8);
	} else {
		sb_puts(out, ev->struct_name);
	}
}

static void emit_struct(struct strbuf *out, const struct tp_event *ev, int ncommon, int common_idx)
{
	unsigned int pos = 0, i;

	sb_add(out, "struct ", 7);
	put_tag(out, ev);
	sb_add(out, " {\n", 3);
	if (ncommon) {
		size_t start = out->len;

		sb_add(out, "\tstruct ", 8);
		put_entry_name(out, common_idx);
		sb_add(out, " ent __tpgen_no_bpf;", 20);
		sb_tab_to(out, start, COMMENT_COL);
		sb_add(out, "/* ", 3);
		sb_puts(out, ev->fields[0].name);
		if (ncommon > 1) {
			sb_add(out, " .. ", 4);
			sb_puts(out, ev->fields[ncommon - 1].name);
		}
		sb_add(out, ", 0 */\n", 7);
		pos = ev->fields[ncommon - 1].offset + ev->fields[ncommon - 1].size;
	}
	/* every gap gets a named pad: no hidden padding, the layout reads as the kernel's */
	for (i = ncommon; i < (unsigned int)ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];

		if (f->offset > pos)
			emit_pad(out, pos, f->offset - pos);
		if (ev->core_class && f->core_static) {
			emit_pad(out, f->offset, f->size);	/* read by a static accessor */
		} else {
			emit_member(out, f, i + 1 == (unsigned int)ev->nr_fields, ev->core_class != NULL);
		}
		pos = f->offset + f->size;
	}
	/* tail padding, but never after a trailing flexible array: the compiler adds it */
	if (ev->size > pos && ev->fields[ev->nr_fields - 1].kind != FIELD_FLEX)
		emit_pad(out, pos, ev->size - pos);
	sb_putc(out, '}');
	if (ev->packed)
		sb_puts(out, " __attribute__((packed))");
	if (ev->core_class)
		sb_puts(out, " __tpgen_core");
	sb_add(out, ";\n", 2);
}

/*
 * Is a member's size its type's alone, asserted once for the header? A
 * fixed-width integer (ctx_helpers asserts each size), __data_loc's __u32
 * among them. Its offset is enough to assert. An array's size is tpgen's
 * count too, asserted with the member.
 */
static bool sized_by_type(const struct tp_field *f)
{
	static const char *const fixed[] = {
		"__u8", "__s8", "__u16", "__s16", "__u32", "__s32", "__u64", "__s64",
	};
	size_t i;

	if (f->kind != FIELD_SCALAR && f->kind != FIELD_DATA_LOC && f->kind != FIELD_REL_LOC)
		return false;
	for (i = 0; i < ARRAY_SIZE(fixed); i++)
		if (!strcmp(f->ctype, fixed[i]))
			return true;
	return false;
}

static void emit_asserts(struct strbuf *out, const struct tp_event *ev, int ncommon)
{
	int i;

	sb_add(out, "__TPGEN_SIZE(", 13);
	put_tag(out, ev);
	sb_add(out, ", ", 2);
	sb_putu(out, ev->size);
	sb_add(out, ");\n", 3);
	for (i = ncommon; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];
		bool flex = f->kind == FIELD_FLEX || sized_by_type(f);

		if (ev->core_class && f->core_static)
			continue;
		sb_puts(out, flex ? "__TPGEN_OFFSET(" : "__TPGEN_FIELD(");
		put_tag(out, ev);
		sb_add(out, ", ", 2);
		ctx_put_member_name(out, f);
		sb_add(out, ", ", 2);
		sb_putu(out, f->offset);
		if (!flex) {
			sb_add(out, ", ", 2);
			sb_putu(out, f->size);
		}
		sb_add(out, ");\n", 3);
	}
}

static void put_guard(struct strbuf *out, const char *what, const char *name)
{
	sb_add(out, "#ifndef __TPGEN_", 16);
	sb_puts(out, what);
	sb_puts(out, name);
	sb_add(out, "\n#define __TPGEN_", 17);
	sb_puts(out, what);
	sb_puts(out, name);
	sb_putc(out, '\n');
}

static void emit_comment(struct strbuf *out, const struct tp_event *ev)
{
	sb_add(out, "/* ", 3);
	sb_puts(out, ev->sys);
	sb_putc(out, '/');
	sb_puts(out, ev->name);
	if (ev->id >= 0) {
		sb_add(out, " (id ", 5);
		sb_putu(out, ev->id);
		sb_putc(out, ')');
	}
	if (ev->rename_reason)
		sb_printf(out, ": struct %s, %s", ev->struct_name, ev->rename_reason);
	if (ev->core_class)
		sb_printf(out, "; CO-RE: struct trace_event_raw_%s", ev->core_class);
	else if (ev->core_sys)
		sb_printf(out, "; CO-RE: struct syscall_trace_%s, read with the __get_ accessors",
			  ev->core_sys == CORE_SYS_ENTER ? "enter" : "exit");
	else if (ev->core_why)
		sb_printf(out, "; static layout, not CO-RE: %s", ev->core_why);
	sb_add(out, " */\n", 4);
}

static void emit_forwards(struct strbuf *out, const struct tp_events *evs, const bool *selected)
{
	const char **v;
	int n = order_ctx_forwards(evs, selected, &v);

	for (int i = 0; i < n; i++) {
		sb_puts(out, v[i]);
		sb_add(out, ";\n", 2);
	}
	if (n)
		sb_putc(out, '\n');
	free(v);
}

/*
 * A field named like a member tpgen makes: 'ent' beside a common header, the
 * '__data_loc_x' beside __data_loc field 'x', a '__pad_N'. The kernel's own
 * structs could not have them either.
 */
static int check_members(const struct tp_event *ev, int ncommon)
{
	int i, j;

	for (i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];
		const char *pfx = f->kind == FIELD_DATA_LOC ? "__data_loc_" :
				  f->kind == FIELD_REL_LOC ? "__rel_loc_" : NULL;
		size_t n = pfx ? strlen(pfx) : 0;
		const char *c = f->cname;

		if ((ncommon && i >= ncommon && !strcmp(c, "ent")) ||
		    (!strncmp(c, "__pad_", 6) && c[6] && strspn(c + 6, "0123456789") == strlen(c + 6))) {
			diag_error(ev->path, f->line, 0, "field '%s' has the name of a member tpgen makes "
				   "(%s)", f->name, c[0] == 'e' ? "the common header" : "a gap");
			return -EINVAL;
		}
		for (j = 0; pfx && j < ev->nr_fields; j++) {
			c = ev->fields[j].cname;
			if (!strncmp(c, pfx, n) && !strcmp(c + n, f->cname)) {
				diag_error(ev->path, ev->fields[j].line, 0, "field '%s' has the name of the "
					   "member that holds %.*s field '%s'", ev->fields[j].name, (int)n - 1, pfx,
					   f->name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* Bytes of header an event takes, about: the buffer is sized once. */
static size_t estimate(const struct tp_event *ev)
{
	return 256 + (size_t)ev->nr_fields * 160;
}

/* What emit_ctx_header() decided for each event before printing any. */
struct plan {
	int ncommon;		/* leading fields in 'ent' */
	int hdr;		/* which common header */
	bool class_first;	/* --core: the first event of its class prints the class struct */
	bool sys_first;		/* --core: the first sys_enter_ (sys_exit_) event prints its struct */
};

static void emit_event(struct strbuf *out, const struct tp_event *ev, const struct plan *p)
{
	if (p->sys_first) {
		struct strbuf entry;

		sb_init(&entry);
		put_entry_name(&entry, p->hdr);
		ctx_emit_sys_struct(out, ev, p->ncommon, entry.buf);
		sb_clear(&entry);
	}
	if (!ev->core_class) {
		put_guard(out, "CTX_", ev->struct_name);
		emit_comment(out, ev);
		emit_struct(out, ev, p->ncommon, p->hdr);
		ctx_emit_accessors(out, ev);
		sb_add(out, "#endif\n", 7);
		emit_asserts(out, ev, p->ncommon);
		sb_putc(out, '\n');
		return;
	}
	/* CO-RE: events of one class share its struct */
	if (p->class_first) {
		put_guard(out, "CORE_", ev->core_class);
		emit_comment(out, ev);
		emit_struct(out, ev, p->ncommon, p->hdr);
		sb_add(out, "#endif\n", 7);
		emit_asserts(out, ev, p->ncommon);
	} else {
		emit_comment(out, ev);
	}
	put_guard(out, "CTX_", ev->struct_name);
	sb_printf(out, "#define %s trace_event_raw_%s___tpgen\n", ev->struct_name, ev->core_class);
	ctx_emit_accessors(out, ev);
	sb_add(out, "#endif\n\n", 8);
}

/* What sb_emit_split() prints the events with: the header is printed in two halves at once. */
struct emit_job {
	const struct tp_events *evs;
	const bool *selected;
	const struct plan *plan;
};

static size_t job_size(const void *arg, int i)
{
	const struct emit_job *job = arg;

	return !job->selected || job->selected[i] ? estimate(&job->evs->ev[i]) : 0;
}

static void job_emit(struct strbuf *sb, const void *arg, int i)
{
	const struct emit_job *job = arg;

	emit_event(sb, &job->evs->ev[i], &job->plan[i]);
}

/* --core: mark the first selected event of each class */
static void plan_classes(const struct tp_events *evs, const bool *selected, struct plan *plan)
{
	bool *first = xcalloc(evs->nr ? evs->nr : 1, sizeof(*first));

	order_class_firsts(evs, selected, first);
	for (int i = 0; i < evs->nr; i++)
		plan[i].class_first = first[i];
	free(first);
}

int emit_ctx_header(struct strbuf *out, const struct tp_events *evs, const bool *selected,
		    const char *guard, const char *banner)
{
	struct plan *plan = xcalloc(evs->nr ? evs->nr : 1, sizeof(*plan));
	size_t size = 8192;
	struct common_hdr *hdrs = NULL;
	int i, nr_hdrs = 0, err = 0;
	struct emit_job job;
	bool any_core = false, sys_seen[3] = {};

	for (i = 0; i < evs->nr; i++) {
		const struct tp_event *ev = &evs->ev[i];

		if (selected && !selected[i])
			continue;
		any_core |= ev->core_class != NULL || ev->core_sys;
		plan[i].ncommon = common_len(ev);
		plan[i].sys_first = ev->core_sys && !sys_seen[ev->core_sys];
		sys_seen[ev->core_sys] = true;
		err = check_members(ev, plan[i].ncommon);
		if (err)
			goto out;
		if (plan[i].ncommon)
			plan[i].hdr = common_find(&hdrs, &nr_hdrs, ev, plan[i].ncommon);
		size += estimate(ev);
	}
	if (any_core)
		plan_classes(evs, selected, plan);
	sb_reserve(out, size);

	sb_puts(out, "/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */\n/* ");
	sb_puts(out, banner);
	sb_add(out, " */\n", 4);
	sb_puts(out, ctx_intro);
	sb_printf(out, "#ifndef %s\n#define %s\n\n", guard, guard);
	emit_fixed_types(out);
	sb_puts(out, ctx_helpers);
	emit_forwards(out, evs, selected);
	for (i = 0; i < nr_hdrs; i++)
		emit_common(out, &hdrs[i], i);
	if (any_core)
		sb_puts(out, ctx_core_prelude);

	job = (struct emit_job){ evs, selected, plan };
	sb_emit_split(out, evs->nr, &job, job_size, job_emit);
	sb_printf(out, "#endif /* %s */\n", guard);
out:
	free(hdrs);
	free(plan);
	return err;
}
