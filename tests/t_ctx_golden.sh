#!/bin/bash
# Golden: the committed fixture tree (every odd case of a format file) gives
# the committed header, byte for byte, twice; the header compiles everywhere.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
fx=tests/fixtures/events
gold=tests/golden/fixtures.ctx.h

mkdir -p "$T/1" "$T/2"
"$TPGEN" headers --tracefs $fx -o "$T/1/a.h" || fail "tpgen headers failed"
"$TPGEN" headers --tracefs $fx -o "$T/2/a.h" || fail "tpgen headers failed (2nd run)"
cmp "$T/1/a.h" "$T/2/a.h" || fail "two runs differ"
cp "$T/1/a.h" "$T/a.h"
"$TPGEN" headers --tracefs $fx > "$T/stdout.h" || fail "tpgen headers to stdout failed"
if [ "${TPGEN_UPDATE_GOLDEN:-0}" = 1 ]; then
	cp "$T/stdout.h" "$gold"
	echo "updated $gold"
fi
diff -u "$gold" "$T/stdout.h" || fail "header differs from $gold (TPGEN_UPDATE_GOLDEN=1 to accept)"

# -o FILE only changes the include guard
diff <(sed 's/__A_H/__TPGEN_CTX_H/' "$T/a.h") "$T/stdout.h" >/dev/null || fail "-o output differs beyond the guard"

# every odd case is there
for want in 'char prev_comm\[16\];.*char\[TASK_COMM_LEN\], 8' \
	    'void \*pcpu;' 'struct iocb \*\*iocbpp;' 'const char \*const \*argv;' \
	    '__u32 dev;.*dev_t' '__u64 ino;.*xfs_ino_t' '__u64 ctx_id;.*aio_context_t' \
	    '__u32 dir;.*enum dma_data_direction' 'char buf\[\];' '__u64 args\[\];' \
	    '__u32 __data_loc_name;' '__u32 __rel_loc_rel;' '__u8 saddr\[16\];' \
	    '__u8 __pad_17\[7\];' '} __attribute__((packed));' 'struct other__sched_switch_ctx {' \
	    '^/\* ftrace/print \*/$' 'dynamic_ctx__read_addrs(const struct dynamic_ctx \*ctx, __u64 \*dst'; do
	grep -q -- "$want" "$gold" || fail "golden header lacks: $want"
done

printf '#include "%s"\n' "$T/a.h" > "$T/alone.c"
printf '#include "%s"\n#include "%s"\n' "$(vmlinux_h)" "$T/a.h" > "$T/after.c"
printf '#include "%s"\n#include "%s"\n' "$T/a.h" "$(vmlinux_h)" > "$T/before.c"
printf '#include <linux/types.h>\n#include "%s"\n' "$T/a.h" > "$T/types.c"
for c in alone after before; do
	clang $BPF_CFLAGS -c "$T/$c.c" -o /dev/null || fail "clang -target bpf: $c"
done
for c in alone types; do
	gcc -Wall -Wextra -Werror -c "$T/$c.c" -o /dev/null || fail "gcc: $c"
	clang -Wall -Wextra -Werror -c "$T/$c.c" -o /dev/null || fail "clang host: $c"
done
"$TPGEN" headers --tracefs $fx -o /dev/null && [ -c /dev/null ] || fail "-o /dev/null replaced the device"
echo "golden header: $(grep -c '^struct .* {' "$gold") structs, identical across runs, compiles"
