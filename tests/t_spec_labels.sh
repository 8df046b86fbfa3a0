#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# A label is shown as written (issue 21): labels that are macros of the C
# library the loader includes ('major', 'minor', 'stdin', 'environ', ...)
# get another C member ('major_'), and the text heading and the JSON key of
# a print and of an aggregation's key are still the label. Every such name
# the generator renames (its list in gen/model/actions.c) that it accepts
# as a label is tried, on a print and as a key, with the values the test's
# getppid() calls gave.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

# the renamed names, from the generator's own list
names=$(sed -n '/^static bool is_libc_macro/,/^}/p' gen/model/actions.c | grep -o '"[A-Za-z_][A-Za-z0-9_]*"' | tr -d '"')
[ "$(echo "$names" | wc -w)" -ge 20 ] || fail "the list of renamed names was not found in gen/model/actions.c"
ok=()
for n in $names; do
	printf 'tool: one\nevents:\n  - event: syscalls/sys_enter_getppid\n    print: [%s: tid]\n' "$n" >"$T/one.yaml"
	"$TPGEN" "$T/one.yaml" -o "$T/one" 2>/dev/null && ok+=("$n")
done
[ ${#ok[@]} -ge 10 ] || fail "only ${#ok[@]} of these names are labels: ${ok[*]}"
{
	echo "tool: labels"
	echo "events:"
	echo "  - event: syscalls/sys_enter_getppid"
	echo "    filter: comm == \"tpgen-getppid\""
	echo "    print:"
	for n in "${ok[@]}"; do echo "      - $n: tid"; done
	echo "  - event: syscalls/sys_enter_getppid"
	echo "    filter: comm == \"tpgen-getppid\""
	echo "    aggregate: { by: [${ok[0]}: pid, ${ok[1]}: tid], count: true }"
} >"$T/labels.yaml"
out=$T/out
"$TPGEN" "$T/labels.yaml" -o "$out" || fail "tpgen labels.yaml"
make -s -C "$out/labels" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }
cc -O2 -Wall -Werror -o "$T/tpgen-getppid" tests/spec/getppid.c || fail "cc tests/spec/getppid.c"

start labels
"$T/tpgen-getppid" 3 1 &
gp=$!
wait $gp
stop labels
python3 - "$T/labels.out" $gp "${ok[@]}" <<'PY' || { head -5 "$T/labels.out"; fail "JSON keys are not the labels as written"; }
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
gp, names = int(sys.argv[2]), sys.argv[3:]
ev = [r for r in recs if r.get("event") == "syscalls/sys_enter_getppid"]
agg = [r for r in recs if "agg" in r]
assert len(ev) == 3, ev
for r in ev:
    assert [k for k in r if k not in ("time", "event")] == names, r.keys()
    assert all(r[n] == gp for n in names), r
assert len(agg) == 1 and agg[0][names[0]] == gp and agg[0][names[1]] == gp and agg[0]["count"] == 3, agg
PY
# text: the headings are the labels, upper-cased
"$out/labels/labels" >"$T/text.out" 2>"$T/text.err" &
pid=$!
for i in $(seq 100); do grep -q '^Tracing' "$T/text.err" && break; sleep 0.1; done
"$T/tpgen-getppid" 2 1
sleep 0.5
kill -INT $pid
wait $pid || fail "labels (text) exited $?"
want="TIME $(printf '%s\n' "${ok[@]}" | tr a-z A-Z | tr '\n' ' ')"
got=$(grep -m1 '^TIME' "$T/text.out" | tr -s ' ')
[ "${got% }" = "${want% }" ] || fail "text heading: '$got', want '$want'"
key_heading=$(grep -A1 'count by' "$T/text.out" | tail -1 | tr -s ' ')
[ "$key_heading" = " COUNT $(echo "${ok[0]} ${ok[1]}" | tr a-z A-Z)" ] ||
	fail "aggregation heading: '$key_heading'"
echo "ok: ${#ok[@]} labels: ${ok[*]}"
