// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Raw tracepoint argument structs: 'struct <tp>_raw_args' with member N in
 * slot N of the u64 array a raw_tp/ or tp_btf/ program gets, and a
 * BPF_PROG-style TP_BTF_<tp>(fn) macro giving the arguments as typed, named
 * parameters.
 *
 * The kernel widens each argument to a u64 (include/trace/bpf_probe.h): a
 * value narrower than 8 bytes sits at the start of its slot on little-endian
 * and at the end on big-endian. Narrow members therefore go through
 * __TPGEN_RAW_SLOT(), which on big-endian puts them after a pad inside an
 * 8-byte anonymous struct; every offset is asserted for either byte order,
 * through one short macro per argument, outside the struct's include guard so
 * that a second header sharing the struct checks it too.
 *
 * The model holds each argument's BTF type id; btf_decl.c spells it as it is
 * printed (both halves of the header at once, sb_emit_split()).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit/emit.h"
#include "lib/cstring.h"
#include "model/order.h"
#include "input/rawtp.h"
#include "lib/util.h"

#define COMMENT_COL	56

static void emit_intro(struct strbuf *out, enum raw_mode mode)
{
	sb_puts(out,
		"/*\n"
		" * Raw tracepoint argument structs, from BTF (btf_trace_<tp>): member N is\n"
		" * argument N, in slot N of the u64 array that raw_tp/ and tp_btf/ programs\n"
		" * get as their context. Offsets and sizes are checked at build time, for\n"
		" * either byte order: on another kernel, regenerate.\n"
		" *\n");
	if (mode == RAW_MODE_STANDALONE)
		sb_puts(out,
			" * Standalone: no includes needed. Structs the arguments point to are only\n"
			" * declared (include vmlinux.h, before or after this header, to read through\n"
			" * them); enums, typedefs and structs passed by value are fixed-width integers\n"
			" * of the same size and sign, function pointers are void *.\n");
	else
		sb_puts(out,
			" * Kernel types as they are (tpgen headers --raw --vmlinux-h): include\n"
			" * vmlinux.h first.\n");
	sb_puts(out,
		" *\n"
		" * raw_tp: cast the context. Pointers are plain kernel addresses: copy one to a\n"
		" * local before BPF_CORE_READ(), which would relocate the access to args too.\n"
		" *\n"
		" *\tSEC(\"raw_tp/sched_switch\")\n"
		" *\tint on_switch(__u64 *ctx)\n"
		" *\t{\n"
		" *\t\tstruct sched_switch_raw_args *args = (void *)ctx;\n"
		" *\t\tstruct task_struct *prev = args->prev;\n"
		" *\n"
		" *\t\treturn BPF_CORE_READ(prev, pid) == 1 && args->prev_state == 1;\n"
		" *\t}\n"
		" *\n"
		" * tp_btf (or raw_tp): TP_BTF_<tp>(fn) defines fn like libbpf's BPF_PROG, with\n"
		" * the arguments as parameters named as in the kernel; in tp_btf programs\n"
		" * pointers are BTF-typed and can be read directly. 'ctx' stays the u64 array\n"
		" * ('__ctx' where an argument is called ctx).\n"
		" *\n"
		" *\tSEC(\"tp_btf/sched_switch\")\n"
		" *\tint TP_BTF_sched_switch(on_switch)\t// preempt, prev, next, prev_state\n"
		" *\t{\n"
		" *\t\treturn prev->pid == 1 && prev_state == 1;\n"
		" *\t}\n"
		" */\n");
}

static void emit_prelude(struct strbuf *out)
{
	sb_puts(out,
		"#ifndef __TPGEN_RAW_SLOT\n"
		"#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__\n"
		"/* a value narrower than its 8-byte slot sits in the slot's last bytes */\n"
		"#define __TPGEN_RAW_SLOT(slot, size, ...) \\\n"
		"\tstruct { __u8 __tpgen_pad##slot[8 - (size)]; __VA_ARGS__; } __attribute__((aligned(8)))\n"
		"#define __TPGEN_RAW_OFF(slot, size) ((slot) * 8 + 8 - (size))\n"
		"#else\n"
		"#define __TPGEN_RAW_SLOT(slot, size, ...) __VA_ARGS__ __attribute__((aligned(8)))\n"
		"#define __TPGEN_RAW_OFF(slot, size) ((slot) * 8)\n"
		"#endif\n"
		"/* Layout proofs: each argument's offset and size, the struct's size */\n"
		"#define __TPGEN_RAW_ARG(tp, m, slot, size)\t\t\t\t\t\t\\\n"
		"\t_Static_assert(__builtin_offsetof(struct tp##_raw_args, m) == __TPGEN_RAW_OFF(slot, size), #m); \\\n"
		"\t_Static_assert(sizeof(((struct tp##_raw_args *)0)->m) == size, #m)\n"
		"#define __TPGEN_RAW_ARGS(tp, n) _Static_assert(sizeof(struct tp##_raw_args) == (n) * 8, #tp)\n"
		"#define __TPGEN_U __attribute__((unused))\n"
		"/* libbpf's BPF_PROG with the parameters and their reads from ctx given */\n"
		"#define __TPGEN_PROG(fn, params, args)\t\t\t\t\t\t\\\n"
		"fn(unsigned long long *ctx);\t\t\t\t\t\t\t\\\n"
		"static inline __attribute__((always_inline)) typeof(fn(0)) ____##fn params;\t\\\n"
		"typeof(fn(0)) fn(unsigned long long *ctx)\t\t\t\t\t\\\n"
		"{\t\t\t\t\t\t\t\t\t\t\\\n"
		"\treturn ____##fn args;\t\t\t\t\t\t\t\\\n"
		"}\t\t\t\t\t\t\t\t\t\t\\\n"
		"static inline __attribute__((always_inline)) typeof(fn(0)) ____##fn params\n"
		"#endif\n\n");
}

/* Structs standalone spellings point to (vmlinux.h mode: only modules' tracepoints need them). */
static void emit_forwards(struct strbuf *out, const struct raw_tps *r, const bool *selected, enum raw_mode mode)
{
	const char **v;
	int n = order_raw_forwards(r, selected, mode == RAW_MODE_VMLINUX, &v);

	for (int i = 0; i < n; i++)
		sb_printf(out, "%s;\n", v[i]);
	if (n)
		sb_putc(out, '\n');
	free(v);
}

/* Where the text of a member is spelled; 'type' and 'ktype' are scratch for its comment. */
struct spelling {
	const struct raw_spell *sp;
	const struct raw_tp *tp;
	enum raw_mode mode;
	struct strbuf type, ktype;
};

/* Argument 'i' declared (or its type alone), with kernel types or as standalone headers spell it. */
static void put_arg(struct strbuf *out, const struct spelling *s, int i, bool kernel, bool named)
{
	if (kernel)
		raw_spell_kernel(s->sp, s->tp, i, named, out);
	else
		raw_spell_sa(s->sp, s->tp, i, named, out);
}

/* What a member's comment says: the kernel's type where ours differs, and a rename. */
static void emit_member_comment(struct strbuf *out, size_t line, struct spelling *s, int i, bool kernel)
{
	const struct raw_arg *a = &s->tp->args[i];
	bool lowered = false;

	if (!kernel) {	/* with kernel types, the type is the kernel's */
		sb_reset(&s->type);
		sb_reset(&s->ktype);
		raw_spell_sa(s->sp, s->tp, i, false, &s->type);
		raw_spell_kernel(s->sp, s->tp, i, false, &s->ktype);
		lowered = strcmp(s->type.buf, s->ktype.buf) != 0;
	}
	if (!lowered && !a->renamed)
		return;
	sb_tab_to(out, line, COMMENT_COL);
	sb_puts(out, "/* ");
	if (lowered) {
		c_comment_text(out, s->ktype.buf);
		if (a->by_value)
			sb_puts(out, ", by value");
	}
	if (a->renamed) {
		sb_puts(out, lowered ? "; " : "");
		if (a->kname) {
			sb_puts(out, "'");
			c_comment_text(out, a->kname);
			sb_puts(out, "', ");
		}
		sb_puts(out, a->renamed);
	}
	sb_puts(out, " */");
}

static void emit_struct(struct strbuf *out, struct spelling *s)
{
	const struct raw_tp *tp = s->tp;
	int i;

	sb_add(out, "struct ", 7);
	sb_puts(out, tp->name);
	sb_add(out, "_raw_args {\n", 12);
	for (i = 0; i < tp->nr_args; i++) {
		const struct raw_arg *a = &tp->args[i];
		bool kernel = s->mode == RAW_MODE_VMLINUX && !a->vmlinux_sa;
		size_t line = out->len;

		if (a->size < 8) {
			sb_add(out, "\t__TPGEN_RAW_SLOT(", 18);
			sb_putu(out, i);
			sb_add(out, ", ", 2);
			sb_putu(out, a->size);
			sb_add(out, ", ", 2);
			put_arg(out, s, i, kernel, true);
			sb_add(out, ");", 2);
		} else {
			sb_putc(out, '\t');
			put_arg(out, s, i, kernel, true);
			sb_puts(out, " __attribute__((aligned(8)));");
		}
		emit_member_comment(out, line, s, i, kernel);
		sb_putc(out, '\n');
	}
	sb_add(out, "};\n", 3);
}

/* __TPGEN_RAW_ARGS(sched_switch, 4); __TPGEN_RAW_ARG(sched_switch, prev, 1, 8); ... */
static void emit_asserts(struct strbuf *out, const struct raw_tp *tp)
{
	int i;

	sb_add(out, "__TPGEN_RAW_ARGS(", 17);
	sb_puts(out, tp->name);
	sb_add(out, ", ", 2);
	sb_putu(out, tp->nr_args);
	sb_add(out, ");\n", 3);
	for (i = 0; i < tp->nr_args; i++) {
		sb_add(out, "__TPGEN_RAW_ARG(", 16);
		sb_puts(out, tp->name);
		sb_add(out, ", ", 2);
		sb_puts(out, tp->args[i].name);
		sb_add(out, ", ", 2);
		sb_putu(out, i);
		sb_add(out, ", ", 2);
		sb_putu(out, tp->args[i].size);
		sb_add(out, ");\n", 3);
	}
}

static void emit_prog_macro(struct strbuf *out, const struct spelling *s)
{
	const struct raw_tp *tp = s->tp;
	const char *ctx = "ctx";
	int i;

	for (i = 0; i < tp->nr_args; i++)
		if (!strcmp(tp->args[i].name, "ctx"))
			ctx = "__ctx";
	sb_add(out, "#define TP_BTF_", 15);
	sb_puts(out, tp->name);
	sb_puts(out, "(__tpgen_fn) __TPGEN_PROG(__tpgen_fn, \\\n\t(unsigned long long *");
	sb_puts(out, ctx);
	sb_puts(out, " __TPGEN_U");
	for (i = 0; i < tp->nr_args; i++) {
		const struct raw_arg *a = &tp->args[i];
		bool kernel = s->mode == RAW_MODE_VMLINUX && !a->vmlinux_sa && !a->by_value;

		sb_add(out, ", \\\n\t ", 6);
		put_arg(out, s, i, kernel, true);
		sb_puts(out, " __TPGEN_U");
	}
	/* the outer function's parameter is always ctx */
	sb_puts(out, "), \\\n\t(ctx");
	for (i = 0; i < tp->nr_args; i++) {
		const struct raw_arg *a = &tp->args[i];
		bool kernel = s->mode == RAW_MODE_VMLINUX && !a->vmlinux_sa && !a->by_value;

		sb_add(out, ", (", 3);
		put_arg(out, s, i, kernel, false);
		sb_add(out, ")ctx[", 5);
		sb_putu(out, i);
		sb_putc(out, ']');
	}
	sb_add(out, "))\n", 3);
}

static void emit_tp(struct strbuf *out, const struct raw_spell *sp, const struct raw_tp *tp,
		    enum raw_mode mode)
{
	struct spelling s = { .sp = sp, .tp = tp, .mode = mode };

	sb_add(out, "/* ", 3);
	sb_puts(out, tp->name);
	sb_add(out, ": ", 2);
	sb_putu(out, tp->nr_args);
	sb_puts(out, tp->nr_args == 1 ? " argument" : " arguments");
	if (tp->unsupported) {
		sb_add(out, "; no struct: ", 13);
		sb_puts(out, tp->unsupported);
		sb_add(out, " */\n\n", 5);
		return;
	}
	if (tp->name_from) {
		sb_add(out, ", names from ", 13);
		sb_puts(out, tp->name_from);
		sb_add(out, "() in BTF", 9);
		if (tp->module) {
			sb_puts(out, " of module ");
			sb_puts(out, tp->module);
		}
		sb_add(out, " */\n", 4);
	} else {
		sb_puts(out, ", names unknown (no __probestub_ or __traceiter_ in BTF, no single "
			"__bpf_trace_ class fits): argN */\n");
	}
	sb_add(out, "#ifndef __TPGEN_RAW_ARGS_", 25);
	sb_puts(out, tp->name);
	sb_add(out, "\n#define __TPGEN_RAW_ARGS_", 26);
	sb_puts(out, tp->name);
	sb_putc(out, '\n');
	sb_init(&s.type);
	sb_init(&s.ktype);
	emit_struct(out, &s);
	sb_clear(&s.type);
	sb_clear(&s.ktype);
	emit_prog_macro(out, &s);
	sb_add(out, "#endif\n", 7);
	/* outside the guard: a header that shares the struct checks it too */
	emit_asserts(out, tp);
	sb_putc(out, '\n');
}

/* What sb_emit_split() prints the tracepoints with: a header is two halves, printed at once. */
struct emit_job {
	const struct raw_tps *r;
	const struct raw_spell *sp;
	const bool *selected;
	enum raw_mode mode;
};

static size_t estimate(const struct raw_tp *tp)
{
	return 512 + 256 * tp->nr_args;
}

static size_t job_size(const void *arg, int i)
{
	const struct emit_job *job = arg;

	return !job->selected || job->selected[i] ? estimate(&job->r->tp[i]) : 0;
}

static void job_emit(struct strbuf *sb, const void *arg, int i)
{
	const struct emit_job *job = arg;

	emit_tp(sb, job->sp, &job->r->tp[i], job->mode);
}

int emit_raw_header(struct strbuf *out, const struct raw_tps *r, const bool *selected,
		    const struct btf *btf, enum raw_mode mode, const char *banner)
{
	unsigned long long h = FNV1A64_INIT;
	size_t size = 16384;
	struct raw_spell sp;
	struct emit_job job;
	int i, err;

	/* the guard names what is in the file: several raw headers can be included */
	for (i = 0; i < r->nr; i++)
		if (!selected || selected[i])
			h = fnv1a64(h, r->tp[i].name, strlen(r->tp[i].name) + 1);
	h = fnv1a64(h, &mode, sizeof(mode));
	for (i = 0; i < r->nr; i++)
		if (!selected || selected[i])
			size += estimate(&r->tp[i]);
	err = raw_spell_init(&sp, r, selected, btf);
	if (err)
		return err;
	sb_reserve(out, size);

	sb_puts(out, "/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */\n");
	sb_printf(out, "/* %s */\n", banner);
	emit_intro(out, mode);
	sb_printf(out, "#ifndef __TPGEN_RAW_%016llX_H\n#define __TPGEN_RAW_%016llX_H\n\n", h, h);
	if (mode == RAW_MODE_STANDALONE) {
		emit_fixed_types(out);
	} else {
		sb_puts(out, "#if !defined(__VMLINUX_H__) && !defined(TPGEN_NO_VMLINUX_CHECK)\n"
			"#error \"include vmlinux.h before this header (made by tpgen headers --raw --vmlinux-h)\"\n"
			"#endif\n\n");
	}
	emit_prelude(out);
	emit_forwards(out, r, selected, mode);
	job = (struct emit_job){ r, &sp, selected, mode };
	sb_emit_split(out, r->nr, &job, job_size, job_emit);
	sb_printf(out, "#endif /* __TPGEN_RAW_%016llX_H */\n", h);
	raw_spell_clear(&sp);
	return 0;
}
