/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Program pairs: a YAML spec (gen/spec.c) resolved against the kernel's
 * events and raw tracepoints into a model of one BPF program and its loader,
 * then emitted through the templates (gen/emit_prog.c).
 */
#ifndef __TPGEN_PROG_H
#define __TPGEN_PROG_H

/* tpgen SPEC... [-o DIR] [--tracefs DIR] [--btf FILE] [--templates DIR]: an exit code. */
int cmd_generate(int argc, char **argv);

#endif /* __TPGEN_PROG_H */
