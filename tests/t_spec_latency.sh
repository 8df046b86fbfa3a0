#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Latency pairs are the save, join and aggregate they stand for:
#  - tests/spec/sleeplat.yaml measures clock_nanosleep() in tasks this test
#    names, as a pair and by hand: both histograms hold exactly the sleeps
#    the test made, in the same buckets, and the pair's keeps its title,
#    heading and unit (text) and JSON keys (-j), and -p leaves the pair alone;
#  - tests/spec/latency.yaml, pairs named like a hist's map, a save, an
#    aggregate's map and an event (which once gave "redefinition of
#    'sched_switch_hist'"), builds with -Werror and fills every histogram.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
. "$(dirname "$0")/spec_lib.sh"

out=$T/out
for s in tests/spec/sleeplat.yaml tests/spec/latency.yaml; do
	"$TPGEN" "$s" -o "$out" || fail "tpgen $s"
done
for d in "$out"/*/; do
	make -s -C "$d" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $d"; }
done

# sleeps of 20 ms (3) and 90 ms (2) in tasks named tpgen-sleeper: 16 -> 31 and 64 -> 127 msecs
sleeper=$T/tpgen-sleeper
cp "$(command -v sleep)" "$sleeper"
sleeps() {
	local s
	for s in 0.02 0.09 0.02 0.09 0.02; do
		"$sleeper" "$s" || fail "$sleeper $s"
	done
}

start sleeplat
sleeps
stop sleeplat
title='sleep: syscalls/sys_enter_clock_nanosleep -> syscalls/sys_exit_clock_nanosleep'
pair=$(grep -F "{\"hist\":\"$title\",\"unit\":\"msecs\",\"buckets\":[" "$T/sleeplat.out") ||
	{ cat "$T/sleeplat.out"; fail "sleeplat: no histogram of the pair"; }
hand=$(grep -F '{"hist":"by hand","unit":"msecs","buckets":[' "$T/sleeplat.out") ||
	{ cat "$T/sleeplat.out"; fail "sleeplat: no histogram by hand"; }
[ "${pair#*\"buckets\":}" = "${hand#*\"buckets\":}" ] ||
	fail "the pair and the same by hand differ: '$pair' and '$hand'"
counts=$(grep -o '"count":[0-9]*' <<<"$pair" | cut -d: -f2 | paste -sd+ | bc)
[ "$counts" = 5 ] || fail "the pair counted $counts sleeps, the test made 5: $pair"
grep -qF '{"low":16,"high":31,"count":3}' <<<"$pair" || fail "not 3 sleeps of 20 ms in 16 -> 31: $pair"
grep -qF '{"low":64,"high":127,"count":2}' <<<"$pair" || fail "not 2 sleeps of 90 ms in 64 -> 127: $pair"

# -p applies to the entries, not to latency pairs (which have their own filters)
start sleeplat -p 1
sleeps
stop sleeplat
expect sleeplat "^\\{\"hist\":\"$title\",.*\\{\"low\":16,\"high\":31,\"count\":3\\}" "pair's histogram under -p 1"
expect_not sleeplat '"hist":"by hand"' "histogram by hand under -p 1"

# text: the title, then the heading with the unit, as print_log2_hist() has them
"$out/sleeplat/sleeplat" >"$T/text.out" 2>"$T/text.err" &
pid=$!
for i in $(seq 100); do
	grep -q '^Tracing' "$T/text.err" && break
	sleep 0.1
done
sleeps
kill -INT $pid
wait $pid || { cat "$T/text.err"; fail "sleeplat (text) exited $?"; }
grep -A1 -xF "$title" "$T/text.out" | tail -n 1 | grep -qx '     msecs               : count    distribution' ||
	{ cat "$T/text.out"; fail "sleeplat (text): no '$title' over a heading in msecs"; }
grep -A7 -xF "$title" "$T/text.out" | grep -qE '^ +16 -> 31 +: 3 +\|\*{40}\|$' ||
	{ cat "$T/text.out"; fail "sleeplat (text): no row of 3 sleeps in 16 -> 31"; }

# names that once clashed: every histogram fills while tasks wake and switch
start latency
sleeps
stop latency
for h in 'sched_switch: sched/sched_wakeup -> sched/sched_switch' 'woken: sched/sched_wakeup -> sched/sched_switch' \
	'sched_wakeup: sched/sched_wakeup -> sched/sched_switch' 'woken hist' 'sched/sched_switch: next_prio'; do
	expect latency "^\\{\"hist\":\"$h\",\"unit\":\"[a-z_]+\",\"buckets\":\\[.*\"count\":[1-9]" "histogram '$h'"
done
echo ok
