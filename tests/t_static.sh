#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# make STATIC=1: the generated tool is one static binary (ldd: not dynamic)
# that runs live and reports what the test caused.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live

"$TPGEN" specs/killsnoop.yaml -o "$T/out" || fail "tpgen specs/killsnoop.yaml"
make -s -C "$T/out/killsnoop" STATIC=1 EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 ||
	{ cat "$T/build.log"; fail "make STATIC=1"; }
bin=$T/out/killsnoop/killsnoop
ldd "$bin" 2>&1 | grep -q 'not a dynamic executable' || { ldd "$bin"; fail "the binary is dynamic"; }
echo "static binary: $(stat -c %s "$bin") bytes"
"$bin" -j -d 3 >"$T/out.json" 2>"$T/err" &
pid=$!
for i in $(seq 100); do grep -q '^Tracing' "$T/err" && break; sleep 0.1; done
bash -c 'echo $$ > "$1"; kill -0 $$' _ "$T/kill.pid"
wait $pid || { cat "$T/err"; fail "the static tool exited $?"; }
kp=$(cat "$T/kill.pid")
grep -q "\"pid\":$kp,\"comm\":\"bash\",\"sig\":0,\"target\":$kp,\"result\":0}" "$T/out.json" ||
	{ cat "$T/out.json"; fail "the static tool did not see kill($kp, 0)"; }
echo "ok: static killsnoop saw kill($kp, 0)"
