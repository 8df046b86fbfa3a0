// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A probe's values and expressions as BPF C: each value read where it lives
 * (the record, a raw argument and members through it, the user registers of
 * a syscall, a helper, values a join found), strings copied into buffers,
 * and expressions over them (gen/emit/expr_emit.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit_prog.h"

/* ---- syscall arguments of raw_tp and tp_btf entries (model/sysargs.h) ---- */

void emit_sysarg_test(struct strbuf *sb, const struct pprobe *pr, const char *leave)
{
	const char *x;

	if (!pr->sys_ev)
		return;
	x = pr->sys_ev->name + (pr->sys_exit ? 9 : 10);
	/* the raw tracepoint fires for every syscall: this entry is X's */
	sb_printf(sb, "\t/* %s is syscall %d on the target */\n", x, pr->sys_nr);
	if (pr->sys_exit)
		sb_printf(sb, "\tif (tpgen_syscall_nr((struct pt_regs *)ctx[0]) != %d)\n\t\t%s\n",
			  pr->sys_nr, leave);
	else
		sb_printf(sb, "\tif (ctx[1] != %d)\n\t\t%s\n", pr->sys_nr, leave);
}

/* The register of argument i: libbpf's accessors, a sixth from tpgen.h (libbpf 1.1 has none) */
static void emit_reg(struct strbuf *sb, int i)
{
	if (i < 5)
		sb_printf(sb, "PT_REGS_PARM%d_CORE_SYSCALL((struct pt_regs *)ctx[0])", i + 1);
	else
		sb_puts(sb, "tpgen_syscall_arg6((struct pt_regs *)ctx[0])");
}

static void emit_sysarg_value(struct strbuf *sb, const struct pvalue *v)
{
	if (v->kind == PV_INT)
		sb_printf(sb, "(%s)", pvalue_ctype(v));
	emit_reg(sb, v->sys_arg);
}

void emit_sysarg_ptr(struct strbuf *sb, const struct pvalue *v)
{
	sb_puts(sb, "(__u64)");
	emit_reg(sb, v->sys_arg);
}

static void emit_sysarg_read_str(struct strbuf *sb, const struct pvalue *v, const char *dst, const char *indent)
{
	sb_printf(sb, "%sbpf_probe_read_user_str(%s, sizeof(%s), (const void *)", indent, dst, dst);
	emit_reg(sb, v->sys_arg);
	sb_puts(sb, ");\n");
}

/* ---- values ---- */

const char *pvalue_ctype(const struct pvalue *v)
{
	struct expr_type t = { ET_INT, v->kind == PV_PTR ? 8 : v->size, v->kind == PV_INT && v->is_signed, false };

	return expr_ctype(&t);
}

/* An integer value as a C expression. */
void emit_value(struct strbuf *sb, const struct pprobe *pr, const struct pvalue *v)
{
	if (v->kind == PV_PTR)
		sb_puts(sb, "(__u64)");
	switch (v->src) {
	case PV_CTX:
		if (pr->ev->core_sys) {
			/* CO-RE: through syscall_trace_enter/exit, typed as declared */
			sb_printf(sb, "%s__get_%s(ctx)", pr->ev->struct_name, v->field->cname);
			break;
		}
		if (v->narrow || (pr->ev->core_class && v->field->core_ptr))
			sb_printf(sb, "(%s)", pvalue_ctype(v));	/* core_ptr: a void * in the CO-RE struct */
		/* CO-RE: each read through __tpgen_ctx() (the ctx header says why) */
		sb_printf(sb, pr->ev->core_class ? "__tpgen_ctx(ctx)->%s" : "ctx->%s", v->field->cname);
		break;
	case PV_RAW:
		if (v->is_bool)
			sb_puts(sb, "(__u8)");
		if (v->path && v->btf_direct) {
			const char *p;

			/* "mm, owner" -> p->mm->owner: a plain load in tp_btf, no helper call */
			sb_printf(sb, "%s->", v->arg_local);
			for (p = v->path; *p; p++) {
				if (p[0] == ',' && p[1] == ' ') {
					sb_puts(sb, "->");
					p++;
				} else {
					sb_putc(sb, *p);
				}
			}
		} else if (v->path) {
			sb_printf(sb, "BPF_CORE_READ%s(%s, %s)", v->user_mem ? "_USER" : "", v->arg_local, v->path);
		} else {
			sb_printf(sb, "args->%s", v->arg);
		}
		break;
	case PV_SYSARG:
		emit_sysarg_value(sb, v);
		break;
	case PV_SAVED:
		sb_printf(sb, "%s->%s", pr->joins[v->join].local, v->member);
		break;
	case PV_LET:
		sb_puts(sb, pr->lets[v->let].local);
		break;
	case PV_PARAM:
		/* a bool read as a byte: comparing it with 2 is no compiler warning (the checker allowed it) */
		sb_printf(sb, "%s%s", v->is_bool ? "(__u8)" : "", v->param);
		break;
	case PV_EXPR:
		emit_expr(sb, pr, v->expr);
		break;
	case PV_USTR:
	case PV_UARGV:
		break;
	default:
		/* a built-in: its line of model/builtins.h */
		sb_printf(sb, builtin_of(v->src)->c, v->stack_map);
		break;
	}
}

/* Where a syscall's char * argument points in the caller's memory (PV_USTR). */
void emit_ustr_addr(struct strbuf *sb, const struct pprobe *pr, const struct pvalue *v)
{
	if (pr->ev->core_sys && v->field->kind != FIELD_POINTER)
		sb_printf(sb, "(const void *)%s__get_%s(ctx)", pr->ev->struct_name, v->field->cname);	/* str(x) */
	else if (pr->ev->core_sys)
		sb_printf(sb, "%s__get_%s(ctx)", pr->ev->struct_name, v->field->cname);
	else
		sb_printf(sb, "ctx->%s", v->field->cname);
}

/* Copy the string 'v' into the char array 'dst' (an lvalue), NUL-terminated. */
void emit_read_str(struct strbuf *sb, const struct pprobe *pr, const struct pvalue *v,
			  const char *dst, const char *indent)
{
	switch (v->src) {
	case PV_CTX:
		if (v->field->kind == FIELD_ARRAY)
			sb_printf(sb, "%sbpf_probe_read_kernel_str(%s, sizeof(%s), ctx->%s);\n", indent, dst, dst,
				  v->field->cname);
		else
			sb_printf(sb, "%s%s__read_%s(ctx, %s, sizeof(%s));\n", indent, pr->ev->struct_name,
				  v->field->cname, dst, dst);
		break;
	case PV_UARGV:
		sb_printf(sb, "%stpgen_read_argv(%s, (const char *const *)(unsigned long)ctx->%s);\n", indent, dst,
			  v->field->cname);
		break;
	case PV_USTR:
		/* a syscall's argument: the string is in the caller's memory */
		sb_printf(sb, "%sbpf_probe_read_user_str(%s, sizeof(%s), %s", indent, dst, dst,
			  pr->ev->core_sys ? "" : "(const void *)(unsigned long)");
		emit_ustr_addr(sb, pr, v);
		sb_puts(sb, ");\n");
		break;
	case PV_RAW:
		if (!v->str_ptr)
			sb_printf(sb, "%sBPF_CORE_READ%s_STR_INTO(&%s, %s, %s);\n", indent, v->user_mem ? "_USER" : "",
				  dst, v->arg_local, v->path);
		else if (v->path)
			sb_printf(sb, "%sbpf_probe_read_%s_str(%s, sizeof(%s), BPF_CORE_READ%s(%s, %s));\n", indent,
				  v->user_mem ? "user" : "kernel", dst, dst, v->user_mem ? "_USER" : "", v->arg_local,
				  v->path);
		else
			sb_printf(sb, "%sbpf_probe_read_kernel_str(%s, sizeof(%s), args->%s);\n", indent, dst, dst,
				  v->arg);
		break;
	case PV_SYSARG:
		emit_sysarg_read_str(sb, v, dst, indent);
		break;
	case PV_SAVED:
		/* argv: every string, and the count and cut at its end */
		sb_printf(sb, "%sbpf_probe_read_kernel%s(%s, sizeof(%s), %s->%s);\n", indent, v->argv ? "" : "_str",
			  dst, dst, pr->joins[v->join].local, v->member);
		break;
	default:
		if (builtin_of(v->src)) {
			/* comm: its line of model/builtins.h */
			sb_puts(sb, indent);
			sb_printf(sb, builtin_of(v->src)->c, dst);
			sb_puts(sb, ";\n");
		}
		break;
	}
}

/* ---- expressions ---- */

static void eop_value(void *ctx, struct strbuf *sb, int ref)
{
	const struct pprobe *pr = ctx;

	emit_value(sb, pr, &pr->vals[ref]);
}

static void eop_string(void *ctx, struct strbuf *sb, int ref)
{
	const struct pprobe *pr = ctx;
	const struct pvalue *v = &pr->vals[ref];

	if (v->src == PV_SAVED)
		sb_printf(sb, "%s->%s", pr->joins[v->join].local, v->member);
	else
		sb_printf(sb, pr->scratch_size ? "*buf_%s" : "buf_%s", v->cname);
}

/* A syscall's char * in the caller's memory: a "*suffix" glob reads the tail of a long one */
static bool eop_user_addr(void *ctx, struct strbuf *sb, int ref)
{
	const struct pprobe *pr = ctx;
	const struct pvalue *v = &pr->vals[ref];

	if (v->src != PV_USTR || v->argv)
		return false;
	if (sb) {
		if (!pr->ev->core_sys)
			sb_puts(sb, "(const void *)(unsigned long)");
		emit_ustr_addr(sb, pr, v);
	}
	return true;
}

void emit_expr(struct strbuf *sb, const struct pprobe *pr, const struct expr *e)
{
	const struct expr_emit_ops ops = { .value = eop_value, .string = eop_string,
					   .lit_prefix = pr->lit_prefix, .user_addr = eop_user_addr };

	expr_emit(sb, e, &ops, (void *)pr);
}

/* !(e), as the test that leaves early */
void emit_expr_not(struct strbuf *sb, const struct pprobe *pr, const struct expr *e)
{
	const struct expr_emit_ops ops = { .value = eop_value, .string = eop_string,
					   .lit_prefix = pr->lit_prefix, .user_addr = eop_user_addr };

	expr_emit_not(sb, e, &ops, (void *)pr);
}
