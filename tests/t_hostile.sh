#!/bin/bash
# Hostile names through every emitter: every byte value and payloads such as
# '*/', '"', '\', newline, '%', ':', '$', very long names, in tracefs system,
# event and field names, type and array text, release lines, BTF tracepoint,
# struct and argument names, and the paths a depfile names; through headers,
# headers --raw, list, diff and depfiles. Each is refused with one located
# error (exit 1, nothing written) or compiles, for bpf and the host, to
# exactly the structs tpgen lists -- checked in the object's debug info and
# symbols -- and make reads the depfile back. See tests/hostile/hostile.py.
# tpgen-timeout: 900
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
command -v llvm-dwarfdump >/dev/null || fail "llvm-dwarfdump is missing (package llvm-14)"
python3 tests/hostile/hostile.py "$T/w" || fail "a hostile name got through"

# spec generation over odd names that are accepted ('.' and '-', names alike once mapped,
# a keyword): the pair builds with -Werror and attaches where the spec says
cd "$T" || fail "cd"
python3 - <<'PY'
import os
fmt = ('name: e\nID: 7\nformat:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n'
       '\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n'
       '\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n'
       '\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n\tfield:int pid;\toffset:8;\tsize:4;\tsigned:1;\n'
       '\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:0;\n'
       '\tfield:__data_loc char[] name;\toffset:28;\tsize:4;\tsigned:0;\n\nprint fmt: "x"\n')
for s, n in [('x-y', 'a.b'), ('x.y', 'a-b'), ('x_y', 'a_b'), ('s', 'int'), ('s', 'default.x')]:
    os.makedirs('sp/events/%s/%s' % (s, n))
    open('sp/events/%s/%s/format' % (s, n), 'w').write(fmt)
PY
cat > sp/odd.yaml <<'Y'
tool: odd
events:
  - event: x-y/a.b
    print: [pid, comm, name]
  - event: x.y/a-b
    count: [comm]
  - event: x_y/a_b
    hist: pid
  - event: s/int
    count: [name]
  - event: s/default.x
    print: [pid]
latency:
  - from: { event: x-y/a.b, key: pid }
    to: { event: x.y/a-b, key: pid }
Y
"$TPGEN" --tracefs sp/events -o sp/out sp/odd.yaml || fail "odd names: generation failed"
if [ -r /sys/kernel/btf/vmlinux ] && command -v bpftool >/dev/null; then
	make -s -C sp/out/odd EXTRA_CFLAGS=-Werror >/dev/null 2>sp/make.err || fail "odd names: the pair does not build: $(tail sp/make.err)"
	got=$(llvm-objdump -t sp/out/odd/.output/odd.bpf.o | awk '$3 == "F" { print $4, $6 }' | sort | tr '\n' ',')
	# one program per tracepoint: the latency's ends run in the programs of their events
	want="tp/s/default.x handle_default_x,tp/s/int handle_int,tp/x-y/a.b handle_a_b,"
	want="${want}tp/x.y/a-b handle_a_b_2,tp/x_y/a_b handle_a_b_3,"
	[ "$got" = "$want" ] || fail "odd names: programs '$got', want '$want'"
	echo "ok: a spec over odd names builds with -Werror, programs in the right sections"
else
	skip "building the generated pair needs /sys/kernel/btf/vmlinux and bpftool"
fi
