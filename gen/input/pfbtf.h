/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Names in "print fmt:" resolved through the kernel's BTF: enum constants
 * the kernel left unexpanded ({ TCP_ESTABLISHED, "TCP_ESTABLISHED" }) and
 * typedefs in casts (( gfp_t)...). A name two enums give different values
 * is ambiguous and stays unresolved.
 */
#ifndef __TPGEN_PFBTF_H
#define __TPGEN_PFBTF_H

#include "input/pfexpr.h"

struct btf;
struct pf_btf;

/* An index of 'btf' (which must outlive it); NULL btf gives an empty index. */
struct pf_btf *pf_btf_new(const struct btf *btf);
void pf_btf_free(struct pf_btf *pb);
/* An env whose callbacks look names up in 'pb' (target long: 64 bits). */
struct pf_env pf_btf_env(struct pf_btf *pb);

#endif /* __TPGEN_PFBTF_H */
