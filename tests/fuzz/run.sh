#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Build and run every tests/fuzz/fuzz_<name>.c (sources it needs in fuzz_<name>.srcs, globs allowed,
# seed corpus in corpus/<name>/) for FUZZ_SECONDS (60) each. Exit 1 on any finding.
# Usage: tests/fuzz/run.sh [OUTDIR] [NAME...]
cd "$(dirname "$0")/../.." || exit 1
out=${1:-build/fuzz}
shift
secs=${FUZZ_SECONDS:-60}
mkdir -p "$out"
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for f in tests/fuzz/fuzz_*.c; do names+=("$(basename "$f" .c | sed 's/^fuzz_//')"); done
fi
rc=0
for n in "${names[@]}"; do
	bin=$out/fuzz_$n
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-D_GNU_SOURCE -DTPGEN_VERSION='"fuzz"' -Igen -Ibuild \
		"tests/fuzz/fuzz_$n.c" $(cat "tests/fuzz/fuzz_$n.srcs") -lbpf -ldw -lelf -llzma -lz -lyaml -o "$bin" ||
		{ echo "fuzz_$n: build failed"; rc=1; continue; }
	work=$out/corpus_$n artifacts=$out/findings_$n/
	mkdir -p "$work" "$artifacts"
	"$bin" -max_total_time="$secs" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$artifacts" "$work" "tests/fuzz/corpus/$n" > "$out/fuzz_$n.log" 2>&1
	r=$?
	runs=$(grep -o 'Done [0-9]* runs' "$out/fuzz_$n.log" | grep -o '[0-9]*')
	if [ $r -ne 0 ]; then
		echo "fuzz_$n: FINDING (exit $r) after ${runs:-?} runs; see $out/fuzz_$n.log and $artifacts"
		grep -m5 -E 'ERROR|SUMMARY|runtime error' "$out/fuzz_$n.log"
		rc=1
	else
		echo "fuzz_$n: ${runs:-?} runs in ${secs}s, no finding"
	fi
done
exit $rc
