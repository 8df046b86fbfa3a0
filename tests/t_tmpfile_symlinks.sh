#!/bin/bash
# An unprivileged user who can write to the output's directory plants
# symlinks -- at every temp name the next few thousand pids would give
# (PATH.tmp.<pid>), at the output itself (to a root-only file, and to a FIFO
# root's tpgen would write through), at a spec's tool directory (to a root-only
# directory) -- in a world-writable directory, sticky and not. Root's tpgen
# (headers -o, -M, a spec's pair) then touches nothing outside its outputs:
# the root-only files keep their content and mtime, the FIFO receives nothing,
# the outputs are regular files owned by root, and no temp file is left.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (to run tpgen as root against another user)"
id nobody >/dev/null 2>&1 || skip "no user 'nobody'"
as_nobody() { setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- "$@"; }
T=$(mktemp -d /tmp/tpgen-symlinks.XXXXXX)	# reachable for nobody, unlike TPGEN_TMP
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
fix=$TPGEN_ROOT/tests/fixtures/events
spec=$T/spec.yaml
printf 'tool: t\nevents:\n  - event: sched/sched_switch\n    count: [next_comm]\n' > "$spec"
chmod 644 "$spec"

for mode in 0777 1777; do
	w=$T/shared-$mode
	mkdir -p "$w" "$T/victim-$mode"
	chmod "$mode" "$w"
	secret=$T/secret-$mode
	printf 'root only\n' > "$secret"
	chmod 600 "$secret"
	touch -d '2001-01-01' "$secret"
	victim=$T/victim-$mode
	chmod 700 "$victim"
	printf 'keep\n' > "$victim/file"
	rm -f "$T/fifo" && mkfifo -m 600 "$T/fifo"
	( exec 3<>"$T/fifo"; timeout 30 cat <&3 > "$T/fifo.got" ) &
	reader=$!
	last=$(cat /proc/sys/kernel/ns_last_pid)
	as_nobody /usr/bin/python3 - "$w" "$secret" "$victim" "$T/fifo" "$last" <<'PY' || fail "planting failed"
import os, sys
w, secret, victim, fifo, last = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
for pid in range(last, last + 4000):
    for out in ("ctx.h", "ctx.d", "pipe.h"):
        os.symlink(secret, "%s/%s.tmp.%d" % (w, out, pid))
os.symlink(secret, w + "/ctx.h")	# the output itself
os.symlink(fifo, w + "/pipe.h")		# written through by the old code
os.symlink(victim, w + "/t")		# a spec's tool directory
PY
	before_secret=$(stat -c '%s %Y %a %U' "$secret") before_victim=$(find "$victim" -printf '%p %y %s %T@\n' | sort)
	"$TPGEN" headers --tracefs "$fix" -o "$w/ctx.h" -M "$w/ctx.d" 'sched/*' ||
		fail "$mode: headers -o into the shared directory failed"
	"$TPGEN" headers --tracefs "$fix" -o "$w/pipe.h" 'sched/*' || fail "$mode: headers -o pipe.h failed"
	"$TPGEN" --tracefs "$fix" -o "$w" "$spec" 2>"$T/gen.err" &&
		fail "$mode: a spec's tool directory that is a planted symlink was written"
	grep -q "$w/t: error: cannot write: it exists and is not a directory" "$T/gen.err" ||
		fail "$mode: $(cat "$T/gen.err")"
	sleep 0.2
	kill "$reader" 2>/dev/null; wait "$reader" 2>/dev/null
	[ "$(stat -c '%s %Y %a %U' "$secret")" = "$before_secret" ] || fail "$mode: the root-only file changed"
	[ "$(cat "$secret")" = "root only" ] || fail "$mode: the root-only file was overwritten"
	[ "$(find "$victim" -printf '%p %y %s %T@\n' | sort)" = "$before_victim" ] || fail "$mode: the root-only directory changed"
	[ -s "$T/fifo.got" ] && fail "$mode: tpgen wrote through a planted symlink into a FIFO"
	for f in ctx.h ctx.d pipe.h; do
		[ -f "$w/$f" ] && [ ! -L "$w/$f" ] || fail "$mode: $f is not a regular file"
		[ "$(stat -c %U "$w/$f")" = root ] || fail "$mode: $f is not root's"
	done
	grep -q 'struct sched_switch_ctx {' "$w/ctx.h" || fail "$mode: ctx.h is not the header"
	left=$(find "$w" -name '.*' ! -name . | head -n 3)
	[ -z "$left" ] || fail "$mode: temp files left: $left"
	echo "ok: $mode: planted symlinks followed by nobody"
done

# -o /dev/stdout with stdout a file: written through the symlink, which stays
# (in a private /dev: a tpgen that renamed over it would break the machine's)
out=$(unshare -m sh -c "mount -t tmpfs none /dev && ln -s /proc/self/fd/1 /dev/stdout &&
	'$TPGEN' headers --tracefs '$fix' -o /dev/stdout 'sched/*' > '$T/stdout.h' &&
	test -L /dev/stdout && echo still-a-symlink" 2>&1)
[ "$out" = still-a-symlink ] || fail "-o /dev/stdout: $out"
grep -q 'struct sched_switch_ctx {' "$T/stdout.h" || fail "-o /dev/stdout > file: the header is not in the file"
"$TPGEN" headers --tracefs "$fix" -o /dev/stdout 'sched/*' | grep -q 'struct sched_switch_ctx {' ||
	fail "-o /dev/stdout into a pipe"
echo "ok: -o /dev/stdout writes through, to a file or a pipe"
