#!/bin/bash
# Unit tests (cmocka, tests/unit/unit.c) of globs, patterns, the field
# classifier, strbuf, escaping, guards, suggestions and filters, built and run
# under ASan and UBSan.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
clang -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
	-std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -D_GNU_SOURCE -DTPGEN_VERSION='"unit"' -Igen \
	tests/unit/unit.c gen/util.c gen/fileio.c gen/tracefs.c gen/tracefs_dir.c gen/fieldtype.c gen/select.c gen/emit_ctx.c gen/emit_ctx_text.c gen/emit_ctx_access.c gen/emit_ctx_sys.c gen/core_sys.c gen/json.c \
	gen/expr.c gen/expr_parse.c gen/expr_emit.c gen/cstring.c gen/spec.c gen/spec_diag.c gen/spec_entry.c gen/names.c gen/ident.c -lcmocka -lbpf -lyaml -lpthread -o "$T/unit" ||
	fail "building the unit tests failed"
ASAN_OPTIONS=detect_leaks=1 "$T/unit" || fail "unit tests failed"
