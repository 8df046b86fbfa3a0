#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The ring buffer's size is the loader's --ringbuf-size SIZE (issue 21). A burst of
# getppid() calls, one record each (tests/spec/burst.yaml), overflows a 4 KiB
# ring buffer: the records seen plus the losses reported are exactly the
# calls made, and some were lost. With 64M none are, and every call is a
# record. Bad sizes are refused with a message, before anything is loaded.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
"$TPGEN" tests/spec/burst.yaml -o "$out" || fail "tpgen tests/spec/burst.yaml"
make -s -C "$out/burst" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }
cc -O2 -Wall -Werror -o "$T/tpgen-getppid" tests/spec/getppid.c || fail "cc tests/spec/getppid.c"
"$out/burst/burst" --help | grep -q -- '--ringbuf-size=SIZE' || fail "--help has no --ringbuf-size"

for bad in 0 4095 2G -4K 12Q ''; do
	"$out/burst/burst" --ringbuf-size="$bad" >/dev/null 2>"$T/bad.err" && fail "--ringbuf-size='$bad' accepted"
	grep -q "invalid ring buffer size: '$bad'" "$T/bad.err" || { cat "$T/bad.err"; fail "--ringbuf-size='$bad': no message"; }
done

calls=50000
run() {	# run SIZE: records and losses of one burst
	start burst --ringbuf-size "$1"
	"$T/tpgen-getppid" $calls 1 || fail "tpgen-getppid"
	stop burst
	seen=$(grep -c '"event":"syscalls/sys_enter_getppid"' "$T/burst.out")
	lost=$(sed -n 's/^\([0-9]*\) records lost: the ring buffer was full.*/\1/p' "$T/burst.err")
	lost=${lost:-0}
	echo "--ringbuf-size $1: $seen records, $lost lost"
	[ $((seen + lost)) = $calls ] || fail "--ringbuf-size $1: $seen records + $lost lost != $calls calls"
}
run 4K
[ "$lost" -gt 0 ] || fail "a 4 KiB ring buffer lost nothing of $calls records in a burst"
grep -q -- '--ringbuf-size makes it bigger' "$T/burst.err" || fail "the loss message does not say what to do"
run 64M
[ "$lost" = 0 ] || fail "a 64 MiB ring buffer lost $lost records"
echo ok
