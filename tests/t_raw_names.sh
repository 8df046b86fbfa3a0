#!/bin/bash
# Raw args, names and odd BTF: a copy of the kernel's BTF doctored with
# tests/raw/btf_doctor.c so that names come from each fallback in turn --
# __traceiter_<tp> without a stub, __bpf_trace_<class> without either, argN
# when no function gives them or several classes disagree -- with parameters
# named like a C keyword, unnamed, or repeated, and a btf_trace_ typedef that
# is not a pointer to a prototype. The header says where each name came from,
# still compiles for both byte orders, and tpgen does not crash.
. "$(dirname "$0")/lib.sh"
require_live
cd "$T"
gcc -Wall -Wextra -Werror -o btf_doctor "$TPGEN_ROOT/tests/raw/btf_doctor.c" -lbpf || fail "build btf_doctor"
./btf_doctor /sys/kernel/btf/vmlinux doc.btf \
	param __probestub_sched_switch 2 default \
	param __probestub_sched_switch 3 "" \
	param __probestub_sched_switch 4 preempt \
	rename func __probestub_sched_wakeup x0 \
	rename func __probestub_sched_process_exec x1 rename func __traceiter_sched_process_exec x2 \
	rename func __probestub_sched_wakeup_new x3 rename func __traceiter_sched_wakeup_new x4 \
	rename func __probestub_signal_generate x5 rename func __traceiter_signal_generate x6 \
	rename func __bpf_trace_signal_generate x7 \
	retype btf_trace_sched_stat_runtime 1 || fail "doctoring BTF failed"
"$TPGEN" headers --raw --btf doc.btf -o doc.h sched_switch sched_wakeup sched_process_exec \
	sched_wakeup_new signal_generate sched_stat_runtime sys_enter || fail "headers --raw on doctored BTF"

want() {	# want REGEX WHAT
	grep -qE "$1" doc.h || fail "$2: no line matching '$1'"
	echo "ok: $2"
}
want '^/\* sys_enter: 2 arguments, names from __probestub_sys_enter\(\) in BTF \*/$' "names from the stub"
want '^/\* sched_wakeup: 1 argument, names from __traceiter_sched_wakeup\(\) in BTF \*/$' "no stub: iterator"
want '^	struct task_struct \*p __attribute__' "iterator names"
want '^/\* sched_process_exec: 3 arguments, names from __bpf_trace_sched_process_exec\(\) in BTF \*/$' \
	"no stub, no iterator: the class"
want '__TPGEN_RAW_SLOT\(1, 4, __s32 old_pid\);' "class names"
want '^/\* signal_generate: 5 arguments, names unknown .*: argN \*/$' "no function at all: argN"
want '__TPGEN_RAW_SLOT\(0, 4, __s32 arg0\);' "argN names"
want '^/\* sched_wakeup_new: 1 argument, names unknown' "classes that disagree: argN, not a guess"
want 'struct task_struct \*default_ __attribute__\(\(aligned\(8\)\)\);.*/\* .default., a C keyword \*/' \
	"a C keyword gets an underscore"
want 'struct task_struct \*arg2 __attribute__\(\(aligned\(8\)\)\);.*/\* unnamed in BTF \*/' "an unnamed parameter"
want '__TPGEN_RAW_SLOT\(3, 4, __u32 preempt_3\);.*.preempt., a repeated name' "a repeated name"
want '^/\* sched_stat_runtime: .*no struct: its btf_trace_ typedef is not a pointer to a prototype \*/$' \
	"a malformed btf_trace_ typedef"
grep -q 'struct sched_stat_runtime_raw_args' doc.h && fail "a struct for the malformed tracepoint"
for target in bpfel bpfeb; do
	clang -target $target -Wall -Wextra -Werror -fsyntax-only doc.h || fail "doctored header, $target"
done
printf '#include "doc.h"\nint TP_BTF_sched_switch(f) { return default_ == arg2 && preempt_3; }\n' > use.c
clang -target bpfel -O2 -Wall -Wextra -Werror -c use.c -o use.o || fail "renamed parameters in TP_BTF_"
echo "doctored header compiles, renamed members usable"

# BTF that libbpf parses but whose types lead nowhere, or in circles: one error, no crash
./btf_doctor /sys/kernel/btf/vmlinux loop.btf retype btf_trace_sched_switch self || fail "doctoring a loop"
./btf_doctor /sys/kernel/btf/vmlinux dangling.btf retype btf_trace_sched_switch 2000000000 ||
	fail "doctoring a dangling reference"
for b in loop dangling; do
	"$TPGEN" headers --raw --btf $b.btf -o $b.h 2> $b.err
	rc=$?
	cat $b.err
	[ $rc = 1 ] || fail "$b.btf: exit $rc, want 1"
	[ -e $b.h ] && fail "$b.btf: wrote a header"
	[ "$(wc -l < $b.err)" = 1 ] || fail "$b.btf: not one line of error"
done
grep -q "^loop.btf: error: malformed BTF: type \[[0-9]*\] refers back to itself" loop.err || fail "loop: wrong error"
grep -q "^dangling.btf: error: malformed BTF: type \[[0-9]*\] refers to a type that does not exist" dangling.err ||
	fail "dangling: wrong error"
