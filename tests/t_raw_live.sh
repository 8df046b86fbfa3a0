#!/bin/bash
# Raw args, live: tests/raw/raw_args.bpf.c names its arguments through the
# generated header -- raw_tp programs cast ctx (CO-RE reads through the task
# and regs pointers), tp_btf programs use TP_BTF_<tp>() -- on sys_enter (regs
# pointer, long id), sched_switch (bool, two task pointers, unsigned int),
# sched_process_exec (pid_t), sched_process_exit (bool) and signal_generate
# (int). tests/raw/raw_load.c loads it, makes each event and checks the values:
# the syscall number and argument, its own thread's pid through the task
# pointer, TASK_INTERRUPTIBLE as the prev_state of a thread asleep in read().
# Once with the --vmlinux-h header, once with the standalone one.
. "$(dirname "$0")/lib.sh"
require_live
cd "$T"
src=$TPGEN_ROOT/tests/raw
cp "$(vmlinux_h)" vmlinux.h
gcc -Wall -Wextra -Werror -I"$src" -o raw_load "$src/raw_load.c" -lbpf -lpthread || fail "build raw_load"
tps="sys_enter sched/sched_switch sched_process_exec sched_process_exit signal_generate"
"$TPGEN" headers --raw --vmlinux-h -o raw_vm.h $tps || fail "headers --raw --vmlinux-h failed"
"$TPGEN" headers --raw -o raw_sa.h $tps || fail "headers --raw failed"
[ "$(grep -c '^struct .*_raw_args {' raw_vm.h)" = 5 ] || fail "raw_vm.h: not 5 structs"
for h in vm sa; do
	clang $BPF_CFLAGS -I. -I"$src" -DRAW_H="\"raw_$h.h\"" -c "$src/raw_args.bpf.c" -o raw_$h.bpf.o ||
		fail "compile raw_args.bpf.c with raw_$h.h"
	./raw_load raw_$h.bpf.o > raw_$h.out 2>&1
	rc=$?
	sed "s/^/raw_$h.h: /" raw_$h.out
	[ $rc = 0 ] || fail "raw_$h.h: wrong values or no load (exit $rc)"
	[ "$(grep -c '^ok ' raw_$h.out)" -ge 32 ] || fail "raw_$h.h: not every value checked"
done
