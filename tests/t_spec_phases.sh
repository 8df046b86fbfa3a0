#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# When an entry's filter is tested, against a helper's 5 getppid() and then
# 3 kill() calls:
# - a part about the event alone ('ret == 12345', never true) is tested before
#   the joins: the entry does not apply, and what was saved stays, so the
#   first kill() finds the last getppid()'s save (and deletes it: once);
# - a part about what a join found ('h.ts == 0', never true) is tested after
#   the joins: nothing is counted, and the join still deletes, so no kill()
#   finds anything;
# - an entry that only joins ends what was saved: the same save as the first,
#   with the entry that filters on the event followed by one that only
#   joins, is found by no kill();
# and the generated code tests the first before any map lookup.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/spec_lib.sh"
cd "$TPGEN_ROOT" || exit 1
out=$T/out
cat > "$T/phases.yaml" <<'EOT'
tool: phases
events:
  - event: syscalls/sys_enter_getppid
    save: { name: g, values: { ts: time } }
  - event: syscalls/sys_enter_getppid
    save: { name: h, values: { ts: time } }
  - event: syscalls/sys_exit_getppid
    filter: 'ret == 12345'
    join: g
    aggregate: { name: g at getppid, by: [comm], count: true }
  - event: syscalls/sys_exit_getppid
    join: h
    filter: 'h.ts == 0'
    aggregate: { name: h at getppid, by: [comm], count: true }
  - event: syscalls/sys_enter_getppid
    save: { name: k, values: { ts: time } }
  - event: syscalls/sys_exit_getppid
    filter: 'ret == 12345'
    join: k
    aggregate: { name: k at getppid, by: [comm], count: true }
  - event: syscalls/sys_exit_getppid
    join: k
  - event: syscalls/sys_enter_kill
    join: g
    aggregate: { name: g at kill, by: [comm], count: true }
  - event: syscalls/sys_enter_kill
    join: k
    aggregate: { name: k at kill, by: [comm], count: true }
  - event: syscalls/sys_enter_kill
    join: h
    aggregate: { name: h at kill, by: [comm], count: true }
EOT
"$TPGEN" -o "$out" "$T/phases.yaml" || fail "tpgen phases.yaml"
# the event's test comes before the lookup of g, the joined value's after the lookup of h
awk '/^static __always_inline void sys_exit_getppid\(/ { f = 1 } f && /ret == 12345/ { t = NR }
     f && /bpf_map_lookup_elem\(&g_saved/ { l = NR } f && /^}/ { exit }
     END { exit !(t && l && t < l) }' "$out/phases/phases.bpf.c" ||
	fail "ret == 12345 is not tested before g is looked up"
awk '/^static __always_inline void sys_exit_getppid_2\(/ { f = 1 } f && /ts == 0/ { t = NR }
     f && /bpf_map_lookup_elem\(&h_saved/ { l = NR } f && /^}/ { exit }
     END { exit !(t && l && t > l) }' "$out/phases/phases.bpf.c" ||
	fail "h.ts == 0 is not tested after h is looked up"

require_live
make -s -C "$out/phases" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build phases"; }
cc -O2 -Wall -Werror -o "$T/tpgenpcpu" tests/percpu/tpgenpcpu.c || fail "build the helper"
mkdir -p "$T/none"
start phases -c tpgenpcpu
"$T/tpgenpcpu" "$T/none" 1 || fail "the helper failed"
stop phases
cat "$T/phases.out"
grep -v '"agg":"g at kill","comm":"tpgenpcpu","count":1}' "$T/phases.out" > "$T/rest"
[ "$(wc -l < "$T/rest")" = 0 ] && grep -q . "$T/phases.out" ||
	fail "not exactly one kill() that found g, and nothing else"

# the smallest specs of each form, under every attach type: built and loaded
for a in tracepoint raw_tp tp_btf; do
	cat > "$T/small_$a.yaml" <<EOT
tool: small_$a
attach: $a
events:
  - event: sched/sched_wakeup
    save: { name: s, key: pid, values: { ts: time } }
  - event: sched/sched_switch
    filter: 'next_pid > 1'
    join: { name: s, key: next_pid, keep: true }
    print: [next_pid]
  - event: sched/sched_switch
    join: { name: s, key: next_pid }
EOT
	"$TPGEN" -o "$out" "$T/small_$a.yaml" || fail "tpgen small_$a"
	make -s -C "$out/small_$a" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build small_$a"; }
	"$out/small_$a/small_$a" -d 1 >"$T/small.out" 2>"$T/small.err" || { cat "$T/small.err"; fail "small_$a failed"; }
	grep -q '[0-9]' "$T/small.out" || fail "small_$a printed no switch"
done
echo ok
