#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# ipv6() of a member path's __u8[16] (issue 21: it was refused as a string):
# tests/spec/ipv6path.yaml prints a socket's addresses from the record's
# saddr_v6/daddr_v6 and from struct sock's in6_addr (tracepoint, through a
# cast), and counts connections by the in6_addr under tp_btf. The test
# connects an IPv6 socket from ::ffff:127.0.0.M to ::ffff:127.0.0.N (v4-mapped
# addresses: AF_INET6, all 16 bytes meaningful, new each run); every column
# must show them.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
"$TPGEN" tests/spec/ipv6path.yaml -o "$out" || fail "tpgen tests/spec/ipv6path.yaml"
make -s -C "$out/ipv6path" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }
n=$((RANDOM % 200 + 2)) m=$((RANDOM % 50 + 203))
start ipv6path
python3 - "$n" "$m" <<'PY' || fail "the IPv6 connections"
import socket, sys
srv = socket.socket(socket.AF_INET6)
srv.bind(("::", 0))
srv.listen()
port = srv.getsockname()[1]
for _ in range(3):
    c = socket.create_connection(("::ffff:127.0.0.%s" % sys.argv[1], port),
                                 source_address=("::ffff:127.0.0.%s" % sys.argv[2], 0))
    a, _ = srv.accept()
    c.close()
    a.close()
PY
stop ipv6path
python3 - "$T/ipv6path.out" "::ffff:127.0.0.$n" "::ffff:127.0.0.$m" <<'PY' || { cat "$T/ipv6path.out"; fail "the addresses are not the connections'"; }
import json, sys
want, src = sys.argv[2], sys.argv[3]
recs = [json.loads(l) for l in open(sys.argv[1])]
ev = [r for r in recs if r.get("event") == "sock/inet_sock_set_state" and r.get("daddr") == want]
agg = [r for r in recs if "counts" in r and r.get("dst") == want]
# each connection: the client's SYN_SENT -> ESTABLISHED (newstate 1)
assert len(ev) >= 3, ev
for r in ev:
    assert r["dst"] == want and r["src"] == r["saddr"] == src, r
assert len(agg) == 1 and agg[0]["count"] >= 3, agg
PY
echo ok
