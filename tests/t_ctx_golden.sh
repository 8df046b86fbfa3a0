#!/bin/bash
# Golden: the committed fixture tree (every odd case of a format file) gives
# the committed header, byte for byte, twice; the header compiles everywhere.
# A second tree has fields named like the accessors of others ('x', 'x_len',
# 'read_x', 'get_x', ...): its header compiles with every accessor usable. A
# field named like the member of a __data_loc field is refused, located.
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
	    '^/\* ftrace/print \*/$' '^#define dynamic_ctx__read_addrs(ctx, dst, max)' \
	    '^__TPGEN_FIELD(sched__sched_switch_ctx, prev_comm, 8, 16);$' '^__TPGEN_OFFSET(sched__sched_switch_ctx, prev_pid, 24);$' '^__TPGEN_SIZE(packed_ctx, 24);$' \
	    '^struct tpgen_trace_entry {$' '^	struct tpgen_trace_entry ent __tpgen_no_bpf;' \
	    '^__TPGEN_FIELD(tpgen_trace_entry, pid, 4, 4);$' \
	    '^#ifndef __TPGEN_CTX_sched__sched_switch_ctx$'; do
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

# the layout asserts catch a header the compiler lays out otherwise: a member
# moved (its offset, __TPGEN_OFFSET), an array one short (its size, though
# the next member's offset is the same: __TPGEN_FIELD)
sed '/^\t__s32 prev_pid;/d; s/^\t__s32 prev_prio;.*/&\n\t__s32 prev_pid;/' "$T/stdout.h" > "$T/moved.h"
sed 's/^\tchar prev_comm\[16\];/\tchar prev_comm[15];/' "$T/stdout.h" > "$T/short.h"
for h in moved short; do
	cmp -s "$T/stdout.h" "$T/$h.h" && fail "the $h header is not doctored"
	printf '#include "%s"\n' "$T/$h.h" > "$T/$h.c"
	clang $BPF_CFLAGS -c "$T/$h.c" -o /dev/null 2> "$T/$h.err" &&
		fail "the $h header compiled"
	grep -q "static assertion failed\|static_assert" "$T/$h.err" || fail "$h: $(head -3 "$T/$h.err")"
done

# accessor names never clash: <struct>__get_, __len_, __read_ + the field's name
acc=tests/fixtures/accessors
agold=tests/golden/accessors.ctx.h
"$TPGEN" headers --tracefs $acc > "$T/acc.h" || fail "tpgen headers (accessors tree) failed"
if [ "${TPGEN_UPDATE_GOLDEN:-0}" = 1 ]; then
	cp "$T/acc.h" "$agold"
	echo "updated $agold"
fi
diff -u "$agold" "$T/acc.h" || fail "header differs from $agold (TPGEN_UPDATE_GOLDEN=1 to accept)"
cat > "$T/acc.c" <<EOF
#include "$T/acc.h"
struct k { char s[32]; };
__attribute__((section("tp/odd/accessors"), used))
int f(struct accessors_ctx *ctx)
{
	struct k a, b, c, d, e;
	__u32 v[4];
	long n = ctx->len_len_x;

	n += accessors_ctx__read_x(ctx, a.s, sizeof(a.s)) + accessors_ctx__len_x(ctx) + *accessors_ctx__get_x(ctx);
	n += accessors_ctx__read_x_len(ctx, b.s, sizeof(b.s)) + accessors_ctx__len_x_len(ctx) +
	     *accessors_ctx__get_x_len(ctx);
	n += accessors_ctx__read_read_x(ctx, c.s, sizeof(c.s)) + accessors_ctx__len_read_x(ctx) +
	     *accessors_ctx__get_read_x(ctx);
	n += accessors_ctx__read_get_x(ctx, d.s, sizeof(d.s));
	n += accessors_ctx__read_len_x(ctx, v, 4) + accessors_ctx__len_len_x(ctx) + *accessors_ctx__get_len_x(ctx);
	n += accessors_ctx__read_get_read_x(ctx, e.s, sizeof(e.s)) + accessors_ctx__len_get_read_x(ctx) +
	     *accessors_ctx__get_get_read_x(ctx);
	return n + a.s[1] + b.s[1] + c.s[1] + d.s[1] + e.s[1] + v[1];
}
EOF
clang $BPF_CFLAGS -c "$T/acc.c" -o "$T/acc.o" || fail "clang -target bpf: a program using every accessor"
printf '#include "%s"\n' "$T/acc.h" > "$T/acc-host.c"
gcc -Wall -Wextra -Werror -c "$T/acc-host.c" -o /dev/null || fail "gcc: accessors header"

# a field named like the member that holds a __data_loc field: one located error
mkdir -p "$T/clash/odd/clash"
cat > "$T/clash/odd/clash/format" <<EOF
name: clash
ID: 9101
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:__data_loc char[] x;	offset:8;	size:4;	signed:0;
	field:int __data_loc_x;	offset:12;	size:4;	signed:1;

print fmt: "x=%s", __get_str(x)
EOF
"$TPGEN" headers --tracefs "$T/clash" -o "$T/clash.h" 2> "$T/clash.err"; rc=$?
[ $rc = 1 ] || fail "a member-name clash exits $rc, not 1"
[ ! -e "$T/clash.h" ] || fail "a header was written despite the clash"
grep -qx "$T/clash/odd/clash/format:10: error: field '__data_loc_x' has the name of the member that holds __data_loc field 'x'" \
	"$T/clash.err" || { cat "$T/clash.err"; fail "no located diagnostic for the clash"; }
echo "golden header: $(grep -c '^struct .* {' "$gold") structs, identical across runs, compiles"

# a field named 'ent' beside the common header (the kernel's structs could not have it): located
sed -e 's/name: clash/name: ent/' -e 's/__data_loc char\[\] x;/int ent;/' -e '/__data_loc_x/d' \
	"$T/clash/odd/clash/format" > "$T/ent.format"
mkdir -p "$T/ent/odd/ent" && mv "$T/ent.format" "$T/ent/odd/ent/format"
"$TPGEN" headers --tracefs "$T/ent" -o "$T/ent.h" 2> "$T/ent.err"; rc=$?
[ $rc = 1 ] && [ ! -e "$T/ent.h" ] || fail "a field named 'ent': exit $rc, or a header written"
grep -qx "$T/ent/odd/ent/format:9: error: field 'ent' has the name of a member tpgen makes (the common header)" \
	"$T/ent.err" || { cat "$T/ent.err"; fail "no located diagnostic for a field named 'ent'"; }
