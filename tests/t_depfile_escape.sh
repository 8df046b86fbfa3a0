#!/bin/bash
# Depfiles and make: input paths with every character make treats specially
# (space, '#', '$', ':', '%', '*', '?', '[') are escaped so that make reads back
# exactly those files: nothing rebuilds when nothing changed, touching any one
# input reruns tpgen. A tracefs tree with a system directory named like make
# syntax (newline, tab, a command) cannot run that command through a makefile
# that includes the depfile (as specs/build/tpgen.mk does), on 'make' or
# 'make clean': the name is refused where it is read, or never read.
. "$(dirname "$0")/lib.sh"
cd "$T"
odd='ev dir#1$x:y%z*?[a]'
cp -r "$TPGEN_ROOT/tests/fixtures/events" "$odd"
mkdir -p 'out dir%'
in_recipe=${odd//\$/\$\$}	# make expands '$' in recipes too
cat > Makefile <<MK
all: out\ dir%/ctx.h
out\ dir%/ctx.h:
	"$TPGEN" headers --tracefs '$in_recipe' -o 'out dir%/ctx.h' -M 'out dir%/ctx.d' 'sched/*'
	@echo ran >> ran.log
clean:
	rm -f 'out dir%/ctx.h'
-include out\ dir%/ctx.d
MK
make -s || fail "first make failed"
[ -f 'out dir%/ctx.h' ] || fail "no header"
[ "$(wc -l < ran.log)" = 1 ] || fail "tpgen did not run exactly once"
grep -qF 'out\ dir\%/ctx.h:' 'out dir%/ctx.d' || fail "target not escaped: $(head -n 1 'out dir%/ctx.d')"
grep -qF '  ev\ dir\#1$$x\:y%z\*\?\[a]/sched/sched_switch/format' 'out dir%/ctx.d' ||
	fail "prerequisite not escaped: $(cat 'out dir%/ctx.d')"
make -s && [ "$(wc -l < ran.log)" = 1 ] || fail "make reran tpgen with nothing touched"
make -q || fail "make -q: out of date with nothing touched"
for f in sched/sched_switch/format sched/sched_process_exec/format; do
	sleep 1.1
	touch "$odd/$f"
	make -q && fail "touching '$odd/$f' did not make the header out of date"
	before=$(wc -l < ran.log)
	make -s || fail "make after touching $f failed"
	[ "$(wc -l < ran.log)" = $((before + 1)) ] || fail "touching $f did not rerun tpgen"
done
# an input removed: the -MP rule keeps make going
rm -rf "$odd/sched/sched_process_exec"
make -s 2>err.txt; grep -q 'No rule to make target' err.txt && fail "a removed input breaks make (no -MP rule)"
echo "ok: escaped names read back by make"

# a tree with a system directory named like make syntax, for the tpgen.mk way of working
fmt() {
	mkdir -p "$1"
	printf 'name: e\nID: 1\nformat:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n\nprint fmt: ""\n' > "$1/format"
}
mkdir k
fmt k/events/sched/sched_switch
fmt k/events/$'x:\n\ttouch PWNED\nclean:\n\ttouch PWNED2\n#'/e
fmt k/events/'$(shell touch PWNED3)'/e
printf '6.1.0\n' > k/release
cat > k.mk <<MK
all: .output/tp_ctx.h
.output/tp_ctx.h:
	mkdir -p .output
	"$TPGEN" headers --kernel k -o \$@ -M \$@.d \$(TPGEN_EVENTS)
clean:
	rm -rf .output
-include .output/tp_ctx.h.d
MK
for events in 'sched/sched_switch' ''; do
	rm -rf .output
	make -s -f k.mk TPGEN_EVENTS="$events" 2>err.txt
	rc=$?
	make -s -f k.mk clean TPGEN_EVENTS="$events" >/dev/null 2>&1
	make -s -f k.mk TPGEN_EVENTS="$events" >/dev/null 2>&1
	[ -e PWNED ] || [ -e PWNED2 ] || [ -e PWNED3 ] && fail "a command planted in a directory name ran"
	if [ -n "$events" ]; then
		[ $rc = 0 ] || fail "an unselected odd directory broke the build: $(cat err.txt)"
		grep -q 'touch\|shell' .output/tp_ctx.h.d && fail "the depfile names an unselected directory"
	else
		[ $rc != 0 ] || fail "every event selected: the odd names were accepted"
		grep -qF "is not a tracefs name" err.txt || fail "no refusal: $(cat err.txt)"
		[ -e .output/tp_ctx.h.d ] && fail "a depfile was written for a refused input"
	fi
done
echo "ok: a directory named like make syntax runs nothing"
