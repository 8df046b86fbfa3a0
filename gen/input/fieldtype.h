/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Kernel type spellings from format files -> the C types tpgen emits. */
#ifndef __TPGEN_FIELDTYPE_H
#define __TPGEN_FIELDTYPE_H

#include "model/model.h"

/*
 * Fill f->kind, cname, ctype, suffix, fwd, elem_*, their strings in 'a' (the
 * event's); report a located error on nonsense.
 */
int ctype_classify(const char *path, struct tp_field *f, struct arena *a);
/* Alignment of the emitted type. */
unsigned int ctype_align(const struct tp_field *f);
/* "__u32", "__s64", ... for a scalar of 'size' bytes, or NULL. */
const char *ctype_fixed(unsigned int size, bool is_signed);
/* A C keyword (an identifier that cannot be used as a member name). */
bool ctype_is_keyword(const char *s);

#endif /* __TPGEN_FIELDTYPE_H */
