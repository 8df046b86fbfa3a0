#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# A table by one key whose values the kernel names (an enum, a print fmt's
# symbols, the syscall table) keeps the rows of those values in a global
# array indexed by the key, as libbpf-tools' softirqs keeps its counts, and
# the other values in its map. Both must give the same rows as a map alone.
#
# The space: five function sets (a count; count and sum; a log2 histogram;
# a linear one; counts of a condition) and a control with max, which keeps
# the map alone, x attach tracepoint, raw_tp, tp_btf x a table of lseek()'s
# entry alone or shared with getpriority()'s by enum(x, pid_type)
# (PIDTYPE_PID 0 to PIDTYPE_MAX 4: rows 0 to 4), and getpriority()'s alone
# (a signed key): 54. The workload passes whence and which inside and
# outside those rows (-1 for getpriority), and every row is compared with
# what it did: at the end, and added up over -i intervals (the array's rows
# are taken and zeroed each one).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/spec_lib.sh"
cd "$TPGEN_ROOT" || exit 1
out=$T/out

declare -A sets=(
	[count]="count: true"
	[sum]="count: true, sum: V"
	[hist]="hist: V"
	[lhist]="lhist: { value: V, min: 0, max: 40, step: 8 }"
	[cols]="count: { calls: true, big: 'V > 5' }"
	[max]="count: true, max: V"
)
setnames="count sum hist lhist cols max"
{
	echo "tool: idxrows"
	echo "events:"
	for a in tracepoint raw_tp tp_btf; do
		echo "  - event: syscalls/sys_enter_lseek"
		echo "    attach: $a"
		echo "    filter: 'comm == \"tpgenidx\"'"
		echo "    aggregate:"
		for s in $setnames; do
			for sh in o s; do
				echo "      - { name: ${s}_${a}_$sh, by: [w: 'enum(whence, pid_type)'], ${sets[$s]//V/offset} }"
			done
		done
		echo "  - event: syscalls/sys_enter_getpriority"
		echo "    attach: $a"
		echo "    filter: 'comm == \"tpgenidx\"'"
		echo "    aggregate:"
		for s in $setnames; do
			echo "      - { name: ${s}_${a}_s, by: [w: 'enum(which, pid_type)'], ${sets[$s]//V/who} }"
			echo "      - { name: ${s}_${a}_g, by: [w: 'enum(which, pid_type)'], ${sets[$s]//V/who} }"
		done
	done
} > "$T/idxrows.yaml"
"$TPGEN" -o "$out" "$T/idxrows.yaml" || fail "tpgen idxrows.yaml"
bpf=$out/idxrows/idxrows.bpf.c
# every table but max's indexes its rows; max's (which starts at the smallest value) is a map alone
n=$(grep -c '_rows\[5\] = {};$' "$bpf")
[ "$n" = 45 ] || fail "$n tables keep rows in an array, want 45"
grep -q 'max_tracepoint_o_rows' "$bpf" && fail "max's table has rows"
grep -Eq 'if \(key\.w < 5\)$' "$bpf" || fail "no row indexed by the key"
grep -Eq 'if \(\(__u64\)key\.w < 5\)$' "$bpf" || fail "no row indexed by a signed key"

require_live
make -s -C "$out/idxrows" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build idxrows"; }

# the workload: per round, lseek() with each whence and getpriority() with each which
WH="0 1 2 3 4 5 7 1000 4294967295"
WI="0 1 2 4 5 9 -1"
R=6
work() {
	python3 - "$R" "$WH" "$WI" <<'PY'
import ctypes, os, sys
ctypes.CDLL(None).prctl(15, b"tpgenidx", 0, 0, 0)
rounds = int(sys.argv[1])
fd = os.open("/dev/null", os.O_RDONLY)
libc = ctypes.CDLL(None, use_errno=True)
libc.lseek.argtypes = [ctypes.c_int, ctypes.c_long, ctypes.c_uint]
libc.getpriority.argtypes = [ctypes.c_int, ctypes.c_uint]
for i in range(rounds):
    for w in map(int, sys.argv[2].split()):
        libc.lseek(fd, 3 * i + w % 7, w)
    for w in map(int, sys.argv[3].split()):
        libc.getpriority(w, 4 * i)
PY
}
check() {	# check FILE WHAT TIMES: the rows of FILE (added up over its intervals) are TIMES workloads'
	python3 - "$1" "$R" "$WH" "$WI" "$setnames" "$3" <<'PY' || fail "$2: rows differ from what the workload did"
import json, sys
rounds, wh, wi, setnames = int(sys.argv[2]), sys.argv[3].split(), sys.argv[4].split(), sys.argv[5].split()
got = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    name = r.get("agg", r.get("hist"))
    if name is None:
        continue
    g = got.setdefault(name, {}).setdefault(r["w"], {})
    for b in r.get("buckets", []):
        lows = g.setdefault("lows", {})
        lows[b["low"]] = lows.get(b["low"], 0) + b["count"]
    for k, v in r.items():
        if k in ("agg", "hist", "w", "w_name", "ts", "unit", "buckets"):
            continue
        if k == "max":
            g[k] = max(g.get(k, 0), v)
        elif isinstance(v, list):
            g[k] = [a + b for a, b in zip(g[k], v)] if k in g else v
        elif isinstance(v, (int, float)):
            g[k] = g.get(k, 0) + v
        else:
            g[k] = v
ls = [(int(w) & 0xffffffff, 3 * i + int(w) % 7) for i in range(rounds) for w in wh]
# the shared tables' key is lseek's: getpriority's -1 is its unsigned int's 4294967295
gp = [(int(w) & 0xffffffff, 4 * i) for i in range(rounds) for w in wi]
# getpriority's own tables: which is an int, -1 stays -1
gs = [(int(w), 4 * i) for i in range(rounds) for w in wi]
ls, gp, gs = ls * int(sys.argv[6]), gp * int(sys.argv[6]), gs * int(sys.argv[6])
def want(s, evs):
    v = [x for _, x in evs]
    if s == "count":
        return {"count": len(v)}
    if s == "sum":
        return {"count": len(v), "sum": sum(v)}
    if s == "max":
        return {"count": len(v), "max": max(v)}
    if s == "cols":
        return {"calls": len(v), "big": sum(1 for x in v if x > 5)}
    lows = {}
    for x in v:
        low = (x // 8) * 8 if s == "lhist" else 0 if x < 2 else 1 << (x.bit_length() - 1)
        lows[low] = lows.get(low, 0) + 1
    return {"lows": lows}
bad = checked = 0
for a in ("tracepoint", "raw_tp", "tp_btf"):
    for s in setnames:
        for sh in ("o", "s", "g"):
            name = "%s_%s_%s" % (s, a, sh)
            evs = gs if sh == "g" else ls + (gp if sh == "s" else [])
            keys = {}
            for w, x in evs:
                keys.setdefault(w, []).append((w, x))
            rows = got.get(name, {})
            if sorted(rows) != sorted(keys):
                print(name, "keys", sorted(rows), "want", sorted(keys)); bad += 1
                continue
            for w, e in keys.items():
                exp = want(s, e)
                for k, v in exp.items():
                    checked += 1
                    if k == "lows":
                        v = {lo: c for lo, c in v.items() if c}
                        rows[w][k] = {lo: c for lo, c in rows[w].get(k, {}).items() if c}
                    if rows[w].get(k) != v:
                        print(name, w, k, rows[w].get(k), "want", v); bad += 1
print("ok:" if not bad else "bad:", checked, "values checked,", bad, "wrong")
sys.exit(1 if bad else 0)
PY
}

start idxrows
work || fail "the workload failed"
stop idxrows
check "$T/idxrows.out" "at the end" 1

# -i: each interval takes the rows it shows (the array's zeroed in place, the map's deleted);
# over the intervals they add up to the workload, none lost nor shown twice
start idxrows -i 1
for r in 1 2 3; do
	work || fail "the workload failed"
	sleep 1.2
done
stop idxrows
check "$T/idxrows.out" "over -i intervals" 3
