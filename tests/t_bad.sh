#!/bin/bash
# The table of bad inputs in tests/bad/<case>/: each 'cmd' (run inside a copy of
# the case directory) must print exactly 'expect' on stderr, exit with 'rc', and
# leave out/ -- which holds earlier outputs -- untouched, with no temp files.
# TPGEN_UPDATE_GOLDEN=1 records what tpgen says now.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
n=0 bad=0
for d in tests/bad/*/; do
	name=$(basename "$d")
	[ -f "$d/cmd" ] || continue
	c=$T/cases/$name
	mkdir -p "$c"
	cp -r "$d/." "$c/"
	mkdir -p "$c/out"
	printf '/* an earlier output */\n' > "$c/out/ctx.h"
	printf '/* an earlier raw output */\n' > "$c/out/raw.h"
	before=$(cd "$c/out" && find . -type f -printf '%p %s %T@\n' | sort)
	( cd "$c" && FIXTURES=$TPGEN_ROOT/tests/fixtures/events TMPDIR=$T TPGEN=$TPGEN bash ./cmd >/dev/null 2>"$c/stderr.actual"; echo $? > "$c/rc.actual" )
	after=$(cd "$c/out" && find . -type f -printf '%p %s %T@\n' | sort)
	if [ "${TPGEN_UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$c/stderr.actual" "$d/expect"
		cp "$c/rc.actual" "$d/rc"
	fi
	n=$((n + 1))
	why=
	[ -f "$d/expect" ] || why="no expect file"
	[ -z "$why" ] && ! cmp -s "$d/expect" "$c/stderr.actual" && why="stderr differs"
	[ -z "$why" ] && [ "$(cat "$d/rc")" != "$(cat "$c/rc.actual")" ] &&
		why="exit $(cat "$c/rc.actual"), expected $(cat "$d/rc")"
	[ -z "$why" ] && [ "$(cat "$c/rc.actual")" = 0 ] && why="exit 0 on bad input"
	[ -z "$why" ] && [ "$before" != "$after" ] && why="out/ changed"
	[ -z "$why" ] && [ "$(wc -l < "$c/stderr.actual")" -lt 1 ] && why="no diagnostic"
	if [ -n "$why" ]; then
		bad=$((bad + 1))
		echo "FAIL $name: $why"
		[ -f "$d/expect" ] && diff -u "$d/expect" "$c/stderr.actual" | sed 's/^/    /' | head -20
		[ "$before" != "$after" ] && diff <(echo "$before") <(echo "$after") | sed 's/^/    /'
	else
		echo "ok   $name: $(head -c 150 "$c/stderr.actual" | head -n 1)"
	fi
done
echo "$n bad inputs, $bad wrong"
[ "$n" -ge 60 ] || fail "only $n bad inputs in tests/bad (want at least 60)"
[ "$bad" -eq 0 ]
