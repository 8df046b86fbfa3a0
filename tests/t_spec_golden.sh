#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Generated pairs are byte-identical across runs; specs/sched.yaml against the
# committed format files in tests/spec/events gives exactly tests/golden/sched/.
# TPGEN_UPDATE_GOLDEN=1 rewrites the golden files.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1

gen() { "$TPGEN" --tracefs tests/spec/events -o "$1" specs/sched.yaml || fail "tpgen specs/sched.yaml"; }
gen "$T/a"
gen "$T/b"
diff -r "$T/a" "$T/b" || fail "two runs differ"
if [ "${TPGEN_UPDATE_GOLDEN:-0}" = 1 ]; then
	rm -rf tests/golden/sched
	cp -r "$T/a/schedsnoop" tests/golden/sched
fi
diff -ru tests/golden/sched "$T/a/schedsnoop" || fail "output differs from tests/golden/sched"

# a rerun leaves unchanged files alone (make does not rebuild)
touch -d '2000-01-01' "$T/a/schedsnoop/schedsnoop.bpf.c"
gen "$T/a"
[ "$(stat -c %Y "$T/a/schedsnoop/schedsnoop.bpf.c")" = "$(date -d 2000-01-01 +%s)" ] ||
	fail "an unchanged file was rewritten"

# every spec: identical twice on the live kernel too
if [ -d /sys/kernel/tracing/events/sched ]; then
	for s in specs/*.yaml; do
		"$TPGEN" -o "$T/l1" "$s" && "$TPGEN" -o "$T/l2" "$s" || fail "tpgen $s"
	done
	diff -r "$T/l1" "$T/l2" || fail "live runs differ"
fi

# --templates DIR: files there replace the built-in ones, the rest stay
mkdir "$T/tmpl"
printf '# custom {{TOOL}}\n' > "$T/tmpl/Makefile"
"$TPGEN" --tracefs tests/spec/events --templates "$T/tmpl" -o "$T/c" specs/sched.yaml || fail "--templates"
[ "$(cat "$T/c/schedsnoop/Makefile")" = "# custom schedsnoop" ] || fail "--templates Makefile not used"
cmp -s "$T/c/schedsnoop/schedsnoop.bpf.c" "$T/a/schedsnoop/schedsnoop.bpf.c" || fail "--templates changed other files"
printf '{{NO_SUCH}}\n' > "$T/tmpl/Makefile"
"$TPGEN" --tracefs tests/spec/events --templates "$T/tmpl" -o "$T/d" specs/sched.yaml 2>"$T/err" &&
	fail "unknown template variable accepted"
grep -q "unknown variable {{NO_SUCH}}" "$T/err" || fail "template error: $(cat "$T/err")"
echo ok
