# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# B2 per-event overhead, seed 004's method: dd if=/dev/zero of=/dev/null bs=1 count=N
# (N write(2) calls) with nothing attached, then with each tracer filtering
# 'count == 1234' on syscalls/sys_enter_write (nothing matches: the cost is the
# hook plus the filter). Overhead over the bare run, and ns per event.
EV=/sys/kernel/tracing/events/syscalls/sys_enter_write

dd_time() { time_runs dd if=/dev/zero of=/dev/null bs=1 count="$N" | stats | cut -d' ' -f1; }

# start_bg READY_REGEX CMD...: start a tracer, wait until its output matches READY_REGEX
start_bg() {
	local ready=$1 i
	shift
	: > "$OUT/bg.log"
	"$@" > "$OUT/bg.log" 2>&1 &
	BG=$!
	for ((i = 0; i < 200; i++)); do
		grep -q -E "$ready" "$OUT/bg.log" && return 0
		kill -0 $BG 2>/dev/null || break
		sleep 0.05
	done
	echo "    (did not start: $(head -c 200 "$OUT/bg.log"))"
	kill -INT $BG 2>/dev/null; wait $BG 2>/dev/null
	BG=
	return 1
}
stop_bg() { [ -n "$BG" ] && { kill -INT $BG 2>/dev/null; wait $BG 2>/dev/null; }; BG=; }

declare -A B2 B2OV B2NS
b2_report() {	# name seconds
	local name=$1 t=$2 ov ns
	B2[$name]=$t
	ov=$(awk -v t="$t" -v b="$BARE" 'BEGIN { printf "%.1f", (t - b) / b * 100 }')
	ns=$(awk -v t="$t" -v b="$BARE" -v n="$N" 'BEGIN { printf "%.1f", (t - b) / n * 1e9 }')
	B2OV[$name]=$ov
	B2NS[$name]=$ns
	printf '  %-36s %8.3fs %8s%% %9s ns/event\n' "$name" "$t" "$ov" "$ns"
	json_row bench=B2 name="$name" seconds="$t" overhead_pct="$ov" ns_per_event="$ns"
}

# Each configuration: a start and a stop. Rounds interleave them (bare, ftrace,
# ..., hand-written tp_btf; then again), so drift of the machine over the run
# spreads over all of them instead of favouring whichever ran first.
CONFIGS=()
declare -A START READY
add_config() { CONFIGS+=("$1"); START[$1]=$2; READY[$1]=$3; }

add_config "bare" "" ""
add_config "ftrace filter" "ftrace" ""
if command -v perf >/dev/null && perf list tracepoint 2>/dev/null | grep -q sys_enter_write; then
	add_config "perf record --filter" "sh -c \"echo started; exec perf record -q -e syscalls:sys_enter_write --filter 'count == 1234' -a -o '$OUT/perf.data' -- sleep 100000\"" "."
fi
if command -v bpftrace >/dev/null; then
	add_config "bpftrace" "bpftrace -e 'tracepoint:syscalls:sys_enter_write /args->count == 1234/ { @h = hist(args->count); }'" "Attaching"
fi
# tpgen-generated programs, one per attach type: bench/write_tp.yaml (sys_enter_write),
# bench/write_raw.yaml (sys_enter, as raw_tp and tp_btf) -- what the hand-written ones do
for a in tracepoint raw_tp tp_btf; do
	d=$OUT/gen_$a
	spec=bench/write_tp.yaml
	[ $a = tracepoint ] || spec=bench/write_raw.yaml
	mkdir -p "$d"
	sed "s/^\(\s*attach:\).*/\1 $a/" $spec > "$d/benchwrite.yaml"
	if "$TPGEN" "$d/benchwrite.yaml" -o "$d" >"$d/gen.log" 2>&1 &&
	   make -s -C "$d/benchwrite" >>"$d/gen.log" 2>&1; then
		add_config "tpgen-generated $a" "'$d/benchwrite/benchwrite'" "Tracing"
	else
		echo "  tpgen-generated $a: generation or build failed: $(head -n 1 "$d/gen.log")"
	fi
done
# hand-written reference (bpf/bench_ref.bpf.c)
build_ref
for a in tp raw_tp tp_btf; do
	add_config "hand-written $a" "'$OUT/ref/bench_ref' $a" "^attached"
done

# BPF programs' own cost: kernel.bpf_stats_enabled gives run_time_ns and run_cnt
# per program; the tracer's programs are those loaded since it started.
prog_ids() { bpftool prog show -j 2>/dev/null | python3 -c 'import json,sys; print(" ".join(str(p["id"]) for p in json.load(sys.stdin)))'; }
prog_ns_per_run() {	# IDS_BEFORE: ns per run of the programs loaded since
	bpftool prog show -j 2>/dev/null | python3 -c '
import json, sys
before = set(sys.argv[1].split())
t = n = 0
for p in json.load(sys.stdin):
    if str(p["id"]) not in before:
        t += p.get("run_time_ns", 0); n += p.get("run_cnt", 0)
print("%.1f" % (t / n) if n else "nan")' "$1"
}
STATS_WAS=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null || echo 0)
sysctl -q -w kernel.bpf_stats_enabled=1 2>/dev/null

one_dd() {
	local s e
	s=$(now)
	dd if=/dev/zero of=/dev/null bs=1 count="$N" 2>/dev/null
	e=$(now)
	elapsed "$s" "$e"
}

echo "B2 per-event overhead: dd bs=1 count=$N (median of $RUNS interleaved rounds), filter count == 1234"
declare -A TIMES PROGNS
dd if=/dev/zero of=/dev/null bs=1 count="$N" 2>/dev/null	# warm-up
for ((r = 0; r < RUNS; r++)); do
	for c in "${CONFIGS[@]}"; do
		case "${START[$c]}" in
		"")	TIMES[$c]+="$(one_dd) " ;;
		ftrace)	echo 'count == 1234' > $EV/filter && echo 1 > $EV/enable
			TIMES[$c]+="$(one_dd) "
			echo 0 > $EV/enable; echo 0 > $EV/filter ;;
		*)	before=$(prog_ids)
			if eval "start_bg '${READY[$c]}' ${START[$c]}"; then
				[ "$c" = "perf record --filter" ] && sleep 1
				TIMES[$c]+="$(one_dd) "
				[ "$c" = "perf record --filter" ] || PROGNS[$c]+="$(prog_ns_per_run "$before") "
				stop_bg
			fi ;;
		esac
	done
done
median_of() { tr ' ' '\n' | grep -v '^$' | sort -n | stats | cut -d' ' -f1; }
BARE=$(echo "${TIMES[bare]}" | median_of)
printf '  %-36s %8.3fs\n' "bare (nothing attached)" "$BARE"
json_row bench=B2 name="bare" seconds="$BARE"
sysctl -q -w kernel.bpf_stats_enabled="$STATS_WAS" 2>/dev/null
for c in "${CONFIGS[@]}"; do
	[ "$c" = bare ] && continue
	[ -n "${TIMES[$c]:-}" ] || { echo "  $c: did not run"; continue; }
	b2_report "$c" "$(echo "${TIMES[$c]}" | median_of)"
done
echo "  BPF program run time (kernel.bpf_stats_enabled: run_time_ns / run_cnt, median of rounds):"
declare -A PNS
for c in "${CONFIGS[@]}"; do
	[ -n "${PROGNS[$c]:-}" ] || continue
	PNS[$c]=$(echo "${PROGNS[$c]}" | tr ' ' '\n' | grep -v -e '^$' -e nan | sort -n | stats | cut -d' ' -f1)
	printf '    %-34s %8.1f ns/run\n' "$c" "${PNS[$c]}"
	json_row bench=B2 name="$c program" ns_per_run="${PNS[$c]}"
done

echo "  targets:"
for a in tracepoint:tp raw_tp:raw_tp tp_btf:tp_btf; do
	g="tpgen-generated ${a%%:*}" h="hand-written ${a##*:}"
	[ -n "${B2[$g]:-}" ] && [ -n "${B2[$h]:-}" ] || continue
	d=$(awk -v g="${B2[$g]}" -v h="${B2[$h]}" 'BEGIN { printf "%.1f", (g - h) / h * 100 }')
	p=$(awk -v g="${PNS[$g]:-nan}" -v h="${PNS[$h]:-nan}" 'BEGIN { if (h == "nan" || g == "nan") print "nan"; else printf "%.1f", (g - h) / h * 100 }')
	echo "    $g vs $h: ${d}% dd time, ${p}% BPF run time (target within 2%)"
	json_row bench=B2 name="generated vs hand-written ${a%%:*}" pct="$d" prog_pct="$p" target=2
done
if [ -n "${B2[bpftrace]:-}" ]; then
	for a in tracepoint raw_tp tp_btf; do
		g="tpgen-generated $a"
		[ -n "${B2NS[$g]:-}" ] || continue
		r=$(ratio "${B2NS[$g]}" "${B2NS[bpftrace]}")
		echo "    $g / bpftrace overhead: $r (target <= 0.5)"
		json_row bench=B2 name="$g / bpftrace" value="$r" target=0.5
	done
fi
echo
