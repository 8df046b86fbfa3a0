// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --core for syscalls/ events: the ___tpgen flavors of the kernel's struct
 * syscall_trace_enter and syscall_trace_exit, printed once per header with
 * the offsets of the first event that uses them (libbpf relocates them).
 * Each event keeps its static struct; its fields are read through the
 * accessors of emit_ctx_access.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "emit/emit_ctx.h"

/* "\t<decl>;" and its comment at the column of the other structs' comments */
__attribute__((format(printf, 3, 4)))
static void member(struct strbuf *out, const char *decl, const char *fmt, ...)
{
	size_t start = out->len;
	char c[256];
	va_list ap;

	sb_printf(out, "\t%s;", decl);
	sb_tab_to(out, start, 48);
	va_start(ap, fmt);
	vsnprintf(c, sizeof(c), fmt, ap);
	va_end(ap);
	sb_printf(out, "/* %s */\n", c);
}

static void pad(struct strbuf *out, unsigned int pos, unsigned int end)
{
	char *decl;

	if (end <= pos)
		return;
	decl = xasprintf("__u8 __pad_%u[%u]", pos, end - pos);
	member(out, decl, "gap, %u", pos);
	free(decl);
}

void ctx_emit_sys_struct(struct strbuf *out, const struct tp_event *ev, int ncommon, const char *entry)
{
	bool enter = ev->core_sys == CORE_SYS_ENTER;
	const char *tag = enter ? "syscall_trace_enter___tpgen" : "syscall_trace_exit___tpgen";
	const struct tp_field *ret = NULL;
	unsigned int nr_off = 0, args_off = 0, pos = 0;
	int i;

	if (!core_sys_layout(ev, &nr_off, &args_off))
		return;
	for (i = 0; i < ev->nr_fields; i++)
		if (ev->fields[i].core_sys_arg == CORE_SYS_RET && !ev->fields[i].common)
			ret = &ev->fields[i];
	sb_printf(out, "/* syscalls/sys_%s_*: the kernel's struct syscall_trace_%s; %s */\n",
		  enter ? "enter" : "exit", enter ? "enter" : "exit",
		  enter ? "the syscall's argument i is args[i]" : "ret is the syscall's result");
	sb_printf(out, "#ifndef __TPGEN_CORE_syscall_trace_%s\n#define __TPGEN_CORE_syscall_trace_%s\n",
		  enter ? "enter" : "exit", enter ? "enter" : "exit");
	sb_printf(out, "struct %s {\n", tag);
	if (ncommon) {
		char *decl = xasprintf("struct %s ent __tpgen_no_bpf", entry);

		member(out, decl, "%s .. %s, 0", ev->fields[0].name, ev->fields[ncommon - 1].name);
		free(decl);
		pos = ev->fields[ncommon - 1].offset + ev->fields[ncommon - 1].size;
	}
	pad(out, pos, nr_off);
	member(out, "__s32 nr", "__syscall_nr, %u", nr_off);
	pos = nr_off + 4;
	if (enter) {
		pad(out, pos, args_off);
		member(out, "__u64 args[]", "unsigned long, %u", args_off);
	} else {
		pad(out, pos, ret->offset);
		member(out, "__s64 ret", "long, %u", ret->offset);
	}
	sb_puts(out, "} __tpgen_core;\n#endif\n");
	sb_printf(out, "__TPGEN_FIELD(%s, nr, %u, 4);\n", tag, nr_off);
	if (enter)
		sb_printf(out, "__TPGEN_OFFSET(%s, args, %u);\n\n", tag, args_off);
	else
		sb_printf(out, "__TPGEN_FIELD(%s, ret, %u, 8);\n\n", tag, ret->offset);
}
