#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Names from a print fmt reach root's terminal as the loader prints them: a
# snapshot's format file may name a value with any byte through C escapes
# ("\x1b[2J", "\n"). For every byte 0x01..0xff, and escape sequences, a
# forged line, C1 controls and valid UTF-8, as __print_symbolic and
# __print_flags names: the strings the generated loader holds (its C string
# literals, read back as C reads them) are valid UTF-8 with no control
# character, each name still its own, and valid UTF-8 (café) kept.
. "$(dirname "$0")/lib.sh"
cd "$TPGEN_ROOT" || exit 1

ev=$T/events/pf/evil
mkdir -p "$ev"
python3 - "$ev/format" <<'PY' || fail "writing the format file"
import sys
names = ['\\x%02x' % b for b in range(1, 256)]
names += ['\\x1b[2J\\x1b[31mroot', 'x\\n12:00:00 sshd /etc/shadow', '\\xc2\\x9b[31m', 'caf\\xc3\\xa9', '\\\\e']
sym = ', '.join('{ %d, "s%s" }' % (i + 1, n) for i, n in enumerate(names))
flg = ', '.join('{ 0x%x, "f%s" }' % (1 << i, n) for i, n in enumerate(names[:40]))
open(sys.argv[1], 'w').write('''name: evil
ID: 990
format:
\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

\tfield:unsigned int state;\toffset:8;\tsize:4;\tsigned:0;
\tfield:unsigned long flags;\toffset:16;\tsize:8;\tsigned:0;

print fmt: "state=%%s flags=%%s", __print_symbolic(REC->state, %s), __print_flags(REC->flags, "|", %s)
''' % (sym, flg))
PY
cat > "$T/evil.yaml" <<'YAML'
tool: evil
events:
  - event: pf/evil
    print: [state, flags]
YAML
"$TPGEN" --tracefs "$T/events" -o "$T/out" "$T/evil.yaml" || fail "tpgen"

python3 - "$T/out/evil/evil.c" <<'PY' || fail "a print fmt name is not terminal-safe in the loader"
import re, sys

def c_string(lit):
    out, i = bytearray(), 0
    while i < len(lit):
        c = lit[i]
        if c != '\\':
            out += c.encode()
            i += 1
            continue
        m = re.match(r'[0-7]{1,3}', lit[i + 1:])
        if m:
            out.append(int(m.group(), 8))
            i += 1 + len(m.group())
            continue
        out += {'n': b'\n', 't': b'\t', '\\': b'\\', '"': b'"', '?': b'?'}[lit[i + 1]]
        i += 2
    return bytes(out)

src = open(sys.argv[1], encoding='ascii').read()
names = {}
for kind, lit in re.findall(r'^\t\{ 0x[0-9a-f]+, "((?:[sf]))((?:[^"\\]|\\.)*)" \},$', src, re.M):
    names.setdefault(kind, []).append(c_string(lit))
if len(names.get('s', [])) != 260 or len(names.get('f', [])) != 40:
    sys.exit('tables: %d symbolic and %d flag names, not 260 and 40' %
             (len(names.get('s', [])), len(names.get('f', []))))
for kind, ns in names.items():
    for n in ns:
        try:
            t = n.decode('utf-8')
        except UnicodeDecodeError:
            sys.exit('%r: invalid UTF-8 for a terminal' % n)
        if re.search('[\x00-\x1f\x7f-\x9f]', t):
            sys.exit('%r: a control character for a terminal' % n)
    if len(set(ns)) != len(ns):
        sys.exit('two names became one')
if 'café'.encode() not in names['s']:
    sys.exit('valid UTF-8 (café) was not kept: %r' % names['s'][-2])
PY
echo "PASS: 300 print fmt names with every byte: terminal-safe in the loader"
