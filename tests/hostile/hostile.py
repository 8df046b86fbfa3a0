#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Hostile names through every emitter (tests/t_hostile.sh runs this).

Every byte value 1..255 and a list of payloads (*/, ", \\, newline, %, :, $,
very long names) is put, one at a time, where an outside name goes:

  tracefs  system and event directory names, field names, type and array text
  release  a snapshot's release line
  BTF      raw tracepoint, struct and argument names (tests/hostile/mkbtf.py)
  paths    the --tracefs directory a depfile names

and run through 'headers', 'headers --raw', 'list' (text and JSON), 'diff'
and -M depfiles. Each run must either refuse the input -- exit 1, exactly one
diagnostic line in compiler form, no output file -- or succeed with no
diagnostic. Nothing tpgen prints may carry a control byte. Then everything
accepted is put together and compiled (clang for bpf, gcc for the host,
-Wall -Wextra -Werror, through a .c that includes the header), and the
object's debug info must declare exactly the structs 'tpgen list --json'
names (and the fixed-width typedefs): no other struct, typedef, variable or
function, so no name smuggled a declaration in. A depfile of accepted names
is read back by make, which must see exactly the inputs.
"""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkbtf  # noqa: E402

TPGEN = os.environ.get('TPGEN', './tpgen')
ROOT = os.environ.get('TPGEN_ROOT', '.')
WORK = sys.argv[1]
JOBS = int(os.environ.get('HOSTILE_JOBS', '4'))
failures = []
counts = {}

PAYLOADS = [b'*/', b'/*', b'"', b'\\', b'\n', b'\t', b'%s%n', b':', b'$(shell x)', b'\x1b[2J',
            b'*/ int x = 42; /*', b'x"); int y; _Static_assert(1, "', b'\xff\xfe', b'\xc2\x9b',
            b'a.b', b'a-b', b'123', b'default', b'int', b'__tpgen_inline', b'x' * 200]
BYTES = [bytes([b]) for b in range(1, 256)]
DIAG = re.compile(rb'^[^\n]*(:\d+(:\d+)?)?: error: [^\n]*\n$')
FIXED = {'__s8', '__u8', '__s16', '__u16', '__s32', '__u32', '__s64', '__u64'}


def fail(what):
    failures.append(what)
    print('FAIL:', what)


def has_control(b):
    return any(c < 0x20 and c not in (0x0a, 0x09) or c == 0x7f for c in b)


def run(args, **kw):
    return subprocess.run([TPGEN] + args, capture_output=True, **kw)


def fmt_text(fields):
    """A format file: the common fields, then 'fields' (declaration bytes, offset, size)."""
    t = b'name: e\nID: 7\nformat:\n'
    t += b'\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n'
    t += b'\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n'
    t += b'\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n'
    t += b'\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n'
    for decl, off, size in fields:
        t += b'\tfield:' + decl + b';\toffset:%d;\tsize:%d;\tsigned:0;\n' % (off, size)
    return t + b'\nprint fmt: "x"\n'


def write_event(root, sys_, ev, fields):
    d = os.path.join(os.fsencode(root), sys_, ev)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, b'format'), 'wb') as f:
        f.write(fmt_text(fields))


def check_outcome(what, r, outputs):
    """Refused (exit 1, one located diagnostic, no output) or accepted (exit 0, silent)."""
    for stream in (r.stdout, r.stderr):
        if has_control(stream):
            return fail('%s: a control byte reached the terminal: %r' % (what, stream[:200]))
    if r.returncode == 1:
        if not DIAG.match(r.stderr):
            return fail('%s: refused without one located diagnostic: %r' % (what, r.stderr[:300]))
        for o in outputs:
            if os.path.exists(o):
                return fail('%s: refused, yet %s was written' % (what, o))
        return 'refused'
    if r.returncode != 0:
        return fail('%s: exit %d: %r' % (what, r.returncode, r.stderr[:300]))
    if r.stderr:
        return fail('%s: accepted with a diagnostic: %r' % (what, r.stderr[:300]))
    return 'accepted'


def dwarf_decls(obj):
    """Top-level structs (defined), typedefs, variables and functions in obj's DWARF."""
    out = subprocess.run(['llvm-dwarfdump', '--debug-info', obj], capture_output=True, text=True,
                         errors='replace').stdout
    decls, cur = [], None
    for line in out.splitlines():
        m = re.match(r'^0x[0-9a-f]+:( +)(DW_TAG_\w+)', line)
        if m:
            cur = {'tag': m.group(2), 'depth': len(m.group(1)), 'name': None, 'decl': False}
            decls.append(cur)
            continue
        m = re.match(r'^\s+DW_AT_name\s+\("(.*)"\)', line)
        if m and cur:
            cur['name'] = m.group(1)
        if cur and re.match(r'^\s+DW_AT_declaration\s+\(true\)', line):
            cur['decl'] = True
    top = min((d['depth'] for d in decls if d['tag'] != 'DW_TAG_compile_unit'), default=0)
    res = {'struct': set(), 'typedef': set(), 'variable': set(), 'subprogram': set(), 'union': set()}
    for d in decls:
        if d['depth'] != top:
            continue
        key = {'DW_TAG_structure_type': 'struct', 'DW_TAG_typedef': 'typedef', 'DW_TAG_variable': 'variable',
               'DW_TAG_subprogram': 'subprogram', 'DW_TAG_union_type': 'union'}.get(d['tag'])
        if key and d['name'] and not d['decl']:
            res[key].add(d['name'])
    return res


def compile_check(what, header, want_structs):
    """The header compiles clean for bpf and the host and declares exactly want_structs."""
    base = header[:-2]
    with open(base + '.c', 'w') as f:
        f.write('#include "%s"\n' % os.path.basename(header))
    flags = ['-Wall', '-Wextra', '-Werror', '-g', '-fno-eliminate-unused-debug-types', '-c']
    for cc in (['clang', '-target', 'bpf', '-O2', '-D__TARGET_ARCH_x86'], ['gcc', '-O2']):
        r = subprocess.run(cc + flags + [base + '.c', '-o', base + '.o'], capture_output=True, text=True,
                           errors='replace')
        if r.returncode:
            return fail('%s: %s does not compile the accepted names: %s' % (what, cc[0], r.stderr[:800]))
        nm = subprocess.run(['nm', '--defined-only', base + '.o'], capture_output=True, text=True).stdout
        if nm.strip():
            return fail('%s: %s: the header defines symbols: %s' % (what, cc[0], nm[:300]))
    d = dwarf_decls(base + '.o')
    d['struct'] -= {'tpgen_trace_entry'}	# the common header every ctx header shares
    if d['struct'] != set(want_structs):
        return fail('%s: structs %s, want %s' % (what, sorted(d['struct'] ^ set(want_structs))[:10],
                                                   len(want_structs)))
    if d['typedef'] - FIXED or d['variable'] or d['subprogram'] or d['union']:
        return fail('%s: declarations no name should make: %s' % (what, {k: v for k, v in d.items()
                                                                       if k != 'struct'}))
    return True


def listed_structs(tree, extra=()):
    r = run(['list', '--json', '--tracefs', tree] + list(extra))
    if r.returncode:
        fail('list --json %s: exit %d %r' % (tree, r.returncode, r.stderr[:300]))
        return []
    try:
        return [e['struct'] for e in json.loads(r.stdout)['events']]
    except ValueError as e:
        fail('list --json %s: not JSON: %s' % (tree, e))
        return []


def tracefs_positions():
    """Where a byte or payload goes in a tree: (position, function(case) -> (sys, ev, fields))."""
    def sysname(x):
        return b'x' + x + b'y', b'e', [(b'int v', 8, 4)]

    def evname(x):
        return b's', b'x' + x + b'y', [(b'int v', 8, 4)]

    def field(x):
        return b's', b'e', [(b'int f' + x + b'g', 8, 4)]

    def ftype(x):
        return b's', b'e', [(b'unsigned ' + x + b' v', 8, 4)]

    def ptr(x):
        return b's', b'e', [(b'struct t' + x + b' *p', 8, 8)]

    def array(x):
        return b's', b'e', [(b'char v[' + x + b']', 8, 16)]

    def dataloc(x):
        return b's', b'e', [(b'__data_loc char[] d' + x, 8, 4)]

    return [('sys', sysname), ('event', evname), ('field', field), ('type', ftype),
            ('pointer', ptr), ('array', array), ('data_loc', dataloc)]


def pmap(fn, items):
    with concurrent.futures.ThreadPoolExecutor(JOBS) as ex:
        return list(ex.map(fn, items))


def tally(what, res):
    counts[(what, res)] = counts.get((what, res), 0) + 1


def test_tracefs():
    for pos, make in tracefs_positions():
        cases = []
        for i, x in enumerate(BYTES + PAYLOADS):
            s, e, fields = make(x)
            if b'/' in s or b'/' in e or len(s) > 250 or len(e) > 250:
                continue	# not a file name
            case = os.path.join(WORK, 'tracefs', pos, str(i))
            write_event(os.path.join(case, 'events'), s, e, fields)
            cases.append((i, x, s, e, fields, case))

        def one(c):
            i, x, s, e, fields, case = c
            tree, out, dep = (os.path.join(case, n) for n in ('events', 'out.h', 'out.d'))
            res = check_outcome('%s %r' % (pos, x), run(['headers', '--tracefs', tree, '-o', out, '-M', dep]),
                                [out, dep])
            if x in PAYLOADS:	# list, text and JSON, agree
                for args in (['list', '--tracefs', tree], ['list', '--json', '--tracefs', tree]):
                    if check_outcome('%s %r: %s' % (pos, x, ' '.join(args[:2])), run(args), []) != res:
                        fail('%s %r: %s and headers disagree' % (pos, x, ' '.join(args[:2])))
            return res
        accepted = []
        for c, res in zip(cases, pmap(one, cases)):
            tally(pos, res)
            if res == 'accepted':
                accepted.append(c)
        if not accepted:
            continue
        # everything accepted at this position, in one tree: one header that compiles
        tree = os.path.join(WORK, 'tracefs', pos, 'all', 'events')
        for i, x, s, e, fields, case in accepted:
            if pos in ('sys', 'event'):
                write_event(tree, s, e, fields)
            else:
                write_event(tree, s, b'e%d' % i, fields)
        hdr = os.path.join(WORK, 'tracefs', pos, 'all', 'all.h')
        r = run(['headers', '--tracefs', tree, '-o', hdr])
        if r.returncode:
            fail('%s: the accepted names together: exit %d %r' % (pos, r.returncode, r.stderr[:300]))
            continue
        for args in (['list', '--tracefs', tree], ['list', '--json', '--tracefs', tree]):
            check_outcome('%s: %s of every accepted name' % (pos, ' '.join(args[:2])), run(args), [])
        want = listed_structs(tree)
        if compile_check('tracefs %s (%d names)' % (pos, len(accepted)), hdr, want):
            tally(pos, 'compiled')


def test_release():
    base = os.path.join(WORK, 'release')
    cases = []
    for i, x in enumerate(BYTES + PAYLOADS):
        k = os.path.join(base, str(i))
        write_event(os.path.join(k, 'events'), b'sched', b'sched_switch', [(b'int v', 8, 4)])
        with open(os.path.join(k, 'vmlinux'), 'wb') as f:
            f.write(mkbtf.build([(b'sched_switch', b'task_struct', [b'prev'])]))
        with open(os.path.join(k, 'release'), 'wb') as f:
            f.write(b'6.1' + x + b'0\n')
        cases.append((i, x, k))

    def one(c):
        i, x, k = c
        out = os.path.join(k, 'ctx.h')
        res = check_outcome('release %r' % x, run(['headers', '--kernel', k, '-o', out]), [out])
        for args in (['diff', k, k], ['headers', '--raw', '--kernel', k], ['list', '--kernel', k]):
            if x not in PAYLOADS and not x.isalnum() and x not in (b'.', b'-', b'~', b':', b'+'):
                break	# refused bytes: headers said so; the others say it for the payloads
            if check_outcome('%s, release %r' % (args[0], x), run(args), []) != res:
                fail('release %r: %s and headers disagree' % (x, ' '.join(args[:2])))
        if res == 'accepted':
            banner = open(out, 'rb').read().split(b'\n')[1]
            if not re.match(rb'^/\* generated by tpgen \S+ for kernel 6\.1[A-Za-z0-9._+~:-]+0 '
                            rb'\(inputs [0-9a-f]{16}\): do not edit \*/$', banner):
                fail('release %r: banner %r' % (x, banner))
        return res
    accepted = []
    for c, res in zip(cases, pmap(one, cases)):
        tally('release', res)
        if res == 'accepted':
            accepted.append(c)
    if accepted:	# the banners only differ in the release: compile the odd ones
        for i, x, k in accepted:
            if not x.isalnum() and compile_check('release %r' % x, os.path.join(k, 'ctx.h'), ['sched_switch_ctx']):
                tally('release', 'compiled')


def test_btf():
    positions = {'tp': lambda x: (b'x' + x + b'y', b's', b'a'), 'struct': lambda x: (b'tp', b's' + x + b't', b'a'),
                 'arg': lambda x: (b'tp', b's', b'a' + x + b'b')}
    fixtures = os.path.join(ROOT, 'tests/fixtures/events')
    for pos, make in positions.items():
        cases = []
        for i, x in enumerate(BYTES + PAYLOADS):
            tp, st, arg = make(x)
            if pos != 'tp':
                tp = b'tp%d' % i	# one header of everything accepted: names apart
            if pos != 'struct':
                st = b's%d' % i
            case = os.path.join(WORK, 'btf', pos, str(i))
            os.makedirs(case)
            with open(os.path.join(case, 'vmlinux'), 'wb') as f:
                f.write(mkbtf.build([(tp, st, [arg])]))
            cases.append((i, x, (tp, st, [arg]), case))

        def one(c):
            i, x, spec, case = c
            btf, out = os.path.join(case, 'vmlinux'), os.path.join(case, 'raw.h')
            res = check_outcome('btf %s %r' % (pos, x), run(['headers', '--raw', '--btf', btf, '-o', out]), [out])
            if x in PAYLOADS:
                r2 = run(['list', '--tracefs', fixtures, '--btf', btf])
                if check_outcome('list --btf %s %r' % (pos, x), r2, []) != res:
                    fail('btf %s %r: list and headers --raw disagree' % (pos, x))
            return res
        accepted = []
        for c, res in zip(cases, pmap(one, cases)):
            tally('btf ' + pos, res)
            if res == 'accepted':
                accepted.append(c)
        if not accepted:
            continue
        # one BTF with every accepted tracepoint
        d = os.path.join(WORK, 'btf', pos, 'all')
        os.makedirs(d)
        btf, hdr = os.path.join(d, 'vmlinux'), os.path.join(d, 'all.h')
        with open(btf, 'wb') as f:
            f.write(mkbtf.build([spec for _, _, spec, _ in accepted]))
        r = run(['headers', '--raw', '--btf', btf, '-o', hdr])
        if r.returncode:
            fail('btf %s: every accepted name in one BTF: exit %d %r' % (pos, r.returncode, r.stderr[:300]))
            continue
        for args in (['list', '--tracefs', fixtures, '--btf', btf], ['list', '--json', '--tracefs', fixtures,
                                                                     '--btf', btf]):
            check_outcome('btf %s: %s' % (pos, ' '.join(args[:2])), run(args), [])
        if compile_check('btf %s (%d accepted)' % (pos, len(accepted)), hdr,
                         {spec[0].decode() + '_raw_args' for _, _, spec, _ in accepted}):
            tally('btf ' + pos, 'compiled')


def test_depfile_paths():
    """Paths a user gives (--tracefs DIR): escaped so that make reads them back, or refused."""
    fixtures = os.path.join(ROOT, 'tests/fixtures/events')
    base = os.fsencode(os.path.join(WORK, 'paths'))
    os.makedirs(base)
    cases = []
    for i, x in enumerate(BYTES + PAYLOADS):
        if b'/' in x or len(x) > 100:
            continue
        tree = b'%d/d%se' % (i, x)
        os.makedirs(os.path.join(base, tree, b'sched'))
        shutil.copytree(os.fsencode(fixtures + '/sched/sched_switch'), os.path.join(base, tree, b'sched/sched_switch'))
        cases.append((i, x, tree))

    def one(c):
        i, x, tree = c
        out, dep = b'%d/ctx.h' % i, b'%d/ctx.d' % i
        r = subprocess.run([os.fsencode(TPGEN), b'headers', b'--tracefs', tree, b'-o', out, b'-M', dep],
                           capture_output=True, cwd=base)
        return check_outcome('depfile path %r' % x, r, [os.path.join(base, out), os.path.join(base, dep)])
    accepted = []
    for c, res in zip(cases, pmap(one, cases)):
        tally('depfile path', res)
        if res == 'accepted':
            accepted.append(c)
    # one makefile including every depfile: make must see each input, and only
    # the inputs touched make their header out of date
    with open(os.path.join(base, b'Makefile'), 'wb') as f:
        f.write(b'all: ' + b' '.join(b'%d/ctx.h' % i for i, _, _ in accepted) + b'\n')
        f.write(b'%/ctx.h:\n\t@echo rebuild $@\n')
        for i, _, _ in accepted:
            f.write(b'include %d/ctx.d\n' % i)
    for n, (i, x, tree) in enumerate(accepted):
        os.utime(os.path.join(base, b'%d/ctx.h' % i), (1e9 + 100, 1e9 + 100))
        os.utime(os.path.join(base, tree, b'sched/sched_switch/format'), (1e9 + (200 if n % 2 else 0),) * 2)
    m = subprocess.run(['make', '-n', '-s'], capture_output=True, cwd=base)
    if m.returncode:
        return fail('make cannot read the depfiles: %r' % m.stderr[:500])
    rebuilt = set(re.findall(rb'^(?:echo )?rebuild (\d+)/ctx.h$', m.stdout, re.M))
    want = {b'%d' % i for n, (i, _, _) in enumerate(accepted) if n % 2}
    if rebuilt != want:
        bad = rebuilt ^ want
        return fail('make sees other inputs than tpgen read for %r' %
                    [x for i, x, _ in accepted if b'%d' % i in bad][:20])
    tally('depfile path', 'made')


def main():
    test_tracefs()
    test_release()
    test_btf()
    test_depfile_paths()
    for k in sorted(counts):
        print('%-24s %-9s %d' % (k[0], k[1], counts[k]))
    if failures:
        print('%d failures' % len(failures))
        sys.exit(1)
    print('ok: every hostile name refused with one located error, or compiled to exactly its declarations')


main()
