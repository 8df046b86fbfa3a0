#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# hist: of a signed value shows its negatives as such (issue 21: they were
# counted in the top bucket, 2^63 and up, without a word). The test makes
# lseek() calls on fd 987 with offsets it chose (negatives, 0, positives);
# tests/spec/neghist.yaml's histograms (tracepoint, and tp_btf by whence) must
# have a '< 0' row / {"low":null,"high":-1} bucket with the negatives, every
# other bucket as log2 puts the rest, and no bucket past them.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
"$TPGEN" tests/spec/neghist.yaml -o "$out" || fail "tpgen tests/spec/neghist.yaml"
make -s -C "$out/neghist" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }
offsets="-1 -1 -1 -1000 -9223372036854775807 0 5 5 5 5 100 100"
lseeks() {
	python3 - $offsets <<'PY' || fail "lseek()"
import os, sys
fd = os.open("/dev/null", os.O_RDONLY)
os.dup2(fd, 987)
for o in sys.argv[1:]:
    try:
        os.lseek(987, int(o), os.SEEK_CUR)
    except OSError:
        pass
PY
}
start neghist
lseeks
stop neghist
python3 - "$T/neghist.out" <<'PY' || { cat "$T/neghist.out"; fail "JSON buckets"; }
import json, sys
want = [(None, -1, 5), (0, 1, 1), (4, 7, 4), (64, 127, 2)]
hists = [json.loads(l) for l in open(sys.argv[1])]
hists = [h for h in hists if "buckets" in h]
assert len(hists) == 2, hists
for h in hists:
    got = [(b["low"], b["high"], b["count"]) for b in h["buckets"] if b["count"]]
    assert got == want, (got, want)
PY
"$out/neghist/neghist" >"$T/text.out" 2>"$T/text.err" &
pid=$!
for i in $(seq 100); do grep -q '^Tracing' "$T/text.err" && break; sleep 0.1; done
lseeks
sleep 0.5
kill -INT $pid
wait $pid || fail "neghist (text) exited $?"
[ "$(grep -cE '^ *< 0 +: 5 +\|\*+ *\|$' "$T/text.out")" = 2 ] || { cat "$T/text.out"; fail "text: no '< 0' row of 5"; }
grep -q '9223372036854775808 ->' "$T/text.out" && { cat "$T/text.out"; fail "text: a bucket at 2^63"; }
echo ok
