#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# make run: generate specs/sched.yaml, build the pair, show live events for a few seconds.
cd "$(dirname "$0")/.." || exit 1
set -e
secs=${DURATION:-5}
if [ "$(id -u)" != 0 ]; then
	echo "make run: error: BPF programs need root (CAP_BPF, CAP_PERFMON): run 'sudo make run'" >&2
	exit 3
fi
if [ ! -e /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing ||
		{ echo "make run: error: cannot mount tracefs at /sys/kernel/tracing" >&2; exit 3; }
fi
echo "  GEN      specs/sched.yaml -> out/schedsnoop/"
./tpgen specs/sched.yaml -o out
make --no-print-directory -C out/schedsnoop
echo "  RUN      out/schedsnoop/schedsnoop -d $secs   (Ctrl-C to stop early)"
# a little activity to see: an exec and some wakeups
( sleep 1; for i in 1 2 3; do /bin/true; ls / >/dev/null; sleep 0.2; done ) &
out/schedsnoop/schedsnoop -d "$secs"
wait
