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
# A client that connects and sends nothing stays connected throughout.
# PromQL answers must equal the workload and the tools' own -j output;
# promtool must accept every scrape.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"
command -v prometheus >/dev/null && command -v promtool >/dev/null ||
	skip "prometheus is not installed (make check installs it)"

out=$T/out
for s in specs/syscalls.yaml specs/runqlat.yaml specs/hardirqs.yaml tests/metrics/ppidlat.yaml; do
	"$TPGEN" "$s" -o "$out" >/dev/null || fail "tpgen $s"
done
for t in syscount runqlat hardirqs ppidlat; do
	make -s -C "$out/$t" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $t"; }
done
cc -O2 -Wall -Werror -o "$T/work" tests/metrics/work.c || fail "cc tests/metrics/work.c"

# free loopback ports: one for Prometheus, one per tool
read -r pport p1 p2 p3 p4 < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(5)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')

pids=()
cleanup() { for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT

# run TOOL PORT ARGS...: the tool as an exporter, -j into $T/TOOL.out
run() {
	local tool=$1 port=$2 i
	shift 2
	"$out/$tool/$tool" -j --metrics "$port" "$@" >"$T/$tool.out" 2>"$T/$tool.err" &
	eval "pid_$tool=$!"
	pids+=($!)
	for i in $(seq 100); do
		grep -q '^Tracing' "$T/$tool.err" && return 0
		sleep 0.1
	done
	cat "$T/$tool.err"
	fail "$tool did not start"
}
run syscount "$p1" -i 1
run runqlat "127.0.0.1:$p2"
run hardirqs "$p3"
run ppidlat "$p4"
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
    if len(r) == 4 and min(float(x["value"][1]) for x in r) > after:
        sys.exit(0)
    time.sleep(0.2)
sys.exit(1)
PY
}
scraped_after 0 || fail "Prometheus did not scrape the four exporters in 30 s"

comm=tpgm$$
N=20000 M=321 K=7
"$T/work" "$comm" $N $M || fail "workload"
"$T/work" 'q"u\nx\xff' 1000 $K || fail "hostile workload"
dd if=/dev/zero of="$T/io" bs=4k count=64 oflag=direct status=none
sleep 0.3	# the ring buffer's and the exit's last events
scraped_after "$(date +%s.%N)" || fail "Prometheus did not scrape after the workload in 30 s"

# every exporter's scrape, as it is now, through promtool
for port in $p1 $p2 $p3 $p4; do
	curl -sf --max-time 5 "http://127.0.0.1:$port/metrics" >"$T/scrape.$port" ||
		fail "scrape of :$port failed with the silent client connected"
	promtool check metrics <"$T/scrape.$port" >"$T/promtool.$port" 2>&1 ||
		{ cat "$T/promtool.$port"; fail "promtool rejects the scrape of :$port"; }
done
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$p1/nothing")" = 404 ] || fail "not 404"
curl -s "http://127.0.0.1:$p1/" | grep -q 'href="/metrics"' || fail "/ has no link to /metrics"

python3 - "http://127.0.0.1:$pport" "$comm" $N $M $K <<'PY' || fail "PromQL and the workload disagree"
import json, sys, urllib.parse, urllib.request
base, comm, n, m, k = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
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
for job in ("syscount", "runqlat", "hardirqs", "ppidlat"):
    eq(f"up{{job={job}}}", one(f'up{{job="{job}"}}'), 1)
eq("failed opens", one(f'syscount_sys_exit_counts_total{{comm="{comm}",syscall="openat",errno="ENOENT"}}'), m)
# its calls after the rename: N getppid, M openat, and prctl's return
eq("calls by process", one(f'sum(syscount_syscalls_by_process_time_total{{comm="{comm}"}})'), n + m + 1)
eq("getppid samples (log2)", one(f'ppidlat_getppid_latency_seconds_count{{comm="{comm}"}}'), n)
eq("getppid samples (+Inf)", one(f'ppidlat_getppid_latency_seconds_bucket{{comm="{comm}",le="+Inf"}}'), n)
eq("getppid samples (linear)", one(f'ppidlat_getppid_latency_linear_seconds_count{{comm="{comm}"}}'), n)
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
for t in syscount runqlat hardirqs ppidlat; do
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
# each bucket, cumulated, as Prometheus has it
cum = 0
for b in h[0]["buckets"]:
    cum += b["count"]
    le = (b["high"] + 1) * 1e-9
    got = one(f'ppidlat_getppid_latency_seconds_bucket{{comm="{comm}",le="{le:.9g}"}}')
    assert got == cum, (b, got, cum)
print("log2 buckets agree with -j")
PY
echo ok
