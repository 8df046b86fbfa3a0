#!/bin/bash
# Names for numbers: the unit tests (tests/unit/names_unit.c: print fmt
# arithmetic against C, odd tables, unistd headers and snapshot files,
# flags/symbols rendering, errno and signal names against glibc's, IPv6
# against inet_ntop) under ASan and UBSan; then, live, syscall names from
# the kernel's own metadata (gen/input/sysnames.c): 'tpgen snapshot' stores them,
# they agree with the uapi header wherever both name a syscall, and a
# program built with the generated table sees its own getppid, kill and
# openat named so while bpftrace counts the ids the kernel saw (7, 5, 3),
# the errno the kernel returned (-2: ENOENT) and the signal it sent (10 on
# x86: SIGUSR1).
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
clang -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
	-std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -D_GNU_SOURCE -Igen \
	tests/unit/names_unit.c gen/input/printfmt.c gen/input/pfexpr.c gen/input/pftokens.c gen/input/pfeval.c gen/input/sysnames.c \
	gen/input/kread.c gen/lib/util.c gen/lib/term.c gen/lib/diag.c gen/lib/ident.c gen/input/fileio.c gen/input/tracefs.c gen/input/tracefs_dir.c gen/input/fieldtype.c bpf/tpgen_names.c -lcmocka -lbpf -lpthread \
	-o "$T/unit" ||
	fail "building the unit tests failed"
ASAN_OPTIONS=detect_leaks=1 "$T/unit" || fail "unit tests failed"

require_live
command -v bpftrace >/dev/null || skip "no bpftrace"
gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -D_GNU_SOURCE -Igen tests/names/sysnames_tool.c gen/input/sysnames.c \
	gen/input/kread.c gen/input/pfexpr.c gen/input/pftokens.c gen/input/pfeval.c gen/lib/util.c gen/lib/term.c gen/lib/diag.c gen/lib/ident.c gen/input/fileio.c gen/input/tracefs.c gen/input/tracefs_dir.c gen/input/fieldtype.c \
	-lbpf -lpthread -o "$T/sysnames_tool" ||
	fail "building sysnames_tool failed"

# the snapshot carries the table, the same as read from the kernel, and reads back
"$TPGEN" snapshot "$T/snap" 2> "$T/snap.err" || { cat "$T/snap.err"; fail "tpgen snapshot failed"; }
[ -s "$T/snap/syscalls" ] || { cat "$T/snap.err"; fail "the snapshot has no syscalls file"; }
head -n 1 "$T/snap/syscalls"
"$T/sysnames_tool" kernel > "$T/kernel.txt" || fail "reading the kernel's syscall metadata failed"
cmp "$T/kernel.txt" "$T/snap/syscalls" || fail "snapshot and kernel tables differ"
"$T/sysnames_tool" load "$T/snap/syscalls" > "$T/reloaded.txt" || fail "the snapshot's table does not load"
cmp "$T/reloaded.txt" "$T/snap/syscalls" || fail "the table changes when read back"
n=$(grep -vc '^#' "$T/kernel.txt")
[ "$n" -ge 300 ] || fail "only $n syscalls"

# the uapi header of this machine (the same architecture) agrees wherever both name a syscall
uapi=/usr/include/$(gcc -print-multiarch)/asm/unistd_64.h
if [ -r "$uapi" ]; then
	"$T/sysnames_tool" unistd "$uapi" > "$T/uapi.txt" || fail "reading $uapi failed"
	join -1 2 -2 2 <(grep -v '^#' "$T/uapi.txt" | sort -k2) <(grep -v '^#' "$T/kernel.txt" | sort -k2) \
		> "$T/both.txt"
	awk '$2 != $3 { print "differ:", $0; bad = 1 } END { exit bad }' "$T/both.txt" ||
		fail "the kernel and $uapi number a syscall differently"
	echo "$(wc -l < "$T/both.txt") syscalls named by both the kernel and $uapi, same numbers"
	[ "$(wc -l < "$T/both.txt")" -ge 250 ] || fail "too few syscalls in common with $uapi"
fi

# a program with the generated table; the kernel's own ids, errno and signal, counted by bpftrace
mkdir -p "$T/probe"
"$T/sysnames_tool" emit syscalls > "$T/probe/syscalls.h" || fail "sysnames_emit failed"
gcc -std=gnu11 -Wall -Wextra -Werror -Ibpf -I"$T/probe" tests/names/sysprobe.c bpf/tpgen_names.c \
	-o "$T/probe/tpgen_sysprobe" || fail "the generated table does not compile -Werror"
bpftrace -e '
tracepoint:raw_syscalls:sys_enter /comm == "tpgen_sysprobe"/ { @id[args->id] = count(); }
tracepoint:syscalls:sys_exit_openat /comm == "tpgen_sysprobe"/ { @ret[args->ret] = count(); }
tracepoint:signal:signal_generate /comm == "tpgen_sysprobe"/ { @sig[args->sig] = count(); }' \
	-c "$T/probe/tpgen_sysprobe" > "$T/bpftrace.txt" 2> "$T/bpftrace.err" ||
	{ cat "$T/bpftrace.err"; fail "bpftrace failed"; }
grep -q 'sysprobe: openat: ENOENT' "$T/bpftrace.txt" || { cat "$T/bpftrace.txt"; fail "the probe failed"; }
declare -A calls
while read -r id count; do
	calls[$("$T/probe/tpgen_sysprobe" syscall "$id")]=$count
done < <(sed -n 's/^@id\[\([0-9]*\)\]: \([0-9]*\)$/\1 \2/p' "$T/bpftrace.txt")
echo "kernel saw: getppid ${calls[getppid]:-0}, kill ${calls[kill]:-0}, openat ${calls[openat]:-0}"
[ "${calls[getppid]:-0}" = 7 ] || fail "7 getppid calls expected under the name getppid"
[ "${calls[kill]:-0}" = 7 ] || fail "7 kill calls (5 + 2 SIGUSR1) expected under the name kill"
[ "${calls[openat]:-0}" -ge 3 ] || fail "3 openat calls expected under the name openat"
ret=$(sed -n 's/^@ret\[\(-[0-9]*\)\]: 3$/\1/p' "$T/bpftrace.txt")
[ -n "$ret" ] && [ "$("$T/probe/tpgen_sysprobe" errno "$ret")" = ENOENT ] ||
	fail "the kernel's return for a missing path ($ret) is not named ENOENT"
sig=$(sed -n 's/^@sig\[\([0-9]*\)\]: 2$/\1/p' "$T/bpftrace.txt")
[ -n "$sig" ] && [ "$("$T/probe/tpgen_sysprobe" signal "$sig")" = SIGUSR1 ] ||
	fail "the signal the kernel sent ($sig) is not named SIGUSR1"
[ "$("$T/probe/tpgen_sysprobe" signal 9)" = SIGKILL ] || fail "9 is not SIGKILL"
if [ "$(uname -m)" = x86_64 ]; then
	[ "$sig" = 10 ] || fail "SIGUSR1 is 10 on x86"
	[ "$("$T/probe/tpgen_sysprobe" syscall 110)" = getppid ] || fail "110 is getppid on x86_64"
	[ "$("$T/probe/tpgen_sysprobe" syscall 257)" = openat ] || fail "257 is openat on x86_64"
	[ "$("$T/probe/tpgen_sysprobe" syscall 62)" = kill ] || fail "62 is kill on x86_64"
fi
echo "ok: $n syscalls; getppid, kill, openat, ENOENT and SIGUSR1 named as the kernel numbered them"
exit 0
