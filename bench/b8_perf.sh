# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# B8: what passing a tracepoint's event on to perf costs. A tp/ program's
# return value says whether the kernel goes on to perf's handling of the event
# (perf_trace_run_bpf_submit(): 0 drops it for every perf session); tpgen's
# programs return 1. The tool of bench/b8_neighbour.yaml (a count per getppid()
# call), as generated (returns 1) and edited to return 0, each alone and with
# 'perf stat -e syscalls:sys_enter_getppid' counting the workload: the BPF
# program's own time (kernel.bpf_stats_enabled: run_time_ns / run_cnt), the
# workload's time per call, and what perf counted. Interleaved rounds, medians.
#
# bash bench/b8_perf.sh (results in out/bench/b8.json); BENCH_B8_RUNS (5) rounds,
# BENCH_B8_CALLS (500000) getppid() calls per run.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	cd "$(dirname "$0")/.." || exit 1
	. bench/lib.sh
	mkdir -p "$OUT"
	bench_env_check
	B8_ALONE=1
fi
B8_RUNS=${BENCH_B8_RUNS:-5}
B8_CALLS=${BENCH_B8_CALLS:-500000}
B8=$OUT/b8
mkdir -p "$B8"

b8_prog_ids() {
	local fd
	for fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" = "anon_inode:bpf-prog" ] &&
			awk '/^prog_id:/ { print $2 }' "/proc/$1/fdinfo/${fd##*/}"
	done | tr '\n' ' '
}
# "run_time_ns run_cnt" summed over the programs IDS
b8_prog_stats() {
	bpftool prog show -j 2>/dev/null | python3 -c '
import json, sys
ids = set(sys.argv[1].split())
ns = cnt = 0
for p in json.load(sys.stdin):
    if str(p["id"]) in ids:
        ns += p.get("run_time_ns", 0)
        cnt += p.get("run_cnt", 0)
print(ns, cnt)' "$1"
}

b8_run() {
	local v p r pid i ids s0 c0 s1 c1 t0 t1 secs counted
	local -A NS SEC CNT

	cc -O2 -Wall -Wextra -Werror -pthread -o "$B8/b5_work" bench/b5_work.c || die "bench/b5_work.c"
	"$TPGEN" bench/b8_neighbour.yaml -o "$B8/ret1" >/dev/null && make -s -C "$B8/ret1/neighbour" >/dev/null ||
		die "generating bench/b8_neighbour.yaml"
	rm -rf "$B8/ret0" && cp -r "$B8/ret1" "$B8/ret0"
	sed -i 's/^\treturn 1;$/\treturn 0;/' "$B8/ret0/neighbour/neighbour.bpf.c"
	make -s -C "$B8/ret0/neighbour" >/dev/null || die "building the variant returning 0"
	B8_STATS_WAS=$(sysctl -n kernel.bpf_stats_enabled)
	sysctl -q kernel.bpf_stats_enabled=1
	for ((r = -1; r < B8_RUNS; r++)); do	# round -1: a warm-up, not counted
		for v in ret0 ret1; do
			for p in alone perf; do
				"$B8/$v/neighbour/neighbour" >"$B8/tool.out" 2>"$B8/tool.err" &
				pid=$!
				for ((i = 0; i < 200; i++)); do
					grep -q '^Tracing' "$B8/tool.err" && break
					sleep 0.05
				done
				ids=$(b8_prog_ids $pid)
				read -r s0 c0 <<<"$(b8_prog_stats "$ids")"
				t0=$(now)
				if [ $p = perf ]; then
					perf stat -x, -e syscalls:sys_enter_getppid -- "$B8/b5_work" getppid "$B8_CALLS" \
						>/dev/null 2>"$B8/perf.err"
					counted=$(awk -F, '$3 == "syscalls:sys_enter_getppid" { print $1 }' "$B8/perf.err")
				else
					"$B8/b5_work" getppid "$B8_CALLS" >/dev/null
					counted=-
				fi
				t1=$(now)
				read -r s1 c1 <<<"$(b8_prog_stats "$ids")"
				kill -INT $pid
				wait $pid
				[ $r -ge 0 ] || continue
				NS[$v.$p]+=" $(awk -v a="$s0" -v b="$s1" -v c="$c0" -v d="$c1" 'BEGIN { if (d > c) printf "%.1f", (b - a) / (d - c); else print "nan" }')"
				SEC[$v.$p]+=" $(awk -v a="$t0" -v b="$t1" -v n="$B8_CALLS" 'BEGIN { printf "%.1f", (b - a) * 1e9 / n }')"
				CNT[$v.$p]=$counted
			done
		done
	done
	sysctl -q kernel.bpf_stats_enabled="$B8_STATS_WAS"
	printf '\nB8: a tp/ program returning 0 or 1, %s getppid() calls, %s rounds (medians)\n' "$B8_CALLS" "$B8_RUNS"
	printf '%-8s %-6s %14s %16s %14s\n' returns perf "BPF ns/run" "workload ns/call" "perf counted"
	for v in ret0 ret1; do
		for p in alone perf; do
			local ns sec
			ns=$(tr ' ' '\n' <<<"${NS[$v.$p]}" | grep -v -e '^$' -e nan | sort -g | stats | cut -d' ' -f1)
			sec=$(tr ' ' '\n' <<<"${SEC[$v.$p]}" | grep -v -e '^$' -e nan | sort -g | stats | cut -d' ' -f1)
			printf '%-8s %-6s %14.1f %16.1f %14s\n' "${v#ret}" $p "$ns" "$sec" "${CNT[$v.$p]}"
			json_row bench=B8 returns="${v#ret}" perf=$p bpf_ns_per_run="$ns" workload_ns_per_call="$sec" \
				perf_counted="${CNT[$v.$p]}"
		done
	done
}

b8_run
if [ -n "${B8_ALONE:-}" ]; then
	(OUT=$B8 json_write) && mv "$B8/results.json" "$OUT/b8.json" && echo "results: $OUT/b8.json"
fi
