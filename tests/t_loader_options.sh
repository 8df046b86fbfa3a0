#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# tpgen-timeout: 900
# A generated tool carries only what it uses, as libbpf-tools do: the smallest
# specs (print only, a string, counts only, an aggregation, a log2 and a linear
# histogram, a latency pair with and without records, print and count together, columns shown by name,
# kernel stacks printed and counted, a save and a join, an optional join with an
# if_absent save and max_at, a table taken back from, a '~' glob filter) under
# each attach type (tracepoint, raw_tp, tp_btf):
#  - each builds with -Werror -Wunused -Wunused-function -Wunused-macros (no
#    helper, macro or variable it does not use), and no 'unused' attribute
#    silences one in the loader, the BPF program or their headers;
#  - --help lists -i/--interval and -T/--timestamp exactly when the tool has a
#    summary to print (counts, histograms, latencies); a tool that only prints
#    records refuses -i 1 and a positional [interval] as argp does (exit 64);
#  - records carry no CPU nobody prints: struct event_hdr is the type and the time;
#  - a print-only tool run live with -d 1 prints its records and exits 0.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live

WARN="-Werror -Wunused -Wunused-function -Wunused-macros"
VMLINUX_H=$(vmlinux_h)
mkdir -p "$T/specs" "$T/st"

# KIND SUMMARY ENTRIES...: one spec per attach type; SUMMARY: 1 when -i/-T belong
kinds=()
kind() {
	local name=$1 summary=$2 a
	shift 2
	kinds+=("$name:$summary")
	for a in tracepoint raw_tp tp_btf; do
		printf 'tool: lo_%s_%s\nattach: %s\n' "$name" "$a" "$a" > "$T/specs/lo_${name}_$a.yaml"
		[ "$1" = latency: ] || echo 'events:' >> "$T/specs/lo_${name}_$a.yaml"
		printf '%s\n' "$@" >> "$T/specs/lo_${name}_$a.yaml"
	done
}
kind print 0 '  - event: sched/sched_switch' '    print: [next_pid]'
kind str 0 '  - event: sched/sched_switch' '    print: [next_pid, next_comm]'
kind count 1 '  - event: sched/sched_switch' '    count: [next_pid]'
kind agg 1 '  - event: sched/sched_switch' '    aggregate: { by: [comm], sum: next_prio, max: next_prio }'
kind hist 1 '  - event: sched/sched_switch' '    hist: next_prio'
kind lhist 1 '  - event: sched/sched_switch' \
	'    aggregate: { lhist: { value: next_prio, min: 0, max: 140, step: 20 } }'
kind lat 1 '  - event: sched/sched_switch' '    print: [next_pid]' \
	'latency:' '  - name: wake' '    unit: nsecs' \
	'    from: { event: sched/sched_wakeup, key: pid }' '    to: { event: sched/sched_switch, key: next_pid }'
kind latonly 1 'latency:' '  - name: wake' '    unit: nsecs' \
	'    from: { event: sched/sched_wakeup, key: pid }' '    to: { event: sched/sched_switch, key: next_pid }'
kind printcount 1 '  - event: sched/sched_switch' '    print: [next_pid]' \
	'  - event: sched/sched_switch' '    count: [next_comm]'
kind namesprint 0 '  - event: sched/sched_switch' '    print: [next_pid, prev_state]'
kind namescount 1 '  - event: sched/sched_switch' '    count: [prev_state]'
kind stackprint 0 '  - event: sched/sched_switch' '    print: [next_pid, kstack]'
kind stackcount 1 '  - event: sched/sched_switch' '    count: [kstack]'
kind optjoin 1 '  - event: sched/sched_wakeup' '    save: { name: w, key: pid, values: { ts: time }, if_absent: true }' \
	'  - event: sched/sched_switch' '    join: { name: w, key: next_pid, optional: true, default: { ts: time } }' \
	'    aggregate: { by: [next_comm], max: time - w.ts, max_at: time }'
kind subtract 1 '  - event: sched/sched_wakeup' '    aggregate: { name: r, by: [pid], count: true }' \
	'  - event: sched/sched_switch' '    aggregate: { name: r, by: [next_pid], count: true, subtract: true }'
kind join 0 '  - event: sched/sched_wakeup' '    save: { name: w, key: pid, values: { ts: time } }' \
	'  - event: sched/sched_switch' '    join: { name: w, key: next_pid }' '    print: [next_pid, lat: time - w.ts]'
kind glob 0 '  - event: sched/sched_switch' "    filter: 'next_comm ~ \"k*d?\"'" '    print: [next_pid]'

"$TPGEN" -o "$T/out" "$T"/specs/*.yaml > "$T/gen.log" 2>&1 || fail "tpgen: $(head -n 5 "$T/gen.log")"

# build TOOL: with every warning of unused things an error
build() {
	local tool=$1 d=$T/out/$1
	mkdir -p "$d/.output"
	cp "$VMLINUX_H" "$d/.output/vmlinux.h"
	make -s -C "$d" EXTRA_CFLAGS="$WARN" > "$T/st/$tool.build" 2>&1 ||
		echo "build $tool: $(grep -m 3 -E 'error|Error' "$T/st/$tool.build" | cut -c 1-300 | tr '\n' ' ')" \
			> "$T/st/$tool"
}
n=0
for s in "$T"/specs/*.yaml; do
	build "$(basename "$s" .yaml)" &
	(( ++n % 2 )) || wait
done
wait

# the generated Makefile passes EXTRA_CFLAGS to both compilers: a warning made an error fails
echo 'static int never_called(void) { return 0; }' >> "$T/out/lo_print_tracepoint/lo_print_tracepoint.c"
make -s -C "$T/out/lo_print_tracepoint" EXTRA_CFLAGS="$WARN" > "$T/st/canary.build" 2>&1 &&
	fail "a loader with an unused function built with $WARN"
grep -q "never_called" "$T/st/canary.build" || fail "no error naming the unused function: $(head -n 3 "$T/st/canary.build")"
sed -i '$d' "$T/out/lo_print_tracepoint/lo_print_tracepoint.c"
make -s -C "$T/out/lo_print_tracepoint" EXTRA_CFLAGS="$WARN" > "$T/st/canary.build" 2>&1 ||
	fail "lo_print_tracepoint does not build again: $(head -n 3 "$T/st/canary.build")"

checked=0
for k in "${kinds[@]}"; do
	name=${k%:*} summary=${k#*:}
	for a in tracepoint raw_tp tp_btf; do
		tool=lo_${name}_$a d=$T/out/lo_${name}_$a
		[ -e "$T/st/$tool" ] && continue
		checked=$((checked + 1))
		if grep -n 'unused' "$d/$tool.c" "$d/$tool.bpf.c" "$d/$tool.h" "$d/tpgen.h" > "$T/st/$tool.unused"; then
			echo "$tool: 'unused' in the generated code: $(head -n 3 "$T/st/$tool.unused" | tr '\n' ' ')" \
				> "$T/st/$tool"
			continue
		fi
		"$d/$tool" --help > "$T/st/$tool.help" 2>&1 || { echo "$tool --help: exit $?" > "$T/st/$tool"; continue; }
		opts=$(grep -cE '^ +-i, --interval=SECONDS|^ +-T, --timestamp' "$T/st/$tool.help")
		if [ "$summary" = 1 ] && [ "$opts" != 2 ]; then
			echo "$tool --help: it summarizes, but -i and -T are not both listed" > "$T/st/$tool"
		elif [ "$summary" = 0 ] && [ "$opts" != 0 ]; then
			echo "$tool --help: it only prints records, but lists -i or -T" > "$T/st/$tool"
		elif [ "$summary" = 0 ]; then
			"$d/$tool" -i 1 > /dev/null 2> "$T/st/$tool.opt"
			rc=$?
			if [ $rc != 64 ] || ! grep -q "invalid option -- 'i'" "$T/st/$tool.opt"; then
				echo "$tool -i 1: exit $rc, not refused by argp: $(head -n 1 "$T/st/$tool.opt")" > "$T/st/$tool"
				continue
			fi
			"$d/$tool" 1 5 > /dev/null 2> "$T/st/$tool.opt"
			rc=$?
			[ $rc = 64 ] && grep -q "Too many arguments" "$T/st/$tool.opt" ||
				echo "$tool 1 5: exit $rc, [interval] [count] not refused: $(head -n 1 "$T/st/$tool.opt")" \
					> "$T/st/$tool"
		elif ! grep -q '\[interval\] \[count\]' "$T/st/$tool.help"; then
			echo "$tool --help: no [interval] [count] in its usage" > "$T/st/$tool"
		fi
		if grep -q 'struct event_hdr' "$d/$tool.h" &&
			[ "$(sed -n '/^struct event_hdr {$/,/^};$/p' "$d/$tool.h" | grep -c ';')" != 3 ]; then
			echo "$tool.h: struct event_hdr is not { type; ts_ns; }: $(sed -n '/^struct event_hdr {$/,/^};$/p' \
				"$d/$tool.h" | tr '\n' ' ')" >> "$T/st/$tool"
		fi
	done
done

# print-only, live: records (JSON lines with their time) and exit 0 after -d 1
for a in tracepoint raw_tp tp_btf; do
	tool=lo_print_$a
	[ -e "$T/st/$tool" ] && continue
	timeout -k 5 20 "$T/out/$tool/$tool" -j -d 1 > "$T/st/$tool.out" 2> "$T/st/$tool.err"
	rc=$?
	if [ $rc != 0 ]; then
		echo "$tool -j -d 1: exit $rc: $(grep -v '^libbpf' "$T/st/$tool.err" | head -n 2 | tr '\n' ' ')" > "$T/st/$tool"
	elif ! grep -qE '^\{"time":"[0-9:]{8}","event":"sched/sched_switch","next_pid":[0-9]+\}$' "$T/st/$tool.out"; then
		echo "$tool -j -d 1: no record: $(head -n 2 "$T/st/$tool.out" | tr '\n' ' ')" > "$T/st/$tool"
	fi
done

failed=$(find "$T/st" -type f ! -name '*.*' | sort)
if [ -n "$failed" ]; then
	echo "FAILED:"
	for f in $failed; do
		echo "  $(cat "$f")"
	done
	fail "$(echo "$failed" | wc -l) of $(ls "$T"/specs/*.yaml | wc -l) tools failed (logs in $T/st)"
fi
echo "ok: $checked tools built with $WARN, no 'unused'; -i/-T exactly where there is a summary"
