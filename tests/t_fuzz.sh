#!/bin/bash
# Every fuzzer under ASan and UBSan -- the parsers (format reader, spec loader,
# expression compiler) and the emitters with hostile names (ctx headers from odd
# trees and releases, raw headers from odd BTF: the token shape of the output
# must not depend on the names), and a whole 'tpgen SPEC' (fuzz_generate: the
# resolver and every emitter of the pair), and the ELF files a loader reads
# for stack symbols (fuzz_syms_elf) -- for a bounded FUZZ_SECONDS (8) each, from
# its seed corpus, with no finding. 'make fuzz' runs them longer.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
make --no-print-directory -s build/templates.c || fail "make build/templates.c failed"
FUZZ_SECONDS=${FUZZ_SECONDS:-8} tests/fuzz/run.sh "$T" || fail "a fuzzer found a crash, leak or undefined behaviour"
