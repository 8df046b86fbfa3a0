#!/bin/bash
# The runner can fail when it should: a test that hangs is killed at its time
# limit and fails; a failing test fails; CI refuses TPGEN_UPDATE_GOLDEN, in
# tests/run.sh and in every test (tests/lib.sh).
. "$(dirname "$0")/lib.sh"
mkdir -p "$T/r/tests"
cp "$TPGEN_ROOT/tests/run.sh" "$TPGEN_ROOT/tests/lib.sh" "$T/r/tests/"
cat > "$T/r/tests/t_hang.sh" <<'T'
# tpgen-timeout: 2
sleep 60
T
printf 'exit 3\n' > "$T/r/tests/t_fails.sh"
printf 'exit 0\n' > "$T/r/tests/t_passes.sh"
cd "$T/r"
start=$SECONDS
out=$(TPGEN_TMP=$T/tmp1 bash tests/run.sh 2>&1) && fail "run.sh passed with a hanging and a failing test"
[ $((SECONDS - start)) -lt 30 ] || fail "the hanging test was not stopped at its limit"
grep -q '^FAIL  t_hang .*(timed out after 2s)' <<<"$out" || fail "no timeout reported: $out"
grep -q '^FAIL  t_fails .*(exit 3)' <<<"$out" || fail "failing test not reported: $out"
grep -q '^1 passed, 2 failed$' <<<"$out" || fail "summary: $out"
echo "ok: time limit and failures"
out=$(CI=true TPGEN_UPDATE_GOLDEN=1 TPGEN_TMP=$T/tmp2 bash tests/run.sh tests/t_passes.sh 2>&1) &&
	fail "run.sh ran with TPGEN_UPDATE_GOLDEN under CI"
grep -q 'refusing to rewrite golden files' <<<"$out" || fail "no refusal: $out"
printf '. "$(dirname "$0")/lib.sh"\nexit 0\n' > tests/t_lib.sh
CI=true TPGEN_UPDATE_GOLDEN=1 TPGEN_ROOT=$T/r TPGEN_TMP=$T/tmp3 bash tests/t_lib.sh 2>/dev/null &&
	fail "a test ran with TPGEN_UPDATE_GOLDEN under CI"
echo "ok: CI refuses TPGEN_UPDATE_GOLDEN"
