# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# B7 --metrics: the time of a scrape of 10,000 series (tests/metrics/manykeys.yaml,
# opens of 10,000 distinct paths), and the exporter's CPU while Prometheus-like
# scrapes come every second, against the same time unscraped.
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
