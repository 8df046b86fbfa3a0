#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Values saved and joined under the current CPU alone ('key: cpu') live in a
# per-CPU array slot, not a hash map. The same spec keyed by 'cpu + 0' (an
# expression: a hash map) is the oracle: both tools, run around a helper
# pinned to one CPU, report exactly the calls it made. A join finds nothing
# once the slot is used (its kill()s follow getppid()s that emptied it), and
# a short path saved after a longer one in the slot is one key, not one per
# tail the longer path left.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/spec_lib.sh"
cd "$TPGEN_ROOT" || exit 1
out=$T/out
rounds=25

for k in cpu hash; do
	key=cpu
	[ $k = hash ] && key='cpu + 0'
	cat > "$T/$k.yaml" <<EOT
tool: pcpu_$k
events:
  - event: syscalls/sys_enter_openat
    save: { name: o, key: '$key', values: { path: filename, ts: time } }
  - event: syscalls/sys_exit_openat
    join: { name: o, key: '$key' }
    aggregate: { by: [comm, path: o.path, errno(ret)], count: true, min: time - o.ts }
  - event: syscalls/sys_enter_getppid
    save: { name: g, key: '$key', values: { ts: time } }
  - event: syscalls/sys_exit_getppid
    join: { name: g, key: '$key' }
    count: [comm]
  - event: syscalls/sys_exit_kill
    join: { name: g, key: '$key' }
    count: [comm]
EOT
	"$TPGEN" -o "$out" "$T/$k.yaml" || fail "tpgen $k.yaml"
done
grep -q 'BPF_MAP_TYPE_PERCPU_ARRAY' "$out/pcpu_cpu/pcpu_cpu.bpf.c" || fail "key: cpu is not a per-CPU slot"
[ "$(grep -c 'BPF_MAP_TYPE_HASH' "$out/pcpu_hash/pcpu_hash.bpf.c")" -ge 4 ] ||
	fail "key: 'cpu + 0' is not a hash map"
grep -q 'tpgen_saved' "$out/pcpu_hash/pcpu_hash.bpf.c" && fail "a hash map has a slot flag"

require_live
command -v taskset >/dev/null || fail "taskset is missing (util-linux)"
for k in cpu hash; do
	make -s -C "$out/pcpu_$k" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build pcpu_$k"; }
done
cc -O2 -Wall -Werror -o "$T/tpgenpcpu" tests/percpu/tpgenpcpu.c || fail "build the helper"
mkdir -p "$T/none"

start pcpu_cpu -c tpgenpcpu
p_cpu=$pid
start pcpu_hash -c tpgenpcpu
p_hash=$pid
taskset -c 0 "$T/tpgenpcpu" "$T/none" $rounds || fail "the helper failed"
pid=$p_hash stop pcpu_hash
pid=$p_cpu stop pcpu_cpu

for k in cpu hash; do
	# the helper's calls; the dynamic loader's openat()s of libraries come and go with the system
	python3 - "$T/pcpu_$k.out" "$T/none" > "$T/$k.got" <<'PY' || fail "$k: output is not JSON"
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get('comm') != 'tpgenpcpu':
        continue
    if 'path' in r:
        if not r['path'].startswith(sys.argv[2] + '/'):
            continue
        r['path'] = r['path'][len(sys.argv[2]) + 1:]
        assert r['min'] > 0, r
        del r['min']
    print(json.dumps(r, sort_keys=True))
PY
	sort "$T/$k.got" > "$T/$k.sorted"
done
cat > "$T/want" <<EOT
{"agg": "syscalls/sys_exit_openat: count, min(time - o.ts) by comm, path, errno(ret)", "comm": "tpgenpcpu", "count": $rounds, "path": "llllllllllllllll", "ret": -2, "ret_name": "ENOENT"}
{"agg": "syscalls/sys_exit_openat: count, min(time - o.ts) by comm, path, errno(ret)", "comm": "tpgenpcpu", "count": $rounds, "path": "mmmmmmmm", "ret": -2, "ret_name": "ENOENT"}
{"agg": "syscalls/sys_exit_openat: count, min(time - o.ts) by comm, path, errno(ret)", "comm": "tpgenpcpu", "count": $((2 * rounds)), "path": "s", "ret": -2, "ret_name": "ENOENT"}
{"comm": "tpgenpcpu", "count": 5, "counts": "syscalls/sys_exit_getppid"}
EOT
sort "$T/want" > "$T/want.sorted"
for k in cpu hash; do
	diff -u "$T/want.sorted" "$T/$k.sorted" || { head -20 "$T/pcpu_$k.out"; fail "pcpu_$k: not exactly the helper's calls"; }
done
echo "ok: per-CPU slot and hash map agree on $(wc -l < "$T/cpu.sorted") rows"
