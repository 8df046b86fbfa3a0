#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Tables fed by several entries, and taken back from: open file descriptors
# outstanding, as memleak keeps allocations. openat() and dup() add a row's
# count and mode (openat's argument, kept with the fd), close() subtracts
# them. Every aggregate kind (count, sum, count+sum, avg, stddev) times
# every key kind (a saved string, a saved number, a saved kernel stack) is
# one table fed by the three events. The workload (tests/rows/tpgenrows.c
# fds) holds some fds open while the tool prints; each table must show
# exactly those, and -i must not reset them. Then memleak.yaml: N eventfd()s,
# K closed: the eventfd context's stack has N - K allocations outstanding,
# of the size bpftrace sees kmalloc() give them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/spec_lib.sh"
cd "$TPGEN_ROOT" || exit 1
out=$T/out
N=60

declare -A fns=(
	[count]='count: true'
	[sum]='sum: V'
	[countsum]='count: true, sum: V'
	[avg]='avg: V'
	[stddev]='stddev: V'
)
declare -A keys=([path]='path: P.path' [kind]='kind: P.kind' [stack]='stack: P.stack')
aggs() {	# aggs PREFIX [subtract]: every table, its values from the set PREFIX
	local f k
	for f in count sum countsum avg stddev; do
		for k in path kind stack; do
			echo "      - { name: ${f}_$k, by: [${keys[$k]//P./$1.}], ${fns[$f]//V/$1.mode}${2:+, subtract: true} }"
		done
	done
}
cat > "$T/fdrows.yaml" <<EOT
tool: fdrows
events:
  - event: syscalls/sys_enter_openat
    filter: 'comm == "tpgenrows"'
    save: { name: o, values: { path: filename, mode: mode, kind: mode % 3, stack: kstack } }
  - event: syscalls/sys_exit_openat
    filter: 'ret >= 0'
    join: o
    save: { name: fd, key: [pid, ret], values: { path: o.path, mode: o.mode, kind: o.kind, stack: o.stack } }
    aggregate:
$(aggs o)
  - event: syscalls/sys_enter_dup
    filter: 'comm == "tpgenrows"'
    save: { name: d, values: { old: fildes } }
  - event: syscalls/sys_exit_dup
    filter: 'ret >= 0'
    join: [d, { name: fd, key: [pid, d.old], keep: true }]
    save: { name: fd, key: [pid, ret], values: { path: fd.path, mode: fd.mode, kind: fd.kind, stack: fd.stack } }
    aggregate:
$(aggs fd)
  - event: syscalls/sys_enter_close
    join: { name: fd, key: [pid, fd] }
    aggregate:
$(aggs fd subtract)
EOT
"$TPGEN" -o "$out" "$T/fdrows.yaml" || fail "tpgen fdrows.yaml"
# one map per table, declared once
[ "$(grep -c '^} count_path SEC' "$out/fdrows/fdrows.bpf.c")" = 1 ] || fail "a shared table is not one map"
grep -q '__sync_fetch_and_sub(&val->sqsum' "$out/fdrows/fdrows.bpf.c" || fail "stddev is not taken back"
"$TPGEN" -o "$out" specs/memleak.yaml || fail "tpgen memleak.yaml"

require_live
command -v bpftrace >/dev/null || fail "bpftrace is missing"
for t in fdrows memleak; do
	make -s -C "$out/$t" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $t"; }
done
cc -O2 -Wall -Wextra -Werror -o "$T/tpgenrows" tests/rows/tpgenrows.c || fail "build the helper"

# the helper's fds, outstanding while the tool prints: each a row of (path, mode, kind)
want_fds() {
	local i
	for ((i = 1; i <= N; i++)); do
		((i % 3)) && echo "a $i"
		((i % 2 == 0 && i % 4)) && echo "a $i"
	done
	for ((i = 1; i <= N / 2; i++)); do
		echo "b $((100 + i))"
	done
}
want_fds > "$T/fds"

# fdrows with -i 1: two intervals while the helper holds its fds; the last is checked
mkdir -p "$T/dir"
start fdrows -i 1
"$T/tpgenrows" fds "$T/dir" $N "$T/ready" &
helper=$!
for i in $(seq 100); do [ -e "$T/ready" ] && break; sleep 0.1; done
[ -e "$T/ready" ] || fail "the helper did not get ready"
sleep 2.5
stop fdrows
kill $helper
wait $helper 2>/dev/null

python3 - "$T/fdrows.out" "$T/fds" "$T/dir" <<'PY' || fail "fdrows: the tables differ from the fds the helper held"
import json, math, sys
fds = [(l.split()[0], int(l.split()[1])) for l in open(sys.argv[2])]
d = sys.argv[3]
last = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "agg" in r:
        last.setdefault(r["agg"], []).append(r)
keyf = {
    "path": lambda p, m: d + "/" + p,
    "kind": lambda p, m: m % 3,
}
bad = 0
for f in ("count", "sum", "countsum", "avg", "stddev"):
    for k in ("path", "kind", "stack"):
        name = "%s_%s" % (f, k)
        if name not in last:
            print("no table", name); bad += 1; continue
        want = {}
        for p, m in fds:
            want.setdefault(keyf[k](p, m) if k != "stack" else "stack", []).append(m)
        got = {}
        for r in last[name]:
            key = r["stack"] if k == "stack" else r[k]
            if k == "stack":
                key = "stack"
            got[key] = r
        if set(got) != set(want):
            print(name, "keys", sorted(map(str, got)), "want", sorted(map(str, want))); bad += 1; continue
        for key, ms in want.items():
            r = got[key]
            n, s = len(ms), sum(ms)
            exp = {}
            if f in ("count", "countsum", "avg", "stddev"): exp["count"] = n
            if f in ("sum", "countsum", "avg", "stddev"): exp["sum"] = s
            if f == "avg": exp["avg"] = round(s / n, 2)
            if f == "stddev": exp["stddev"] = math.floor(math.sqrt(sum(m * m for m in ms) / n - (s / n) ** 2) + 0.5)
            for c, v in exp.items():
                if c not in r or abs(r[c] - v) > (1 if c == "stddev" else 0.01):
                    print(name, key, c, r.get(c), "want", v); bad += 1
sys.exit(1 if bad else 0)
PY
# each interval printed the same state: -i did not reset what is outstanding
n=$(grep -c '"agg": *"count_path"' "$T/fdrows.out")
[ "$n" -ge 4 ] || fail "fdrows -i 1 printed count_path $n times, want two intervals or more of two rows"

# memleak.yaml: the eventfd contexts the helper left allocated
NE=300 KE=100
rm -f "$T/ready"
bpftrace -e 'tracepoint:kmem:kmalloc /comm == "tpgenrows"/ { @[ksym(args->call_site), args->bytes_alloc] = count(); }' \
	>"$T/bt.out" 2>"$T/bt.err" &
bt=$!
start memleak
for i in $(seq 100); do grep -q '^Attaching' "$T/bt.out" && break; sleep 0.1; done
sleep 1
"$T/tpgenrows" eventfds $NE $KE "$T/ready" &
helper=$!
for i in $(seq 100); do [ -e "$T/ready" ] && break; sleep 0.1; done
[ -e "$T/ready" ] || fail "the helper did not get ready"
sleep 0.5
stop memleak
kill -INT $bt
wait $bt
kill $helper
wait $helper 2>/dev/null
python3 - "$T/memleak.out" "$T/bt.out" $NE $KE <<'PY' || fail "memleak: the eventfd allocations differ"
import json, re, sys
ne, ke = int(sys.argv[3]), int(sys.argv[4])
# bpftrace: the kmalloc()s of an eventfd context: their caller and size
size = caller = None
for m in re.finditer(r"^@\[(\w+), (\d+)\]: (\d+)$", open(sys.argv[2]).read(), re.M):
    if "eventfd" in m.group(1) and int(m.group(3)) == ne:
        caller, size = m.group(1), int(m.group(2))
if size is None:
    print("bpftrace saw no", ne, "eventfd kmalloc()s:\n" + open(sys.argv[2]).read()); sys.exit(1)
# the row of that caller's kmalloc(): the allocator's frame, then the caller's
rows = [json.loads(l) for l in open(sys.argv[1])]
rows = [r for r in rows if "agg" in r and len(r["stack"]) > 1 and r["stack"][1].split("+")[0] == caller
        and "kmalloc" in r["stack"][0]]
if len(rows) != 1:
    print("want one row of", caller, "got", rows); sys.exit(1)
r = rows[0]
if r["count"] != ne - ke or r["sum"] != (ne - ke) * size:
    print("eventfd row", r["count"], r["sum"], "want", ne - ke, (ne - ke) * size); sys.exit(1)
print("ok: eventfd", r["count"], "outstanding of", size, "bytes")
PY
echo "ok: 5 aggregate kinds x 3 key kinds x 3 events, $N opens; memleak $NE eventfds"
