#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# common_pid under raw_tp and tp_btf: the record's common_pid is the current
# task's pid (current->pid, the thread), so it reads the same value as under
# tracepoint. A thread of a process (not its main thread: its id is not the
# process's) calls getppid() N times and is woken N times; every attach type
# must count N under that thread's id, beside tid and pid, on a syscall
# event and on sched/sched_waking (where common_pid is the waker, not the
# woken task of the record's own pid field): the same rows under the three.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/spec_lib.sh"
cd "$TPGEN_ROOT" || exit 1
out=$T/out
N=50
attaches="tracepoint raw_tp tp_btf"

for a in $attaches; do
	cat > "$T/cp_$a.yaml" <<EOT
tool: cp_$a
attach: $a
events:
  - event: syscalls/sys_enter_getppid
    filter: 'comm == "tpgencp"'
    aggregate: { name: getppid, by: [common_pid, tid, pid], count: true }
  - event: sched/sched_waking
    filter: 'COMM == "tpgencp"'
    aggregate: { name: waking, by: [common_pid, tid], count: true }
EOT
	"$TPGEN" -o "$out" "$T/cp_$a.yaml" || fail "tpgen cp_$a.yaml"
done
printf 'tool: b\nattach: raw_tp\nevents:\n  - event: sched/sched_switch\n    print: [common_type]\n' > "$T/bad.yaml"
! "$TPGEN" -o "$T/bad" "$T/bad.yaml" 2>"$T/bad.err" || fail "tpgen took common_type under raw_tp"

require_live
for a in $attaches; do
	make -s -C "$out/cp_$a" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build cp_$a"; }
done
pids=()
for a in $attaches; do
	start cp_$a
	pids+=($pid)
done
# a second thread, named tpgencp: N getppid(), and N wakeups it makes (a pipe's reader)
python3 - $N > "$T/ids" <<'PY' || fail "the workload failed"
import os, sys, threading
n = int(sys.argv[1])
r, w = os.pipe()
def reader():
    for _ in range(n):
        os.read(r, 1)
def work():
    tid = threading.get_native_id()
    with open("/proc/self/task/%d/comm" % tid, "w") as f:
        f.write("tpgencp")
    t = threading.Thread(target=reader)
    t.start()
    for _ in range(n):
        os.getppid()
    for _ in range(n):
        os.write(w, b"x")
        t.join(0.002)	# let the reader sleep again: each write wakes it
    t.join()
    print(tid, os.getpid())
th = threading.Thread(target=work)
th.start()
th.join()
PY
i=0
for a in $attaches; do
	pid=${pids[$i]} stop cp_$a
	i=$((i + 1))
done
read tid tgid < "$T/ids"
[ "$tid" != "$tgid" ] || fail "the workload's thread is its process's main thread"
for a in $attaches; do
	expect cp_$a "^\{\"agg\":\"getppid\",\"common_pid\":$tid,\"tid\":$tid,\"pid\":$tgid,\"count\":$N\}\$" \
		"getppid counted under the thread's common_pid"
	[ "$(grep -c '"agg":"getppid"' "$T/cp_$a.out")" = 1 ] || fail "cp_$a: getppid rows of other tasks"
	# the waking rows: each the waker's thread (its threads are all named tpgencp)
	grep '"agg":"waking"' "$T/cp_$a.out" | sort > "$T/waking.$a"
	[ -s "$T/waking.$a" ] || fail "cp_$a: no wakeup by the workload"
	! grep -v '"common_pid":\([0-9]*\),"tid":\1,' "$T/waking.$a" ||
		fail "cp_$a: common_pid is not the current thread"
	grep -q "\"common_pid\":$tid," "$T/waking.$a" || fail "cp_$a: no wakeup by the thread $tid"
done
# the three attach types saw the same events: the same rows
diff -u "$T/waking.tracepoint" "$T/waking.raw_tp" && diff -u "$T/waking.tracepoint" "$T/waking.tp_btf" ||
	fail "the attach types counted other wakeups"
echo "ok: common_pid is the thread ($tid of $tgid) under $attaches"
