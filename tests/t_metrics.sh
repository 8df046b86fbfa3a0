#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# tpgen-timeout: 300
# --metrics against a real Prometheus (Debian's prometheus, on loopback, its
# storage in the test's directory, scraping every second): specs/syscalls.yaml
# (with -i 1, whose resets must not reach the counters), specs/runqlat.yaml,
# specs/hardirqs.yaml and tests/metrics/ppidlat.yaml (log2 and linear
# histograms keyed by comm) run as exporters while tests/metrics/work.c, under
# a name of its own, makes N getppid() calls and M opens failing with ENOENT,
# then again under a hostile name (quote, newline, a byte that is not UTF-8).
# A second program (another name) writes 1..W bytes and makes R pipe round
# trips with a child: the histograms' _sum are its bytes, runqlat (-c on it)
# has a _sum its buckets allow, and without --metrics the program that adds
# to the sums is shorter (the verifier dropped the add). tests/metrics/offcpu.yaml
# exports its kernel stacks as labels (metrics: { stacks: folded }): with -f -c
# on that program, Prometheus' stacks and times must be what -f prints at exit.
# A client that connects and sends nothing stays connected throughout.
# PromQL answers must equal the workload and the tools' own -j output;
# promtool must accept every scrape. Prometheus (2.42 asks for OpenMetrics
# first) must have scraped OpenMetrics (units and the info family in its
# metadata), whose series and values are the 0.0.4 scrape's.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"
command -v prometheus >/dev/null && command -v promtool >/dev/null ||
	skip "prometheus is not installed (make check installs it)"

out=$T/out
for s in specs/syscalls.yaml specs/runqlat.yaml specs/hardirqs.yaml tests/metrics/ppidlat.yaml tests/metrics/offcpu.yaml; do
	"$TPGEN" "$s" -o "$out" >/dev/null || fail "tpgen $s"
done
for t in syscount runqlat hardirqs ppidlat offcpu; do
	make -s -C "$out/$t" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $t"; }
done
cc -O2 -Wall -Werror -o "$T/work" tests/metrics/work.c || fail "cc tests/metrics/work.c"

# free loopback ports: one for Prometheus, one per tool
read -r pport p1 p2 p3 p4 p5 < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(6)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')

pids=()
cleanup() { for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT

# run TOOL PORT ARGS...: the tool as an exporter, -j (or $fmt) into $T/TOOL.out
run() {
	local tool=$1 port=$2 i
	shift 2
	"$out/$tool/$tool" "${fmt:--j}" --metrics "$port" "$@" >"$T/$tool.out" 2>"$T/$tool.err" &
	eval "pid_$tool=$!"
	pids+=($!)
	for i in $(seq 100); do
		grep -q '^Tracing' "$T/$tool.err" && return 0
		sleep 0.1
	done
	cat "$T/$tool.err"
	fail "$tool did not start"
}
comm=tpgm$$ wcomm=tpgm$$w
# every (pid, comm) of a busy machine its own series: none folded into other="true"
run syscount "$p1" -i 1 --metrics-max-series 20000
# the run-queue latency of the second workload's tasks alone: still once they have exited
run runqlat "127.0.0.1:$p2" -c "$wcomm"
run hardirqs "$p3"
run ppidlat "$p4"
# the second workload's time off the CPU by kernel stack, the stacks as labels; -f at exit
fmt=-f run offcpu "$p5" -c "$wcomm"
grep -q "Serving metrics on http://127.0.0.1:$p1/metrics" "$T/syscount.err" || fail "syscount: no 'Serving' line"

# a client that connects and sends nothing, for the whole test
python3 -c "import socket, time; s = socket.create_connection(('127.0.0.1', $p1)); time.sleep(60)" &
pids+=($!)

cat >"$T/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: syscount
    static_configs: [ { targets: [ '127.0.0.1:$p1' ] } ]
  - job_name: runqlat
    static_configs: [ { targets: [ '127.0.0.1:$p2' ] } ]
  - job_name: hardirqs
    static_configs: [ { targets: [ '127.0.0.1:$p3' ] } ]
  - job_name: ppidlat
    static_configs: [ { targets: [ '127.0.0.1:$p4' ] } ]
  - job_name: offcpu
    static_configs: [ { targets: [ '127.0.0.1:$p5' ] } ]
YML
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/tsdb" \
	--web.listen-address="127.0.0.1:$pport" >"$T/prometheus.log" 2>&1 &
pids+=($!)
for i in $(seq 100); do
	curl -sf "http://127.0.0.1:$pport/-/ready" >/dev/null && break
	sleep 0.2
done
curl -sf "http://127.0.0.1:$pport/-/ready" >/dev/null || { tail "$T/prometheus.log"; fail "prometheus not ready"; }

# scraped_after TIME: every job scraped (up == 1) at a time after TIME, within 30 s
scraped_after() {
	python3 - "http://127.0.0.1:$pport" "$1" <<'PY'
import json, sys, time, urllib.parse, urllib.request
base, after = sys.argv[1], float(sys.argv[2])
for _ in range(150):
    url = base + "/api/v1/query?" + urllib.parse.urlencode({"query": "timestamp(up == 1)"})
    r = json.load(urllib.request.urlopen(url))["data"]["result"]
    if len(r) == 5 and min(float(x["value"][1]) for x in r) > after:
        sys.exit(0)
    time.sleep(0.2)
sys.exit(1)
PY
}
scraped_after 0 || fail "Prometheus did not scrape the five exporters in 30 s"

N=20000 M=321 K=7 W=300 R=200
"$T/work" "$comm" $N $M || fail "workload"
"$T/work" "$wcomm" 0 0 1 $W $R || fail "write and pipe workload"
"$T/work" 'q"u\nx\xff' 1000 $K || fail "hostile workload"
dd if=/dev/zero of="$T/io" bs=4k count=64 oflag=direct status=none
sleep 0.3	# the ring buffer's and the exit's last events
scraped_after "$(date +%s.%N)" || fail "Prometheus did not scrape after the workload in 30 s"

# every exporter's scrape, as it is now, through promtool
for port in $p1 $p2 $p3 $p4 $p5; do
	curl -sf --max-time 5 "http://127.0.0.1:$port/metrics" >"$T/scrape.$port" ||
		fail "scrape of :$port failed with the silent client connected"
	promtool check metrics <"$T/scrape.$port" >"$T/promtool.$port" 2>&1 ||
		{ cat "$T/promtool.$port"; fail "promtool rejects the scrape of :$port"; }
done
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$p1/nothing")" = 404 ] || fail "not 404"
# Prometheus asked for OpenMetrics and got it: the families' metadata it keeps has their
# units (# UNIT, OpenMetrics only) and build_info's family is an info one
python3 - "http://127.0.0.1:$pport" <<'PY' || fail "Prometheus did not scrape OpenMetrics"
import json, sys, urllib.parse, urllib.request
url = sys.argv[1] + "/api/v1/targets/metadata?" + urllib.parse.urlencode({"match_target": '{job="ppidlat"}'})
md = {m["metric"]: m for m in json.load(urllib.request.urlopen(url))["data"]}
for name, typ, unit in (("ppidlat_getppid_latency_seconds", "histogram", "seconds"),
                        ("ppidlat_write_size_bytes", "histogram", "bytes"),
                        ("ppidlat_getppid_time_sum_seconds", "counter", "seconds"),
                        ("ppidlat_build", "info", "")):
    print(name, md.get(name))
    assert md[name]["type"] == typ and md[name]["unit"] == unit, name
PY
# the same series in both formats, with the same values, once the workload is over
curl -sf -H 'Accept: application/openmetrics-text; version=1.0.0' "http://127.0.0.1:$p4/metrics" >"$T/ppidlat.om" &&
	curl -sf "http://127.0.0.1:$p4/metrics" >"$T/ppidlat.prom" || fail "scrapes of ppidlat"
/usr/bin/python3 - "$T/ppidlat.prom" "$T/ppidlat.om" "$comm" "$wcomm" <<'PY' || fail "0.0.4 and OpenMetrics disagree"
import sys
from prometheus_client.parser import text_string_to_metric_families as text
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
def series(fams):
    return {(s.name, tuple(sorted(s.labels.items()))): s.value for f in fams for s in f.samples
            if s.labels.get("comm") in sys.argv[3:]}
t, o = series(text(open(sys.argv[1]).read())), series(om(open(sys.argv[2]).read()))
print(len(t), "series of the workloads in 0.0.4,", len(o), "in OpenMetrics")
assert t and t == o, sorted(set(t.items()) ^ set(o.items()))[:5]
PY
# runqlat's keyless histogram (a global of the program, added to with atomics): its
# _sum within what its buckets allow, the workload's tasks alone, which have exited
python3 - "$T/scrape.$p2" <<'PY' || fail "runqlat's _sum and its buckets disagree"
import sys
le, cum, s = [], [], None
for l in open(sys.argv[1]):
    if l.startswith("runqlat_run_queue_latency_seconds_bucket{"):
        b = l.split('le="')[1].split('"')[0]
        if b != "+Inf":
            le.append(float(b))
            cum.append(int(l.split()[-1]))
    elif l.startswith("runqlat_run_queue_latency_seconds_sum "):
        s = float(l.split()[-1])
lo = hi = 0
for i in range(len(le)):
    c = cum[i] - (cum[i - 1] if i else 0)
    lo += c * (le[i - 1] if i else 0)
    hi += c * le[i]
print("runqlat: _sum", s, "buckets allow", lo, "to", hi, "of", cum[-1] if cum else 0, "samples")
assert s is not None and cum and cum[-1] > 0 and lo <= s < hi * (1 + 1e-9)
PY
# without --metrics the sum's add is not in the program the verifier passed: fewer instructions
"$out/ppidlat/ppidlat" -d 3 >/dev/null 2>"$T/plain.err" &
plain=$!
pids+=($plain)
sleep 1.5
bpftool -j prog show >"$T/progs.json" || fail "bpftool prog show"
python3 - "$T/progs.json" "$pid_ppidlat" "$plain" <<'PY' || fail "the _sum's add is there without --metrics"
import json, os, sys
progs = json.load(open(sys.argv[1]))
def xlated(pid):
    # the programs the process holds: the prog_id of its file descriptors
    ids = set()
    for fd in os.listdir(f"/proc/{pid}/fdinfo"):
        for l in open(f"/proc/{pid}/fdinfo/{fd}"):
            if l.startswith("prog_id:"):
                ids.add(int(l.split()[1]))
    r = [p["bytes_xlated"] for p in progs if p.get("name") == "handle_sys_exit_getppid" and p["id"] in ids]
    assert len(r) == 1, (pid, r)
    return r[0]
served, plain = xlated(sys.argv[2]), xlated(sys.argv[3])
print("sys_exit_getppid's program:", served, "bytes with --metrics,", plain, "without")
assert plain < served
PY
wait $plain || fail "ppidlat without --metrics"
curl -s "http://127.0.0.1:$p1/" | grep -q 'href="/metrics"' || fail "/ has no link to /metrics"

python3 - "http://127.0.0.1:$pport" "$comm" "$wcomm" $N $M $K $W $R <<'PY' || fail "PromQL and the workload disagree"
import json, sys, urllib.parse, urllib.request
base, comm, wcomm, n, m, k, w, r = sys.argv[1], sys.argv[2], sys.argv[3], *map(int, sys.argv[4:])
def q(expr):
    url = base + "/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    r = json.load(urllib.request.urlopen(url))
    assert r["status"] == "success", r
    return r["data"]["result"]
def one(expr):
    r = q(expr)
    assert len(r) == 1, (expr, r)
    return float(r[0]["value"][1])
def eq(what, got, want):
    print(f"{what}: {got} (want {want})")
    if got != want:
        sys.exit(1)
for job in ("syscount", "runqlat", "hardirqs", "ppidlat", "offcpu"):
    eq(f"up{{job={job}}}", one(f'up{{job="{job}"}}'), 1)
eq("failed opens", one(f'syscount_sys_exit_counts_total{{comm="{comm}",syscall="openat",errno="ENOENT"}}'), m)
# its calls after the rename: N getppid, M openat, and prctl's return
eq("calls by process", one(f'sum(syscount_syscalls_by_process_time_total{{comm="{comm}"}})'), n + m + 1)
eq("getppid samples (log2)", one(f'ppidlat_getppid_latency_seconds_count{{comm="{comm}"}}'), n)
eq("getppid samples (+Inf)", one(f'ppidlat_getppid_latency_seconds_bucket{{comm="{comm}",le="+Inf"}}'), n)
eq("getppid samples (linear)", one(f'ppidlat_getppid_latency_linear_seconds_count{{comm="{comm}"}}'), n)
# the histograms' _sum: the bytes written (W writes of 1..W bytes, and the R round trips'
# 1-byte writes of the process and its child), exactly, in the log2 and the linear one
for h in ("ppidlat_write_size_bytes", "ppidlat_write_size_linear"):
    eq(f"{h}_sum", one(f'{h}_sum{{comm="{wcomm}"}}'), w * (w + 1) // 2 + 2 * r)
    eq(f"{h}_count", one(f'{h}_count{{comm="{wcomm}"}}'), w + 2 * r)
# the latency's _sum: what the table summing the same value per key has
lat = one(f'ppidlat_getppid_latency_seconds_sum{{comm="{comm}"}}')
tot = one(f'ppidlat_getppid_time_sum_seconds_total{{comm="{comm}"}}')
print("getppid latency _sum", lat, "summed", tot)
assert lat > 0 and abs(lat - tot) <= 1e-9 * tot, (lat, tot)
assert 0 < one(f'ppidlat_getppid_latency_linear_seconds_sum{{comm="{comm}"}}') <= lat
p50 = one(f'histogram_quantile(0.5, ppidlat_getppid_latency_seconds_bucket{{comm="{comm}"}})')
print("getppid p50", p50)
assert 0 < p50 < 0.01, p50
# the hostile name: one series, its label as sent, escaped back by Prometheus
r = [s for s in q('syscount_sys_exit_counts_total{syscall="openat",errno="ENOENT"}')
     if s["metric"]["comm"] == 'q"u\nx\\xff']
eq("hostile name's failed opens", [float(s["value"][1]) for s in r], [k])
assert one('sum(runqlat_run_queue_latency_seconds_count)') > 0
assert one('sum(hardirqs_hard_irq_time_total)') > 0
assert one('syscount_lost_total{reason="map_full"}') == 0
PY

# the tools' own numbers at exit (SIGINT: exit 0) against Prometheus' before it
before=$(date +%s.%N)
for t in syscount runqlat hardirqs ppidlat offcpu; do
	eval "p=\$pid_$t"
	kill -INT "$p"
	wait "$p" || { cat "$T/$t.err"; fail "$t exited $? after SIGINT"; }
done
python3 - "http://127.0.0.1:$pport" "$comm" $N $M "$T" "$before" <<'PY' || fail "-j and Prometheus disagree"
import json, sys, urllib.parse, urllib.request
base, comm, n, m, T, at = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
def one(expr):
    url = base + "/api/v1/query?" + urllib.parse.urlencode({"query": expr, "time": at})
    r = json.load(urllib.request.urlopen(url))["data"]["result"]
    assert len(r) == 1, (expr, r)
    return float(r[0]["value"][1])
rows = [json.loads(l) for l in open(T + "/syscount.out")]
# -i 1: the intervals' failed opens of comm add up to the workload's, as Prometheus' counter does
fo = sum(r["count"] for r in rows if r.get("counts") == "raw_syscalls/sys_exit" and r.get("comm") == comm
         and r.get("id_name") == "openat" and r.get("ret_name") == "ENOENT")
print("failed opens, -j intervals:", fo)
assert fo == m == one(f'syscount_sys_exit_counts_total{{comm="{comm}",syscall="openat",errno="ENOENT"}}')
bp = [r for r in rows if r.get("agg") == "syscalls by process (time in ns)" and r.get("comm") == comm]
c = sum(r["count"] for r in bp)
s = sum(r["sum"] for r in bp)
ps = one(f'sum(syscount_syscalls_by_process_time_sum_seconds_total{{comm="{comm}"}})')
print("by process, -j:", c, s, "ns; prometheus:", ps, "s")
# the table has 'top: 20': an interval where the process made few calls may leave it out
assert c <= n + m + 1 and s <= ps * 1e9 * (1 + 1e-9) + 1
if c == n + m + 1:
    assert abs(ps * 1e9 - s) <= 1e-6 * s + 1
rows = [json.loads(l) for l in open(T + "/ppidlat.out")]
h = [r for r in rows if r.get("hist") == "getppid latency" and r.get("comm") == comm]
assert len(h) == 1 and sum(b["count"] for b in h[0]["buckets"]) == n
# the histogram's _sum, as the table summing the same value per key shows it
js = [r["sum"] for r in rows if r.get("agg") == "getppid time" and r.get("comm") == comm]
hs = one(f'ppidlat_getppid_latency_seconds_sum{{comm="{comm}"}}')
print("getppid latency: -j sum", js, "ns; _sum", hs, "s")
assert len(js) == 1 and abs(hs * 1e9 - js[0]) <= 1e-6 * js[0]
# each bucket, cumulated, as Prometheus has it
cum = 0
for b in h[0]["buckets"]:
    cum += b["count"]
    le = (b["high"] + 1) * 1e-9
    got = one(f'ppidlat_getppid_latency_seconds_bucket{{comm="{comm}",le="{le:.9g}"}}')
    assert got == cum, (b, got, cum)
print("log2 buckets agree with -j")
PY
# the stacks as labels: each the stack as -f folds it, with the same time, for every row of
# the workload's (rows of stacks that fold alike are one series, their times added)
python3 - "http://127.0.0.1:$pport" "$wcomm" "$T/offcpu.out" "$before" <<'PY' || fail "stack labels and -f disagree"
import json, sys, urllib.parse, urllib.request
base, comm, folded, at = sys.argv[1:]
url = base + "/api/v1/query?" + urllib.parse.urlencode(
    {"query": f'offcpu_off_cpu_time_sum_seconds_total{{comm="{comm}"}}', "time": at})
prom = {r["metric"]["kstack"]: round(float(r["value"][1]) * 1e6)
        for r in json.load(urllib.request.urlopen(url))["data"]["result"]}
f = {}
for l in open(folded):
    stack, v = l.rstrip("\n").rsplit(" ", 1)
    assert stack.startswith(comm + ";"), l
    stack = stack[len(comm) + 1:]
    f[stack] = f.get(stack, 0) + int(v)
print(len(prom), "stacks in Prometheus,", len(f), "in -f; the pipe's:",
      [(s.split(";")[-4:], v) for s, v in prom.items() if "pipe_read" in s])
assert prom == f, (sorted(set(prom.items()) ^ set(f.items())))[:4]
assert any("pipe_read;" in s for s in prom), "no stack of the pipe's reads"
PY
echo ok
