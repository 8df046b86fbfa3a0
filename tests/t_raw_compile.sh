#!/bin/bash
# Raw args, whole kernel: both headers (standalone, --vmlinux-h) compile with
# -Wall -Wextra -Werror for bpfel and bpfeb (their static asserts check every
# member's slot for that byte order) and the standalone one on the host, alone,
# with vmlinux.h or <linux/types.h> before or after it. Every TP_BTF_<tp>
# macro expands into a program that builds. Output is the same bytes twice.
. "$(dirname "$0")/lib.sh"
require_live
cd "$T"
W="-Wall -Wextra -Werror"
asm_inc=/usr/include/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
cp "$(vmlinux_h)" vmlinux.h

"$TPGEN" headers --raw -o sa.h || fail "headers --raw failed"
"$TPGEN" headers --raw --vmlinux-h -o vm.h || fail "headers --raw --vmlinux-h failed"
"$TPGEN" headers --raw -o sa2.h && cmp -s sa.h sa2.h || fail "two runs differ"
grep -q '^#include' sa.h && fail "the standalone header includes something"

cc_bpf() {	# cc_bpf TARGET FILE [FLAGS]: syntax and asserts for one BPF target
	clang -target "$1" $W -std=gnu11 -I. -idirafter "$asm_inc" -fsyntax-only "$2" ||
		fail "clang -target $1: $2 ($(head -c 200 "$2" | tr '\n' ' '))"
}

printf '#include "sa.h"\n' > sa_alone.c
printf '#include "vmlinux.h"\n#include "sa.h"\n' > sa_after_vmlinux.c
printf '#include "sa.h"\n#include "vmlinux.h"\n' > sa_before_vmlinux.c
printf '#include <linux/types.h>\n#include "sa.h"\n' > sa_after_types.c
printf '#include "sa.h"\n#include <linux/types.h>\n' > sa_before_types.c
printf '#include "vmlinux.h"\n#include "vm.h"\n' > vm_after_vmlinux.c
printf '#include "vmlinux.h"\n#include "vm.h"\n#include "sa.h"\n' > vm_and_sa.c
for target in bpfel bpfeb; do
	for f in sa_alone sa_after_vmlinux sa_before_vmlinux sa_after_types sa_before_types \
		 vm_after_vmlinux vm_and_sa; do
		cc_bpf $target $f.c
	done
	echo "$target: standalone and vmlinux.h headers compile, every offset asserted"
done
for f in sa_alone sa_after_types sa_before_types; do
	gcc $W -std=gnu11 -I. -c $f.c -o $f.o || fail "host gcc: $f"
	clang $W -std=gnu11 -I. -c $f.c -o $f.o || fail "host clang: $f"
done
echo "host gcc and clang: standalone header compiles alone and with <linux/types.h>"

# the vmlinux.h flavour says what it needs
printf '#include "vm.h"\n' > vm_alone.c
clang -target bpfel -fsyntax-only vm_alone.c 2>&1 | grep -q 'include vmlinux.h before this header' ||
	fail "--vmlinux-h header without vmlinux.h: no clear error"

# every TP_BTF_<tp> macro, in both flavours, for both byte orders (codegen: -O2 -c)
for h in sa vm; do
	{
		echo '#include "vmlinux.h"'
		echo "#include \"$h.h\""
		sed -n 's/^#define TP_BTF_\([A-Za-z0-9_]*\)(__tpgen_fn).*/int TP_BTF_\1(p_\1) { return 0; }/p' $h.h
	} > macros_$h.c
	n=$(grep -c '^int TP_BTF_' macros_$h.c)
	[ "$n" -ge 100 ] || fail "only $n TP_BTF_ macros in $h.h"
	for target in bpfel bpfeb; do
		clang -target $target -O2 $W -I. -c macros_$h.c -o macros_$h.$target.o ||
			fail "TP_BTF_ macros of $h.h do not build for $target"
	done
	echo "$h.h: $n TP_BTF_<tp> programs build for bpfel and bpfeb"
done
