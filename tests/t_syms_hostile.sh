#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# User stack symbols (bpf/tpgen_syms.c) against processes that want to hurt
# the root loader naming their frames. A process running as nobody maps
# (tests/syms/mapper.c) ELF files made by tests/syms/mkelf.py, while
# syms_check (tests/syms) names addresses in it as root:
# - a GNU build-id note with n_descsz 0x80000010 in a sparse 2 GiB file:
#   the symbolizer stays up, and names a function of the next file;
# - an exec (same pid, new image at the same address): named from the new
#   image, not the one cached; the same when the process exits and a new
#   one gets its pid (/proc/sys/kernel/ns_last_pid);
# - a mapped file whose path is longer than a line buffer, its tail written
#   as a /proc/PID/maps line of its own naming a FIFO: no hang, nothing named
#   from the forged line, the real file named;
# - a FIFO bind-mounted over a mapped file's path, named by a loader without
#   CAP_SYS_ADMIN (no /proc/PID/map_files: the path is opened): no hang;
# - 400 symbols naming one 1 MiB string: peak memory (VmHWM) under 64 MB;
# - 12 processes, each with its own file of 8,000 symbols with names of
#   1,000 bytes, named by a build with a 16 MiB budget: peak under 60 MB,
#   every one named, the first again after it was dropped.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1
[ "$(id -u)" = 0 ] || skip "needs root (a process as nobody, /proc/PID/map_files)"
id nobody >/dev/null 2>&1 || skip "no user 'nobody'"

libs="-ldw -lelf -llzma -ldl"
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
clang -std=gnu11 -g -O1 $san -Wall -Wextra -Werror -Ibpf tests/syms/syms_check.c bpf/tpgen_syms.c $libs \
	-o "$T/syms_asan" || fail "building syms_check (ASan) failed"
cc -std=gnu11 -g -O1 -Wall -Wextra -Werror -Ibpf tests/syms/syms_check.c bpf/tpgen_syms.c $libs \
	-o "$T/syms_check" || fail "building syms_check failed"
cc -std=gnu11 -g -O1 -Wall -Wextra -Werror -Ibpf -DTPGEN_SYMS_MAX_BYTES='(16ULL << 20)' -DTPGEN_SYMS_MAX_PROCS=4 \
	tests/syms/syms_check.c bpf/tpgen_syms.c $libs -o "$T/syms_small" || fail "building syms_check (16 MiB) failed"
cc -O1 -g -Wall -Wextra -Werror tests/syms/mapper.c -o "$T/mapper" || fail "building mapper failed"
export ASAN_OPTIONS=detect_leaks=1

# files nobody can read, in a directory nobody can traverse
W=$(mktemp -d /tmp/tpgen-syms.XXXXXX)
chmod 755 "$W"
cp "$T/mapper" "$W/mapper"
mappers=()
mounted=
cleanup() {
	[ -n "$mounted" ] && umount "$mounted" 2>/dev/null
	for p in "${mappers[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
mkelf() { python3 tests/syms/mkelf.py "$@" || fail "mkelf.py $*"; chmod 644 "$2"; }
A=200000000000
AA=200000001010	# A + 0x1010, inside the first function

# mapper NAME CMD...: runs CMD (mapper as nobody) with commands from fd ${cmd[NAME]}; sets $mpid
declare -A cmd
mapper() {
	local n=$1 fd i
	shift
	mkfifo "$W/$n.in"
	# next_pid: the pid the next process gets (builtins only from here to its fork)
	[ -n "${next_pid:-}" ] && echo $((next_pid - 1)) >/proc/sys/kernel/ns_last_pid
	"$@" <"$W/$n.in" >>"$W/$n.out" 2>"$W/$n.err" &
	mappers+=($!)
	exec {fd}>"$W/$n.in"
	cmd[$n]=$fd
	for i in $(seq 100); do [ -s "$W/$n.out" ] && break; sleep 0.05; done
	read -r mpid _ <"$W/$n.out" || fail "mapper $n did not start: $(cat "$W/$n.err")"
}
# as nobody, exec'd in place: the pid of "$!" is the process's
nobody=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups --)

# sym BIN 'PID ADDR'...: names the addresses with BIN, 20 s at most
sym() {
	local bin=$1
	shift
	printf '%s\n' "$@" | timeout 20 "$bin" user
}

# the build-id note, n_descsz 0x80000010: 2 GiB long, 8 KiB on disk
mkelf buildid "$W/buildid.so"
mkelf funcs "$W/ok.so" tpgen_ok_fn
[ "$(stat -c %s "$W/buildid.so")" -gt $((1 << 31)) ] || fail "buildid.so is not 2 GiB"
[ "$(du -k "$W/buildid.so" | cut -f1)" -le 64 ] || fail "buildid.so is not sparse"
mapper bid "${nobody[@]}" "$W/mapper" "$W/buildid.so" $A
bid=$mpid
mapper ok "${nobody[@]}" "$W/mapper" "$W/ok.so" $A
sym "$T/syms_asan" "$bid $AA" "$mpid $AA" >"$T/buildid.out" 2>"$T/buildid.err"
rc=$?
cat "$T/buildid.out"
[ $rc = 0 ] || { tail -20 "$T/buildid.err"; fail "the build-id note killed the symbolizer (exit $rc)"; }
grep -q "^$AA \[unknown\] $W/buildid.so " "$T/buildid.out" || fail "the build-id file is named"
grep -q "^$AA tpgen_ok_fn+0x10 $W/ok.so (0)$" "$T/buildid.out" || fail "the next file is not named"
echo "ok: a 2 GiB build-id note: no crash, the next file named"

# a symbol name that forges lines and escapes: one line, escaped as text (\n, \x1b, \\, \xff),
# valid UTF-8 kept; in a folded line a ';' is \x3b (tests/syms/syms_check.c)
mkelf funcs "$W/evil.so" $'ev\nil\x1b[2J\\caf\xc3\xa9\xff;x'
mapper evil "${nobody[@]}" "$W/mapper" "$W/evil.so" $A
sym "$T/syms_check" "$mpid $AA" >"$T/evil.out" 2>"$T/evil.err" || { cat "$T/evil.err"; fail "naming evil.so"; }
cat "$T/evil.out"
grep -qxF "$AA ev\\nil\\x1b[2J\\\\café\\xff;x+0x10 $W/evil.so (0)" "$T/evil.out" ||
	fail "a symbol name with control bytes is not escaped"
echo "ok: a symbol name with a newline, an escape sequence and a stray byte: escaped"

# exec: the same pid, a new image at the same address
mkelf funcs "$W/before.so" tpgen_before_fn
mkelf funcs "$W/after.so" tpgen_after_fn
mapper exec "${nobody[@]}" "$W/mapper" "$W/before.so" $A
epid=$mpid
mkfifo "$W/q.in" "$W/q.out"
timeout 30 "$T/syms_asan" user <"$W/q.in" >"$W/q.out" 2>"$T/exec.err" &
qpid=$!
exec {qin}>"$W/q.in" {qout}<"$W/q.out"
echo "$epid $AA" >&$qin
read -r -t 10 before <&$qout
echo "before exec: $before"
echo "exec $W/after.so" >&${cmd[exec]}
for i in $(seq 100); do [ "$(wc -l <"$W/exec.out")" = 2 ] && break; sleep 0.05; done
pid2=$(tail -1 "$W/exec.out" | cut -d' ' -f1)
[ "$pid2" = "$epid" ] || fail "the exec changed the pid: $pid2"
echo "$epid $AA" >&$qin
read -r -t 10 after <&$qout
echo "after exec: $after"

# the process exits; a new one gets its pid (/proc/sys/kernel/ns_last_pid) and maps another file
mkelf funcs "$W/reused.so" tpgen_reused_fn
kill "$epid"
wait "$epid"
reused=
for try in $(seq 50); do
	next_pid=$epid mapper "reuse$try" "${nobody[@]}" "$W/mapper" "$W/reused.so" $A
	[ "$mpid" = "$epid" ] && { reused=1; break; }
	kill "$mpid"
done
if [ -n "$reused" ]; then
	echo "$epid $AA" >&$qin
	read -r -t 10 reuse <&$qout
	echo "reused pid: $reuse"
	kill "$epid"	# it holds q.in open too: syms_check would never see its end
	wait "$epid"
fi
exec {qin}>&-
cat <&$qout >/dev/null
exec {qout}<&-
wait $qpid || fail "syms_check failed: $(tail -5 "$T/exec.err")"
[ "$before" = "$AA tpgen_before_fn+0x10 $W/before.so (0)" ] || fail "before the exec: $before"
[ "$after" = "$AA tpgen_after_fn+0x10 $W/after.so (0)" ] || fail "after the exec, named from the old image: $after"
echo "ok: exec: the new image named"
[ -n "$reused" ] || fail "pid $epid was not given again in 50 tries (got $mpid last)"
[ "$reuse" = "$AA tpgen_reused_fn+0x10 $W/reused.so (0)" ] || fail "a reused pid named from the old process: $reuse"
echo "ok: a reused pid: the new process named"

# a path longer than the old reader's line (PATH_MAX + 128), its tail a maps line of a FIFO
F=3000000
mkelf funcs "$W/real.so" tpgen_real_fn
mkfifo "$W/fifo"
cat >"$W/long.py" <<'PY'
import os, sys
W, elf, mapper, addr, fx, gid = sys.argv[1:4] + [sys.argv[4], int(sys.argv[5], 16) << 20, sys.argv[6]]
# where the path starts in a maps line: the header is padded to one width
col = next(l.index(" /") + 1 for l in open("/proc/self/maps") if " /" in l)
split = 4223 - col          # fgets() of PATH_MAX + 128 bytes: the rest reads as a line of its own
comp = "%x-%x r-xp 00000000 00:00 0 " % (fx, fx + 0x100000)
os.chdir(W)
d = W + "/long"
os.mkdir("long")
os.chdir("long")
while len(d) < split - 1:
    r = split - 1 - len(d)
    n = min(200, r - 1)
    if r - (n + 1) == 1:
        n -= 1
    os.mkdir("a" * n)
    os.chdir("a" * n)
    d += "/" + "a" * n
assert len(d) == split - 1
# then the forged line: "<range> r-xp 00000000 00:00 0 " and the FIFO's path, W/fifo
for c in [comp] + (W + "/fifo").strip("/").split("/")[:-1]:
    os.mkdir(c)
    os.chdir(c)
with open("fifo", "wb") as f:
    f.write(open(elf, "rb").read())
os.chmod("fifo", 0o644)
os.execvp("setpriv", ["setpriv", "--reuid=nobody", "--regid=" + gid, "--clear-groups", "--",
                      mapper, "fifo", addr])
PY
mapper long python3 "$W/long.py" "$W" "$W/real.so" "$W/mapper" $A $F "$(id -g nobody)"
lpid=$mpid
at=$(python3 -c 'import sys; l = [x for x in open("/proc/%s/maps" % sys.argv[1]) if "00:00 0 /" in x][0]
print(l.index("%x-" % (int(sys.argv[2], 16) << 20)))' "$lpid" $F) || fail "no long line in /proc/$lpid/maps"
[ "$at" = 4223 ] || fail "the forged line starts at byte $at of the maps line, not 4223"
sym "$T/syms_asan" "$lpid $AA" "$lpid ${F}01010" >"$T/long.out" 2>"$T/long.err"
rc=$?
cut -c1-100 "$T/long.out"
[ $rc != 124 ] || fail "a forged maps line of a FIFO hung the symbolizer"
[ $rc = 0 ] || { tail -20 "$T/long.err"; fail "the long path: exit $rc"; }
grep -q "^$AA tpgen_real_fn+0x10 $W/long/a.* (0)$" "$T/long.out" || fail "the long path is not named"
grep -q "^${F}01010 \[unknown\] - (-2)$" "$T/long.out" || fail "the forged line is named"
echo "ok: a path past the line buffer: no hang, the forged line not read"

# a FIFO over a mapped file's path, for a loader without CAP_SYS_ADMIN (no map_files)
mkelf funcs "$W/under.so" tpgen_under_fn
mapper under "${nobody[@]}" "$W/mapper" "$W/under.so" $A
upid=$mpid
mount --bind "$W/fifo" "$W/under.so" || fail "mount --bind a FIFO over under.so"
mounted=$W/under.so
[ -p "$W/under.so" ] || fail "under.so is not the FIFO"
echo "$upid $AA" | timeout 20 setpriv --bounding-set=-sys_admin,-checkpoint_restore -- \
	"$T/syms_asan" user >"$T/under.out" 2>"$T/under.err"
rc=$?
cat "$T/under.out"
[ $rc != 124 ] || fail "a FIFO at a mapped file's path hung the symbolizer"
[ $rc = 0 ] || { tail -20 "$T/under.err"; fail "a FIFO at a mapped file's path: exit $rc"; }
grep -q "^$AA \[unknown\] $W/under.so (-2)$" "$T/under.out" || fail "the FIFO is named"
umount "$W/under.so" && mounted=
echo "ok: a FIFO at a mapped file's path: no hang"

# 400 symbols naming one 1 MiB string
mkelf bigstr "$W/bigstr.so" 400 1048576
mapper big "${nobody[@]}" "$W/mapper" "$W/bigstr.so" $A
sym "$T/syms_check" "$mpid $AA" >"$T/big.out" || fail "bigstr: syms_check failed"
cut -c1-60 "$T/big.out"
grep -q "^$AA AAAAAAAAAA" "$T/big.out" || fail "bigstr.so is not named"
hwm=$(awk '/^VmHWM:/ { print $2 }' "$T/big.out")
echo "bigstr: VmHWM $hwm kB"
[ "$hwm" -lt $((64 * 1024)) ] || fail "naming bigstr.so took $hwm kB (VmHWM), more than 64 MB"
echo "ok: one 1 MiB string named 400 times: VmHWM $hwm kB"

# 12 processes, each its own file of 8,000 long names (8 MB of them): a 16 MiB budget holds
q=()
for i in $(seq 0 11); do
	mkelf longnames "$W/long$i.so" 8000 1000
	mapper "ln$i" "${nobody[@]}" "$W/mapper" "$W/long$i.so" $A
	q+=("$mpid $(printf %x $((0x$A + 0x1000 + 4 * (1000 + i))))")
done
q+=("${q[0]}")
sym "$T/syms_small" "${q[@]}" >"$T/lru.out" || fail "syms_check (16 MiB) failed"
cut -c1-60 "$T/lru.out"
[ "$(grep -c '^[0-9a-f]* f00[0-9]*_xxxx' "$T/lru.out")" = 13 ] || fail "not every file named"
hwm=$(awk '/^VmHWM:/ { print $2 }' "$T/lru.out")
[ "$hwm" -lt $((60 * 1024)) ] || fail "12 files of 8 MB of names took $hwm kB (VmHWM) with a 16 MiB budget"
echo "ok: 12 files of 8 MB of names, a 16 MiB budget: VmHWM $hwm kB"
