# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# B3 start-up: from exec of the tool to the first event it delivers (an exec of
# /bin/true, made every 2 ms in the background), generated schedsnoop vs
# bpftrace -e doing the same, generated execsnoop (specs/execsnoop.yaml) vs
# libbpf-tools' execsnoop; and what a user's first run costs to build.
echo "B3 start-up (median of $RUNS)"
( while :; do /bin/true; sleep 0.002; done ) &
TRIGGER=$!

# first_event CMD...: seconds from exec to the first output line naming /bin/true
first_event() {
	local s line t=
	s=$(now)
	while IFS= read -r line; do
		if [[ $line == *"/bin/true"* ]]; then
			t=$(elapsed "$s" "$(now)")
			break
		fi
	done < <(timeout 20 "$@" 2>/dev/null)
	echo "${t:-nan}"
}
first_runs() {
	local i
	for ((i = 0; i < RUNS; i++)); do first_event "$@"; echo; done | grep -v '^$' | sort -n
}

d=$OUT/startup
rm -rf "$d" && mkdir -p "$d"
"$TPGEN" specs/sched.yaml -o "$d" >/dev/null || die "tpgen specs/sched.yaml failed"
s=$(now)
"$TPGEN" specs/sched.yaml -o "$d/fresh" >/dev/null && make -s -C "$d/fresh/schedsnoop" >/dev/null 2>&1 ||
	die "building schedsnoop failed"
build=$(elapsed "$s" "$(now)")
make -s -C "$d/schedsnoop" >/dev/null 2>&1 || die "building schedsnoop failed"
"$TPGEN" specs/execsnoop.yaml -o "$d" >/dev/null && make -s -C "$d/execsnoop" >/dev/null 2>&1 ||
	die "building execsnoop failed"

b3_row() {	# NAME MEDIAN MIN MAX
	printf '  %-44s %8.1fms %8.1f..%-8.1f\n' "$1" "$(awk -v x="$2" 'BEGIN{print x*1000}')" \
		"$(awk -v x="$3" 'BEGIN{print x*1000}')" "$(awk -v x="$4" 'BEGIN{print x*1000}')"
}

read -r g glo ghi < <(first_runs "$d/schedsnoop/schedsnoop" | stats)
printf '  %-44s %8.1fms %8.1f..%-8.1f\n' "schedsnoop (generated): exec -> first event" \
	"$(awk -v x="$g" 'BEGIN{print x*1000}')" "$(awk -v x="$glo" 'BEGIN{print x*1000}')" \
	"$(awk -v x="$ghi" 'BEGIN{print x*1000}')"
json_row bench=B3 name="generated exec to first event" median_s="$g" min_s="$glo" max_s="$ghi"
if command -v bpftrace >/dev/null; then
	read -r b blo bhi < <(first_runs bpftrace -e 'tracepoint:sched:sched_process_exec { printf("%s\n", str(args->filename)); }' | stats)
	printf '  %-44s %8.1fms %8.1f..%-8.1f\n' "bpftrace -e: exec -> first event" \
		"$(awk -v x="$b" 'BEGIN{print x*1000}')" "$(awk -v x="$blo" 'BEGIN{print x*1000}')" \
		"$(awk -v x="$bhi" 'BEGIN{print x*1000}')"
	json_row bench=B3 name="bpftrace exec to first event" median_s="$b" min_s="$blo" max_s="$bhi"
	r=$(ratio "$g" "$b")
	echo "  generated / bpftrace: $r (target <= 0.1)"
	json_row bench=B3 name="ratio generated/bpftrace start" value="$r" target=0.1
fi
# the same tool both ways: rounds interleaved, generated then libbpf-tools
if [ -x /usr/sbin/execsnoop ]; then
	for ((i = 0; i < RUNS; i++)); do
		echo "g $(first_event "$d/execsnoop/execsnoop")"
		echo "l $(first_event /usr/sbin/execsnoop)"
	done > "$d/execsnoop.times"
	read -r g glo ghi < <(awk '$1 == "g" { print $2 }' "$d/execsnoop.times" | sort -n | stats)
	read -r l llo lhi < <(awk '$1 == "l" { print $2 }' "$d/execsnoop.times" | sort -n | stats)
	b3_row "execsnoop (generated): exec -> first event" "$g" "$glo" "$ghi"
	b3_row "execsnoop (libbpf-tools): exec -> first event" "$l" "$llo" "$lhi"
	json_row bench=B3 name="generated execsnoop exec to first event" median_s="$g" min_s="$glo" max_s="$ghi"
	json_row bench=B3 name="libbpf-tools execsnoop exec to first event" median_s="$l" min_s="$llo" max_s="$lhi"
	r=$(ratio "$g" "$l")
	echo "  execsnoop generated / libbpf-tools: $r"
	json_row bench=B3 name="ratio generated/libbpf-tools execsnoop start" value="$r"
fi
printf '  %-44s %8.1fms\n' "first build: tpgen + clang + bpftool + cc" "$(awk -v x="$build" 'BEGIN{print x*1000}')"
json_row bench=B3 name="first build" seconds="$build"
kill $TRIGGER 2>/dev/null; wait $TRIGGER 2>/dev/null
echo
