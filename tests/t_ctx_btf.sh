#!/bin/bash
# A second, independent truth: where the kernel's BTF has struct
# trace_event_raw_<event>, every field of the generated struct (as compiled:
# read back from the object's BTF) sits at the BTF member's offset, the common
# fields at struct trace_entry's, and the struct has the BTF struct's size.
. "$(dirname "$0")/lib.sh"
require_live
cd "$T"
"$TPGEN" headers -o all.h || fail "tpgen headers failed"
"$TPGEN" list --json > list.json || fail "tpgen list --json failed"
# keep every generated struct in the object's BTF
sed -n 's/^struct \([A-Za-z0-9_]*\) {$/struct \1 *__keep_\1;/p' all.h > keep.c
sed -i '1i #include "all.h"' keep.c
clang -g -O0 -target bpf -c keep.c -o keep.o || fail "compiling the header failed"
bpftool btf dump file keep.o format raw > gen.btf || fail "bpftool on keep.o"
bpftool btf dump file /sys/kernel/btf/vmlinux format raw > kernel.btf || fail "bpftool on vmlinux"
python3 - list.json gen.btf kernel.btf <<'PY' || fail "offsets differ from BTF"
import json, re, sys

def structs(path):
    out, cur = {}, None
    for line in open(path):
        m = re.match(r"\[\d+\] STRUCT '([^']*)' size=(\d+) vlen=\d+", line)
        if m:
            cur = {'size': int(m.group(2)), 'members': {}}
            out[m.group(1)] = cur
            continue
        m = re.match(r"\s+'([^']*)' type_id=\d+ bits_offset=(\d+)", line)
        if m and cur is not None:
            cur['members'][m.group(1)] = int(m.group(2)) // 8
            continue
        if not line.startswith('\t'):
            cur = None
    return out

events = json.load(open(sys.argv[1]))['events']
gen, kern = structs(sys.argv[2]), structs(sys.argv[3])
entry = kern['trace_entry']['members']
common = {'common_type': 'type', 'common_flags': 'flags', 'common_preempt_count': 'preempt_count',
          'common_pid': 'pid'}
checked = fields = bad = 0
for e in events:
    k = kern.get('trace_event_raw_' + e['name'])
    g = gen.get(e['struct'])
    if not k:
        continue
    if g is None:
        print('no generated struct', e['struct']); bad += 1; continue
    kinds = {f['name']: f['kind'] for f in e['fields']}
    # the kernel's class may not be this event's own layout (same name, other class): skip those
    own = [f for f in e['fields'] if not f['common']]
    def kname(f):
        return ('__data_loc_' if f['kind'] == 'data_loc' else '__rel_loc_' if f['kind'] == 'rel_loc' else '') + f['name']
    if not all(kname(f) in k['members'] for f in own):
        continue
    checked += 1
    for f in e['fields']:
        gm = ('__data_loc_' if f['kind'] == 'data_loc' else '__rel_loc_' if f['kind'] == 'rel_loc' else '') + f['name']
        if gm not in g['members']:
            gm += '_'        # C keywords get a trailing underscore
        got = g['members'].get(gm)
        want = entry[common[f['name']]] if f['common'] else k['members'][kname(f)]
        fields += 1
        if got != want:
            bad += 1
            print('MISMATCH %s/%s %s: generated %s, BTF %s' % (e['sys'], e['name'], f['name'], got, want))
    if g['size'] != k['size']:
        bad += 1
        print('MISMATCH %s/%s: sizeof %d, BTF %d' % (e['sys'], e['name'], g['size'], k['size']))
print('%d events with trace_event_raw_<event> in BTF, %d fields checked, %d mismatches' % (checked, fields, bad))
assert checked >= 500 and bad == 0
PY
