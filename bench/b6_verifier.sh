# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# B6 verifier work: every tool generated from specs/*.yaml, its BPF object
# loaded (not attached) by bench/verifier.c with the verifier's statistics:
# per tool, the instructions the verifier processed over all its programs
# (the kernel's verified_insns), the largest program's, the states, the
# verification time and the whole bpf_object__load(). What a tool's start-up
# spends in the kernel before its first event. One load each: the times are
# one sample, the instruction counts are exact.
echo "B6 verifier work: every tool of specs/, loaded once"
d=$OUT/verifier
rm -rf "$d" && mkdir -p "$d"
cc -O2 -Wall -Wextra -Werror bench/verifier.c -lbpf -o "$d/verifier" || die "building bench/verifier.c failed"
bpftool btf dump file /sys/kernel/btf/vmlinux format c >"$d/vmlinux.h" || die "bpftool btf dump failed"
printf '  %-16s %5s %9s %9s %7s %10s %10s\n' tool progs insns max states verify_ms load_ms
for spec in specs/*.yaml; do
	"$TPGEN" "$spec" -o "$d/$(basename "$spec" .yaml)" >/dev/null 2>&1 || {
		echo "  $spec: tpgen failed"; continue; }
done
for tooldir in "$d"/*/*/; do
	tool=$(basename "$tooldir")
	[ -f "$tooldir/$tool.bpf.c" ] || continue
	mkdir -p "$tooldir/.output" && cp "$d/vmlinux.h" "$tooldir/.output/"
	if ! make -s -C "$tooldir" ".output/$tool.bpf.o" >"$tooldir/build.log" 2>&1; then
		printf '  %-16s build failed (%s)\n' "$tool" "$tooldir/build.log"
		continue
	fi
	if ! "$d/verifier" "$tooldir/.output/$tool.bpf.o" >"$tooldir/verifier.stats" 2>&1; then
		printf '  %-16s load failed (%s)\n' "$tool" "$tooldir/verifier.stats"
		continue
	fi
	read -r progs insns max states verify load < <(awk '
		$1 == "load" { load = $2; next }
		{ n++; i += $3; if ($3 > m) m = $3; s += $5; v += $9 }
		END { printf "%d %d %d %d %.1f %.1f\n", n, i, m, s, v / 1000, load / 1000 }' "$tooldir/verifier.stats")
	printf '  %-16s %5d %9d %9d %7d %10.1f %10.1f\n' "$tool" "$progs" "$insns" "$max" "$states" "$verify" "$load"
	json_row bench=B6 tool="$tool" progs="$progs" verified_insns="$insns" max_insns="$max" \
		states="$states" verify_ms="$verify" load_ms="$load"
done
echo
