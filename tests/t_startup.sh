#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Start-up of tp_btf and raw_tp tools: the kernel's BTF (5 MB, read 4 KiB a
# call from sysfs) is parsed once, by libbpf's load, and not a second time by
# the loader's check that the raw tracepoints exist, when each is the raw
# tracepoint of a trace event of its name (the check looks at tracefs then;
# it took half of runqlat's start-up). sched_switch under each attach type
# opens /sys/kernel/btf/vmlinux once, as a user sees with strace; a syscall
# under tp_btf (raw tracepoint sys_enter, which no trace event of its name
# stands for) twice, the check still reading the BTF. Each tool starts and
# counts.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
command -v strace >/dev/null || fail "no strace (tests/deps.sh installs it)"

# run_case NAME ATTACH EVENT KEY OPENS [WORKLOAD...]: the tool runs 2 s under
# strace, the workload once it has attached
run_case() {
	local name=$1 opens=$5 n pid i
	printf 'tool: %s\nattach: %s\nevents:\n  - event: %s\n    count: [%s]\n' "$1" "$2" "$3" "$4" >"$T/$name.yaml"
	shift 5
	"$TPGEN" "$T/$name.yaml" -o "$T/out" || fail "tpgen $name.yaml"
	make -s -C "$T/out/$name" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $name"; }
	strace -f -e trace=openat -o "$T/$name.strace" "$T/out/$name/$name" -j -d 2 \
		>"$T/$name.out" 2>"$T/$name.err" &
	pid=$!
	for i in $(seq 100); do grep -q '^Tracing' "$T/$name.err" && break; sleep 0.1; done
	"$@"
	wait $pid || { cat "$T/$name.err"; fail "$name exited $?"; }
	grep -q '^Tracing' "$T/$name.err" || fail "$name: no 'Tracing' line"
	grep -q '"count":[1-9]' "$T/$name.out" || { head "$T/$name.out"; fail "$name counted nothing"; }
	n=$(grep -c '"/sys/kernel/btf/vmlinux"' "$T/$name.strace")
	[ "$n" = "$opens" ] || fail "$name opened /sys/kernel/btf/vmlinux $n times, not $opens"
}

for attach in tracepoint raw_tp tp_btf; do
	run_case "sw_$attach" $attach sched/sched_switch prev_pid 1 sleep 0.1
done
run_case sys_tp_btf tp_btf syscalls/sys_enter_getppid pid 2 \
	python3 -c 'import os
for i in range(1000): os.getppid()'
echo "ok: the kernel's BTF is parsed once per tool, twice where tracefs cannot tell"
