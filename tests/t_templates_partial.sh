#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Partial templates: a '{{> NAME}}' line of a template is template NAME, rendered
# with the same variables ({{#if}} blocks inside it work) and nested up to 4
# deep. The loader is split into them (templates/loader_*.c); a partial in
# --templates DIR replaces the built-in one and is named in the depfile. An
# unknown partial, a cycle, nesting too deep and a name with a '/' are each one
# error at the template's line, and nothing is written.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
clang -g -O2 -target bpf -c tests/spec/btf/sched.c -o "$T/sched.btf.o" || fail "compiling tests/spec/btf/sched.c"

gen() { "$TPGEN" --tracefs tests/spec/events --btf "$T/sched.btf.o" -o "$1" specs/sched.yaml "${@:2}"; }
gen "$T/a" || fail "tpgen specs/sched.yaml"
L=schedsnoop/schedsnoop.c

# the loader of the golden pair is made of partials
for p in templates/loader_*.c; do
	grep -q "^{{> $(basename "$p")}}$" templates/loader.c || fail "templates/loader.c does not include $p"
done
grep -q '^static int check_layout' "$T/a/$L" || fail "the layout partial is not in the loader"

# a partial from --templates DIR replaces the built-in one; the other files stay
mkdir "$T/t1"
printf '/* layout of {{TOOL}} */\n' > "$T/t1/loader_layout.c"
gen "$T/b" --templates "$T/t1" -M "$T/b.d" || fail "--templates with a partial failed"
grep -q '^/\* layout of schedsnoop \*/$' "$T/b/$L" || fail "the partial from --templates DIR is not used"
grep -q 'check_layout(const' "$T/b/$L" && fail "the built-in partial is still used"
cmp -s "$T/a/schedsnoop/schedsnoop.bpf.c" "$T/b/schedsnoop/schedsnoop.bpf.c" || fail "a partial changed the .bpf.c"
grep -q "$T/t1/loader_layout.c" "$T/b.d" || fail "the depfile does not name the overriding partial"

# nested partials, variables and {{#if}} inside them
mkdir "$T/t2"
printf 'top\n{{> p1.c}}\nend\n' > "$T/t2/loader.c"
printf '{{#if RINGBUF}}\nring {{TOOL}}\n{{/if}}\n{{#if !RINGBUF}}\nno ring\n{{/if}}\n\t{{> p2.c}}\n' > "$T/t2/p1.c"
printf 'p2 {{SKEL}}\n{{> p3.c}}\n' > "$T/t2/p2.c"
printf '{{> p4.c}}\n' > "$T/t2/p3.c"
printf 'p4\n' > "$T/t2/p4.c"
gen "$T/c" --templates "$T/t2" || fail "nested partials failed"
[ "$(cat "$T/c/$L")" = "$(printf 'top\nring schedsnoop\np2 schedsnoop_bpf\np4\nend')" ] ||
	fail "nested partials rendered as: $(cat "$T/c/$L")"

# errors: located at the line of the template that names the partial; nothing written
bad() {	# DIR WANT: tpgen fails with WANT on stderr and writes nothing
	rm -rf "$T/o"
	gen "$T/o" --templates "$1" 2>"$T/err" && fail "accepted: $2"
	[ "$(grep -c error: "$T/err")" = 1 ] || fail "not one error for '$2': $(cat "$T/err")"
	grep -qF -- "$2" "$T/err" || fail "want '$2', got: $(cat "$T/err")"
	[ -e "$T/o/schedsnoop" ] && fail "output written despite '$2'"
	return 0
}
mkdir "$T/e1"
printf 'x\n{{> no_such.c}}\n' > "$T/e1/loader.c"
bad "$T/e1" "loader.c:2: error: unknown partial {{> no_such.c}}"
mkdir "$T/e2"
printf '{{> cyc_a.c}}\n' > "$T/e2/loader.c"
printf 'a\n{{> cyc_b.c}}\n' > "$T/e2/cyc_a.c"
printf '\n\n{{> cyc_a.c}}\n' > "$T/e2/cyc_b.c"
bad "$T/e2" "cyc_b.c:3: error: partial {{> cyc_a.c}} includes itself"
mkdir "$T/e3"
printf '{{> loader.c}}\n' > "$T/e3/loader.c"
bad "$T/e3" "loader.c:1: error: partial {{> loader.c}} includes itself"
mkdir "$T/e4"
printf '{{> d1.c}}\n' > "$T/e4/loader.c"
for i in 1 2 3 4; do printf '{{> d%d.c}}\n' $((i + 1)) > "$T/e4/d$i.c"; done
printf 'deep\n' > "$T/e4/d5.c"
bad "$T/e4" "d4.c:1: error: partial {{> d5.c}} nested more than 4 deep"
mkdir "$T/e5"
printf '{{> ../loader.c}}\n' > "$T/e5/loader.c"
bad "$T/e5" "loader.c:1: error: bad partial in template"
exit 0
