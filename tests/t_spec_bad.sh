#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Bad specs: each tests/spec/bad/NAME.yaml fails with exit 1, writes nothing,
# and prints exactly tests/spec/bad/NAME.err (one error, line:col, caret).
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1

n=0
for spec in tests/spec/bad/*.yaml; do
	want=${spec%.yaml}.err
	[ -f "$want" ] || fail "$spec has no $want"
	"$TPGEN" --tracefs tests/spec/events -o "$T/out" "$spec" 2>"$T/err" >"$T/stdout"
	rc=$?
	[ $rc = 1 ] || fail "$spec: exit $rc, want 1"
	diff -u "$want" "$T/err" || fail "$spec: diagnostics differ"
	[ -s "$T/stdout" ] && fail "$spec: wrote to stdout"
	[ -e "$T/out" ] && fail "$spec: wrote files"
	n=$((n + 1))
done

# usage errors are exit 2, a missing spec file is an input error
"$TPGEN" 2>/dev/null; [ $? = 2 ] || fail "no arguments: want exit 2"
"$TPGEN" specs/sched.yaml --no-such-option 2>/dev/null; [ $? = 2 ] || fail "bad option: want exit 2"
"$TPGEN" "$T/missing.yaml" 2>"$T/err"; [ $? = 1 ] || fail "missing spec: want exit 1"
grep -q "missing.yaml: error: cannot read spec" "$T/err" || fail "missing spec: $(cat "$T/err")"
echo "ok: $n bad specs"
