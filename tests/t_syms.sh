#!/bin/bash
# Stack symbolization for loaders (bpf/tpgen_syms.c), under ASan and UBSan:
# a kernel function's address from /proc/kallsyms comes back as its name
# (schedule, schedule+0x5), addresses outside any symbol as [unknown]; a
# function of the test's own PIE binary, a static one, and getppid of libc
# (from dlsym) come back named, with offsets; a stack folds root first with
# its comm. Live: a hand-written BPF program records, with bpf_get_stackid(),
# the kernel and user stacks of a thread the test puts to sleep in
# nanosleep() 20 times; the folded line has the sleep path (do_nanosleep,
# schedule) under the syscall, clock_nanosleep of libc at the user leaf,
# and the count 20.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
clang -std=gnu11 -g -O1 $san -Wall -Wextra -Werror -Ibpf tests/syms/syms_check.c bpf/tpgen_syms.c \
	-ldw -lelf -llzma -ldl -o "$T/syms_check" || fail "building syms_check failed"
export ASAN_OPTIONS=detect_leaks=1

"$T/syms_check" self > "$T/self.txt" || { cat "$T/self.txt"; fail "symbolizing our own addresses failed"; }
cat "$T/self.txt"
grep -qx 'folded: syms_check;main;tpgen_syms_marker;\(__\)\?getppid 1' "$T/self.txt" || fail "folded line"

require_live
a=$(awk '$3 == "schedule" { print $1; exit }' /proc/kallsyms)
[ -n "$a" ] && [ "$a" != 0000000000000000 ] || fail "no address of schedule in /proc/kallsyms"
"$T/syms_check" kernel "$a" "$(printf %x $((0x$a + 5)))" 1 > "$T/kernel.txt" || fail "syms_check kernel failed"
cat "$T/kernel.txt"
grep -qx "$a schedule (0)" "$T/kernel.txt" || fail "schedule's address is not schedule"
grep -qx "$(printf %x $((0x$a + 5))) schedule+0x5 (0)" "$T/kernel.txt" || fail "schedule+5 is not schedule+0x5"
grep -qx "1 \[unknown\] (-2)" "$T/kernel.txt" || fail "address 1 is not [unknown]"

# the live stack: a BPF program on sched_switch for the sleeping thread
mkdir -p "$T/live" && cd "$T/live" || fail "no dir"
cp "$TPGEN_ROOT"/tests/syms/stack.bpf.c "$TPGEN_ROOT"/tests/syms/stack.c .
cp "$(vmlinux_h)" vmlinux.h
clang $BPF_CFLAGS -I. -c stack.bpf.c -o stack.bpf.o || fail "the BPF program does not build"
bpftool gen skeleton stack.bpf.o > stack.skel.h || fail "bpftool gen skeleton failed"
cc -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Werror -I. -I"$TPGEN_ROOT/bpf" stack.c \
	"$TPGEN_ROOT/bpf/tpgen_syms.c" -lbpf -ldw -lelf -llzma -lz -lpthread -o stack || fail "the loader does not build"
./stack > out.txt || { cat out.txt; fail "the loader failed"; }
cat out.txt
sleep=$(grep '^folded: tpgen-sleeper;.*;-;.*' out.txt | grep 'do_nanosleep' | head -1)
[ -n "$sleep" ] || fail "no folded stack through do_nanosleep"
echo "$sleep" | grep -qE '^folded: tpgen-sleeper;([^;]*;)*clock_nanosleep;-;([^;]*;)*(__x64_sys_clock_nanosleep|__arm64_sys_clock_nanosleep);([^;]*;)*hrtimer_nanosleep;do_nanosleep;schedule;__schedule(;__traceiter_sched_switch)? 20$' ||
	fail "the sleep stack is not folded root first, user then kernel, with count 20: $sleep"
grep -qE '^    0x[0-9a-f]+ do_nanosleep\+0x[0-9a-f]+$' out.txt || fail "no indented kernel frame do_nanosleep+0x..."
echo "ok: $sleep"
exit 0
