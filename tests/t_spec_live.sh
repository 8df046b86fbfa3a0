#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Every spec in specs/ (and tests/spec/*.yaml) is generated, built with -Werror,
# run as root, and its output checked against events this test causes.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
specs=(specs/*.yaml tests/spec/execfilter.yaml)
for s in "${specs[@]}"; do
	"$TPGEN" "$s" -o "$out" || fail "tpgen $s"
done
for d in "$out"/*/; do
	make -s -C "$d" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $d"; }
done

# a task that names itself, sleeps and makes system calls
named_task() {
	bash -c 'printf tpgenthr > /proc/self/comm; for i in $(seq 30); do read -t 0.01 < /dev/zero; sleep 0.01; done' 2>/dev/null
}

# schedsnoop: an exec with its pid and filename, counts by comm, runqlat
probe=$T/tpgen-exec-probe
cp /bin/true "$probe"
start schedsnoop
sh -c "echo \$\$ > $T/exec.pid; exec $probe"
named_task
stop schedsnoop
epid=$(cat "$T/exec.pid")
expect schedsnoop "\"event\":\"sched/sched_process_exec\",\"pid\":$epid,\"old_pid\":$epid,\"filename\":\"$probe\"" \
	"exec record of pid $epid"
expect schedsnoop '"counts":"sched/sched_switch","next_comm":"tpgenthr","count":[1-9]' "switch count for tpgenthr"
expect schedsnoop '"hist":"runqlat: .*"count":[1-9]' "non-empty run-queue latency histogram"

# execfilter: what the filters should keep is there, what they should drop is not
for n in keep-1 keep-drop-2 other-3 eqprobe eqXprobe; do cp /bin/true "$T/tpgen-$n"; done
start execfilter
for n in keep-1 keep-drop-2 other-3 eqprobe eqXprobe; do "$T/tpgen-$n"; done
stop execfilter
expect execfilter "\"filename\":\"$T/tpgen-keep-1\"" "kept exec"
expect_not execfilter "tpgen-keep-drop-2|tpgen-other-3" "dropped exec is there"
expect execfilter '"comm":"tpgen-eqprobe"' "exec kept by comm =="
expect execfilter '"comm":"tpgen-eqXprobe"' "exec kept by comm glob"

# syscount: counts by comm, failed calls with their errno, latency
start syscount
named_task
ls /nonexistent-tpgen-path 2>/dev/null
stop syscount
expect syscount '"counts":"raw_syscalls/sys_enter","comm":"tpgenthr","count":[1-9]' "syscall count for tpgenthr"
expect syscount '"counts":"raw_syscalls/sys_exit","comm":"ls","id":[0-9]+,"id_name":"[a-z0-9_]+","ret":-2,"ret_name":"ENOENT",' \
	"ls's failed call (ENOENT)"
expect syscount '"hist":"syslat: .*"count":[1-9]' "non-empty syscall latency histogram"

# biosize: 16 direct writes of 64 KiB land in the 64K bucket and print as dd's
dir=$T
[ "$(stat -f -c %T "$dir")" = tmpfs ] && dir=$TPGEN_ROOT/out
start biosize
dd if=/dev/zero of="$dir/tpgen-dd.tmp" bs=64k count=16 oflag=direct 2>/dev/null || fail "dd"
stop biosize
rm -f "$dir/tpgen-dd.tmp"
expect biosize '"hist":"block/block_rq_issue: bytes".*\{"low":65536,"high":131071,"count":(1[6-9]|[2-9][0-9]|[0-9]{3,})\}' \
	"64K bucket with the 16 writes"
expect biosize '"event":"block/block_rq_issue","comm":"dd","dev":[0-9]+,"sector":[0-9]+,"bytes":65536,' "dd's 64K request"
expect biosize '"hist":"biolat: .*"count":[1-9]' "non-empty block I/O latency histogram"

# tcpstates: a loopback connection: the client's SYN_SENT -> ESTABLISHED, packets on lo
start tcpstates
port=$(python3 -c '
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
c = socket.create_connection(s.getsockname()); a, _ = s.accept()
c.sendall(b"x" * 3000); a.recv(3000); c.close(); a.close()
print(s.getsockname()[1])') || fail "python3 connection"
stop tcpstates
expect tcpstates "\"event\":\"sock/inet_sock_set_state\",.*\"dport\":$port,\"oldstate\":2,\"oldstate_name\":\"TCP_SYN_SENT\",\"newstate\":1,\"newstate_name\":\"TCP_ESTABLISHED\"\}" \
	"ESTABLISHED to port $port"
expect tcpstates '"counts":"net/net_dev_xmit","name":"lo","count":[1-9]' "packets counted on lo"
expect tcpstates '"hist":"net/net_dev_xmit: len".*"count":[1-9]' "packet size histogram"

# text mode, -d, and a closed pipe: ends by itself, quietly
"$out/schedsnoop/schedsnoop" -d 1 >"$T/text.out" 2>"$T/text.err" || fail "schedsnoop -d 1 failed"
head -1 "$T/text.out" | grep -Eq '^TIME +PID +OLD_PID FILENAME$' || fail "no column header: $(head -1 "$T/text.out")"
( sleep 1.5; for i in 1 2 3; do /bin/true; done ) &
"$out/schedsnoop/schedsnoop" -d 3 2>"$T/pipe.err" | head -1 >/dev/null
rc=${PIPESTATUS[0]}
wait
[ "$rc" = 0 ] || fail "closed pipe: exit $rc"
grep -v '^Tracing' "$T/pipe.err" && fail "closed pipe: messages on stderr"
# Ctrl-C while stdout is a pipe nobody reads (writes blocked): exits 0 at once
mkfifo "$T/fifo"
exec 3<>"$T/fifo"
"$out/schedsnoop/schedsnoop" >&3 2>"$T/blocked.err" &
bpid=$!
sleep 1
for i in $(seq 3000); do /bin/true; done
sleep 1
start=$SECONDS
kill -INT $bpid
for i in $(seq 50); do kill -0 $bpid 2>/dev/null || break; sleep 0.1; done
kill -0 $bpid 2>/dev/null && { kill -9 $bpid; fail "Ctrl-C ignored while stdout is blocked"; }
wait $bpid || fail "Ctrl-C with a blocked stdout: exit $?"
exec 3>&-
# a pid past pid_t is refused, not truncated to another process
"$out/schedsnoop/schedsnoop" -p 4294986469 >/dev/null 2>"$T/pid.err" && fail "-p 4294986469 accepted"
grep -q "invalid pid: '4294986469'" "$T/pid.err" || fail "-p 4294986469: $(cat "$T/pid.err")"
# without CAP_BPF (and CAP_SYS_ADMIN): one sentence, not libbpf's log
if command -v capsh >/dev/null; then
	capsh --drop=cap_bpf,cap_sys_admin -- -c "$out/schedsnoop/schedsnoop -d 1" >/dev/null 2>"$T/caps.err" &&
		fail "ran without CAP_BPF"
	[ "$(wc -l < "$T/caps.err")" = 1 ] && grep -q 'must be run as root with CAP_BPF and CAP_PERFMON' "$T/caps.err" ||
		{ cat "$T/caps.err"; fail "without CAP_BPF: not one sentence"; }
fi
echo "ok: ${#specs[@]} specs generated, built, run and checked"
