#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Output no traced process can forge: processes running as nobody
# (tests/hostile/forge.py) put every byte but NUL and '/', C1 controls,
# invalid and valid UTF-8 (café), escape sequences and forged lines in their
# comm (prctl PR_SET_NAME), in the paths they open and in the names of the
# programs they exec, while the root loaders of specs/opensnoop.yaml (text
# and -j), specs/execsnoop.yaml and specs/offcputime.yaml (-f, ustack) run.
# tests/hostile/check.py checks, against an escaping oracle written from
# Python's UTF-8 codec, that each loader stays up, that its text is valid
# UTF-8 with no control character but the newline, one line per record with
# each string escaped as docs/output.md says, that each JSON line parses and
# its strings read back (surrogateescape) to the bytes the process used, and
# that every folded line is one sample.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
id nobody >/dev/null 2>&1 || skip "no user 'nobody'"
command -v setpriv >/dev/null || skip "no setpriv"

out=$T/out
for t in opensnoop execsnoop offcputime; do
	"$TPGEN" "specs/$t.yaml" -o "$out" || fail "tpgen specs/$t.yaml"
	make -s -C "$out/$t" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $t"; }
done

W=$(mktemp -d /tmp/tpgen-hostile.XXXXXX)
chmod 755 "$W"
cp tests/hostile/forge.py tests/hostile/check.py "$W/"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
# run as nobody, in no directory of ours
as_nobody() { (cd / && setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 "$W/forge.py" "$@"); }

# loader NAME TOOL ARGS...: runs out/TOOL/TOOL ARGS into $T/NAME.out until it has attached
loader() {
	local name=$1 tool=$2 i
	shift 2
	"$out/$tool/$tool" "$@" >"$T/$name.out" 2>"$T/$name.err" &
	pids+=($!)
	eval "pid_$name=$!"
	for i in $(seq 100); do
		grep -q '^Tracing' "$T/$name.err" && return 0
		sleep 0.1
	done
	cat "$T/$name.err"
	fail "$name did not attach in 10s"
}
# finish NAME: still running after the tricks, and ends cleanly on SIGINT
finish() {
	local p
	eval "p=\$pid_$1"
	kill -0 "$p" 2>/dev/null || { cat "$T/$1.err"; fail "$1 died under the tricks"; }
	kill -INT "$p"
	wait "$p" || { cat "$T/$1.err"; fail "$1 exited $? after SIGINT"; }
}

# symlinks to /bin/true named after each payload, for execsnoop's comm
python3 - "$W/x" <<'PY' || fail "making symlinks"
import os, sys
sys.path.insert(0, os.path.dirname(sys.argv[1]))
from forge import payloads
os.mkdir(sys.argv[1])
for i, p in enumerate(payloads()):
    os.symlink(b'/bin/true', os.fsencode(sys.argv[1]) + b'/%d-' % i + p)
PY
chmod 755 "$W/x"

forged=$'f;x 99999999\n-;k'
loader open opensnoop
loader open_json opensnoop -j
loader exec execsnoop
loader folded offcputime -f
mark="$W/H"
as_nobody open "$mark" || fail "forge.py open"
as_nobody exec "$W/x" || fail "forge.py exec"
as_nobody sleep "$forged" || fail "forge.py sleep"
sleep 0.5
for n in open open_json exec folded; do finish $n; done

python3 "$W/check.py" opensnoop "$T/open.out" "$mark" || fail "opensnoop text"
python3 "$W/check.py" json "$T/open_json.out" path "$mark" || fail "opensnoop -j"
python3 "$W/check.py" json "$T/open_json.out" comm "$mark" || fail "opensnoop -j (comm)"
python3 "$W/check.py" execsnoop "$T/exec.out" || fail "execsnoop text"
python3 "$W/check.py" folded "$T/folded.out" "$forged" || fail "offcputime -f"
echo "PASS: $(python3 "$W/forge.py" payloads x | wc -l) payloads in comms, paths and exec'd names: one line per record, escaped"
