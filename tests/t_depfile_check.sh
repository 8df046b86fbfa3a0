#!/bin/bash
# Build-system integration: -M depfile names the inputs; make reruns tpgen when
# an input is touched and not otherwise; unchanged output keeps its mtime so
# what depends on it is not rebuilt; --check passes on fresh output and fails
# once an input changes.
. "$(dirname "$0")/lib.sh"
cd "$T"
cp -r "$TPGEN_ROOT/tests/fixtures/events" events
cat > Makefile <<MK
ctx.h:
	"$TPGEN" headers --tracefs events -o ctx.h -M ctx.d 'sched/*'
user.o: user.c ctx.h
	gcc -c user.c -o user.o
-include ctx.d
MK
printf '#include "ctx.h"\nint x(struct sched_process_exec_ctx *c) { return c->pid; }\n' > user.c

make -s user.o || fail "first build failed"
[ -f ctx.h ] && [ -f ctx.d ] && [ -f user.o ] || fail "outputs missing"
grep -q '^ctx.h:' ctx.d || fail "depfile has no ctx.h target"
for f in events/sched/sched_switch/format events/sched/sched_process_exec/format; do
	grep -q "^  $f" ctx.d || fail "depfile lacks $f"
done
grep -q 'odd/' ctx.d && fail "depfile names an input that was not selected"
grep -q '^events/sched/sched_switch/format:$' ctx.d || fail "depfile lacks the phony rule for an input (-MP)"

[ -z "$(make -s user.o 2>&1)" ] || fail "make did work with nothing touched: $(make -n user.o)"
make -q user.o || fail "make -q says out of date with nothing touched"

sleep 1.1
touch events/sched/sched_switch/format
make -q ctx.h && fail "touching an input did not make ctx.h out of date"
m1=$(stat -c %Y ctx.h) o1=$(stat -c %Y user.o)
make -s user.o || fail "rebuild failed"
[ "$(stat -c %Y ctx.h)" = "$m1" ] || fail "unchanged header was rewritten (mtime changed)"
[ "$(stat -c %Y user.o)" = "$o1" ] || fail "user.o rebuilt though ctx.h did not change"

"$TPGEN" headers --tracefs events -o ctx.h --check 'sched/*' || fail "--check failed on fresh output"
sed -i 's/field:pid_t pid;\toffset:12;/field:pid_t pid;\toffset:24;/; s/old_pid;\toffset:16;/old_pid;\toffset:28;/' \
	events/sched/sched_process_exec/format
"$TPGEN" headers --tracefs events -o ctx.h --check 'sched/*' 2> check.err && fail "--check passed after an input changed"
grep -q '^ctx.h: stale$' check.err || fail "--check did not name the stale file: $(cat check.err)"
make -s user.o || fail "rebuild after a change failed"
[ "$(stat -c %Y user.o)" != "$o1" ] || fail "user.o not rebuilt after the header changed"
grep -q '^__TPGEN_OFFSET(sched_process_exec_ctx, pid, 24);$' ctx.h ||
	fail "header does not carry the changed offset"
"$TPGEN" headers --tracefs events -o ctx.h --check 'sched/*' || fail "--check failed after regenerating"
echo "depfile, make reruns, mtime kept, --check: ok"
