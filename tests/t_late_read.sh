#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# opensnoop's late read: a process (as nobody) puts the paths it opens in
# pages of a file it mapped and never touched, so the read at the entry of
# openat() fails and the exit reads the path again, after the call used it
# (a process can rewrite it in between). Those records are marked: a '?'
# after the path in text, "path_late":true in JSON (no such member when
# read at the entry), and their path is the
# one opened. Paths in touched memory are read at the entry and not marked.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
id nobody >/dev/null 2>&1 || skip "no user 'nobody'"
command -v setpriv >/dev/null || skip "no setpriv"

"$TPGEN" -o "$T/out" specs/opensnoop.yaml || fail "tpgen"
make -s -C "$T/out/opensnoop" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }

W=$(mktemp -d /tmp/tpgen-late.XXXXXX)
chown nobody "$W"
chmod 755 "$W"
trap 'kill $text $json 2>/dev/null; rm -rf "$W"' EXIT
"$T/out/opensnoop/opensnoop" -c tpgen-late >"$T/text.out" 2>"$T/text.err" &
text=$!
"$T/out/opensnoop/opensnoop" -c tpgen-late -j >"$T/json.out" 2>"$T/json.err" &
json=$!
for i in $(seq 100); do
	grep -q '^Tracing' "$T/text.err" && grep -q '^Tracing' "$T/json.err" && break
	sleep 0.1
done
grep -q '^Tracing' "$T/json.err" || { cat "$T/text.err" "$T/json.err"; fail "did not attach"; }

(cd / && setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 - "$W" <<'PY') || fail "workload"
import ctypes, mmap, os, sys
d = sys.argv[1]
libc = ctypes.CDLL(None, use_errno=True)
libc.openat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
libc.prctl(15, b'tpgen-late', 0, 0, 0)
maps = []
for i in range(20):
    # the path in a page of a file mapped and never touched: the entry's read fails
    path = ('%s/untouched-%02d' % (d, i)).encode() + b'\0'
    f = '%s/page-%02d' % (d, i)
    with open(f, 'wb') as fp:
        fp.write(path.ljust(4096, b'\0'))
    fd = os.open(f, os.O_RDWR)
    m = mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    maps.append(m)
    addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
    r = libc.openat(-100, addr, os.O_RDONLY)
    if r >= 0:
        os.close(r)
    # a touched buffer: read at the entry
    buf = ctypes.create_string_buffer(('%s/touched-%02d' % (d, i)).encode())
    r = libc.openat(-100, ctypes.addressof(buf), os.O_RDONLY)
    if r >= 0:
        os.close(r)
PY
sleep 0.5
kill -INT $text $json
wait $text || fail "opensnoop exited $?"
wait $json || fail "opensnoop -j exited $?"

python3 - "$T/text.out" "$T/json.out" "$W" <<'PY' || fail "late reads not marked as such"
import json, sys
text = open(sys.argv[1]).read().split('\n')
recs = [json.loads(l) for l in open(sys.argv[2])]
d = sys.argv[3]
for i in range(20):
    for kind, late in (('untouched', True), ('touched', False)):
        p = '%s/%s-%02d' % (d, kind, i)
        js = [r for r in recs if r['path'] == p]
        if len(js) != 1 or js[0].get('path_late', False) is not late:
            sys.exit('%s: JSON %s, not one record with "path_late":%s' % (p, js, str(late).lower()))
        want = ' ' + p + ('?' if late else '')
        lines = [l for l in text if l.endswith(want)]
        if len(lines) != 1:
            sys.exit('%s: no line ending %r in text:\n%s' % (p, want, '\n'.join(text[:5])))
print('20 paths read late marked, 20 read at the entry not')
PY
echo "PASS: paths read again at the exit are marked in text and JSON"
