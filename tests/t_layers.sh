#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# gen/ is a pipeline, one folder per stage (lib -> input -> model -> emit -> out
# -> cmd), and tests/layers/check_layers.py holds it to its rules, from the
# sources' #include lines and the objects' symbols: a stage includes and calls
# only the stages before it (input sees the model's types, calls none of it);
# only input and out read files, only out writes them; emitters never sort
# nor read the spec;
# the model and emitters call no input file that reads; no call cycle between
# files. First the checker is shown to catch each kind of breach in a small
# tree made here, then it runs on gen/ and the objects of this build.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
check=tests/layers/check_layers.py
[ -s build/lib/util.o ] || make --no-print-directory -s tpgen || fail "make tpgen"

# a tree that breaks one rule per case: the checker must name it
mk() {	# NAME: an empty gen/ and build/ under $T/NAME
	rm -rf "$T/$1"
	mkdir -p "$T/$1/gen"/{lib,input,model,emit,out,cmd} "$T/$1/build"/{lib,input,model,emit,out,cmd}
}
cc_all() {	# NAME: compile every gen/*/*.c of the tree
	for c in "$T/$1"/gen/*/*.c; do
		s=$(basename "$(dirname "$c")")
		cc -c -I"$T/$1/gen" "$c" -o "$T/$1/build/$s/$(basename "$c" .c).o" || fail "compiling $c"
	done
}
expect() {	# NAME WANT: the checker fails on tree NAME, saying WANT
	python3 "$check" "$T/$1/gen" "$T/$1/build" > "$T/$1.out" 2>&1 &&
		fail "$1: the checker passed a tree that breaks a rule"
	grep -qF -- "$2" "$T/$1.out" || fail "$1: want '$2', got: $(cat "$T/$1.out")"
	return 0
}

mk cycle
printf 'int b(void);\nint a(void) { return b(); }\n' > "$T/cycle/gen/model/a.c"
printf 'int a(void);\nint b(void) { return a(); }\n' > "$T/cycle/gen/model/b.c"
cc_all cycle
expect cycle "call cycle: a.c -> b.c (b), b.c -> a.c (a)"

mk back
printf 'void emit_x(void) {}\n' > "$T/back/gen/emit/x.c"
printf 'void emit_x(void);\nvoid resolve(void) { emit_x(); }\n' > "$T/back/gen/model/m.c"
cc_all back
expect back "calls $T/back/gen/emit/x.c (emit_x): model may not call emit"

mk inc
printf '#include "out/o.h"\nint x;\n' > "$T/inc/gen/input/i.c"
printf '/* o */\n' > "$T/inc/gen/out/o.h"
printf '#include "o.h"\nint y;\n' > "$T/inc/gen/out/p.c"
cc_all inc
expect inc "i.c:1: includes \"out/o.h\": input may not include out"
expect inc "p.c:1: includes \"o.h\": name the stage"

mk io
printf '#include <stdio.h>\nvoid e(void) { fopen("x", "r"); }\n' > "$T/io/gen/emit/e.c"
printf '#include <stdio.h>\nvoid m(const char *p) { rename(p, "y"); }\n' > "$T/io/gen/input/w.c"
printf '#include <stdio.h>\nvoid r(void) { fopen("x", "r"); }\n' > "$T/io/gen/input/r.c"
printf 'void r(void);\nvoid m2(void) { r(); }\n' > "$T/io/gen/model/m.c"
cc_all io
expect io "e.c: reads files (fopen): only input, out may"
expect io "w.c: writes files (rename): only out may"
expect io "calls $T/io/gen/input/r.c (r): model may not call input files that read"

mk sort
printf '#include <stdlib.h>\nstatic int c(const void *a, const void *b) { return a < b; }\nvoid s(int *v) { qsort(v, 2, sizeof(*v), c); }\n' > "$T/sort/gen/emit/s.c"
cc_all sort
expect sort "s.c: sorts (qsort): emitters walk the model's order"

mk spec
printf 'struct prog { struct spec *spec; };\nconst void *e(const struct prog *p) { return p->spec; }\n' > "$T/spec/gen/emit/e.c"
cc_all spec
expect spec "e.c:2: reads the spec: emitters print the model"

mk flat
printf 'int z;\n' > "$T/flat/gen/z.c"
expect flat "z.c: outside the stage folders"

# a clean tree passes
mk clean
printf 'int u(void) { return 1; }\n' > "$T/clean/gen/lib/u.c"
printf 'int u(void);\nint i(void) { return u(); }\n' > "$T/clean/gen/input/i.c"
printf 'int i(void);\nint m(void) { return i(); }\n' > "$T/clean/gen/model/m.c"
cc_all clean
python3 "$check" "$T/clean/gen" "$T/clean/build" || fail "the checker refused a clean tree"

# gen/ itself
python3 "$check" gen build --graph > "$T/gen.out" 2>&1
rc=$?
cat "$T/gen.out"
[ $rc = 0 ] || fail "gen/ breaks the pipeline's rules (above)"
grep -q '^files [0-9]*, edges [0-9]*, cycles 0$' "$T/gen.out" || fail "no call graph summary"
exit 0
