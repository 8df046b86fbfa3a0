#!/bin/bash
# CO-RE: headers generated with --core from a doctored snapshot (format file and
# BTF both swap sched_switch's prev_pid and prev_prio) compile once and, loaded
# on the live kernel, read the right values; the static header from the same
# snapshot reads the swapped ones, so the doctoring is real.
. "$(dirname "$0")/lib.sh"
require_live
cd "$T"
src=$TPGEN_ROOT/tests/core
gcc -Wall -Wextra -Werror -o swap_members "$src/swap_members.c" -lbpf || fail "build swap_members"
gcc -Wall -Wextra -Werror -o loader "$src/loader.c" -lbpf -lpthread || fail "build loader"
"$TPGEN" snapshot k 2>/dev/null || fail "snapshot failed"
f=k/events/sched/sched_switch/format
sed -i 's/\(prev_pid;\toffset:\)24;/\128;/; s/\(prev_prio;\toffset:\)28;/\124;/' $f
grep -q 'prev_pid;	offset:28;' $f || fail "doctoring the format failed"
./swap_members k/vmlinux k/vmlinux.new trace_event_raw_sched_switch prev_pid prev_prio &&
	mv k/vmlinux.new k/vmlinux || fail "doctoring BTF failed"

"$TPGEN" headers --kernel k --core sched/sched_switch -o core.h || fail "headers --core failed"
"$TPGEN" headers --kernel k sched/sched_switch -o static.h || fail "headers failed"
grep -q 'CO-RE: struct trace_event_raw_sched_switch' core.h || fail "sched_switch not matched to its class"
grep -q '__s32 prev_pid;.*pid_t, 28' core.h || fail "core.h does not carry the doctored layout"
cp "$(vmlinux_h)" vmlinux.h
for h in core static; do
	clang $BPF_CFLAGS -I. -I"$src" -DHDR="\"$h.h\"" -c "$src/switch.bpf.c" -o $h.bpf.o ||
		fail "compile with $h.h"
done
# a task's prio is 120 + its nice value (CI may run the suite under nice)
want_prio=$((120 + $(nice)))
read -r tid pid prio hits < <(./loader core.bpf.o | tr '=' ' ' | awk '{print $2, $4, $6, $8}')
echo "core:   tid=$tid prev_pid=$pid prev_prio=$prio hits=$hits"
[ "${hits:-0}" -gt 0 ] || fail "no sched_switch of the named thread seen"
[ "$pid" = "$tid" ] || fail "CO-RE read prev_pid=$pid, want $tid"
[ "$prio" = "$want_prio" ] || fail "CO-RE read prev_prio=$prio, want $want_prio"
read -r tid pid prio hits < <(./loader static.bpf.o | tr '=' ' ' | awk '{print $2, $4, $6, $8}')
echo "static: tid=$tid prev_pid=$pid prev_prio=$prio hits=$hits"
[ "$pid" = "$want_prio" ] && [ "$prio" = "$tid" ] || fail "the static header did not read the swapped fields"
echo "one object, doctored layout, right values on the live kernel"
