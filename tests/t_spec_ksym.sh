#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# tpgen-timeout: 300
# Kernel addresses by name, stacks as people read them.
# - Errors: an unknown function (in a print item, a key, a filter, a let) is
#   refused, located, and lists the functions; ksym() in an expression, of a
#   string or of a stack, kstack(N) out of range: located, nothing written.
# - Every event of this kernel whose print fmt prints a field with %pS/%pB or
#   %ps (tracefs' format files, read here by a small parser of its own) gets
#   that field shown by name (show_ksym, show_ksym_name), a %p field in hex.
# - Live, on a workload this test runs (a copy of cat named tpgen-ksymwl):
#   kmem/kmalloc and kmem/kfree with call_site (%pS) and ptr (%p) as record
#   columns and keys, plain and through ksym(), saved and joined, in text and
#   JSON: every "symbol+0xoff" is checked against /proc/kallsyms (the symbol
#   starts at address - off), every pointer is hex; the counts by
#   ksym(call_site) equal bpftrace's @[ksym(args->call_site)] on the same
#   events, name for name.
# - usym(): page faults of a workload counted by address as bpftrace counts
#   them, named as its usym() names them (or an alias of the same address:
#   bpftrace reads local symbols too), the process kept with the address,
#   never a column.
# - Stacks under tracepoint, raw_tp and tp_btf have none of the tracing's own
#   frames (bpf_prog_*, bpf_trace_run*, __traceiter_*, perf_trace_*) and start
#   at __schedule on sched_switch; kstack(3) is at most 3 frames, the first
#   ones of the whole stack of the same event; kstack(2) as a key, 2 frames,
#   each stack once (stacks alike in their first 2 frames merged), the
#   counts adding up to the events printed; kcaller is the first frame,
#   kcaller(GLOB, ...) the first frame of none of the globs (computed here
#   from the record's whole stack with Python's fnmatch), and counted by it,
#   one row per caller, the counts those of the records.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1

out=$T/out
mkdir -p "$T/specs"

# stop_bt PID: bpftrace prints its maps on SIGINT; under load a first one was
# seen lost: ask again every 2 s, 30 s at most
stop_bt() {
	local i
	for i in $(seq 15); do
		kill -INT "$1" 2>/dev/null || break
		for _ in 1 2 3 4; do
			kill -0 "$1" 2>/dev/null || break 2
			sleep 0.5
		done
	done
	kill -0 "$1" 2>/dev/null && { kill -KILL "$1"; fail "bpftrace did not stop in 30 s"; }
	wait "$1"
}

# settle FILE: wait (10 s at most) until FILE stops growing: a loader reads
# /proc/kallsyms at its first name, and Ctrl-C stops it reading records
settle() {
	local a b i same=0
	for i in $(seq 20); do
		a=$(stat -c %s "$1")
		sleep 0.5
		b=$(stat -c %s "$1")
		[ "$a" = "$b" ] && [ "$b" != 0 ] && same=$((same + 1)) || same=0
		[ $same -ge 3 ] && return 0
	done
}

# ---- errors: located, the functions listed, nothing written ----------------
bad() {	# bad NAME 'ENTRY LINES' WANT_REGEX
	printf 'tool: bad\nevents:\n  - event: kmem/kmalloc\n%s\n' "$2" > "$T/specs/$1.yaml"
	"$TPGEN" -o "$T/bad_out" "$T/specs/$1.yaml" 2>"$T/$1.err" >/dev/null
	rc=$?
	[ $rc = 1 ] || { cat "$T/$1.err"; fail "$1: exit $rc, want 1"; }
	[ -e "$T/bad_out" ] && fail "$1: wrote files"
	grep -Eq "$3" "$T/$1.err" || { cat "$T/$1.err"; fail "$1: want /$3/"; }
}
list='the functions are enum\(\), errno\(\), signal\(\), syscall\(\), ipv4\(\), ipv6\(\), ntohs\(\), af\(\), ksym\(\), usym\(\), open_flags\(\), mount_flags\(\), kstack\(N\), ustack\(N\), kcaller\(GLOB, ...\)'
for ctx in print count by filter let; do
	case $ctx in
	print)	e='    print: [bytes_req, foo(call_site)]'; col=24;;
	count)	e='    count: [bytes_req, foo(call_site)]'; col=24;;
	by)	e='    aggregate: { by: [bytes_req, "foo(call_site)"], count: true }'; col=35;;
	filter)	e='    filter: "bytes_req > 0 && foo(call_site) != 0"
    print: bytes_req'; col=31;;
	let)	e='    let: { x: 1 + foo(call_site) }
    print: x'; col=19;;
	esac
	bad "unknown_$ctx" "$e" ":4:$col: error: unknown function 'foo'; $list, each around a whole print item or aggregation key"
done
bad ksym_filter '    filter: "ksym(call_site) != 0"
    print: bytes_req' ":4:14: error: ksym\(\) shows a whole print item or aggregation key"
bad ksym_str '    print: "ksym(COMM)"' ":4:18: error: ksym\(\) needs an address .*, and the value is a string"
bad ksym_stack '    print: "ksym(kstack)"' "ksym\(\) needs an address .*, and the value is a stack"
bad ksym_small '    print: "ksym(node)"' "ksym\(\) needs an address .*, and the value is a number of another size"
bad kstack_0 '    print: "kstack(0)"' ":4:20: error: kstack\(N\): N is how many frames to show, 1 to 127"
bad kstack_big '    print: "kstack(128)"' ":4:20: error: kstack\(N\): N is how many frames to show, 1 to 127"
bad kstack_name '    print: "ustack(pid)"' "ustack\(N\): N is how many frames to show"
bad kstack_more '    print: "kstack(3) + 1"' "kstack\(N\) is a whole item: nothing may follow it"
bad kcaller_glob '    print: "kcaller(a b)"' ":4:23: error: expected ',' or '\)' in kcaller"
bad kcaller_bad '    print: "kcaller(\"a/b\")"' "kcaller\(GLOB, ...\): a glob of function names"
bad kcaller_filter '    filter: "kcaller(x) != 0"
    print: pid' ":4:14: error: kcaller\(\) shows a whole print item"
echo "ok: unknown functions and misuses refused, located, the functions listed"

require_live
. "$(dirname "$0")/spec_lib.sh"

# ---- every %pS/%ps/%p field of this kernel's events --------------------------
# A parser of its own: the format string's conversions matched to the
# top-level arguments; a plain REC->field (a cast before it allowed) of 8 bytes.
python3 - /sys/kernel/tracing/events > "$T/pfields" <<'EOF' || fail "reading print fmts"
import os, re, sys
root = sys.argv[1]
for sysname in sorted(os.listdir(root)):
    if sysname == "ftrace" or not os.path.isdir(os.path.join(root, sysname)):
        continue
    for ev in sorted(os.listdir(os.path.join(root, sysname))):
        try:
            text = open(os.path.join(root, sysname, ev, "format")).read()
        except OSError:
            continue
        if "%p" not in text or "print fmt: " not in text:
            continue
        sizes = dict((m.group(2), int(m.group(3))) for m in
                     re.finditer(r"field:([^;]*?)(\w+)(?:\[\d*\])?;\toffset:\d+;\tsize:(\d+);", text))
        pf = text.split("print fmt: ", 1)[1].strip()
        m = re.match(r'"((?:[^"\\]|\\.)*)"', pf)
        if not m:
            continue
        fmt, rest = m.group(1), pf[m.end():]
        args, depth, cur = [], 0, ""
        for c in rest.lstrip(",").strip() + ",":
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
            if c == "," and depth == 0:
                args.append(cur.strip()); cur = ""
            else:
                cur += c
        convs = re.findall(r"%%|%[-+ #0']*(\*|\d+)?(?:\.(\*|\d+))?[hlLqjzZt]*([a-zA-Z])([a-zA-Z]?)", fmt)
        k = 0
        for width, prec, conv, ext in convs:
            if conv == "" and width == "":
                continue
            k += (width == "*") + (prec == "*")
            if k >= len(args):
                break
            arg = args[k]; k += 1
            if conv != "p":
                continue
            want = {"S": "ksym", "B": "ksym", "s": "ksym_name", "": "addr"}.get(ext)
            fm = re.fullmatch(r"(?:\(\s*[\w\s]+\*?\s*\))?\s*REC->(\w+)", arg)
            if not want or not fm or sizes.get(fm.group(1)) != 8:
                continue
            print(sysname + "/" + ev, fm.group(1), want)
EOF
n=$(wc -l < "$T/pfields")
[ "$n" -ge 20 ] || { cat "$T/pfields"; fail "only $n %pS/%ps/%p fields found on this kernel"; }
grep -q '^kmem/kmalloc call_site ksym$' "$T/pfields" || fail "the test's parser missed kmalloc's call_site"
# one entry per event, printing its address fields; 200 entries a spec
awk '{ f[$1] = f[$1] (f[$1] ? ", " : "") $2 } END { for (e in f) print e, f[e] }' "$T/pfields" | sort |
	split -l 200 - "$T/pfchunk."
nspecs=0
for c in "$T"/pfchunk.*; do
	t=pfall$nspecs
	{
		echo "tool: $t"
		echo "events:"
		while read -r ev f; do
			printf '  - event: %s\n    print: [%s]\n' "$ev" "$f"
		done < "$c"
	} > "$T/specs/$t.yaml"
	"$TPGEN" -o "$out" "$T/specs/$t.yaml" 2>"$T/$t.err" || { cat "$T/$t.err"; fail "tpgen $t"; }
	nspecs=$((nspecs + 1))
done
cat "$out"/pfall*/pfall*.c > "$T/pfall.c"
python3 - "$T/pfields" "$T/pfall.c" <<'PY' || fail "address fields not shown as their print fmt says"
import re, sys
src = open(sys.argv[2]).read()
bad = 0
for line in open(sys.argv[1]):
    ev, f, want = line.split()
    # the event's print case: from its JSON "event" name to its text line's break
    i = src.find('printf(",\\"event\\":\\"%s\\"");' % ev)
    case = src[src.rfind("\tcase ", 0, i):src.find("\tbreak;\n}", i)] if i >= 0 else ""
    ok = "show_value(&show_%s, e->%s," % (want, f) in case
    if want == "addr":	# a pointer field: hex already
        ok |= '\\"%s\\":\\"0x%%llx\\"' % f in case and " %s=0x%%llx" % f in case
    if not ok:
        print("%s: %s is not shown as %s" % (ev, f, want))
        bad += 1
sys.exit(1 if bad else 0)
PY
make -s -C "$out/pfall0" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { tail -20 "$T/build.log"; fail "build pfall0"; }
echo "ok: $n fields of $(cut -d' ' -f1 "$T/pfields" | sort -u | wc -l) events printed with %pS/%ps/%p shown as ksym, ksym_name, addr ($nspecs specs; the first built -Werror)"

# ---- kmem: columns, keys, saved and joined, text and JSON -------------------
wl=$T/tpgen-ksymwl
cp /bin/cat "$wl"
workload() {	# the files it reads make kmallocs (seq_file, ext4)
	for i in 1 2 3; do
		"$wl" /proc/self/status /proc/version /proc/self/maps /etc/hostname /etc/passwd >/dev/null
	done
}
cat > "$T/specs/ksymt.yaml" <<'EOF'
tool: ksymt
events:
  - event: kmem/kmalloc
    filter: 'COMM == "tpgen-ksymwl"'
    save: { name: a, values: { cs: call_site, p: ptr } }
    print: [call_site, ptr, bytes_req, cs2: ksym(call_site)]
    aggregate:
      - { name: by_ksym, by: [ksym(call_site)], count: true }
      - { name: by_plain, by: [call_site, bytes_req], count: true, sum: bytes_alloc }
      - { name: by_ptr, by: [ptr], count: true }
  - event: kmem/kfree
    filter: 'COMM == "tpgen-ksymwl"'
    join: a
    print: [a.cs, a.p, call_site, ptr, cs3: ksym(a.cs)]
    aggregate: { name: joined, by: [a.cs, a.p], count: true }
EOF
"$TPGEN" -o "$out" "$T/specs/ksymt.yaml" 2>"$T/gen.err" || { cat "$T/gen.err"; fail "tpgen ksymt"; }
make -s -C "$out/ksymt" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { tail -20 "$T/build.log"; fail "build ksymt"; }

# bpftrace on the same events
bt=$T/bt.json
bpftrace -f json -e 'tracepoint:kmem:kmalloc /comm == "tpgen-ksymwl"/ { @[ksym(args->call_site)] = count(); }' \
	>"$bt" 2>"$T/bt.err" &
btpid=$!
for i in $(seq 150); do
	grep -q attached_probes "$bt" && break
	sleep 0.1
done
grep -q attached_probes "$bt" || { cat "$T/bt.err"; fail "bpftrace did not attach"; }
start ksymt
workload
settle "$T/ksymt.out"
stop ksymt
stop_bt $btpid
# text, on a second run
"$out/ksymt/ksymt" >"$T/ksymt.txt" 2>"$T/ksymt.terr" &
pid=$!
for i in $(seq 100); do grep -q '^Tracing' "$T/ksymt.terr" && break; sleep 0.1; done
workload
settle "$T/ksymt.txt"
kill -INT $pid
wait $pid || fail "ksymt (text) exited $?"

python3 - "$T/ksymt.out" "$T/ksymt.txt" "$bt" <<'EOF' || fail "ksymt: see above"
import bisect, json, re, sys
starts, names = {}, []
for line in open("/proc/kallsyms"):
    a, t, n = line.split()[:3]
    a = int(a, 16)
    if t.lower() in "tw" and a:
        starts.setdefault(n, set()).add(a)
        names.append((a, n))
names.sort()
addrs = [a for a, n in names]
if not addrs:
    sys.exit("no kallsyms addresses (not root?)")
errs = []
checked = 0

def sym_ok(addr, text, offset=True):
    """'text' names addr: a symbol starting at addr - off (kallsyms)."""
    global checked
    m = re.fullmatch(r"([\w.$]+)\+0x([0-9a-f]+)" if offset else r"([\w.$]+)", text)
    if not m:
        return False
    off = int(m.group(2), 16) if offset else None
    s = starts.get(m.group(1), ())
    checked += 1
    if offset:
        return addr - off in s
    i = bisect.bisect_right(addrs, addr) - 1
    return i >= 0 and any(a <= addr for a in s) and names[i][0] in s

def hexs(v):
    return isinstance(v, str) and re.fullmatch(r"0x[0-9a-f]+", v)

recs = aggs = 0
byk = {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get("event") == "kmem/kmalloc":
        recs += 1
        for c in ("call_site", "cs2"):
            if not hexs(o[c]) or not sym_ok(int(o[c], 16), o[c + "_name"]):
                errs.append("kmalloc %s: %r %r" % (c, o[c], o.get(c + "_name")))
        if not hexs(o["ptr"]) or "ptr_name" in o:
            errs.append("kmalloc ptr not a hex string: %r" % o["ptr"])
        if not isinstance(o["bytes_req"], int):
            errs.append("bytes_req not a number")
    elif o.get("event") == "kmem/kfree":
        recs += 1
        for c in ("a_cs", "cs3", "call_site"):
            if not hexs(o[c]) or not sym_ok(int(o[c], 16), o[c + "_name"]):
                errs.append("kfree %s: %r %r" % (c, o[c], o.get(c + "_name")))
        for c in ("a_p", "ptr"):
            if not hexs(o[c]):
                errs.append("kfree %s not hex: %r" % (c, o[c]))
    elif o.get("agg") in ("by_ksym", "by_plain", "joined"):
        aggs += 1
        c = "call_site" if o["agg"] != "joined" else "a_cs"
        if not hexs(o[c]) or not sym_ok(int(o[c], 16), o[c + "_name"]):
            errs.append("%s key %s: %r %r" % (o["agg"], c, o[c], o.get(c + "_name")))
        if o["agg"] == "joined" and not hexs(o["a_p"]):
            errs.append("joined a_p not hex: %r" % o["a_p"])
        if o["agg"] == "by_ksym":
            n = o["call_site_name"].split("+")[0]
            byk[n] = byk.get(n, 0) + o["count"]
    elif o.get("agg") == "by_ptr":
        aggs += 1
        if not hexs(o["ptr"]):
            errs.append("by_ptr key not hex: %r" % o["ptr"])
if recs < 6 or aggs < 4:
    errs.append("too few records (%d) or rows (%d)" % (recs, aggs))

bt = {}
for line in open(sys.argv[3]):
    line = line.strip()
    if line.startswith("{") and '"map"' in line:
        bt = json.loads(line)["data"]["@"]
if bt != byk:
    errs.append("counts by ksym(call_site) differ from bpftrace's:\n  tpgen    %s\n  bpftrace %s" %
                (sorted(byk.items()), sorted(bt.items())))

# text: the same names in columns, pointers in hex, never a decimal address
txt = open(sys.argv[2]).read()
lines = [l for l in txt.splitlines() if " kmem/k" in l]
if len(lines) < 6:
    errs.append("text: %d records" % len(lines))
for l in lines:
    kv = dict(p.split("=", 1) for p in l.split()[2:])
    for c in ("call_site", "cs2", "a_cs", "cs3"):
        if c in kv and not re.fullmatch(r"[\w.$]+\+0x[0-9a-f]+", kv[c]):
            errs.append("text %s: %r" % (c, kv[c]))
    for c in ("ptr", "a_p"):
        if c in kv and not hexs(kv[c]):
            errs.append("text %s: %r" % (c, kv[c]))
rows = re.findall(r"^\s+(\d+)\s+([\w.$]+\+0x[0-9a-f]+)\s*$", txt.split("by_ksym", 1)[1].split("\n\n")[0], re.M) \
    if "by_ksym" in txt else []
if not rows:
    errs.append("text: no rows of by_ksym named")
m = re.search(r"^joined\n\s+COUNT\s+A_CS\s+A_P\n\s+\d+\s+[\w.$]+\+0x[0-9a-f]+\s+0x[0-9a-f]+$", txt, re.M)
if not m:
    errs.append("text: joined's rows are not symbol and hex pointer")
for e in errs[:20]:
    print(e)
print("checked %d names against kallsyms, %d records, %d rows, %d names as bpftrace" %
      (checked, recs, aggs, len(bt)))
sys.exit(1 if errs else 0)
EOF
echo "ok: kmem call sites by name (columns, keys, saved, joined; text, JSON) as kallsyms and bpftrace name them"

# ---- usym(): user addresses of the process, against bpftrace's usym() --------
# The workload (a copy of bash) faults its pages in, then waits until both
# tools have printed: its symbols are read while it lives.
uw=$T/tpgen-uwl
cp /bin/bash "$uw"
cat > "$T/specs/usymt.yaml" <<'EOF'
tool: usymt
events:
  - event: exceptions/page_fault_user
    filter: 'COMM == "tpgen-uwl"'
    print: [ip, at: usym(ip)]
    aggregate: { name: by_usym, by: [usym(ip)], count: true }
EOF
"$TPGEN" -o "$out" "$T/specs/usymt.yaml" 2>"$T/gen.err" || { cat "$T/gen.err"; fail "tpgen usymt"; }
make -s -C "$out/usymt" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { tail -20 "$T/build.log"; fail "build usymt"; }
ubt=$T/ubt.json
bpftrace -f json -e 'tracepoint:exceptions:page_fault_user /comm == "tpgen-uwl"/ { @[usym(args->ip), args->ip] = count(); }' \
	>"$ubt" 2>"$T/ubt.err" &
btpid=$!
for i in $(seq 150); do
	grep -q attached_probes "$ubt" && break
	sleep 0.1
done
grep -q attached_probes "$ubt" || { cat "$T/ubt.err"; fail "bpftrace did not attach"; }
start usymt
mkfifo "$T/uwl.fifo"
"$uw" -c 'for i in {1..50}; do :; done; exec 3<>"$1"; read -t 30 <&3' sh "$T/uwl.fifo" &	# no fork: one process
uwpid=$!
settle "$T/usymt.out"
stop usymt
stop_bt $btpid
kill $uwpid 2>/dev/null
wait $uwpid 2>/dev/null
python3 - "$T/usymt.out" "$ubt" <<'EOF' || fail "usymt: see above"
import json, re, sys
errs, recs, named, tp = [], 0, 0, {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    if "event" in o:
        recs += 1
        if o["ip"] != o["at"] or not re.fullmatch(r"0x[0-9a-f]+", o["at"]):
            errs.append("record: ip %r, usym(ip) %r" % (o["ip"], o["at"]))
        named += o["at_name"] is not None
        if "at_pid" in o:
            errs.append("the process is a column: %s" % line)
    elif o.get("agg") == "by_usym":
        if not re.fullmatch(r"0x[0-9a-f]+", o["ip"]):
            errs.append("key not hex: %r" % o["ip"])
        a = int(o["ip"], 16)
        n = o["ip_name"].split("+")[0] if o["ip_name"] else None
        if a in tp and tp[a][0] != n:
            errs.append("one address, two names: %s %s" % (tp[a][0], n))
        tp[a] = (n, tp.get(a, (n, 0))[1] + o["count"])
# bpftrace: @[usym(ip), ip], a key "name,address" (its hex where no symbol)
bt = {}
for line in open(sys.argv[2]):
    if '"map"' in line:
        for k, v in json.loads(line)["data"]["@"].items():
            n, a = k.rsplit(",", 1)
            bt[int(a)] = (None if n.startswith("0x") else n, v)
if recs < 10 or named < recs // 2:
    errs.append("%d records, %d named" % (recs, named))
if {a: c for a, (n, c) in tp.items()} != {a: c for a, (n, c) in bt.items()}:
    errs.append("counts by address differ from bpftrace's: %s" %
                sorted(set((a, c) for a, (n, c) in tp.items()) ^ set((a, c) for a, (n, c) in bt.items())))
both = [a for a in tp if a in bt and tp[a][0] and bt[a][0]]
same = [a for a in both if tp[a][0] == bt[a][0]]
alone = [a for a in tp if a in bt and (tp[a][0] is None) != (bt[a][0] is None)]
if alone:
    errs.append("named by one tool only: %s" % [(hex(a), tp[a][0], bt[a][0]) for a in alone])
# the rest are aliases of one address (malloc, __GI___libc_malloc): bpftrace reads local symbols too
if len(same) < 0.75 * len(both):
    errs.append("%d of %d addresses named as bpftrace names them: %s" %
                (len(same), len(both), [(tp[a][0], bt[a][0]) for a in both if a not in same][:10]))
for e in errs[:20]:
    print(e)
print("%d records, %d named; %d addresses, %d named as bpftrace names them, %d aliases" %
      (recs, named, len(tp), len(same), len(both) - len(same)))
sys.exit(1 if errs else 0)
EOF
echo "ok: usym() names user addresses of the process as bpftrace does"

# ---- stacks: the tracing's own frames out, frame limits ---------------------
sl=$T/tpgen-kstk
cp /bin/sleep "$sl"
{
	echo "tool: kstk"
	echo "events:"
	for a in tracepoint raw_tp tp_btf; do
		printf '  - event: sched/sched_switch\n    attach: %s\n    filter: %s\n' $a "'prev_comm == \"tpgen-kstk\"'"
		printf '    print:\n      - prev_pid\n      - kstack\n      - k3: kstack(3)\n      - kcaller\n'
		printf '      - c2: kcaller(__schedule, "schedule*", do_nano?leep)\n'
		printf '    aggregate:\n      - { name: by2_%s, by: [kstack(2)], count: true }\n' $a
		printf '      - { name: byc_%s, by: [comm, "kcaller(__schedule, schedule*, do_nano?leep)"], count: true }\n' $a
	done
} > "$T/specs/kstk.yaml"
"$TPGEN" -o "$out" "$T/specs/kstk.yaml" 2>"$T/gen.err" || { cat "$T/gen.err"; fail "tpgen kstk"; }
make -s -C "$out/kstk" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { tail -20 "$T/build.log"; fail "build kstk"; }
start kstk
for i in 1 2 3; do "$sl" 0.01; done
settle "$T/kstk.out"
stop kstk
"$out/kstk/kstk" >"$T/kstk.txt" 2>"$T/kstk.terr" &
pid=$!
for i in $(seq 100); do grep -q '^Tracing' "$T/kstk.terr" && break; sleep 0.1; done
for i in 1 2 3; do "$sl" 0.01; done
settle "$T/kstk.txt"
kill -INT $pid
wait $pid || fail "kstk (text) exited $?"
# kstk.py OUT TXT ERR [small]: the JSON lines and text of a run, its stderr;
# "small": a stack map of 2 stacks, where most stacks are lost (no text)
cat > "$T/kstk.py" <<'EOF'
import fnmatch, json, re, sys
small = sys.argv[4:] == ["small"]
skip = ["__schedule", "schedule*", "do_nano?leep"]

def caller(frames, globs):
    for f in frames:
        if not [g for g in globs if fnmatch.fnmatchcase(f.split("+")[0], g)]:
            return f
    return "[unknown]"
# An entry takes its event's stack once (bpf_get_stackid()), for every use. The
# stack map keeps one stack per bucket: a stack whose bucket holds another one is
# lost (-EEXIST), counted by the program, and the loader says how many at exit.
# Each one lost is an event with no stack anywhere: its record's kstack, kstack(3)
# and callers, its kstack(2) row, its kcaller row ("[unknown]"); the counts match.
m = re.search(r"^(\d+) stacks lost: the stack map kept another in their place "
              r"\(--stack-storage-size makes it bigger\)$",
              open(sys.argv[3]).read(), re.M)
reported = int(m.group(1)) if m else 0
callers = {}
own = re.compile(r"^(bpf_prog_|bpf_trace_run|__traceiter_|__bpf_trace_|perf_trace_|trace_call_bpf)")
errs, recs, rows, by2, nostack, nostack_rows = [], 0, 0, {}, 0, 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    if "event" in o:
        recs += 1
        k, k3 = o["kstack"], o["k3"]
        if not k:
            nostack += 1
            if k3 or o["kcaller"] != "[unknown]" or o["c2"] != "[unknown]":
                errs.append("an event's stack lost in its kstack only: %s" % o)
            continue
        if [f for f in k if own.match(f)]:
            errs.append("kstack with the tracing's frames: %s" % k)
        elif not k[0].startswith("__schedule+"):
            errs.append("kstack does not start at __schedule: %s" % k)
        if (not 1 <= len(k3) <= 3 or k3 != k[:len(k3)] or len(k3) != min(3, len(k))):
            errs.append("kstack(3) %s is not the first frames of %s" % (k3, k))
        if o["kcaller"] != caller(k, []) or o["c2"] != caller(k, skip):
            errs.append("kcaller %s, kcaller(%s) %s of %s" % (o["kcaller"], skip, o["c2"], k))
        callers[caller(k, skip)] = callers.get(caller(k, skip), 0) + 1
    elif o.get("agg", "").startswith("by2_"):
        rows += 1
        if not o["kstack"]:
            nostack_rows += o["count"]
            continue
        if not 1 <= len(o["kstack"]) <= 2 or own.match(o["kstack"][0]):
            errs.append("kstack(2) key: %s" % o["kstack"])
        k = (o["agg"], tuple(o["kstack"]))
        if k in by2:
            errs.append("kstack(2) rows not merged: %s twice" % (k,))
        by2[k] = o["count"]
byc = {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get("agg", "").startswith("byc_"):
        byc[o["kcaller"]] = byc.get(o["kcaller"], 0) + o["count"]
        if (o["agg"], o["kcaller"]) in by2:
            errs.append("kcaller rows not merged: %s twice" % o["kcaller"])
        by2[(o["agg"], o["kcaller"])] = 0
# every event under its caller, as its record names it, or under "[unknown]"
# when its stack was lost
unknown = byc.pop("[unknown]", 0)
missing = nostack
if nostack_rows != nostack or unknown != nostack:
    errs.append("%d records without a stack, %d events in kstack(2) rows without one, %d under kcaller "
                "[unknown]" % (nostack, nostack_rows, unknown))
if byc != callers:
    errs.append("counts by kcaller %s, callers of the records %s" % (byc, callers))
if missing != reported:
    errs.append("%d events without a stack, %d stacks reported lost by the tool" % (missing, reported))
if small and not reported:
    errs.append("no stack lost in a map of 2")
elif not small and missing > recs // 5:
    errs.append("%d of %d records' stacks lost" % (missing, recs))
if sum(by2.values()) + nostack_rows != recs:
    errs.append("kstack(2) rows count %d events, %d records" % (sum(by2.values()) + nostack_rows, recs))
if recs < 9 or rows < 3:
    errs.append("%d records, %d rows (want 3 sleeps x 3 attach types)" % (recs, rows))
txt = open(sys.argv[2]).read() if not small else ""
frames = re.findall(r"^        0x[0-9a-f]+ (\S+)$", txt, re.M)
if not small and not frames or [f for f in frames if own.match(f)]:
    errs.append("text: frames %s" % [f for f in frames if own.match(f)][:5])
for blk in re.findall(r"^by2_\w+\n     COUNT\n((?:.*\n?)*?)(?:\n|\Z)", txt, re.M):
    for row in re.split(r"^\s+\d+\n", blk, flags=re.M)[1:]:
        if not 1 <= len(row.strip().splitlines()) <= 2:
            errs.append("text kstack(2) row: %r" % row)
for e in errs[:20]:
    print(e)
print("%d records, %d rows; %d stacks missing, %d reported lost" % (recs, rows, missing, reported))
sys.exit(1 if errs else 0)
EOF
python3 "$T/kstk.py" "$T/kstk.out" "$T/kstk.txt" "$T/kstk.err" || fail "kstk: see above"
# with room for 2 stacks, most of them lost: each one missing is one reported
mv "$T/kstk.out" "$T/kstk.big.out"
mv "$T/kstk.err" "$T/kstk.big.err"
start kstk --stack-storage-size 2
for i in 1 2 3; do "$sl" 0.01; done
settle "$T/kstk.out"
stop kstk
python3 "$T/kstk.py" "$T/kstk.out" - "$T/kstk.err" small || fail "kstk --stack-storage-size 2: see above"
echo "ok: stacks without the tracing's frames under 3 attach types; kstack(3), kstack(2) keys, kcaller; lost stacks reported"
