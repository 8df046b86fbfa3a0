#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# make STATIC=1: the generated tool is one static binary (ldd: not dynamic)
# that runs live and reports what the test caused; offcputime too, with
# libdw linked in, naming the user frames of a sleeping test program.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live

"$TPGEN" specs/killsnoop.yaml -o "$T/out" || fail "tpgen specs/killsnoop.yaml"
make -s -C "$T/out/killsnoop" STATIC=1 EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 ||
	{ cat "$T/build.log"; fail "make STATIC=1"; }
bin=$T/out/killsnoop/killsnoop
ldd "$bin" 2>&1 | grep -q 'not a dynamic executable' || { ldd "$bin"; fail "the binary is dynamic"; }
echo "static binary: $(stat -c %s "$bin") bytes"
"$bin" -j -d 3 >"$T/out.json" 2>"$T/err" &
pid=$!
for i in $(seq 100); do grep -q '^Tracing' "$T/err" && break; sleep 0.1; done
bash -c 'echo $$ > "$1"; kill -0 $$' _ "$T/kill.pid"
wait $pid || { cat "$T/err"; fail "the static tool exited $?"; }
kp=$(cat "$T/kill.pid")
grep -q "\"pid\":$kp,\"comm\":\"bash\",\"sig\":0,\"target\":$kp,\"result\":0}" "$T/out.json" ||
	{ cat "$T/out.json"; fail "the static tool did not see kill($kp, 0)"; }
echo "ok: static killsnoop saw kill($kp, 0)"

# a tool with stacks: libdw, liblzma and libbz2 linked in too, user frames still named
"$TPGEN" specs/offcputime.yaml -o "$T/out" || fail "tpgen specs/offcputime.yaml"
make -s -C "$T/out/offcputime" STATIC=1 EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 ||
	{ cat "$T/build.log"; fail "make STATIC=1 (offcputime)"; }
bin=$T/out/offcputime/offcputime
ldd "$bin" 2>&1 | grep -q 'not a dynamic executable' || { ldd "$bin"; fail "offcputime is dynamic"; }
echo "static offcputime: $(stat -c %s "$bin") bytes"
cc -O0 -g -fno-omit-frame-pointer -Wall -Werror tests/stacks/sleeper.c -o "$T/sleeper" || fail "sleeper"
"$T/sleeper" >/dev/null &
spid=$!
trap 'kill $spid 2>/dev/null' EXIT
"$bin" -f -d 2 >"$T/folded.out" 2>"$T/folded.err" || { cat "$T/folded.err"; fail "static offcputime -f"; }
kill $spid
grep -Eq '^tpgen-offcpu;([^; ]+;)*do_nanosleep;' "$T/folded.out" || { head "$T/folded.out"; fail "static offcputime: no kernel stack"; }
if [ "$(uname -m)" = x86_64 ]; then
	grep -Eq '^tpgen-offcpu;([^; ]+;)*main;tpgen_offcpu_sleep;-;' "$T/folded.out" || {
		grep tpgen-offcpu "$T/folded.out"; fail "static offcputime: user frames not named"; }
fi
echo "ok: static offcputime names user and kernel frames"

# libmicrohttpd's static archive needs GnuTLS's, which Debian does not ship whole:
# the static build has no --metrics, and says so in --help and when asked for it
"$bin" --help | grep -q -- '--metrics=\[ADDR:\]PORT.*Not in this build' ||
	{ "$bin" --help; fail "static offcputime --help does not say it has no --metrics"; }
! "$bin" --metrics 9 >/dev/null 2>"$T/metrics.err" || fail "static offcputime --metrics ran"
grep -q 'not in this build' "$T/metrics.err" || { cat "$T/metrics.err"; fail "static offcputime --metrics: no reason"; }
nm "$bin" | grep -q MHD_start_daemon && fail "static offcputime has libmicrohttpd in it"
echo "ok: static offcputime has no --metrics, and says so"
