#!/bin/bash
# The header for every event of the live kernel, and the one from a snapshot of
# it, compile with clang -target bpf and the host compilers, alone and with
# vmlinux.h in either order, -Wall -Wextra -Werror; and they are identical.
. "$(dirname "$0")/lib.sh"
require_live
cd "$TPGEN_ROOT"

"$TPGEN" headers -o "$T/all.h" || fail "tpgen headers (live) failed"
n=$(grep -c '^struct .*_ctx {' "$T/all.h")
want=$(ls -d /sys/kernel/tracing/events/*/*/ | while read -r d; do [ -e "$d/format" ] && echo; done | wc -l)
[ "$n" -eq "$want" ] || fail "$n structs for $want events"
[ "$n" -gt 1000 ] || fail "only $n events"

"$TPGEN" snapshot "$T/snap" || fail "tpgen snapshot failed"
mkdir -p "$T/s" "$T/k"
"$TPGEN" headers --tracefs "$T/snap/events" -o "$T/s/all.h" || fail "headers from snapshot failed"
cmp "$T/s/all.h" "$T/all.h" || fail "snapshot header differs from live header"
"$TPGEN" headers --kernel "$T/snap" -o "$T/k/all.h" || fail "headers --kernel failed"
cmp "$T/k/all.h" "$T/all.h" || fail "--kernel header differs from live header"
sed 's/__ALL_H/__SNAP_H/' "$T/s/all.h" > "$T/snap.h"

vm=$(vmlinux_h)
for h in all snap; do
	printf '#include "%s"\n' "$T/$h.h" > "$T/$h-alone.c"
	printf '#include "%s"\n#include "%s"\n' "$vm" "$T/$h.h" > "$T/$h-after.c"
	printf '#include "%s"\n#include "%s"\n' "$T/$h.h" "$vm" > "$T/$h-before.c"
done
for c in all-alone all-after all-before snap-alone; do
	clang $BPF_CFLAGS -c "$T/$c.c" -o /dev/null || fail "clang -target bpf: $c"
done
gcc -Wall -Wextra -Werror -c "$T/all-alone.c" -o /dev/null || fail "gcc: all events"
gcc -Wall -Wextra -Werror -c "$T/snap-alone.c" -o /dev/null || fail "gcc: snapshot"
echo "$n events: live and snapshot headers identical, compile for bpf and host, alone and with vmlinux.h"
