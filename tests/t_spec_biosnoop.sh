#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# specs/biosnoop.yaml around 20 direct writes of 64 KiB that this test makes
# to a new file on a block device: for each, a line with dd's pid and comm,
# the disk the file system is on (rq->q->disk->disk_name, three pointers
# away), the sector where the file system put that part of the file (the
# oracle: filefrag's physical extents, plus the partition's start) and
# 65536 bytes.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"
command -v filefrag >/dev/null || fail "filefrag is missing (e2fsprogs)"
out=$T/out
"$TPGEN" specs/biosnoop.yaml -o "$out" || fail "tpgen specs/biosnoop.yaml"
make -s -C "$out/biosnoop" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build biosnoop"; }

# a directory on a block device: the test's own, out/ of the tree, /var/tmp (the first
# may be a tmpfs)
mkdir -p out
dir=
for d in "$T" "$TPGEN_ROOT/out" /var/tmp "$HOME"; do
	src=$(findmnt -no SOURCE -T "$d" 2>/dev/null)
	dev=${src#/dev/}
	if [ -n "$dev" ] && [ -e "/sys/class/block/$dev" ]; then
		dir=$(mktemp -d "$d/biosnoop.XXXXXX") || fail "mktemp in $d"
		break
	fi
done
[ -n "$dir" ] || fail "no directory on a block device among $T, $TPGEN_ROOT/out, /var/tmp, $HOME"
trap 'rm -rf "$dir"' EXIT
if [ -e "/sys/class/block/$dev/partition" ]; then
	start=$(cat "/sys/class/block/$dev/start")
	disk=$(basename "$(dirname "$(readlink -f "/sys/class/block/$dev")")")
else
	start=0
	disk=$dev
fi

start biosnoop
dd if=/dev/zero of="$dir/data" bs=64k count=20 oflag=direct 2>/dev/null &
dd_pid=$!
wait $dd_pid || fail "dd failed"
sync
stop biosnoop
filefrag -v -b512 "$dir/data" > "$T/frag" || fail "filefrag failed"
cat "$T/frag"

python3 - "$T/frag" "$T/biosnoop.out" "$dd_pid" "$disk" "$start" <<'PY' || fail "biosnoop: not the writes the test made"
import json, re, sys
frag, out, pid, disk, start = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
# extents in 512-byte units: logical..: physical..: length
ext = []
for line in open(frag):
    m = re.match(r'\s*\d+:\s*(\d+)\.\.\s*\d+:\s*(\d+)\.\.\s*\d+:\s*(\d+):', line)
    if m:
        ext.append(tuple(map(int, m.groups())))
def sector(logical):
    for lo, phys, n in ext:
        if lo <= logical < lo + n:
            return start + phys + logical - lo
    raise SystemExit('no extent holds sector %d of the file' % logical)
want = sorted(sector(i * 128) for i in range(20))
got = []
for line in open(out):
    r = json.loads(line)
    if r['pid'] == pid and r['bytes'] == 65536:
        assert r['comm'] == 'dd' and r['disk'] == disk and r['lat_us'] >= 0, line
        got.append(r['sector'])
got.sort()
print('want', want)
print('got ', got)
assert got == want
PY
echo "ok: 20 writes of dd ($dd_pid) on $disk at the file's sectors"
