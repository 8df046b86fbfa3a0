# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Shared by bench/*.sh: timing, statistics, JSON.
RUNS=${BENCH_RUNS:-7}
N=${BENCH_N:-2000000}
OUT=${BENCH_OUT:-out/bench}
TPGEN=${TPGEN:-$PWD/tpgen}
JSON_ROWS=()

die() { echo "bench: error: $*" >&2; exit 1; }

bench_env_check() {
	[ "$(id -u)" = 0 ] || die "needs root (BPF programs, tracefs)"
	[ -e /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing ||
		die "no tracefs at /sys/kernel/tracing"
	[ -x "$TPGEN" ] || die "build tpgen first (make)"
}

now() { echo "$EPOCHREALTIME"; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", b - a }'; }

# time_runs CMD...: run CMD $RUNS times (after one warm-up), print the sorted seconds.
time_runs() {
	local i s e
	"$@" >/dev/null 2>&1
	for ((i = 0; i < RUNS; i++)); do
		s=$(now)
		"$@" >/dev/null 2>&1
		e=$(now)
		elapsed "$s" "$e"
		echo
	done | sort -n
}

# stats: sorted numbers on stdin -> "median min max"
stats() {
	awk '{ v[NR] = $1 } END {
		if (!NR) { print "nan nan nan"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.6f %.6f %.6f\n", m, v[1], v[NR] }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0 || b == "nan" || a == "nan") print "nan"; else printf "%.3f", a / b }'; }

# json_row KEY=VALUE...: one result object (values that look numeric stay numbers)
json_row() {
	local kv k v row=
	for kv in "$@"; do
		k=${kv%%=*} v=${kv#*=}
		if [[ $v =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; then
			row+="${row:+,}\"$k\":$v"
		else
			row+="${row:+,}\"$k\":\"${v//\"/\\\"}\""
		fi
	done
	JSON_ROWS+=("{$row}")
}

json_write() {
	{
		printf '{"kernel":"%s","cpus":%d,"runs":%d,"n":%d,"results":[\n' "$(uname -r)" "$(nproc)" "$RUNS" "$N"
		local i
		for ((i = 0; i < ${#JSON_ROWS[@]}; i++)); do
			printf '  %s%s\n' "${JSON_ROWS[$i]}" "$([ $i -lt $((${#JSON_ROWS[@]} - 1)) ] && echo ,)"
		done
		printf ']}\n'
	} > "$OUT/results.json"
}

# Build a BPF object + skeleton + loader: build_pair NAME BPF_C USER_C DIR
build_ref() {
	local d=$OUT/ref
	mkdir -p "$d"
	[ -s "$d/vmlinux.h" ] || bpftool btf dump file /sys/kernel/btf/vmlinux format c > "$d/vmlinux.h"
	clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Wextra -Wno-unused-parameter -Werror \
		-I"$d" -c bpf/bench_ref.bpf.c -o "$d/bench_ref.bpf.o" &&
	bpftool gen skeleton "$d/bench_ref.bpf.o" > "$d/bench_ref.skel.h" &&
	cc -O2 -Wall -Wextra -Werror -Wno-unused-parameter -I"$d" bpf/bench_ref.c -lbpf -lelf -lz \
		-o "$d/bench_ref" || die "building the hand-written reference failed"
}
