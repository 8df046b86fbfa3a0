#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""
The rules of gen/'s pipeline (lib -> input -> model -> emit -> out -> cmd), checked
from the sources' #include lines and the objects' symbols (nm):

  - a file includes and calls only the stages its own may use (STAGES below);
  - no call cycle between files, of any length;
  - only input/ and out/ read files, only out/ writes them, and only lib/, out/
    and cmd/ print; model/ and emit/ call no input file that reads;
  - emit/ never sorts, and never reads the spec (->spec, ->sp->, ->sa->, spec_*
    structs): the model holds what the emitters print.

usage: check_layers.py GEN_DIR BUILD_DIR [--graph]
Prints one line per broken rule ("gen/emit/x.c: calls gen/input/y.c (load_template):
emit may not call input files that read") and exits 1; with --graph, the file-level
call graph (files, edges, cycles) first.
"""
import collections
import os
import re
import subprocess
import sys

# stage -> the stages whose headers it may include and whose functions it may call.
# input sees the model's types (headers) but calls nothing of it.
STAGES = {
    "lib":   {"include": {"lib"}, "call": {"lib"}},
    "input": {"include": {"lib", "input", "model"}, "call": {"lib", "input"}},
    "model": {"include": {"lib", "input", "model"}, "call": {"lib", "input", "model"}},
    "emit":  {"include": {"lib", "input", "model", "emit"}, "call": {"lib", "input", "model", "emit"}},
    "out":   {"include": {"lib", "input", "out"}, "call": {"lib", "input", "out"}},
    "cmd":   {"include": {"lib", "input", "model", "emit", "out", "cmd"},
              "call": {"lib", "input", "model", "emit", "out", "cmd"}},
}

READS = {"open", "open64", "openat", "openat64", "fopen", "fopen64", "fdopen", "opendir",
         "fdopendir", "readdir", "readdir64", "read", "pread", "pread64", "readlink",
         "readlinkat", "stat", "stat64", "lstat", "lstat64", "fstatat", "fstatat64",
         "access", "faccessat", "getline", "getdelim", "fgets", "fread", "scandir",
         "glob", "nftw", "mount", "btf__parse", "btf__parse_raw", "btf__parse_split",
         "btf__parse_raw_split", "btf__parse_elf", "btf__load_vmlinux_btf", "bpf_prog_load",
         "bpf_map_create", "bpf_map_lookup_elem", "bpf_prog_test_run_opts", "popen", "system"}
WRITES = {"write", "pwrite", "pwrite64", "rename", "renameat", "renameat2", "mkstemp",
          "mkstemp64", "mkostemp", "mkostemp64", "mkdtemp", "unlink", "unlinkat", "rmdir",
          "fsync", "fdatasync", "mkdir", "mkdirat", "fchmod", "chmod", "symlink",
          "symlinkat", "link", "linkat", "ftruncate", "truncate", "creat"}
PRINTS = {"fwrite", "fputs", "fputc", "putc", "fprintf", "printf", "vfprintf", "vprintf",
          "puts", "putchar", "dprintf", "perror"}
SORTS = {"qsort", "qsort_r"}
MAY_READ = {"input", "out"}
MAY_WRITE = {"out"}
MAY_PRINT = {"lib", "out", "cmd"}


def stage_of(path):
    parts = path.split(os.sep)
    return parts[-2] if len(parts) >= 2 else None


def nm(obj):
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "TDBRVW":
            defined.add(f[2])
        elif len(f) == 2 and f[0] == "U":
            undefined.add(f[1])
    return defined, undefined


def sccs(nodes, edges):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(100000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    gen, build = sys.argv[1].rstrip("/"), sys.argv[2].rstrip("/")
    errors = []

    # sources: every file sits in a stage folder, and includes name the stage
    files = {}
    for stage in sorted(os.listdir(gen)):
        d = os.path.join(gen, stage)
        if not os.path.isdir(d):
            continue
        if stage not in STAGES:
            errors.append(f"{d}: not a stage ({', '.join(STAGES)})")
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith((".c", ".h")):
                files[os.path.join(d, f)] = stage
    for f in sorted(os.listdir(gen)):
        if f.endswith((".c", ".h")):
            errors.append(f"{gen}/{f}: outside the stage folders")

    spec_re = re.compile(r'->spec\b|->sp->|->sa->|\bstruct spec(_[a-z]+)?\b')
    for path, stage in files.items():
        if stage != "emit":
            continue
        with open(path, encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                code = re.sub(r'/\*.*?\*/|//.*$', '', line)
                if spec_re.search(code):
                    errors.append(f"{path}:{lineno}: reads the spec: emitters print the model")

    inc_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    for path, stage in files.items():
        with open(path, encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                m = inc_re.match(line)
                if not m:
                    continue
                target = m.group(1)
                tstage = target.split("/")[0] if "/" in target else None
                if tstage not in STAGES:
                    errors.append(f"{path}:{lineno}: includes \"{target}\": name the stage (\"lib/util.h\")")
                elif tstage not in STAGES[stage]["include"]:
                    errors.append(f"{path}:{lineno}: includes \"{target}\": {stage} may not include {tstage}")

    # objects: who defines what, who calls what
    defs, undefs = {}, {}
    for path, stage in files.items():
        if not path.endswith(".c"):
            continue
        obj = os.path.join(build, stage, os.path.basename(path)[:-2] + ".o")
        if not os.path.exists(obj):
            errors.append(f"{obj}: missing (build tpgen first)")
            continue
        defs[path], undefs[path] = nm(obj)
    owner = {}
    for path, d in defs.items():
        for s in d:
            owner[s] = path
    edges = collections.defaultdict(set)
    why = {}
    for path, u in undefs.items():
        for s in sorted(u):
            t = owner.get(s)
            if t and t != path:
                edges[path].add(t)
                why.setdefault((path, t), s)

    reads = {p for p, u in undefs.items() if u & READS}
    for path, u in sorted(undefs.items()):
        stage = files[path]
        for what, syms, allowed in (("reads files", READS, MAY_READ),
                                     ("writes files", WRITES, MAY_WRITE),
                                     ("prints", PRINTS, MAY_PRINT)):
            bad = sorted(u & syms)
            if bad and stage not in allowed:
                errors.append(f"{path}: {what} ({', '.join(bad)}): only {', '.join(sorted(allowed))} may")
        if stage == "emit" and u & SORTS:
            errors.append(f"{path}: sorts ({', '.join(sorted(u & SORTS))}): emitters walk the model's order")
        for t in sorted(edges.get(path, ())):
            tstage = files[t]
            if tstage not in STAGES[stage]["call"]:
                errors.append(f"{path}: calls {t} ({why[(path, t)]}): {stage} may not call {tstage}")
            elif stage in ("model", "emit") and t in reads:
                errors.append(f"{path}: calls {t} ({why[(path, t)]}): {stage} may not call input files that read")

    cycles = [c for c in sccs(defs.keys(), edges) if len(c) > 1]
    for c in cycles:
        pairs = [f"{os.path.basename(a)} -> {os.path.basename(b)} ({why[(a, b)]})"
                 for a in c for b in sorted(edges[a]) if b in c]
        errors.append("call cycle: " + ", ".join(pairs))

    if "--graph" in sys.argv:
        nedges = sum(len(v) for v in edges.values())
        print(f"files {len(defs)}, edges {nedges}, cycles {len(cycles)}")
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
