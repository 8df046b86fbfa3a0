#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# str(ARG): the string at a syscall argument's address (mount(2)'s void *
# data), under every attach type, printed, counted by, tested with a glob
# and carried by save/join to the exit. The workload (tests/strarg/tpgenmnt.c)
# mounts a tmpfs R times with each data string, NULL among them (an empty
# string, not a failure), and one longer than a record's 256 bytes (cut as
# a char * argument is: 255 bytes printed, 63 in a key). bpftrace's
# str(args->data) sees the same strings on the same workload.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/spec_lib.sh"
cd "$TPGEN_ROOT" || exit 1
out=$T/out
R=3
long="nr_inodes=9,$(printf 'a%.0s' $(seq 300))"
datas=("size=1m,mode=755" - "nr_inodes=7" "bogus=1,mode=700" "$long")
attaches="tracepoint raw_tp tp_btf"

for a in $attaches; do
	cat > "$T/mnt_$a.yaml" <<EOT
tool: mnt_$a
attach: $a
events:
  - event: syscalls/sys_enter_mount
    filter: 'comm == "tpgenmnt"'
    print: [str(data)]
    aggregate: { name: bydata, by: [str(data)], count: true }
  - event: syscalls/sys_enter_mount
    filter: 'comm == "tpgenmnt" && str(data) ~ "*mode=7*"'
    aggregate: { name: globbed, by: [d: str(data)], count: true }
  - event: syscalls/sys_enter_mount
    filter: 'comm == "tpgenmnt"'
    save: { name: m, values: { d: str(data) } }
  - event: syscalls/sys_exit_mount
    join: m
    print: [ret, d: m.d]
EOT
	"$TPGEN" -o "$out" "$T/mnt_$a.yaml" || fail "tpgen mnt_$a.yaml"
done
grep -q 'bpf_probe_read_user_str' "$out/mnt_tracepoint/mnt_tracepoint.bpf.c" ||
	fail "str(data) is not read from the caller's memory"

# what str() takes: an argument holding an address, on a syscalls/ event
bad() {	# bad EVENT EXPR MESSAGE
	printf 'tool: b\nevents:\n  - event: %s\n    print: ["%s"]\n' "$1" "$2" > "$T/bad.yaml"
	! "$TPGEN" -o "$T/bad" "$T/bad.yaml" 2>"$T/bad.err" || fail "tpgen took $2 on $1"
	grep -q "$3" "$T/bad.err" || { cat "$T/bad.err"; fail "$2: no '$3'"; }
	[ ! -e "$T/bad" ] || fail "$2: something was written"
}
bad syscalls/sys_enter_mount 'str(nosuch)' "unknown field 'nosuch'"
bad syscalls/sys_enter_kill 'str(sig)' "'sig' (int) is not one: a pointer or an unsigned long"
bad sched/sched_switch 'str(prev_pid)' "sched/sched_switch is not a syscalls/ event"
bad syscalls/sys_enter_mount 'str(p->x)' "str() takes the name of a syscall argument"
bad syscalls/sys_enter_mount 'str(data' "expected ')' after 'str(data'"

require_live
command -v bpftrace >/dev/null || fail "bpftrace is missing"
command -v unshare >/dev/null || fail "unshare is missing (util-linux)"
for a in $attaches; do
	make -s -C "$out/mnt_$a" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build mnt_$a"; }
done
cc -O2 -Wall -Wextra -Werror -o "$T/tpgenmnt" tests/strarg/tpgenmnt.c || fail "build the helper"
mkdir -p "$T/mnt"

bpftrace -e 'tracepoint:syscalls:sys_enter_mount /comm == "tpgenmnt"/ { printf("[%s]\n", str(args->data)); }' \
	>"$T/bt.out" 2>"$T/bt.err" &
bt=$!
pids=()
for a in $attaches; do
	start mnt_$a
	pids+=($pid)
done
for i in $(seq 100); do
	grep -q '^Attaching' "$T/bt.out" && break
	sleep 0.1
done
sleep 1
"$T/tpgenmnt" "$T/mnt" $R "${datas[@]}" || fail "the helper failed"
i=0
for a in $attaches; do
	pid=${pids[$i]} stop mnt_$a
	i=$((i + 1))
done
kill -INT $bt
wait $bt

# the helper's first mount(2) makes / private, with NULL data: one more ""
{
	echo ""
	for ((r = 0; r < R; r++)); do
		for d in "${datas[@]}"; do
			[ "$d" = - ] && echo "" || echo "${d:0:255}"
		done
	done
} > "$T/want.print"
for a in $attaches; do
	python3 - "$T/mnt_$a.out" "$T" $R "$long" <<'PY' || fail "mnt_$a: output is not what the helper did"
import json, sys
out, T, R, long = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
prints, exits, rows = [], [], {}
for line in open(out):
    r = json.loads(line)
    if r.get("event") == "syscalls/sys_enter_mount":
        prints.append(r["data"])
    elif r.get("event") == "syscalls/sys_exit_mount":
        exits.append((r["ret"], r["d"]))
    elif "agg" in r:
        rows[(r["agg"], r.get("data", r.get("d")))] = r["count"]
want = open(T + "/want.print").read().split("\n")[:-1]
if prints != want:
    sys.exit("enter: %r\nwant:  %r" % (prints, want))
# each exit carries what its entry saw; mount(2) fails (EINVAL) on the bogus and long data
wantx = [(0, "")] + [(-22 if d.startswith(("bogus", "nr_inodes=9,")) else 0, d) for d in want[1:]]
if exits != wantx:
    sys.exit("exit: %r\nwant: %r" % (exits, wantx))
wantr = {("bydata", ""): R + 1, ("bydata", "size=1m,mode=755"): R, ("bydata", "nr_inodes=7"): R,
         ("bydata", "bogus=1,mode=700"): R, ("bydata", long[:63]): R,
         ("globbed", "size=1m,mode=755"): R, ("globbed", "bogus=1,mode=700"): R}
if rows != wantr:
    sys.exit("rows: %r\nwant: %r" % (rows, wantr))
PY
done
# bpftrace's str() reads 64 bytes, NUL included: compare what both read
cut -c1-63 "$T/want.print" | sed 's/.*/[&]/' > "$T/want.bt"
grep '^\[' "$T/bt.out" > "$T/got.bt"
diff -u "$T/want.bt" "$T/got.bt" || fail "bpftrace's str(args->data) saw other strings"
echo "ok: str(data) under $attaches: $((R * ${#datas[@]} + 1)) mounts, NULL, a glob, a key, save/join, as bpftrace"
