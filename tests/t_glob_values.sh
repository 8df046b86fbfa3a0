#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# String comparisons ('~', '==', '!=') outside a filter: in a let and in a
# computed print value, of entries with no filter, a filter that reads the
# same string first, and a filter on a number. The generated program builds
# (the strings are read before the lets), and live, every record's values
# are what Python's fnmatch and == say of the path it printed, for paths
# made of the patterns' letters, and only the paths each filter lets through
# are printed.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live

D=/tmp/tpgen-glob-$$
python3 - "$T/globvals.yaml" "$D" <<'PY' || fail "writing the spec"
import sys
spec, d = sys.argv[1], sys.argv[2]
pats = {'~': ['*dd?de', d + '*/a*'], '==': [d + '/add1de', d + '/b'], '!=': [d + '/b', '/tmp/nothing']}
out = ['tool: globvals', 'events:']
i = 0
for f in [None, 'filename ~ "%s/*"' % d, 'pid != 0']:
    for op in ['~', '==', '!=']:
        out.append('  - event: syscalls/sys_enter_openat')
        if f:
            out.append("    filter: '%s'" % f)
        out.append("    let: { l%d: 'filename %s \"%s\"' }" % (i, op, pats[op][0]))
        out.append("    print: [e%d: pid, l%d, v%d: 'filename %s \"%s\"', p%d: filename]" % (i, i, i, op, pats[op][1], i))
        i += 1
open(spec, 'w').write('\n'.join(out) + '\n')
PY
"$TPGEN" -o "$T/out" "$T/globvals.yaml" || fail "tpgen"
make -s -C "$T/out/globvals" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }

"$T/out/globvals/globvals" -j -c tpgen-globw >"$T/out.json" 2>"$T/err" &
tool=$!
trap 'kill $tool 2>/dev/null; rm -rf "$D"' EXIT
for i in $(seq 100); do grep -q '^Tracing' "$T/err" && break; sleep 0.1; done
grep -q '^Tracing' "$T/err" || { cat "$T/err"; fail "did not attach"; }
python3 - "$D" "$T/paths" <<'PY' || fail "workload"
import ctypes, itertools, os, random, sys
d = sys.argv[1]
random.seed(23)
paths = [d + '/add1de', d + '/b', d + '/a', d + 'x/ab', '/tmp/nothing', d + '/addxdde', d + '/dd1de/x']
for n in range(1, 9):
    for _ in range(12):
        paths.append(random.choice([d + '/', d + 'y/', '/tmp/']) + ''.join(random.choice('abde1/') for _ in range(n)))
ctypes.CDLL(None).prctl(15, b'tpgen-globw', 0, 0, 0)
for p in paths:
    try:
        os.close(os.open(p, os.O_RDONLY))
    except OSError:
        pass
open(sys.argv[2], 'w').write('\n'.join(paths) + '\n')
PY
sleep 0.5
kill -INT $tool
wait $tool || fail "the tool exited $?"

python3 - "$T/out.json" "$T/paths" "$D" <<'PY' || fail "values differ from fnmatch and =="
import fnmatch, json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
paths = open(sys.argv[2]).read().split('\n')[:-1]
d = sys.argv[3]
pats = {'~': ['*dd?de', d + '*/a*'], '==': [d + '/add1de', d + '/b'], '!=': [d + '/b', '/tmp/nothing']}
test = {'~': fnmatch.fnmatchcase, '==': lambda s, p: s == p, '!=': lambda s, p: s != p}
seen = {}
for r in recs:
    i = next(int(k[1:]) for k in r if k[0] == 'e' and k[1:].isdigit())
    op = ['~', '==', '!='][i % 3]
    p = r['p%d' % i]
    for k, pat in (('l', pats[op][0]), ('v', pats[op][1])):
        want = int(test[op](p, pat))
        if r['%s%d' % (k, i)] != want:
            sys.exit('entry %d: %s %s "%s" is %d, not %d' % (i, p, op, pat, r['%s%d' % (k, i)], want))
    seen[(i, p)] = seen.get((i, p), 0) + 1
for i in range(9):
    for p in set(paths):
        n = paths.count(p)
        want = 0 if i // 3 == 1 and not fnmatch.fnmatchcase(p, d + '/*') else n
        if seen.get((i, p), 0) != want:
            sys.exit('entry %d: %s printed %d times, not %d' % (i, p, seen.get((i, p), 0), want))
print('%d records, %d paths: as fnmatch and == say' % (len(recs), len(paths)))
PY
echo "PASS: '~', '==', '!=' in lets and values, with and without filters"
