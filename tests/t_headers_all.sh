#!/bin/bash
# tpgen headers --all -o DIR: both whole-kernel headers from one process are
# the very files 'tpgen headers' and 'tpgen headers --raw' write, live and from
# a snapshot; a second run leaves them alone; what it refuses writes nothing.
. "$(dirname "$0")/lib.sh"
require_live
cd "$T"

"$TPGEN" headers --all -o all || fail "tpgen headers --all failed"
"$TPGEN" headers -o ctx.h || fail "tpgen headers failed"
"$TPGEN" headers --raw -o raw.h || fail "tpgen headers --raw failed"
cmp ctx.h all/ctx.h || fail "--all's ctx.h differs from tpgen headers'"
cmp raw.h all/raw.h || fail "--all's raw.h differs from tpgen headers --raw's"
[ "$(ls all | tr '\n' ' ')" = "ctx.h raw.h " ] || fail "--all wrote: $(ls all)"
echo "ok   --all: the ctx and raw headers of the live kernel"

# --check: up to date, then stale
"$TPGEN" headers --all --check -o all || fail "--check: fresh headers called stale"
echo '/* edited */' >> all/raw.h
"$TPGEN" headers --all --check -o all && fail "--check: an edited raw.h called fresh"
"$TPGEN" headers --all -o all && cmp raw.h all/raw.h || fail "a rerun did not rewrite the edited raw.h"
touch -d 2000-01-01 all/ctx.h
"$TPGEN" headers --all -o all || fail "rerun failed"
[ "$(stat -c %Y all/ctx.h)" = "$(date -d 2000-01-01 +%s)" ] || fail "an unchanged ctx.h was rewritten"
echo "ok   --all --check, and a rerun rewrites only what changed"

# -o into the directory it runs in: '.', '..' (rename() refuses to swap
# them) and its own path (swapped, it would leave the shell that ran tpgen in
# a removed directory). Their files are written in place, one by one.
mkdir -p here/sub
touch here/mine
(
	cd here || exit 1
	ino=$(stat -c %i .)
	"$TPGEN" headers --all -o . || fail "-o . failed"
	cmp ../ctx.h ctx.h && cmp ../raw.h raw.h || fail "-o . wrote other headers"
	[ -e mine ] || fail "-o . took away a file it did not write"
	cd sub || exit 1
	"$TPGEN" headers --all -o .. || fail "-o .. failed"
	"$TPGEN" headers --all -o "$PWD" || fail "-o \$PWD failed"
	cmp ../../ctx.h ctx.h && cmp ../../raw.h raw.h || fail "-o \$PWD wrote other headers"
	[ "$(stat -c %i ..)" = "$ino" ] && [ -e ../mine ] || fail "-o .. swapped the directory a shell is in"
	ls . >/dev/null || fail "-o \$PWD left the shell in a removed directory"
	[ "$(stat -c %i "$PWD")" = "$(stat -c %i .)" ] || fail "-o \$PWD swapped the directory a shell is in"
) || exit 1
echo "ok   -o ., -o .. and -o \$PWD: written in place"

# a snapshot: the same as the two commands on it
"$TPGEN" snapshot snap >/dev/null 2>&1 || fail "tpgen snapshot failed"
"$TPGEN" headers --kernel snap --all -o snapall || fail "--all --kernel failed"
mkdir s
"$TPGEN" headers --kernel snap -o s/ctx.h && "$TPGEN" headers --kernel snap --raw -o s/raw.h ||
	fail "headers --kernel failed"
cmp s/ctx.h snapall/ctx.h && cmp s/raw.h snapall/raw.h || fail "--all --kernel differs from the two commands"
echo "ok   --all --kernel SNAPSHOT"

# refused: with --raw, --vmlinux-h, a pattern, no -o or -o -
for args in "--raw -o r" "--vmlinux-h -o r" "-o r sched" "" "-o -"; do
	# shellcheck disable=SC2086
	"$TPGEN" headers --all $args > out 2> err
	rc=$?
	[ $rc = 2 ] || fail "headers --all $args: exit $rc, not 2"
	grep -q "error: --all writes" err || fail "headers --all $args: $(cat err)"
	[ -e r ] && fail "headers --all $args wrote r"
	[ -s out ] && fail "headers --all $args wrote to stdout"
done
echo "ok   --all refuses --raw, --vmlinux-h, patterns and a missing -o DIR"
