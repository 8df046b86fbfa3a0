#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# tpgen-timeout: 2400
# The spec language's space, generated (tests/matrix/spec_matrix.py), not picked by hand:
#  (a) every action (print; count; aggregate count by keys; sum/min/max/avg/stddev; hist;
#      aggregate hist; lhist; hist per key; save + join, keyed by values and by the CPU alone (a per-CPU
#      slot); let; filter) x every attach
#      type (tracepoint, raw_tp, tp_btf) x every kind of value found in this kernel
#      (format fields and raw arguments and members of each width and sign, char
#      arrays, __data_loc strings, strings in user memory, pointers, each built-in in
#      lower and upper case, expressions), and a spec that only prints one field;
#      what the language refuses (arithmetic on strings) is refused with a located
#      error;
#  (b) every event of sched, syscalls, block, irq, signal, sock, tcp, net and
#      writeback: one entry printing every field the language reads and counting by
#      one; the fields skipped are counted by reason, and a field of each reason must
#      be refused by tpgen.
# Every tool is generated, built with -Werror and loaded through the verifier (run
# as root with -d 1: attached for a second, exit 0). Entries are batched into few
# tools; a batch that fails is split into one tool per action to say which fails.
# Any failure fails the test; all of them are listed.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
command -v python3 >/dev/null || fail "python3 is missing (make deps-test)"

SYSTEMS=(sched syscalls block irq signal sock tcp net writeback)
JOBS=${TPGEN_MATRIX_JOBS:-$(( $(nproc) + 1 ))}
OUT=$T/out
TASK=tpgenmx
STOP_WITHIN=20
mkdir -p "$T/st"

VMLINUX_H=$(vmlinux_h)
"$TPGEN" list --json > "$T/list.json" || fail "tpgen list --json"
bpftool btf dump file /sys/kernel/btf/vmlinux > "$T/btf.raw" || fail "bpftool btf dump"
python3 tests/matrix/spec_matrix.py combos "$T/list.json" "$T/btf.raw" "$T/combos" ||
	fail "spec_matrix.py combos"
python3 tests/matrix/spec_matrix.py events "$T/list.json" "$T/events" "${SYSTEMS[@]}" ||
	fail "spec_matrix.py events"
# the largest first: the parallel jobs end closer together
cat "$T/combos/tools.tsv" "$T/events/tools.tsv" | sort -t$'\t' -k2,2nr > "$T/tools.tsv"

# check_tool TOOL ENTRIES SPEC [FLAGS]: generate, build with -Werror, load and run for
# a second (-c: the events of our named task only, not those of the tools' own
# output); on failure $T/st/TOOL says what failed, with the first lines of the error.
# FLAGS: refuse-ok (a located refusal by tpgen passes too), all-tasks (no -c).
check_tool() {
	local tool=$1 n=$2 spec=$3 flags=${4:-} got rc st filter=(-c "$TASK") stop=$STOP_WITHIN
	if ! "$TPGEN" -o "$OUT" "$spec" > "$T/st/$tool.gen" 2>&1; then
		[[ $flags == *refuse-ok* ]] && grep -qE "^$spec:[0-9]+:[0-9]+: error: " "$T/st/$tool.gen" &&
			[ ! -e "$OUT/$tool" ] && return
		echo "generate $tool: $(head -n 3 "$T/st/$tool.gen" | tr '\n' ' ')" > "$T/st/$tool"
		return
	fi
	got=$(grep -c '^static __always_inline void' "$OUT/$tool/$tool.bpf.c")
	if [ "$got" != "$n" ]; then
		echo "generate $tool: $got entry functions in $tool.bpf.c for $n entries" > "$T/st/$tool"
		return
	fi
	# one vmlinux.h for all: the generated Makefile makes it only when it is missing
	mkdir -p "$OUT/$tool/.output"
	cp "$VMLINUX_H" "$OUT/$tool/.output/vmlinux.h"
	if ! make -s -C "$OUT/$tool" EXTRA_CFLAGS=-Werror > "$T/st/$tool.build" 2>&1; then
		echo "build $tool: $(grep -m 3 -E 'error|Error' "$T/st/$tool.build" | cut -c 1-300 | tr '\n' ' ')" \
			> "$T/st/$tool"
		return
	fi
	[[ $flags == *all-tasks* ]] && filter=() stop=8
	# the kernel detaches tracepoints one at a time under event_mutex, each after an RCU
	# grace period (perf_trace_destroy()): about 75 ms for each syscalls/ event here, so
	# a tool on 200 of them takes 15 s to exit after its second
	stop=$((stop + $(grep -c '^SEC("tp/' "$OUT/$tool/$tool.bpf.c") / 4))
	# the combinations print JSON lines (-j), which must parse; every field of the events, text
	[[ $tool == mx_ev_* ]] || filter+=(-j)
	timeout -k 5 "$stop" "$OUT/$tool/$tool" "${filter[@]}" -d 1 2> "$T/st/$tool.err" |
		python3 -c "$COUNT_LINES" "${filter[*]}" > "$T/st/$tool.lines"
	st=("${PIPESTATUS[@]}")
	rc=${st[0]}
	if [ "${st[1]}" != 0 ]; then
		echo "output of $tool: $(cat "$T/st/$tool.lines")" > "$T/st/$tool"
	elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "run $tool: still running ${stop}s after it started with -d 1 (killed)" > "$T/st/$tool"
	elif [ "$rc" != 0 ] || ! grep -q '^Tracing' "$T/st/$tool.err"; then
		echo "load $tool: exit $rc: $(grep -v -e '^libbpf: ' -e '^[0-9]*: ' -e '^;' -e '^processed ' \
			-e '^-- ' "$T/st/$tool.err" | head -n 3 | cut -c 1-300 | tr '\n' ' ')" > "$T/st/$tool"
	fi
}
# lines of stdin; with -j (in argv[1]) each must be a JSON object, or the first that is not is printed
COUNT_LINES='
import json, sys
n = 0
for line in sys.stdin.buffer:
    n += 1
    if "-j" in sys.argv[1].split():
        try:
            assert isinstance(json.loads(line), dict)
        except Exception:
            print("line %d is not a JSON object: %r" % (n, line[:200]))
            sys.exit(1)
print(n)'
# check_refused SPEC: exit 1, one error located in SPEC, nothing written
check_refused() {
	local spec=$1 name rc
	name=$(basename "$spec" .yaml)
	"$TPGEN" -o "$T/refused-$name" "$spec" > "$T/st/$name.gen" 2>&1
	rc=$?
	if [ $rc != 1 ] || ! grep -qE "^$spec:[0-9]+:[0-9]+: error: " "$T/st/$name.gen"; then
		echo "refuse $(sed -n "s/^description: '\(.*\)'/\1/p" "$spec"): exit $rc: $(head -n 1 "$T/st/$name.gen")" \
			> "$T/st/$name"
	elif [ -e "$T/refused-$name" ]; then
		echo "refuse $spec: exit 1, but wrote $T/refused-$name" > "$T/st/$name"
	fi
}
# in_parallel: run the lines of stdin as commands, $JOBS at a time
in_parallel() {
	local line n=0
	while read -r line; do
		eval "$line" &
		if (( ++n >= JOBS )); then
			wait -n
			n=$((n - 1))
		fi
	done
	wait
}

# while tools load: a task named $TASK that sleeps and makes system calls
mkfifo "$T/fifo"
bash -c "printf $TASK > /proc/self/comm; exec 3<> '$T/fifo'; while :; do read -t 0.01 -u 3; : < /dev/null; done" \
	2>/dev/null &
task=$!
trap 'kill $task 2>/dev/null' EXIT
start=$EPOCHREALTIME
awk -F'\t' '{ printf "check_tool %s %s %s \"%s\"\n", $1, $2, $3, $5 }' "$T/tools.tsv" | in_parallel
checked=$EPOCHREALTIME
# a batch that failed: each of its actions alone, to name what fails
awk -F'\t' '$4 != "" { print $1 "\t" $4 }' "$T/tools.tsv" | while IFS=$'\t' read -r tool parts; do
	[ -e "$T/st/$tool" ] || continue
	for p in $parts; do
		echo "check_tool $(basename "${p%:*}" .yaml) ${p##*:} ${p%:*}"
	done
done | in_parallel
kill $task
ls "$T"/combos/refused/*.yaml "$T"/events/refused/*.yaml | sed 's/^/check_refused /' | in_parallel
refused=$(ls "$T"/combos/refused/*.yaml "$T"/events/refused/*.yaml | wc -l)

# Coverage, as numbers
c=$T/combos/combos.tsv
# each combination's outcome: in a tool that loaded, in a tool tpgen refused as a whole
# (refuse-ok), refused by the language, or failed
while IFS=$'\t' read -r a act kind ev v tool; do
	if [ "$tool" = "(refused)" ]; then
		echo "refused"
	elif [ -e "$T/st/$tool" ]; then
		echo "failed"
	elif [ -x "$OUT/$tool/$tool" ]; then
		echo "loaded"
	else
		echo "refused-whole"
	fi
done < "$c" > "$T/outcome"
paste "$c" "$T/outcome" > "$T/combos.out"
echo "(a) $(grep -c 'loaded$' "$T/outcome") combinations generated, built and loaded" \
	"($(cut -f1 "$c" | sort -u | wc -l) attach types, $(awk -F'\t' '$2 != "edge" { print $2 }' "$c" | sort -u | wc -l)" \
	"actions, $(cut -f1,3 "$c" | sort -u | wc -l) kinds of value of an attach type, $(wc -l < "$T/combos/tools.tsv") tools);" \
	"$(grep -c '^refused$' "$T/outcome") refused by the language (as they should be)," \
	"$(grep -c 'refused-whole$' "$T/outcome") in tools tpgen refused with a located error," \
	"$(grep -c 'failed$' "$T/outcome") failed"
for a in tracepoint raw_tp tp_btf; do
	echo "    $a: $(awk -F'\t' -v a=$a '$1 == a && $7 == "loaded" { print $3 }' "$T/combos.out" | sort -u | tr '\n' ' ')"
done
awk -F'\t' '$7 == "refused-whole" { print "    refused as a whole: " $1 " " $3 " (" $6 ")" }' "$T/combos.out" | sort -u
events=0 fields=0
for s in "${SYSTEMS[@]}"; do
	n=$(awk -F'\t' -v s="$s" '$1 == s { n++ } END { print n + 0 }' "$T/events/printed.tsv")
	f=$(awk -F'\t' -v s="$s" '$1 == s { n += $3 } END { print n + 0 }' "$T/events/printed.tsv")
	k=$(grep -c "^$s/" "$T/events/skipped.tsv")
	echo "(b) $s: $n events, $f fields printed, $k fields skipped"
	events=$((events + n)) fields=$((fields + f))
done
echo "(b) all: $events events, $fields fields printed, $(wc -l < "$T/events/skipped.tsv") fields skipped, by reason:"
cut -f3 "$T/events/skipped.tsv" | sort | uniq -c | sed 's/^/    /'
echo "$refused specs the language refuses (a field of each reason above; strings in arithmetic), each refused with a located error"
echo "records received while loaded: $(cat "$T"/st/*.lines | awk '{ n += $1 } END { print n + 0 }')"
awk -v s="$start" -v c="$checked" -v e="$EPOCHREALTIME" \
	'BEGIN { printf "generate, build and load: %.1fs; split failed batches and refusals: %.1fs\n", c - s, e - c }'

failed=$(find "$T/st" -type f ! -name '*.*' | sort)
if [ -n "$failed" ]; then
	echo "FAILED:"
	for f in $failed; do
		echo "  $(cat "$f")"
	done
	fail "$(echo "$failed" | wc -l) failures (logs in $T/st)"
fi
echo "ok: $(wc -l < "$T/tools.tsv") tools generated, built with -Werror and loaded; $refused refusals located"
