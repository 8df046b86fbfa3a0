#!/bin/bash
# tpgen's format-file reader agrees with libtraceevent (tep_parse_format), an
# independent parser, on offset, size, signedness, array, dynamic and relative
# flags of every field of every event of the live kernel and of the fixtures.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -D_GNU_SOURCE -Igen $(pkg-config --cflags libtraceevent) \
	tests/oracle/oracle.c gen/tracefs.c gen/fieldtype.c gen/util.c \
	$(pkg-config --libs libtraceevent) -lpthread -o "$T/oracle" || fail "building the oracle failed"

"$T/oracle" tests/fixtures/events > "$T/fixtures.txt"; rc=$?
cat "$T/fixtures.txt"
[ $rc = 0 ] || fail "fixtures: tpgen and libtraceevent disagree"

require_live
"$T/oracle" /sys/kernel/tracing/events > "$T/live.txt"; rc=$?
grep -v '^SKIP' "$T/live.txt" | tail -n 20
[ $rc = 0 ] || fail "live kernel: tpgen and libtraceevent disagree"
n=$(sed -n 's/^oracle: \([0-9]*\) events.*/\1/p' "$T/live.txt")
[ "${n:-0}" -ge 1000 ] || fail "only ${n:-0} events compared"
skipped=$(sed -n 's/.* \([0-9]*\) skipped$/\1/p' "$T/live.txt")
[ "${skipped:-1}" = 0 ] || fail "libtraceevent could not parse $skipped live events"
