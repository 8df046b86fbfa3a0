#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Checks a loader's output for tests/t_hostile_output.sh against an oracle of
# its own: the escaping of docs/output.md, written from Python's UTF-8 codec.
#   check.py opensnoop FILE MARK     a line per payload, path and comm
#                                    escaped as the oracle says
#   check.py execsnoop FILE          a line per exec, the comm escaped
#   check.py json FILE KEY MARK      each line parses; the string round-trips
#   check.py folded FILE COMM        every line "frames count"; COMM escaped
import json
import re
import sys

sys.path.insert(0, sys.path[0])
from forge import payloads  # noqa: E402


def escape(b, also=b''):
    """strace / ls -b: valid UTF-8 (but C1 controls) as is, the rest \\xNN"""
    out, i = [], 0
    while i < len(b):
        c = b[i]
        if c == 0x5c:
            out.append('\\\\')
        elif c in (9, 10, 13):
            out.append({9: '\\t', 10: '\\n', 13: '\\r'}[c])
        elif 0x20 <= c < 0x7f and c not in also:
            out.append(chr(c))
        else:
            for n in (2, 3, 4):
                try:
                    ch = b[i:i + n].decode('utf-8')
                except UnicodeDecodeError:
                    continue
                if len(ch) == 1 and ord(ch) >= 0xa0:
                    out.append(ch)
                    i += n
                    break
            else:
                out.append('\\x%02x' % c)
                i += 1
            continue
        i += 1
    return ''.join(out)


def safe(raw, what):
    """no control byte but the newlines, valid UTF-8, no C1 control"""
    try:
        text = raw.decode('utf-8')
    except UnicodeDecodeError as e:
        sys.exit('%s: invalid UTF-8 reaches the terminal: %r' % (what, raw[e.start - 20:e.end + 20]))
    bad = re.search('[\x00-\x09\x0b-\x1f\x7f-\x9f]', text)
    if bad:
        sys.exit('%s: a control character %r reaches the terminal' % (what, bad.group()))
    return text


def fail(msg):
    sys.exit('check.py: ' + msg)


def main():
    mode, path = sys.argv[1], sys.argv[2]
    raw = open(path, 'rb').read()
    pl = payloads()
    if mode == 'opensnoop':
        mark = sys.argv[3].encode()
        lines = safe(raw, path).split('\n')
        for i, p in enumerate(pl):
            key = escape(mark + b'%d-' % i)
            hits = [l for l in lines if key in l]
            want_path = escape(mark + b'%d-' % i + p + b'-E')
            want_comm = ' %s ' % escape((b'c%d-' % i + p)[:15])
            if len(hits) != 1 or not hits[0].endswith(' ' + want_path) or want_comm not in hits[0]:
                fail('%s: payload %d (%s): %d lines with %r, not one ending %r with comm %r:\n%s' %
                     (path, i, p.hex(), len(hits), key, want_path, want_comm, '\n'.join(hits)))
    elif mode == 'execsnoop':
        lines = safe(raw, path).split('\n')
        execs = [l for l in lines if re.search(r" true (\$?'x|x)", l)]
        if len(execs) != len(pl):
            fail('%s: %d lines of execs, not %d' % (path, len(execs), len(pl)))
        for i, p in enumerate(pl):
            want = ' %s ' % escape((b'%d-' % i + p)[:15])
            if not any(want in l for l in execs):
                fail('%s: payload %d (%s): no exec of comm %r' % (path, i, p.hex(), want))
    elif mode == 'json':
        key, mark = sys.argv[3], sys.argv[4].encode()
        got = {}
        for n, line in enumerate(raw.split(b'\n')[:-1]):
            try:
                rec = json.loads(line)
            except ValueError as e:
                fail('%s:%d: not JSON (%s): %r' % (path, n + 1, e, line[:200]))
            v = rec.get(key)
            if isinstance(v, str):
                got.setdefault(v.encode('utf-8', 'surrogateescape'), 0)
                got[v.encode('utf-8', 'surrogateescape')] += 1
        for i, p in enumerate(pl):
            want = {'path': mark + b'%d-' % i + p + b'-E', 'comm': (b'c%d-' % i + p)[:15]}[key]
            if got.get(want) != 1:
                fail('%s: payload %d (%s): %s=%r seen %s times, not once' %
                     (path, i, p.hex(), key, want, got.get(want, 0)))
        if 'café'.encode() not in raw:
            fail('%s: valid UTF-8 (café) did not pass through as it is' % path)
    elif mode == 'folded':
        comm = sys.argv[3].encode()
        lines = safe(raw, path).split('\n')[:-1]
        for l in lines:
            if not re.fullmatch(r'\S.* [0-9]+', l):
                fail('%s: not a folded sample: %r' % (path, l))
        want = escape(comm[:15], b';').replace(' ', '_') + ';'
        if not any(l.startswith(want) for l in lines):
            fail('%s: no sample of %r (as %r)' % (path, comm, want))
    else:
        fail('unknown mode ' + mode)


if __name__ == "__main__":
    main()
