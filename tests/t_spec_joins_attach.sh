#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Saves and joins across attach types: every pair (the save's attach type,
# the join's) of tracepoint, raw_tp and tp_btf, for
#  - optional joins with defaults (none, a number, values of the event) after
#    a plain save and an if_absent one (tests/rows/tpgenrows.c kills R: two
#    saves then two joins a round, the second finding nothing);
#  - a table one entry adds to and another, on the join, subtracts from
#    (subtract: true): per round two kills add, one join takes back;
#  - a join's values aggregated with min, max and max_at (tpgenrows writes:
#    write(1000 + i, NULL, SIZE_i) saved at the entry, joined at the exit,
#    EBADF summed as a signed sum of ret).
# Each table's rows are known exactly from what the helper did.
# tpgen-timeout: 300
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/spec_lib.sh"
cd "$TPGEN_ROOT" || exit 1
out=$T/out
R=30
SIZES="5 17 3 100 42 100 7 64 64 9"
attaches="tracepoint raw_tp tp_btf"
short() { case $1 in tracepoint) echo tp ;; raw_tp) echo raw ;; tp_btf) echo btf ;; esac; }

# two tools per join attach type (a program has 64 maps), saves under all three
for ja in $attaches; do
	j=$(short $ja)
	{
		echo "tool: joins_$j"
		echo "events:"
		for sa in $attaches; do
			s=$(short $sa)
			for mode in plain first; do
				ifa=false
				[ $mode = first ] && ifa=true
				for d in none number event; do
					case $d in
					none) dd= ;;
					number) dd=", default: { sig: -5 }" ;;
					event) dd=", default: { sig: ret, who: comm }" ;;
					esac
					n=${s}_${mode}_$d
					cat <<EOT
  - event: syscalls/sys_enter_kill
    attach: $sa
    filter: 'comm == "tpgenrows"'
    save: { name: $n, values: { sig: sig, who: comm }, if_absent: $ifa }
  - event: syscalls/sys_exit_getppid
    attach: $ja
    filter: 'comm == "tpgenrows"'
    join: { name: $n, optional: true$dd }
    aggregate: { name: a_$n, by: [sig: $n.sig, who: $n.who], count: true }
EOT
				done
			done
		done
	} > "$T/joins_$j.yaml"
	{
		echo "tool: tables_$j"
		echo "events:"
		for sa in $attaches; do
			s=$(short $sa)
			for mode in plain first; do
				ifa=false
				[ $mode = first ] && ifa=true
				cat <<EOT
  - event: syscalls/sys_enter_kill
    attach: $sa
    filter: 'comm == "tpgenrows"'
    save: { name: b_${s}_$mode, values: { sig: sig, who: comm }, if_absent: $ifa }
    aggregate: { name: t_${s}_$mode, by: [who: comm], count: true, sum: sig }
  - event: syscalls/sys_exit_getppid
    attach: $ja
    join: b_${s}_$mode
    aggregate: { name: t_${s}_$mode, by: [who: b_${s}_$mode.who], count: true, sum: b_${s}_$mode.sig, subtract: true }
EOT
			done
			cat <<EOT
  - event: syscalls/sys_enter_write
    attach: $sa
    filter: 'comm == "tpgenrows"'
    save: { name: w_$s, values: { n: count, fd: fd } }
  - event: syscalls/sys_exit_write
    attach: $ja
    join: w_$s
    aggregate:
      - { name: m_$s, by: [k: w_$s.fd % 2], count: true, sum: w_$s.n, min: w_$s.n, max: w_$s.n, max_at: w_$s.fd }
      - { name: r_$s, sum: ret, max: w_$s.n, max_at: w_$s.fd }
EOT
		done
	} > "$T/tables_$j.yaml"
	"$TPGEN" -o "$out" "$T/joins_$j.yaml" "$T/tables_$j.yaml" || fail "tpgen joins_$j.yaml tables_$j.yaml"
done
tools=$(for ja in $attaches; do echo joins_$(short $ja) tables_$(short $ja); done)

# a program's maps, counted as the kernel counts them: each optional join's
# per-CPU slot of absent values is one (N joins: 3 + 3N maps with .rodata,
# .bss and .data); 20 fit the 64 a program may use, 21 do not
maps() {	# maps N: an entry joining N names optionally, on one program
	local i
	echo "tool: maps$1"
	echo "events:"
	for ((i = 0; i < $1; i++)); do
		cat <<EOT
  - event: syscalls/sys_enter_kill
    save: { name: s$i, values: { sig: sig } }
  - event: syscalls/sys_exit_getppid
    join: { name: s$i, optional: true }
    aggregate: { name: a$i, by: [sig: s$i.sig], count: true }
EOT
	done
}
maps 20 > "$T/maps20.yaml"
maps 21 > "$T/maps21.yaml"
"$TPGEN" -o "$out" "$T/maps20.yaml" || fail "tpgen refused 20 optional joins"
! "$TPGEN" -o "$T/maps21" "$T/maps21.yaml" 2>"$T/maps21.err" || fail "tpgen took 21 optional joins (66 maps)"
grep -q "maps21.yaml:.*error: the entries on syscalls/sys_exit_getppid need more than the 64 maps" "$T/maps21.err" ||
	{ cat "$T/maps21.err"; fail "21 optional joins: not the maps error"; }

require_live
make -s -C "$out/maps20" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build maps20"; }
start maps20	# the verifier takes its 63 maps
stop maps20
command -v taskset >/dev/null || fail "taskset is missing (util-linux)"
for t in $tools; do
	make -s -C "$out/$t" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $t"; }
done
cc -O2 -Wall -Wextra -Werror -o "$T/tpgenrows" tests/rows/tpgenrows.c || fail "build the helper"

pids=()
for t in $tools; do
	start $t
	pids+=($pid)
done
sleep 0.5
taskset -c 0 "$T/tpgenrows" kills $R || fail "the helper failed"
"$T/tpgenrows" writes $SIZES || fail "the helper failed"
i=0
for t in $tools; do
	pid=${pids[$i]} stop $t
	i=$((i + 1))
done

for ja in $attaches; do
	cat "$T/joins_$(short $ja).out" "$T/tables_$(short $ja).out" > "$T/all_$(short $ja).out"
	python3 - "$T/all_$(short $ja).out" $R $$ $SIZES <<'PY' || fail "joins_$(short $ja): the tables differ from what the helper did"
import json, sys
out, R, ppid, sizes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), [int(x) for x in sys.argv[4:]]
want = {}
for s in ("tp", "raw", "btf"):
    for mode in ("plain", "first"):
        sig = 28 if mode == "plain" else 0	# SIGWINCH saved last; if_absent keeps kill(self, 0)
        for d, absent in (("none", (0, "")), ("number", (-5, "")), ("event", (ppid, "tpgenrows"))):
            n = "a_%s_%s_%s" % (s, mode, d)
            want[(n, sig, "tpgenrows")] = R
            want[(n,) + absent] = want.get((n,) + absent, 0) + R
        # two kills add (0 and 28), one join a round takes back what it found
        want[("t_%s_%s" % (s, mode), "tpgenrows")] = (2 * R - R, 28 * R - sig * R)
    writes = [(1000 + i, sz) for i, sz in enumerate(sizes)]
    for k in (0, 1):
        w = [x for x in writes if x[0] % 2 == k]
        m = max(sz for _, sz in w)
        want[("m_%s" % s, k)] = (len(w), sum(sz for _, sz in w), min(sz for _, sz in w), m,
                                 next(fd for fd, sz in w if sz == m))
    m = max(sizes)
    want[("r_%s" % s,)] = (-9 * len(sizes), m, 1000 + sizes.index(m))
got = {}
for line in open(out):
    r = json.loads(line)
    a = r.get("agg", "")
    if a.startswith("a_"):
        k = (a, r["sig"], r["who"])
        got[k] = got.get(k, 0) + r["count"]
    elif a.startswith("t_"):
        got[(a, r["who"])] = (r["count"], r["sum"])
    elif a.startswith("m_"):
        got[(a, r["k"])] = (r["count"], r["sum"], r["min"], r["max"], r["max_at"])
    elif a.startswith("r_"):
        got[(a,)] = (r["sum"], r["max"], r["max_at"])
bad = sorted(set(want) | set(got), key=str)
bad = [k for k in bad if want.get(k) != got.get(k)]
for k in bad:
    print("%s: got %s, want %s" % (k, got.get(k), want.get(k)))
sys.exit(1 if bad else 0)
PY
done
echo "ok: saves and joins over 9 pairs of attach types: optional joins x defaults x if_absent, subtract, max_at"
