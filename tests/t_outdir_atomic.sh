#!/bin/bash
# A spec's output directory appears whole or not at all:
# - a run that fails (a bad second spec) leaves no out/<tool>/, not even empty;
# - a full disk mid-write leaves the previous pair as it was, and no temp dir;
# - two versions of one tool generated over and over at the same time: every
#   look into out/<tool>/ sees one version's files, never a mix;
# - regenerating keeps unchanged files (same inode and mtime) and what a build
#   put there (.output/, the binary).
. "$(dirname "$0")/lib.sh"
cd "$T"
ev=$TPGEN_ROOT/tests/spec/events
spec() {	# spec FILE FIELD
	printf 'tool: t\nevents:\n  - event: sched/sched_switch\n    count: [%s]\n' "$2" > "$1"
}
mkdir va vb	# one file name: the banners name the spec
spec va/t.yaml next_comm
spec vb/t.yaml prev_comm
printf 'tool: u\nevents:\n  - event: sched/sched_switch\n    count: [no_such_field]\n' > bad.yaml
"$TPGEN" --tracefs "$ev" -o refa va/t.yaml && "$TPGEN" --tracefs "$ev" -o refb vb/t.yaml || fail "reference pairs"
differ=$(cd refa/t && for f in *; do cmp -s "$f" "../../refb/t/$f" || echo "$f"; done)
[ "$(echo "$differ" | wc -l)" -ge 2 ] || fail "the two versions should differ in several files: $differ"
cmp -s refa/t/Makefile refb/t/Makefile || fail "the Makefile should be the same in both versions"
suma=$(cd refa/t && md5sum $differ) sumb=$(cd refb/t && md5sum $differ)

# a failed run: nothing, not even an empty directory
"$TPGEN" --tracefs "$ev" -o fail va/t.yaml bad.yaml 2>/dev/null && fail "a bad spec was accepted"
[ -e fail ] && fail "a failed run left $(find fail)"
echo "ok: a failed run leaves nothing"

# which version a directory holds: a, b, or mixed
version() {
	local d=$1 f va=0 vb=0
	for f in $differ; do
		if cmp -s "$d/$f" "refa/t/$f"; then va=$((va + 1))
		elif cmp -s "$d/$f" "refb/t/$f"; then vb=$((vb + 1))
		else echo "unknown"; return; fi
	done
	[ $va -gt 0 ] && [ $vb -gt 0 ] && { echo mixed; return; }
	[ $va -gt 0 ] && echo a || echo b
}

# two runs of one tool at once, over and over
"$TPGEN" --tracefs "$ev" -o out va/t.yaml || fail "first generation"
( for i in $(seq 150); do "$TPGEN" --tracefs "$ev" -o out va/t.yaml; done ) 2>/dev/null &
p1=$!
( for i in $(seq 150); do "$TPGEN" --tracefs "$ev" -o out vb/t.yaml; done ) 2>/dev/null &
p2=$!
# looks from one process, each through one directory fd: it stays one directory
# while read (a look that a swap cut short, its files removed, says nothing)
python3 - "$p1" "$p2" $differ > looks.txt <<'PY'
import hashlib, os, sys
p1, p2, files = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
def ref(d):
    return [hashlib.md5(open(os.path.join(d, f), 'rb').read()).hexdigest() for f in files]
a, b = ref('refa/t'), ref('refb/t')
def alive(p):
    try:
        os.kill(p, 0)
        return True
    except OSError:
        return False
n = {'a': 0, 'b': 0, 'cut': 0, 'mixed': 0}
while alive(p1) or alive(p2):
    try:
        fd = os.open('out/t', os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        continue
    try:
        sums = []
        for f in files:
            g = os.open(f, os.O_RDONLY, dir_fd=fd)
            sums.append(hashlib.md5(os.read(g, 1 << 20)).hexdigest())
            os.close(g)
        n['a' if sums == a else 'b' if sums == b else 'mixed'] += 1
        if sums != a and sums != b:
            print('mixed:', [('a' if s == x else 'b' if s == y else '?') for s, x, y in zip(sums, a, b)])
    except OSError:
        n['cut'] += 1
    os.close(fd)
print('looks', n['a'], n['b'], n['cut'], n['mixed'])
PY
wait $p1; wait $p2
read -r _ na nb cut mixed < <(grep '^looks' looks.txt)
[ "${mixed:-1}" = 0 ] || fail "looks saw mixed directories: $(cat looks.txt)"
[ $((na + nb)) -ge 50 ] && [ "$na" -gt 0 ] && [ "$nb" -gt 0 ] || fail "too few looks to tell: $(cat looks.txt)"
v=$(version out/t)
[ "$v" = a ] || [ "$v" = b ] || fail "after the runs, out/t is $v"
[ -z "$(find out -maxdepth 1 -name '.*' ! -name .)" ] || fail "temp directories left: $(ls -a out)"
echo "ok: $((na + nb)) whole looks during concurrent runs, each one version ($na a, $nb b; $cut cut short)"

# regenerating keeps unchanged files and a build's files
"$TPGEN" --tracefs "$ev" -o keep va/t.yaml || fail "keep: first"
mkdir keep/t/.output && touch keep/t/.output/t.bpf.o keep/t/t
inode=$(stat -c '%i %Y' keep/t/Makefile)
sleep 1.1
"$TPGEN" --tracefs "$ev" -o keep vb/t.yaml || fail "keep: second"
[ "$(stat -c '%i %Y' keep/t/Makefile)" = "$inode" ] || fail "an unchanged file was rewritten"
[ -f keep/t/.output/t.bpf.o ] && [ -f keep/t/t ] || fail "a build's files were lost"
[ "$(version keep/t)" = b ] || fail "keep/t is not the new version"
echo "ok: unchanged files and a build's files kept"

# a full disk mid-write
if [ "$(id -u)" = 0 ] && mkdir -p full && mount -t tmpfs -o size=256k tpgen-test full 2>/dev/null; then
	trap 'umount "$T/full" 2>/dev/null' EXIT
	"$TPGEN" --tracefs "$ev" -o full va/t.yaml || fail "full: first generation"
	before=$(find full -mindepth 1 -printf '%p %s %T@\n' | sort)
	avail=$(stat -f -c '%a * %S' full)
	# room for a page or two: the first changed file fits, a later one does not
	head -c $(( $avail - 8192 )) /dev/zero > full/filler 2>/dev/null
	"$TPGEN" --tracefs "$ev" -o full vb/t.yaml 2> full.err && fail "full: generation on a full disk succeeded"
	grep -q 'No space left on device' full.err || fail "full: $(cat full.err)"
	rm -f full/filler
	[ "$(find full -mindepth 1 -printf '%p %s %T@\n' | sort)" = "$before" ] ||
		fail "full: the pair changed: $(diff <(echo "$before") <(find full -mindepth 1 -printf '%p %s %T@\n' | sort))"
	[ "$(version full/t)" = a ] || fail "full: out/t is $(version full/t)"
	umount full
	echo "ok: a full disk leaves the old pair whole"
elif [ "${TPGEN_REQUIRE_LIVE:-0}" = 1 ]; then
	fail "cannot mount a small tmpfs for the full-disk case"
else
	echo "SKIP (part): full disk needs root to mount a tmpfs"
fi
