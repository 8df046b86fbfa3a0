#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Member paths (tests/spec/paths.yaml): '->' through pointers, '.' into
# embedded structs, '[N]' into arrays, casts to a struct of the kernel's BTF,
# under tp_btf, raw_tp and tracepoint (a 'const void *' field cast). The
# pair builds with -Werror and loads; live, a fork shows its parent's tgid
# through child->real_parent->tgid, uid 0 through child->cred->uid.val,
# 'b' of "bash" through child->comm[0] and the child's own tgid through a
# cast, ((struct task_struct *)child)->group_leader->tgid; a loopback TCP
# connection shows family 2 (AF_INET) through sk->__sk_common.skc_family
# and its port through skc_num. nanosleep's rqtp->tv_nsec (struct __kernel_timespec) is read
# from the caller's memory (tests/spec/usermem.yaml). Bad paths are located
# errors.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1

# bad paths: one located error each (the live kernel's BTF)
bad() {	# bad EXPR MESSAGE
	printf 'tool: bad\nevents:\n  - event: sched/sched_process_fork\n    attach: raw_tp\n    print: ['"'"'%s'"'"']\n' "$1" \
		>"$T/bad.yaml"
	"$TPGEN" "$T/bad.yaml" -o "$T/badout" 2>"$T/bad.err" && fail "'$1' was accepted"
	grep -qF "error: $2" "$T/bad.err" && grep -q "bad.yaml:5:[0-9]*: error: " "$T/bad.err" ||
		{ cat "$T/bad.err"; fail "'$1': want '$2' at line 5"; }
	[ "$(grep -c error: "$T/bad.err")" = 1 ] || fail "'$1': more than one error"
	[ -e "$T/badout" ] && fail "'$1': files written"
	return 0
}
bad 'child->comm[16]' "'comm' has 16 elements: [16] is past its end"
bad 'child->pid[0]' "'pid' is not an array: '[0]' does not apply"
bad 'child->real_parent.pid' "'real_parent' is not a struct or union: cannot read '.pid' of it (a pointer: use '->')"
bad 'child->cred->uid->val' "'uid' is not a pointer to a struct: cannot read 'val' through it"
bad '((struct no_such_struct *)child)->x' "the kernel's BTF has no struct no_such_struct"
bad '((struct task_struct *)child)->no_such' "struct task_struct has no member 'no_such'"
bad '((struct task_struct *)child)' "expected a member after '((struct task_struct *)child)': '->name'"
bad '(struct task_struct *)child' "a cast is written '((struct task_struct *)name)->member'"

require_live
. "$(dirname "$0")/spec_lib.sh"
out=$T/out
for t in paths usermem; do
	"$TPGEN" "tests/spec/$t.yaml" -o "$out" || fail "tpgen tests/spec/$t.yaml"
	make -s -C "$out/$t" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $t"; }
done

start paths
bash -c 'echo $$ > "$1"; /bin/true & echo $! > "$2"; wait' _ "$T/bash.pid" "$T/child.pid"
python3 - "$T/port" <<'PY'
import socket, sys
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
open(sys.argv[1], "w").write(str(srv.getsockname()[1]))
cli = socket.create_connection(srv.getsockname())
conn, _ = srv.accept()
cli.close(); conn.close(); srv.close()
PY
stop paths
bp=$(cat "$T/bash.pid")
cp=$(cat "$T/child.pid")
port=$(cat "$T/port")
expect paths "\"pid\":$bp,\"ptgid\":$bp,\"uid\":0,\"c0\":98,\"cast\":$cp\}" \
	"tp_btf: the fork's parent tgid, uid and comm[0] through paths"
expect paths "\"pid\":$bp,\"raw_ptgid\":$bp,\"raw_uid\":0,\"raw_c0\":98,\"raw_cast\":$cp\}" \
	"raw_tp: the fork's parent tgid, uid and comm[0] through paths"
expect paths "\"sport\":$port,\"tp_fam\":2,\"tp_num\":$port\}" "tracepoint: AF_INET and the port through a cast"
expect paths "\"raw_fam\":2,\"raw_num\":$port\}" "raw_tp: AF_INET and the port through __sk_common"
expect paths "\"btf_fam\":2,\"btf_num\":$port\}" "tp_btf: AF_INET and the port through __sk_common"

# a user struct: nanosleep's request, read through rqtp from the caller's memory
start usermem
python3 -c 'import ctypes, os
open("/proc/self/comm", "w").write("tpgen-nsleep")
libc = ctypes.CDLL(None, use_errno=True)
ts = (ctypes.c_long * 2)(0, 1234567)
libc.nanosleep(ts, None)
libc.clock_nanosleep(1, 0, (ctypes.c_long * 2)(0, 7654321), None)'
stop usermem
expect usermem '"event":"syscalls/sys_enter_clock_nanosleep","pid":[0-9]+,"comm":"tpgen-nsleep","clock":1,"sec":0,"nsec":7654321\}' \
	"clock_nanosleep's rqtp->tv_nsec from user memory"
if [ -e /sys/kernel/tracing/events/syscalls/sys_enter_nanosleep ]; then
	# glibc's nanosleep() may be clock_nanosleep(CLOCK_REALTIME): either event shows the request
	expect usermem '"comm":"tpgen-nsleep",("clock":0,)?"sec":0,"nsec":1234567\}' "nanosleep's rqtp->tv_nsec from user memory"
fi
echo "ok: paths through pointers, embedded structs, arrays and casts; a user struct"
