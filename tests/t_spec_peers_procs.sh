#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Peers as oracles for processes and signals: specs/exitsnoop.yaml and
# specs/sigsnoop.yaml side by side with libbpf-tools' exitsnoop and sigsnoop
# around processes this test makes: one that exits 3, one that kills itself
# with SIGTERM, one killed by SIGUSR2 from this shell, one that exits 0.
# For each, the same pid, parent, comm, exit code and signal; for each signal
# among them, the same sender, number, target and result.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"
for p in exitsnoop sigsnoop; do
	[ -x "/usr/sbin/$p" ] || fail "libbpf-tools' $p is missing (make deps-test installs libbpf-tools)"
done
out=$T/out
for t in exitsnoop sigsnoop; do
	"$TPGEN" "specs/$t.yaml" -o "$out" || fail "tpgen specs/$t.yaml"
	make -s -C "$out/$t" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $t"; }
done

stdbuf -oL /usr/sbin/exitsnoop >"$T/peer_exit.out" 2>"$T/peer_exit.err" &
p1=$!
stdbuf -oL /usr/sbin/sigsnoop >"$T/peer_sig.out" 2>"$T/peer_sig.err" &
p2=$!
start exitsnoop
x=$pid
start sigsnoop
s=$pid
peer_ready "$T/peer_exit.out" "$T/peer_sig.out"
pids=()
bash -c 'exit 3' & pids+=($!); wait $!
sh -c 'kill -TERM $$' & pids+=($!); wait $!
sleep 30 & pids+=($!); sleep 0.2; kill -USR2 $!; wait $!
true & pids+=($!); wait $!
sleep 1
kill -INT $p1 $p2
pid=$s stop sigsnoop
pid=$x stop exitsnoop
wait $p1 $p2

python3 - "$T" "$$" "${pids[@]}" <<'PY' || fail "the peers disagree"
import json, os, re, sys
T, shell, pids = sys.argv[1], int(sys.argv[2]), set(map(int, sys.argv[3:]))
def rows(name):
    return [json.loads(l) for l in open(os.path.join(T, name))]
tx = {r['pid']: (r['ppid'], r['comm'], r['code'], r['sig']) for r in rows('exitsnoop.out') if r['pid'] in pids}
px = {}
for line in open(os.path.join(T, 'peer_exit.out')):
    # PCOMM PID PPID TID AGE(s) EXIT_CODE: "0", "code N" or "signal N (name)"
    m = re.match(r'(\S+)\s+(\d+)\s+(\d+)\s+\d+\s+[\d.]+\s+(.*)$', line.rstrip())
    if m and int(m.group(2)) in pids:
        how = m.group(4)
        code = int(how.split()[1]) if how.startswith('code') else 0
        sig = int(how.split()[1]) if how.startswith('signal') else 0
        px[int(m.group(2))] = (int(m.group(3)), m.group(1), code, sig)
print('exitsnoop tpgen:', tx)
print('exitsnoop peer: ', px)
assert len(tx) == 4 and tx == px, 'exitsnoop differs'
assert sorted((c, s) for _, _, c, s in tx.values()) == [(0, 0), (0, 12), (0, 15), (3, 0)], 'not the exits made'
ts = sorted((r['pid'], r['sig'], r['target'], r['result']) for r in rows('sigsnoop.out')
            if r['sig'] in (12, 15) and r['target'] in pids)
ps = []
for line in open(os.path.join(T, 'peer_sig.out')):
    f = line.split()     # TIME PID COMM SIG TPID RESULT
    if len(f) == 6 and f[1].isdigit() and int(f[3]) in (12, 15) and int(f[4]) in pids:
        ps.append((int(f[1]), int(f[3]), int(f[4]), int(f[5])))
ps.sort()
print('sigsnoop tpgen:', ts)
print('sigsnoop peer: ', ps)
assert len(ts) == 2 and ts == ps, 'sigsnoop differs'
assert (shell, 12) in [(p, s) for p, s, _, _ in ts], 'SIGUSR2 from the shell is not there'
PY
echo ok
