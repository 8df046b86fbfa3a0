#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Write a small raw BTF file with raw tracepoints whose names are given.

  mkbtf.py OUT TP:STRUCT:ARG[:ARG...] ...

Each TP gets 'btf_trace_<TP>' (a pointer to a prototype (void *__data,
struct <STRUCT> *<ARG0>, int <ARG1>, ...)) and '__probestub_<TP>' with the
same prototype, so the names are what tpgen reads. Names are bytes: '%xx'
is the byte 0xxx (so any byte can be given), '%%' a '%'.
"""
import struct
import sys


def unq(s):
    b = s.encode('utf-8', 'surrogateescape')
    out = bytearray()
    i = 0
    while i < len(b):
        if b[i:i + 1] == b'%' and b[i + 1:i + 2] == b'%':
            out += b'%'
            i += 2
        elif b[i:i + 1] == b'%':
            out.append(int(b[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(b[i])
            i += 1
    return bytes(out)


class Btf:
    def __init__(self):
        self.types = []
        self.strs = bytearray(b'\0')
        self.stroff = {b'': 0}

    def s(self, name):
        if name not in self.stroff:
            self.stroff[name] = len(self.strs)
            self.strs += name + b'\0'
        return self.stroff[name]

    def add(self, data):
        self.types.append(data)
        return len(self.types)

    def t(self, name, kind, vlen, size_or_type, extra=b''):
        info = (kind << 24) | vlen
        return self.add(struct.pack('<III', self.s(name), info, size_or_type) + extra)

    def raw(self):
        types = b''.join(self.types)
        hdr = struct.pack('<HBBIIIII', 0xeB9F, 1, 0, 24, 0, len(types), len(types), len(self.strs))
        return hdr + types + bytes(self.strs)


def build(specs):
    """Raw BTF bytes for specs given as (tp, struct, [args]) byte strings."""
    b = Btf()
    int_id = b.t(b'int', 1, 0, 4, struct.pack('<I', (1 << 24) | 32))
    void_ptr = b.t(b'', 2, 0, 0)
    for tp, sname, args in specs:
        st = b.t(sname, 4, 1, 4, struct.pack('<III', b.s(b'x'), int_id, 0))
        st_ptr = b.t(b'', 2, 0, st)
        params = struct.pack('<II', b.s(b'__data'), void_ptr)
        for i, a in enumerate(args):
            params += struct.pack('<II', b.s(a), st_ptr if i == 0 else int_id)
        proto = b.t(b'', 13, 1 + len(args), 0, params)
        proto_ptr = b.t(b'', 2, 0, proto)
        b.t(b'btf_trace_' + tp, 8, 0, proto_ptr)
        b.t(b'__probestub_' + tp, 12, 0, proto)
    return b.raw()


def main():
    specs = []
    for spec in sys.argv[2:]:
        parts = spec.split(':')
        specs.append((unq(parts[0]), unq(parts[1]), [unq(a) for a in parts[2:]]))
    with open(sys.argv[1], 'wb') as f:
        f.write(build(specs))


if __name__ == '__main__':
    main()
