#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# tpgen-timeout: 1200
# Every spec of specs/ under each attach type (its top-level 'attach:' set to
# tracepoint, raw_tp and tp_btf in turn): tpgen generates it or refuses it with
# one located error (exit 1: a field that attach type cannot read), and what it
# generates builds with -Werror and loads in the kernel (the verifier accepts
# every program) and runs. Specs are tested one attach type at a time
# elsewhere; this is the space: a shape of code that one attach type's
# verifier refuses shows here first (several entries sharing the event's
# clock on a tracepoint record: "dereference of modified ctx ptr").
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live

built=0 refused=0
for spec in specs/*.yaml; do
	name=$(basename "$spec" .yaml)
	for k in tracepoint raw_tp tp_btf; do
		y=$T/$name-$k.yaml
		{ grep -v '^attach:' "$spec"; echo "attach: $k"; } > "$y"
		rc=0
		"$TPGEN" -o "$T/out-$k" "$y" 2>"$T/gen.err" || rc=$?
		if [ $rc = 1 ] && [ "$(grep -c ': error: ' "$T/gen.err")" = 1 ] &&
		   grep -q "^$y:[0-9]*:[0-9]*: error: " "$T/gen.err"; then
			refused=$((refused + 1))
			echo "refused $name under $k: $(grep ': error: ' "$T/gen.err" | sed "s|^$T/||")"
			continue
		fi
		[ $rc = 0 ] || { cat "$T/gen.err"; fail "$name under $k: exit $rc without one located error"; }
		tool=$(sed -n 's/^tool: *\([A-Za-z0-9_]*\).*/\1/p' "$spec")
		make -s -C "$T/out-$k/$tool" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 ||
			{ cat "$T/build.log"; fail "$name under $k: build"; }
		"$T/out-$k/$tool/$tool" -d 1 >"$T/run.out" 2>"$T/run.err" ||
			{ grep -v '^;' "$T/run.err" | tail -20; fail "$name under $k: did not load and run"; }
		built=$((built + 1))
	done
done
echo "$built built, loaded and run; $refused refused with a located error"
[ $built -ge 40 ] || fail "too few specs built ($built)"
