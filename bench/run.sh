#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# make bench: tpgen and its output against the tools users would pick instead,
# measured side by side in one run. Prints a table of ratios and writes
# out/bench/results.json. Needs root (BPF, tracefs).
#
#   B1 generation: tpgen headers (ctx + raw, all events) vs bpftool btf dump, bpftrace -lv
#   B2 per-event overhead on dd bs=1 (seed 004): bare, ftrace filter, perf filter,
#      bpftrace, tpgen-generated (tracepoint, raw_tp, tp_btf), hand-written (same three)
#   B3 start-up: exec to first event, generated tool vs bpftrace; and the tool's build time
#   B4 streaming: ring-buffer events/s until drops, drops counted vs lost
#   B6 verifier work: instructions, states and load time of every tool of specs/
#   B7 --metrics: a scrape of 10,000 series, and the exporter's CPU scraped every second
#
# BENCH_RUNS (default 7), BENCH_N (dd writes, default 2000000), BENCH_ONLY (say
# "B1" or "B1 B3": run those only).
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh

mkdir -p "$OUT"
bench_env_check
echo "tpgen bench: $(uname -r), $(nproc) CPUs, $RUNS runs each, N=$N"
echo

want() { [ -z "${BENCH_ONLY:-}" ] || [[ " $BENCH_ONLY " == *" $1 "* ]]; }
want B1 && . bench/b1_generation.sh
want B2 && . bench/b2_overhead.sh
want B3 && [ -f bench/b3_startup.sh ] && . bench/b3_startup.sh
want B4 && [ -f bench/b4_streaming.sh ] && . bench/b4_streaming.sh
want B5 && . bench/b5.sh	# generated tools vs libbpf-tools
want B6 && . bench/b6_verifier.sh
want B7 && . bench/b7_metrics.sh	# --metrics: a scrape of 10,000 series, CPU scraped

json_write
echo
echo "results: $OUT/results.json"
