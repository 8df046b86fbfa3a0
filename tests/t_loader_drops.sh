#!/bin/bash
# A generated loader whose reader stalls: the ring buffer overflows, every
# record lost is counted by the BPF program and reported, the tool keeps going
# (a second burst after the overflow arrives whole), and SIGINT ends it with
# status 0 after the summary: received + reported drops == records made.
. "$(dirname "$0")/lib.sh"
require_live
cd "$T"
cc -O2 -Wall -Wextra -Werror -o burst "$TPGEN_ROOT/bench/burst.c" || fail "build burst"
"$TPGEN" "$TPGEN_ROOT/bench/stream.yaml" -o . >/dev/null || fail "tpgen bench/stream.yaml"
make -s -C benchstream EXTRA_CFLAGS=-Werror >/dev/null 2>&1 || fail "build benchstream"

# the reader sleeps 3 s before reading: the pipe, then the 256 KiB ring buffer, fill up
benchstream/benchstream > >(sleep 3; cat > records.txt) 2> tool.err &
tool=$!
for ((i = 0; i < 200; i++)); do grep -q Tracing tool.err 2>/dev/null && break; sleep 0.05; done
grep -q Tracing tool.err || fail "the tool did not start: $(cat tool.err)"
n1=$(echo go | ./burst 200000 | tail -n 1 | cut -d' ' -f1)
sleep 4		# the reader has caught up
./burst 1000 <<< go > burst2.out &
p2=$!
wait $p2
n2=$(tail -n 1 burst2.out | cut -d' ' -f1)
sleep 0.5
kill -INT $tool
wait $tool
rc=$?
sleep 0.5
[ $rc = 0 ] || fail "exit $rc after SIGINT: $(cat tool.err)"
received=$(grep -c -v -E '^TIME' records.txt)
reported=$(grep -o -E '^[0-9]+ records lost' tool.err | cut -d' ' -f1)
echo "made $n1 + $n2, received $received, reported lost ${reported:-none}"
[ -n "$reported" ] && [ "$reported" -gt 0 ] || fail "no drops reported though the reader stalled"
[ $((received + reported)) = $((n1 + n2)) ] || fail "received + reported drops != made"
got2=$(awk -v p="$p2" '$2 == p' records.txt | wc -l)
[ "$got2" = "$n2" ] || fail "second burst: $got2 of $n2 records: the tool did not keep going after the overflow"
