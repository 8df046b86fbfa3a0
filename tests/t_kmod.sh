#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Module tracepoints: a snapshot holding a module's BTF (DIR/btf/<module>,
# split on DIR/vmlinux, written by tests/kmod/mkmodbtf.c with libbpf as the
# kernel writes /sys/kernel/btf/<module>) and the module's event. This
# machine has no loadable modules, so the module is crafted.
# - headers --raw gives the module's struct, names and module type included,
#   and it compiles for bpf with and without vmlinux.h (--vmlinux-h too: no
#   module type is in vmlinux.h);
# - list shows the event with its raw tracepoint, and --json names the module;
# - a hostile module name or file: one located error, exit 1.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1

[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF at /sys/kernel/btf/vmlinux"
cc -O2 -Wall -Werror -o "$T/mkmodbtf" tests/kmod/mkmodbtf.c -lbpf || fail "build mkmodbtf"
k=$T/k
mkdir -p "$k/btf" "$k/events/tpgen_mod/tpgen_mod_submit"
cat /sys/kernel/btf/vmlinux > "$k/vmlinux"
echo 6.18.0-test > "$k/release"
"$T/mkmodbtf" "$k/vmlinux" "$k/btf/tpgen_mod" || fail "mkmodbtf"
cat > "$k/events/tpgen_mod/tpgen_mod_submit/format" <<'EOT'
name: tpgen_mod_submit
ID: 9999
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:int id;	offset:8;	size:4;	signed:1;
	field:unsigned int len;	offset:12;	size:4;	signed:0;
	field:unsigned int flags;	offset:16;	size:4;	signed:0;

print fmt: "id=%d len=%u flags=%u", REC->id, REC->len, REC->flags
EOT

# raw header: the module's struct, named from its __bpf_trace_ class
"$TPGEN" headers --raw --kernel "$k" 'tpgen_mod*' -o "$T/mod.h" -M "$T/mod.d" || fail "headers --raw with a module"
grep -q '^/\* tpgen_mod_submit: 3 arguments, names from __bpf_trace_tpgen_mod_class() in BTF of module tpgen_mod \*/' "$T/mod.h" ||
	{ cat "$T/mod.h"; fail "no struct for the module's tracepoint"; }
grep -A4 '^struct tpgen_mod_submit_raw_args {' "$T/mod.h" > "$T/struct"
cat > "$T/want" <<'EOT'
struct tpgen_mod_submit_raw_args {
	struct tpgen_mod_req *req __attribute__((aligned(8)));
	struct task_struct *task __attribute__((aligned(8)));
	__TPGEN_RAW_SLOT(2, 4, __u32 flags);		/* unsigned int */
};
EOT
diff -u "$T/want" "$T/struct" || fail "the module's struct"
grep -q '^struct tpgen_mod_req;$' "$T/mod.h" || fail "the module's struct is not declared"
grep -q "$k/btf/tpgen_mod" "$T/mod.d" || fail "the depfile does not name the module's BTF"
"$TPGEN" headers --raw --kernel "$k" 'tpgen_mod*' -o "$T/mod.h" --check || fail "--check: stale after a rerun"

# it compiles, alone and after vmlinux.h; --vmlinux-h after vmlinux.h
vmlinux_h >/dev/null
cp "$(vmlinux_h)" "$T/vmlinux.h"
"$TPGEN" headers --raw --vmlinux-h --kernel "$k" 'tpgen_mod*' -o "$T/modv.h" || fail "headers --raw --vmlinux-h"
grep -q '^struct tpgen_mod_req;$' "$T/modv.h" || fail "--vmlinux-h: the module's struct is not declared"
cat > "$T/prog.c" <<'EOT'
#ifdef WITH_VMLINUX
#include "vmlinux.h"
#else
#include <linux/types.h>
#endif
#include <bpf/bpf_helpers.h>
#include RAW_H

SEC("raw_tp/tpgen_mod_submit")
int on_submit(__u64 *ctx)
{
	struct tpgen_mod_submit_raw_args *args = (void *)ctx;

	bpf_printk("req %p flags %u", args->req, args->flags);
	return 0;
}

SEC("tp_btf/tpgen_mod_submit")
int TP_BTF_tpgen_mod_submit(on_submit_btf)
{
	bpf_printk("req %p task %p flags %u", req, task, flags);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
EOT
asm_inc=/usr/include/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
for v in "" -DWITH_VMLINUX; do
	clang $BPF_CFLAGS -idirafter "$asm_inc" $v -DRAW_H='"mod.h"' -I"$T" -c "$T/prog.c" -o "$T/prog.o" ||
		fail "the module's raw header does not compile for bpf ($v)"
done
clang $BPF_CFLAGS -DWITH_VMLINUX -DRAW_H='"modv.h"' -I"$T" -c "$T/prog.c" -o "$T/prog.o" ||
	fail "the --vmlinux-h module header does not compile after vmlinux.h"

# list: the module's event has its raw tracepoint, JSON names the module
"$TPGEN" list --kernel "$k" tpgen_mod/tpgen_mod_submit > "$T/list" || fail "list with a module"
grep -q 'raw_tp/tp_btf tpgen_mod_submit (module tpgen_mod): 3 args, names from __bpf_trace_tpgen_mod_class' "$T/list" ||
	{ cat "$T/list"; fail "list: no module tracepoint"; }
"$TPGEN" list --json --kernel "$k" tpgen_mod/tpgen_mod_submit > "$T/list.json" || fail "list --json"
python3 - "$T/list.json" <<'EOT' || fail "list --json: the module's raw tracepoint"
import json, sys
d = json.load(open(sys.argv[1]))
raw = d["events"][0]["raw"]
assert raw["name"] == "tpgen_mod_submit" and raw["module"] == "tpgen_mod", raw
assert [a["name"] for a in raw["args"]] == ["req", "task", "flags"], raw
EOT

# snapshot copies the module's BTF, and --kernel on the copy gives the same header
"$TPGEN" snapshot --kernel "$k" "$T/snap" 2>"$T/snap.err" || { cat "$T/snap.err"; fail "snapshot of a snapshot with a module"; }
cmp "$k/btf/tpgen_mod" "$T/snap/btf/tpgen_mod" || fail "snapshot: the module's BTF is not copied as it is"
"$TPGEN" headers --raw --kernel "$T/snap" 'tpgen_mod*' -o "$T/mod2.h" || fail "headers --raw from the copy"
cmp "$T/mod.h" "$T/mod2.h" || fail "the copy gives another header"

# a spec on the module's tracepoint builds (raw_tp and tp_btf), its loader checks the module
for a in raw_tp tp_btf; do
	cat > "$T/mod_$a.yaml" <<EOT
tool: mod_$a
attach: $a
events:
  - event: tpgen_mod/tpgen_mod_submit
    filter: 'flags != 0'
    print: [flags, req, task->pid]
EOT
	"$TPGEN" --kernel "$k" -o "$T/out" "$T/mod_$a.yaml" -M "$T/mod_$a.d" || fail "tpgen on the module's tracepoint ($a)"
	grep -q "$k/btf/tpgen_mod" "$T/mod_$a.d" || fail "$a: the depfile does not name the module's BTF"
	grep -q '{ "tpgen_mod/tpgen_mod_submit", NULL, "tpgen_mod_submit", "tpgen_mod" },' "$T/out/mod_$a/mod_$a.c" ||
		fail "$a: the loader does not look for the tracepoint in its module"
	make -s -C "$T/out/mod_$a" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build mod_$a"; }
done
sed -e 's/task->pid/req->len/' "$T/mod_raw_tp.yaml" > "$T/mod_member.yaml"
"$TPGEN" --kernel "$k" -o "$T/none" "$T/mod_member.yaml" 2>"$T/err" && fail "a member of a module's type: tpgen succeeded"
grep -q "mod_member.yaml:6:25: error: 'req' points to a type of module tpgen_mod: tpgen cannot read members of modules' types yet" "$T/err" ||
	{ cat "$T/err"; fail "a member of a module's type: not the located error"; }

# hostile inputs: one located error each, exit 1, nothing written
bad() {	# bad WHAT REGEX: headers --raw on $k must fail with the one error REGEX
	"$TPGEN" headers --raw --kernel "$k" 'tpgen_mod*' -o "$T/bad.h" 2>"$T/err"
	rc=$?
	[ $rc = 1 ] || { cat "$T/err"; fail "$1: exit $rc, not 1"; }
	grep -Eq "$2" "$T/err" || { cat "$T/err"; fail "$1: not the located error /$2/"; }
	[ "$(grep -c 'error:' "$T/err")" = 1 ] || { cat "$T/err"; fail "$1: more than one error"; }
	! grep -q "$(printf '\033')" "$T/err" || fail "$1: a control byte on stderr"
	[ ! -e "$T/bad.h" ] || fail "$1: a header was written"
}
mv "$k/btf/tpgen_mod" "$T/good"
cp "$T/good" "$k/btf/$(printf 'evil\033[31m')"
bad "a module name with an escape" "btf/evil\\\\e\[31m: error: module BTF 'evil\\\\x1b\[31m' is not named as a module: has a byte other than letters"
rm "$k/btf/"*
head -c 100 /dev/urandom > "$k/btf/tpgen_mod"
bad "random bytes" "btf/tpgen_mod: error: not a BTF file"
"$T/mkmodbtf" "$k/vmlinux" "$k/btf/tpgen_mod" hostile || fail "mkmodbtf hostile"
bad "a hostile struct name" "btf/tpgen_mod: error: malformed BTF: type \[[0-9]+\] STRUCT is named 'x\"\);int y;\(\"': not a C identifier"
"$T/mkmodbtf" "$k/vmlinux" "$k/btf/tpgen_mod" badref || fail "mkmodbtf badref"
bad "a reference to no type" "btf/tpgen_mod: error: (not a module's BTF on this vmlinux|malformed BTF)"
head -c 40 "$T/good" > "$k/btf/tpgen_mod"
bad "a truncated file" "btf/tpgen_mod: error: (not a module's BTF on this vmlinux|not a BTF file)"
rm "$k/btf/tpgen_mod"
mkfifo "$k/btf/tpgen_mod"
bad "a FIFO" "btf/tpgen_mod: error: .*FIFO"
rm "$k/btf/tpgen_mod"
# live: the tool says its module is not loaded (there is none here), before libbpf would fail
require_live
"$T/out/mod_raw_tp/mod_raw_tp" -d 1 2>"$T/run.err" && fail "the tool ran without its module"
grep -q "mod_raw_tp: module 'tpgen_mod' (of event 'tpgen_mod/tpgen_mod_submit') is not loaded" "$T/run.err" ||
	{ cat "$T/run.err"; fail "the tool does not say the module is not loaded"; }
echo "ok: the module's tracepoint in headers --raw (both modes, compiled), list and JSON; 6 hostile inputs refused"
