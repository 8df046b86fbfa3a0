#!/bin/bash
# Unit tests (cmocka, tests/unit/unit.c) of globs, patterns, the field
# classifier, strbuf, escaping, guards, suggestions and filters, built and run
# under ASan and UBSan.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
clang -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
	-std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -D_GNU_SOURCE -DTPGEN_VERSION='"unit"' -Igen \
	tests/unit/unit.c gen/lib/util.c gen/lib/suggest.c gen/lib/term.c gen/lib/diag.c gen/input/fileio.c gen/out/write.c gen/input/tracefs.c gen/input/tracefs_dir.c gen/input/fieldtype.c gen/input/select.c gen/emit/emit_ctx.c gen/model/order.c gen/emit/emit_ctx_text.c gen/emit/emit_ctx_access.c gen/emit/emit_ctx_sys.c gen/model/core_sys.c gen/lib/json.c \
	gen/model/expr.c gen/input/expr_parse.c gen/emit/expr_emit.c gen/lib/cstring.c gen/input/spec.c gen/input/spec_diag.c gen/input/spec_entry.c gen/input/spec_yaml.c gen/input/spec_param.c gen/model/names.c gen/lib/ident.c -lcmocka -lbpf -lyaml -lpthread -o "$T/unit" ||
	fail "building the unit tests failed"
ASAN_OPTIONS=detect_leaks=1 "$T/unit" || fail "unit tests failed"
