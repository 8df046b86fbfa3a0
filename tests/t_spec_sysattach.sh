#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# raw_tp and tp_btf on syscalls/sys_enter_X and sys_exit_X fire for syscall
# X only and give its named arguments: one spec generated under tracepoint,
# raw_tp and tp_btf counts exactly the kill(), getppid(), openat() and mmap()
# calls a helper made and reports the same values under all three. The
# syscall's number comes from the target's table (a snapshot's syscalls
# file), and an unknown number is a located error.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1

# offline: the number is the snapshot's, whatever the build host's headers say
k=$T/k
mkdir -p "$k/events/syscalls"
for e in sys_enter_kill sys_exit_kill sys_enter_openat sys_enter_getppid sys_exit_getppid sys_enter_mmap; do
	[ -r /sys/kernel/tracing/events/syscalls/$e/format ] || skip "cannot read syscalls/$e's format file"
	mkdir -p "$k/events/syscalls/$e"
	cat /sys/kernel/tracing/events/syscalls/$e/format > "$k/events/syscalls/$e/format"
done
[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF"
cat /sys/kernel/btf/vmlinux > "$k/vmlinux"
printf '# tpgen syscalls: x86_64, from a test\n999 kill\n1000 openat\n1001 getppid\n1002 mmap\n' > "$k/syscalls"
sed -e 's/^attach: tracepoint/attach: raw_tp/' tests/spec/sysattach.yaml > "$T/raw.yaml"
"$TPGEN" --kernel "$k" -o "$T/off" "$T/raw.yaml" -M "$T/off.d" || fail "tpgen --kernel with a syscall table"
grep -q 'if (ctx\[1\] != 999)' "$T/off/sysattach_tp/sysattach_tp.bpf.c" || fail "kill's number is not the snapshot's 999"
grep -q 'if (tpgen_syscall_nr((struct pt_regs \*)ctx\[0\]) != 999)' "$T/off/sysattach_tp/sysattach_tp.bpf.c" ||
	fail "sys_exit_kill does not test the number 999"
grep -q "$k/syscalls" "$T/off.d" || fail "the depfile does not name the syscall table"
# no table, a table without the syscall: one located error, nothing written
rm "$k/syscalls"
"$TPGEN" --kernel "$k" -o "$T/none" "$T/raw.yaml" 2>"$T/err" && fail "no syscall table: tpgen succeeded"
grep -q "raw.yaml:8:12: error: the number of syscall 'kill' on the target is not known, and attach: raw_tp fires for every syscall and must test it: $k/syscalls: no such file" "$T/err" ||
	{ cat "$T/err"; fail "no syscall table: not the located error"; }
[ "$(grep -c error: "$T/err")" = 1 ] || { cat "$T/err"; fail "more than one error"; }
[ ! -e "$T/none" ] || fail "no syscall table: something was written"
printf '1 write\n' > "$k/syscalls"
"$TPGEN" --kernel "$k" -o "$T/none" "$T/raw.yaml" 2>"$T/err" && fail "kill not in the table: tpgen succeeded"
grep -q "raw.yaml:8:12: error: syscall 'kill' is not in the target's syscall table" "$T/err" ||
	{ cat "$T/err"; fail "kill not in the table: not the located error"; }
printf '1 write\nx kill\n' > "$k/syscalls"
"$TPGEN" --kernel "$k" -o "$T/none" "$T/raw.yaml" 2>"$T/err" && fail "a bad table: tpgen succeeded"
grep -q "^$k/syscalls:2:1: error: expected '<number> <syscall name>'" "$T/err" ||
	{ cat "$T/err"; fail "a bad table: not the located error"; }
# a name that is no argument: the hint names the syscall's arguments
sed -e 's/^attach: tracepoint/attach: tp_btf/' -e 's/count: \[pid, sig\]/count: [pidd]/' \
	tests/spec/sysattach.yaml > "$T/bad.yaml"
printf '62 kill\n257 openat\n110 getppid\n9 mmap\n' > "$k/syscalls"
"$TPGEN" --kernel "$k" -o "$T/none" "$T/bad.yaml" 2>"$T/err" && fail "an unknown name: tpgen succeeded"
grep -q "error: unknown field 'pidd' in count (did you mean 'pid'?)" "$T/err" ||
	{ cat "$T/err"; fail "an unknown name: no hint"; }

require_live
cc -O2 -Wall -Werror -o "$T/tpgensys" tests/sysattach/tpgensys.c || fail "build the helper"
kinds=(tracepoint raw_tp tp_btf)
for a in "${kinds[@]}"; do
	sed -e "s/^attach: tracepoint/attach: $a/" -e "s/^tool: sysattach_tp/tool: sys_$a/" \
		tests/spec/sysattach.yaml > "$T/$a.yaml"
	"$TPGEN" -o "$T/out" "$T/$a.yaml" || fail "tpgen sysattach: $a"
	make -s -C "$T/out/sys_$a" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 ||
		{ cat "$T/build.log"; fail "build sys_$a"; }
done
grep -q 'SEC("raw_tp/sys_enter")' "$T/out/sys_raw_tp/sys_raw_tp.bpf.c" || fail "no raw_tp/sys_enter program"
grep -q 'SEC("tp_btf/sys_exit")' "$T/out/sys_tp_btf/sys_tp_btf.bpf.c" || fail "no tp_btf/sys_exit program"

pids=()
for a in "${kinds[@]}"; do
	"$T/out/sys_$a/sys_$a" -j -c tpgensys >"$T/$a.out" 2>"$T/$a.err" &
	pids+=($!)
done
for a in "${kinds[@]}"; do
	for i in $(seq 100); do
		grep -q '^Tracing' "$T/$a.err" && break
		sleep 0.1
	done
	grep -q '^Tracing' "$T/$a.err" || { cat "$T/$a.err"; fail "sys_$a did not start"; }
done
f=$(mktemp /tmp/tpgen-sysattach.XXXXXX)	# short: a printed string holds 64 bytes
trap 'rm -f "$f"' EXIT
head -c 16384 /dev/zero > "$f"
hp=$("$T/tpgensys" "$f") || fail "the helper failed"
sleep 0.5
kill -INT "${pids[@]}"
for p in "${pids[@]}"; do
	wait "$p" || fail "a tool failed after SIGINT"
done

for a in "${kinds[@]}"; do
	sed -e 's/"time":"[^"]*",//' "$T/$a.out" | sort > "$T/$a.norm"
	cat > "$T/want" <<EOT
{"counts":"syscalls/sys_enter_getppid","comm":"tpgensys","count":7}
{"counts":"syscalls/sys_exit_getppid","comm":"tpgensys","count":7}
{"counts":"syscalls/sys_enter_kill","pid":$hp,"sig":0,"count":5}
{"counts":"syscalls/sys_enter_kill","pid":-1,"sig":0,"count":3}
{"counts":"syscalls/sys_exit_kill","kill_target":$hp,"ret":0,"count":5}
{"counts":"syscalls/sys_exit_kill","kill_target":-1,"ret":0,"count":3}
{"event":"syscalls/sys_enter_mmap","len":4096,"prot":1,"fd":3,"off":8192}
{"event":"syscalls/sys_enter_openat","dfd":-100,"filename":"$f","flags":524288}
{"event":"syscalls/sys_enter_openat","dfd":-100,"filename":"$f-$hp","flags":0}
EOT
	sort "$T/want" > "$T/want.sorted"
	diff -u "$T/want.sorted" "$T/$a.norm" || fail "$a: not exactly the calls the helper made"
done
echo "ok: $(wc -l < "$T/tracepoint.norm") identical lines from tracepoint, raw_tp and tp_btf"

# The smallest spec on a syscall's exit alone (no entry event in the spec) under
# every attach type: the number of the syscall is still found, and a failed open
# the test makes is seen once, by name, by each.
pids=()
for a in "${kinds[@]}"; do
	cat > "$T/exit_$a.yaml" <<EOT
tool: exit_$a
attach: $a
events:
  - event: syscalls/sys_exit_openat
    filter: 'ret < 0'
    print: ['errno(ret)']
EOT
	"$TPGEN" "$T/exit_$a.yaml" -o "$T/out" || fail "tpgen: sys_exit_openat alone under $a"
	make -s -C "$T/out/exit_$a" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build exit_$a"; }
done
for a in "${kinds[@]}"; do
	"$T/out/exit_$a/exit_$a" -j -c tpgensys >"$T/exit_$a.out" 2>"$T/exit_$a.err" &
	pids+=($!)
done
for a in "${kinds[@]}"; do
	for i in $(seq 100); do
		grep -q '^Tracing' "$T/exit_$a.err" && break
		sleep 0.1
	done
	grep -q '^Tracing' "$T/exit_$a.err" || { cat "$T/exit_$a.err"; fail "exit_$a did not start"; }
done
"$T/tpgensys" "$T/no-such-dir/x" >/dev/null 2>&1
sleep 0.5
kill -INT "${pids[@]}"
for p in "${pids[@]}"; do
	wait "$p" || fail "a tool failed after SIGINT"
done
# the helper's two opens fail (the dynamic loader may add failed probes of its own,
# the same ones under every attach type)
want=$(grep -c '"ret":-2,"ret_name":"ENOENT"' "$T/exit_tracepoint.out")
[ "$want" -ge 2 ] || { cat "$T/exit_tracepoint.out"; fail "exit_tracepoint: want the helper's 2 failed opens, named"; }
for a in "${kinds[@]}"; do
	n=$(grep -c '"ret":-2,"ret_name":"ENOENT"' "$T/exit_$a.out")
	[ "$n" = "$want" ] || { cat "$T/exit_$a.out"; fail "exit_$a: $n failed opens, tracepoint saw $want"; }
	[ "$(grep -c '"event"' "$T/exit_$a.out")" = "$n" ] || { cat "$T/exit_$a.out"; fail "exit_$a: other lines"; }
done
echo "ok: sys_exit_openat alone, under tracepoint, raw_tp and tp_btf, names the helper's failed opens"
