#!/bin/bash
# Raw args, every raw tracepoint: 'struct <tp>_raw_args' has one member per
# argument of the btf_trace_<tp> prototype (params - 1), each the size of its
# BTF type, member N at byte N*8 -- read back from the compiled header's own BTF
# and compared with an independent reading of the kernel's (bpftool + awk), on
# the live BTF and on a saved copy of it.
. "$(dirname "$0")/lib.sh"
require_live
cd "$T"
awk_args=$TPGEN_ROOT/tests/raw/btf_args.awk

check() {	# check NAME [--btf FILE]
	local name=$1 btf=${3:-/sys/kernel/btf/vmlinux}
	shift
	"$TPGEN" headers --raw "$@" -o $name.h || fail "$name: tpgen headers --raw failed"
	{
		echo "#include \"$name.h\""
		sed -n 's/^struct \([A-Za-z0-9_]*_raw_args\) {$/struct \1 v_\1;/p' $name.h
	} > $name.c
	clang -g -target bpfel -Wall -Wextra -Werror -c $name.c -o $name.o || fail "$name: header does not compile"
	bpftool btf dump file $name.o format raw > $name.obj.raw || fail "$name: bpftool on the object"
	bpftool btf dump file "$btf" format raw > $name.kernel.raw || fail "$name: bpftool on $btf"
	awk -v mode=header -f "$awk_args" $name.obj.raw | sort > $name.header.txt
	awk -v mode=kernel -f "$awk_args" $name.kernel.raw | sort > $name.kernel.txt
	n=$(wc -l < $name.kernel.txt)
	[ "$n" -ge 100 ] || fail "$name: only $n btf_trace_ typedefs in $btf"
	grep -q '^sched_update_nr_running_tp ' $name.header.txt ||
		fail "$name: the bare tracepoint sched_update_nr_running_tp has no struct"
	grep -q '^sched_switch 4 1 8 8 4$' $name.header.txt || fail "$name: sched_switch is not bool, 2 pointers, u32"
	if ! diff -u $name.kernel.txt $name.header.txt > $name.diff; then
		head -20 $name.diff
		fail "$name: header and BTF disagree ($(grep -c '^[-+][^-+]' $name.diff) lines)"
	fi
	echo "$name: $n raw tracepoints, members and sizes as in BTF"
}

check live
cp /sys/kernel/btf/vmlinux snapshot.btf || fail "cannot copy the kernel BTF"
check snapshot --btf snapshot.btf
cmp -s live.h snapshot.h || fail "the snapshot gives another header than the live BTF"
