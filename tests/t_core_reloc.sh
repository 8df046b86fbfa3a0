#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Offline relocation: the object of a spec-generated tool (CO-RE by default)
# relocates against the BTF of another kernel. That kernel's BTF is this
# one's with the members of trace_event_raw_sched_switch, syscall_trace_enter
# and syscall_trace_exit moved; 'bpftool gen min_core_btf' keeps what the
# object's relocations reach, and every field the program reads is there, at
# the other kernel's offset.
. "$(dirname "$0")/lib.sh"
[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF at /sys/kernel/btf/vmlinux"
cd "$T" || exit 1
gcc -Wall -Wextra -Werror -o move_members "$TPGEN_ROOT/tests/core/move_members.c" -lbpf ||
	fail "build move_members"

cat > spec.yaml <<'YAML'
tool: reloc
events:
  - event: sched/sched_switch
    print: [prev_comm, prev_pid, prev_prio, next_pid]
  - event: syscalls/sys_enter_kill
    print: [pid, sig]
  - event: syscalls/sys_enter_openat
    filter: '__syscall_nr >= 0'
    print: [dfd, filename]
  - event: syscalls/sys_exit_openat
    print: [fd: ret]
YAML
"$TPGEN" --btf /sys/kernel/btf/vmlinux spec.yaml -o out || fail "tpgen"
make -s -C out/reloc EXTRA_CFLAGS=-Werror >build.log 2>&1 || { cat build.log; fail "build"; }
obj=out/reloc/.output/reloc.bpf.o

cp /sys/kernel/btf/vmlinux other.btf
move() { ./move_members other.btf other.new "$@" && mv other.new other.btf || fail "doctoring BTF: $*"; }
move trace_event_raw_sched_switch 72 prev_comm=12 prev_prio=28 prev_pid=32 prev_state=40 next_comm=48 \
	next_pid=64 next_prio=68
move syscall_trace_enter 0 nr=12 args=24
move syscall_trace_exit 32 nr=12 ret=24

bpftool gen min_core_btf other.btf min.btf "$obj" || fail "bpftool gen min_core_btf"
bpftool btf dump file min.btf > min.txt || fail "bpftool btf dump"
# member STRUCT MEMBER OFFSET: the relocated BTF has STRUCT.MEMBER at byte OFFSET
member() {
	local got
	got=$(awk -v s="'$1'" -v m="'$2'" '$2 == "STRUCT" { in_s = ($3 == s) } in_s && $1 == m {
		sub(/bits_offset=/, "", $3); print $3 / 8 }' min.txt)
	[ "$got" = "$3" ] || { cat min.txt; fail "$1.$2 is at ${got:-nowhere} in the relocated BTF, want $3"; }
	echo "$1.$2 at $3"
}
member trace_event_raw_sched_switch prev_comm 12
member trace_event_raw_sched_switch prev_pid 32
member trace_event_raw_sched_switch prev_prio 28
member trace_event_raw_sched_switch next_pid 64
member syscall_trace_enter nr 12
member syscall_trace_enter args 24
member syscall_trace_exit ret 24
# what no field read needs stays out: the relocations are the program's reads
grep -q "'next_prio'" min.txt && fail "next_prio is in the minimal BTF, but nothing reads it"
echo "ok: every field the tool reads relocates to the other kernel's offset"
