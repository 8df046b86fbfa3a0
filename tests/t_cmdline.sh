#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The command line: 'tpgen WORD' runs the command WORD names; a word that is
# no command is a spec when a file is there or it looks like a spec's path
# (.yaml, .yml, a '/'), else it is refused with exit 2 and the nearest command
# or the list of them, writing nothing. help, --help, --version, and the exit
# status of each kind of failure (0 ok, 1 input, 2 usage, 3 environment).
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
ev=$TPGEN_ROOT/tests/spec/events
sched=$TPGEN_ROOT/specs/sched.yaml

# run WANT_RC ARGS...: tpgen in $T/cwd, stdout and stderr to $T/out and $T/err
run() {
	local want=$1 rc
	shift
	(cd "$T/cwd" && "$TPGEN" "$@" >"$T/out" 2>"$T/err")
	rc=$?
	[ "$rc" = "$want" ] || fail "tpgen $*: exit $rc, want $want; stderr: $(head -c 300 "$T/err")"
}
# the cwd holds exactly the files named
only() { diff <(cd "$T/cwd" && find . -mindepth 1 -printf '%P\n' | sort) <(printf '%s\n' "$@" | sort | sed '/^$/d') ||
	fail "the directory changed"; }
mkdir "$T/cwd"

# every command, as 'tpgen help' lists them
"$TPGEN" help >"$T/help" 2>"$T/err" || fail "tpgen help: exit $?"
[ -s "$T/err" ] && fail "tpgen help wrote to stderr"
cmds=$(sed -n '/^Commands:$/,/^$/s/^  \([a-z]*\) .*/\1/p' "$T/help")
[ "$(echo $cmds)" = "headers list snapshot diff help" ] || fail "tpgen help lists: $(echo $cmds)"

# an unknown command near one: exit 2, one line naming it, no output, nothing written
for typo in hedaers:headers lsit:list snapshto:snapshot dif:diff hlep:help; do
	run 2 "${typo%%:*}" --tracefs "$ev" -o out
	echo "tpgen: error: unknown command '${typo%%:*}'; did you mean '${typo#*:}'?" | diff -u - "$T/err" ||
		fail "${typo%%:*}: wrong message"
	[ -s "$T/out" ] && fail "${typo%%:*}: wrote to stdout"
	only
done

# far from every command: exit 2, the commands listed
run 2 frobnicate
[ "$(wc -l < "$T/err")" = 1 ] || fail "frobnicate: not one line: $(cat "$T/err")"
grep -q "^tpgen: error: unknown command 'frobnicate'" "$T/err" || fail "frobnicate: $(cat "$T/err")"
for c in $cmds; do
	grep -qw "$c" "$T/err" || fail "frobnicate: '$c' is not listed: $(cat "$T/err")"
done
only

# looks like a spec's path: the spec's own error, exit 1, as before
for p in hedaers.yaml hedaers.yml no/hedaers ./hedaers; do
	run 1 "$p" --tracefs "$ev" -o out
	echo "$p: error: cannot read spec: No such file or directory" | diff -u - "$T/err" ||
		fail "$p: not the spec's error"
	only
done

# a file that is there is a spec, however near a command its name is
cp "$sched" "$T/cwd/hedaers"
run 0 hedaers --tracefs "$ev" -o out
[ -s "$T/cwd/out/schedsnoop/schedsnoop.bpf.c" ] || fail "hedaers: the spec was not generated"
rm -r "$T/cwd/out"
printf 'tool: [\n' > "$T/cwd/frobnicate"
run 1 frobnicate --tracefs "$ev" -o out
grep -q "^frobnicate:[0-9]*:[0-9]*: error: " "$T/err" || fail "a bad spec file: $(cat "$T/err")"
only hedaers frobnicate
rm "$T/cwd/frobnicate"

# a file named as a command: the command runs, wherever tpgen is run; ./NAME is the spec
mv "$T/cwd/hedaers" "$T/cwd/headers"
run 0 headers --tracefs "$ev" sched/sched_switch
grep -q '^struct sched_switch_ctx {' "$T/out" || fail "tpgen headers (a file 'headers' there) did not run headers"
run 0 ./headers --tracefs "$ev" -o out
[ -s "$T/cwd/out/schedsnoop/schedsnoop.bpf.c" ] || fail "./headers: the spec was not generated"
rm -r "$T/cwd/out" "$T/cwd/headers"

# help: the same text from 'help', '--help' and '-h', on stdout
for h in help --help -h; do
	run 0 "$h"
	cmp -s "$T/out" "$T/help" || fail "tpgen $h differs from tpgen help"
	[ -s "$T/err" ] && fail "tpgen $h wrote to stderr"
done
grep -q '^Usage: tpgen SPEC' "$T/help" || fail "tpgen help: no usage line"
# a command's --help is its own, exit 0
for c in headers list snapshot diff; do
	run 0 "$c" --help
	grep -q "^Usage: tpgen $c" "$T/out" || fail "tpgen $c --help: $(head -n 1 "$T/out")"
done

# --version and -V: "tpgen X.Y.Z" on stdout, exit 0
for v in --version -V; do
	run 0 "$v"
	grep -qx 'tpgen [0-9][0-9.]*' "$T/out" || fail "tpgen $v: $(cat "$T/out")"
	[ -s "$T/err" ] && fail "tpgen $v wrote to stderr"
done

# exit status: 1 a bad spec (located), 2 usage, 3 environment
run 1 "$TPGEN_ROOT/tests/spec/bad/attach.yaml" --tracefs "$ev" -o out
sed "s|^tests/|$TPGEN_ROOT/tests/|" tests/spec/bad/attach.err | diff -u - "$T/err" ||
	fail "a bad spec: wrong diagnostic"
only
run 1 --tracefs "$T/no-such-dir" -o out "$sched"
run 2
grep -q '^Usage: tpgen' "$T/err" || fail "no arguments: no usage on stderr"
run 2 headers --bogus
echo "tpgen: error: unknown option '--bogus'; see 'tpgen headers --help'" | diff -u - "$T/err" || fail "headers --bogus"
run 2 "$sched" --bogus
run 2 -o
run 2 diff one
run 2 snapshot
run 2 headers --vmlinux-h
only
cp -r "$ev" "$T/cwd/events"
run 3 headers --raw --tracefs events
grep -q 'no BTF beside events' "$T/err" || fail "no BTF: $(cat "$T/err")"
echo "ok"
