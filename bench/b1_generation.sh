# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# B1 generation: whole-process time to describe every tracepoint of the kernel.
echo "B1 generation (whole process, median of $RUNS; spread min..max)"
printf '  %-44s %9s %19s\n' "command" "median" "spread"

b1_row() {	# key name cmd...
	local key=$1 name=$2 m lo hi
	shift 2
	read -r m lo hi < <(time_runs "$@" | stats)
	B1[$key]=$m
	printf '  %-44s %8.1fms %8.1f..%-8.1f' "$name" "$(awk -v x="$m" 'BEGIN{print x*1000}')" \
		"$(awk -v x="$lo" 'BEGIN{print x*1000}')" "$(awk -v x="$hi" 'BEGIN{print x*1000}')"
	json_row bench=B1 name="$name" median_s="$m" min_s="$lo" max_s="$hi"
}

declare -A B1
b1_row ctx "tpgen headers (ctx, all events)" "$TPGEN" headers -o "$OUT/ctx.h"; echo
b1_row raw "tpgen headers --raw (all raw tracepoints)" "$TPGEN" headers --raw -o "$OUT/raw.h"; echo
b1_ctx_raw() { "$TPGEN" headers -o "$OUT/ctx.h" && "$TPGEN" headers --raw -o "$OUT/raw.h"; }
b1_row both "tpgen ctx + raw" b1_ctx_raw; echo
b1_row bpftool "bpftool btf dump file vmlinux format c" bpftool btf dump file /sys/kernel/btf/vmlinux format c
echo
if command -v bpftrace >/dev/null; then
	b1_row bpftrace "bpftrace -lv 'tracepoint:*:*'" bpftrace -lv 'tracepoint:*:*'
	echo
fi
r1=$(ratio "${B1[both]}" "${B1[bpftool]}")
echo "  tpgen ctx+raw / bpftool btf dump:  $r1  (target <= 0.35)"
json_row bench=B1 name="ratio tpgen/bpftool" value="$r1" target=0.35
if [ -n "${B1[bpftrace]:-}" ]; then
	r2=$(ratio "${B1[both]}" "${B1[bpftrace]}")
	echo "  tpgen ctx+raw / bpftrace -lv:      $r2  (target <= 0.5)"
	json_row bench=B1 name="ratio tpgen/bpftrace" value="$r2" target=0.5
fi
echo
