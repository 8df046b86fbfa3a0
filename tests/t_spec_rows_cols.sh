#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Several counts and sums in one row, counts of a condition, values kept
# with max (max_at as a mapping), columns derived from the row.
#
# The space: every column set (two counts, counts of conditions alone,
# several sums, counts + sums + avg + derived columns, max with the values
# of the event that set it) x attach tracepoint, raw_tp, tp_btf x no key
# or a key x a table fed by one entry (openat's exit) or shared by three
# (openat's, close's and getppid's exits): 60 tables in one tool, and one
# per attach type that close's exits take back from (subtract), built
# -Werror, loaded, and each row compared with what the workload did:
# tpgenrows errs N (static: no loader's openat()), N failed openat()s
# (ENOENT), N/2 failed close()s (EBADF), N getppid()s.
# Then specs/kmem.yaml (kmalloc and kmem_cache_alloc in one table) against
# bpftrace on N eventfd()s: per call site,
# hits, bytes allocated and requested as bpftrace sums them, and the
# fragmentation computed from them as perf kmem does; syscall-summary's
# errors beside its calls; schedlat's max_at and max_start.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/spec_lib.sh"
cd "$TPGEN_ROOT" || exit 1
out=$T/out
N=60

# the tables of one attach type: NAME ENTRY-KIND, where ENTRY-KIND is o (openat's) or s (shared)
declare -A sets=(
	[twocounts]="count: { calls: true, errors: 'ret < 0' }"
	[conds]="count: { enoent: 'ret == -2', ebadf: 'ret == -9' }"
	[sums]="count: { calls: true }, sum: { errsum: 'ret < 0 ? -ret : 0', one: 1 }"
	[derived]="count: { calls: true, errors: 'ret < 0' }, sum: { total: 'ret < 0 ? -ret : 0' }, avg: 'ret < 0 ? -ret : 0', derive: { err_pct: { value: 100 * errors / calls, decimals: 3, percent: true }, per_call: total / calls }"
	[maxat]="count: true, max: 'ret < 0 ? -ret : 0', max_at: { at_ev: EV, at_pid: pid, at_tid: tid }"
)
setnames="twocounts conds sums derived maxat"
tables() {	# tables ATTACH EV ENTRY: the aggregates of one entry (EV: 1 openat, 2 close, 3 getppid)
	local s k sh by
	for s in $setnames; do
		for k in nokey kind; do
			for sh in o s; do
				[ "$3" = o ] || [ $sh = s ] || continue
				by=
				[ $k = kind ] && by="by: [kind: 'ret == -2 ? 1 : ret == -9 ? 2 : 0'], "
				echo "      - { name: ${s}_$1_${k}_$sh, $by${sets[$s]//EV/$2} }"
			done
		done
	done
	# taken back: openat's exits add, close's subtract
	case $2 in
	1) echo "      - { name: taken_$1, count: { calls: true, errors: 'ret < 0' }, sum: { s: 1, e: -ret } }" ;;
	2) echo "      - { name: taken_$1, count: { calls: true, errors: 'ret < 0' }, sum: { s: 1, e: -ret }, subtract: true }" ;;
	esac
}
{
	echo "tool: colrows"
	echo "events:"
	for a in tracepoint raw_tp tp_btf; do
		for e in "openat 1 o" "close 2 c" "getppid 3 c"; do
			set -- $e
			echo "  - event: syscalls/sys_exit_$1"
			echo "    attach: $a"
			echo "    filter: 'comm == \"tpgenrows\"'"
			echo "    aggregate:"
			tables $a $2 $3
		done
	done
} > "$T/colrows.yaml"
"$TPGEN" -o "$out" "$T/colrows.yaml" || fail "tpgen colrows.yaml"
for s in kmem syscall-summary schedlat; do
	"$TPGEN" -o "$out" specs/$s.yaml || fail "tpgen specs/$s.yaml"
done
# a count of a condition is one if in the handler; max_at's values are set with max
grep -Eq 'col_errors, \(.*ret.* < 0LL\) \? 1 : 0\);$' "$out/colrows/colrows.bpf.c" || fail "no conditional count"
grep -q 'val->col_at_pid = ' "$out/colrows/colrows.bpf.c" || fail "max_at's values are not kept"

require_live
command -v bpftrace >/dev/null || fail "bpftrace is missing"
for t in colrows kmem syscall_stats schedlat; do
	make -s -C "$out/$t" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $t"; }
done
cc -O2 -static -Wall -Wextra -Werror -o "$T/tpgenrows" tests/rows/tpgenrows.c || fail "build the helper (static)"

start colrows
"$T/tpgenrows" errs $N &
helper=$!
wait $helper || fail "the helper failed"
stop colrows
python3 - "$T/colrows.out" $N $helper "$setnames" <<'PY' || fail "colrows: the tables differ from what the helper did"
import json, sys
n, hpid, setnames = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split()
rows = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "agg" in r:
        rows.setdefault(r["agg"], []).append(r)
# the helper's loop: openat (ev 1, -2), every other round close (ev 2, -9), getppid (ev 3, > 0)
evs = []
for i in range(n):
    evs.append((1, -2))
    if i % 2 == 0:
        evs.append((2, -9))
    evs.append((3, 1))
def expect(s, group):
    calls = len(group)
    errv = [-r if r < 0 else 0 for _, r in group]
    errors = sum(1 for _, r in group if r < 0)
    if s == "twocounts":
        return {"calls": calls, "errors": errors}
    if s == "conds":
        return {"enoent": sum(1 for _, r in group if r == -2), "ebadf": sum(1 for _, r in group if r == -9)}
    if s == "sums":
        return {"calls": calls, "errsum": sum(errv), "one": calls}
    if s == "derived":
        return {"calls": calls, "errors": errors, "total": sum(errv), "avg": round(sum(errv) / calls, 2),
                "err_pct": round(100 * errors / calls, 3), "per_call": round(sum(errv) / calls, 2)}
    m = max(errv)
    first = next(ev for ev, r in group if (-r if r < 0 else 0) == m)
    return {"count": calls, "max": m, "at_ev": first, "at_pid": hpid, "at_tid": hpid}
bad = checked = 0
for a in ("tracepoint", "raw_tp", "tp_btf"):
    for s in setnames:
        for k in ("nokey", "kind"):
            for sh in ("o", "s"):
                name = "%s_%s_%s_%s" % (s, a, k, sh)
                group = [e for e in evs if sh == "s" or e[0] == 1]
                want = {}
                for ev, r in group:
                    key = None if k == "nokey" else (1 if r == -2 else 2 if r == -9 else 0)
                    want.setdefault(key, []).append((ev, r))
                got = {}
                for r in rows.get(name, []):
                    got[None if k == "nokey" else r["kind"]] = r
                if set(got) != set(want):
                    print(name, "rows", sorted(map(str, got)), "want", sorted(map(str, want))); bad += 1
                    continue
                for key, g in want.items():
                    for c, v in expect(s, g).items():
                        checked += 1
                        if c not in got[key] or abs(got[key][c] - v) > 1e-9:
                            print(name, key, c, got[key].get(c), "want", v); bad += 1
# openat's N exits added, close's N/2 taken away
nc = (n + 1) // 2
for a in ("tracepoint", "raw_tp", "tp_btf"):
    r = rows.get("taken_" + a, [{}])[0]
    want = {"calls": n - nc, "errors": n - nc, "s": n - nc, "e": 2 * n - 9 * nc}
    for c, v in want.items():
        checked += 1
        if r.get(c) != v:
            print("taken_" + a, c, r.get(c), "want", v); bad += 1
print("ok:" if not bad else "bad:", checked, "values of 63 tables checked,", bad, "wrong")
sys.exit(1 if bad else 0)
PY
# the text: every named column under its name, the derived ones as perf prints them
"$out/colrows/colrows" -d 1 >"$T/colrows.txt" 2>/dev/null &
txt=$!
sleep 0.5
"$T/tpgenrows" errs 4
wait $txt
grep -Eq '^ +CALLS +ERRORS +TOTAL +AVG +ERR_PCT +PER_CALL  KIND$' "$T/colrows.txt" ||
	{ cat "$T/colrows.txt"; fail "colrows: no heading of named and derived columns"; }
grep -Eq '^ +4 +4 +8 +2\.0 +100\.000% +2\.00  1$' "$T/colrows.txt" ||
	{ cat "$T/colrows.txt"; fail "colrows: the openat row of the derived table"; }

# kmem against bpftrace: the tpgenrows' allocations, per call site address
NE=400
rm -f "$T/ready"
bpftrace -e 'tracepoint:kmem:kmalloc, tracepoint:kmem:kmem_cache_alloc /comm == "tpgenrows"/ {
	@h[args->call_site] = count();
	@a[args->call_site] = sum(args->bytes_alloc); @r[args->call_site] = sum(args->bytes_req); }' \
	>"$T/bt.out" 2>"$T/bt.err" &
bt=$!
start kmem -c tpgenrows
for i in $(seq 100); do grep -q '^Attaching' "$T/bt.out" && break; sleep 0.1; done
grep -q '^Attaching' "$T/bt.out" || { cat "$T/bt.err"; fail "bpftrace did not attach"; }
sleep 1
"$T/tpgenrows" eventfds $NE 0 "$T/ready" &
helper=$!
for i in $(seq 100); do [ -e "$T/ready" ] && break; sleep 0.1; done
[ -e "$T/ready" ] || fail "the helper did not get ready"
kill $helper 2>/dev/null
wait $helper 2>/dev/null
sleep 0.5
stop kmem
kill -INT $bt
wait $bt
python3 - "$T/kmem.out" "$T/bt.out" $NE <<'PY' || fail "kmem: call sites differ from bpftrace's"
import json, re, sys
ne = int(sys.argv[3])
bt = {}
# bpftrace prints an unsigned long call_site signed; @h, @a, @r: kmalloc's and kmem_cache_alloc's
for m in re.finditer(r"^@(\w)\[(-?\d+)\]: (\d+)$", open(sys.argv[2]).read(), re.M):
    bt.setdefault(int(m.group(2)) & (2 ** 64 - 1), {})[m.group(1)] = int(m.group(3))
allrows = [json.loads(l) for l in open(sys.argv[1])]
rows = [r for r in allrows if r.get("agg") == "allocations by call site"]
bad = 0
eventfd = None
for r in rows:
    cs = int(r["call_site"], 16)
    b = bt.get(cs)
    if not b:
        print("bpftrace saw nothing at", r["call_site"], r.get("call_site_name")); bad += 1; continue
    want = {"hits": b["h"], "bytes_alloc": b["a"], "bytes_req": b["r"],
            "frag": round(100 * (b["a"] - b["r"]) / b["a"], 3) if b["a"] else 0}
    for c, v in want.items():
        if abs(r[c] - v) > 1e-9:
            print(r["call_site_name"], c, r[c], "bpftrace", v); bad += 1
    if r["hits"] == ne and "eventfd" in r.get("call_site_name", ""):
        eventfd = r
# the top 20 by bytes allocated, as bpftrace's
top = sorted(bt.values(), key=lambda b: -b["a"])[:len(rows)]
if sorted(r["bytes_alloc"] for r in rows) != sorted(b["a"] for b in top):
    print("rows", sorted(r["bytes_alloc"] for r in rows), "bpftrace's top", sorted(b["a"] for b in top)); bad += 1
if not eventfd:
    print("no row of", ne, "eventfd allocations"); bad += 1
else:
    print("ok: %d rows of kmalloc and kmem_cache_alloc; eventfd: %d hits, %d allocated, %d requested, %.3f%%" %
          (len(rows), eventfd["hits"], eventfd["bytes_alloc"], eventfd["bytes_req"], eventfd["frag"]))
sys.exit(1 if bad else 0)
PY

# syscall-summary: calls and errors in one row, the errors as the table by errno counts them
start syscall_stats -c tpgenrows
"$T/tpgenrows" errs $N
stop syscall_stats
python3 - "$T/syscall_stats.out" $N <<'PY' || fail "syscall_stats: calls and errors"
import json, sys
n = int(sys.argv[2])
rows = [json.loads(l) for l in open(sys.argv[1])]
per = {r["syscall_name"]: r for r in rows if r.get("agg", "").startswith("system calls")}
want = {"openat": (n, n), "close": ((n + 1) // 2, (n + 1) // 2), "getppid": (n, 0)}
bad = 0
for s, (calls, errors) in want.items():
    r = per.get(s)
    if not r or r["calls"] != calls or r["errors"] != errors or r["avg"] != round(r["total"] / calls, 2):
        print(s, r, "want calls", calls, "errors", errors); bad += 1
errs = sum(r["count"] for r in rows if r.get("agg") == "errors per thread")
if errs != sum(r["errors"] for r in per.values()):
    print("errors by errno", errs, "errors beside calls", sum(r["errors"] for r in per.values())); bad += 1
sys.exit(1 if bad else 0)
PY

# schedlat: the longest wait's end (max_at) and start (max_start) are max apart; the helper
# makes one of 20 ms at least, behind a SCHED_FIFO child on its CPU
start schedlat
"$T/tpgenrows" sleeps 50 20 || fail "the helper failed"
stop schedlat
python3 - "$T/schedlat.out" <<'PY' || fail "schedlat: max_at and max_start"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
rows = [r for r in rows if r.get("agg", "").startswith("scheduling delay") and r["task"] == "tpgenrows"]
bad = not rows or max(r["max"] for r in rows) < 20000
for r in rows:
    if abs(r["max_at"] - r["max_start"] - r["max"]) > 1 or r["max_start"] <= 0:
        print(r); bad = True
sys.exit(1 if bad else 0)
PY
echo "ok: 63 tables of named and derived columns; kmem, syscall-summary and schedlat"
