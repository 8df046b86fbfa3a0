#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# specs/tcplife.yaml against libbpf-tools' tcplife, side by side, around two
# loopback sessions this test makes with known bytes each way (one closed
# first by the server, one by the client). tpgen's tool must show all four
# sides, each once, with the test's pid and comm, its ports, and KB sent and
# received equal to the bytes the test moved and to what tcplife reports for
# the same session.
# The spec's joins work because an entry's filter tests the event before its
# joins: the state changes before TCP_CLOSE leave the saved birth in place.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"
peer=$(command -v tcplife || echo /usr/sbin/tcplife)
[ -x "$peer" ] || fail "libbpf-tools' tcplife is missing (make deps-test installs libbpf-tools)"

out=$T/out
"$TPGEN" specs/tcplife.yaml -o "$out" || fail "tpgen specs/tcplife.yaml"
make -s -C "$out/tcplife" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build tcplife"; }

stdbuf -oL "$peer" >"$T/peer.out" 2>"$T/peer.err" &
ppid=$!
start tcplife
peer_ready "$T/peer.out"
python3 tests/tcplife/sessions.py > "$T/sessions" || fail "the sessions failed"
sleep 1
kill -INT $ppid
stop tcplife
wait $ppid
cat "$T/sessions"

python3 - "$T/sessions" "$T/tcplife.out" "$T/peer.out" <<'PY' || fail "tcplife: not the sessions the test made"
import json, sys
lines = open(sys.argv[1]).read().split()
pid = int(lines[-1])
s = [tuple(map(int, lines[i:i + 4])) for i in range(0, len(lines) - 1, 4)]
# (local port, remote port) -> (tx KB, rx KB), as each side saw it
want = {}
for srv, cli, up, down in s:
    want[(cli, srv)] = (up // 1024, down // 1024)
    want[(srv, cli)] = (down // 1024, up // 1024)
ports = {p for pair in want for p in pair}
got = {}
for line in open(sys.argv[2]):
    r = json.loads(line)
    if r['sport'] in ports and r['dport'] in ports:
        key = (r['sport'], r['dport'])
        assert key not in got, 'twice: %s' % line
        assert r['saddr'] == '127.0.0.1' and r['daddr'] == '127.0.0.1', line
        assert r['pid'] == pid and r['comm'] == 'python3', line
        got[key] = (r['tx_kb'], r['rx_kb'])
print('tpgen:', got)
print('want: ', want)
assert got == want
peer = {}
for line in open(sys.argv[3]):
    f = line.split()
    # PID COMM LADDR LPORT RADDR RPORT TX_KB RX_KB MS, KB with two decimals (libbpf-tools 0.26)
    if len(f) == 9 and f[0].isdigit() and int(f[3]) in ports and int(f[5]) in ports:
        peer[(int(f[3]), int(f[5]))] = (int(float(f[6])), int(float(f[7])), int(f[0]), f[1])
print('peer: ', peer)
for key, (tx, rx) in got.items():
    assert key in peer, 'tcplife has no %s' % (key,)
    assert peer[key][:2] == (tx, rx), key
    assert peer[key][2:] == (pid, 'python3'), key
PY
echo "ok: 4 session sides, as tcplife saw them"
