#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Joins that do not need a start, and saves that keep the first value, over
# every combination of the key a name is saved under (tid: a hash map, cpu:
# a per-CPU slot, comm: a string key), the save (plain or if_absent) and the
# optional join's defaults (none: 0 and "", a number, values of the event).
# The workload (tests/rows/tpgenrows.c kills R) saves twice then joins twice
# per round: each join found the first (if_absent) or the last save, then
# found nothing and went on with the defaults; every row is counted exactly.
# bpftrace, whose map reads give 0 for a missing key, counts the same rows
# as the plain save with no defaults.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/spec_lib.sh"
cd "$TPGEN_ROOT" || exit 1
out=$T/out
R=40

keys="tid cpu comm"
modes="plain first"
dflts="none number event"
for key in $keys; do
	{
		echo "tool: rows_$key"
		echo "events:"
		for mode in $modes; do
			for d in $dflts; do
				s=s_${mode}_$d
				ifa=false
				[ $mode = first ] && ifa=true
				case $d in
				none) dd= ;;
				number) dd=", default: { sig: -5 }" ;;
				event) dd=", default: { sig: ret, who: comm }" ;;
				esac
				cat <<EOT
  - event: syscalls/sys_enter_kill
    filter: 'comm == "tpgenrows"'
    save: { name: $s, key: $key, values: { sig: sig, who: comm }, if_absent: $ifa }
  - event: syscalls/sys_exit_getppid
    filter: 'comm == "tpgenrows"'
    join: { name: $s, key: $key, optional: true$dd }
    aggregate: { name: $s, by: [sig: $s.sig, who: $s.who], count: true }
EOT
			done
		done
	} > "$T/rows_$key.yaml"
	"$TPGEN" -o "$out" "$T/rows_$key.yaml" || fail "tpgen rows_$key.yaml"
done
grep -q 'BPF_NOEXIST' "$out/rows_tid/tpgen.h" || fail "if_absent does not use BPF_NOEXIST"
grep -q 'tpgen_save_first' "$out/rows_tid/rows_tid.bpf.c" || fail "if_absent is not a save of the first value"
grep -q 'BPF_MAP_TYPE_PERCPU_ARRAY' "$out/rows_cpu/rows_cpu.bpf.c" || fail "key: cpu is not a per-CPU slot"

require_live
command -v taskset >/dev/null || fail "taskset is missing (util-linux)"
command -v bpftrace >/dev/null || fail "bpftrace is missing"
for key in $keys; do
	make -s -C "$out/rows_$key" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 ||
		{ cat "$T/build.log"; fail "build rows_$key"; }
done
cc -O2 -Wall -Wextra -Werror -o "$T/tpgenrows" tests/rows/tpgenrows.c || fail "build the helper"

bpftrace -e '
tracepoint:syscalls:sys_enter_kill /comm == "tpgenrows"/ { @s[tid] = args->sig; }
tracepoint:syscalls:sys_exit_getppid /comm == "tpgenrows"/ { @rows[@s[tid]] = count(); delete(@s[tid]); }
END { clear(@s); }' >"$T/bt.out" 2>"$T/bt.err" &
bt=$!
pids=()
for key in $keys; do
	start rows_$key
	pids+=($pid)
done
for i in $(seq 100); do
	grep -q '^Attaching' "$T/bt.out" && break
	sleep 0.1
done
sleep 1
taskset -c 0 "$T/tpgenrows" kills $R || fail "the helper failed"
ppid=$$
i=0
for key in $keys; do
	pid=${pids[$i]} stop rows_$key
	i=$((i + 1))
done
kill -INT $bt
wait $bt

# the rows each combination must have: R found (the first or last save's sig), R absent (the defaults)
for key in $keys; do
	for mode in $modes; do
		for d in $dflts; do
			s=s_${mode}_$d
			sig=28
			[ $mode = first ] && sig=0
			echo "$s $sig tpgenrows $R"
			case $d in
			none) echo "$s 0 - $R" ;;
			number) echo "$s -5 - $R" ;;
			event) echo "$s $ppid tpgenrows $R" ;;
			esac
		done
	done | sort > "$T/want"
	python3 - "$T/rows_$key.out" <<'PY' | sort > "$T/got.$key" || fail "rows_$key: output is not JSON"
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print(r["agg"], r["sig"], r["who"] or "-", r["count"])
PY
	diff -u "$T/want" "$T/got.$key" || fail "rows_$key: the rows differ from what the helper did"
done

# bpftrace: @rows[28]: R (the last save), @rows[0]: R (nothing saved: 0)
grep -q "^@rows\[28\]: $R\$" "$T/bt.out" && grep -q "^@rows\[0\]: $R\$" "$T/bt.out" ||
	{ cat "$T/bt.out"; fail "bpftrace did not see the workload as expected"; }
grep -q "^s_plain_none 28 tpgenrows $R\$" "$T/got.tid" && grep -q "^s_plain_none 0 - $R\$" "$T/got.tid" ||
	fail "rows_tid's plain save without defaults differs from bpftrace"
echo "ok: $(echo $keys | wc -w) keys x $(echo $modes | wc -w) saves x $(echo $dflts | wc -w) defaults, $R rounds"
