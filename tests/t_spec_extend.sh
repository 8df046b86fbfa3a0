#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The three examples of docs/extending.md, each one line of its table, seen
# live by one tool around a workload whose numbers the test knows:
#  - stddev: writes of known sizes to /dev/null give count, sum, avg and the
#    population standard deviation (integer) of their sizes, on the fd's row,
#    sorted by stddev, in text and JSON;
#  - numaid and elapsed: a getpgid() pinned to CPU 0 reads the node of CPU 0;
#    elapsed is at least the second the workload waited after the tool
#    attached, and at most the time since the tool was started;
#  - af(): socket() calls of AF_INET6, AF_UNIX and AF_NETLINK are named, as
#    print items and as keys.
# Refused: a sort by a function the aggregate lacks, a stddev of another value
# than sum's; the messages list stddev among the functions.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/spec_lib.sh"
cd "$TPGEN_ROOT" || exit 1
out=$T/out

cat > "$T/ext.yaml" <<'EOT'
tool: tpgenext
description: stddev, numaid, elapsed and af() as a user writes them
events:
  - event: syscalls/sys_enter_write
    aggregate:
      - by: [fd]
        count: true
        sum: count
        avg: count
        stddev: count
        sort: stddev
  - event: syscalls/sys_enter_getpgid
    print: [cpu, numaid, elapsed]
  - event: syscalls/sys_enter_socket
    print: [af(family)]
    aggregate: { by: [af(family)], count: true }
EOT
"$TPGEN" -o "$out" "$T/ext.yaml" || fail "tpgen ext.yaml"
grep -q '__sync_fetch_and_add(&val->sqsum, (__u64)v \* v);' "$out/tpgenext/tpgenext.bpf.c" ||
	fail "stddev adds no square"
grep -q 'bpf_get_numa_node_id()' "$out/tpgenext/tpgenext.bpf.c" || fail "numaid is not read"
grep -q 'const volatile __u64 tpgen_start_ns' "$out/tpgenext/tpgenext.bpf.c" || fail "elapsed has no start"

# refused, with the functions the table has
bad() {	# bad NAME AGGREGATE REGEX
	printf 'tool: bad\nevents:\n  - event: syscalls/sys_enter_write\n    aggregate:\n      - %s\n' "$2" \
		>"$T/$1.yaml"
	"$TPGEN" -o "$T/bad" "$T/$1.yaml" 2>"$T/$1.err" && fail "$1: accepted"
	grep -Eq "$3" "$T/$1.err" || { cat "$T/$1.err"; fail "$1: not /$3/"; }
}
bad nosort '{ count: true, sort: stddev }' 'sort by stddev, which the aggregate does not compute'
bad unknownsort '{ count: true, sort: median }' "unknown sort 'median' \(count, sum, min, max, avg, stddev, max_at or key\)"
bad nothing '{ by: [fd] }' 'give it count, sum, min, max, avg, hist, lhist, stddev or max_at'
bad othervalue '{ sum: count, stddev: fd }' "stddev is of the values sum adds up: give it the value of 'sum' \(count\)"
bad histmix '{ hist: count, stddev: count }' 'count, sum, min, max, avg, stddev and max_at go in another'

require_live
command -v taskset >/dev/null || fail "taskset is missing (util-linux)"
make -s -C "$out/tpgenext" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build tpgenext"; }

sizes="100 200 300 400 1000"
t0=$(date +%s%N)
start tpgenext -c tpgenwork
"$out/tpgenext/tpgenext" -c tpgenwork >"$T/text.out" 2>&1 &
text=$!
sleep 1	# elapsed: the tools attached at least a second before the workload's calls
taskset -c 0 python3 - "$T/fd" $sizes <<'EOT' || fail "the workload failed"
import ctypes, os, socket, sys
ctypes.CDLL(None).prctl(15, b"tpgenwork", 0, 0, 0)	# PR_SET_NAME: the tools' -c
fd = os.open("/dev/null", os.O_WRONLY)
open(sys.argv[1], "w").write("%d" % fd)
for n in sys.argv[2:]:
    os.write(fd, b"x" * int(n))
os.getpgid(0)
for f in (socket.AF_INET6, socket.AF_UNIX, socket.AF_NETLINK, socket.AF_INET6):
    socket.socket(f, socket.SOCK_DGRAM).close()
EOT
t1=$(date +%s%N)
stop tpgenext
kill -INT $text
wait $text || fail "the text tool exited $?"
fd=$(cat "$T/fd")
node=$(ls -d /sys/devices/system/cpu/cpu0/node* 2>/dev/null | sed -n 's/.*node//p' | head -1)

python3 - "$T/tpgenext.out" "$T/text.out" "$fd" "${node:-0}" $((t1 - t0)) $sizes <<'EOT' ||
import json, math, sys
path, text, fd, node, since = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
sizes = [int(x) for x in sys.argv[6:]]
rows = [json.loads(l) for l in open(path) if l.startswith("{")]
n, s = len(sizes), sum(sizes)
sd = math.isqrt((n * sum(x * x for x in sizes) - s * s) // (n * n))

def check(ok, what):
    if not ok:
        print("\n".join(json.dumps(r) for r in rows[:40]))
        sys.exit("tpgenext: " + what)

w = [r for r in rows if r.get("agg", "").startswith("syscalls/sys_enter_write") and r.get("fd") == fd]
check(len(w) == 1, "no row of fd %d" % fd)
check(w[0]["count"] == n and w[0]["sum"] == s, "count/sum %r, not %d/%d" % (w[0], n, s))
check(abs(w[0]["avg"] - s / n) < 0.01, "avg %r, not %.2f" % (w[0]["avg"], s / n))
check(w[0]["stddev"] == sd, "stddev %r, not %d" % (w[0]["stddev"], sd))
# the text table: a STDDEV column, and the fd's row has it
lines = open(text).read().splitlines()
head = [l for l in lines if "STDDEV" in l]
check(head and head[0].split() == ["COUNT", "SUM", "AVG", "STDDEV", "FD"], "text heading %r" % head)
check(any(l.split() == [str(n), str(s), "%.1f" % (s / n), str(sd), str(fd)] for l in lines),
      "no text row '%d %d %.1f %d %d'" % (n, s, s / n, sd, fd))

g = [r for r in rows if r.get("event") == "syscalls/sys_enter_getpgid"]
check(len(g) == 1, "getpgid seen %d times" % len(g))
check(g[0]["cpu"] == 0 and g[0]["numaid"] == node, "cpu/numaid %r, not 0/%d" % (g[0], node))
check(10**9 <= g[0]["elapsed"] <= since, "elapsed %r not in [1 s, %d ns]" % (g[0]["elapsed"], since))

k = [(r["family"], r["family_name"]) for r in rows if r.get("event") == "syscalls/sys_enter_socket"]
check(k == [(10, "AF_INET6"), (1, "AF_UNIX"), (16, "AF_NETLINK"), (10, "AF_INET6")], "af() %r" % k)
a = {r["family_name"]: r["count"] for r in rows if r.get("agg", "").startswith("syscalls/sys_enter_socket")}
check(a == {"AF_INET6": 2, "AF_UNIX": 1, "AF_NETLINK": 1}, "af() keys %r" % a)
EOT
	fail "the tool's numbers are not the workload's"
grep -Eq ' family=AF_NETLINK$' "$T/text.out" || { cat "$T/text.out"; fail "af() text column"; }
exit 0
