#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Names instead of numbers in generated tools (gen/model/decode.c): a field the
# print fmt decodes is shown by name (JSON keeps the number beside it), a
# __u8[4] field the print fmt shows with %pI4 is an address; a print fmt
# tpgen cannot read leaves its field a number with one warning; the spec's
# own ways (errno(), enum(), signal(), ipv4()...) refuse what they cannot
# show, located. Live: specs/tcpstates.yaml shows 127.0.0.1, the port of a
# loopback connection this test makes, and its state names; enum() and
# signal() name the same states from BTF.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1

# -- a print fmt with a table tpgen cannot read: that field stays a number, one warning, exit 0
out=$T/out
"$TPGEN" --tracefs tests/spec/names/events tests/spec/names/names.yaml -o "$out" 2>"$T/warn.txt" ||
	{ cat "$T/warn.txt"; fail "tpgen names.yaml: exit $?"; }
[ "$(wc -l <"$T/warn.txt")" = 1 ] || { cat "$T/warn.txt"; fail "not exactly one warning"; }
grep -qx "tests/spec/names/events/tpgen/names_ev/format:15:135: warning: __print_symbolic: a value that is not a constant tpgen knows; 'bad' stays numeric" \
	"$T/warn.txt" || { cat "$T/warn.txt"; fail "the warning does not name the format file, line, column and field"; }
c=$out/namesev/namesev.c
grep -q 'printf(",\\"bad\\":%d", e->bad);' "$c" || fail "bad is not printed as a number"
grep -q 'show_names_ev_bad' "$c" && fail "bad has a table"
grep -q '{ 0x2, "TWO" },' "$c" || fail "no table for good"
grep -q 'printf(",\\"good\\":%d,\\"good_name\\":", e->good);' "$c" || fail "good: no number and name in JSON"
grep -q 'show_bytes(&show_ipv4, e->addr, sizeof(e->addr), n_addr, sizeof(n_addr));' "$c" ||
	fail "addr (%pI4) is not shown as an IPv4 address"
grep -q 'show_bytes(&show_hex, e->blob' "$c" || fail "blob (__u8[6]) is not shown in hex"
grep -q '\.zero = "NONE",' "$c" || fail "flags: no name for 0 (the print fmt's ternary)"
grep -q 'return (unsigned long long)((((__u64)v)) & 255);' "$c" || fail "flags: not the value the print fmt decodes"
grep -q '"BAD", "bad", offsetof(struct names_ev_counts_key, bad), sizeof(((struct names_ev_counts_key \*)0)->bad), COL_S, NULL, 0 }' "$c" ||
	fail "the key bad is not a plain number"
grep -q 'COL_BYTES, &show_ipv4, 15 }' "$c" || fail "the key addr is not an address"
make -s -C "$out/namesev" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build namesev"; }

# -- what cannot be shown: one located error each, exit 1, nothing written
bad() {	# bad 'ITEM' 'EXPECTED FIRST LINE'
	printf 'tool: bad\nevents:\n  - event: sock/inet_sock_set_state\n    print:\n      - %s\n' "$1" >"$T/bad.yaml"
	"$TPGEN" "$T/bad.yaml" -o "$T/badout" 2>"$T/bad.err" && fail "'$1' accepted"
	[ $? = 1 ] || fail "'$1': not exit 1"
	[ "$(head -1 "$T/bad.err")" = "$T/bad.yaml:5:$2" ] || { cat "$T/bad.err"; fail "'$1': not '$2'"; }
	[ -e "$T/badout/bad" ] && fail "'$1': output written"
	return 0
}
bad 'errno(comm)' "15: error: errno() needs a number, and the value is a string"
bad 'ipv4(sport)' "14: error: ipv4() needs 4 bytes (__u8[4]) or a 4-byte number (__be32), and the value is a number of another size"
bad 'ipv6(saddr)' "14: error: ipv6() needs 16 bytes (__u8[16]), and the value is bytes"
bad 'errno(ret) + 1' "9: error: errno(...) shows a whole print item: nothing may follow it"
bad 'enum(newstate, no_such_enum_tpgen)' "24: error: the kernel's BTF has no enum 'no_such_enum_tpgen', nor an enum with a constant 'no_such_enum_tpgen'"
bad 'enum(newstate)' "22: error: enum(VALUE, NAME) names a BTF enum, or a constant of it: enum(newstate, TCP_ESTABLISHED)"
bad 'enum(newstate, 1)' "24: error: enum(VALUE, NAME): NAME is the name of a BTF enum (sock_type of enum sock_type), or a constant of it"
bad 'saddr + 1' "9: error: 'saddr' is 4 bytes: it can be shown or counted by, not computed with"
printf 'tool: bad\nevents:\n  - event: sock/inet_sock_set_state\n    print: [errno(ret, 1)]\n' >"$T/bad.yaml"
"$TPGEN" "$T/bad.yaml" -o "$T/badout" 2>"$T/bad.err" && fail "errno(ret in a flow list accepted"
grep -qx "$T/bad.yaml:4:18: error: errno( has no ')': in a \[flow, list\] a comma ends the item; quote it (\"enum(x, TCP_CLOSE)\") or write one item per line" \
	"$T/bad.err" || { cat "$T/bad.err"; fail "a comma in a flow list: not the expected error"; }
printf 'tool: bad\nevents:\n  - event: sock/inet_sock_set_state\n    filter: saddr == 0\n    print: [saddr]\n' >"$T/bad.yaml"
"$TPGEN" "$T/bad.yaml" -o "$T/badout" 2>"$T/bad.err" && fail "a filter on bytes accepted"
grep -qx "$T/bad.yaml:4:13: error: 'saddr' is 4 bytes: only print items and keys can use it, as it is or as ipv4(saddr)/ipv6(saddr) (here: filter)" \
	"$T/bad.err" || { cat "$T/bad.err"; fail "a filter on bytes: not the expected error"; }

# -- live: syscall names come from the kernel (a snapshot keeps them); none there: numbers, one warning
require_live
. "$(dirname "$0")/spec_lib.sh"
"$TPGEN" snapshot "$T/snap" 2>"$T/snap.err" || { cat "$T/snap.err"; fail "tpgen snapshot"; }
[ -s "$T/snap/syscalls" ] || fail "the snapshot has no syscall table"
"$TPGEN" --kernel "$T/snap" specs/syscalls.yaml -o "$T/snapout" 2>"$T/gen.err" || { cat "$T/gen.err"; fail "syscalls.yaml from the snapshot"; }
[ -s "$T/gen.err" ] && { cat "$T/gen.err"; fail "syscalls.yaml from the snapshot: not silent"; }
nr=$(awk '$2 == "getppid" { print $1 }' "$T/snap/syscalls")
grep -q "^	{ $nr, \"getppid\" },\$" "$T/snapout/syscount/syscount.c" || fail "the snapshot's getppid is not in the loader's table"
rm "$T/snap/syscalls"
"$TPGEN" --kernel "$T/snap" specs/syscalls.yaml -o "$T/snapout" 2>"$T/gen.err" || { cat "$T/gen.err"; fail "syscalls.yaml, a snapshot without syscalls: exit $?"; }
[ "$(cat "$T/gen.err")" = "specs/syscalls.yaml:23:27: warning: syscall(): the snapshot has no DIR/syscalls (take it with 'tpgen snapshot' as root); syscall numbers are shown as numbers" ] ||
	{ cat "$T/gen.err"; fail "a snapshot without syscalls: not the one warning"; }
grep -q show_syscall "$T/snapout/syscount/syscount.c" && fail "a syscall table without syscall names"

# -- live: a loopback connection, as tcpstates shows it
for s in specs/tcpstates.yaml tests/spec/names/enum.yaml tests/spec/names/pstate.yaml; do
	"$TPGEN" "$s" -o "$out" || fail "tpgen $s"
done
for t in tcpstates4 tcpenum pstate; do
	make -s -C "$out/$t" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $t"; }
done
connect() {	# a listener on 127.0.0.1, one connection to it; prints the port
	python3 -c '
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
port = s.getsockname()[1]
c = socket.create_connection(s.getsockname()); a, _ = s.accept()
c.close(); a.close(); s.close()
print(port)' || fail "python3 connection"
}

start tcpstates4
port=$(connect)
stop tcpstates4
a='"saddr":"127.0.0.1","sport"'
expect tcpstates4 "\"comm\":\"python3\",.*$a:[0-9]+,\"daddr\":\"127.0.0.1\",\"dport\":$port,\"oldstate\":7,\"oldstate_name\":\"TCP_CLOSE\",\"newstate\":2,\"newstate_name\":\"TCP_SYN_SENT\"\\}" \
	"the client's SYN_SENT to port $port"
expect tcpstates4 "$a:[0-9]+,\"daddr\":\"127.0.0.1\",\"dport\":$port,\"oldstate\":2,\"oldstate_name\":\"TCP_SYN_SENT\",\"newstate\":1,\"newstate_name\":\"TCP_ESTABLISHED\"\\}" \
	"the client's ESTABLISHED to port $port"
expect tcpstates4 "$a:$port,\"daddr\":\"127.0.0.1\",\"dport\":[0-9]+,\"oldstate\":3,\"oldstate_name\":\"TCP_SYN_RECV\",\"newstate\":1,\"newstate_name\":\"TCP_ESTABLISHED\"\\}" \
	"the server's SYN_RECV -> ESTABLISHED on port $port"
expect tcpstates4 "$a:$port,\"daddr\":\"0.0.0.0\",\"dport\":0,\"oldstate\":7,\"oldstate_name\":\"TCP_CLOSE\",\"newstate\":10,\"newstate_name\":\"TCP_LISTEN\"\\}" \
	"the listener on port $port"

# text: the names and addresses where the numbers were
"$out/tcpstates4/tcpstates4" >"$T/text.out" 2>"$T/tcpstates4.err" &
text_pid=$!
for i in $(seq 100); do grep -q '^Tracing' "$T/tcpstates4.err" && break; sleep 0.1; done
start tcpenum
port=$(connect)
stop tcpenum
pid=$text_pid
stop tcpstates4
grep -Eq " 127\\.0\\.0\\.1 +[0-9]+ 127\\.0\\.0\\.1 +$port TCP_SYN_SENT +TCP_ESTABLISHED\$" "$T/text.out" ||
	{ cat "$T/text.out"; fail "text: no 127.0.0.1 line to port $port, SYN_SENT -> ESTABLISHED"; }
expect tcpenum '"old":2,"old_name":"TCP_SYN_SENT","new":1,"new_name":"TCP_ESTABLISHED","sig":2,"sig_name":"SIGINT","lo":"127.0.0.1"\}' \
	"SYN_SENT -> ESTABLISHED named by enum(), 2 by signal(), a __be32 by ipv4()"
expect tcpenum '"counts":"sock/inet_sock_set_state","new":1,"new_name":"TCP_ESTABLISHED","lo":"127.0.0.1","count":[1-9]' \
	"keys shown by enum() and ipv4()"
# a task that sleeps 5 times, then exits: S (sleeping) 5 times at least, Z (or X) once
start pstate
python3 -c 'import ctypes, time
ctypes.CDLL(None).prctl(15, b"tpgenslp", 0, 0, 0)
for i in range(5): time.sleep(0.05)' || fail "python3 sleeper"
stop pstate
expect pstate '"prev_state":1,"prev_state_name":"S","count":([5-9]|[1-9][0-9]+)\}' "5 switches out asleep, named S"
# its last switch shows EXIT_ZOMBIE, or EXIT_DEAD when its parent reaped it first (another CPU)
expect pstate '"prev_state":(32,"prev_state_name":"Z"|16,"prev_state_name":"X"),"count":1\}' "the exit, named Z (or X)"
echo "ok: names and addresses of port $port"
