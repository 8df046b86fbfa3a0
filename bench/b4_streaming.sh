# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# B4 streaming: a burst of getppid(2) calls, each a record through the generated
# ring-buffer path; records received per second, and the drops the tool reports
# against the number the benchmark knows it lost (made - received).
K=${BENCH_BURST:-2000000}
echo "B4 streaming: $K getppid(2) records through the ring buffer"
d=$OUT/stream
rm -rf "$d" && mkdir -p "$d"
cc -O2 -Wall -Wextra -Werror -o "$d/burst" bench/burst.c || die "building bench/burst.c failed"
"$TPGEN" bench/stream.yaml -o "$d" >/dev/null && make -s -C "$d/benchstream" >/dev/null 2>&1 ||
	die "building benchstream failed"

coproc BURST { "$d/burst" "$K"; }
read -r ready <&"${BURST[0]}"
"$d/benchstream/benchstream" > "$d/records.txt" 2> "$d/tool.err" &
TOOL=$!
for ((i = 0; i < 200; i++)); do grep -q Tracing "$d/tool.err" 2>/dev/null && break; sleep 0.05; done
s=$(now)
echo go >&"${BURST[1]}"
read -r made secs <&"${BURST[0]}"
wait $BURST_PID 2>/dev/null
sleep 0.5
kill -INT $TOOL; wait $TOOL
e=$(elapsed "$s" "$(now)")
received=$(grep -c -v -E '^(TIME|EVENT)' "$d/records.txt")
reported=$(grep -o -E '^[0-9]+ records lost' "$d/tool.err" | cut -d' ' -f1)
reported=${reported:-0}
lost=$((made - received))
rate=$(awk -v n="$received" -v t="$secs" 'BEGIN { printf "%.0f", n / t }')
offered=$(awk -v n="$made" -v t="$secs" 'BEGIN { printf "%.0f", n / t }')
echo "  made $made in ${secs}s ($offered/s offered); received $received ($rate/s through the ring buffer)"
echo "  lost $lost; the tool reported $reported dropped: $([ "$lost" = "$reported" ] && echo match || echo MISMATCH)"
echo "  target: >= 1000000 records/s with every drop counted"
json_row bench=B4 name="ring buffer" made="$made" seconds="$secs" received="$received" \
	per_second="$rate" offered_per_second="$offered" lost="$lost" reported_drops="$reported"
echo
