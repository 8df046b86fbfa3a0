#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Generated pairs are byte-identical across runs; specs/sched.yaml against the
# committed format files in tests/spec/events and the BTF of tests/spec/btf/sched.c
# gives exactly tests/golden/sched/: CO-RE reads of sched_switch and
# sched_process_exec, whose records BTF describes, and a start-up check of
# sched_wakeup's, which it does not. With --static-layout, every field read is
# checked. tests/spec/joins.yaml gives exactly tests/golden/joins/, tests/spec/latency.yaml
# tests/golden/latency/.
# TPGEN_UPDATE_GOLDEN=1 rewrites the golden files.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
clang -g -O2 -target bpf -c tests/spec/btf/sched.c -o "$T/sched.btf.o" || fail "compiling tests/spec/btf/sched.c"

gen() { "$TPGEN" --tracefs tests/spec/events --btf "$T/sched.btf.o" -o "$1" specs/sched.yaml "${@:2}" ||
	fail "tpgen specs/sched.yaml"; }
gen "$T/a"
gen "$T/b"
diff -r "$T/a" "$T/b" || fail "two runs differ"
if [ "${TPGEN_UPDATE_GOLDEN:-0}" = 1 ]; then
	rm -rf tests/golden/sched
	cp -r "$T/a/schedsnoop" tests/golden/sched
fi
diff -ru tests/golden/sched "$T/a/schedsnoop" || fail "output differs from tests/golden/sched"
# saves and joins (tests/spec/joins.yaml): one map update, in place, a per-CPU slot; filters
# on the event before the joins, on joined values after them; an entry that only joins
"$TPGEN" --tracefs tests/spec/events --btf "$T/sched.btf.o" -o "$T/j" tests/spec/joins.yaml ||
	fail "tpgen tests/spec/joins.yaml"
if [ "${TPGEN_UPDATE_GOLDEN:-0}" = 1 ]; then
	rm -rf tests/golden/joins
	cp -r "$T/j/joins" tests/golden/joins
fi
diff -ru tests/golden/joins "$T/j/joins" || fail "output differs from tests/golden/joins"
# latency pairs (tests/spec/latency.yaml): each is the save, join and aggregate it stands for,
# its identifiers from the name table beside a hist, a save, an aggregate and events of its names
"$TPGEN" --tracefs tests/spec/events --btf "$T/sched.btf.o" -o "$T/lat" tests/spec/latency.yaml ||
	fail "tpgen tests/spec/latency.yaml"
if [ "${TPGEN_UPDATE_GOLDEN:-0}" = 1 ]; then
	rm -rf tests/golden/latency
	cp -r "$T/lat/latency" tests/golden/latency
fi
diff -ru tests/golden/latency "$T/lat/latency" || fail "output differs from tests/golden/latency"

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
gen "$T/c" --templates "$T/tmpl"
[ "$(cat "$T/c/schedsnoop/Makefile")" = "# custom schedsnoop" ] || fail "--templates Makefile not used"
cmp -s "$T/c/schedsnoop/schedsnoop.bpf.c" "$T/a/schedsnoop/schedsnoop.bpf.c" || fail "--templates changed other files"
printf '{{NO_SUCH}}\n' > "$T/tmpl/Makefile"
"$TPGEN" --tracefs tests/spec/events --btf "$T/sched.btf.o" --templates "$T/tmpl" -o "$T/d" specs/sched.yaml \
	2>"$T/err" &&
	fail "unknown template variable accepted"
grep -q "unknown variable {{NO_SUCH}}" "$T/err" || fail "template error: $(cat "$T/err")"

# the golden's layout check: sched_wakeup's pid only (CO-RE reads are relocated, not checked)
layout() { sed -n '/^} layout\[\] = {$/,/^};$/p' "$1/schedsnoop/schedsnoop.c" | grep -o '{ "[^}]*}' | tr '\n' ' '; }
[ "$(layout "$T/a")" = '{ "sched/sched_wakeup", "pid", 24, 4, true } ' ] ||
	fail "the CO-RE pair checks: $(layout "$T/a")"
grep -q 'CO-RE: struct trace_event_raw_sched_switch' "$T/a/schedsnoop/schedsnoop.ctx.h" || fail "sched_switch is not CO-RE"
# --static-layout: no CO-RE struct, every field read checked
gen "$T/s" --static-layout
grep -q '__tpgen_core' "$T/s/schedsnoop/schedsnoop.ctx.h" && fail "--static-layout made CO-RE structs"
want='{ "sched/sched_process_exec", "filename", 8, 4, false } { "sched/sched_process_exec", "pid", 12, 4, true } '
want+='{ "sched/sched_process_exec", "old_pid", 16, 4, true } { "sched/sched_switch", "next_comm", 40, 16, false } '
want+='{ "sched/sched_switch", "next_pid", 56, 4, true } { "sched/sched_wakeup", "pid", 24, 4, true } '
[ "$(layout "$T/s")" = "$want" ] || fail "--static-layout checks: $(layout "$T/s")"
# the spec's own 'layout: static' is --static-layout
mkdir "$T/spec"
sed 's/^tool: .*/&\nlayout: static/' specs/sched.yaml > "$T/spec/sched.yaml"
grep -q '^layout: static$' "$T/spec/sched.yaml" || fail "no layout: static in the copy"
"$TPGEN" --tracefs tests/spec/events --btf "$T/sched.btf.o" -o "$T/k" "$T/spec/sched.yaml" || fail "layout: static"
diff -r "$T/s" "$T/k" || fail "layout: static differs from --static-layout"
echo ok
