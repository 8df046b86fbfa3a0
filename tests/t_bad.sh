#!/bin/bash
# The table of bad inputs in tests/bad/<case>/: each 'cmd' (run inside a copy of
# the case directory, after its 'setup' if it has one) must print exactly
# 'expect' on stderr, exit with 'rc', leave out/ -- which holds earlier
# outputs -- untouched (every entry, its type, size and mtime), with no temp
# files, and run nothing an input planted (no file named PWNED appears).
# TPGEN_UPDATE_GOLDEN=1 records what tpgen says now (refused under CI).
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
n=0 bad=0
run_case() {	# run_case SCRIPT: in the case's copy, with what a case may use
	( cd "$c" && TPGEN_ROOT=$TPGEN_ROOT FIXTURES=$TPGEN_ROOT/tests/fixtures/events TMPDIR=$T \
		TPGEN=$TPGEN timeout 60 bash "./$1" )
}
for d in tests/bad/*/; do
	name=$(basename "$d")
	[ -f "$d/cmd" ] || continue
	c=$T/cases/$name
	mkdir -p "$c"
	cp -r "$d/." "$c/"
	mkdir -p "$c/out"
	printf '/* an earlier output */\n' > "$c/out/ctx.h"
	printf '/* an earlier raw output */\n' > "$c/out/raw.h"
	[ -f "$c/setup" ] && { run_case setup >/dev/null 2>&1 || fail "$name: setup failed"; }
	before=$(cd "$c/out" && find . -printf '%p %y %s %T@\n' | sort)
	run_case cmd >/dev/null 2>"$c/stderr.actual"
	echo $? > "$c/rc.actual"
	after=$(cd "$c/out" && find . -printf '%p %y %s %T@\n' | sort)
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
	[ -z "$why" ] && [ -n "$(find "$c" -name 'PWNED*')" ] && why="a planted command ran"
	[ -z "$why" ] && LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' < "$c/stderr.actual") &&
		why="a control byte reached the terminal"
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
[ "$n" -ge 109 ] || fail "only $n bad inputs in tests/bad (want at least 109)"
[ "$bad" -eq 0 ]
