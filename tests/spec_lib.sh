# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Sourced by the live spec tests after tests/lib.sh: run a generated tool
# (in $out/TOOL/TOOL, JSON lines into $T/TOOL.out) around a workload.

# start TOOL ARGS...: run out/TOOL/TOOL -j in the background until it has attached
start() {
	local tool=$1 i
	shift
	"$out/$tool/$tool" -j "$@" >"$T/$tool.out" 2>"$T/$tool.err" &
	pid=$!
	for i in $(seq 100); do
		grep -q '^Tracing' "$T/$tool.err" && return 0
		kill -0 $pid 2>/dev/null || { cat "$T/$tool.err"; fail "$tool exited early"; }
		sleep 0.1
	done
	fail "$tool did not attach in 10s"
}
# stop TOOL: Ctrl-C, which must end it cleanly (exit 0) with the summary
stop() {
	local tool=$1 rc
	sleep 0.5
	kill -INT $pid
	wait $pid
	rc=$?
	[ $rc = 0 ] || { cat "$T/$tool.err"; fail "$tool exited $rc after SIGINT"; }
}
expect() {	# expect TOOL REGEX WHAT
	grep -Eq "$2" "$T/$1.out" || { head -50 "$T/$1.out"; fail "$1: no $3 (/$2/)"; }
}
expect_not() {
	! grep -Eq "$2" "$T/$1.out" || { grep -E "$2" "$T/$1.out"; fail "$1: $3 (/$2/)"; }
}
# peer_ready FILE...: a libbpf-tools peer (run under 'stdbuf -oL') prints its header
# once its programs are attached; wait for it in each FILE
peer_ready() {
	local f i
	for f in "$@"; do
		for i in $(seq 100); do
			[ -s "$f" ] && break
			sleep 0.1
		done
		[ -s "$f" ] || fail "a peer printed no header in 10 s ($f)"
	done
}
