#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Peers as oracles: specs/opensnoop.yaml and specs/execsnoop.yaml run side by
# side with libbpf-tools' opensnoop and execsnoop around the same workload: a
# copy of cat named tpgenpeer opening a file of the test and a missing one
# (and whatever its dynamic loader opens), a helper also named tpgenpeer that
# opens a path held in a page it never touched (unreadable at the syscall's
# entry: tpgen reads it again at the exit, as libbpf-tools reads it there),
# and execs with arguments that hold spaces and quotes. opensnoop generated for
# raw_tp and tp_btf too shows the same opens. For each open of tpgenpeer the same path, fd and errno,
# in the same order; for each exec the same pid, parent, result and
# arguments (tpgen quotes them as a shell would; unquoted they are execsnoop's
# space-joined list).
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"
for p in opensnoop execsnoop; do
	[ -x "/usr/sbin/$p" ] || fail "libbpf-tools' $p is missing (make deps-test installs libbpf-tools)"
done
out=$T/out
for t in opensnoop execsnoop; do
	"$TPGEN" "specs/$t.yaml" -o "$out" || fail "tpgen specs/$t.yaml"
	make -s -C "$out/$t" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $t"; }
done
# the same opensnoop under raw_tp and tp_btf (the path from the user registers)
for a in raw_tp tp_btf; do
	sed -e "s/^tool: opensnoop/tool: opensnoop_$a\nattach: $a/" specs/opensnoop.yaml > "$T/opensnoop_$a.yaml"
	"$TPGEN" "$T/opensnoop_$a.yaml" -o "$out" || fail "tpgen opensnoop, attach: $a"
	make -s -C "$out/opensnoop_$a" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 ||
		{ cat "$T/build.log"; fail "build opensnoop_$a"; }
done
cp /bin/cat "$T/tpgenpeer"
mkdir "$T/m"
cc -O2 -Wall -Werror -o "$T/m/tpgenpeer" tests/peers/tpgenpeer.c || fail "build the helper"
echo hello > "$T/present"

stdbuf -oL /usr/sbin/opensnoop -n tpgenpeer >"$T/peer_open.out" 2>"$T/peer_open.err" &
p1=$!
stdbuf -oL /usr/sbin/execsnoop >"$T/peer_exec.out" 2>"$T/peer_exec.err" &
p2=$!
start opensnoop -c tpgenpeer
o=$pid
start opensnoop_raw_tp -c tpgenpeer
o_raw=$pid
start opensnoop_tp_btf -c tpgenpeer
o_btf=$pid
start execsnoop
e=$pid
peer_ready "$T/peer_open.out" "$T/peer_exec.out"
"$T/tpgenpeer" "$T/present" "$T/missing" >/dev/null 2>&1
/bin/echo "two words" 'a "quote"' '' end >/dev/null
"$T/tpgenpeer" "$T/present" >/dev/null
"$T/m/tpgenpeer" "$T/present" "$T/m/path" >/dev/null || fail "the helper failed"
sleep 1
kill -INT $p1 $p2
pid=$e stop execsnoop
pid=$o stop opensnoop
pid=$o_raw stop opensnoop_raw_tp
pid=$o_btf stop opensnoop_tp_btf
wait $p1 $p2

python3 - "$T" <<'PY' || fail "the peers disagree"
import json, os, shlex, sys
T = sys.argv[1]
def rows(name):
    return [json.loads(l) for l in open(os.path.join(T, name), errors='surrogateescape')]
# opensnoop: per pid, (path, fd or -errno) in order
tp = {}
for r in rows('opensnoop.out'):
    if r['comm'] == 'tpgenpeer':
        tp.setdefault(r['pid'], []).append((r['path'], r['fd']))
peer = {}
for line in open(os.path.join(T, 'peer_open.out'), errors='surrogateescape'):  # other processes' paths need not be UTF-8
    f = line.split(None, 4)
    if len(f) == 5 and f[0].isdigit() and f[1] == 'tpgenpeer':
        fd, err = int(f[2]), int(f[3])
        peer.setdefault(int(f[0]), []).append((f[4].rstrip('\n'), -err if fd < 0 else fd))
print('opensnoop tpgen:', tp)
print('opensnoop peer: ', peer)
assert len(tp) == 3 and tp == peer, 'opensnoop differs'
present, missing = os.path.join(T, 'present'), os.path.join(T, 'missing')
pids = sorted(tp)
assert (present, 3) in tp[pids[0]] and (missing, -2) in tp[pids[0]], 'the test opens are not there'
# the path in a page the helper had not touched: read again at the exit
assert tp[pids[2]][-1] == (present, 3), 'the path of an untouched page is not there'
# under raw_tp and tp_btf, the same opens
for a in ('raw_tp', 'tp_btf'):
    other = {}
    for r in rows('opensnoop_%s.out' % a):
        if r['comm'] == 'tpgenpeer':
            other.setdefault(r['pid'], []).append((r['path'], r['fd']))
    assert other == tp, 'opensnoop under %s differs: %s' % (a, other)
# execsnoop: the test's execs
want = {os.path.join(T, 'tpgenpeer'), os.path.join(T, 'm', 'tpgenpeer'), '/bin/echo'}
tx = []
for r in rows('execsnoop.out'):
    # others' execs may hold $'...' quoting, which shlex does not read
    if not any(r['args'].startswith(w) for w in want):
        continue
    args = shlex.split(r['args'])
    if args and args[0] in want:
        tx.append((r['pid'], r['ppid'], r['ret'], ' '.join(args)))
px = []
for line in open(os.path.join(T, 'peer_exec.out'), errors='surrogateescape'):
    f = line.rstrip('\n').split(None, 4)
    if len(f) == 5 and f[1].isdigit() and f[4].split(' ')[0] in want:
        px.append((int(f[1]), int(f[2]), int(f[3]), f[4].rstrip(' ')))
print('execsnoop tpgen:', tx)
print('execsnoop peer: ', px)
assert len(tx) == 4 and sorted(tx) == sorted(px), 'execsnoop differs'
assert ('/bin/echo two words a "quote"  end') in [t[3] for t in tx], 'the arguments are not there'
PY
echo ok
