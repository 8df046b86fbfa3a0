#!/bin/bash
# Spec expressions are C's: a differential test of tpgen's parser, checker
# (types, constant folding) and printer against the host C compiler.
# tests/exprc/exprc_gen.c generates EXPRC_COUNT random expressions (seed
# EXPRC_SEED) over __u8..__s64 values and literals (decimal, hex, octal, with
# suffixes) with every operator; what tpgen accepts is compiled as written
# (C's answer) and as tpgen prints it (-Wall -Wextra -Werror, gcc and clang,
# and clang -target bpf), both run on random values (-fwrapv: signed overflow
# wraps, as in BPF; shift counts and divisors are generated in range), and
# values, sizeof and signedness must agree. Deterministic for a seed.
# tpgen-timeout: 300
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
SEED=${EXPRC_SEED:-20261125}
COUNT=${EXPRC_COUNT:-3000}
ROUNDS=${EXPRC_ROUNDS:-200}
echo "seed $SEED, $COUNT expressions, $ROUNDS values each (EXPRC_SEED, EXPRC_COUNT, EXPRC_ROUNDS)"
CC=${CC:-cc}

# shellcheck disable=SC2046
$CC -g -O1 -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -D_GNU_SOURCE -Igen \
	tests/exprc/exprc_gen.c $(cat tests/fuzz/fuzz_expr.srcs) -lbpf -o "$T/exprc_gen" ||
	fail "building the generator failed"
"$T/exprc_gen" "$SEED" "$COUNT" "$T"
gen_rc=$?
[ $gen_rc = 0 ] || [ $gen_rc = 3 ] || fail "the generator failed"
cp tests/exprc/exprc_rt.h "$T/"
# tpgen.h's signed division, as the generated programs have it
{
	echo '#define __tpgen_always_inline inline __attribute__((always_inline))'
	sed -n '/^static __tpgen_always_inline __s64 tpgen_s\(div\|mod\)(/,/^}/p' bpf/tpgen.h
} > "$T/tpgen_div.h"
grep -q tpgen_smod "$T/tpgen_div.h" || fail "tpgen_sdiv/tpgen_smod not found in bpf/tpgen.h"

# C's answer: the expressions as written (warnings are C's business here)
if ! $CC -std=gnu11 -O1 -fwrapv -w -c "$T/written.c" -o "$T/written.o" 2>"$T/written.err"; then
	line=$(grep -m1 -o 'written\.c:[0-9]*' "$T/written.err" | cut -d: -f2)
	grep -m1 error "$T/written.err" >&2
	[ -n "$line" ] && sed -n "${line}p" "$T/written.c" >&2
	fail "tpgen accepted an expression that C does not compile (seed $SEED)"
fi
# tpgen's C: no warning, with either compiler, and for BPF
first_error() {
	grep -m1 -A3 'error' "$1" >&2
	line=$(grep -m1 -o 'emitted\.c:[0-9]*' "$1" | cut -d: -f2)
	[ -n "$line" ] && sed -n "${line}p" "$T/emitted.c" >&2
}
if ! $CC -std=gnu11 -O1 -fwrapv -Wall -Wextra -Werror -c "$T/emitted.c" -o "$T/emitted.o" 2>"$T/cc.err"; then
	first_error "$T/cc.err"
	fail "tpgen's C does not compile with $CC -Wall -Wextra -Werror"
fi
if command -v clang >/dev/null; then
	if ! clang -std=gnu11 -O1 -fwrapv -Wall -Wextra -Werror -c "$T/emitted.c" -o "$T/emitted_clang.o" 2>"$T/clang.err"; then
		first_error "$T/clang.err"
		fail "tpgen's C does not compile with clang -Wall -Wextra -Werror"
	fi
	# a sample for BPF (its first 300 functions)
	awk '/^void e300\(/ { exit } { print }' "$T/emitted.c" > "$T/emitted_bpf.c"
	if ! clang -target bpf -O2 -Wall -Wextra -Werror -c "$T/emitted_bpf.c" -o "$T/emitted.bpf.o" 2>"$T/bpf.err"; then
		first_error "$T/bpf.err"
		fail "tpgen's C does not compile with clang -target bpf -Wall -Wextra -Werror"
	fi
fi
$CC -std=gnu11 -O1 -c "$T/table.c" -o "$T/table.o" || fail "table.c"
$CC -std=gnu11 -O1 -Wall -Wextra -Werror -Itests/exprc tests/exprc/exprc_main.c "$T/table.o" "$T/written.o" \
	"$T/emitted.o" -o "$T/exprc" || fail "linking the test failed"
"$T/exprc" "$ROUNDS" || fail "tpgen and C disagree (seed $SEED)"
[ $gen_rc = 3 ] && fail "tpgen accepted '--' or '++' (C's decrement or increment)"
exit 0
