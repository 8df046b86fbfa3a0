#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# A "*suffix" glob on a path longer than the bytes tpgen reads into a
# filter's buffer (128): the program reads the path's tail (bpf/tpgen.h's
# tpgen_glob_tail()). Three entries on sys_enter_openat filter on three
# suffixes ('?' in one, one of 100 bytes); a process opens paths of every
# length around the buffer and the chunks the tail is found by (5 to 4,000
# bytes), ending in each suffix, in a suffix with one byte changed, or
# cut by one byte. Each entry prints exactly the opens whose path Python's
# fnmatch matches, as often as they were made. Another glob on such a path
# ("/tmp/*x"), which sees its first 127 bytes, is a located warning.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live

long=$(python3 -c "print(''.join('abcdefghij'[i % 10] for i in range(100)))")
cat > "$T/gt.yaml" <<EOF2
tool: gt
events:
  - event: syscalls/sys_enter_openat
    filter: 'filename ~ "*dddde"'
    print: [a: filename]
  - event: syscalls/sys_enter_openat
    filter: 'filename ~ "*/q?z"'
    print: [b: filename]
  - event: syscalls/sys_enter_openat
    filter: 'filename ~ "*$long"'
    print: [c: filename]
EOF2
"$TPGEN" -o "$T/out" "$T/gt.yaml" 2>"$T/gen.err" || { cat "$T/gen.err"; fail "tpgen"; }
[ -s "$T/gen.err" ] && { cat "$T/gen.err"; fail "suffix globs of a syscall's char * warned"; }
# a glob that cannot see past 127 bytes: a located warning, and the tool is made
cat > "$T/cut.yaml" <<'EOF2'
tool: cut
events:
  - event: syscalls/sys_enter_openat
    filter: 'pid > 0 && filename ~ "/tmp/*x"'
    print: [filename]
EOF2
"$TPGEN" -o "$T/out" "$T/cut.yaml" 2>"$T/cut.err" || { cat "$T/cut.err"; fail "tpgen cut.yaml"; }
grep -qxF "$T/cut.yaml:4:36: warning: this glob sees the first 127 bytes of 'filename', which can be longer (\"abc*\", and \"*abc\" on a syscall's char *, see all of it)" "$T/cut.err" ||
	{ cat "$T/cut.err"; fail "no located warning for a glob that sees 127 bytes"; }
make -s -C "$T/out/gt" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }
grep -q tpgen_glob_tail "$T/out/gt/gt.bpf.c" || fail "the suffix globs do not read the tail"

"$T/out/gt/gt" -j -c tpgen-gtail >"$T/out.json" 2>"$T/err" &
tool=$!
trap 'kill $tool 2>/dev/null' EXIT
for i in $(seq 100); do grep -q '^Tracing' "$T/err" && break; sleep 0.1; done
grep -q '^Tracing' "$T/err" || { cat "$T/err"; fail "did not attach"; }
python3 - "$T/paths" "$long" <<'PY' || fail "workload"
import ctypes, os, sys
long = sys.argv[2]
ends = ['dddde', 'ddddf', 'dddd', '/qaz', '/q/z', '/qa', long, long[:-1] + 'X', long[1:]]
paths = []
for n in list(range(5, 140)) + list(range(245, 262)) + list(range(375, 390)) + [500, 1000, 2047, 2048, 4000]:
    for e in ends:
        head = '/tmp/tpgen-gtail/'
        if n <= len(head) + len(e):
            continue
        mid = ''.join('xyz/'[(i * 7) % 4] if i % 200 else '/' for i in range(n - len(head) - len(e)))
        paths.append(head + mid + e)
ctypes.CDLL(None).prctl(15, b'tpgen-gtail', 0, 0, 0)
for p in paths:
    try:
        os.close(os.open(p, os.O_RDONLY))
    except OSError:
        pass
open(sys.argv[1], 'w').write('\n'.join(paths) + '\n')
PY
sleep 0.5
kill -INT $tool
wait $tool || fail "the tool exited $?"

python3 - "$T/out.json" "$T/paths" "$long" <<'PY' || fail "records differ from fnmatch"
import collections, fnmatch, json, sys
long = sys.argv[3]
pats = {'a': '*dddde', 'b': '*/q?z', 'c': '*' + long}
got = collections.Counter()
for l in open(sys.argv[1]):
    r = json.loads(l)
    k = next(k for k in r if k in pats)
    got[(k, r[k])] += 1
paths = open(sys.argv[2]).read().split('\n')[:-1]
want = collections.Counter((k, p) for p in paths for k, pat in pats.items() if fnmatch.fnmatchcase(p, pat))
# a record's path is cut at 255 bytes (the record's string): compare what the record holds
want_cut = collections.Counter()
for (k, p), n in want.items():
    want_cut[(k, p[:255])] += n
long_matches = sum(n for (k, p), n in want.items() if len(p) > 127)
if got != want_cut:
    missing = want_cut - got
    extra = got - want_cut
    sys.exit('missing %d, e.g. %s; extra %d, e.g. %s' % (sum(missing.values()), list(missing)[:2],
                                                        sum(extra.values()), list(extra)[:2]))
print('%d opens, %d matches (%d of paths longer than 127 bytes): as fnmatch says' %
      (len(paths), sum(want.values()), long_matches))
PY
echo "PASS: *suffix globs on paths of 5 to 4,000 bytes"
