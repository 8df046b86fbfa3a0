#!/bin/bash
# A second, independent truth: every field of every generated context struct
# (compiled by gcc, read back with offsetof/sizeof) sits where the kernel's BTF
# puts it, and each struct has the BTF struct's size:
#  - struct trace_event_raw_<event> when its members are the event's fields,
#  - else the trace_event_raw_<class> whose members are exactly the event's
#    field names (DEFINE_EVENT of a class named otherwise), when all such
#    classes agree on the layout (the rest are skipped and counted),
#  - syscalls/sys_enter_*/sys_exit_*: struct syscall_trace_enter (args[i] for
#    the i-th argument in the format file's order) and syscall_trace_exit;
#  - common_* against struct trace_entry, the class's 'ent' at offset 0.
# First a negative control: a header with two members swapped must fail.
. "$(dirname "$0")/lib.sh"
require_live
cd "$TPGEN_ROOT"
gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -D_GNU_SOURCE -Igen tests/btfcheck/btfcheck.c \
	gen/input/tracefs.c gen/input/tracefs_dir.c gen/input/fieldtype.c gen/lib/util.c gen/lib/term.c gen/lib/diag.c gen/input/fileio.c gen/lib/ident.c -lbpf -lelf -lz -lpthread -o "$T/btfcheck" ||
	fail "building btfcheck failed"
cd "$T"

# offsets.c from HEADER, compiled for the host and run: rows "sys/event field btf-name common line offset size"
rows() {
	./btfcheck emit "$1" /sys/kernel/tracing/events ${3:-} > "$2.c" || fail "btfcheck emit $1 failed"
	gcc -std=gnu11 -O0 -Wall -Wextra -Werror "$2.c" -o "$2" || fail "$2.c does not compile"
	"./$2" > "$2.txt" || fail "$2 failed"
}

# negative control: prev_pid and prev_prio swapped, asserts removed
"$TPGEN" headers sched/sched_switch -o one.h || fail "tpgen headers sched/sched_switch failed"
awk '/^\t__s32 prev_pid;/ { held = $0; next } { print } held && /^\t__s32 prev_prio;/ { print held; held = "" }' \
	one.h | grep -v '^__TPGEN_FIELD\|^__TPGEN_OFFSET\|^__TPGEN_SIZE' > broken.h
cmp -s one.h broken.h && fail "the negative control did not change the header"
rows broken.h broken
./btfcheck check broken.txt > broken.out && fail "btfcheck accepted a header with prev_pid and prev_prio swapped"
grep -q 'MISMATCH sched/sched_switch: prev_pid: offset: generated 28, BTF 24' broken.out ||
	{ cat broken.out; fail "the swapped member was not reported"; }
echo "negative control: $(grep -c '^MISMATCH' broken.out) mismatches reported for a doctored sched_switch_ctx"

# every event of the live kernel
"$TPGEN" headers -o all.h || fail "tpgen headers failed"
rows all.h offsets --all
./btfcheck check offsets.txt > check.out; rc=$?
grep -v '^SKIP' check.out | head -n 50
echo "$(grep -c '^SKIP' check.out) events skipped (no class with their field names, or ambiguous), e.g.:"
grep '^SKIP' check.out | head -n 5
[ $rc = 0 ] || fail "generated offsets or sizes differ from BTF"
n=$(sed -n 's/^btfcheck: [0-9]* classes in BTF; \([0-9]*\) events checked.*/\1/p' check.out)
[ "${n:-0}" -ge 1000 ] || fail "only ${n:-0} events checked against BTF (expected more than 1,000)"
own=$(sed -n 's/.*(\([0-9]*\) by their own name.*/\1/p' check.out)
[ "${own:-0}" -ge 300 ] || fail "only ${own:-0} events checked against trace_event_raw_<event>"
exit 0
