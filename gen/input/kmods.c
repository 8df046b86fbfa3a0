// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Module BTF (see kmods.h): listed, names checked, each file parsed as split
 * BTF on vmlinux and checked as vmlinux's is (gen/input/btf.c, gen/lib/ident.c).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "lib/limits.h"
#include "lib/ident.h"
#include "input/inputs.h"
#include "input/kmods.h"
#include "input/rawtp.h"
#include "lib/util.h"

#define SYSFS_BTF	"/sys/kernel/btf"

/* Why 'name' is not a module's name, or NULL. */
static const char *name_why(const char *name)
{
	const char *p;

	if (strlen(name) > MODULE_NAME_MAX)
		return "longer than the 55 bytes a module name has";
	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '_' || *p == '-'))
			return "has a byte other than letters, digits, '_' and '-'";
	return NULL;
}

/* Where the module BTFs are, or NULL for none. */
static char *btf_dir(const struct inputs *in)
{
	if (in->btf_given)
		return NULL;	/* --btf FILE: that BTF alone */
	if (in->kernel)
		return xasprintf("%s/btf", in->kernel);
	if (!in->tracefs)
		return xstrdup(SYSFS_BTF);
	/* offline input stays offline: beside the events, as the snapshot's vmlinux */
	return inputs_sibling(in->tracefs, "btf");
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int kmods_load(struct inputs *in, struct kmods *km)
{
	char *dir = btf_dir(in), **names = NULL;
	struct dirent *de;
	int nr = 0, err = 0, i;
	DIR *d;

	memset(km, 0, sizeof(*km));
	if (!dir || !in->btf)
		goto out;
	d = opendir(dir);
	if (!d)
		goto out;	/* none: a kernel without modules, a snapshot without any */
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!strcmp(de->d_name, "vmlinux") && !in->kernel && !in->tracefs)
			continue;	/* the base itself, in sysfs */
		if (nr == KMODS_MAX) {
			diag_error(dir, 0, 0, "more than %d module BTF files", KMODS_MAX);
			err = -EINVAL;
			break;
		}
		names = xrealloc(names, (nr + 1) * sizeof(*names));
		names[nr++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (nr)
		qsort(names, nr, sizeof(*names), by_name);
	km->m = xcalloc(nr ? nr : 1, sizeof(*km->m));
	km->hash = fnv1a64(FNV1A64_INIT, &in->btf_hash, sizeof(in->btf_hash));
	for (i = 0; i < nr && !err; i++) {
		struct kmod *m = &km->m[km->nr];
		const char *why = name_why(names[i]);

		m->path = xasprintf("%s/%s", dir, names[i]);
		m->name = names[i];
		names[i] = NULL;
		km->nr++;
		if (why) {
			char *q = ident_quoted(m->name);

			diag_error(m->path, 0, 0, "module BTF %s is not named as a module: %s", q, why);
			free(q);
			err = -EINVAL;
			break;
		}
		err = kbtf_load_split(m->path, in->btf, &m->btf);
		if (!err)
			err = ident_check_btf(m->btf, m->path);
		if (!err) {
			__u32 len;
			const void *data = btf__raw_data(m->btf, &len);

			km->hash = fnv1a64(km->hash, m->name, strlen(m->name) + 1);
			if (data)
				km->hash = fnv1a64(km->hash, data, len);
		}
	}
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	if (err) {
		kmods_clear(km);
		err = err == -EACCES || err == -EPERM ? err : -EINVAL;
	}
out:
	free(dir);
	return err;
}

void kmods_add_rawtps(const struct kmods *km, struct raw_tps *r)
{
	for (int i = 0; i < km->nr; i++)
		rawtp_add_module(r, km->m[i].btf, km->m[i].name);
}

void kmods_clear(struct kmods *km)
{
	for (int i = 0; i < km->nr; i++) {
		free(km->m[i].name);
		free(km->m[i].path);
		btf__free(km->m[i].btf);
	}
	free(km->m);
	memset(km, 0, sizeof(*km));
}
