#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Install the Debian packages named on the command line that are missing.
missing=
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "tpgen: error: missing packages:$missing (run as root, or: sudo apt-get install$missing)" >&2
	exit 3
fi
echo "  DEPS    installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null || { echo "tpgen: error: apt-get update failed" >&2; exit 3; }
apt-get install -y -q --no-install-recommends $missing >/dev/null ||
	{ echo "tpgen: error: apt-get install$missing failed" >&2; exit 3; }
