#!/bin/bash
# tpgen's format-file reader (tracefs_load, as the generator calls it) agrees
# with libtraceevent (tep_parse_format), an independent parser, on name,
# offset, size, signedness, array, dynamic and relative flags, common or not,
# array length and id of every field of every event: of the committed fixture
# tree (when there is one) and of the live kernel (at least 1,000 events).
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -D_GNU_SOURCE -Igen $(pkg-config --cflags libtraceevent) \
	tests/oracle/oracle.c gen/input/tracefs.c gen/input/tracefs_dir.c gen/input/fieldtype.c gen/lib/util.c gen/lib/term.c gen/lib/diag.c gen/input/fileio.c gen/lib/ident.c \
	$(pkg-config --libs libtraceevent) -lbpf -lpthread -o "$T/oracle" || fail "building the oracle failed"

# the count line's numbers: events, skipped
count() { sed -n "s/^oracle: \([0-9]*\) events, [0-9]* fields compared, [0-9]* mismatches, \([0-9]*\) skipped.*/\\$2/p" "$1"; }

if [ -d tests/fixtures/events ]; then
	"$T/oracle" tests/fixtures/events > "$T/fixtures.txt"; rc=$?
	cat "$T/fixtures.txt"
	[ $rc = 0 ] || fail "fixtures: tpgen and libtraceevent disagree"
	[ "$(count "$T/fixtures.txt" 1)" -gt 0 ] 2>/dev/null || fail "fixtures: no event compared"
	[ "$(count "$T/fixtures.txt" 2)" = 0 ] || fail "fixtures: libtraceevent could not parse some events"
else
	echo "no tests/fixtures/events: fixture part skipped"
fi

require_live
"$T/oracle" /sys/kernel/tracing/events > "$T/live.txt"; rc=$?
cat "$T/live.txt"
[ $rc = 0 ] || fail "live kernel: tpgen and libtraceevent disagree ($(grep -c '^MISMATCH' "$T/live.txt") mismatches)"
n=$(count "$T/live.txt" 1)
[ "${n:-0}" -ge 1000 ] || fail "only ${n:-0} live events compared (expected at least 1,000)"
[ "$(count "$T/live.txt" 2)" = 0 ] || fail "libtraceevent could not parse some live events"
exit 0
