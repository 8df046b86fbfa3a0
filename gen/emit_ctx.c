// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Context headers: one struct per tracepoint event laid out exactly as the
 * kernel's record, a _Static_assert per field offset and size and per record
 * size, and typed accessors for __data_loc/__rel_loc fields.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "fieldtype.h"

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

static void emit_helpers(struct strbuf *out)
{
	sb_puts(out,
		"#ifndef __tpgen_inline\n"
		"#define __tpgen_inline static inline __attribute__((always_inline))\n"
		"#endif\n\n"
		"#if defined(__bpf__) && !defined(__TPGEN_PROBE_READ)\n"
		"#define __TPGEN_PROBE_READ\n"
		"/* bpf_probe_read_kernel() and bpf_probe_read_kernel_str(), without bpf_helpers.h */\n"
		"static long (*__tpgen_probe_read_kernel)(void *dst, __u32 size, const void *src) = (void *)113;\n"
		"static long (*__tpgen_probe_read_kernel_str)(void *dst, __u32 size, const void *src) = (void *)115;\n"
		"#endif\n\n");
}

/* Kernel spelling for the comment: "char[16]", "__data_loc char[]", "pid_t". */
static void kernel_spelling(struct strbuf *out, const struct tp_field *f)
{
	sb_puts(out, f->type);
	if (f->array)
		sb_printf(out, "[%s]", f->array);
}

static void emit_member(struct strbuf *out, const struct tp_field *f, bool last)
{
	size_t start = out->len;
	const char *ct = f->ctype;
	bool glued = ct[strlen(ct) - 1] == '*' || ct[strlen(ct) - 1] == ' ';

	sb_printf(out, "\t%s%s", ct, glued ? "" : " ");
	if (f->kind == FIELD_DATA_LOC || f->kind == FIELD_REL_LOC)
		sb_printf(out, "%s_%s", f->kind == FIELD_DATA_LOC ? "__data_loc" : "__rel_loc", f->cname);
	else
		sb_puts(out, f->cname);
	if (f->kind == FIELD_FLEX && !last)
		sb_puts(out, "[0]");	/* zero-size array before another field */
	else
		sb_puts(out, f->suffix);
	sb_putc(out, ';');
	sb_tab_to(out, start, COMMENT_COL);
	sb_puts(out, "/* ");
	kernel_spelling(out, f);
	sb_printf(out, ", %u", f->offset);
	if (strcmp(f->name, f->cname))
		sb_printf(out, "; '%s' is a C keyword", f->name);
	sb_puts(out, " */\n");
}

static void emit_pad(struct strbuf *out, unsigned int at, unsigned int n)
{
	size_t start = out->len;

	sb_printf(out, "\t__u8 __pad_%u[%u];", at, n);
	sb_tab_to(out, start, COMMENT_COL);
	sb_printf(out, "/* gap, %u */\n", at);
}

/* The struct tag: "sched_switch_ctx", or with --core the class's flavor. */
static char *struct_tag(const struct tp_event *ev)
{
	if (ev->core_class)
		return xasprintf("trace_event_raw_%s___tpgen", ev->core_class);
	return xstrdup(ev->struct_name);
}

static void emit_struct(struct strbuf *out, const struct tp_event *ev)
{
	unsigned int pos = 0, i;
	char *tag = struct_tag(ev);
	bool ent = false;

	sb_printf(out, "struct %s {\n", tag);
	/* every gap gets a named pad: no hidden padding, the layout reads as the kernel's */
	for (i = 0; i < (unsigned int)ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];

		if (f->offset > pos)
			emit_pad(out, pos, f->offset - pos);
		if (ev->core_class && f->common) {
			/* the kernel's struct trace_entry: type, flags, preempt_count, pid */
			if (!ent) {
				size_t start = out->len;

				sb_puts(out, "\tstruct trace_entry___tpgen ent;");
				sb_tab_to(out, start, COMMENT_COL);
				sb_puts(out, "/* common_type, _flags, _preempt_count, _pid */\n");
				ent = true;
			}
		} else if (ev->core_class && f->core_static) {
			emit_pad(out, f->offset, f->size);	/* read by a static accessor */
		} else {
			emit_member(out, f, i + 1 == (unsigned int)ev->nr_fields);
		}
		pos = f->offset + f->size;
	}
	/* tail padding, but never after a trailing flexible array: the compiler adds it */
	if (ev->size > pos && ev->fields[ev->nr_fields - 1].kind != FIELD_FLEX)
		emit_pad(out, pos, ev->size - pos);
	sb_printf(out, "}%s%s;\n", ev->packed ? " __attribute__((packed))" : "",
		  ev->core_class ? " __tpgen_core" : "");
	free(tag);
}

static const char *member_name(struct strbuf *tmp, const struct tp_field *f)
{
	sb_reset(tmp);
	if (f->kind == FIELD_DATA_LOC)
		sb_puts(tmp, "__data_loc_");
	else if (f->kind == FIELD_REL_LOC)
		sb_puts(tmp, "__rel_loc_");
	sb_puts(tmp, f->cname);
	return tmp->buf;
}

static void emit_asserts(struct strbuf *out, const struct tp_event *ev)
{
	char *s = struct_tag(ev);
	struct strbuf tmp;
	int i;

	sb_init(&tmp);
	if (ev->core_class)
		sb_printf(out, "_Static_assert(__builtin_offsetof(struct %s, ent) == 0, \"%s/%s: ent\");\n",
			  s, ev->sys, ev->name);
	sb_printf(out, "_Static_assert(sizeof(struct %s) == %u, \"%s/%s: record size\");\n",
		  s, ev->size, ev->sys, ev->name);
	for (i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];
		const char *m = member_name(&tmp, f);

		if (ev->core_class && (f->common || f->core_static))
			continue;
		if (f->kind == FIELD_FLEX)
			sb_printf(out, "_Static_assert(__builtin_offsetof(struct %s, %s) == %u, "
				  "\"%s/%s: %s\");\n", s, m, f->offset, ev->sys, ev->name, f->name);
		else
			sb_printf(out, "_Static_assert(__builtin_offsetof(struct %s, %s) == %u && "
				  "sizeof(((struct %s *)0)->%s) == %u, \"%s/%s: %s\");\n",
				  s, m, f->offset, s, m, f->size, ev->sys, ev->name, f->name);
	}
	sb_free(&tmp);
	free(s);
}

/* A field with no member in the class struct: read at the generating kernel's offset. */
static void emit_static_accessor(struct strbuf *out, const struct tp_event *ev, const struct tp_field *f)
{
	bool ptr = *f->suffix;	/* arrays and bytes: a pointer to them */

	sb_printf(out, "\n/* %s/%s: %s has no member in struct trace_event_raw_%s: static offset %u */\n",
		  ev->sys, ev->name, f->name, ev->core_class, f->offset);
	sb_printf(out, "__tpgen_inline %s%s%s%s__%s(const struct %s *ctx)\n{\n",
		  ptr ? "const " : "", f->ctype, ptr ? " *" : " ", ev->struct_name, f->cname, ev->struct_name);
	if (ptr)
		sb_printf(out, "\treturn (const void *)((const char *)ctx + %u);\n}\n", f->offset);
	else
		sb_printf(out, "\treturn *(const %s *)((const char *)ctx + %u);\n}\n", f->ctype, f->offset);
}

static void emit_core_prelude(struct strbuf *out)
{
	sb_puts(out,
		"/*\n"
		" * CO-RE (--core): structs named after the kernel's trace_event_raw_<class>,\n"
		" * with a ___tpgen flavor, so libbpf relocates every field access to the\n"
		" * offsets of the kernel the program is loaded on. Common fields are in 'ent'.\n"
		" */\n"
		"#ifdef __bpf__\n"
		"#define __tpgen_core __attribute__((preserve_access_index))\n"
		"#else\n"
		"#define __tpgen_core\n"
		"#endif\n\n"
		"struct trace_entry___tpgen {\n"
		"\t__u16 type;\n"
		"\t__u8 flags;\n"
		"\t__u8 preempt_count;\n"
		"\t__s32 pid;\n"
		"} __tpgen_core;\n\n");
}

/*
 * __data_loc: u32 "offset | len << 16", offset from the start of the record.
 * __rel_loc:  the same, offset from the end of the __rel_loc field itself.
 */
static void emit_accessors(struct strbuf *out, const struct tp_event *ev, const struct tp_field *f)
{
	const char *s = ev->struct_name, *n = f->cname;
	bool rel = f->kind == FIELD_REL_LOC;
	const char *loc = rel ? "__rel_loc" : "__data_loc";

	sb_printf(out, "\n/* %s/%s: %s %s */\n", ev->sys, ev->name, f->type, f->name);
	sb_printf(out, "__tpgen_inline __u16 %s__%s_len(const struct %s *ctx)\n{\n"
		  "\treturn ctx->%s_%s >> 16;\n}\n\n", s, n, s, loc, n);
	sb_printf(out, "__tpgen_inline const %s *%s__%s(const struct %s *ctx)\n{\n", f->elem_ctype, s, n, s);
	if (rel)
		sb_printf(out, "\treturn (const void *)((const char *)&ctx->%s_%s + sizeof(ctx->%s_%s) +\n"
			  "\t\t\t      (ctx->%s_%s & 0xffff));\n}\n", loc, n, loc, n, loc, n);
	else
		sb_printf(out, "\treturn (const void *)((const char *)ctx + (ctx->%s_%s & 0xffff));\n}\n",
			  loc, n);
	sb_puts(out, "\n#ifdef __bpf__\n");
	if (f->is_string) {
		sb_printf(out,
			  "/* Copy %s into dst, NUL-terminated; returns the bytes copied with the NUL, or -errno. */\n"
			  "__tpgen_inline long %s__read_%s(const struct %s *ctx, char *dst, __u32 size)\n{\n"
			  "\treturn __tpgen_probe_read_kernel_str(dst, size, %s__%s(ctx));\n}\n",
			  n, s, n, s, s, n);
	} else {
		sb_printf(out,
			  "/* Copy up to max elements of %s into dst; returns the elements copied, or -errno. */\n"
			  "__tpgen_inline long %s__read_%s(const struct %s *ctx, %s *dst, __u32 max)\n{\n"
			  "\t__u32 len = %s__%s_len(ctx);\n"
			  "\tlong err;\n\n"
			  "\tif (len > max * sizeof(*dst))\n"
			  "\t\tlen = max * sizeof(*dst);\n"
			  "\terr = __tpgen_probe_read_kernel(dst, len, %s__%s(ctx));\n"
			  "\treturn err ? err : (long)(len / sizeof(*dst));\n}\n",
			  n, s, n, s, f->elem_ctype, s, n, s, n);
	}
	sb_puts(out, "#endif\n");
}

/*
 * Fixed arrays: the verifier refuses loads through a ctx pointer plus an
 * offset, which is what a copy of ctx->comm compiles to; a helper copies it.
 */
static void emit_array_reader(struct strbuf *out, const struct tp_event *ev, const struct tp_field *f)
{
	const char *s = ev->struct_name, *n = f->cname;

	sb_printf(out, "\n#ifdef __bpf__\n/* Copy %s (%s%s) into dst, at most size bytes", f->name, f->type, f->suffix);
	if (f->is_string)
		sb_printf(out, ", NUL-terminated:\n * returns the bytes copied with the NUL, or -errno. */\n"
			  "__tpgen_inline long %s__read_%s(const struct %s *ctx, char *dst, __u32 size)\n{\n"
			  "\treturn __tpgen_probe_read_kernel_str(dst, size < sizeof(ctx->%s) ? size : sizeof(ctx->%s),\n"
			  "\t\t\t\t\t     ctx->%s);\n}\n", s, n, s, n, n, n);
	else
		sb_printf(out, ": 0 or -errno. */\n"
			  "__tpgen_inline long %s__read_%s(const struct %s *ctx, void *dst, __u32 size)\n{\n"
			  "\treturn __tpgen_probe_read_kernel(dst, size < sizeof(ctx->%s) ? size : sizeof(ctx->%s),\n"
			  "\t\t\t\t\t ctx->%s);\n}\n", s, n, s, n, n, n);
	sb_puts(out, "#endif\n");
}

static int fwd_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void emit_forwards(struct strbuf *out, const struct tp_events *evs, const bool *selected)
{
	const char **v = NULL;
	int n = 0, cap = 0, i, j;

	for (i = 0; i < evs->nr; i++) {
		if (selected && !selected[i])
			continue;
		for (j = 0; j < evs->ev[i].nr_fields; j++) {
			const char *fwd = evs->ev[i].fields[j].fwd;

			if (!fwd)
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				v = xrealloc(v, cap * sizeof(*v));
			}
			v[n++] = fwd;
		}
	}
	if (!n)
		return;
	qsort(v, n, sizeof(*v), fwd_cmp);
	for (i = 0; i < n; i++)
		if (!i || strcmp(v[i], v[i - 1]))
			sb_printf(out, "%s;\n", v[i]);
	sb_putc(out, '\n');
	free(v);
}

int emit_ctx_header(struct strbuf *out, const struct tp_events *evs, const bool *selected,
		    const char *guard, const char *banner)
{
	bool any_loc = false, any_core = false;
	const char **classes = NULL;
	int i, j, k, nr_classes = 0;

	for (i = 0; i < evs->nr; i++)
		for (j = 0; (!selected || selected[i]) && j < evs->ev[i].nr_fields; j++)
			if (evs->ev[i].fields[j].kind == FIELD_DATA_LOC ||
			    evs->ev[i].fields[j].kind == FIELD_REL_LOC ||
			    evs->ev[i].fields[j].kind == FIELD_ARRAY ||
			    evs->ev[i].fields[j].core_static)
				any_loc = true;
	for (i = 0; i < evs->nr; i++)
		if ((!selected || selected[i]) && evs->ev[i].core_class)
			any_core = true;

	sb_puts(out, "/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */\n");
	sb_printf(out, "/* %s */\n", banner);
	sb_puts(out, "/*\n"
		" * Tracepoint context structs: one per event, laid out exactly as the kernel's\n"
		" * record (tracefs format files). Use them as the argument of SEC(\"tp/<sys>/<event>\")\n"
		" * programs. Every offset is checked at build time: on another kernel, regenerate.\n"
		" * The common_* fields (the first 8 bytes) keep the layout but cannot be read by\n"
		" * BPF programs (the verifier refuses ctx offsets below 8): use\n"
		" * bpf_get_current_pid_tgid() for the pid.\n"
		" */\n");
	sb_printf(out, "#ifndef %s\n#define %s\n\n", guard, guard);
	emit_fixed_types(out);
	if (any_loc)
		emit_helpers(out);
	emit_forwards(out, evs, selected);
	if (any_core)
		emit_core_prelude(out);
	for (i = 0; i < evs->nr; i++) {
		const struct tp_event *ev = &evs->ev[i];
		bool seen = false;

		if (selected && !selected[i])
			continue;
		sb_printf(out, "/* %s/%s", ev->sys, ev->name);
		if (ev->id >= 0)
			sb_printf(out, " (id %d)", ev->id);
		if (ev->rename_reason)
			sb_printf(out, ": struct %s, %s", ev->struct_name, ev->rename_reason);
		if (ev->core_class)
			sb_printf(out, "; CO-RE: struct trace_event_raw_%s", ev->core_class);
		else if (ev->core_why)
			sb_printf(out, "; static layout, not CO-RE: %s", ev->core_why);
		sb_puts(out, " */\n");
		for (k = 0; ev->core_class && k < nr_classes; k++)
			seen |= !strcmp(classes[k], ev->core_class);
		if (!seen) {
			emit_struct(out, ev);
			emit_asserts(out, ev);
			if (ev->core_class) {
				classes = xrealloc(classes, (nr_classes + 1) * sizeof(*classes));
				classes[nr_classes++] = ev->core_class;
			}
		}
		if (ev->core_class)
			sb_printf(out, "#define %s trace_event_raw_%s___tpgen\n", ev->struct_name, ev->core_class);
		for (j = 0; j < ev->nr_fields; j++) {
			if (ev->core_class && ev->fields[j].core_static)
				emit_static_accessor(out, ev, &ev->fields[j]);
			else if (ev->fields[j].kind == FIELD_DATA_LOC || ev->fields[j].kind == FIELD_REL_LOC)
				emit_accessors(out, ev, &ev->fields[j]);
			else if (ev->fields[j].kind == FIELD_ARRAY)
				emit_array_reader(out, ev, &ev->fields[j]);
		}
		sb_putc(out, '\n');
	}
	free(classes);
	sb_printf(out, "#endif /* %s */\n", guard);
	return 0;
}
