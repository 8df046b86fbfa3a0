#!/bin/bash
# Headers for projects:
#  - two context headers that share an event combine in one file, and with raw
#    headers that share a tracepoint, for bpf and the host, -Werror (per-struct
#    include guards; typedefs and helpers guarded or repeatable);
#  - a header whose struct of the same name has another layout does not compile
#    beside the first, and the error names the field (the asserts of each
#    header check the struct whichever header defined it);
#  - a BPF program that reads the common header does not compile, and says why;
#    host code reads it through the same struct (ctx->ent.pid).
. "$(dirname "$0")/lib.sh"
require_live
cd "$T"
fx=$TPGEN_ROOT/tests/fixtures/events

"$TPGEN" headers --tracefs "$fx" 'sched/*' odd/dynamic -o a.h || fail "tpgen headers a.h failed"
"$TPGEN" headers --tracefs "$fx" sched/sched_process_exec 'ftrace/*' -o b.h || fail "tpgen headers b.h failed"
"$TPGEN" headers sched -o live_sched.h || fail "tpgen headers sched failed"
"$TPGEN" headers -o live_all.h || fail "tpgen headers (all) failed"
"$TPGEN" headers --raw sched_switch sched_process_exec -o raw_a.h || fail "tpgen headers --raw a failed"
"$TPGEN" headers --raw 'sched_*' -o raw_b.h || fail "tpgen headers --raw b failed"

cat > both.bpf.c <<'EOF'
#include "a.h"
#include "b.h"
#include "a.h"

__attribute__((section("tp/sched/sched_process_exec"), used))
int on_exec(struct sched_process_exec_ctx *ctx)
{
	char a[64], b[64];

	sched_process_exec_ctx__read_filename(ctx, a, sizeof(a));
	sched_process_exec_ctx__read_filename(ctx, b, sizeof(b));
	return ctx->pid + a[1] + b[1] + sched_process_exec_ctx__len_filename(ctx);
}
char LICENSE[] __attribute__((section("license"), used)) = "GPL";
EOF
clang $BPF_CFLAGS -c both.bpf.c -o both.bpf.o || fail "two ctx headers sharing sched_process_exec: clang -target bpf"
gcc -Wall -Wextra -Werror -fsyntax-only -include a.h -include b.h -x c /dev/null ||
	fail "two ctx headers sharing sched_process_exec: gcc"
echo "ok   two ctx headers that share an event, in one file (bpf, host)"

printf '#include "%s"\n' live_all.h live_sched.h raw_a.h raw_b.h live_sched.h raw_a.h > live.c
clang $BPF_CFLAGS -c live.c -o /dev/null || fail "whole-kernel and sched ctx headers, two raw headers: clang -target bpf"
printf '#include "%s"\n' "$(vmlinux_h)" > live_vm.c
cat live.c >> live_vm.c
clang $BPF_CFLAGS -c live_vm.c -o /dev/null || fail "the same after vmlinux.h: clang -target bpf"
gcc -Wall -Wextra -Werror -fsyntax-only live.c || fail "whole-kernel and sched ctx headers, two raw headers: gcc"
echo "ok   the whole-kernel ctx header with a sched one and two raw headers that share tracepoints (bpf, host)"

# another layout under the same name: pid and old_pid trade places
mkdir -p doctored/sched
cp -r "$fx/sched/sched_process_exec" doctored/sched/
sed -i -e "s/\(pid_t pid;\toffset:\)12/\116/" -e "s/\(pid_t old_pid;\toffset:\)16/\112/" \
	doctored/sched/sched_process_exec/format
grep -q 'pid_t pid;.offset:16' doctored/sched/sched_process_exec/format ||
	{ cat doctored/sched/sched_process_exec/format; fail "the doctored format did not change"; }
"$TPGEN" headers --tracefs doctored -o c.h || fail "tpgen headers (doctored) failed"
printf '#include "a.h"\n#include "c.h"\n' > conflict.c
clang $BPF_CFLAGS -c conflict.c -o /dev/null 2> conflict.err && fail "two layouts of sched_process_exec_ctx compiled"
grep -q 'static_assert failed.*sched_process_exec_ctx, pid) == 16' conflict.err ||
	{ cat conflict.err; fail "the conflict's error does not name the field"; }
echo "ok   a second layout under the same struct name does not compile: $(grep -m1 -o "'__builtin_offsetof.*'" conflict.err)"

# the common header: a compile error in BPF, the layout on the host
cat > common.bpf.c <<'EOF'
#include "a.h"
__attribute__((section("tp/sched/sched_switch"), used))
int on_switch(struct sched_switch_ctx *ctx)
{
	return ctx->ent.pid;
}
EOF
clang $BPF_CFLAGS -c common.bpf.c -o /dev/null 2> common.err && fail "a BPF read of ctx->ent.pid compiled"
grep -q "error: 'ent' is unavailable: BPF programs cannot read the common header (ctx offsets below 8): use bpf_get_current_pid_tgid() for the pid" \
	common.err || { cat common.err; fail "reading the common header: not the expected error"; }
cat > common_host.c <<'EOF'
#include <stdio.h>
#include <string.h>
#include "a.h"

int main(void)
{
	/* a record as perf or trace_pipe_raw hands it over: pid at 4, prev_pid at 24 */
	unsigned char rec[sizeof(struct sched_switch_ctx)] = {};
	struct sched_switch_ctx ctx;
	__s32 pid = 4242, prev = 77;

	memcpy(rec + 4, &pid, 4);
	memcpy(rec + 24, &prev, 4);
	memcpy(&ctx, rec, sizeof(ctx));
	printf("%d %d %zu\n", ctx.ent.pid, ctx.prev_pid, sizeof(ctx.ent));
	return 0;
}
EOF
gcc -Wall -Wextra -Werror common_host.c -o common_host || fail "host code reading ctx->ent.pid does not compile"
[ "$(./common_host)" = "4242 77 8" ] || fail "host code reads '$(./common_host)', not '4242 77 8'"
echo "ok   BPF: $(grep -o "error: 'ent' is unavailable" common.err); host: ctx.ent.pid reads the record's pid"
