/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Context headers, between emit_ctx.c and its two helpers. */
#ifndef __TPGEN_EMIT_CTX_H
#define __TPGEN_EMIT_CTX_H

#include "model/model.h"
#include "lib/util.h"

/* emit_ctx_text.c: what every header says, the helpers, the CO-RE prelude */
extern const char ctx_intro[];
extern const char ctx_helpers[];
extern const char ctx_core_prelude[];

/* emit_ctx_access.c: the accessor macros of one event's arrays and __data_loc fields */
void ctx_emit_accessors(struct strbuf *out, const struct tp_event *ev);

/* emit_ctx_sys.c: --core, the struct syscall_trace_enter/exit flavor ev is read through */
void ctx_emit_sys_struct(struct strbuf *out, const struct tp_event *ev, int ncommon, const char *entry);

/* A field's member: "__data_loc_filename" for __data_loc field filename. */
static inline void ctx_put_member_name(struct strbuf *out, const struct tp_field *f)
{
	if (f->kind == FIELD_DATA_LOC)
		sb_add(out, "__data_loc_", 11);
	else if (f->kind == FIELD_REL_LOC)
		sb_add(out, "__rel_loc_", 10);
	sb_puts(out, f->cname);
}

#endif /* __TPGEN_EMIT_CTX_H */
