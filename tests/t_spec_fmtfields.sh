#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Format fields the kernel fills in TP_fast_assign from what no argument is
# named after (issue 21: unknown under tp_btf): sys_exit's id, softirq's vec,
# kmem_cache_alloc's name and bytes_*, netif_receive_skb's name, a work's
# function. tests/spec/fmtfields.yaml counts each under tracepoint and tp_btf
# on the same events; 'tpgen-fmt' (python3, renamed) makes syscalls, allocations and
# loopback UDP packets in its own context, so the two counts of each are the
# same table, row for row. A work's function: the workers are the kernel's,
# so both must have seen wb_workfn (its address from /proc/kallsyms) after
# the test wrote a file and synced it. A field tp_btf cannot read says
# where it comes from.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
"$TPGEN" tests/spec/fmtfields.yaml -o "$out" || fail "tpgen tests/spec/fmtfields.yaml"
make -s -C "$out/fmtfields" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }

start fmtfields
python3 - <<'PY' || fail "tpgen-fmt"
import ctypes, os, socket
ctypes.CDLL(None).prctl(15, b"tpgen-fmt", 0, 0, 0)	# PR_SET_NAME
for i in range(50):
    os.getppid()
    a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    a.bind(("127.0.0.1", 0))
    b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    b.sendto(b"x" * (100 + i), a.getsockname())
    a.recv(1000)
    a.close()
    b.close()
PY
# a work item of a known function: writeback of a dirty file (wb_workfn)
dd if=/dev/zero of="$T/dirty" bs=64k count=16 2>/dev/null && sync "$T/dirty" && sync
sleep 0.5
stop fmtfields
wb=0x$(awk '$3 == "wb_workfn" { print $1; exit }' /proc/kallsyms)
python3 - "$T/fmtfields.out" "$wb" <<'PY' || { cat "$T/fmtfields.out"; fail "tp_btf's fields are not tracepoint's"; }
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
def table(cols):
    # count by the columns (their "_name"s aside: vec has NET_RX under tracepoint)
    return {tuple(r[c] for c in cols): r["count"] for r in recs if cols[0] in r}
for tp in (["tp"], ["tp_name", "tp_req", "tp_alloc"], ["tp_dev", "tp_len"]):
    t, b = table(tp), table([c.replace("tp", "btf", 1) for c in tp])
    assert t and t == b, (tp, t, b)
# NET_RX, raised by the test's sends; a timer's raise in an interrupt that comes
# while another BPF program runs on the CPU is skipped by tp/ programs only
t, b = table(["tp_vec"]), table(["btf_vec"])
assert t.get((3,)) == b.get((3,)) == 50, (t, b)
t, b = table(["tp_fn"]), table(["btf_fn"])
wb = (sys.argv[2],)
assert wb in t and wb in b, (wb, t, b)
PY
# 110 is getppid on x86_64: counted 50 times by its number under both
grep -q '"tp":110,"count":50' "$T/fmtfields.out" || [ "$(uname -m)" != x86_64 ] ||
	{ cat "$T/fmtfields.out"; fail "no 50 getppid() exits by id"; }
printf 'tool: ff\nattach: tp_btf\nevents:\n  - event: block/block_rq_issue\n    print: [rwbs]\n' >"$T/ff.yaml"
"$TPGEN" "$T/ff.yaml" -o "$T/ff" 2>"$T/ff.err" && fail "tp_btf: rwbs accepted"
grep -q "error: 'rwbs' is a field of block/block_rq_issue's format, which tp_btf does not read: write what the kernel fills it from, through the arguments of raw tracepoint block_rq_issue (rq), or use attach: tracepoint" "$T/ff.err" ||
	{ cat "$T/ff.err"; fail "tp_btf: rwbs: not the message"; }
echo ok
