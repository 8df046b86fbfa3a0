#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# A saved value keeps its print fmt decoder (issue 21: SPIN|WRITE became 5
# through save/join). tests/spec/savedfmt.yaml saves sched_switch's
# prev_state, joins it at the wakeup, and prints it beside the field as the
# switch shows it. The test runs 'tpgen-nap' (sleep) a few times: each of its
# switches to sleep is S; the joined state must carry the same names as the
# field ("state_name" in JSON, the name in text), as a print and as a key.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
"$TPGEN" tests/spec/savedfmt.yaml -o "$out" || fail "tpgen tests/spec/savedfmt.yaml"
make -s -C "$out/savedfmt" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }
cp "$(command -v sleep)" "$T/tpgen-nap" || fail "cp sleep"
naps() { for i in 1 2 3 4; do "$T/tpgen-nap" 0.05; done; }

start savedfmt
naps
stop savedfmt
python3 - "$T/savedfmt.out" <<'PY' || { cat "$T/savedfmt.out"; fail "the joined state is not named as the field is"; }
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
direct = [r for r in recs if r.get("event") == "sched/sched_switch"]
joined = [r for r in recs if r.get("event") == "sched/sched_wakeup"]
counts = [r for r in recs if "counts" in r or "agg" in r]
names = {r["state"]: r["state_name"] for r in direct}
assert len(joined) >= 4 and names, (joined, direct)
for r in joined:
    assert r["state_name"] is not None and r["state_name"] == names[r["state"]], r
assert "S" in {r["state_name"] for r in joined}, joined
assert counts and all(c["state_name"] == names[c["state"]] for c in counts), counts
PY
"$out/savedfmt/savedfmt" >"$T/text.out" 2>"$T/text.err" &
pid=$!
for i in $(seq 100); do grep -q '^Tracing' "$T/text.err" && break; sleep 0.1; done
naps
sleep 0.3
kill -INT $pid
wait $pid || fail "savedfmt (text) exited $?"
grep -Eq '^[0-9:]+ +sched/sched_wakeup +pid=[0-9]+ state=S$' "$T/text.out" ||
	{ cat "$T/text.out"; fail "text: the joined state is not S"; }
echo ok
