#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The kernel runs one tracing program at a time per CPU: an event that fires
# inside another BPF program is skipped for ours, and counted. Here each
# getppid() of tpgen-getppid runs another program for milliseconds
# (tests/nested/busy.bpf.c); the timer interrupts meanwhile fire
# timer:hrtimer_expire_entry inside it. The tool (tests/nested/nested.yaml)
# counts the calls, and says at exit how many events it missed, as the kernel
# counted them (some, where it said nothing before), and so do its metrics.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

N=300
out=$T/out
"$TPGEN" tests/nested/nested.yaml -o "$out" || fail "tpgen tests/nested/nested.yaml"
make -s -C "$out/nested" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }
cc -O2 -Wall -Werror -o "$T/tpgen-getppid" tests/spec/getppid.c || fail "cc tests/spec/getppid.c"
cc -O2 -Wall -Werror -o "$T/busy" tests/nested/busy.c -lbpf || fail "cc tests/nested/busy.c"
clang -O2 -g -target bpf -I"/usr/include/$(gcc -dumpmachine)" -Wall -Werror \
	-c tests/nested/busy.bpf.c -o "$T/busy.bpf.o" || fail "clang tests/nested/busy.bpf.c"

# the other program, held until its stdin closes
coproc BUSY { exec "$T/busy" "$T/busy.bpf.o"; }
read -r -t 10 ready <&"${BUSY[0]}"
[ "$ready" = ready ] || fail "the busy program did not attach"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
start nested --metrics 127.0.0.1:$port
"$T/tpgen-getppid" $N 1 || fail "tpgen-getppid"
curl -sf "http://127.0.0.1:$port/metrics" >"$T/scrape" || fail "no scrape"
stop nested
eval "exec ${BUSY[1]}>&-"
wait

cat "$T/nested.err"
python3 - "$T/nested.out" "$T/nested.err" $N <<'PY' || fail "the events the kernel skipped were not reported"
import json, re, sys
n = int(sys.argv[3])
rows = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    rows[r.get("agg")] = r
calls = rows.get("calls", {}).get("count", 0)
m = re.search(r"^(\d+) events missed: another BPF program was running on their CPU$",
              open(sys.argv[2]).read(), re.M)
missed = int(m.group(1)) if m else 0
print("calls", calls, "expiries", rows.get("expiries", {}).get("count", 0), "missed", missed)
sys.exit(0 if calls == n and missed > 0 else 1)
PY
# and for Prometheus, by then (the kernel's count only grows)
scraped=$(sed -n 's/^nested_lost_total{reason="nested"} //p' "$T/scrape")
echo "scraped nested_lost_total{reason=\"nested\"} $scraped"
[ "${scraped:-0}" -gt 0 ] || fail "the metrics do not count the events the kernel skipped"
echo ok
