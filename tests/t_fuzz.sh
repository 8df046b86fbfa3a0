#!/bin/bash
# Every fuzzer (format reader, spec loader, expression compiler) runs for a bounded
# time (FUZZ_SECONDS, default 20) from its seed corpus with no finding.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
tests/fuzz/run.sh "$T" || fail "a fuzzer found a crash, leak or undefined behaviour"
