// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The aggregation functions' table, made from their list (model/aggfns.h). */
#include <stddef.h>

#include "model/aggfns.h"

const struct agg_fn_desc agg_fns[AGG_NR_FNS] = {
#define X(id, nm, ar, ...)	[AGG_##id##_BIT] = { .name = nm, .arg = ar, __VA_ARGS__ },
	AGG_FNS(X)
#undef X
};
