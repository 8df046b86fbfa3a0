#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# tp_btf member paths that plain loads cannot take (issue 21): through a
# second pointer, which may be NULL (skb->sk: the verifier refused the load),
# and past the 16-bit offset of a load (pglist_data's node_id, 170 KiB in:
# libbpf failed the CO-RE relocation). Both are read with BPF_CORE_READ()
# now. tests/spec/btfpaths.yaml must load, and count the loopback UDP packets
# 'tpgen-fmt' (python3, renamed) sends by device, socket family and length
# exactly as the same paths under raw_tp count them.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
"$TPGEN" tests/spec/btfpaths.yaml -o "$out" || fail "tpgen tests/spec/btfpaths.yaml"
make -s -C "$out/btfpaths" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }
start btfpaths
python3 - <<'PY' || fail "tpgen-fmt"
import ctypes, socket
ctypes.CDLL(None).prctl(15, b"tpgen-fmt", 0, 0, 0)	# PR_SET_NAME
for fam, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
    for i in range(10):
        a = socket.socket(fam, socket.SOCK_DGRAM)
        a.bind((host, 0))
        b = socket.socket(fam, socket.SOCK_DGRAM)
        b.sendto(b"x" * (10 + i), a.getsockname())
        a.recv(100)
        a.close()
        b.close()
PY
stop btfpaths
python3 - "$T/btfpaths.out" <<'PY' || { cat "$T/btfpaths.out"; fail "tp_btf and raw_tp differ"; }
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
def table(p):
    return {(r[p + "_dev"], r[p + "_fam"], r[p + "_len"]): r["count"] for r in recs if p + "_dev" in r}
btf, raw = table("btf"), table("raw")
assert btf and btf == raw, (btf, raw)
assert sum(btf.values()) >= 20 and all(k[0] == 1 for k in btf), btf	# lo is ifindex 1
PY
echo ok
