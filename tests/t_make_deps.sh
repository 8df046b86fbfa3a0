#!/bin/bash
# Plain 'make' on a machine without the build packages: before compiling, it
# looks for the headers tpgen includes and, when one is missing, installs the
# packages (root) or names them -- never a compiler's "No such file".
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT"
first=$(make -n -B tpgen 2>/dev/null | grep -v '^mkdir\|^printf.*EMBED\|^sh gen/embed' | head -n 2)
grep -q 'include <bpf/libbpf.h>' <<<"$first" || fail "make does not look for the build headers first: $first"
make -s build-deps || fail "build-deps fails with every package installed"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	# a header that is not there, a package that is not installed: the package is named
	out=$(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- \
		make -s -C "$TPGEN_ROOT" BUILD_HEADERS=tpgen-no-such-header.h DEPS_BUILD="make tpgen-no-such-package" \
		build-deps 2>&1) && fail "build-deps passed with a header missing"
	grep -qx 'tpgen: error: missing packages: tpgen-no-such-package (run as root, or: sudo apt-get install tpgen-no-such-package)' \
		<<<"$out" || fail "the missing package is not named: $out"
	echo "ok: a missing build header names the package to install"
else
	skip "naming the packages is checked as nobody (needs root)"
fi
