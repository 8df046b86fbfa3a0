// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Accessors of context structs: one macro per accessor, over the helpers of
 * emit_ctx_text.c, so that no field costs a function body to compile.
 */
#include <string.h>

#include "emit/emit_ctx.h"

/* "#define sched_switch_ctx__read_prev_comm(ctx, dst, size) \\\n\t" */
static void put_accessor(struct strbuf *out, const struct tp_event *ev, const char *kind,
			 const struct tp_field *f, const char *params)
{
	sb_add(out, "#define ", 8);
	sb_puts(out, ev->struct_name);
	sb_add(out, "__", 2);
	sb_puts(out, kind);
	sb_putc(out, '_');
	sb_puts(out, f->cname);
	sb_puts(out, params);
	sb_add(out, " \\\n\t", 4);
}

/* __tpgen_xxx(sched_switch_ctx, ctx, prev_comm */
static void put_helper_call(struct strbuf *out, const char *helper, const struct tp_event *ev,
			    const struct tp_field *f)
{
	sb_puts(out, helper);
	sb_putc(out, '(');
	sb_puts(out, ev->struct_name);
	sb_add(out, ", ctx, ", 7);
	ctx_put_member_name(out, f);
}

/*
 * Accessor names are <struct>__<kind>_<field> with kinds get, len and read: no
 * kind is a prefix of another, so two fields never give one name ('x_len'
 * gives s__len_x_len, 'x' s__len_x; 'read_x' s__read_read_x, 'x' s__read_x).
 */
static void emit_loc_accessors(struct strbuf *out, const struct tp_event *ev, const struct tp_field *f)
{
	bool rel = f->kind == FIELD_REL_LOC;

	put_accessor(out, ev, "get", f, "(ctx)");
	put_helper_call(out, rel ? "__tpgen_rel_loc" : "__tpgen_data_loc", ev, f);
	sb_add(out, ", ", 2);
	sb_puts(out, f->elem_ctype);
	sb_add(out, ")\n", 2);
	put_accessor(out, ev, "len", f, "(ctx)");
	put_helper_call(out, "__tpgen_loc_len", ev, f);
	sb_add(out, ")\n", 2);
	if (f->is_string) {
		/* a __data_loc's 16-bit length bounds nothing tighter than the buffer */
		put_accessor(out, ev, "read", f, "(ctx, dst, size)");
		sb_add(out, "__tpgen_read_str(dst, size, ", 28);
		sb_puts(out, ev->struct_name);
		sb_add(out, "__get_", 6);
		sb_puts(out, f->cname);
		sb_add(out, "(ctx), 0xffff)\n", 15);
	} else {
		put_accessor(out, ev, "read", f, "(ctx, dst, max)");
		sb_add(out, "__tpgen_read_elems(dst, max, ", 29);
		sb_puts(out, ev->struct_name);
		sb_add(out, "__get_", 6);
		sb_puts(out, f->cname);
		sb_add(out, "(ctx), ", 7);
		sb_puts(out, ev->struct_name);
		sb_add(out, "__len_", 6);
		sb_puts(out, f->cname);
		sb_add(out, "(ctx))\n", 7);
	}
}

static void emit_array_reader(struct strbuf *out, const struct tp_event *ev, const struct tp_field *f)
{
	put_accessor(out, ev, "read", f, "(ctx, dst, size)");
	put_helper_call(out, f->is_string ? "__tpgen_read_chars" : "__tpgen_read_array", ev, f);
	sb_add(out, ", dst, size)\n", 13);
}

/* --core: a field with no member in the class struct, read at the generating kernel's offset */
static void emit_static_accessor(struct strbuf *out, const struct tp_event *ev, const struct tp_field *f)
{
	bool ptr = *f->suffix;	/* arrays and bytes: a pointer to them */

	sb_printf(out, "/* %s has no member in struct trace_event_raw_%s: static offset %u */\n",
		  f->name, ev->core_class, f->offset);
	put_accessor(out, ev, "get", f, "(ctx)");
	if (ptr)
		sb_printf(out, "((const %s *)__tpgen_at(%s, ctx, %u))\n", f->ctype, ev->struct_name, f->offset);
	else
		sb_printf(out, "(*(const %s *)__tpgen_at(%s, ctx, %u))\n", f->ctype, ev->struct_name, f->offset);
}

/*
 * --core, syscalls/: each field read through struct syscall_trace_enter or
 * _exit, typed as the syscall declares it: kill's pid_t pid is
 * sys_enter_kill_ctx__get_pid(ctx), ((__s32)__tpgen_sys_arg(ctx, 0)).
 */
static void emit_sys_accessor(struct strbuf *out, const struct tp_event *ev, const struct tp_field *f)
{
	put_accessor(out, ev, "get", f, "(ctx)");
	sb_add(out, "((", 2);
	sb_puts(out, sys_arg_ctype(f));
	sb_putc(out, ')');
	if (f->core_sys_arg == CORE_SYS_NR) {
		sb_puts(out, ev->core_sys == CORE_SYS_ENTER ? "__tpgen_sys_enter_nr(ctx))\n" :
							      "__tpgen_sys_exit_nr(ctx))\n");
	} else if (f->core_sys_arg == CORE_SYS_RET) {
		sb_puts(out, "__tpgen_sys_ret(ctx))\n");
	} else {
		sb_puts(out, "__tpgen_sys_arg(ctx, ");
		sb_putu(out, f->core_sys_arg);
		sb_add(out, "))\n", 3);
	}
}

void ctx_emit_accessors(struct strbuf *out, const struct tp_event *ev)
{
	int j;

	for (j = 0; j < ev->nr_fields; j++) {
		const struct tp_field *f = &ev->fields[j];

		if (ev->core_sys && !f->common)
			emit_sys_accessor(out, ev, f);
		else if (ev->core_class && f->core_static)
			emit_static_accessor(out, ev, f);
		else if (f->kind == FIELD_DATA_LOC || f->kind == FIELD_REL_LOC)
			emit_loc_accessors(out, ev, f);
		else if (f->kind == FIELD_ARRAY)
			emit_array_reader(out, ev, f);
	}
}
