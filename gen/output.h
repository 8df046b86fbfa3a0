/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The writer stage: emitters fill buffers, this commits them all at once --
 * atomically (temp file + rename), leaving unchanged files alone, or, with
 * --check, only comparing -- and writes the make/ninja depfile.
 */
#ifndef __TPGEN_OUTPUT_H
#define __TPGEN_OUTPUT_H

#include <stdbool.h>
#include "util.h"

struct output_file {
	char *path;		/* NULL or "-": stdout */
	struct strbuf data;
};

struct outputs {
	struct output_file *files;
	int nr;
	char **deps;		/* every input read */
	int nr_deps;
	bool check;		/* --check: compare, write nothing */
	const char *depfile;	/* -M FILE */
	int written;		/* files whose content changed */
};

/* Queue 'sb' (taken over, left empty) to be written to 'path'. */
void outputs_add(struct outputs *o, const char *path, struct strbuf *sb);
void outputs_dep(struct outputs *o, const char *path);
/*
 * Write (or compare) every queued file, then the depfile. Returns 0, -errno
 * on a write error, or 1 in --check mode when any file is stale (each listed
 * on stderr as "path: stale").
 */
int outputs_commit(struct outputs *o);
void outputs_free(struct outputs *o);

#endif /* __TPGEN_OUTPUT_H */
