# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# B5: tools generated from the specs in specs/ against the same tools of
# libbpf-tools (Debian's libbpf-tools package, hand-written libbpf C), each pair
# on the same fixed workload, in interleaved rounds (bare, libbpf-tools,
# generated, floor; then bare, generated, libbpf-tools, floor; again). The
# floor is an object of empty programs ('return 0') on the generated tool's
# tracepoints, attached the same way: what any program there pays before doing
# anything. For each tool: the workload's wall time and
# the overhead over the bare run of the same round, and the BPF programs' own run
# time from kernel.bpf_stats_enabled (run_time_ns / run_cnt of each program the
# tool's process holds), per run and per operation of the workload. Prints the
# ratios generated / libbpf-tools and generated / floor, and the geometric mean
# of the first over the tools; no thresholds.
#
# Sourced by bench/run.sh, or on its own: bash bench/b5.sh (results in out/bench/b5.json).
# BENCH_B5_RUNS (default 5) rounds; BENCH_B5_TOOLS="runqlat ..." runs some tools only;
# BENCH_B5_PINGPONG, _SYSCALLS, _OPENS, _IOS, _EXECS, _CONNS size the workloads.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	cd "$(dirname "$0")/.." || exit 1
	. bench/lib.sh
	mkdir -p "$OUT"
	bench_env_check
	B5_ALONE=1
fi

B5_RUNS=${BENCH_B5_RUNS:-5}
B5=$OUT/b5
mkdir -p "$B5"

# name: the spec, the generated tool's name when it differs, libbpf-tools'
# options, the workload and the operations it makes (what one "op" is, for ns/op)
B5_TOOLS=(runqlat runqslower cpudist syscount opensnoop execsnoop exitsnoop biolatency bitesize hardirqs softirqs
	tcpstates)
# specs/syscalls.yaml's tool syscount does more (per process, errors, latency): B5's is
# bench/b5_syscount.yaml, syscount's default mode
declare -A B5_SPEC=([syscount]=bench/b5_syscount.yaml)
declare -A B5_GEN=([tcpstates]=tcpstates4)
# cpudist -P: a histogram per process, as the spec's per comm; tcpstates -4: IPv4, as the spec
declare -A B5_ARGS=([cpudist]=-P [tcpstates]=-4)
B5_PINGPONG=${BENCH_B5_PINGPONG:-30000}
B5_SYSCALLS=${BENCH_B5_SYSCALLS:-500000}
B5_OPENS=${BENCH_B5_OPENS:-50000}
B5_IOS=${BENCH_B5_IOS:-3000}
B5_EXECS=${BENCH_B5_EXECS:-1000}
B5_CONNS=${BENCH_B5_CONNS:-3000}
b5_pingpong="'$B5/b5_work' pingpong $B5_PINGPONG"
b5_dd="dd if=/dev/zero of='$B5/dd.dat' bs=4k count=$B5_IOS oflag=direct"
declare -A B5_WORK=(
	[runqlat]=$b5_pingpong [runqslower]=$b5_pingpong [cpudist]=$b5_pingpong
	[syscount]="'$B5/b5_work' getppid $B5_SYSCALLS"
	[opensnoop]="'$B5/b5_work' open $B5_OPENS"
	[execsnoop]="'$B5/b5_work' exec $B5_EXECS" [exitsnoop]="'$B5/b5_work' exec $B5_EXECS"
	[biolatency]=$b5_dd [bitesize]=$b5_dd [hardirqs]=$b5_dd
	[softirqs]="'$B5/b5_work' tcp $B5_CONNS" [tcpstates]="'$B5/b5_work' tcp $B5_CONNS"
)
b5_switches="$((2 * B5_PINGPONG)) thread switches (two threads passing a byte through pipes)"
b5_ios="$B5_IOS writes of 4 KiB, dd oflag=direct"
b5_execs="$B5_EXECS fork + execve of /bin/true"
b5_conns="$B5_CONNS TCP connections over loopback, accepted and closed"
declare -A B5_OPS=(
	[runqlat]=$b5_switches [runqslower]=$b5_switches [cpudist]=$b5_switches
	[syscount]="$B5_SYSCALLS getppid calls"
	[opensnoop]="$B5_OPENS openat calls of /dev/null"
	[execsnoop]=$b5_execs [exitsnoop]=$b5_execs
	[biolatency]=$b5_ios [bitesize]=$b5_ios [hardirqs]="$b5_ios (a block device interrupt each)"
	[softirqs]=$b5_conns [tcpstates]=$b5_conns
)
[ -n "${BENCH_B5_TOOLS:-}" ] && read -r -a B5_TOOLS <<< "$BENCH_B5_TOOLS"

# b5_floor NAME: an object of empty programs in the sections of the generated
# NAME.bpf.c (same tracepoints, same attach type), built as $B5/floor/NAME.bpf.o
b5_floor() {
	local d=$B5/floor i=0 sec
	mkdir -p "$d"
	{
		printf '#include "vmlinux.h"\n#include <bpf/bpf_helpers.h>\n\n'
		printf 'char LICENSE[] SEC("license") = "Dual BSD/GPL";\n'
		while read -r sec; do
			printf '\nSEC("%s")\nint empty_%d(void *ctx)\n{\n\treturn 0;\n}\n' "$sec" $((i++))
		done < <(sed -n 's/^SEC("\(tp\|tp_btf\|raw_tp\|tracepoint\|raw_tracepoint\)\/\([^"]*\)").*/\1\/\2/p' \
			"$B5/gen/$1/$1.bpf.c")
	} > "$d/$1.bpf.c"
	clang -g -O2 -target bpf -Wall -Werror -I"$B5/gen/$1/.output" -c "$d/$1.bpf.c" -o "$d/$1.bpf.o"
}

# the ids of the BPF programs a process holds (its fds of bpf-prog, as fdinfo says)
b5_prog_ids() {
	local fd
	for fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" = "anon_inode:bpf-prog" ] &&
			awk '/^prog_id:/ { print $2 }' "/proc/$1/fdinfo/${fd##*/}"
	done | sort -n | tr '\n' ' '
}
# "id name run_time_ns run_cnt" of the programs IDS
b5_prog_stats() {
	bpftool prog show -j 2>/dev/null | python3 -c '
import json, sys
ids = set(sys.argv[1].split())
for p in json.load(sys.stdin):
    if str(p["id"]) in ids:
        print(p["id"], p.get("name", "?"), p.get("run_time_ns", 0), p.get("run_cnt", 0))' "$1"
}

# b5_start CMD...: start a tool in the background (line-buffered, so that we see it
# is attached: "Tracing ..." or opensnoop's header), B5_BG its pid
b5_start() {
	local i
	: > "$B5/bg.log"
	stdbuf -oL -eL "$@" > "$B5/bg.log" 2>&1 &
	B5_BG=$!
	for ((i = 0; i < 400; i++)); do
		grep -q -E 'Tracing|^P?PID |^PCOMM |^SKADDR ' "$B5/bg.log" && return 0
		kill -0 $B5_BG 2>/dev/null || break
		sleep 0.05
	done
	echo "    ($* did not start: $(head -c 300 "$B5/bg.log" | tr '\n' ' '))"
	b5_stop
	return 1
}
b5_stop() {
	local i
	[ -n "${B5_BG:-}" ] || return 0
	kill -INT "$B5_BG" 2>/dev/null
	for ((i = 0; i < 100; i++)); do
		kill -0 "$B5_BG" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$B5_BG" 2>/dev/null && { echo "    (pid $B5_BG ignored SIGINT for 10s: killed)"; kill -KILL "$B5_BG"; }
	wait "$B5_BG" 2>/dev/null
	B5_BG=
}

# the workload, timed: prints its seconds
b5_work() {
	local s e
	rm -f "$B5/dd.dat"
	s=$(now)
	eval "$1" > /dev/null 2>&1 || { echo nan; return; }
	e=$(now)
	elapsed "$s" "$e"
}

b5_median() { tr ' ' '\n' | grep -v -e '^$' -e nan | sort -g | stats | cut -d' ' -f1; }
b5_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a == "nan" || b == "nan" || b <= 0) print "nan"; else printf "%.2f", a / b }'; }

# B5 skipped: why, on the screen and in the results
b5_skip() {
	echo "B5: skipped: $*"
	json_row bench=B5 name="skipped" why="$*"
}

b5_run() {
	local t g r side ids geo=0 ngeo=0 rfl secs ops bare ns cnt id name ns0 cnt0 c n p rnr rno rov
	local -a B5_SUM=()
	local -A B5_T B5_OV B5_NR B5_NO B5_PT B5_PC B5_PROGS M

	cc -O2 -Wall -Wextra -Werror -pthread -o "$B5/b5_work" bench/b5_work.c &&
		cc -O2 -Wall -Wextra -Werror -o "$B5/b5_empty" bench/b5_empty.c -lbpf ||
		{ b5_skip "building bench/b5_work.c or bench/b5_empty.c failed"; return; }
	B5_LIBBPF=1
	for t in "${B5_TOOLS[@]}"; do
		[ -x "/usr/sbin/$t" ] || B5_LIBBPF=0
	done
	if [ $B5_LIBBPF = 0 ]; then
		b5_skip "libbpf-tools is not installed (make bench installs it; apt-get install libbpf-tools)"
		return
	fi
	for t in "${B5_TOOLS[@]}"; do
		g=${B5_GEN[$t]:-$t}
		"$TPGEN" "${B5_SPEC[$t]:-specs/$t.yaml}" -o "$B5/gen" > "$B5/$t.gen.log" 2>&1 &&
			make -s -C "$B5/gen/$g" >> "$B5/$t.gen.log" 2>&1 && b5_floor "$g" >> "$B5/$t.gen.log" 2>&1 ||
			{ b5_skip "generating or building $t from ${B5_SPEC[$t]:-specs/$t.yaml} failed: $(head -n 3 "$B5/$t.gen.log")"; return; }
	done

	B5_STATS_WAS=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null || echo 0)
	sysctl -q -w kernel.bpf_stats_enabled=1 || { b5_skip "cannot set kernel.bpf_stats_enabled"; return; }

	echo "B5 generated tools vs libbpf-tools $(dpkg-query -W -f='${Version}' libbpf-tools 2>/dev/null)" \
		"(median of $B5_RUNS interleaved rounds; BPF time from kernel.bpf_stats_enabled)"
	# per tool and side: seconds, overhead, ns/run, ns/op of each round; per program: sums
	for ((r = 0; r < B5_RUNS; r++)); do
		for t in "${B5_TOOLS[@]}"; do
			ops=${B5_OPS[$t]%% *}
			bare=$(b5_work "${B5_WORK[$t]}")
			B5_T[$t,bare]+="$bare "
			g=${B5_GEN[$t]:-$t}
			# the two tools take turns going first: neither always runs on what the other left
			sides="libbpf-tools generated floor"
			((r % 2)) && sides="generated libbpf-tools floor"
			for side in $sides; do
				case $side in
				libbpf-tools) b5_start "/usr/sbin/$t" ${B5_ARGS[$t]:-} || continue ;;
				generated) b5_start "$B5/gen/$g/$g" || continue ;;
				floor) b5_start "$B5/b5_empty" "$B5/floor/$g.bpf.o" || continue ;;
				esac
				ids=$(b5_prog_ids "$B5_BG")
				b5_prog_stats "$ids" > "$B5/before"
				secs=$(b5_work "${B5_WORK[$t]}")
				b5_prog_stats "$ids" > "$B5/after"
				b5_stop
				B5_T[$t,$side]+="$secs "
				B5_OV[$t,$side]+="$(awk -v a="$secs" -v b="$bare" 'BEGIN { printf "%.6f", a - b }') "
				# per program: what it ran during the workload
				while read -r id name ns cnt; do
					read -r _ _ ns0 cnt0 < <(grep "^$id " "$B5/before")
					B5_PT[$t,$side,$name]=$(( ${B5_PT[$t,$side,$name]:-0} + ns - ${ns0:-0} ))
					B5_PC[$t,$side,$name]=$(( ${B5_PC[$t,$side,$name]:-0} + cnt - ${cnt0:-0} ))
					[[ " ${B5_PROGS[$t,$side]:-} " == *" $name "* ]] || B5_PROGS[$t,$side]+="$name "
				done < "$B5/after"
				read -r ns cnt < <(awk 'NR == FNR { t0[$1] = $3; c0[$1] = $4; next }
					{ t += $3 - t0[$1]; c += $4 - c0[$1] } END { print t + 0, c + 0 }' "$B5/before" "$B5/after")
				B5_NR[$t,$side]+="$(awk -v t="$ns" -v c="$cnt" 'BEGIN { if (c) printf "%.1f", t / c; else print "nan" }') "
				B5_NO[$t,$side]+="$(awk -v t="$ns" -v n="$ops" 'BEGIN { printf "%.1f", t / n }') "
			done
		done
	done
	sysctl -q -w kernel.bpf_stats_enabled="$B5_STATS_WAS"
	rm -f "$B5/dd.dat"

	for t in "${B5_TOOLS[@]}"; do
		echo "  $t: ${B5_SPEC[$t]:-specs/$t.yaml} vs /usr/sbin/$t${B5_ARGS[$t]:+ ${B5_ARGS[$t]}}; ${B5_OPS[$t]}"
		printf '    %-14s %10s %10s %12s %12s\n' "" workload overhead "BPF ns/run" "BPF ns/op"
		bare=$(echo "${B5_T[$t,bare]}" | b5_median)
		printf '    %-14s %9.3fs\n' bare "$bare"
		json_row bench=B5 tool="$t" name=bare seconds="$bare" ops="${B5_OPS[$t]}"
		M=()
		for side in libbpf-tools generated floor; do
			[ -n "${B5_T[$t,$side]:-}" ] || { echo "    $side: did not run"; continue; }
			M[$side,t]=$(echo "${B5_T[$t,$side]}" | b5_median)
			M[$side,ov]=$(echo "${B5_OV[$t,$side]}" | b5_median)
			M[$side,nr]=$(echo "${B5_NR[$t,$side]}" | b5_median | awk '{ printf "%.1f", $1 }')
			M[$side,no]=$(echo "${B5_NO[$t,$side]}" | b5_median | awk '{ printf "%.1f", $1 }')
			printf '    %-14s %9.3fs %+9.3fs %12s %12s\n' "$side" "${M[$side,t]}" "${M[$side,ov]}" "${M[$side,nr]}" \
				"${M[$side,no]}"
			json_row bench=B5 tool="$t" name="$side" seconds="${M[$side,t]}" overhead_seconds="${M[$side,ov]}" \
				ns_per_run="${M[$side,nr]}" ns_per_op="${M[$side,no]}"
			for p in ${B5_PROGS[$t,$side]:-}; do
				c=${B5_PC[$t,$side,$p]}
				n=$(awk -v t="${B5_PT[$t,$side,$p]}" -v c="$c" 'BEGIN { if (c) printf "%.1f", t / c; else print "nan" }')
				printf '      %-28s %8s ns/run %10d runs in %d rounds\n' "$p" "$n" "$c" "$B5_RUNS"
				json_row bench=B5 tool="$t" name="$side program" program="$p" ns_per_run="$n" runs="$c"
			done
		done
		rnr=$(b5_ratio "${M[generated,nr]:-}" "${M[libbpf-tools,nr]:-}")
		rno=$(b5_ratio "${M[generated,no]:-}" "${M[libbpf-tools,no]:-}")
		# overheads at or below zero are the noise of the machine: no ratio of them
		rov=nan
		awk -v g="${M[generated,ov]:-nan}" -v l="${M[libbpf-tools,ov]:-nan}" \
			'BEGIN { exit !(g != "nan" && l != "nan" && g > 0 && l > 0) }' &&
			rov=$(b5_ratio "${M[generated,ov]}" "${M[libbpf-tools,ov]}")
		rfl=$(b5_ratio "${M[generated,nr]:-}" "${M[floor,nr]:-}")
		echo "    generated / libbpf-tools: BPF ns/run $rnr, BPF ns/op $rno, overhead" \
			"$([ "$rov" = nan ] && echo "n/a (an overhead within the noise)" || echo "$rov");" \
			"generated / floor: BPF ns/run $rfl"
		json_row bench=B5 tool="$t" name="generated / libbpf-tools" ns_per_run_ratio="$rnr" ns_per_op_ratio="$rno" \
			overhead_ratio="$rov"
		json_row bench=B5 tool="$t" name="generated / floor" ns_per_run_ratio="$rfl"
		B5_SUM+=("$(printf '%-12s %6s %6s' "$t" "$rnr" "$rfl")")
		# the mean of the unrounded ratio
		[ "$rnr" != nan ] && geo=$(awk -v s="$geo" -v a="${M[generated,nr]}" -v b="${M[libbpf-tools,nr]}" \
			'BEGIN { printf "%.9f", s + log(a / b) }') && ngeo=$((ngeo + 1))
	done
	echo "  BPF ns/run       generated / libbpf-tools   generated / floor"
	for r in "${B5_SUM[@]}"; do
		echo "    $r"
	done
	if [ $ngeo -gt 0 ]; then
		geo=$(awk -v s="$geo" -v n=$ngeo 'BEGIN { printf "%.3f", exp(s / n) }')
		echo "  geometric mean of generated / libbpf-tools over $ngeo tools: $geo"
		json_row bench=B5 name="geometric mean generated / libbpf-tools" tools=$ngeo ns_per_run_ratio="$geo"
	fi
	echo

}
b5_run

if [ -n "${B5_ALONE:-}" ]; then
	# on its own: the rows in out/bench/b5.json (results.json is make bench's)
	(OUT=$B5 json_write) && mv "$B5/results.json" "$OUT/b5.json" && echo "results: $OUT/b5.json"
fi
