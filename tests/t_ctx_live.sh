#!/bin/bash
# Live: a BPF program built on a generated context header attaches to
# sched/sched_process_fork, sched/sched_process_exec, syscalls/sys_enter_getppid
# and sched/sched_switch and reports what the test caused, read through the
# ctx structs and the header's accessors: the pid it forked (child_pid, exec's
# pid), the path that child exec'd (the __data_loc filename and its length),
# the fork's __data_loc comms, getppid()'s caller and syscall number (exactly
# as many calls as made), and the comm of a thread it named ("tpgen-named", the
# char[16] prev_comm, byte by byte and through the reader). Strings read into
# a buffer full of garbage (a map key on the stack) have zeros after the NUL.
# The program also builds without vmlinux.h, on UAPI headers only.
. "$(dirname "$0")/lib.sh"
require_live
cd "$T"
src=$TPGEN_ROOT/tests/live
"$TPGEN" headers sched/sched_process_exec syscalls/sys_enter_getppid sched/sched_switch \
	sched/sched_process_fork -o ctx.h || fail "tpgen headers failed"
for s in sched_process_exec sys_enter_getppid sched_switch sched_process_fork; do
	grep -q "^struct ${s}_ctx {" ctx.h || fail "no struct ${s}_ctx in ctx.h"
done
cp "$(vmlinux_h)" vmlinux.h
cp "$src"/ctx_live.* .
clang $BPF_CFLAGS -I. -c ctx_live.bpf.c -o ctx_live.bpf.o || fail "the BPF program does not build with vmlinux.h"
clang $BPF_CFLAGS -DNO_VMLINUX_H -I. -idirafter /usr/include/$(gcc -print-multiarch) \
	-c ctx_live.bpf.c -o ctx_live_uapi.bpf.o || fail "the BPF program does not build without vmlinux.h"
bpftool gen skeleton ctx_live.bpf.o > ctx_live.skel.h || fail "bpftool gen skeleton failed"
cc -O1 -g -Wall -Wextra -Werror -I. ctx_live.c -lbpf -lelf -lz -lpthread -o ctx_live ||
	fail "the loader does not build"

# a path only this test execs
exe=$T/tpgen-exec-true
cp /bin/true "$exe" || fail "cannot copy /bin/true"
./ctx_live "$exe" > out.txt || { cat out.txt; fail "the loader failed"; }
cat out.txt

# the "caused:" line's values
val() { sed -n "s/^caused:.* $1=\([^ ]*\).*/\1/p" out.txt; }
pid=$(val pid) comm=$(val comm) child=$(val child) nr=$(val SYS_getppid) named=$(val named_tid)
[ -n "$pid" ] && [ -n "$child" ] && [ -n "$named" ] && [ -n "$nr" ] || fail "no 'caused:' line"
errors=0
expect() {	# expect DESCRIPTION COUNT-WANTED REGEX
	local n
	n=$(grep -cE "$3" out.txt)
	if [ "$2" = "1+" ] && [ "$n" -ge 1 ] || [ "$n" = "$2" ]; then
		echo "ok   $1"
	else
		echo "FAIL $1: $n lines match '$3', want $2"
		errors=$((errors + 1))
	fi
}
expect "sched_process_fork: child_pid is the pid fork() returned, parent_pid ours, both comms ours" 1 \
	"^fork: tgid=$pid tid=$pid child_pid=$child parent_pid=$pid parent_comm=$comm child_comm=$comm\$"
expect "sched_process_exec: pid and old_pid are the child's, filename the path exec'd, its length with the NUL, zeros after it in a key" 1 \
	"^exec: tgid=$child pid=$child old_pid=$child filename_len=$((${#exe} + 1)) filename=$exe key=$exe tail_zero=1\$"
expect "sched_process_exec: no other record claims the child or the path" 1 "^exec: "
expect "sys_enter_getppid: each of the 3 calls, from our main thread, __syscall_nr $nr" 3 \
	"^getppid: tgid=$pid tid=$pid syscall_nr=$nr\$"
expect "sys_enter_getppid: nothing else from our process" 3 "^getppid: "
expect "sched_switch: the named thread switched out sleeping, prev_comm 'tpgen-named' (reader and ctx bytes)" "1+" \
	"^switch: tgid=$pid tid=$named prev_pid=$named prev_state=1 direct_match=1 prev_comm=tpgen-named key=tpgen-named tail_zero=1\$"
# (preempted before its prctl(), the thread still has our comm: the reader and the bytes agree on that)
n=$(grep "^switch: tgid=$pid tid=$named " out.txt |
	grep -cvE "^switch: tgid=$pid tid=$named prev_pid=$named prev_state=[0-9]+ (direct_match=1 prev_comm=tpgen-named key=tpgen-named|direct_match=0 prev_comm=$comm key=$comm) tail_zero=1\$")
if [ "$n" = 0 ]; then
	echo "ok   sched_switch: every switch of the named thread has its prev_pid and prev_comm, zeros after the key's NUL"
else
	echo "FAIL sched_switch: $n switches of the named thread with another prev_pid or prev_comm"
	errors=$((errors + 1))
fi
expect "sched_switch: our main thread is not named so" 0 "^switch: tgid=$pid tid=$pid .*(direct_match=1|prev_comm=tpgen-named)"
[ $errors = 0 ] || fail "$errors checks failed"
exit 0
