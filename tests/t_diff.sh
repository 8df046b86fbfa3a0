#!/bin/bash
# tpgen diff on a snapshot and a doctored copy reports exactly the doctored
# changes: events, fields, raw tracepoints and raw arguments; text and JSON.
. "$(dirname "$0")/lib.sh"
require_live
cd "$T"
gcc -Wall -Wextra -Werror -o doctor_btf "$TPGEN_ROOT/tests/diff/doctor_btf.c" -lbpf || fail "build doctor_btf"
"$TPGEN" snapshot old 2>/dev/null || fail "snapshot failed"
cp -r old new
e=new/events
# events: one removed, one added
rm -r $e/sched/sched_wakeup_new
mkdir -p $e/tpgen/doctored
cp $e/sched/sched_process_free/format $e/tpgen/doctored/format
sed -i 's/^name: .*/name: doctored/' $e/tpgen/doctored/format
# fields: resized + retyped, moved, added, removed
sed -i 's/field:long prev_state;\toffset:32;\tsize:8;\tsigned:1;/field:unsigned int prev_state;\toffset:32;\tsize:4;\tsigned:0;/' \
	$e/sched/sched_switch/format
sed -i 's/field:pid_t old_pid;\toffset:16;/field:pid_t old_pid;\toffset:20;/' $e/sched/sched_process_exec/format
sed -i 's/\(\tfield:pid_t old_pid;.*\)/\1\n\tfield:int tpgen_new;\toffset:24;\tsize:4;\tsigned:1;/' $e/sched/sched_process_exec/format
sed -i '/field:pid_t child_pid;/d' $e/sched/sched_process_fork/format
grep -q 'tpgen_new' $e/sched/sched_process_exec/format || fail "doctoring failed"
# raw tracepoints: one renamed (removed + added), one argument retyped, one renamed
./doctor_btf old/vmlinux new/vmlinux sched_wakeup_new tpgen_doctored sched_switch 3 'long int' \
	sched_process_exec 1 tpgen_pid || fail "doctor_btf failed"

"$TPGEN" diff old new > diff.txt || fail "tpgen diff failed"
cat diff.txt
sed '1,2d;$d' diff.txt | sort > got.txt
sort > want.txt <<'W'
+ event tpgen/doctored
- event sched/sched_wakeup_new
~ field sched/sched_switch: prev_state resized 8 -> 4
~ field sched/sched_switch: prev_state retyped long (signed) -> unsigned int
~ field sched/sched_process_exec: old_pid moved 16 -> 20
+ field sched/sched_process_exec: tpgen_new (int, offset 24, size 4)
- field sched/sched_process_fork: child_pid (pid_t, offset 20, size 4)
+ raw_tp tpgen_doctored
- raw_tp sched_wakeup_new
~ raw_arg sched_switch: arg 3 retyped unsigned int prev_state -> long int prev_state
~ raw_arg sched_process_exec: arg 1 renamed pid_t old_pid -> pid_t tpgen_pid
W
diff -u want.txt got.txt || fail "diff reported other changes than the doctored ones"
tail -n 1 diff.txt | grep -q '^11 changes$' || fail "summary line wrong"

"$TPGEN" diff --json old new > diff.json || fail "tpgen diff --json failed"
python3 -c "
import json, sys
d = json.load(open('diff.json'))
assert d['total'] == 11, d['total']
kinds = sorted((c['change'], c['kind']) for c in d['changes'])
want = sorted([('added','event'),('removed','event'),('resized','field'),('retyped','field'),('moved','field'),
               ('added','field'),('removed','field'),('added','raw_tp'),('removed','raw_tp'),
               ('retyped','raw_arg'),('renamed','raw_arg')])
assert kinds == want, kinds
" || fail "JSON diff wrong"
"$TPGEN" diff old old > same.txt || fail "diff of a snapshot with itself failed"
tail -n 1 same.txt | grep -q '^0 changes$' || fail "a snapshot differs from itself"
"$TPGEN" diff --exit-code old new >/dev/null && fail "--exit-code returned 0 with changes"
echo "tpgen diff reports exactly the 11 doctored changes"
