#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# A tool generated from another kernel's format files never prints wrong
# values: with --static-layout its loader checks, at start-up, the offset,
# size and sign of every field it reads against the running kernel's format
# files, and refuses with one line naming the event, the field and both
# layouts. Doctored snapshots: sched_switch's prev_pid and prev_prio swapped;
# a 12-byte common header (every field 4 bytes later, as a Debian 6.1 RT
# kernel has it); kill's pid moved. The same spec from the undoctored
# snapshot runs and exits 0. By default (CO-RE), a format file that BTF does
# not describe (sched_switch doctored, its BTF not) keeps the static layout
# and the check; kill's record is read through syscall_trace_enter, relocated
# by libbpf, so that tool runs: its check covers sched_switch only.
. "$(dirname "$0")/lib.sh"
require_live
cd "$T" || exit 1

cat > spec.yaml <<'YAML'
tool: layoutcheck
events:
  - event: sched/sched_switch
    print: [prev_comm, prev_pid, next_pid]
  - event: syscalls/sys_enter_kill
    print: [pid, sig]
YAML

"$TPGEN" snapshot good 2>/dev/null || fail "snapshot failed"
cp -r good swapped
cp -r good rt
cp -r good kill
sw=events/sched/sched_switch/format
sed -i 's/\(prev_pid;\toffset:\)24;/\128;/; s/\(prev_prio;\toffset:\)28;/\124;/' swapped/$sw
grep -q 'prev_pid;	offset:28;' swapped/$sw || fail "doctoring prev_pid failed"
# a 12-byte common header: every other field 4 bytes later
awk -F'\t' '/field:/ && !/common_/ { match($0, /offset:[0-9]+/); o = substr($0, RSTART + 7, RLENGTH - 7);
	sub(/offset:[0-9]+/, "offset:" o + 4) } { print }' good/$sw > rt/$sw
grep -q 'prev_pid;	offset:28;' rt/$sw || fail "doctoring the common header failed"
sed -i 's/\(field:pid_t pid;\toffset:\)16;/\132;/' kill/events/syscalls/sys_enter_kill/format
grep -q 'pid;	offset:32;' kill/events/syscalls/sys_enter_kill/format || fail "doctoring kill failed"

# run KERNEL [OPTION]: generate from the snapshot, build, run for a second
run() {
	"$TPGEN" --kernel "$1" ${2:-} spec.yaml -o "out-$1" || fail "tpgen --kernel $1 ${2:-}"
	make -s -C "out-$1/layoutcheck" EXTRA_CFLAGS=-Werror >build.log 2>&1 || { cat build.log; fail "build ($1)"; }
	"out-$1/layoutcheck/layoutcheck" -d 1 >"$1.out" 2>"$1.err"
}
run good || { cat good.err; fail "the tool from this kernel's own snapshot failed"; }
grep -Eq '^[0-9:]+ sched/sched_switch +prev_comm=.* prev_pid=[0-9]+ next_pid=[0-9]+$' good.out || fail "the good tool printed no switch"

expect_refusal() {	# expect_refusal KERNEL MESSAGE [OPTION]
	run "$1" "${3:-}" && { head -3 "$1.out"; fail "$1: the tool ran (exit 0) on a kernel it was not made for"; }
	grep -qF "$2" "$1.err" || { cat "$1.err"; fail "$1: no '$2'"; }
	[ -s "$1.out" ] && [ "$(grep -cv '^TIME' "$1.out")" != 0 ] && fail "$1: printed records before refusing"
	echo "$1: $(grep -F "$2" "$1.err")"
}
msg_swapped="layoutcheck: sched/sched_switch: prev_pid is at 24 (4 bytes, signed) here, 28 (4 bytes, signed) in this build; regenerate the tool for this kernel"
msg_rt="layoutcheck: sched/sched_switch: prev_comm is at 8 (16 bytes, unsigned) here, 12 (16 bytes, unsigned) in this build"
expect_refusal swapped "$msg_swapped" --static-layout
expect_refusal rt "$msg_rt" --static-layout
expect_refusal kill "layoutcheck: syscalls/sys_enter_kill: pid is at 16 (8 bytes, unsigned) here, 32 (8 bytes, unsigned) in this build" --static-layout
echo "ok: three doctored layouts refused at start-up with --static-layout, the right one runs"

# the default (CO-RE): sched_switch's format disagrees with BTF, so it stays static and checked
expect_refusal swapped "$msg_swapped"
expect_refusal rt "$msg_rt"
grep -q '"sched/sched_switch", "prev_pid"' out-rt/layoutcheck/layoutcheck.c || fail "sched_switch is not checked"
grep -q 'sys_enter_kill", "pid"' out-rt/layoutcheck/layoutcheck.c && fail "the CO-RE kill record is checked"
# kill's record is CO-RE: relocated, unchecked, right
run kill || { cat kill.err; fail "kill: the CO-RE tool refused a layout libbpf relocates"; }
grep -q 'sys_enter_kill", "pid"' out-kill/layoutcheck/layoutcheck.c && fail "kill: the CO-RE record is checked"
grep -q '"sched/sched_switch", "prev_pid"' out-kill/layoutcheck/layoutcheck.c && fail "kill: sched_switch (CO-RE) is checked"
echo "ok: by default, only the fields of static records are checked"
