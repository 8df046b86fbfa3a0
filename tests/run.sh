#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Run every tests/t_*.sh (or those named) and print "N passed, N failed".
# A test exits 0 (pass), 77 (skip: only allowed outside CI, see tests/lib.sh), anything else fails.
cd "$(dirname "$0")/.." || exit 1
export TPGEN_ROOT=$PWD
export TPGEN=${TPGEN:-$PWD/tpgen}
export TPGEN_TMP=${TPGEN_TMP:-$(mktemp -d /tmp/tpgen-tests.XXXXXX)}
[ -n "$CI" ] && export TPGEN_REQUIRE_LIVE=${TPGEN_REQUIRE_LIVE:-1}

tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=(tests/t_*.sh)

pass=0 fail=0 skip=0 failed=()
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	log=$TPGEN_TMP/$name.log
	start=$EPOCHREALTIME
	bash "$t" >"$log" 2>&1
	rc=$?
	secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	case $rc in
	0)	pass=$((pass + 1)); printf 'PASS  %-32s %6ss\n' "$name" "$secs" ;;
	77)	skip=$((skip + 1)); printf 'SKIP  %-32s %6ss  %s\n' "$name" "$secs" "$(tail -n 1 "$log")" ;;
	*)	fail=$((fail + 1)); failed+=("$name")
		printf 'FAIL  %-32s %6ss  (exit %d)\n' "$name" "$secs" "$rc"
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
