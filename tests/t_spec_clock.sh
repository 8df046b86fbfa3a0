#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# One clock per event (tests/spec/oneclock.yaml): 'time' is read once, at the
# top of the event's program, and every entry and every use on the event sees
# that one value:
#  - two entries on sched_switch save time under the CPU; the next switch there
#    joins both: their difference is 0 on every row (it was the nanoseconds
#    between two bpf_ktime_get_ns() calls);
#  - min and max of 'time - woken.ts', keyed by the wakeup's time (one sample
#    a row): min == max on every row of one sample.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
"$TPGEN" tests/spec/oneclock.yaml -o "$out" || fail "tpgen tests/spec/oneclock.yaml"
make -s -C "$out/oneclock" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }

start oneclock
for i in 1 2 3 4 5; do sleep 0.01; done
stop oneclock

expect oneclock '^\{"agg":"two entries","diff":0,"count":[1-9]' "row of the two entries' saves with no difference"
expect_not oneclock '^\{"agg":"two entries","diff":[1-9]' "the two entries on one event saw different times"
expect oneclock '^\{"agg":"one sample","ts":[0-9]+,"count":1,' "row of one sample"
python3 - "$T/oneclock.out" <<'PY' || fail "min and max of one sample differ"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{"agg":"one sample"')]
bad = [r for r in rows if r["count"] == 1 and r["min"] != r["max"]]
for r in bad[:5]:
    print("one sample, min != max:", r)
sys.exit(1 if bad else 0)
PY
echo ok
