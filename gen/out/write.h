/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Writing one file, atomically (gen/out/write.c). */
#ifndef __TPGEN_WRITE_H
#define __TPGEN_WRITE_H

#include <stdbool.h>
#include <stddef.h>

/* mkdir -p; reports a failure (file:error) itself. */
int mkdir_p(const char *path);
/* 0666 (files) and 0777 (directories) less the umask. */
unsigned int file_mode_default(void);
unsigned int dir_mode_default(void);
struct stat;
/* dirfd/path is a regular file (not followed if a symlink) holding exactly data[0..len); fills *st. */
bool same_file_content(int dirfd, const char *path, const char *data, size_t len, struct stat *st);
int write_all(int fd, const char *data, size_t len);
/*
 * Write 'len' bytes to 'path' atomically: an exclusive temp file (mkostemp)
 * beside it, then rename(). An unchanged file is left alone (mtime and all);
 * a symlink at 'path' is replaced, never followed, except under /dev and
 * /proc (/dev/stdout); devices and FIFOs are written through.
 */
int write_file_atomic(const char *path, const char *data, size_t len, bool *changed);

#endif /* __TPGEN_WRITE_H */
