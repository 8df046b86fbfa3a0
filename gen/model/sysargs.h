/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * raw_tp and tp_btf entries on syscalls/sys_enter_<X> and sys_exit_<X>.
 *
 * Those events have no raw tracepoint of their own: they fire from
 * sys_enter(regs, id) and sys_exit(regs, ret), for every syscall. An entry
 * on one of them tests the syscall number first (sys_enter: 'id'; sys_exit:
 * the number the registers keep, tpgen_syscall_nr()), the number taken from
 * the target's own syscall table (gen/input/sysnames.h), never from the build
 * host's headers. Its values are the event's named arguments, read from the
 * user registers as the syscall ABI places them (libbpf's
 * PT_REGS_PARMn_CORE_SYSCALL()), typed as tracepoint entries type them, so
 * one spec runs unchanged under all three attach types.
 */
#ifndef __TPGEN_SYSARGS_H
#define __TPGEN_SYSARGS_H

#include <stdbool.h>

struct prog;
struct pprobe;
struct pvalue;
struct tp_field;
struct resolver;
struct spec;
struct strbuf;
struct sysnames;

/* Does the spec have a raw_tp/tp_btf entry on syscalls/sys_enter_* or sys_exit_*? */
bool sysargs_needed(const struct spec *s);
/*
 * For a raw_tp/tp_btf probe whose raw tracepoint is found: when its event is
 * syscalls/sys_enter_<X> or sys_exit_<X>, note the event's format (argument
 * names) and X's number. 0, or -EINVAL after a located error.
 */
int sysargs_probe(struct prog *p, struct pprobe *pr);
/* A syscall argument of the probe by name (PV_SYSARG), -ENOENT, or -EINVAL (reported). */
int sysargs_value(struct resolver *r, struct pvalue *v, const char *name, size_t off);
/* Names a probe offers besides its raw arguments ('unknown field' hints). */
int sysargs_names_of(const struct pprobe *pr, const char ***names);
/* The width and sign a syscalls/ event's argument is declared with (an 8-byte field). */
void syscall_arg_type(const struct tp_field *f, struct pvalue *v);

#endif /* __TPGEN_SYSARGS_H */
