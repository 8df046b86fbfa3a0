#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# open_flags() and mount_flags() name the flags of openat(2) and mount(2)
# calls as strace does, for a matrix of flag combinations (every flag with
# every access mode, every pair, 200 random sets, a bit no name has), as
# print items and keys under tracepoint, raw_tp and tp_btf.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
command -v strace >/dev/null || skip "no strace (DEPS_TEST)"
command -v python3 >/dev/null || skip "no python3"

D="$T/d"
mkdir "$D" || fail "mkdir"
kinds=(tracepoint raw_tp tp_btf)
for k in "${kinds[@]}"; do
	cat > "$T/fl_$k.yaml" <<-YAML
	tool: fl_$k
	attach: $k
	events:
	  - event: syscalls/sys_enter_openat
	    filter: 'filename ~ "$D/of-*"'
	    print: [filename, flags: open_flags(flags)]
	  - event: syscalls/sys_enter_openat
	    filter: 'filename ~ "$D/of-*"'
	    count: ['open_flags(flags)']
	  - event: syscalls/sys_enter_mount
	    filter: 'dev_name == "tpgenfl"'
	    print: [dir_name, mflags: mount_flags(flags)]
	YAML
	"$TPGEN" -o "$T/out" "$T/fl_$k.yaml" || fail "tpgen fl_$k"
	make -s -C "$T/out/fl_$k" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 ||
		{ cat "$T/build.log"; fail "build fl_$k"; }
done

# the calls: raw syscalls (no libc flag of its own), x86_64's numbers
cat > "$T/calls.py" <<'PY'
import ctypes, itertools, os, random, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
d = sys.argv[1]
flags = [0o100, 0o200, 0o400, 0o1000, 0o2000, 0o4000, 0o4010000, 0o10000, 0o20000, 0o40000,
         0o100000, 0o20200000, 0o200000, 0o400000, 0o1000000, 0o2000000, 0o10000000]
sets = []
for mode in (0, 1, 2, 3):
    sets.append(mode)
    sets.extend(mode | f for f in flags)
sets.extend(a | b for a, b in itertools.combinations(flags, 2))
rnd = random.Random(21)
for i in range(200):
    v = rnd.randrange(4)
    for f in flags:
        if rnd.random() < 0.3:
            v |= f
    sets.append(v)
sets.append(0o2000000 | 0x40000000)
for i, v in enumerate(sets):
    fd = libc.syscall(257, ctypes.c_long(-100), ("%s/of-%d" % (d, i)).encode(), ctypes.c_long(v), ctypes.c_long(0o600))
    if fd >= 0:
        os.close(fd)
# mount(2) of a target that does not exist: it fails, the flags are traced
ms = [0, 1, 2 | 4 | 8, 1 << 21, 1 << 24 | 1 << 25, 16 | 128 | 1024 | 2048, 32768 | 1 << 16, 1 << 30 | 1]
for i in range(40):
    ms.append(rnd.getrandbits(32) & ~(32 | 4096 | 8192 | 1 << 17 | 1 << 18 | 1 << 19 | 1 << 20))
for i, v in enumerate(ms):
    libc.syscall(165, b"tpgenfl", ("%s/nonexistent/m-%d" % (d, i)).encode(), b"tmpfs", ctypes.c_ulong(v), None)
print(len(sets), len(ms))
PY
[ "$(uname -m)" = x86_64 ] || skip "the calls use x86_64's syscall numbers"

pids=()
for k in "${kinds[@]}"; do
	"$T/out/fl_$k/fl_$k" -j >"$T/$k.out" 2>"$T/$k.err" &
	pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null' EXIT
for k in "${kinds[@]}"; do
	for i in $(seq 100); do
		grep -q '^Tracing' "$T/$k.err" && break
		sleep 0.1
	done
	grep -q '^Tracing' "$T/$k.err" || { cat "$T/$k.err"; fail "fl_$k did not start"; }
done
strace -f -qq -e trace=openat,mount -e signal=none -o "$T/strace.out" python3 "$T/calls.py" "$D" >"$T/n" ||
	fail "the calls failed"
sleep 0.5
kill -INT "${pids[@]}"
for p in "${pids[@]}"; do
	wait "$p" || fail "a tool failed after SIGINT"
done

for k in "${kinds[@]}"; do
	python3 - "$T/strace.out" "$T/$k.out" "$k" <<'PY' || fail "$k: names differ from strace's"
import collections, json, re, sys
st, out, kind = sys.argv[1:]
want_open, want_mount = {}, {}
for l in open(st):
    m = re.search(r'openat\(AT_FDCWD, "([^"]+/of-\d+)", ([^,)]+)', l)
    if m:
        want_open[m.group(1)] = m.group(2)
    m = re.search(r'mount\("tpgenfl", "([^"]+)", [^,]+, ([^,]+), ', l)
    if m:
        want_mount[m.group(1)] = m.group(2)
got_open, got_mount, counts = {}, {}, {}
for l in open(out):
    j = json.loads(l)
    if 'counts' in j:
        counts[j['flags_name']] = j['count']
    elif 'mflags' in j:
        got_mount[j['dir_name']] = j['mflags_name']
    elif 'flags' in j:
        got_open[j['filename']] = j['flags_name']
bad = 0
for name, want, got in (('openat', want_open, got_open), ('mount', want_mount, got_mount)):
    if len(want) < 40:
        print("%s: strace saw %d calls" % (name, len(want))); bad += 1
    for f, w in sorted(want.items()):
        if got.get(f) != w:
            bad += 1
            if bad < 10:
                print("%s %s: strace %s, %s %s" % (name, f, w, kind, got.get(f)))
if counts != dict(collections.Counter(want_open.values())):
    print("counts by open_flags() differ from strace's:", sorted(set(counts.items()) ^ set(collections.Counter(want_open.values()).items()))[:5])
    bad += 1
print("%s: %d openat and %d mount calls named as strace names them, %d keys" % (kind, len(want_open), len(want_mount), len(counts)))
sys.exit(1 if bad else 0)
PY
done

# a string is no set of flags: a located error
printf 'tool: fl_bad\nevents:\n  - event: syscalls/sys_enter_openat\n    print: [open_flags(filename)]\n' > "$T/bad.yaml"
! "$TPGEN" -o "$T/badout" "$T/bad.yaml" 2>"$T/bad.err" || fail "open_flags() of a string accepted"
grep -q "bad.yaml:4:24: error: open_flags() needs a number, and the value is a string" "$T/bad.err" ||
	{ cat "$T/bad.err"; fail "open_flags(filename): wrong error"; }
