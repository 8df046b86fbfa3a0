#!/bin/bash
# make install (PREFIX, DESTDIR) puts tpgen, the BPF-side headers, tpgen.pc, the
# man pages (tpgen(1), tpgen-spec(5)) and build snippets in place; a tiny external project then regenerates
# its headers as a build step with the installed tool, via make and via CMake.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
make -s install DESTDIR="$T/dest" PREFIX=/usr >/dev/null || fail "make install DESTDIR failed"
for f in usr/bin/tpgen usr/lib/pkgconfig/tpgen.pc usr/share/man/man1/tpgen.1 usr/share/man/man5/tpgen-spec.5 \
	 usr/share/tpgen/examples/tpgen.mk usr/share/tpgen/examples/CMakeLists.txt; do
	[ -e "$T/dest/$f" ] || fail "DESTDIR install lacks $f"
done
grep -q '^prefix=/usr$' "$T/dest/usr/lib/pkgconfig/tpgen.pc" || fail "tpgen.pc prefix is not PREFIX"
if command -v man >/dev/null; then
	for m in man1/tpgen.1 man5/tpgen-spec.5; do
		w=$(MANWIDTH=80 man --warnings -l "$T/dest/usr/share/man/$m" 2>&1 >/dev/null) ||
			fail "man page $m does not render"
		[ -z "$w" ] || fail "man page $m: $w"
		grep -q '@VERSION@' "$T/dest/usr/share/man/$m" && fail "man page $m: @VERSION@ left in it"
	done
fi

P=$T/prefix
make -s install PREFIX="$P" >/dev/null || fail "make install PREFIX failed"
export PKG_CONFIG_PATH=$P/lib/pkgconfig PATH=$P/bin:$PATH
[ "$(pkg-config --modversion tpgen)" = "$(tpgen --version | cut -d' ' -f2)" ] || fail "pkg-config version != tpgen --version"
[ "$(pkg-config --variable=tpgen tpgen)" = "$P/bin/tpgen" ] || fail "pkg-config tpgen variable wrong"
pkg-config --cflags tpgen | grep -q -- "-I$P/include/tpgen" || fail "pkg-config cflags wrong"

# a user's project with the make snippet, against the fixture tree as its "kernel"
mkdir -p "$T/proj/k" && cp -r tests/fixtures/events "$T/proj/k/events"
cd "$T/proj"
cat > Makefile <<'MK'
KERNEL := k
TPGEN_RAW :=
include $(shell pkg-config --variable=datadir tpgen)/examples/tpgen.mk
prog.bpf.o: prog.bpf.c $(TPGEN_OUT)/tp_ctx.h
	clang -g -O2 -target bpf -Wall -Wextra -Werror -I$(TPGEN_OUT) -c $< -o $@
MK
cat > prog.bpf.c <<'C'
#include "tp_ctx.h"
#define SEC(n) __attribute__((section(n), used))
SEC("tp/sched/sched_switch") int on_switch(struct sched_switch_ctx *ctx) { return ctx->next_pid; }
char LICENSE[] SEC("license") = "GPL";
C
make -s prog.bpf.o >/dev/null || fail "external project (make) failed to build"
[ -f .output/tp_ctx.h.d ] || fail "no depfile in the external project"
[ -z "$(make -s prog.bpf.o)" ] || fail "second make did work"
make -s tpgen-check >/dev/null 2>&1 || fail "tpgen-check failed on fresh headers"

# the same with CMake
if command -v cmake >/dev/null; then
	mkdir -p "$T/cm" && cd "$T/cm"
	cp "$P/share/tpgen/examples/CMakeLists.txt" .
	cmake -S . -B b -DTPGEN_KERNEL="$T/proj/k" >/dev/null || fail "cmake configure failed"
	cmake --build b >/dev/null || fail "cmake build failed"
	[ -f b/tp_ctx.h ] || fail "cmake did not generate tp_ctx.h"
	echo "cmake: ok"
fi
echo "installed: $(cd "$P" && find . -type f | sort | tr '\n' ' ')"
