#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The same spec as attach: tracepoint, raw_tp and tp_btf, running together,
# reports the same values for the same events.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live

kinds=(tracepoint raw_tp tp_btf)
for k in "${kinds[@]}"; do
	sed -e "s/^attach: tracepoint/attach: $k/" -e "s/^tool: attach_tp/tool: attach_$k/" \
		tests/spec/attach.yaml > "$T/$k.yaml"
	"$TPGEN" -o "$T/out" "$T/$k.yaml" || fail "tpgen attach: $k"
	grep -q "SEC(\"${k/tracepoint/tp}/" "$T/out/attach_$k/attach_$k.bpf.c" || fail "$k: no $k program"
	make -s -C "$T/out/attach_$k" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 ||
		{ cat "$T/build.log"; fail "build attach_$k"; }
done

pids=()
for k in "${kinds[@]}"; do
	"$T/out/attach_$k/attach_$k" -j >"$T/$k.out" 2>"$T/$k.err" &
	pids+=($!)
done
for k in "${kinds[@]}"; do
	for i in $(seq 100); do
		grep -q '^Tracing' "$T/$k.err" && break
		sleep 0.1
	done
	grep -q '^Tracing' "$T/$k.err" || { cat "$T/$k.err"; fail "attach_$k did not start"; }
done

for i in 1 2 3; do
	cp /bin/true "$T/tpgen-attach-$i"
	"$T/tpgen-attach-$i"
done
bash -c 'echo $$ > "$1"; printf tpgenatt > /proc/self/comm; for i in $(seq 20); do sleep 0.01; done' _ "$T/att.pid"
sleep 0.5
kill -INT "${pids[@]}"
for p in "${pids[@]}"; do
	wait "$p" || fail "a tool failed after SIGINT"
done

# records without the time: pid, old_pid, filename; counts as they are
for k in "${kinds[@]}"; do
	sed -e 's/"time":"[^"]*",//' "$T/$k.out" | sort > "$T/$k.norm"
	grep -c '"event":"sched/sched_process_exec"' "$T/$k.norm" | grep -qx 3 ||
		{ cat "$T/$k.norm"; fail "$k: want 3 exec records"; }
	grep -q '"counts":"sched/sched_switch","next_comm":"tpgenatt","next_pid":[0-9]*,"count":[1-9]' "$T/$k.norm" ||
		{ cat "$T/$k.norm"; fail "$k: no switch count for tpgenatt"; }
	grep -q "\"counts\":\"sched/sched_switch\",\"pid\":$(cat "$T/att.pid"),\"comm\":\"tpgenatt\",\"count\":[1-9]" "$T/$k.norm" ||
		{ cat "$T/$k.norm"; fail "$k: no switch-out count for tpgenatt's pid"; }
done
diff -u "$T/tracepoint.norm" "$T/raw_tp.norm" || fail "raw_tp reports other values than tracepoint"
diff -u "$T/tracepoint.norm" "$T/tp_btf.norm" || fail "tp_btf reports other values than tracepoint"
echo "ok: $(wc -l < "$T/tracepoint.norm") identical lines from each attach type"
