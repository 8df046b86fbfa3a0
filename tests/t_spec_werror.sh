#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The generated pair builds with -Wall -Wextra -Werror and no -Wno-* (issue
# 21): tests/spec/werror.yaml has handlers that read nothing of their record
# (an unused 'ctx' under each attach type), a program whose first entry reads
# nothing and a later one does, a print (the ring buffer callback's unused
# 'ctx'), a glob (bpf_loop()'s unused index), and the loader's signal handler.
# The Makefile's flags are replaced, so a -Wno-* in it cannot hide a warning;
# the tool then loads and runs.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
"$TPGEN" tests/spec/werror.yaml -o "$out" || fail "tpgen tests/spec/werror.yaml"
! grep -n -- '-Wno-' "$out/werror/Makefile" || fail "the generated Makefile turns a warning off"
make -s -C "$out/werror" CFLAGS="-g -O2 -Wall -Wextra -Werror" BPF_CFLAGS="$BPF_CFLAGS" \
	>"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build with -Wall -Wextra -Werror"; }
start werror
sleep 0.5
stop werror
expect werror '"target":' "sched_wakeup record"
echo ok
