#!/bin/bash
# Hostile names through every emitter: every byte value and payloads such as
# '*/', '"', '\', newline, '%', ':', '$', very long names, in tracefs system,
# event and field names, type and array text, release lines, BTF tracepoint,
# struct and argument names, and the paths a depfile names; through headers,
# headers --raw, list, diff and depfiles. Each is refused with one located
# error (exit 1, nothing written) or compiles, for bpf and the host, to
# exactly the structs tpgen lists -- checked in the object's debug info and
# symbols -- and make reads the depfile back. See tests/hostile/hostile.py.
# tpgen-timeout: 900
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
command -v llvm-dwarfdump >/dev/null || fail "llvm-dwarfdump is missing (package llvm-14)"
python3 tests/hostile/hostile.py "$T/w" || fail "a hostile name got through"
