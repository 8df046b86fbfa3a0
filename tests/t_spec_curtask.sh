#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# curtask, the current task's struct task_struct *, under each attach type
# (tracepoint, raw_tp, tp_btf) and in each use (print, filter, key): the
# parent's comm and tgid are the test's shell's, the mount namespace id is
# what stat(1) says of /proc/self/ns/mnt (another one under 'unshare -m'),
# the uid is nobody's under setpriv.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
command -v unshare >/dev/null && command -v setpriv >/dev/null || skip "no unshare/setpriv (util-linux)"

shcomm=tpgct$$
shcomm=${shcomm:0:15}
kinds=(tracepoint raw_tp tp_btf)
for k in "${kinds[@]}"; do
	cat > "$T/ct_$k.yaml" <<-YAML
	tool: ct_$k
	attach: $k
	events:
	  # print
	  - event: sched/sched_process_exec
	    filter: 'filename ~ "/tmp/tpgen-ct.*"'
	    print: [pid, parent: curtask->real_parent->comm, ptgid: curtask->real_parent->tgid,
	            mntns: curtask->nsproxy->mnt_ns->ns.inum, uid: curtask->cred->uid.val, euid: CURTASK->cred->euid.val]
	  # filter
	  - event: sched/sched_process_exec
	    filter: 'curtask->real_parent->comm == "$shcomm" && curtask->cred->uid.val == 65534'
	    print: [nobody: pid]
	  # key
	  - event: sched/sched_process_exec
	    filter: 'filename ~ "/tmp/tpgen-ct.*"'
	    count: [curtask->real_parent->comm, curtask->nsproxy->mnt_ns->ns.inum, curtask->cred->uid.val]
	YAML
	"$TPGEN" -o "$T/out" "$T/ct_$k.yaml" || fail "tpgen ct_$k"
	make -s -C "$T/out/ct_$k" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 ||
		{ cat "$T/build.log"; fail "build ct_$k"; }
done
# tp_btf loads the members (a trusted pointer); the others read with CO-RE
grep -q 'struct task_struct \*curtask = bpf_get_current_task_btf();' "$T/out/ct_tp_btf/ct_tp_btf.bpf.c" ||
	fail "tp_btf: curtask is not bpf_get_current_task_btf()"
grep -q 'curtask->cred->uid.val' "$T/out/ct_tp_btf/ct_tp_btf.bpf.c" || fail "tp_btf: no direct load"
for k in tracepoint raw_tp; do
	grep -q 'struct task_struct \*curtask = (void \*)bpf_get_current_task();' "$T/out/ct_$k/ct_$k.bpf.c" ||
		fail "$k: curtask is not bpf_get_current_task()"
	grep -q 'BPF_CORE_READ(curtask, cred, uid.val)' "$T/out/ct_$k/ct_$k.bpf.c" || fail "$k: no CO-RE read"
done

pids=()
for k in "${kinds[@]}"; do
	"$T/out/ct_$k/ct_$k" -j >"$T/$k.out" 2>"$T/$k.err" &
	pids+=($!)
done
for k in "${kinds[@]}"; do
	for i in $(seq 100); do
		grep -q '^Tracing' "$T/$k.err" && break
		sleep 0.1
	done
	grep -q '^Tracing' "$T/$k.err" || { cat "$T/$k.err"; fail "ct_$k did not start"; }
done

# nobody runs it: a directory it can reach (the test's is root's alone)
D=$(mktemp -d /tmp/tpgen-ct.XXXXXX) && chmod 755 "$D" || fail "mktemp"
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$D"' EXIT
cp /bin/true "$D/tpgen-ct-x" && cp "$(command -v stat)" "$D/tpgen-ct-stat" || fail "cp"
host_ns=$(stat -L -c %i /proc/self/ns/mnt)
# the shell: its comm and pid; its children: two runs, one in a new mount
# namespace (stat says which), one as nobody
bash -c 'printf %s "$2" > /proc/self/comm; echo "$(< /proc/$$/comm)" > "$3/sh.comm"; echo $$ > "$3/sh.pid"
	"$1/tpgen-ct-x"; "$1/tpgen-ct-x"
	unshare -m "$1/tpgen-ct-stat" -L -c %i /proc/self/ns/mnt > "$3/new.ns" & echo $! > "$3/new.pid"; wait
	setpriv --reuid=65534 --regid=65534 --clear-groups "$1/tpgen-ct-x" & echo $! > "$3/nobody.pid"; wait' \
	_ "$D" "$shcomm" "$T"
sleep 0.5
kill -INT "${pids[@]}"
for p in "${pids[@]}"; do
	wait "$p" || fail "a tool failed after SIGINT"
done

comm=$(cat "$T/sh.comm") shpid=$(cat "$T/sh.pid") new_ns=$(cat "$T/new.ns")
newpid=$(cat "$T/new.pid") nobody=$(cat "$T/nobody.pid")
[ "$comm" = "$shcomm" ] || fail "the shell's comm is '$comm', not '$shcomm'"
[ "$new_ns" != "$host_ns" ] || fail "unshare -m kept mount namespace $host_ns"
for k in "${kinds[@]}"; do
	o="$T/$k.out"
	# print: four execs of tpgen-ct-x, each with the shell as parent
	n=$(grep -c "\"parent\":\"$comm\",\"ptgid\":$shpid," "$o")
	[ "$n" = 4 ] || { cat "$o"; fail "$k: $n records with parent $comm ($shpid), want 4"; }
	n=$(grep -c "\"parent\":\"$comm\",\"ptgid\":$shpid,\"mntns\":$host_ns,\"uid\":0,\"euid\":0}" "$o")
	[ "$n" = 2 ] || { cat "$o"; fail "$k: $n root records in mount namespace $host_ns, want 2"; }
	grep -q "\"pid\":$newpid,\"parent\":\"$comm\",\"ptgid\":$shpid,\"mntns\":$new_ns,\"uid\":0,\"euid\":0}" "$o" ||
		{ cat "$o"; fail "$k: no record of pid $newpid in mount namespace $new_ns"; }
	grep -q "\"pid\":$nobody,\"parent\":\"$comm\",\"ptgid\":$shpid,\"mntns\":$host_ns,\"uid\":65534,\"euid\":65534}" "$o" ||
		{ cat "$o"; fail "$k: no record of nobody's pid $nobody with uid 65534"; }
	# filter: setpriv's exec of tpgen-ct-x (setpriv itself was exec'd as root)
	n=$(grep -c '"nobody":' "$o")
	[ "$n" = 1 ] && grep -q "\"nobody\":$nobody}" "$o" ||
		{ cat "$o"; fail "$k: the filter on curtask let $n records through, want nobody's ($nobody)"; }
	# key
	grep -q "\"curtask_real_parent_comm\":\"$comm\",\"curtask_nsproxy_mnt_ns_ns_inum\":$host_ns,\"curtask_cred_uid_val\":0,\"count\":2}" "$o" ||
		{ cat "$o"; fail "$k: no count 2 of the shell's children in $host_ns as root"; }
	grep -q "\"curtask_real_parent_comm\":\"$comm\",\"curtask_nsproxy_mnt_ns_ns_inum\":$new_ns,\"curtask_cred_uid_val\":0,\"count\":1}" "$o" ||
		{ cat "$o"; fail "$k: no count 1 in $new_ns"; }
	grep -q "\"curtask_real_parent_comm\":\"$comm\",\"curtask_nsproxy_mnt_ns_ns_inum\":$host_ns,\"curtask_cred_uid_val\":65534,\"count\":1}" "$o" ||
		{ cat "$o"; fail "$k: no count 1 for nobody"; }
done

# errors: located, one, nothing written
bad() {	# bad EXPR MESSAGE-REGEX
	printf 'tool: ct_bad\nevents:\n  - event: sched/sched_process_exec\n    print: [%s]\n' "$1" > "$T/bad.yaml"
	! "$TPGEN" -o "$T/badout" "$T/bad.yaml" 2>"$T/bad.err" || fail "tpgen accepted '$1'"
	grep -Eq "^$T/bad.yaml:4:[0-9]+: error: $2" "$T/bad.err" || { cat "$T/bad.err"; fail "'$1': wrong error"; }
	[ ! -e "$T/badout/ct_bad" ] || fail "'$1': output written"
}
bad 'curtask' "'curtask' is the current task's struct task_struct \*: read a member of it"
bad 'curtask->nosuch' "struct task_struct has no member 'nosuch'"
bad 'curtask.pid' "'curtask' is a pointer: read its members with '->'"
bad 'curtask->comm->x' "'comm' is not a pointer to a struct"
echo "ok: curtask under ${kinds[*]}: parent $comm ($shpid), mount namespaces $host_ns and $new_ns, nobody $nobody"
