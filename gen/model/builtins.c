// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The built-ins' table, made from their list (model/builtins.h). */
#include "model/prog.h"

const struct builtin builtins[PV_NR_BUILTINS] = {
#define X(id, name, alias, kind, size, sign, flags, c)	\
	[PV_##id] = { name, alias, PV_##id, kind, size, sign, flags, c },
	PV_BUILTINS(X)
#undef X
};
