#!/bin/bash
# The print fmt reader (gen/input/printfmt.c, expressions in gen/pf*.c, names through BTF in
# gen/input/pfbtf.c) and the loader's renderer (bpf/tpgen_names.c) against
# libtraceevent, with the C compiler as the judge of arithmetic
# (tests/oracle/printfmt_oracle.c says how): for every event of the live
# kernel whose print fmt has __print_symbolic/__print_flags, each table
# prints what libtraceevent prints for 0, every table value, values in no
# entry and unions of flags; the values and each table's argument equal
# what the C compiler computes from the kernel's own text (with vmlinux.h),
# and so does the argument as pf_emit_c() writes it. Also the fixture tree
# tests/printfmt/events (negative values, _u64, ternaries, expressions of
# fields, terminators, a string across lines, addresses) and its warnings:
# what tpgen cannot read stays numeric, one warning each.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
clang -std=gnu11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
	-Wall -Wextra -Werror -D_GNU_SOURCE -Igen -Ibpf $(pkg-config --cflags libtraceevent) \
	tests/oracle/printfmt_oracle.c gen/input/printfmt.c gen/input/pfexpr.c gen/input/pftokens.c gen/input/pfeval.c gen/input/pfbtf.c gen/input/tracefs.c gen/input/tracefs_dir.c gen/input/fieldtype.c \
	gen/lib/util.c gen/lib/term.c gen/lib/diag.c gen/lib/ident.c gen/input/fileio.c bpf/tpgen_names.c $(pkg-config --libs libtraceevent) -lbpf -lpthread -o "$T/oracle" ||
	fail "building the oracle failed"
# libtraceevent leaks a little in tep_parse_format(); everything else is checked
export ASAN_OPTIONS=detect_leaks=0

# oracle EVENTS [BTF [VMLINUX_H]]: write the judge, compile and run it, compare; output in $T/<name>.txt
oracle() {
	local name=$1 events=$2 btf=${3:-} vmlinux=${4:-} j=$T/judge-$1 cflags
	mkdir -p "$j"
	"$T/oracle" --write-judge "$j" "$events" $btf > "$j/first.txt" 2> "$j/first.err" ||
		grep -q 'printfmt oracle:' "$j/first.txt" || { cat "$j/first.err"; fail "$name: the oracle failed"; }
	if [ -n "$vmlinux" ]; then
		cflags="-w -DJUDGE_VMLINUX_H=\"$vmlinux\""
	else
		cflags="-Wall -Wextra -Werror -Wno-unused-function"
	fi
	clang -O0 $cflags "$j/judge.c" -o "$j/judge" 2> "$j/cc.err" ||
		{ head -20 "$j/cc.err"; fail "$name: the judge does not compile"; }
	"$j/judge" < "$j/inputs.txt" > "$j/judged.txt" || fail "$name: the judge failed"
	"$T/oracle" --judged "$j/judged.txt" "$events" $btf > "$T/$name.txt" 2> "$T/$name.err"
	rc=$?
	grep -E '^(MISMATCH|UNLIKE-C)' "$T/$name.txt" | head -40
	tail -n 1 "$T/$name.txt"
	[ $rc = 0 ] || fail "$name: tpgen and libtraceevent or the C compiler disagree"
}
# the number before 'what' on the oracle's last line
count() { tail -n 1 "$T/$1.txt" | grep -o "[0-9]* $2" | head -1 | cut -d' ' -f1; }

oracle fixtures tests/printfmt/events
[ "$(count fixtures tables)" = 12 ] || fail "fixtures: expected 12 tables"
[ "$(count fixtures 'checked by the C compiler')" -gt 100 ] || fail "fixtures: too few values judged"
grep -q 'UNLIKE-C.*ret at.*"ENOENT", libtraceevent "0xfffffffe"' "$T/fixtures.txt" ||
	fail "fixtures: -2 in a signed int field must decode as the kernel does (sign-extended)"
grep -q '5 of 5 address conversions found, 15 addresses compared' "$T/fixtures.txt" ||
	fail "fixtures: address conversions"
# what cannot be read: one warning per table, with its column, and the rest decoded
diff -u tests/printfmt/warnings.txt "$T/fixtures.err" || fail "fixtures: warnings differ"

require_live
vmlinux=$(vmlinux_h)
oracle live /sys/kernel/tracing/events /sys/kernel/btf/vmlinux "$vmlinux"
[ "$(count live events)" -ge 300 ] || fail "only $(count live events) live events with tables"
[ "$(count live tables)" -ge 500 ] || fail "only $(count live tables) live tables"
[ "$(count live 'values compared alone')" -ge 10000 ] || fail "too few values compared"
[ "$(count live 'checked by the C compiler')" -ge 10000 ] || fail "too few values judged"
found=$(tail -n 1 "$T/live.txt" | sed -n 's/.* \([0-9]*\) of \([0-9]*\) address conversions found.*/\1 \2/p')
[ -n "$found" ] && [ "${found% *}" = "${found#* }" ] || fail "address conversions found: $found"
# the warnings name a format file, line and column
if [ -s "$T/live.err" ]; then
	grep -v '^/sys/kernel/tracing/events/.*/format:[0-9]*:[0-9]*: warning: ' "$T/live.err" &&
		fail "a warning without its place"
fi
echo "live: $(wc -l < "$T/live.err") print fmt calls left numeric (warned)"
exit 0
