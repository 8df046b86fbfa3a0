#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# tpgen-timeout: 400
# --metrics of every spec in specs/ that has aggregations: built -Werror, run
# live, scraped (HTTP 200, 0.0.4 content type), and each scrape accepted by
# promtool check metrics; no family name twice. Scraped again asking for
# OpenMetrics (Prometheus' Accept): its content type, accepted by
# prometheus_client's OpenMetrics parser (Debian's python3-prometheus-client),
# every series of the 0.0.4 scrape in it. Accept headers of each kind get the
# format they ask for. Then 100,000 distinct keys
# (tests/metrics/manykeys.yaml, opens of distinct paths) with
# --metrics-max-series 100: 99 series and other="true", which together hold
# every key the map kept; the keys a full map refused in lost_total; a valid
# exposition; the tool's memory the same after 50 more scrapes. make install
# installs the tool and its systemd unit, which systemd-analyze verifies and
# whose capabilities are enough to run the tool.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
require_live
command -v promtool >/dev/null || skip "promtool is not installed (make check installs prometheus)"
# Debian's python3 (not another one first in PATH) has Debian's prometheus_client
py=/usr/bin/python3
$py -c 'import prometheus_client.openmetrics.parser' 2>/dev/null ||
	skip "python3-prometheus-client is not installed (make check installs it)"
om_accept='application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'

out=$T/out
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null' EXIT

# serve TOOL ARGS...: the tool as an exporter on $port, until it serves
serve() {
	local tool=$1 i
	shift
	"$out/$tool/$tool" --metrics "$port" "$@" >"$T/$tool.out" 2>"$T/$tool.err" &
	pid=$!
	for i in $(seq 100); do
		grep -q '^Tracing' "$T/$tool.err" && return 0
		kill -0 $pid 2>/dev/null || { cat "$T/$tool.err"; fail "$tool exited early"; }
		sleep 0.1
	done
	fail "$tool did not start"
}
finish() {
	kill -TERM $pid
	wait $pid || { cat "$T/$1.err"; fail "$1 exited $? after SIGTERM"; }
	pid=
}

n=0
for s in specs/*.yaml; do
	"$TPGEN" "$s" -o "$out" >"$T/gen.log" 2>&1 || { cat "$T/gen.log"; fail "tpgen $s"; }
	tool=$(sed -n 's/^tool: *\([A-Za-z0-9_]*\).*/\1/p' "$s")
	grep -q 'OPT_METRICS' "$out/$tool/$tool.c" || continue	# no aggregations: no --metrics
	make -s -C "$out/$tool" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build $tool"; }
	serve "$tool"
	sleep 1
	curl -sf -D "$T/headers" "http://127.0.0.1:$port/metrics" >"$T/$tool.prom" || fail "$tool: scrape failed"
	grep -qi '^content-type: text/plain; version=0.0.4' "$T/headers" || { cat "$T/headers"; fail "$tool: content type"; }
	promtool check metrics <"$T/$tool.prom" >"$T/promtool.log" 2>&1 ||
		{ cat "$T/promtool.log"; fail "promtool rejects $tool's scrape"; }
	dup=$(sed -n 's/^# TYPE \([^ ]*\) .*/\1/p' "$T/$tool.prom" | sort | uniq -d)
	[ -z "$dup" ] || fail "$tool: families named twice: $dup"
	curl -sf -D "$T/headers" -H "Accept: $om_accept" "http://127.0.0.1:$port/metrics" >"$T/$tool.om" ||
		fail "$tool: OpenMetrics scrape failed"
	grep -qi '^content-type: application/openmetrics-text; version=1.0.0; charset=utf-8' "$T/headers" ||
		{ cat "$T/headers"; fail "$tool: OpenMetrics content type"; }
	$py - "$T/$tool.prom" "$T/$tool.om" <<'PY' || fail "$tool: the OpenMetrics scrape is invalid or lacks series"
import sys
from prometheus_client.parser import text_string_to_metric_families as text
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
def series(fams):
    return {(s.name, tuple(sorted(s.labels.items()))) for f in fams for s in f.samples}
t = series(text(open(sys.argv[1]).read()))
o = series(om(open(sys.argv[2]).read()))
# series once exported stay: the later OpenMetrics scrape has every one of the 0.0.4 scrape
missing = t - o
assert not missing, sorted(missing)[:5]
PY
	# specs/offcputime.yaml asks for its stacks as labels: folded, as -f folds them
	if [ "$tool" = offcputime ]; then
		grep -q '^offcputime_off_cpu_time_sum_seconds_total{comm="[^"]*",kstack="[^"]*;__schedule",ustack="' \
			"$T/$tool.prom" || fail "offcputime: no kstack label ending in __schedule"
	fi
	if [ $n = 0 ]; then
		# the format each Accept asks for; none, or one of neither, is 0.0.4
		while IFS='|' read -r accept want; do
			got=$(curl -sf -o /dev/null -w '%{content_type}' ${accept:+-H "Accept: $accept"} \
				"http://127.0.0.1:$port/metrics")
			case $got in
			"$want;"*) ;;
			*) fail "Accept '$accept': $got, not $want" ;;
			esac
		done <<-EOF
		|text/plain
		*/*|text/plain
		$om_accept|application/openmetrics-text
		application/openmetrics-text|application/openmetrics-text
		Application/OpenMetrics-Text ; version = 1.0.0|application/openmetrics-text
		application/openmetrics-text;version=0.0.1|text/plain
		text/plain;version=0.0.4;q=0.9,application/openmetrics-text;q=0.8|text/plain
		text/plain;q=0.5, application/openmetrics-text; version=1.0.0|application/openmetrics-text
		text/plain,application/openmetrics-text|text/plain
		application/openmetrics-text,text/plain|application/openmetrics-text
		application/openmetrics-text;q=0,*/*|text/plain
		application/json|text/plain
		EOF
	fi
	grep -q "^${tool}_build_info{kernel=\"$(uname -r)\",spec_hash=\"[0-9a-f]\{16\}\"" "$T/$tool.prom" ||
		fail "$tool: no build_info"
	finish "$tool"
	echo "$tool: $(grep -vc '^#' "$T/$tool.prom") samples, promtool ok; OpenMetrics ok"
	n=$((n + 1))
done
[ $n -ge 10 ] || fail "only $n specs with aggregations"

# make install: the tool and its unit; the unit verified by systemd, and the tool run
# as it would run it, with only the capabilities of its CapabilityBoundingSet
for tool in syscount offcputime; do
	make -s -C "$out/$tool" install PREFIX="$T/prefix" >"$T/install.log" 2>&1 || { cat "$T/install.log"; fail "make install $tool"; }
	unit=$T/prefix/lib/systemd/system/$tool.service
	[ -x "$T/prefix/sbin/$tool" ] && [ -f "$unit" ] || fail "make install: no $tool or $tool.service"
	grep -q "^ExecStart=$T/prefix/sbin/$tool --metrics \${METRICS_ADDR}$" "$unit" || { cat "$unit"; fail "$tool.service: ExecStart"; }
	if command -v systemd-analyze >/dev/null; then
		systemd-analyze verify "$unit" >"$T/verify.log" 2>&1 || { cat "$T/verify.log"; fail "systemd-analyze verify $tool.service"; }
	fi
	caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$unit" | tr 'A-Z ' 'a-z,' | sed 's/cap_/+/g')
	[ -n "$caps" ] || fail "$tool.service has no CapabilityBoundingSet"
	echo "$tool.service: $caps"
done
setpriv --bounding-set=-all,+bpf,+perfmon -- "$T/prefix/sbin/syscount" --metrics "$port" \
	>/dev/null 2>"$T/unit.err" &
pid=$!
for i in $(seq 100); do grep -q '^Tracing' "$T/unit.err" && break; sleep 0.1; done
sleep 0.5
curl -sf "http://127.0.0.1:$port/metrics" | grep -q '^syscount_sys_enter_counts_total{comm="' ||
	{ cat "$T/unit.err"; fail "syscount with CAP_BPF and CAP_PERFMON alone: no metrics"; }
finish syscount
caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$T/prefix/lib/systemd/system/offcputime.service" | tr 'A-Z ' 'a-z,' |
	sed 's/cap_/+/g')
setpriv --bounding-set=-all,$caps -- "$T/prefix/sbin/offcputime" -d 2 >"$T/offcpu.out" 2>&1 ||
	{ cat "$T/offcpu.out"; fail "offcputime with its unit's capabilities"; }
grep -Eq '^ +0x[0-9a-f]+ (schedule|__schedule)' "$T/offcpu.out" ||
	{ head -30 "$T/offcpu.out"; fail "offcputime with its unit's capabilities: kernel frames not named"; }
echo "ok: the units' capabilities are enough"

# 100,000 keys, at most 100 series
"$TPGEN" tests/metrics/manykeys.yaml -o "$out" >/dev/null || fail "tpgen manykeys"
make -s -C "$out/manykeys" EXTRA_CFLAGS=-Werror >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "build manykeys"; }
cc -O2 -Wall -Werror -o "$T/work" tests/metrics/work.c || fail "cc work.c"
serve manykeys --metrics-max-series 100 -c tpgm-many
"$T/work" tpgm-many 0 100000 100000 || fail "workload"
curl -sf "http://127.0.0.1:$port/metrics" >"$T/many.prom" || fail "scrape"
promtool check metrics <"$T/many.prom" >"$T/promtool.log" 2>&1 || { cat "$T/promtool.log"; fail "promtool rejects"; }
# the allocator settles in the first scrapes; past them, a scrape must leave nothing behind
for i in $(seq 20); do curl -sf "http://127.0.0.1:$port/metrics" >/dev/null || fail "scrape $i"; done
rss0=$(awk '/VmRSS/ { print $2 }' /proc/$pid/status)
for i in $(seq 50); do curl -sf "http://127.0.0.1:$port/metrics" >/dev/null || fail "scrape $i"; done
rss1=$(awk '/VmRSS/ { print $2 }' /proc/$pid/status)
python3 - "$T/many.prom" <<'PY' || fail "the bound or the sums are wrong"
import re, sys
series, other, folded, lost = 0, None, None, None
total = 0
for l in open(sys.argv[1]):
    if l.startswith("manykeys_sys_enter_openat_counts_total{"):
        v = int(l.split()[-1])
        total += v
        if l.startswith('manykeys_sys_enter_openat_counts_total{other="true"}'):
            other = v
        else:
            series += 1
    elif l.startswith("manykeys_folded_series{"):
        folded = int(l.split()[-1])
    elif l.startswith('manykeys_lost_total{reason="map_full"}'):
        lost = int(l.split()[-1])
print("series", series, "other", other, "folded", folded, "lost", lost, "total", total)
# each path opened once: the map holds 10240 keys, the rest were refused
assert series == 99 and other == folded == 10240 - 99, "bound"
assert total + lost == 100000, "kept + lost != opened"
PY
echo "RSS after 21 scrapes: $rss0 kB, after 71: $rss1 kB"
[ "$rss1" -le $((rss0 + 1024)) ] || fail "memory grows with scrapes: $rss0 -> $rss1 kB"
finish manykeys
echo ok
