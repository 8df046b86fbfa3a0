#!/bin/bash
# Live: a BPF program built on a generated context header attaches to
# sched_process_fork/exec, syscalls/sys_enter_getppid and sched_switch and
# reports what the test caused: the pid it forked, the path that child exec'd
# (a __data_loc string read through the accessor), getppid's syscall number,
# and the comm of a thread it named.
. "$(dirname "$0")/lib.sh"
require_live
cd "$T"
src=$TPGEN_ROOT/tests/live
"$TPGEN" headers sched/sched_process_fork sched/sched_process_exec syscalls/sys_enter_getppid \
	sched/sched_switch -o ctx.h || fail "tpgen headers failed"
cp "$(vmlinux_h)" vmlinux.h
cp "$src"/ctx_live.* .
clang $BPF_CFLAGS -I. -c ctx_live.bpf.c -o ctx_live.bpf.o || fail "the BPF program does not build"
bpftool gen skeleton ctx_live.bpf.o > ctx_live.skel.h || fail "bpftool gen skeleton failed"
cc -O1 -Wall -Wextra -Werror -Wno-unused-parameter -I. ctx_live.c -lbpf -lelf -lz -lpthread -o ctx_live ||
	fail "the loader does not build"
./ctx_live || fail "the program did not report what the test caused"
