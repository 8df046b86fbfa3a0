#!/bin/bash
# tpgen built with ASan + UBSan (leak checks on) runs the fixture tree, every
# event of the live kernel, list --json, snapshot and bad inputs cleanly, and
# writes exactly what the normal build writes.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
san=$T/tpgen-san
make --no-print-directory -s build/templates.c || fail "make build/templates.c failed"
clang -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
	-std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter \
	-D_GNU_SOURCE -DTPGEN_VERSION="\"$(sed -n 's/^VERSION\t*:= *//p' Makefile)\"" -Igen -Ibuild \
	gen/*/*.c build/templates.c -lbpf -lelf -lz -lyaml -o "$san" || fail "sanitizer build failed"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=98

run() {	# run both builds, compare stdout and exit code
	local a b ra rb
	a=$("$TPGEN" "$@" 2>/dev/null); ra=$?
	b=$("$san" "$@" 2>"$T/san.err"); rb=$?
	[ $rb -eq 99 ] || [ $rb -eq 98 ] && { cat "$T/san.err" >&2; fail "sanitizer report: tpgen $*"; }
	grep -q -E 'AddressSanitizer|runtime error|LeakSanitizer' "$T/san.err" &&
		{ cat "$T/san.err" >&2; fail "sanitizer report: tpgen $*"; }
	[ "$ra" = "$rb" ] || fail "exit $ra vs $rb under sanitizers: tpgen $*"
	[ "$a" == "$b" ] || fail "output differs under sanitizers: tpgen $*"
	echo "ok ($rb): tpgen $*"
}

run headers --tracefs tests/fixtures/events
run list --json --tracefs tests/fixtures/events
run list --tracefs tests/fixtures/events 'odd/*'
run headers --tracefs tests/fixtures/events nosuch/event
run headers --bogus
run headers --tracefs /nonexistent
# spec generation: every spec in specs/ against the committed format files, same files both ways
for s in specs/*.yaml tests/spec/*.yaml; do
	"$TPGEN" --tracefs tests/spec/events -o "$T/plain" "$s" >/dev/null 2>&1; ra=$?
	"$san" --tracefs tests/spec/events -o "$T/san" "$s" >/dev/null 2>"$T/san.err"; rb=$?
	grep -q -E 'AddressSanitizer|runtime error|LeakSanitizer' "$T/san.err" &&
		{ cat "$T/san.err" >&2; fail "sanitizer report: tpgen $s"; }
	[ "$ra" = "$rb" ] || fail "exit $ra vs $rb under sanitizers: tpgen $s"
done
[ -d "$T/plain" ] && { diff -r "$T/plain" "$T/san" >/dev/null || fail "generated pairs differ under sanitizers"; }
echo "ok: spec generation under sanitizers"
for d in tests/bad/*/; do
	[ -f "$d/cmd" ] || continue
	c=$T/bad/$(basename "$d")
	mkdir -p "$c/out" && cp -r "$d/." "$c/"
	( cd "$c" && FIXTURES=$TPGEN_ROOT/tests/fixtures/events TMPDIR=$T TPGEN=$san bash ./cmd >/dev/null 2>"$T/bad.err"; r=$?
	  [ $r -ne 99 ] && [ $r -ne 98 ] && ! grep -q -E 'AddressSanitizer|runtime error|LeakSanitizer' "$T/bad.err" ) ||
		{ cat "$T/bad.err" >&2; fail "sanitizer report on bad input $d"; }
done
echo "ok: tests/bad/ under sanitizers"
if [ "$(id -u)" = 0 ] && [ -r /sys/kernel/btf/vmlinux ]; then
	require_live
	run headers
	run list --json
	run headers --raw
	run headers --raw --vmlinux-h
	"$san" snapshot "$T/snap" 2>"$T/san.err" || { cat "$T/san.err"; fail "snapshot under sanitizers"; }
	run headers --kernel "$T/snap" 'sched/*'
	for s in specs/*.yaml bench/*.yaml; do
		"$san" -o "$T/live-san" "$s" >/dev/null 2>"$T/san.err" ||
			{ cat "$T/san.err" >&2; fail "tpgen $s failed under sanitizers"; }
		grep -q -E 'AddressSanitizer|runtime error|LeakSanitizer' "$T/san.err" &&
			{ cat "$T/san.err" >&2; fail "sanitizer report: tpgen $s"; }
	done
	echo "ok: every spec on the live kernel under sanitizers"
else
	skip "live part needs root, tracefs and BTF"
fi
