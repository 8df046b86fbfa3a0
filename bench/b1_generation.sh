# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# B1 generation: whole-process time to describe every tracepoint of the kernel,
# against the floor (reading the inputs: cat of every format file and of the
# BTF), bpftool btf dump and bpftrace -lv; then the time clang takes to compile
# a file that includes the whole-kernel headers, against the same file
# including vmlinux.h. Every row runs once per round and rounds interleave, so
# the machine's drift is spread over all rows; each ratio is of medians taken
# in this one run. Each command's CPU time (user + sys of all its threads, from
# the shell's times) is measured too: on a shared machine it moves less than
# the wall time, which also holds the time a command waited for a CPU.

# b1_cpu FILE: the seconds of CPU in a 'times' output (the shell's and its children's)
b1_cpu() {
	awk '{ for (i = 1; i <= NF; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } } END { printf "%.3f", s }' "$1"
}

# b1_rounds KEY... : $RUNS interleaved rounds of the commands b1_cmd_KEY, after
# one warm-up round; B1[KEY] = "median min max" of the wall time, B1CPU[KEY] of
# the CPU time, in seconds
b1_rounds() {
	local i k s e c
	declare -A t u
	for k in "$@"; do "b1_cmd_$k" >/dev/null 2>&1; done
	for ((i = 0; i < RUNS; i++)); do
		for k in "$@"; do
			times > "$OUT/.b1_t0"
			s=$EPOCHREALTIME
			"b1_cmd_$k" >/dev/null 2>&1 || echo "    (b1: $k failed)" >&2
			e=$EPOCHREALTIME
			times > "$OUT/.b1_t1"
			c=$(awk -v a="$(b1_cpu "$OUT/.b1_t0")" -v b="$(b1_cpu "$OUT/.b1_t1")" 'BEGIN { printf "%.3f", b - a }')
			t[$k]+="$(elapsed "$s" "$e") "
			u[$k]+="$c "
		done
	done
	for k in "$@"; do
		B1[$k]=$(printf '%s\n' ${t[$k]} | sort -n | stats)
		B1CPU[$k]=$(printf '%s\n' ${u[$k]} | sort -n | stats)
	done
	rm -f "$OUT/.b1_t0" "$OUT/.b1_t1"
}

b1_row() {	# KEY NAME
	local m lo hi cm clo chi
	read -r m lo hi <<< "${B1[$1]}"
	read -r cm clo chi <<< "${B1CPU[$1]}"
	printf '  %-46s %8.1fms %8.1f..%-8.1f %8.1fms %8.1f..%-8.1f\n' "$2" \
		"$(awk -v x="$m" 'BEGIN{print x*1000}')" "$(awk -v x="$lo" 'BEGIN{print x*1000}')" \
		"$(awk -v x="$hi" 'BEGIN{print x*1000}')" "$(awk -v x="$cm" 'BEGIN{print x*1000}')" \
		"$(awk -v x="$clo" 'BEGIN{print x*1000}')" "$(awk -v x="$chi" 'BEGIN{print x*1000}')"
	json_row bench=B1 name="$2" median_s="$m" min_s="$lo" max_s="$hi" cpu_median_s="$cm" \
		cpu_min_s="$clo" cpu_max_s="$chi"
}

b1_ratio() {	# LABEL KEY_A KEY_B TARGET: of the wall times, and of the CPU times
	local r c
	r=$(ratio "${B1[$2]%% *}" "${B1[$3]%% *}")
	c=$(ratio "${B1CPU[$2]%% *}" "${B1CPU[$3]%% *}")
	printf '  %-52s %6s  (target <= %s; CPU time %s)\n' "$1" "$r" "$4" "$c"
	json_row bench=B1 name="ratio $1" value="$r" target="$4" cpu_value="$c"
}

B1_FORMATS=(/sys/kernel/tracing/events/*/*/format)
b1_cmd_floor() { cat "${B1_FORMATS[@]}" /sys/kernel/btf/vmlinux > /dev/null; }
b1_cmd_ctx() { "$TPGEN" headers -o "$OUT/ctx.h"; }
b1_cmd_raw() { "$TPGEN" headers --raw -o "$OUT/raw.h"; }
# both headers from one process reading the inputs once, as a build would make them
b1_cmd_both() { "$TPGEN" headers --all -o "$OUT/all"; }
b1_cmd_bpftool() { bpftool btf dump file /sys/kernel/btf/vmlinux format c; }
b1_cmd_bpftrace() { bpftrace -lv 'tracepoint:*:*'; }

declare -A B1 B1CPU
keys=(floor ctx raw both bpftool)
command -v bpftrace >/dev/null && keys+=(bpftrace)
echo "B1 generation (whole process, median of $RUNS interleaved rounds; spread min..max)"
printf '  %-46s %10s %19s %10s %19s\n' "command" "wall" "spread" "CPU" "spread"
b1_rounds "${keys[@]}"
b1_row floor "floor: cat of every format file and the BTF"
b1_row ctx "tpgen headers (ctx, all events)"
b1_row raw "tpgen headers --raw (all raw tracepoints)"
b1_row both "tpgen headers --all (ctx + raw)"
b1_row bpftool "bpftool btf dump file vmlinux format c"
[ -n "${B1[bpftrace]:-}" ] && b1_row bpftrace "bpftrace -lv 'tracepoint:*:*'"
b1_ratio "tpgen ctx+raw / reading the inputs" both floor 1.2
b1_ratio "tpgen ctx+raw / bpftool btf dump" both bpftool 0.5
[ -n "${B1[bpftrace]:-}" ] && b1_ratio "tpgen ctx+raw / bpftrace -lv" both bpftrace 0.5
echo

# Compile time: one program, the same but for the header it includes.
vmh=$OUT/vmlinux.h
bpftool btf dump file /sys/kernel/btf/vmlinux format c > "$vmh" || die "bpftool btf dump failed"
for h in vmlinux ctx raw; do
	cat > "$OUT/inc_$h.bpf.c" <<-EOF
		#include "$h.h"
		char LICENSE[] __attribute__((section("license"), used)) = "Dual BSD/GPL";
	EOF
done
b1_clang() { clang -target bpf -O2 -c "$OUT/inc_$1.bpf.c" -o "$OUT/inc_$1.bpf.o"; }
b1_cmd_cc_vmlinux() { b1_clang vmlinux; }
b1_cmd_cc_ctx() { b1_clang ctx; }
b1_cmd_cc_raw() { b1_clang raw; }
echo "B1 compile time: clang -target bpf -O2 of a file including one header (median of $RUNS interleaved rounds)"
b1_rounds cc_vmlinux cc_ctx cc_raw
printf '  vmlinux.h %s KB, ctx.h %s KB, raw.h %s KB\n' $(( $(stat -c %s "$vmh") / 1024 )) \
	$(( $(stat -c %s "$OUT/ctx.h") / 1024 )) $(( $(stat -c %s "$OUT/raw.h") / 1024 ))
printf '  %-46s %10s %19s %10s %19s\n' "file compiled" "wall" "spread" "CPU" "spread"
b1_row cc_vmlinux "including vmlinux.h (bpftool btf dump)"
b1_row cc_ctx "including the whole-kernel ctx header"
b1_row cc_raw "including the whole-kernel raw header"
b1_ratio "ctx header / vmlinux.h compile time" cc_ctx cc_vmlinux 1.0
b1_ratio "raw header / vmlinux.h compile time" cc_raw cc_vmlinux 1.0
echo
