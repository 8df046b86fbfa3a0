#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Run every tests/t_*.sh (or those named) and print "N passed, N failed".
# A test exits 0 (pass), 77 (skip: only allowed outside CI, see tests/lib.sh), anything else fails.
# Each test has a time limit: TPGEN_TEST_TIMEOUT seconds (600), or its own
# '# tpgen-timeout: N' line in its opening comment; one that runs over is killed
# and fails.
# Under CI, TPGEN_UPDATE_GOLDEN is refused: golden files are reviewed, not rewritten.
cd "$(dirname "$0")/.." || exit 1
export TPGEN_ROOT=$PWD
export TPGEN=${TPGEN:-$PWD/tpgen}
export TPGEN_TMP=${TPGEN_TMP:-$(mktemp -d /tmp/tpgen-tests.XXXXXX)}
mkdir -p "$TPGEN_TMP" || exit 1
[ -n "${CI:-}" ] && export TPGEN_REQUIRE_LIVE=${TPGEN_REQUIRE_LIVE:-1}
if [ -n "${CI:-}" ] && [ "${TPGEN_UPDATE_GOLDEN:-0}" != 0 ]; then
	echo "tests/run.sh: TPGEN_UPDATE_GOLDEN is set under CI: refusing to rewrite golden files" >&2
	echo "0 passed, 1 failed"
	exit 1
fi

tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=(tests/t_*.sh)

pass=0 fail=0 skip=0 failed=()
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	log=$TPGEN_TMP/$name.log
	# the limit is read from the test's opening comment only
	limit=$(awk '!/^#/ { exit } /^# tpgen-timeout: *[0-9]+$/ { sub(/^# tpgen-timeout: */, ""); print; exit }' "$t")
	limit=${limit:-${TPGEN_TEST_TIMEOUT:-600}}
	start=$EPOCHREALTIME
	timeout --kill-after=10 "$limit" bash "$t" >"$log" 2>&1
	rc=$?
	secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	case $rc in
	0)	pass=$((pass + 1)); printf 'PASS  %-32s %6ss\n' "$name" "$secs" ;;
	77)	skip=$((skip + 1)); printf 'SKIP  %-32s %6ss  %s\n' "$name" "$secs" "$(tail -n 1 "$log")" ;;
	*)	fail=$((fail + 1)); failed+=("$name")
		if [ $rc = 124 ] || [ $rc = 137 ]; then
			printf 'FAIL  %-32s %6ss  (timed out after %ss)\n' "$name" "$secs" "$limit"
		else
			printf 'FAIL  %-32s %6ss  (exit %d)\n' "$name" "$secs" "$rc"
		fi
		sed 's/^/    | /' "$log" | tail -n 40 ;;
	esac
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "logs: $TPGEN_TMP"
if [ $skip -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ $fail -eq 0 ]
