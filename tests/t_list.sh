#!/bin/bash
# tpgen list: the fixture tree's listing is exact; on the live kernel --json is
# valid, complete (every event, every field) and agrees with the header's names.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
fx=tests/fixtures/events

# --core-stats: per system, events read with CO-RE (class struct, syscall record) and static ones
clang -g -O2 -target bpf -c tests/spec/btf/sched.c -o "$T/sched.btf.o" || fail "compiling tests/spec/btf/sched.c"
"$TPGEN" list --core-stats --tracefs tests/spec/events --btf "$T/sched.btf.o" > "$T/stats.txt" ||
	fail "list --core-stats"
printf '%-24s %7s %7s %7s %7s\n' SYSTEM EVENTS CLASS SYSCALL STATIC sched 3 2 0 1 total 3 2 0 1 > "$T/want.txt"
diff -u "$T/want.txt" "$T/stats.txt" || fail "list --core-stats differs"
"$TPGEN" list --core-stats --json --tracefs tests/spec/events --btf "$T/sched.btf.o" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["systems"] == [{"system": "sched", "events": 3, "core_class": 2, "core_syscall": 0, "static": 1}], d
assert (d["events"], d["core_class"], d["core_syscall"], d["static"]) == (3, 2, 0, 1), d' ||
	fail "list --core-stats --json"
if [ -r /sys/kernel/btf/vmlinux ] && [ -d /sys/kernel/tracing/events/syscalls ]; then
	"$TPGEN" list --core-stats syscalls > "$T/stats.txt" || fail "list --core-stats syscalls"
	read -r sys n cls sc st < <(grep '^syscalls ' "$T/stats.txt")
	[ "$n" -gt 0 ] && [ "$sc" = "$n" ] && [ "$cls" = 0 ] && [ "$st" = 0 ] ||
		fail "not every syscalls/ event is read through syscall_trace_enter/exit: $(cat "$T/stats.txt")"
	echo "live: $n syscalls/ events, all CO-RE"
fi
"$TPGEN" list --tracefs $fx 'sched/sched_switch' > "$T/list.txt" || fail "tpgen list failed"
cat > "$T/want.txt" <<'W'
sched/sched_switch (id 372): struct sched_switch_ctx, 64 bytes
    offset size sign  field
         0    2    u  unsigned short common_type
         2    1    u  unsigned char common_flags
         3    1    u  unsigned char common_preempt_count
         4    4    s  int common_pid
         8   16    u  char prev_comm[TASK_COMM_LEN]
        24    4    s  pid_t prev_pid
        28    4    s  int prev_prio
        32    8    s  long prev_state
        40   16    u  char next_comm[16]
        56    4    s  pid_t next_pid
        60    4    s  int next_prio
W
diff -u "$T/want.txt" "$T/list.txt" || fail "listing differs"
"$TPGEN" list --tracefs $fx '*sched_switch' | grep -q '^other/sched_switch (id 9005): struct other__sched_switch_ctx, 12 bytes (another selected event has the same name)$' ||
	fail "renamed struct not explained in the listing"
"$TPGEN" list --json --tracefs $fx > "$T/fx.json" || fail "list --json failed"
python3 - "$T/fx.json" <<'PY' || fail "fixture JSON wrong"
import json, sys
d = json.load(open(sys.argv[1]))
ev = {e['sys'] + '/' + e['name']: e for e in d['events']}
assert len(ev) == 12, len(ev)
assert ev['ftrace/print']['id'] is None
dyn = {f['name']: f for f in ev['odd/dynamic']['fields']}
assert dyn['name']['kind'] == 'data_loc' and dyn['rel']['kind'] == 'rel_loc'
assert dyn['addrs']['ctype'] == '__u32'
sw = {f['name']: f for f in ev['sched/sched_switch']['fields']}
assert sw['prev_comm']['array'] == 'TASK_COMM_LEN' and sw['prev_comm']['ctype'] == 'char[16]'
assert sw['prev_state']['signed'] is True and sw['prev_state']['offset'] == 32
assert ev['odd/packed']['size'] == 24
PY

if [ "$(id -u)" = 0 ]; then
	require_live
	"$TPGEN" list --json > "$T/live.json" || fail "live list --json failed"
	"$TPGEN" headers -o "$T/all.h" || fail "headers failed"
	python3 - "$T/live.json" "$T/all.h" <<'PY' || fail "live JSON wrong"
import json, sys, glob, re
d = json.load(open(sys.argv[1]))
fmts = glob.glob('/sys/kernel/tracing/events/*/*/format')
assert len(d['events']) == len(fmts), (len(d['events']), len(fmts))
hdr = open(sys.argv[2]).read()
structs = set(re.findall(r'^struct (\w+) \{', hdr, re.M))
nf = 0
for e in d['events']:
    assert e['struct'] in structs, e['struct']
    text = open('/sys/kernel/tracing/events/%s/%s/format' % (e['sys'], e['name'])).read()
    assert len(e['fields']) == text.count('field:'), e['name']
    nf += len(e['fields'])
print(len(d['events']), 'events,', nf, 'fields, all in the header')
PY
else
	skip "live part needs root"
fi
