#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# specs/syscall-summary.yaml (perf trace -s) and specs/schedlat.yaml (perf
# sched latency, max delay with when it ended: max_at) on workloads of
# tests/rows/tpgenrows.c, against peers on the same run. perf 6.1 cannot
# read kernel 6.18's syscall exits (perf trace -s prints no row) nor its
# sleeps (perf sched latency counts one switch for 200 sleeps), so strace -c
# counts the calls and errors, and bpftrace computes the wait on the run
# queue, its maximum and when it ended.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/spec_lib.sh"
cd "$TPGEN_ROOT" || exit 1
out=$T/out
N=40
S=200

"$TPGEN" -o "$out" specs/syscall-summary.yaml || fail "tpgen syscall-summary.yaml"
"$TPGEN" -o "$out" specs/schedlat.yaml || fail "tpgen schedlat.yaml"
grep -q 'val->max_at = ' "$out/schedlat/schedlat.bpf.c" || fail "max_at is not kept with max"

require_live
command -v strace >/dev/null || fail "strace is missing"
command -v bpftrace >/dev/null || fail "bpftrace is missing"
for t in syscall_stats schedlat; do
	make -s -C "$out/$t" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $t"; }
done
cc -O2 -Wall -Wextra -Werror -o "$T/tpgenrows" tests/rows/tpgenrows.c || fail "build the helper"

# syscall-summary: every system call strace -c counts, with its errors
start syscall_stats -c tpgenrows
strace -c -o "$T/strace.out" "$T/tpgenrows" errs $N || fail "the helper failed"
stop syscall_stats
python3 - "$T/syscall_stats.out" "$T/strace.out" $N <<'PY' || fail "syscall-summary differs from strace -c"
import json, sys
n = int(sys.argv[3])
calls, errs = {}, {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("comm") != "tpgenrows":
        continue
    name = r["syscall_name"]
    if r["agg"].startswith("system calls"):
        calls[name] = r
    else:
        errs[name] = errs.get(name, 0) + r["count"]
st = {}
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) >= 5 and f[0][0].isdigit() and f[-1] != "total":
        st[f[-1]] = (int(f[3]), int(f[4]) if len(f) == 6 else 0)
bad = 0
for name, (c, e) in st.items():
    if name == "execve":	# its entry is strace's, which -c leaves out
        continue
    r = calls.get(name)
    # the errors beside the calls, and by errno in the table beside them
    if not r or r["calls"] != c or r["errors"] != e or errs.get(name, 0) != e:
        print(name, "strace", c, e, "tool", r and r["calls"], r and r["errors"], errs.get(name, 0)); bad += 1
        continue
    if not (r["min"] <= r["avg"] <= r["max"]) or r["total"] < r["max"]:
        print(name, "min/avg/max/sum disagree", r); bad += 1
for name, c, e in (("openat", n, n), ("close", (n + 1) // 2, (n + 1) // 2), ("getppid", n, 0)):
    if st.get(name, (0, 0))[0] < c or errs.get(name, 0) < e:
        print("the helper's", name, "calls are not all there"); bad += 1
sys.exit(1 if bad else 0)
PY

# schedlat: the helper's waits on a run queue, their count, maximum and its end.
# Halfway the helper waits $MS ms behind a SCHED_FIFO child on its CPU: its
# longest wait, one the test caused, which both tools must find, the same one.
# bpftrace prints each wait of a tpgenrows task (its clock read once per
# program); the two tools read their clocks in two programs on one event,
# microseconds apart, or more when the hypervisor takes the CPU between them
# (seen: 300 us between two reads in one bpftrace program), so one wait's
# length differs by that much, and the longest of 200 similar waits need not
# be the same one: compared is the long wait, by its start and its end.
cat > "$T/sched.bt" <<'EOT'
tracepoint:sched:sched_wakeup,tracepoint:sched:sched_wakeup_new /args->comm == "tpgenrows"/ {
	if (@q[args->pid] == 0) { @q[args->pid] = nsecs; }
}
tracepoint:sched:sched_switch /args->prev_comm == "tpgenrows" && (args->prev_state & 0xff) == 0/ {
	@q[args->prev_pid] = nsecs;
}
tracepoint:sched:sched_switch /args->next_comm == "tpgenrows" && @q[args->next_pid]/ {
	$t = nsecs;
	printf("wait %d %llu %llu\n", args->next_pid, $t - @q[args->next_pid], $t);
	delete(@q[args->next_pid]);
}
END { clear(@q); }
EOT
MS=20
bpftrace "$T/sched.bt" >"$T/bt.out" 2>"$T/bt.err" &
bt=$!
start schedlat
for i in $(seq 100); do grep -q '^Attaching' "$T/bt.out" && break; sleep 0.1; done
sleep 1
"$T/tpgenrows" sleeps $S $MS || fail "the helper failed"
sleep 0.5
# events the kernel skipped for bpftrace's tracepoint programs: inside another
# BPF program on their CPU (ours, tp_btf, are skipped only inside themselves)
for f in /proc/$bt/fdinfo/*; do sed -n 's/^prog_id:[[:space:]]*//p' "$f"; done | sort -u |
	while read -r id; do bpftool prog show id "$id" -j; echo; done >"$T/bt.progs"
stop schedlat
kill -INT $bt
wait $bt
python3 - "$T/schedlat.out" "$T/bt.out" "$T/schedlat.err" "$T/bt.progs" $S $MS <<'PY' || fail "schedlat differs from bpftrace"
import json, re, sys
s, ms = int(sys.argv[5]), int(sys.argv[6])
rows = [json.loads(l) for l in open(sys.argv[1])]
rows = {r["pid"]: r for r in rows if r.get("task") == "tpgenrows" and r["agg"].startswith("scheduling delay")}
bt = {}
for l in open(sys.argv[2]):
    f = l.split()
    if f and f[0] == "wait":
        bt.setdefault(int(f[1]), []).append((int(f[2]), int(f[3])))
m = re.search(r"^(\d+) events missed", open(sys.argv[3]).read(), re.M)
ours_missed = int(m.group(1)) if m else 0
bt_missed = sum(json.loads(l).get("recursion_misses", 0) for l in open(sys.argv[4]) if l.strip())
missed = ours_missed + bt_missed
bad = False
# the same waits, one by one: exact, but for a wait an event the kernel skipped lost
for pid in sorted(set(rows) | set(bt)):
    n, c = len(bt.get(pid, [])), rows.get(pid, {}).get("count", 0)
    print("pid", pid, "tool", c, "bpftrace", n)
    if abs(c - n) > missed:
        print("pid %d: %d waits, bpftrace %d (events skipped: ours %d, bpftrace's %d)" %
              (pid, c, n, ours_missed, bt_missed)); bad = True
# the helper: its waits (a timer may wake it before it is off the CPU: then none)
pid = max(bt, key=lambda p: len(bt[p]), default=None)
if pid not in rows or rows[pid]["count"] < s // 2:
    print("no row of the helper with %d waits at least:" % (s // 2), rows); sys.exit(1)
r = rows[pid]
length, end = max(bt[pid])
print("tool max %d us at %d, bpftrace's longest %d us at %d; events skipped: ours %d, bpftrace's %d" %
      (r["max"], r["max_at"], length // 1000, end // 1000, ours_missed, bt_missed))
# the wait behind the child, MS ms at least, the longest of both: the same one,
# begun and ended at the same events (two programs' clocks on one event, each
# read microseconds apart: 2 to 30 us here)
if r["max"] < ms * 1000 or length < ms * 1000000:
    print("the wait of %d ms behind the child is not the longest" % ms); bad = True
if abs(r["max_at"] - end // 1000) > 200 or abs(r["max_at"] - r["max"] - (end - length) // 1000) > 200:
    print("not the same longest wait"); bad = True
sys.exit(1 if bad else 0)
PY
echo "ok: syscall-summary against strace -c ($N failing openat/close), schedlat against bpftrace ($S sleeps)"
