/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The writer stage: emitters fill buffers, this commits them all at once --
 * a file atomically (exclusive temp file + rename), a program directory as a
 * whole (a sibling temp directory swapped in), leaving unchanged files alone
 * (mtime and all), or, with --check, only comparing -- and writes the
 * make/ninja depfile.
 */
#ifndef __TPGEN_OUTPUT_H
#define __TPGEN_OUTPUT_H

#include <stdbool.h>
#include "lib/util.h"

struct output_file {
	char *path;		/* NULL or "-": stdout */
	int dir;		/* index in outputs.dirs, or -1 for a file of its own */
	const char *name;	/* in path: the name inside its directory */
	struct strbuf data;
};

struct outputs {
	struct output_file *files;
	int nr;
	char **dirs;		/* directories written as a whole */
	int nr_dirs;
	char **deps;		/* every input read */
	int nr_deps;
	bool check;		/* --check: compare, write nothing */
	const char *depfile;	/* -M FILE */
	int written;		/* files whose content changed */
};

/* Queue 'sb' (taken over, left empty) to be written to 'path'. */
void outputs_add(struct outputs *o, const char *path, struct strbuf *sb);
/*
 * Queue 'sb' as file 'name' of directory 'dir'. Such a directory appears
 * whole or not at all: its files are written into a sibling temp directory,
 * which then takes its place (renameat2(RENAME_EXCHANGE)). Files it holds
 * that tpgen does not write (a build's .output/, the binary) move across;
 * unchanged files are hard links to the old ones, so they keep their mtime.
 */
void outputs_add_in(struct outputs *o, const char *dir, const char *name, struct strbuf *sb);
void outputs_dep(struct outputs *o, const char *path);
/*
 * Write (or compare) every queued file, then the depfile. The depfile's text
 * is made first: a name make cannot read (a newline, ';', '=') is reported
 * before anything is written. Returns 0, -errno on a write error, or 1 in
 * --check mode when any file is stale (each listed on stderr as "path:
 * stale").
 */
int outputs_commit(struct outputs *o);
void outputs_clear(struct outputs *o);

#endif /* __TPGEN_OUTPUT_H */
