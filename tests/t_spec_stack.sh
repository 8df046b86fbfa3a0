#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The 512-byte BPF stack: entries whose filter strings, globs and keys do
# not fit keep them in per-CPU scratch. Every filter (globs, prefixes and
# equalities over two, three and four strings) x every action (count by a
# small key, by strings, a save joined at the exit counted by a 528-byte key,
# a print) is built with -Werror, loaded, and run around renames this test
# makes: each tool sees exactly the renames its filter matches. A join key
# that cannot fit is refused, located, with nothing written.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
d=$T/r
mkdir -p "$d" "$T/specs"

# the workload: three renames (1) qa_b -> zz1, (2) zz1 -> zz2, (3) zz2 -> c9d
filters=(
	'oldname ~ "*a*b" || newname ~ "*c?d"'				# 1 3: two globs
	"oldname ~ \"$d/zz*\" && newname != \"$d/c9d\""			# 2: a prefix, an equality
	'(oldname ~ "*zz?" || newname ~ "*z*2") && COMM ~ "m?" && COMM != "x"'	# 2 3: three strings, globs
	'oldname ~ "*/?a_b" || oldname ~ "*z?1" || newname ~ "*z?2" || newname ~ "*/c?d"'	# 1 2 3
)
matches=("1 3" "2" "2 3" "1 2 3")
olds=(x "$d/qa_b" "$d/zz1" "$d/zz2")
news=(x "$d/zz1" "$d/zz2" "$d/c9d")
actions=(count keys join print)

spec() {	# spec FILTER ACTION
	echo "tool: $3"
	echo "events:"
	case $2 in
	count)	printf '  - event: syscalls/sys_enter_renameat2\n    filter: %s\n    count: [comm]\n' "'$1'";;
	keys)	printf '  - event: syscalls/sys_enter_renameat2\n    filter: %s\n    count: [oldname, newname]\n' "'$1'";;
	join)	printf '  - event: syscalls/sys_enter_renameat2\n    filter: %s\n    save: { name: r, values: { o: oldname, n: newname } }\n' "'$1'"
		printf '  - event: syscalls/sys_exit_renameat2\n    join: r\n    filter: %s\n    count: [r.o, r.n, comm]\n' "'ret == 0 && r.o != \"-\"'";;
	print)	printf '  - event: syscalls/sys_enter_renameat2\n    filter: %s\n    print: [oldname, newname]\n' "'$1'";;
	esac
}

tools=()
for f in "${!filters[@]}"; do
	for a in "${actions[@]}"; do
		t=stk_${a}_$f
		spec "${filters[$f]}" "$a" "$t" > "$T/specs/$t.yaml"
		"$TPGEN" "$T/specs/$t.yaml" -o "$out" 2>"$T/gen.err" || { cat "$T/specs/$t.yaml" "$T/gen.err"; fail "tpgen $t"; }
		tools+=("$t")
	done
done
# the filters of three and four strings do not fit the stack: they must use scratch
for f in 2 3; do
	grep -q 'tpgen_scratch_get' "$out/stk_count_$f/stk_count_$f.bpf.c" || fail "filter $f: no per-CPU scratch"
done
grep -q 'tpgen_scratch_get' "$out/stk_count_1/stk_count_1.bpf.c" && fail "filter 1 fits the stack, yet uses scratch"
for t in "${tools[@]}"; do
	make -s -C "$out/$t" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $t"; }
done
echo "ok: ${#tools[@]} tools (4 filters x 4 actions) build with -Werror"

pids=()
for t in "${tools[@]}"; do
	"$out/$t/$t" -j -c mv >"$T/$t.out" 2>"$T/$t.err" &
	pids+=($!)
done
for t in "${tools[@]}"; do
	for i in $(seq 200); do
		grep -q '^Tracing' "$T/$t.err" && break
		grep -qi 'error\|fail' "$T/$t.err" && { cat "$T/$t.err"; fail "$t did not load"; }
		sleep 0.1
	done
	grep -q '^Tracing' "$T/$t.err" || { cat "$T/$t.err"; fail "$t did not attach"; }
done
touch "$d/qa_b"
mv "$d/qa_b" "$d/zz1"
mv "$d/zz1" "$d/zz2"
mv "$d/zz2" "$d/c9d"
sleep 0.5
kill -INT "${pids[@]}"
for p in "${pids[@]}"; do
	wait "$p" || fail "a tool exited $? after SIGINT"
done

for f in "${!filters[@]}"; do
	m=(${matches[$f]})
	expect stk_count_$f "\"comm\":\"mv\",\"count\":${#m[@]}\}" "count of the ${#m[@]} matching renames"
	n=$(grep -c '"count"' "$T/stk_keys_$f.out")
	[ "$n" = "${#m[@]}" ] || { cat "$T/stk_keys_$f.out"; fail "stk_keys_$f: $n rows, want ${#m[@]}"; }
	n=$(grep -c '"oldname"' "$T/stk_print_$f.out")
	[ "$n" = "${#m[@]}" ] || { cat "$T/stk_print_$f.out"; fail "stk_print_$f: $n lines, want ${#m[@]}"; }
	for k in "${m[@]}"; do
		expect stk_keys_$f "\"oldname\":\"${olds[$k]}\",\"newname\":\"${news[$k]}\",\"count\":1\}" "rename $k"
		expect stk_join_$f "\"r_o\":\"${olds[$k]}\",\"r_n\":\"${news[$k]}\",\"comm\":\"mv\",\"count\":1\}" "rename $k"
		expect stk_print_$f "\"oldname\":\"${olds[$k]}\",\"newname\":\"${news[$k]}\"" "rename $k"
	done
done
echo "ok: every tool saw exactly the renames its filter matches"

# a join key of 512 bytes cannot fit: refused where the entry is, nothing written
cat > "$T/specs/big.yaml" <<'YAML'
tool: bigjoin
events:
  - event: syscalls/sys_enter_renameat2
    save: { name: r, values: { o: oldname, n: newname } }
  - event: syscalls/sys_exit_renameat2
    join: r
    save: { name: t, key: [r.o, r.n], values: { ret: ret } }
  - event: syscalls/sys_enter_renameat2
    join: { name: t, key: [oldname, newname] }
    print: [t.ret]
YAML
rc=0
"$TPGEN" "$T/specs/big.yaml" -o "$T/big" 2>"$T/big.err" || rc=$?
[ $rc = 1 ] || fail "big join key: exit $rc, want 1"
grep -qx "$T/specs/big.yaml:8:5: error: this entry on syscalls/sys_enter_renameat2 needs about 584 bytes of BPF stack for its join keys and globs, more than the 512 a BPF program has: join on smaller keys" "$T/big.err" ||
	{ cat "$T/big.err"; fail "big join key: wrong diagnostic"; }
[ ! -e "$T/big" ] || fail "big join key: output written"
echo "ok: a join key too big for the stack is refused, located"
