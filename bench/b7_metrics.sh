# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# B7 --metrics: the time of a scrape of 10,000 series (tests/metrics/manykeys.yaml,
# opens of 10,000 distinct paths), and the exporter's CPU while Prometheus-like
# scrapes come every second, against the same time unscraped. Then what a
# histogram's _sum costs the BPF program: tests/metrics/ppidlat.yaml's program
# on sys_exit_getppid (two histograms by comm), without --metrics (the verifier
# dropped the add) and with, BENCH_B7_CALLS (300000) getppid() calls a run,
# BENCH_B7_RUNS (5) interleaved rounds: its run_time_ns / run_cnt
# (kernel.bpf_stats_enabled) and its length as the verifier passed it.
#
# bash bench/b7_metrics.sh (results in out/bench/b7.json), or from make bench.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	cd "$(dirname "$0")/.." || exit 1
	. bench/lib.sh
	mkdir -p "$OUT"
	bench_env_check
	B7_ALONE=1
fi
S=${BENCH_B7_SCRAPES:-20}
W=${BENCH_B7_SECONDS:-10}
echo "B7 metrics: a scrape of 10,000 series ($S scrapes), CPU scraped every second for ${W}s"
d=$OUT/metrics
rm -rf "$d" && mkdir -p "$d"
cc -O2 -Wall -Wextra -Werror -o "$d/work" tests/metrics/work.c || die "building tests/metrics/work.c failed"
"$TPGEN" tests/metrics/manykeys.yaml -o "$d" >/dev/null && make -s -C "$d/manykeys" >/dev/null 2>&1 ||
	die "building manykeys failed"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$d/manykeys/manykeys" --metrics "$port" --metrics-max-series 20000 -c tpgm-bench >/dev/null 2>"$d/tool.err" &
TOOL=$!
for ((i = 0; i < 200; i++)); do grep -q Tracing "$d/tool.err" 2>/dev/null && break; sleep 0.05; done
"$d/work" tpgm-bench 0 10000 10000 || die "the workload failed"
series=$(curl -sf "http://127.0.0.1:$port/metrics" | grep -c '^manykeys_sys_enter_openat_counts_total{filename=')
bytes=$(curl -sf "http://127.0.0.1:$port/metrics" | wc -c)
times=()
for ((i = 0; i < S; i++)); do
	times+=("$(curl -sf -o /dev/null -w '%{time_total}' "http://127.0.0.1:$port/metrics")")
done
scrape=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "%.4f", a[int((NR + 1) / 2)] }')
smax=$(printf '%s\n' "${times[@]}" | sort -n | tail -1)
# utime + stime of the tool, in clock ticks
ticks() { awk '{ print $14 + $15 }' "/proc/$TOOL/stat"; }
hz=$(getconf CLK_TCK)
t0=$(ticks)
sleep "$W"
t1=$(ticks)
for ((i = 0; i < W; i++)); do curl -sf -o /dev/null "http://127.0.0.1:$port/metrics"; sleep 1; done
t2=$(ticks)
kill -INT $TOOL; wait $TOOL
idle=$(awk -v t="$((t1 - t0))" -v hz="$hz" -v w="$W" 'BEGIN { printf "%.2f", 100 * t / hz / w }')
busy=$(awk -v t="$((t2 - t1))" -v hz="$hz" -v w="$W" 'BEGIN { printf "%.2f", 100 * t / hz / w }')
echo "  $series series, $bytes bytes: a scrape takes ${scrape}s (median of $S, max ${smax}s)"
echo "  the exporter's CPU: ${idle}% unscraped, ${busy}% scraped every second"
json_row bench=B7 name="metrics scrape" series="$series" bytes="$bytes" scrape_seconds="$scrape" \
	scrape_max_seconds="$smax" cpu_idle_percent="$idle" cpu_scraped_percent="$busy"
echo

# "bytes_xlated run_time_ns run_cnt" of PID's program NAME
b7_prog() {
	local ids fd
	ids=$(for fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" = "anon_inode:bpf-prog" ] &&
			awk '/^prog_id:/ { print $2 }' "/proc/$1/fdinfo/${fd##*/}"
	done | tr '\n' ' ')
	bpftool prog show -j 2>/dev/null | python3 -c '
import json, sys
ids, name = set(sys.argv[1].split()), sys.argv[2]
for p in json.load(sys.stdin):
    if str(p["id"]) in ids and p.get("name") == name:
        print(p["bytes_xlated"], p.get("run_time_ns", 0), p.get("run_cnt", 0))' "$ids" "$2"
}
B7_CALLS=${BENCH_B7_CALLS:-300000}
B7_RUNS=${BENCH_B7_RUNS:-5}
"$TPGEN" tests/metrics/ppidlat.yaml -o "$d" >/dev/null && make -s -C "$d/ppidlat" >/dev/null 2>&1 ||
	die "building ppidlat failed"
B7_STATS_WAS=$(sysctl -n kernel.bpf_stats_enabled)
sysctl -q kernel.bpf_stats_enabled=1
declare -A B7_NS B7_LEN
for ((r = -1; r < B7_RUNS; r++)); do	# round -1: a warm-up, not counted
	for v in plain metrics; do
		port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		if [ $v = metrics ]; then
			"$d/ppidlat/ppidlat" --metrics "$port" >/dev/null 2>"$d/tool.err" &
		else
			"$d/ppidlat/ppidlat" >/dev/null 2>"$d/tool.err" &
		fi
		TOOL=$!
		for ((i = 0; i < 200; i++)); do grep -q Tracing "$d/tool.err" 2>/dev/null && break; sleep 0.05; done
		read -r len s0 c0 <<<"$(b7_prog $TOOL handle_sys_exit_getppid)"
		"$d/work" tpgm-b7 "$B7_CALLS" 0 || die "the workload failed"
		read -r len s1 c1 <<<"$(b7_prog $TOOL handle_sys_exit_getppid)"
		kill -INT $TOOL; wait $TOOL
		[ $r -ge 0 ] || continue
		B7_LEN[$v]=$len
		B7_NS[$v]+=" $(awk -v a="$s0" -v b="$s1" -v c="$c0" -v d="$c1" 'BEGIN { if (d > c) printf "%.1f", (b - a) / (d - c); else print "nan" }')"
	done
done
sysctl -q kernel.bpf_stats_enabled="$B7_STATS_WAS"
echo "B7 a histogram's _sum: ppidlat's sys_exit_getppid program, $B7_CALLS getppid() calls, $B7_RUNS rounds"
for v in plain metrics; do
	ns=$(tr ' ' '\n' <<<"${B7_NS[$v]}" | grep -v -e '^$' -e nan | sort -g | stats)
	read -r med lo hi <<<"$ns"
	printf '  %-18s %5s bytes of BPF, %6.1f ns a run (median; %.1f..%.1f)\n' \
		"$([ $v = metrics ] && echo with --metrics: || echo without --metrics:)" "${B7_LEN[$v]}" "$med" "$lo" "$hi"
	json_row bench=B7 name="histogram sum" metrics=$([ $v = metrics ] && echo true || echo false) \
		bytes_xlated="${B7_LEN[$v]}" bpf_ns_per_run="$med"
done
echo
if [ -n "${B7_ALONE:-}" ]; then
	(OUT=$d json_write) && mv "$d/results.json" "$OUT/b7.json" && echo "results: $OUT/b7.json"
fi
