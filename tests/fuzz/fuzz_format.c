// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer harness: the tracefs format-file reader and the ctx emitter.
 * Any input either fails with a diagnostic or yields an event whose layout
 * holds together (fields in order, no overlap, inside the record) and whose
 * header text is emitted without crashing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "model/model.h"
#include "lib/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	diag_silent = !getenv("FUZZ_VERBOSE");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tp_events evs = {};
	struct tp_event ev;
	struct strbuf sb;
	char *text;
	unsigned int end = 0;
	int i;

	text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	/* as the reader does: binary bytes (NUL too) are refused first, located */
	if (tracefs_check_text("fuzz/format", text, size) ||
	    tracefs_parse_format("fuzz/format", text, "fuzz", "event", &ev)) {
		free(text);
		return 0;
	}
	for (i = 0; i < ev.nr_fields; i++) {
		const struct tp_field *f = &ev.fields[i];

		if (f->offset < end || f->offset + f->size > 65536)
			abort();
		end = f->offset + f->size;
	}
	if (ev.size < end)
		abort();
	evs.ev = &ev;
	evs.nr = 1;
	tp_events_name(&evs, NULL, NULL);
	sb_init(&sb);
	emit_ctx_header(&sb, &evs, NULL, "__FUZZ_H", "fuzz");
	sb_clear(&sb);
	tp_event_clear(&ev);
	free(text);
	return 0;
}
