#!/bin/bash
# What tpgen reads, and what it says when it cannot:
# - only the events a command needs are read: a bad format file elsewhere does
#   not stop headers, list or a spec for other events; selecting it is an error;
# - the errors of many bad format files come out in event order, the same on
#   every run (the reader is threaded);
# - a bad format file is an input error (exit 1) through 'tpgen SPEC' as
#   through 'tpgen headers';
# - as a user who may not read tracefs: "permission denied", exit 3, not "empty";
# - with no tracefs at all: one error, exit 3, said once.
. "$(dirname "$0")/lib.sh"
cd "$T"
fmt() {	# fmt DIR SIZE-OF-INT-x
	mkdir -p "$1"
	printf 'name: e\nID: 1\nformat:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\tfield:int x;\toffset:8;\tsize:%s;\tsigned:1;\n\nprint fmt: ""\n' "$2" > "$1/format"
}
cp -r "$TPGEN_ROOT/tests/spec/events" events
fmt events/broken/ev 2
printf 'tool: t\nevents:\n  - event: sched/sched_switch\n    count: [next_comm]\n' > t.yaml
"$TPGEN" headers --tracefs events -o ctx.h 'sched/*' || fail "a bad format file elsewhere stopped headers"
"$TPGEN" list --tracefs events sched > /dev/null || fail "a bad format file elsewhere stopped list"
"$TPGEN" --tracefs events -o out t.yaml || fail "a bad format file elsewhere stopped a spec"
"$TPGEN" headers --tracefs events -o all.h 2> all.err && fail "every event selected: the bad one was accepted"
[ "$(cat all.err)" = "events/broken/ev/format:5: error: field 'x' of type 'int' has size 2, but 'int' is 4 bytes" ] ||
	fail "not the one error: $(cat all.err)"
[ -e all.h ] && fail "a failed run wrote all.h"
echo "ok: only what a command needs is read"

# exit status of a bad format file: 1 both ways
printf 'tool: b\nevents:\n  - event: broken/ev\n    count: [x]\n' > b.yaml
"$TPGEN" --tracefs events -o out b.yaml 2>/dev/null; r1=$?
"$TPGEN" headers --tracefs events broken/ev >/dev/null 2>&1; r2=$?
[ $r1 = 1 ] && [ $r2 = 1 ] || fail "a bad format file: exit $r1 through a spec, $r2 through headers (want 1, 1)"
echo "ok: a bad format file is exit 1 through a spec and through headers"

# many bad files, threaded reader: one order, every run
rm -rf many && mkdir many
for s in $(seq -w 1 12); do for e in a b c d e f g h; do fmt many/s$s/$e 2; done; done
"$TPGEN" headers --tracefs many 2> first.err >/dev/null && fail "bad tree accepted"
[ "$(wc -l < first.err)" = 96 ] || fail "want 96 errors, got $(wc -l < first.err)"
sort -c first.err || fail "errors not in event order"
for i in $(seq 10); do
	"$TPGEN" headers --tracefs many 2> again.err >/dev/null
	cmp -s first.err again.err || fail "run $i: errors in another order: $(diff first.err again.err | head -4)"
done
echo "ok: 96 errors in event order, 11 runs alike"

if [ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing ]; then
	b=$(mktemp -d /tmp/tpgen-inputs.XXXXXX)
	trap 'rm -rf "$b"' EXIT
	cp "$TPGEN" "$b/tpgen" && chmod 755 "$b" "$b/tpgen"
	if [ "$(stat -c %a /sys/kernel/tracing)" = 700 ]; then
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- "$b/tpgen" headers sched/sched_switch \
			> /dev/null 2> nobody.err
		r=$?
		[ $r = 3 ] || fail "non-root: exit $r, want 3"
		grep -qx "tpgen: error: cannot read /sys/kernel/tracing/events: permission denied; run as root, or pass --tracefs DIR (a copy made by 'tpgen snapshot')" nobody.err ||
			fail "non-root: $(cat nobody.err)"
		echo "ok: as nobody, permission denied (exit 3)"
	fi
	# no tracefs at all, and none can be mounted (nothing at /sys/kernel)
	unshare -m sh -c "mount -t tmpfs -o ro none /sys/kernel && '$b/tpgen' -o '$T/o' '$T/t.yaml'" \
		> /dev/null 2> none.err
	r=$?
	[ $r = 3 ] || fail "no tracefs: exit $r, want 3: $(cat none.err)"
	[ "$(wc -l < none.err)" = 1 ] || fail "no tracefs: said $(wc -l < none.err) times: $(cat none.err)"
	grep -q '^tpgen: error: no tracefs: ' none.err || fail "no tracefs: $(cat none.err)"
	echo "ok: no tracefs: one error, exit 3"
else
	skip "the live part needs root and /sys/kernel/tracing"
fi
