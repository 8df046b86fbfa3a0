#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Every valid set of an aggregate's functions (count, sum, min, max, avg,
# stddev, max_at: each non-empty subset, max_at only with max), keyed and
# keyless, under tracepoint, raw_tp and tp_btf: 570 tables over one
# workload of known values. The helper (tests/rows/tpgenrows.c writes)
# calls write(1000 + i, NULL, SIZE_i): the count argument's count, sum,
# min, max, avg, stddev and the fd of the first write reaching the maximum
# are known per key (fd % 2) and in all; every table must show exactly
# them, in its text columns and in -j (and --metrics, max_at's series).
# tpgen-timeout: 300
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/spec_lib.sh"
cd "$TPGEN_ROOT" || exit 1
out=$T/out
SIZES="5 17 3 100 42 100 7 64 64 9"
PER=40		# tables per entry: under the 64 maps of a program

python3 - "$T" $PER <<'PY' || fail "the specs could not be generated"
import itertools, sys
T, per = sys.argv[1], int(sys.argv[2])
fns = ["count", "sum", "min", "max", "avg", "stddev", "max_at"]
sets = [s for n in range(1, 8) for s in itertools.combinations(fns, n)
        if "max_at" not in s or "max" in s]
tables = [(k, s) for k in ("k", "all") for s in sets]
chunks = [tables[i:i + per] for i in range(0, len(tables), per)]
names = open(T + "/tools", "w")
for c, chunk in enumerate(chunks):
    tool = "aggsets%d" % c
    names.write(tool + "\n")
    with open("%s/%s.yaml" % (T, tool), "w") as f:
        f.write("tool: %s\nevents:\n" % tool)
        for a in ("tracepoint", "raw_tp", "tp_btf"):
            f.write("  - event: syscalls/sys_enter_write\n    attach: %s\n" % a)
            f.write("    filter: 'comm == \"tpgenrows\"'\n    aggregate:\n")
            for k, s in chunk:
                items = ["name: \"%s %s %s\"" % (a, k, ",".join(s))]
                if k == "k":
                    items.append("by: [k: fd % 2]")
                for fn in s:
                    items.append("count: true" if fn == "count" else
                                 "max_at: fd" if fn == "max_at" else "%s: count" % fn)
                f.write("      - { %s }\n" % ", ".join(items))
print(len(tables) * 3, "tables in", len(chunks), "tools")
PY
tools=$(cat "$T/tools")
for t in $tools; do
	"$TPGEN" -o "$out" "$T/$t.yaml" || fail "tpgen $t.yaml"
done

require_live
for t in $tools; do
	make -s -C "$out/$t" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $t"; }
done
cc -O2 -Wall -Wextra -Werror -o "$T/tpgenrows" tests/rows/tpgenrows.c || fail "build the helper"

# each tool twice: -j, and text (its own start(), without -j)
pids=()
for t in $tools; do
	start $t
	pids+=($pid)
	"$out/$t/$t" >"$T/$t.txt" 2>"$T/$t.txterr" &
	pids+=($!)
	for i in $(seq 100); do
		grep -q '^Tracing' "$T/$t.txterr" && break
		kill -0 ${pids[-1]} 2>/dev/null || { cat "$T/$t.txterr"; fail "$t exited early"; }
		sleep 0.1
	done
done
# and the first as an exporter: each max_at series is the fd of its max
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
t0=$(head -1 "$T/tools")
"$out/$t0/$t0" --metrics "$port" >"$T/metrics.out" 2>"$T/metrics.err" &
pids+=($!)
for i in $(seq 100); do
	curl -sf "http://127.0.0.1:$port/metrics" >/dev/null && break
	sleep 0.1
done
sleep 0.5
"$T/tpgenrows" writes $SIZES || fail "the helper failed"
sleep 0.5
curl -sf "http://127.0.0.1:$port/metrics" >"$T/metrics.prom" || fail "$t0: scrape failed"
for p in "${pids[@]}"; do
	kill -INT $p
done
for p in "${pids[@]}"; do
	wait $p || fail "a tool exited $? after SIGINT"
done

# max_at: 1008 (k 0), 1003 (k 1, and keyless: the first of two maxima of 100)
n=$(grep -Ec '^[a-z0-9_]+_max_at(\{k="[01]"\})? ' "$T/metrics.prom")
[ "$n" -ge 9 ] || { cat "$T/metrics.prom"; fail "$t0: $n max_at series"; }
! grep -E '^[a-z0-9_]+_max_at(\{k="[01]"\})? ' "$T/metrics.prom" |
	grep -Ev '^[a-z0-9_]+_max_at(\{k="0"\} 1008|\{k="1"\} 1003| 1003)$' ||
	fail "$t0: --metrics shows another max_at"
python3 - "$T" $SIZES <<'PY' || fail "the tables are not what the helper did"
import json, math, re, sys
T, sizes = sys.argv[1], [int(x) for x in sys.argv[2:]]

def want(rows):	# rows: [(fd, size)]
    n, s = len(rows), sum(sz for _, sz in rows)
    sq = sum(sz * sz for _, sz in rows)
    m = max(sz for _, sz in rows)
    return {"count": n, "sum": s, "min": min(sz for _, sz in rows), "max": m,
            "avg": s / n, "stddev": math.isqrt((n * sq - s * s) // (n * n)),
            "max_at": next(fd for fd, sz in rows if sz == m)}

writes = [(1000 + i, sz) for i, sz in enumerate(sizes)]
keyed = {k: want([w for w in writes if w[0] % 2 == k]) for k in (0, 1)}
whole = want(writes)
# the columns each set shows: avg and stddev add count and sum; max_at adds max
def shown(fns):
    cols = set(fns)
    if "avg" in cols or "stddev" in cols:
        cols |= {"count", "sum"}
    if "max_at" in cols:
        cols.add("max")
    return [c for c in ("count", "sum", "min", "max", "avg", "stddev", "max_at") if c in cols]

tables = {}
for t in open(T + "/tools").read().split():
    for line in open("%s/%s.yaml" % (T, t)):
        m = re.match(r"      - \{ name: \"(\S+ \S+ \S+)\"", line)
        if m:
            tables[m.group(1)] = t
bad = []
for name, tool in sorted(tables.items()):
    a, k, fns = name.split(" ")
    cols = shown(fns.split(","))
    exp = {}
    for key, w in (keyed.items() if k == "k" else [(None, whole)]):
        exp[key] = {c: (round(w[c], 2) if c == "avg" else w[c]) for c in cols}
    # -j
    got = {}
    for line in open("%s/%s.out" % (T, tool)):
        r = json.loads(line)
        if r.get("agg") == name:
            got[r.get("k")] = {c: r.get(c) for c in cols}
            extra = set(r) - set(cols) - {"agg", "k"}
            if extra:
                bad.append("%s: -j has %s too" % (name, sorted(extra)))
    if got != exp:
        bad.append("%s: -j %r, want %r" % (name, got, exp))
    # text: the title, the heading, a row per key
    txt = open("%s/%s.txt" % (T, tool)).read().split("\n\n")
    block = [b.strip("\n").split("\n") for b in txt if b.strip("\n").split("\n")[0] == name]
    if len(block) != 1:
        bad.append("%s: %d text tables" % (name, len(block)))
        continue
    head = block[0][1].split()
    gott = {}
    for row in block[0][2:]:
        f = dict(zip(head, row.split()))
        key = int(f["K"]) if "K" in f else None
        gott[key] = {c: float(f[c.upper()]) if c == "avg" else int(f[c.upper()]) for c in cols if c.upper() in f}
    expt = {key: {c: (round(v, 1) if c == "avg" else v) for c, v in e.items()} for key, e in exp.items()}
    for e in expt.values():
        if "avg" in e:
            e["avg"] = float("%.1f" % e["avg"])
    if gott != expt:
        bad.append("%s: text %r, want %r" % (name, gott, expt))
for b in bad[:40]:
    print(b)
if bad:
    sys.exit("%d of %d tables differ" % (len(bad), len(tables)))
print("ok: %d tables, keyed and keyless, exact" % len(tables))
PY
