#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Interval output (issue 21): with -T each interval's summary is headed by
# its time, in JSON as each row's "time"; -r shows counts per second of the
# interval. tests/spec/intervals.yaml counts getppid() calls of
# tests/spec/getppid.c (3 bursts of 20000, 0.6 s apart) in a count and a
# histogram: under -i 1 -T -r every row carries its interval's time (one a
# second), the count is "count_per_s", and count_per_s over the histogram's
# count of the same interval is 1 / the interval's length (0.5 to 1.6 s);
# the rates times their intervals add up to the 60000 calls. Text: a time
# line before each summary, a COUNT/s column.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
"$TPGEN" tests/spec/intervals.yaml -o "$out" || fail "tpgen tests/spec/intervals.yaml"
make -s -C "$out/intervals" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }
cc -O2 -Wall -Werror -o "$T/tpgen-getppid" tests/spec/getppid.c || fail "cc tests/spec/getppid.c"
"$out/intervals/intervals" --help | grep -q -- '-r, --rate' || fail "--help has no -r"

start intervals -i 1 -T -r
"$T/tpgen-getppid" 20000 3 || fail "tpgen-getppid"
sleep 1.2
stop intervals
python3 - "$T/intervals.out" <<'PY' || { cat "$T/intervals.out"; fail "JSON intervals"; }
import json, sys, datetime
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows and all("time" in r for r in rows), rows
by_time = {}
for r in rows:
    by_time.setdefault(r["time"], {})["agg" if "agg" in r else "hist"] = r
calls, n = 0.0, 0
for t, g in by_time.items():
    if "agg" not in g:
        continue
    assert "count" not in g["agg"], g
    rate = g["agg"]["count_per_s"]
    hist = sum(b["count"] for b in g["hist"]["buckets"])
    period = hist / rate
    assert 0.5 < period < 1.6, (t, rate, hist, period)
    calls += rate * period
    n += 1
assert n >= 2 and round(calls) == 60000, (n, calls)
times = sorted(datetime.datetime.strptime(t, "%H:%M:%S") for t in by_time)
assert all(0 < (b - a).seconds <= 2 for a, b in zip(times, times[1:])), times
PY
"$out/intervals/intervals" -T -r 1 2 >"$T/text.out" 2>"$T/text.err" &
pid=$!
for i in $(seq 100); do grep -q '^Tracing' "$T/text.err" && break; sleep 0.1; done
"$T/tpgen-getppid" 20000 2 || fail "tpgen-getppid"
wait $pid || fail "intervals -T -r 1 2 exited $?"
grep -qE '^ +COUNT/s$' "$T/text.out" || { cat "$T/text.out"; fail "text: no COUNT/s column"; }
[ "$(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2} *$' "$T/text.out")" = 2 ] || { cat "$T/text.out"; fail "text: no time line per interval"; }
echo ok
