// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer harness: the print fmt reader (gen/input/printfmt.c, gen/pf*.c)
 * and the loader's renderer (bpf/tpgen_names.c). Any input yields tables
 * and address fields whose spans lie inside the text, whose expressions
 * evaluate (or fail cleanly) for any field values and print as C, and
 * whose names render into buffers of any size, the NUL always inside.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/printfmt.h"
#include "lib/util.h"
#include "../../bpf/tpgen_names.h"

static int enum_value(void *ctx, const char *name, struct pf_val *val)
{
	if (strcmp(name, "TCP_CLOSE"))
		return -1;
	*val = pf_field_val(7, 4, true);
	return 0;
}

static int type_info(void *ctx, const char *name, struct pf_type *type)
{
	if (strcmp(name, "gfp_t"))
		return -1;
	*type = (struct pf_type){ 32, false };
	return 0;
}

static int field(void *ctx, const char *name, struct pf_val *val)
{
	*val = pf_field_val(*(unsigned long long *)ctx ^ strlen(name), 1 + strlen(name) % 8, name[0] & 1);
	return 0;
}

static const char *field_c(void *ctx, const char *name)
{
	return "ctx->x";
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	diag_silent = !getenv("FUZZ_VERBOSE");
	diag_quiet_warnings = !getenv("FUZZ_VERBOSE");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned long long probes[] = { 0, 1, 0x80, 0xffffffff, 0x8000000000000000ULL, ~0ULL };
	struct pf_env env = { .enum_value = enum_value, .type_info = type_info };
	struct tpgen_sym syms[64];
	struct printfmt pf;
	char *text, buf[48];
	size_t len;
	int i, j, k, n;

	if (memchr(data, '\0', size))
		return 0;	/* format files are text */
	text = xstrndup((const char *)data, size);
	len = strlen(text) - (strncmp(text, "print fmt:", 10) ? 0 : 10);
	printfmt_parse("fuzz/format", 1, text, &env, &pf);
	for (i = 0; i < pf.nr_tables; i++) {
		const struct pf_table *t = &pf.tables[i];
		struct strbuf sb;

		if (t->start > t->end || t->end > len || t->arg_start > t->arg_end || t->arg_end > len ||
		    t->call_start < t->start || t->call_end > t->end || !t->nr_entries || !t->expr ||
		    (t->kind == PF_FLAGS && !t->sep))
			abort();
		n = t->nr_entries < 64 ? t->nr_entries : 64;
		for (j = 0; j < n; j++) {
			if (!t->entries[j].name || t->entries[j].vstart > t->entries[j].vend ||
			    t->entries[j].vend > len)
				abort();
			syms[j] = (struct tpgen_sym){ t->entries[j].value, t->entries[j].name };
		}
		for (k = 0; k < (int)ARRAY_SIZE(probes); k++) {
			unsigned long long v = probes[k], out;

			if (pf_table_value(t, field, &v, &out))
				continue;
			for (j = 0; j < (int)sizeof(buf); j += 7) {
				int r = t->kind == PF_FLAGS ? tpgen_print_flags(buf, j, syms, n, t->sep, out) :
							      tpgen_print_symbolic(buf, j, syms, n, out);

				if (r < 0 || (j && strlen(buf) >= (size_t)j))
					abort();
			}
		}
		sb_init(&sb);
		pf_emit_c(&sb, t->expr, field_c, NULL);
		sb_clear(&sb);
	}
	for (i = 0; i < pf.nr_addrs; i++) {
		const struct pf_addr *a = &pf.addrs[i];

		if (!a->field || !a->flags || a->start > a->end || a->end > len)
			abort();
	}
	printfmt_clear(&pf);
	free(text);
	return 0;
}
