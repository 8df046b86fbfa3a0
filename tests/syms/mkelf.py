#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""mkelf, for tests/t_syms_hostile.sh: small ET_DYN ELF files with function symbols.

  mkelf.py funcs OUT NAME...          one function per name, 0x100 bytes each from 0x1000
  mkelf.py buildid OUT                a GNU build-id note whose n_descsz is 0x80000010, in a sparse
                                      file of 2 GiB (8 KiB on disk)
  mkelf.py bigstr OUT NSYMS LEN       NSYMS functions all named by one string of LEN bytes
  mkelf.py longnames OUT NSYMS LEN    NSYMS functions with distinct names of LEN bytes
"""
import os
import struct
import sys

EM = {"x86_64": 62, "aarch64": 183}.get(os.uname().machine, 62)
STT_FUNC, STB_GLOBAL = 2, 1


def write(path, syms, strtab, text_size=0x1000, note_descsz=None):
    """syms: (name offset in strtab, value, size)."""
    shstr = b"\0.text\0.symtab\0.strtab\0.shstrtab\0.note.gnu.build-id\0"
    name = {n: shstr.index(n.encode() + b"\0") for n in (".text", ".symtab", ".strtab", ".shstrtab",
                                                          ".note.gnu.build-id")}
    text_off = 0x1000
    symtab = b"\0" * 24 + b"".join(struct.pack("<IBBHQQ", n, (STB_GLOBAL << 4) | STT_FUNC, 0, 1, v, s)
                                   for n, v, s in syms)
    symtab_off = text_off + text_size
    strtab_off = symtab_off + len(symtab)
    shstr_off = strtab_off + len(strtab)
    shdr_off = (shstr_off + len(shstr) + 7) & ~7
    shdrs = [b"\0" * 64,
             struct.pack("<IIQQQQIIQQ", name[".text"], 1, 6, text_off, text_off, text_size, 0, 0, 16, 0),
             struct.pack("<IIQQQQIIQQ", name[".symtab"], 2, 0, 0, symtab_off, len(symtab), 3, 1, 8, 24),
             struct.pack("<IIQQQQIIQQ", name[".strtab"], 3, 0, 0, strtab_off, len(strtab), 0, 0, 1, 0),
             struct.pack("<IIQQQQIIQQ", name[".shstrtab"], 3, 0, 0, shstr_off, len(shstr), 0, 0, 1, 0)]
    note_off = (shdr_off + 64 * (len(shdrs) + 1) + 0xfff) & ~0xfff
    note = b""
    if note_descsz is not None:
        note = struct.pack("<III", 4, note_descsz, 3) + b"GNU\0" + b"\xab" * 64
        shdrs.append(struct.pack("<IIQQQQIIQQ", name[".note.gnu.build-id"], 7, 2, 0, note_off,
                                 16 + note_descsz, 0, 0, 4, 0))
    load = text_off + text_size
    ehdr = b"\x7fELF\x02\x01\x01" + b"\0" * 9 + struct.pack(
        "<HHIQQQIHHHHHH", 3, EM, 1, 0, 64, shdr_off, 0, 64, 56, 1, 64, len(shdrs), 4)
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 0, 0, 0, load, load, 0x1000)
    with open(path, "wb") as f:
        f.write(ehdr + phdr)
        f.seek(text_off)
        f.write(b"\xcc" * text_size + symtab + strtab + shstr)
        f.seek(shdr_off)
        f.write(b"".join(shdrs))
        if note:
            f.seek(note_off)
            f.write(note)
            f.truncate(note_off + 16 + note_descsz)   # sparse: the rest of the note is a hole


def main():
    cmd, out = sys.argv[1], sys.argv[2]
    if cmd == "funcs":
        names = sys.argv[3:]
        strtab, syms = b"\0", []
        for i, n in enumerate(names):
            syms.append((len(strtab), 0x1000 + 0x100 * i, 0x100))
            strtab += os.fsencode(n) + b"\0"	# any byte the shell passed
        write(out, syms, strtab)
    elif cmd == "buildid":
        write(out, [(1, 0x1000, 0x100)], b"\0tpgen_buildid_fn\0", note_descsz=0x80000010)
    elif cmd == "bigstr":
        n, length = int(sys.argv[3]), int(sys.argv[4])
        write(out, [(1, 0x1000 + 8 * i, 8) for i in range(n)], b"\0" + b"A" * length + b"\0",
              text_size=max(0x1000, (8 * n + 0xfff) & ~0xfff))
    elif cmd == "longnames":
        n, length = int(sys.argv[3]), int(sys.argv[4])
        strtab, syms = bytearray(b"\0"), []
        for i in range(n):
            syms.append((len(strtab), 0x1000 + 4 * i, 4))
            strtab += (b"f%06d_" % i).ljust(length, b"x") + b"\0"
        write(out, syms, bytes(strtab), text_size=max(0x1000, (4 * n + 0xfff) & ~0xfff))
    else:
        sys.exit("mkelf.py: unknown command " + cmd)


main()
