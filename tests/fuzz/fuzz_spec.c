// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* libFuzzer harness: the YAML spec loader. Any input is a spec or one located error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/spec.h"
#include "lib/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	diag_silent = !getenv("FUZZ_VERBOSE");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spec *s = NULL;
	int before = diag_error_count();

	if (spec_parse(&s, "fuzz.yaml", (const char *)data, size)) {
		if (diag_error_count() == before)
			abort();	/* an error must be reported */
		return 0;
	}
	spec_free(s);
	return 0;
}
