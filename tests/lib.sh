# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Sourced by tests/t_*.sh. Exit 0 = pass, 77 = skip, anything else = fail.
set -u
: "${TPGEN_ROOT:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${TPGEN:=$TPGEN_ROOT/tpgen}"
: "${TPGEN_TMP:=$(mktemp -d /tmp/tpgen-tests.XXXXXX)}"
# every test works in its own directory: never in the current one, or /
T=$(mktemp -d "$TPGEN_TMP/$(basename "$0" .sh).XXXXXX") && [ -n "$T" ] ||
	{ echo "FAIL: cannot make a directory under TPGEN_TMP=$TPGEN_TMP" >&2; exit 1; }
BPF_CFLAGS="-g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -Wextra -Werror"

fail() { echo "FAIL: $*" >&2; exit 1; }

# Golden files are rewritten by hand, reviewed, committed: never by CI.
if [ -n "${CI:-}" ] && [ "${TPGEN_UPDATE_GOLDEN:-0}" != 0 ]; then
	fail "TPGEN_UPDATE_GOLDEN is set under CI: golden files are not rewritten by CI"
fi

# A test that cannot run here: fails in CI (TPGEN_REQUIRE_LIVE=1), skips loudly elsewhere.
skip() {
	if [ "${TPGEN_REQUIRE_LIVE:-0}" = 1 ]; then
		echo "FAIL (TPGEN_REQUIRE_LIVE=1, cannot skip): $*" >&2
		exit 1
	fi
	echo "SKIP: $*"
	exit 77
}

# Live tests need root, tracefs (mounted here if empty) and BTF.
require_live() {
	[ "$(id -u)" = 0 ] || skip "not root"
	if [ ! -e /sys/kernel/tracing/events ]; then
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
			skip "tracefs is not mounted at /sys/kernel/tracing and cannot be mounted"
	fi
	[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF at /sys/kernel/btf/vmlinux"
}

# vmlinux.h for this kernel, made once per test run.
vmlinux_h() {
	local h=$TPGEN_TMP/vmlinux.h
	if [ ! -s "$h" ]; then
		bpftool btf dump file /sys/kernel/btf/vmlinux format c > "$h.tmp" && mv "$h.tmp" "$h" ||
			fail "bpftool btf dump failed"
	fi
	echo "$h"
}
