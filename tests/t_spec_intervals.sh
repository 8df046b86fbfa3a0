#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Aggregations without a key (tests/spec/intervals.yaml: a count and a
# histogram) are globals of the BPF program, not maps: the generated C has no
# map for them, and with -i 1 the loader reads and zeroes them each interval.
# tests/spec/getppid.c makes 3 bursts of 20000 getppid() calls 0.6 s apart:
# the intervals' rows add up to exactly 60000 in both (nothing counted twice,
# nothing lost between a read and its reset), in more than one interval.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
"$TPGEN" tests/spec/intervals.yaml -o "$out" || fail "tpgen tests/spec/intervals.yaml"
make -s -C "$out/intervals" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }
grep -q '^struct calls_val calls = {};$' "$out/intervals/intervals.bpf.c" ||
	fail "the keyless count is not a global of the BPF program"
! grep -q 'BPF_MAP_TYPE' "$out/intervals/intervals.bpf.c" || fail "a keyless aggregation is still a map"
cc -O2 -Wall -Werror -o "$T/tpgen-getppid" tests/spec/getppid.c || fail "cc tests/spec/getppid.c"

start intervals -i 1
"$T/tpgen-getppid" 20000 3 || fail "tpgen-getppid"
sleep 1.2
stop intervals

python3 - "$T/intervals.out" <<'PY' || { cat "$T/intervals.out"; fail "the intervals do not add up to the calls made"; }
import json, sys
calls, hist, n = 0, 0, 0
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("agg") == "calls":
        calls += r["count"]
        n += 1
    elif r.get("hist") == "calls by cpu":
        hist += sum(b["count"] for b in r["buckets"])
print("calls", calls, "hist", hist, "intervals", n)
sys.exit(0 if calls == hist == 60000 and n >= 2 else 1)
PY
echo ok
