#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The tools of specs/ written in the spec language (joins, saves, lets,
# aggregations, expressions, built-ins), run live around workloads this test
# makes; each shows exactly what the test caused. syscount's counts per
# syscall are compared with bpftrace's, counting the same process at the
# same time.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
tools=(opensnoop killsnoop runqslower bitesize hardirqs exitsnoop biopattern writeback syscalls setuids
	statsnoop)
for t in "${tools[@]}"; do
	"$TPGEN" "specs/$t.yaml" -o "$out" || fail "tpgen specs/$t.yaml"
done
"$TPGEN" tests/spec/killall.yaml -o "$out" || fail "tpgen tests/spec/killall.yaml"
"$TPGEN" tests/spec/globlong.yaml -o "$out" || fail "tpgen tests/spec/globlong.yaml"
for d in "$out"/*/; do
	make -s -C "$d" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $d"; }
done

# opensnoop: the path from the caller's memory, with the fd, or the errno
echo hello > "$T/tpgen-open-probe"
start opensnoop
cat "$T/tpgen-open-probe" >/dev/null
cat "$T/tpgen-no-such-file" 2>/dev/null
stop opensnoop
expect opensnoop "\"comm\":\"cat\",\"fd\":[0-9]+,\"fd_name\":null,\"flags\":[0-9]+,\"path\":\"$T/tpgen-open-probe\"" \
	"open of the probe file"
expect opensnoop "\"comm\":\"cat\",\"fd\":-2,\"fd_name\":\"ENOENT\",\"flags\":[0-9]+,\"path\":\"$T/tpgen-no-such-file\"" \
	"failed open (-2, ENOENT) of a missing file"
# the text output: the name where the number was
echo hello > "$T/tpgen open probe"
"$out/opensnoop/opensnoop" -c cat >"$T/opensnoop.txt" 2>"$T/opensnoop.err" &
pid=$!
for i in $(seq 100); do grep -q '^Tracing' "$T/opensnoop.err" && break; sleep 0.1; done
cat "$T/tpgen open probe" >/dev/null
cat "$T/tpgen-no-such-file" 2>/dev/null
stop opensnoop
grep -Eq "^[0-9:]{8} +[0-9]+ cat +[0-9]+ +[0-9]+ $T/tpgen open probe\$" "$T/opensnoop.txt" ||
	{ cat "$T/opensnoop.txt"; fail "opensnoop text: no line with the fd and the exact path"; }
grep -Eq "^[0-9:]{8} +[0-9]+ cat +ENOENT +[0-9]+ $T/tpgen-no-such-file\$" "$T/opensnoop.txt" ||
	{ cat "$T/opensnoop.txt"; fail "opensnoop text: no ENOENT line for the missing file"; }

# killsnoop: sender, target, signal and result in one line; kill(-1, 0) shows -1
start killsnoop
bash -c 'echo $$ > "$1"; kill -0 $$; kill -0 -1; kill -0 999999999 2>/dev/null; true' _ "$T/kill.pid"
stop killsnoop
kp=$(cat "$T/kill.pid")
expect killsnoop "\"pid\":$kp,\"comm\":\"bash\",\"sig\":0,\"target\":$kp,\"result\":0\}" "kill(self, 0)"
expect killsnoop "\"pid\":$kp,\"comm\":\"bash\",\"sig\":0,\"target\":-1,\"result\":0\}" "kill(-1, 0) with target -1"
expect killsnoop "\"pid\":$kp,\"comm\":\"bash\",\"sig\":0,\"target\":999999999,\"result\":-3\}" \
	"kill of a missing process (-ESRCH)"

# a glob that backtracks at every byte matches a 122-byte path exactly (and not a near miss)
gdir=$T/g$(printf 'a%.0s' $(seq $((122 - ${#T} - 27))))
mkdir -p "$gdir"
cp /bin/true "$gdir/xaaaaaaaaaaaaaaaaaaaaaab"
cp /bin/true "$gdir/xaaaaaaaaaaaaaaaaaaaaaac"
[ "${#gdir}" -le 97 ] || fail "the test directory is too long for a 122-byte path: $T"
start globlong
"$gdir/xaaaaaaaaaaaaaaaaaaaaaab"
"$gdir/xaaaaaaaaaaaaaaaaaaaaaac"
stop globlong
expect globlong "\"filename\":\"$gdir/xaaaaaaaaaaaaaaaaaaaaaab\"" "the exec matching *aaaaaaaaaaaaaaaaaaaaaab"
expect_not globlong "xaaaaaaaaaaaaaaaaaaaaaac" "the exec that does not match"

# a filter on a syscall's pid_t: 'pid == -1' matches kill(-1, 0), and nothing else
start killall
bash -c 'kill -0 -1; kill -0 -1; kill -0 $$'
stop killall
expect killall '"counts":"syscalls/sys_enter_kill","pid":-1,"sig":0,"count":2\}' "two kill(-1, 0)"
expect_not killall '"pid":[0-9]' "a kill of another pid"

# setuids: setresuid(-1, -1, -1) shows -1 ("unchanged"), setuid(0) its uid
start setuids
python3 -c 'import os; open("/proc/self/comm", "w").write("tpgensetuid"); os.setresuid(-1, -1, -1); os.setuid(0)'
stop setuids
expect setuids '"event":"syscalls/sys_exit_setresuid","pid":[0-9]+,"comm":"tpgensetuid","uid":0,"ruid":-1,"euid":-1,"suid":-1,"ret":0\}' \
	"setresuid(-1, -1, -1)"
expect setuids '"event":"syscalls/sys_exit_setuid","pid":[0-9]+,"comm":"tpgensetuid","uid":0,"new_uid":0,"ret":0\}' "setuid(0)"

# statsnoop: stat of a path only this test uses
start statsnoop
stat "$T/tpgen-stat-probe" >/dev/null 2>&1
stop statsnoop
expect statsnoop "\"comm\":\"stat\",\"ret\":-2,\"path\":\"$T/tpgen-stat-probe\"" "stat of a missing path (-ENOENT)"

# exitsnoop: exit codes and signals decoded from exit_code by expressions
start exitsnoop
sh -c 'echo $$ > "$1"; exit 3' _ "$T/exit3.pid"
sh -c 'echo $$ > "$1"; kill -9 $$' _ "$T/kill9.pid" 2>/dev/null
stop exitsnoop
expect exitsnoop "\"pid\":$(cat "$T/exit3.pid"),\"ppid\":$$,\"comm\":\"sh\",\"code\":3,\"sig\":0,\"core\":0\}" "exit 3"
expect exitsnoop "\"pid\":$(cat "$T/kill9.pid"),\"ppid\":$$,\"comm\":\"sh\",\"code\":0,\"sig\":9,\"core\":0\}" "SIGKILL"

# runqslower: six busy loops on one CPU wait on its run queue for tens of ms
start runqslower
for i in 1 2 3 4 5 6; do
	taskset -c 0 bash -c 'printf tpgenhog > /proc/self/comm; end=$((SECONDS + 2)); while [ $SECONDS -lt $end ]; do :; done' &
done
wait $(jobs -p | grep -v "^$pid$") 2>/dev/null
sleep 2.5
stop runqslower
expect runqslower '"comm":"tpgenhog","tid":[0-9]+,"lat_us":[0-9]{5,}' "a wait of 10 ms or more for a busy loop"
expect_not runqslower '"lat_us":[0-9]{1,4},' "a wait under the 10 ms threshold"

# bitesize and biopattern: 16 sequential direct writes of 64 KiB
dir=$T
[ "$(stat -f -c %T "$dir")" = tmpfs ] && dir=$TPGEN_ROOT/out
start bitesize
bitesize_pid=$pid
pid_b=$bitesize_pid
"$out/biopattern/biopattern" -j >"$T/biopattern.out" 2>"$T/biopattern.err" &
bp=$!
sleep 1
dd if=/dev/zero of="$dir/tpgen-dd.tmp" bs=64k count=16 oflag=direct 2>/dev/null || fail "dd"
rm -f "$dir/tpgen-dd.tmp"
stop bitesize
kill -INT $bp; wait $bp || fail "biopattern exited $?"
expect bitesize '"hist":"I/O size per process","comm":"dd","unit":"kbytes","buckets":\[.*\{"low":64,"high":127,"count":(1[6-9]|[2-9][0-9]|[0-9]{3,})\}' \
	"dd's 64 KiB writes in its own histogram"
# other writers on the machine may come between two of dd's: most are sequential
expect biopattern '"agg":"I/O pattern per device","dev":[0-9]+,"sequential":1,"count":([89]|[1-9][0-9]+),"sum":[0-9]+' \
	"sequential writes on the device"

# hardirqs: some interrupt handler ran, with its time
start hardirqs
dd if=/dev/zero of="$dir/tpgen-dd.tmp" bs=64k count=16 oflag=direct 2>/dev/null
rm -f "$dir/tpgen-dd.tmp"
sleep 1
stop hardirqs
expect hardirqs '"agg":"hard IRQ time \(usecs\)","irq":"[^"]+","count":[1-9][0-9]*,"sum":[0-9]+\}' "an IRQ's count and time"

# writeback: dirty pages written back on sync, with the time it took
start writeback
dd if=/dev/zero of="$dir/tpgen-wb.tmp" bs=1M count=4 2>/dev/null
sync
rm -f "$dir/tpgen-wb.tmp"
stop writeback
expect writeback '"event":"writeback/writeback_written","device":"[^"]+","reason":[0-9]+,"reason_name":"sync","pages":-?[0-9]+,"ms":[0-9]+\}' \
	"a writeback (reason named by the print fmt: sync) with its duration"

# syscalls: counts per syscall of one process, against bpftrace counting the same
py=$(python3 -c 'import sys; print(sys.executable)')	# not a shim that execs
"$py" -c 'import os, sys
sys.stdin.read(1)
for i in range(321): os.getppid()
open("/dev/null").close()' < <(sleep 5; echo go) &
wp=$!
sleep 1		# python3 has started and waits for "go": both tools see the same calls
start syscount -p $wp
# the same logic: an exit counts when its entry was seen
bpftrace -e "tracepoint:raw_syscalls:sys_enter /pid == $wp/ { @s[tid] = 1; }
	tracepoint:raw_syscalls:sys_exit /pid == $wp && @s[tid]/ { @[args->id] = count(); delete(@s[tid]); }
	END { clear(@s); }" >"$T/bpftrace.out" 2>&1 &
bt=$!
for i in $(seq 100); do grep -q Attaching "$T/bpftrace.out" && break; sleep 0.1; done
wait $wp
sleep 0.5
kill -INT $bt; wait $bt
stop syscount
grep -q '@\[' "$T/bpftrace.out" || { cat "$T/bpftrace.out"; fail "bpftrace counted nothing"; }
# by name: the kernel's own number for getppid, whatever the architecture
expect syscount '"agg":"syscalls by number \(time in ns\)","id":[0-9]+,"id_name":"getppid","count":321,' \
	"321 getppid() calls, by name"
n=0
while read -r id count; do
	expect syscount "\"agg\":\"syscalls by number \\(time in ns\\)\",\"id\":$id,\"id_name\":(\"[a-z0-9_]+\"|null),\"count\":$count," \
		"syscall $id counted $count times as bpftrace did"
	n=$((n + 1))
done < <(sed -n 's/^@\[\([0-9]*\)\]: \([0-9]*\)$/\1 \2/p' "$T/bpftrace.out")
expect syscount "\"agg\":\"syscalls by process \\(time in ns\\)\",\"pid\":$wp,\"comm\":\"python3\",\"count\":[0-9]+,\"sum\":[0-9]+" \
	"the process's row"
# libbpf-tools' positional [interval] [count] and -T: two summaries with their time, then exit 0
timeout 20 "$out/syscount/syscount" -T 1 2 >"$T/interval.out" 2>/dev/null || fail "syscount -T 1 2: exit $?"
[ "$(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2} *$' "$T/interval.out")" = 2 ] ||
	{ head -20 "$T/interval.out"; fail "syscount -T 1 2: not two timestamped summaries"; }
[ "$(grep -c '^syscalls by number' "$T/interval.out")" = 2 ] ||
	fail "syscount -T 1 2: not two tables"
echo "ok: ${#tools[@]} tools; syscount agrees with bpftrace on $n syscalls"
