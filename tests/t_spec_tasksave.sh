#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# A save keyed by a task's pid alone, where every save and join has the task
# at hand (tp_btf: its task arguments, the current task for tid, the default
# key), is the task's slot of a task storage map; elsewhere a hash map. Both
# must give the same rows. The space: a plain save and join; if_absent with
# keep: true (the first value stays); if_absent with the join deleting (each
# round saves anew); an optional join where nothing is saved (its default)
# x attach tp_btf (task storage), raw_tp and tracepoint (hash maps). The
# workload: T threads, each N lseek()s to known offsets; per thread, every
# table's count and sum are known exactly.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/spec_lib.sh"
cd "$TPGEN_ROOT" || exit 1
out=$T/out
T_=4
N=50
attaches="tp_btf raw_tp tracepoint"

for a in $attaches; do
	cat > "$T/ts_$a.yaml" <<EOT
tool: ts_$a
attach: $a
events:
  - event: syscalls/sys_enter_lseek
    filter: 'comm == "tpgentask"'
    save:
      - { name: s, values: { off: offset } }
      - { name: first, values: { off: offset }, if_absent: true }
      - { name: fresh, key: tid, values: { off: offset }, if_absent: true }
  - event: syscalls/sys_enter_getppid
    filter: 'comm == "tpgentask"'
    save: { name: never, values: { off: 1 } }
  - event: syscalls/sys_exit_lseek
    join: s
    aggregate: { name: plain, by: [tid], count: true, sum: s.off }
  - event: syscalls/sys_exit_lseek
    join: { name: first, keep: true }
    aggregate: { name: kept, by: [tid], count: true, sum: first.off }
  - event: syscalls/sys_exit_lseek
    join: fresh
    aggregate: { name: renewed, by: [tid], count: true, sum: fresh.off }
  - event: syscalls/sys_exit_lseek
    filter: 'comm == "tpgentask"'
    join: { name: never, optional: true, default: { off: 5 } }
    aggregate: { name: absent, by: [tid], count: true, sum: never.off }
EOT
	"$TPGEN" -o "$out" "$T/ts_$a.yaml" || fail "tpgen ts_$a.yaml"
done
n=$(grep -c 'BPF_MAP_TYPE_TASK_STORAGE' "$out/ts_tp_btf/ts_tp_btf.bpf.c")
[ "$n" = 4 ] || fail "tp_btf: $n saved names in task storage, want 4"
grep -q 'bpf_task_storage_get(&s_saved, bpf_get_current_task_btf(), 0, BPF_LOCAL_STORAGE_GET_F_CREATE)' \
	"$out/ts_tp_btf/ts_tp_btf.bpf.c" || fail "tp_btf: the save does not make the task's slot"
for a in raw_tp tracepoint; do
	! grep -q 'TASK_STORAGE' "$out/ts_$a/ts_$a.bpf.c" || fail "$a: task storage (no BTF task pointer there)"
done

require_live
for a in $attaches; do
	make -s -C "$out/ts_$a" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build ts_$a"; }
done
for a in $attaches; do
	start ts_$a
	python3 - $T_ $N "$T/tids" <<'PY' || fail "the workload failed"
import ctypes, os, sys, threading
nt, n = int(sys.argv[1]), int(sys.argv[2])
libc = ctypes.CDLL(None)
tids = {}
def work(t):
    libc.prctl(15, b"tpgentask", 0, 0, 0)
    fd = os.open("/dev/null", os.O_RDONLY)
    for i in range(n):
        os.lseek(fd, 1000 * (t + 1) + i, os.SEEK_SET)
    os.close(fd)
    tids[threading.get_native_id()] = t
th = [threading.Thread(target=work, args=(t,)) for t in range(nt)]
for x in th:
    x.start()
for x in th:
    x.join()
with open(sys.argv[3], "w") as f:
    for tid, t in tids.items():
        f.write("%d %d\n" % (tid, t))
PY
	stop ts_$a
	python3 - "$T/ts_$a.out" "$T/tids" $N $a <<'PY' || fail "ts_$a: rows differ from what the threads did"
import json, sys
n, a = int(sys.argv[3]), sys.argv[4]
tids = dict(map(int, l.split()) for l in open(sys.argv[2]))
got = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    if "agg" in r and r["tid"] in tids:
        got[(r["agg"], r["tid"])] = (r["count"], r["sum"])
bad = 0
for tid, t in tids.items():
    offs = [1000 * (t + 1) + i for i in range(n)]
    want = {"plain": (n, sum(offs)), "kept": (n, n * offs[0]), "renewed": (n, sum(offs)), "absent": (n, 5 * n)}
    for name, w in want.items():
        if got.get((name, tid)) != w:
            print(a, name, tid, got.get((name, tid)), "want", w); bad += 1
print("ok" if not bad else "bad", a, len(tids), "threads")
sys.exit(1 if bad else 0)
PY
done
