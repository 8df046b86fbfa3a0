#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# argv of execve() (specs/execsnoop.yaml), live: the entry reads the
# argument list from the caller's memory and saves it, the exit prints it
# with the result, as a shell command line. The test execs a program with
# an argument holding spaces, one holding a quote and one a tab, and sees
# them quoted so that the line is unambiguous; 40 arguments end in "...";
# a failed exec shows -2 (ENOENT) with its arguments; 40 argument lists
# drawn from the space match a model of what is kept; the verifier walks
# the entry's loop once per argument. Filters cannot test
# an argument list, nor can it be a key (located errors).
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1

printf 'tool: bad\nevents:\n  - event: syscalls/sys_enter_execve\n    filter: argv == "x"\n    print: [argv]\n' >"$T/bad.yaml"
"$TPGEN" "$T/bad.yaml" -o "$T/badout" 2>"$T/bad.err" && fail "a filter on argv was accepted"
grep -qF "bad.yaml:4:13: error: 'argv' is an argument list: it can be printed or saved, not tested or computed with" \
	"$T/bad.err" || { cat "$T/bad.err"; fail "filter on argv: wrong error"; }
printf 'tool: bad\nevents:\n  - event: syscalls/sys_enter_execve\n    count: [argv]\n' >"$T/bad.yaml"
"$TPGEN" "$T/bad.yaml" -o "$T/badout" 2>"$T/bad.err" && fail "argv as a key was accepted"
grep -qF "bad.yaml:4:13: error: 'argv' is an argument list: it can be printed or saved, not be a key" \
	"$T/bad.err" || { cat "$T/bad.err"; fail "argv as a key: wrong error"; }

require_live
. "$(dirname "$0")/spec_lib.sh"
out=$T/out
"$TPGEN" specs/execsnoop.yaml -o "$out" || fail "tpgen specs/execsnoop.yaml"
make -s -C "$out/execsnoop" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build"; }
cp /bin/true "$T/tpgen-argv-probe"

# The verifier walks the argument loop once per argument (about 40
# instructions each), not once per path through it: a branch on whether a
# string filled its 128 bytes made it walk 235,000 instructions, 1.5 s at
# start-up, 1,300 without. The bound is 200 per argument.
cc -O2 -Wall -Wextra -Werror bench/verifier.c -lbpf -o "$T/verifier" || fail "build bench/verifier.c"
"$T/verifier" "$out/execsnoop/.output/execsnoop.bpf.o" >"$T/verifier.out" || fail "load execsnoop.bpf.o"
insns=$(awk '$1 == "tp/syscalls/sys_enter_execve" { print $3 }' "$T/verifier.out")
[ -n "$insns" ] && [ "$insns" -le $((200 * 32)) ] || {
	cat "$T/verifier.out"; fail "the verifier walked ${insns:-?} instructions of the entry (32 arguments)"; }

run_workload() {
	"$T/tpgen-argv-probe" one "two words" "it's" "$(printf 'tab\there')" ''
	"$T/tpgen-argv-probe" $(seq 1 40)
	"$T/tpgen-argv-missing" a "b c" 2>/dev/null
	true
}

start execsnoop
run_workload
stop execsnoop
# JSON escapes the backslashes of the quoting: 'it'\\''s' and $'tab\\x09here'
grep -qF "\"pcomm\":\"tpgen-argv-prob\",\"pid\":" "$T/execsnoop.out" || fail "no exec of tpgen-argv-probe"
grep -qF "\"ret\":0,\"args\":\"$T/tpgen-argv-probe one 'two words' 'it'\\\\''s' \$'tab\\\\x09here' ''\"}" \
	"$T/execsnoop.out" || { grep tpgen-argv "$T/execsnoop.out"; fail "the arguments, quoted (JSON)"; }
expect execsnoop "\"ret\":0,\"args\":\"$T/tpgen-argv-probe 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 \\.\\.\\.\"" \
	"the program and 31 arguments (32 strings) of 41, then ..."
expect execsnoop "\"ret\":-2,\"args\":\"$T/tpgen-argv-missing a 'b c'\"" "a failed exec (-ENOENT) with its arguments"

# The space: argument lists of 0 to 40 strings of 0 to 200 bytes (at, under
# and over the 127 kept of each; past the 1 KiB kept of all), from a seed,
# against a model of what the entry keeps: up to 32 strings, each cut at
# 127 bytes, none started past byte 894 of the 1024, '...' when something
# was left out.
cat >"$T/space.py" <<'PY'
import random, subprocess, sys
probe, exp = sys.argv[1], open(sys.argv[2], 'w')
rng = random.Random(24)
def quote(a):
    if a and all(c.isalnum() or c in '@%+=:,./-_' for c in a):
        return a
    return "'" + a + "'"
for case in range(40):
    nargs = rng.choice([0, 1, 2, 5, 29, 30, 31, 32, 40])
    lens = [0, 1, 9] if case % 2 else [0, 1, 9, 125, 126, 127, 128, 200]
    argv = [probe, 'c%d' % case] + [
        rng.choice('abc x') * rng.choice(lens) for _ in range(nargs)]
    off, cut, kept = 0, False, []
    for i, a in enumerate(argv[:32]):
        if off > 1024 - 2 - 128:
            cut = True
            break
        kept.append(a[:127])
        cut |= len(a) >= 127
        off += min(len(a), 127) + 1
    cut |= len(argv) > 32
    exp.write(' '.join([quote(a) for a in kept] + (['...'] if cut else [])) + '\n')
    subprocess.run(argv, check=True)
PY

start execsnoop
python3 "$T/space.py" "$T/tpgen-argv-probe" "$T/space.exp" || fail "the space workload"
stop execsnoop
n=0
while IFS= read -r line; do
	grep -qF "\"ret\":0,\"args\":\"$line\"}" "$T/execsnoop.out" || {
		grep -F "$T/tpgen-argv-probe c$n" "$T/execsnoop.out" | head -3
		fail "case $n: no '$line'"; }
	n=$((n + 1))
done <"$T/space.exp"
[ $n = 40 ] || fail "the space: $n cases"

# text: the line a user reads
"$out/execsnoop/execsnoop" >"$T/text.out" 2>"$T/text.err" &
pid=$!
for i in $(seq 100); do grep -q '^Tracing' "$T/text.err" && break; sleep 0.1; done
run_workload
sleep 0.5
kill -INT $pid
wait $pid || fail "execsnoop exited $?"
grep -qF "$T/tpgen-argv-probe one 'two words' 'it'\\''s' \$'tab\\x09here' ''" "$T/text.out" || {
	grep tpgen-argv "$T/text.out"; fail "text: the quoted command line"; }
grep -Eq "^[0-9:]+ +tpgen-argv-prob +[0-9]+ +[0-9]+ +0 $T/tpgen-argv-probe one" "$T/text.out" ||
	fail "text: columns"
echo "ok: execsnoop shows the arguments the test passed"
