#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The specs no other test runs, live, against what this test causes or what
# the kernel counts itself:
# - mountsnoop: a tmpfs mounted with a source that has a space, flags, data
#   and result, and a mount on a missing directory (-2): the three strings and
#   the data (str(data), NULL for the second) read at the entry from the
#   caller's memory and joined at the exit;
# - sigsnoop: SIGUSR1 from this shell to a sleeping child: sender, target, sig;
# - softirqs: for every vector, the count the tool reports lies between the
#   kernel's own /proc/softirqs counts over the time the tool was surely
#   attached and over the whole run (the entry and exit are joined by a
#   per-CPU slot, specs/softirqs.yaml's 'key: cpu');
# - cpudist: a busy task's on-CPU time histogram, under its name.
# drsnoop needs a direct reclaim, which no test can cause on demand (a
# memory cgroup's limit reclaims through mm_vmscan_memcg_reclaim_*, not the
# direct reclaim events): it is generated, built and loaded only.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
tools=(mountsnoop sigsnoop softirqs cpudist drsnoop)
for t in "${tools[@]}"; do
	"$TPGEN" "specs/$t.yaml" -o "$out" || fail "tpgen specs/$t.yaml"
	make -s -C "$out/$t" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $t"; }
done
"$out/drsnoop/drsnoop" -d 1 >/dev/null 2>"$T/drsnoop.err" || { cat "$T/drsnoop.err"; fail "drsnoop does not load"; }

# softirqs by vector from /proc/softirqs: "NAME total" lines
softirq_counts() {
	awk 'NR > 1 { n = 0; for (i = 2; i <= NF; i++) n += $i; sub(":", "", $1); print $1, n }' /proc/softirqs
}

# mountsnoop and sigsnoop: exact records
mkdir -p "$T/mnt"
start mountsnoop
mpid=$pid
start sigsnoop
spid=$pid
# libbpf-tools' mountsnoop, on the same mounts
[ -x /usr/sbin/mountsnoop ] || fail "no /usr/sbin/mountsnoop (libbpf-tools, DEPS_TEST)"
stdbuf -oL /usr/sbin/mountsnoop >"$T/peer_mount.out" 2>"$T/peer_mount.err" &
peer_mount=$!
peer_ready "$T/peer_mount.out"
mount -t tmpfs -o size=1m,noexec "tpgen src" "$T/mnt" || fail "mount tmpfs"
mount -t tmpfs tpgenx "$T/no-such-dir" 2>/dev/null && fail "a mount on a missing directory worked"
umount "$T/mnt"
sleep 30 &
child=$!
sleep 0.2
kill -USR1 $child
wait $child 2>/dev/null
sleep 0.3
kill -INT $peer_mount
wait $peer_mount
pid=$spid stop sigsnoop
pid=$mpid stop mountsnoop
# MS_NOEXEC is 8; the mount namespace is this shell's
mnt_ns=$(stat -L -c %i /proc/self/ns/mnt)
expect mountsnoop "\"comm\":\"mount\",\"mnt_ns\":$mnt_ns,\"ret\":0,\"fstype\":\"tmpfs\",\"flags\":8,\"flags_name\":\"MS_NOEXEC\",\"source\":\"tpgen src\",\"target\":\"$T/mnt\",\"data\":\"size=1m\"" \
	"mount of 'tpgen src' on $T/mnt"
expect mountsnoop "\"comm\":\"mount\",\"mnt_ns\":$mnt_ns,\"ret\":-2,\"fstype\":\"tmpfs\",\"flags\":0,\"flags_name\":\"0\",\"source\":\"tpgenx\",\"target\":\"$T/no-such-dir\",\"data\":\"\"" \
	"failed mount on $T/no-such-dir"
# the peer: the same mount namespace and flag names
grep -Eq "^mount +[0-9]+ +[0-9]+ +$mnt_ns +mount\(\"tpgen src\", \"$T/mnt\", \"tmpfs\", MS_NOEXEC, \"size=1m\"\) = 0" \
	"$T/peer_mount.out" || { cat "$T/peer_mount.out"; fail "libbpf-tools' mountsnoop: no mount in $mnt_ns with MS_NOEXEC"; }
grep -Eq "^mount +[0-9]+ +[0-9]+ +$mnt_ns +mount\(\"tpgenx\", \"$T/no-such-dir\", \"tmpfs\", 0x0, \"\"\) = -ENOENT" \
	"$T/peer_mount.out" || { cat "$T/peer_mount.out"; fail "libbpf-tools' mountsnoop: no failed mount in $mnt_ns"; }
expect sigsnoop "\"pid\":$$,\"comm\":\"bash\",\"sig\":10,\"target\":$child,\"target_comm\":\"[^\"]+\",\"code\":0,\"result\":0" \
	"SIGUSR1 from $$ to $child"

# softirqs: the kernel's counts are the oracle
softirq_counts > "$T/si.0"
start softirqs
softirq_counts > "$T/si.1"
ping -c 5 -i 0.2 127.0.0.1 >/dev/null 2>&1 || true
dd if=/dev/zero of="$T/dd.dat" bs=4k count=200 oflag=direct 2>/dev/null || true
softirq_counts > "$T/si.2"
stop softirqs
softirq_counts > "$T/si.3"
python3 - "$T"/si.0 "$T"/si.1 "$T"/si.2 "$T"/si.3 "$T/softirqs.out" "$T/softirqs.err" <<'PY' || fail "softirqs: counts outside the kernel's"
import json, re, sys
snap = [dict((l.split()[0], int(l.split()[1])) for l in open(f)) for f in sys.argv[1:5]]
got = {}
for line in open(sys.argv[5]):
    r = json.loads(line)
    if r.get('agg') == 'soft IRQ time (usecs)':
        got[r['vec_name']] = r['count']
# what the kernel skipped for us, inside other BPF programs (other tools on the machine)
m = re.search(r'^(\d+) events missed', open(sys.argv[6]).read(), re.M)
missed = int(m.group(1)) if m else 0
bad = 0
for name in snap[0]:
    inner, outer, n = snap[2][name] - snap[1][name], snap[3][name] - snap[0][name], got.get(name, 0)
    print('%-8s kernel %6d..%-6d tool %6d' % (name, inner, outer, n))
    if not inner - missed <= n <= outer:
        bad += 1
if missed:
    print('missed inside other BPF programs: %d' % missed)
unknown = set(got) - set(snap[0])
if unknown:
    print('vectors the kernel does not name: %s' % sorted(unknown))
sys.exit(1 if bad or unknown or sum(got.values()) == 0 else 0)
PY

# cpudist: a task that runs until it is stopped
start cpudist
timeout 0.5 bash -c 'printf tpgenbusy > /proc/self/comm; while :; do :; done'
stop cpudist
python3 - "$T/cpudist.out" <<'PY' || fail "cpudist: no on-CPU histogram of tpgenbusy"
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get('comm') == 'tpgenbusy' and sum(b['count'] for b in r['buckets']) > 0:
        sys.exit(0)
sys.exit(1)
PY
echo "ok"
