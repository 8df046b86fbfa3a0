#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The traced side of tests/t_hostile_output.sh, run as nobody: names that try
# to forge a loader's output. 'payloads DIR' prints them (hex, one a line);
# 'open PREFIX' opens PREFIX<i>-<payload>-E for each one with the comm
# c<i>-<payload> (prctl PR_SET_NAME); 'exec DIR' runs /bin/true through
# a symlink DIR/<i>-<payload> each (the test makes them); 'sleep COMM' sleeps off-CPU under COMM.
import ctypes
import os
import sys
import time

PR_SET_NAME = 15


def payloads():
    out = [bytes([b]) for b in range(1, 256) if b != ord('/')]
    out += [s.encode() for s in ('café', '日本語', '😀', '\\x41', '\\')]
    out += [b'\xc2\x80', b'\xc2\x9b[2J', b'\xc0\xaf', b'\xe0\x80\xaf', b'\xed\xa0\x80',
            b'\xf4\x90\x80\x80', b'\xe6\x97', b'\x1b[31mRED\x1b[0m', b'\x1b]0;title\x07',
            b'x\n12:00:00  1 sshd  3 0 \xc3\xa9tc-shadow', b'a;b 99999999\nsshd;main 1']
    return out


def set_comm(name):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NAME, ctypes.c_char_p(name[:15]), 0, 0, 0):
        sys.exit('prctl: %s' % os.strerror(ctypes.get_errno()))


def main():
    what, arg = sys.argv[1], os.fsencode(sys.argv[2])
    if what == 'payloads':
        for p in payloads():
            print(p.hex())
    elif what == 'open':
        for i, p in enumerate(payloads()):
            set_comm(b'c%d-' % i + p)
            try:
                os.close(os.open(arg + b'%d-' % i + p + b'-E', os.O_RDONLY))
            except OSError:
                pass
    elif what == 'exec':
        for i, p in enumerate(payloads()):
            pid = os.fork()
            if pid == 0:
                os.execv(arg + b'/%d-' % i + p, [b'true', b'x' + p])
            os.waitpid(pid, 0)
    elif what == 'sleep':
        set_comm(arg)
        for _ in range(20):
            time.sleep(0.02)


if __name__ == "__main__":
    main()
