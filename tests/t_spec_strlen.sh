#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# str(X, N): a string of unknown length kept in N bytes with its NUL, where
# a key holds 64 and a record 256 (bpftrace's str(x, n)). The space: X a
# syscall's char * (openat's filename) under tracepoint, raw_tp and tp_btf;
# a __data_loc field (sched_process_exec's filename, tracepoint); a raw
# argument's char * member (its bprm->filename, raw_tp and tp_btf) x N of 2,
# 8, 33, 256 x printed beside X itself, a key, a filter's ==, saved and
# joined at the exit. The workload opens (and fails to open) paths of known
# lengths and execs /bin/true through a path longer than 256 bytes; every
# string must be the path cut to N - 1 bytes. Bad uses get located errors.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/spec_lib.sh"
cd "$TPGEN_ROOT" || exit 1
out=$T/out
attaches="tracepoint raw_tp tp_btf"
D=/tmp/tpgen-slen-$$
trap 'rm -rf "$D"' EXIT

for a in $attaches; do
	{
		cat <<EOT
tool: slen_$a
attach: $a
events:
  - event: syscalls/sys_enter_openat
    filter: 'comm == "tpgenslen"'
    print: ['str(filename, 2)', 'str(filename, 8)', 'str(filename, 33)', 'str(filename, 256)', filename]
    aggregate: { name: byname, by: ['str(filename, 33)'], count: true }
  - event: syscalls/sys_enter_openat
    filter: 'comm == "tpgenslen" && str(filename, 10) == "/tpgen-sl"'
    aggregate: { name: filtered, count: true }
  - event: syscalls/sys_enter_openat
    filter: 'comm == "tpgenslen"'
    save: { name: o, values: { f: 'str(filename, 12)' } }
  - event: syscalls/sys_exit_openat
    join: o
    print: [ret, f: o.f]
EOT
		if [ $a = tracepoint ]; then
			cat <<EOT
  - event: sched/sched_process_exec
    filter: 'filename ~ "$D/*"'
    print: ['str(filename, 8)', 'str(filename, 33)', filename]
EOT
		else
			cat <<EOT
  - event: sched/sched_process_exec
    filter: 'bprm->filename ~ "$D/*"'
    print: ['str(bprm->filename, 8)', 'str(bprm->filename, 33)', bprm->filename]
EOT
		fi
	} > "$T/slen_$a.yaml"
	"$TPGEN" -o "$out" "$T/slen_$a.yaml" || fail "tpgen slen_$a.yaml"
done
grep -q 'char filename_33\[33\];' "$out/slen_tracepoint/slen_tracepoint.h" || fail "no 33-byte member"
grep -q 'char bprm_filename_8\[8\];' "$out/slen_tp_btf/slen_tp_btf.h" || fail "no 8-byte member of bprm->filename"

bad() {	# bad EVENT EXPR MESSAGE
	printf 'tool: b\nevents:\n  - event: %s\n    print: ["%s"]\n' "$1" "$2" > "$T/bad.yaml"
	! "$TPGEN" -o "$T/bad" "$T/bad.yaml" 2>"$T/bad.err" || fail "tpgen took $2 on $1"
	grep -q "$3" "$T/bad.err" || { cat "$T/bad.err"; fail "$2: no '$3'"; }
	grep -q "^$T/bad.yaml:4:" "$T/bad.err" || { cat "$T/bad.err"; fail "$2: the error is not located"; }
	[ ! -e "$T/bad" ] || fail "$2: something was written"
}
bad sched/sched_process_exec 'str(filename, 1)' "in N bytes with its NUL: 2 to 256"
bad sched/sched_process_exec 'str(filename, 257)' "in N bytes with its NUL: 2 to 256"
bad sched/sched_process_exec 'str(filename, x)' "takes a length in bytes: a number"
bad sched/sched_process_exec 'str(pid, 8)' "'pid' is not one"
bad sched/sched_switch 'str(prev_comm, 8)' "'prev_comm' is an array of 16 bytes"
bad sched/sched_switch 'str(nosuch, 8)' "unknown field 'nosuch'"
bad sched/sched_switch 'str(prev_comm)' "not a syscalls/ event"
bad syscalls/sys_enter_openat 'str(filename, 8' "expected ')' after 'str(filename, 8'"

require_live
for a in $attaches; do
	make -s -C "$out/slen_$a" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build slen_$a"; }
done
# /bin/true through a path of 300 bytes
long=$D/$(printf 'd%.0s' $(seq 150))/$(printf 'e%.0s' $(seq 120))
mkdir -p "$(dirname "$long")" || fail "mkdir"
ln -s /bin/true "$long" || fail "ln"
for a in $attaches; do
	start slen_$a
	python3 - "$long" <<'PY' || fail "the workload failed"
import ctypes, os, subprocess, sys
ctypes.CDLL(None).prctl(15, b"tpgenslen", 0, 0, 0)
for n in (1, 5, 9, 20, 40, 300):
    try:
        os.open("/tpgen-sl" + "x" * n, os.O_RDONLY)
    except OSError:
        pass
subprocess.run([sys.argv[1]], check=True)
PY
	stop slen_$a
	python3 - "$T/slen_$a.out" "$long" $a <<'PY' || fail "slen_$a: strings differ from the paths cut to N - 1"
import json, sys
long, a = sys.argv[2], sys.argv[3]
opens = ["/tpgen-sl" + "x" * n for n in (1, 5, 9, 20, 40, 300)]
recs = [json.loads(l) for l in open(sys.argv[1])]
bad = 0
def cut(s, n):
    return s.encode()[:n - 1].decode()
seen = [r for r in recs if r.get("event") == "syscalls/sys_enter_openat" and r["filename"].startswith("/tpgen-sl")]
want = [cut(p, 256) for p in opens]
if [r["filename"] for r in seen] != want:
    print("openat records", [r["filename"][:20] for r in seen]); bad += 1
for r, p in zip(seen, opens):
    for n in (2, 8, 33, 256):
        if r["filename_%d" % n] != cut(p, n):
            print("filename_%d" % n, repr(r["filename_%d" % n]), "want", repr(cut(p, n))); bad += 1
rows = {r["filename_33"]: r["count"] for r in recs if r.get("agg") == "byname"}
wrows = {}
for p in opens:
    wrows[cut(p, 33)] = wrows.get(cut(p, 33), 0) + 1
if {k: v for k, v in rows.items() if k.startswith("/tpgen-sl")} != wrows:
    print("byname", rows, "want", wrows); bad += 1
filt = [r for r in recs if r.get("agg") == "filtered"]
if not filt or filt[0]["count"] != len(opens):
    print("filtered", filt, "want", len(opens)); bad += 1
exits = [r for r in recs if "ret" in r and r.get("f", "").startswith("/tpgen-sl")]
if [r["f"] for r in exits] != [cut(p, 12) for p in opens]:
    print("joined", [r["f"] for r in exits]); bad += 1
pre = "bprm_filename" if a != "tracepoint" else "filename"
ex = [r for r in recs if r.get("event") == "sched/sched_process_exec"]
if len(ex) != 1:
    print("exec records", ex); bad += 1
else:
    for n in (8, 33):
        if ex[0]["%s_%d" % (pre, n)] != cut(long, n):
            print("exec", n, ex[0]["%s_%d" % (pre, n)]); bad += 1
    if ex[0][pre] != cut(long, 256):
        print("exec", pre, len(ex[0][pre])); bad += 1
print("ok" if not bad else "bad", a)
sys.exit(1 if bad else 0)
PY
done
