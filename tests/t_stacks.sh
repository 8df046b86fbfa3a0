#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Stacks (kstack, ustack) as keys of aggregations, live: specs/offcputime.yaml
# and specs/wakeuptime.yaml around a thread this test puts to sleep in
# nanosleep() ("tpgen-offcpu").
# Its kernel stack shows the sleep path by name (do_nanosleep, schedule), in
# the indented text, in JSON, and folded (-f) in one line with its comm and
# the time, as flame graph tools read it; on x86_64 its user stack shows the
# function of the test program that made the system call. wakeuptime folds
# the sleeper's name, its waker's and the waker's stack down to
# try_to_wake_up. tcpdrop prints a record with its kernel stack (JSON and
# text), for a SYN the test sends to a closed loopback port.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
for t in offcputime wakeuptime tcpdrop; do
	"$TPGEN" "specs/$t.yaml" -o "$out" || fail "tpgen specs/$t.yaml"
	make -s -C "$out/$t" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $t"; }
done
cc -O0 -g -fno-omit-frame-pointer -Wall -Werror tests/stacks/sleeper.c -o "$T/sleeper" || fail "sleeper"

"$T/sleeper" >"$T/sleeper.pid" &
spid=$!
trap 'kill $spid 2>/dev/null' EXIT
for i in $(seq 50); do [ -s "$T/sleeper.pid" ] && break; sleep 0.1; done

# JSON (-j): the frames of each stack, innermost first
start offcputime
sleep 1
stop offcputime
expect offcputime '"comm":"tpgen-offcpu","kstack":\[("[^"]*",)*"do_nanosleep\+0x[0-9a-f]+",' \
	"kernel stack with do_nanosleep for the sleeping thread"
expect offcputime '"comm":"tpgen-offcpu","kstack":\[("[^"]*",)*"schedule\+0x[0-9a-f]+",' \
	"kernel stack with schedule for the sleeping thread"
expect offcputime '"comm":"tpgen-offcpu",.*"sum":[1-9][0-9]*\}' "off-CPU time of the sleeping thread"
if [ "$(uname -m)" = x86_64 ]; then
	expect offcputime '"comm":"tpgen-offcpu",.*"ustack":\["tpgen_offcpu_sleep\+0x[0-9a-f]+","main\+0x[0-9a-f]+"' \
		"user stack of the sleeping thread, from the test program's symbols"
fi

# folded (-f): comm;user root;...;-;kernel root;...;leaf time
"$out/offcputime/offcputime" -f -d 2 >"$T/folded.out" 2>"$T/folded.err" || { cat "$T/folded.err"; fail "offcputime -f"; }
grep -Eq '^tpgen-offcpu;([^; ]+;)*do_nanosleep;([^; ]+;)*schedule;([^; ]+;)*[^; ]+ [1-9][0-9]*$' "$T/folded.out" || {
	head -20 "$T/folded.out"; fail "no folded line of tpgen-offcpu with do_nanosleep and schedule and a time"; }
if [ "$(uname -m)" = x86_64 ]; then
	grep -Eq '^tpgen-offcpu;([^; ]+;)*main;tpgen_offcpu_sleep;-;([^; ]+;)*do_nanosleep;' "$T/folded.out" || {
		grep tpgen-offcpu "$T/folded.out"; fail "folded: no user frames main;tpgen_offcpu_sleep before '-'"; }
fi
grep -Ev '^[^ ]+ [0-9]+$' "$T/folded.out" && fail "folded: a line that is not 'frames count'"

# -c: the task that goes off the CPU is the one tested, not the one current at switch-in
"$out/offcputime/offcputime" -c tpgen-offcpu -f -d 2 >"$T/comm.out" 2>"$T/comm.err" || { cat "$T/comm.err"; fail "offcputime -c"; }
grep -Eq '^tpgen-offcpu;([^; ]+;)*do_nanosleep;' "$T/comm.out" || { cat "$T/comm.out"; fail "-c tpgen-offcpu: no stack"; }
grep -Ev '^tpgen-offcpu;' "$T/comm.out" && fail "-c tpgen-offcpu: another comm"

# text: the row, then its frames indented under it
"$out/offcputime/offcputime" -d 2 >"$T/text.out" 2>"$T/text.err" || { cat "$T/text.err"; fail "offcputime"; }
awk '/^ +[0-9]+  tpgen-offcpu$/ { row = 1; next } row && /^ +0x[0-9a-f]+ do_nanosleep\+0x/ { found = 1 }
	/^ +[0-9]+  / { row = 0 } END { exit !found }' "$T/text.out" || {
	head -40 "$T/text.out"; fail "text: no do_nanosleep frame under the tpgen-offcpu row"; }

# wakeuptime -f: target;waker;the waker's kernel stack, root first, down to the wakeup
"$out/wakeuptime/wakeuptime" -f -d 2 >"$T/wakeup.out" 2>"$T/wakeup.err" || { cat "$T/wakeup.err"; fail "wakeuptime -f"; }
grep -Eq '^tpgen-offcpu;[^; ]+;([^; ]+;)*try_to_wake_up(;[^; ]+)* [1-9][0-9]*$' "$T/wakeup.out" || {
	head -20 "$T/wakeup.out"; fail "wakeuptime: no folded line of tpgen-offcpu woken through try_to_wake_up"; }

# tcpdrop: a record with a stack; a SYN to a closed loopback port is dropped in tcp_v4_rcv
start tcpdrop
python3 - "$T/drop.pid" <<'PY'
import os, socket, sys
open(sys.argv[1], "w").write(str(os.getpid()))
s = socket.socket()
s.bind(("127.0.0.1", 0))
port = s.getsockname()[1]
s.close()
try:
    socket.create_connection(("127.0.0.1", port))
except ConnectionRefusedError:
    pass
PY
stop tcpdrop
dp=$(cat "$T/drop.pid")
expect tcpdrop "\"pid\":$dp,\"comm\":\"python3\",.*\"kstack\":\[(\"[^\"]*\",)*\"tcp_v4_rcv\+0x[0-9a-f]+\"" \
	"the dropped SYN with tcp_v4_rcv in its kernel stack"
"$out/tcpdrop/tcpdrop" >"$T/drop.text" 2>"$T/drop.err" &
pid=$!
for i in $(seq 100); do grep -q '^Tracing' "$T/drop.err" && break; sleep 0.1; done
python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close()
try: socket.create_connection(("127.0.0.1", p))
except ConnectionRefusedError: pass'
sleep 0.5
kill -INT $pid
wait $pid || fail "tcpdrop exited $?"
awk '/ python3 / { row = 1; next } row && /^        0x[0-9a-f]+ tcp_v4_rcv\+0x/ { found = 1 } /^[0-9]/ { row = 0 }
	END { exit !found }' "$T/drop.text" || { head -30 "$T/drop.text"; fail "tcpdrop text: no tcp_v4_rcv frame under the python3 line"; }
echo "ok: offcputime, wakeuptime and tcpdrop show stacks"
