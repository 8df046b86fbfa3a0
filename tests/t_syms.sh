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
# Stripped libraries, mapped by another process (tests/syms/mapper.c): a
# static function named from .gnu_debugdata (MiniDebugInfo, xz), and from a
# separate debug file found by build id under /usr/lib/debug/.build-id.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
clang -std=gnu11 -g -O1 $san -Wall -Wextra -Werror -Ibpf tests/syms/syms_check.c bpf/tpgen_syms.c \
	-ldw -lelf -llzma -ldl -o "$T/syms_check" || fail "building syms_check failed"
export ASAN_OPTIONS=detect_leaks=1

"$T/syms_check" self > "$T/self.txt" || { cat "$T/self.txt"; fail "symbolizing our own addresses failed"; }
cat "$T/self.txt"
grep -qx 'folded: syms\\x3bcheck;main;tpgen_syms_marker;\(__\)\?getppid 1' "$T/self.txt" || fail "folded line"

# stripped: names from .gnu_debugdata, and from /usr/lib/debug/.build-id/xx/yyyy.debug
cc -O1 -g -Wall -Wextra -Werror tests/syms/mapper.c -o "$T/mapper" || fail "building mapper failed"
cat >"$T/mini.c" <<'EOF2'
static __attribute__((noinline)) int tpgen_mini_local(int x) { return x * 3 + 1; }
int tpgen_mini_export(int x) { return tpgen_mini_local(x) + 2; }
EOF2
# mapper maps a file flat: the code must be at the file offset of its address (-z separate-code)
cc -shared -fPIC -O1 -Wl,--build-id=sha1 -Wl,-z,separate-code "$T/mini.c" -o "$T/mini.full" || fail "mini.so"
addr=$(nm "$T/mini.full" | awk '$3 == "tpgen_mini_local" { print $1 }')
[ -n "$addr" ] || fail "no tpgen_mini_local in mini.so"
( cd "$T" && cp mini.full mini.so &&
	nm -D mini.so --format=posix --defined-only | awk '{ print $1 }' | sort > dynsyms &&
	nm mini.so --format=posix --defined-only | awk '$2 == "T" || $2 == "t" { print $1 }' | sort > funcsyms &&
	comm -13 dynsyms funcsyms > keep && objcopy --only-keep-debug mini.so mini.debug &&
	objcopy -S --remove-section .comment --keep-symbols=keep mini.debug minidebuginfo &&
	xz -f minidebuginfo && strip --strip-all -R .comment mini.so &&
	objcopy --add-section .gnu_debugdata=minidebuginfo.xz mini.so && cp mini.full mini.stripped &&
	strip --strip-all mini.stripped ) || fail "making the stripped libraries failed"
readelf -S "$T/mini.so" | grep -q '\.symtab' && fail "mini.so has a .symtab"
base=200000000000
symbolize() {	# FILE: the address of tpgen_mini_local, named in a process mapping FILE
	local out=$T/mapper.$$.out
	"$T/mapper" "$1" $base >"$out" < <(sleep 5) &
	for i in $(seq 100); do [ -s "$out" ] && break; sleep 0.05; done
	printf '%s %x\n' "$(cut -d' ' -f1 "$out")" $((0x$base + 0x$addr + 1)) | "$T/syms_check" user | head -1
	kill $! 2>/dev/null
	rm -f "$out"
}
got=$(symbolize "$T/mini.so")
echo "minidebuginfo: $got"
[[ "$got" == *" tpgen_mini_local+0x1 $T/mini.so (0)" ]] || fail "not named from .gnu_debugdata: $got"
if [ "$(id -u)" = 0 ]; then
	id=$(readelf -n "$T/mini.full" | awk '/Build ID:/ { print $3 }')
	dbg=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
	# the build id is of this test's library alone; the file goes at the end, or on a failure
	trap 'rm -f "$dbg"' EXIT
	mkdir -p "$(dirname "$dbg")" && install -m 644 "$T/mini.debug" "$dbg" || fail "cannot install $dbg"
	got=$(symbolize "$T/mini.stripped")
	rm -f "$dbg"
	rmdir "$(dirname "$dbg")" 2>/dev/null
	echo "debug file: $got"
	[[ "$got" == *" tpgen_mini_local+0x1 $T/mini.stripped (0)" ]] || fail "not named from $dbg: $got"
fi

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
