#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# A good neighbour to perf (issue 21): a program attached with 'tracepoint'
# that returned 0 made the kernel drop the event for every perf session on
# that tracepoint (perf stat counted 0 while the tool ran). While the tool of
# tests/spec/neighbour.yaml runs, 'perf stat' counts the events the test
# causes: 20000 getppid() calls and the switches of 5 naps, exactly as many
# as the tool counts, and as perf counts without the tool.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
command -v perf >/dev/null || skip "no perf"
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
"$TPGEN" tests/spec/neighbour.yaml -o "$out" || fail "tpgen tests/spec/neighbour.yaml"
make -s -C "$out/neighbour" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }
cc -O2 -Wall -Werror -o "$T/tpgen-getppid" tests/spec/getppid.c || fail "cc tests/spec/getppid.c"
cp "$(command -v sleep)" "$T/tpgen-nap" || fail "cp sleep"
cat >"$T/naps.sh" <<NAPS
for i in 1 2 3 4 5; do "$T/tpgen-nap" 0.02; done
NAPS

# perf stat of the workload's own events: "COUNT,,EVENT,..." lines (-x,)
perf_count() {	# perf_count EVENT CMD...
	local ev=$1
	shift
	perf stat -x, -e "$ev" -- "$@" 2>"$T/perf.err" >/dev/null || { cat "$T/perf.err"; fail "perf stat $*"; }
	awk -F, -v ev="$ev" '$3 == ev { print $1 }' "$T/perf.err"
}
bare_switches=$(perf_count sched:sched_switch bash "$T/naps.sh")
start neighbour
getppid=$(perf_count syscalls:sys_enter_getppid "$T/tpgen-getppid" 20000 1)
switches=$(perf_count sched:sched_switch bash "$T/naps.sh")
stop neighbour
echo "perf with the tool: $getppid getppid, $switches switches (without: $bare_switches)"
[ "$getppid" = 20000 ] || fail "perf counted $getppid of 20000 getppid() calls while the tool ran"
[ "$switches" -ge 5 ] 2>/dev/null || fail "perf counted '$switches' switches of 5 naps while the tool ran"
python3 - "$T/neighbour.out" <<'PY' || { cat "$T/neighbour.out"; fail "the tool did not count the calls"; }
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert [r["count"] for r in recs if r.get("comm") == "tpgen-getppid"] == [20000], recs
assert [r for r in recs if r.get("prev_comm") == "tpgen-nap" and r["count"] >= 5], recs
PY
echo ok
