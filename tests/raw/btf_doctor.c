// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Doctor a BTF file for the raw tracepoint tests:
 *
 *   btf_doctor IN OUT OP...
 *     rename KIND NAME NEW   rename a type (KIND: func, typedef)
 *     param FUNC N NAME      name parameter N (0 = __data) of FUNC's prototype ("" = none)
 *     retype TYPEDEF ID      point a typedef at type ID ("self": at itself)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

static int find(struct btf *btf, const char *kind, const char *name)
{
	int id = btf__find_by_name_kind(btf, name, !strcmp(kind, "func") ? BTF_KIND_FUNC : BTF_KIND_TYPEDEF);

	if (id < 0)
		fprintf(stderr, "btf_doctor: no %s %s\n", kind, name);
	return id;
}

int main(int argc, char **argv)
{
	struct btf_type *t;
	const void *data;
	struct btf *btf;
	__u32 size;
	int i, id, off;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: btf_doctor IN OUT OP...\n");
		return 2;
	}
	btf = btf__parse(argv[1], NULL);
	if (!btf || btf__add_str(btf, "tpgen") < 0)	/* writable now: types move, look up after */
		return 1;
	for (i = 3; i < argc; ) {
		if (!strcmp(argv[i], "rename") && i + 3 < argc) {
			off = btf__add_str(btf, argv[i + 3]);
			id = find(btf, argv[i + 1], argv[i + 2]);
			if (off < 0 || id < 0)
				return 1;
			t = (struct btf_type *)btf__type_by_id(btf, id);
			t->name_off = off;
			i += 4;
		} else if (!strcmp(argv[i], "param") && i + 3 < argc) {
			off = *argv[i + 3] ? btf__add_str(btf, argv[i + 3]) : 0;
			id = find(btf, "func", argv[i + 1]);
			if (off < 0 || id < 0)
				return 1;
			t = (struct btf_type *)btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
			if (atoi(argv[i + 2]) >= btf_vlen(t))
				return fprintf(stderr, "btf_doctor: %s has no parameter %s\n",
					       argv[i + 1], argv[i + 2]), 1;
			btf_params(t)[atoi(argv[i + 2])].name_off = off;
			i += 4;
		} else if (!strcmp(argv[i], "retype") && i + 2 < argc) {
			id = find(btf, "typedef", argv[i + 1]);
			if (id < 0)
				return 1;
			t = (struct btf_type *)btf__type_by_id(btf, id);
			t->type = strcmp(argv[i + 2], "self") ? (__u32)atoi(argv[i + 2]) : (__u32)id;
			i += 3;
		} else {
			fprintf(stderr, "btf_doctor: bad operation at '%s'\n", argv[i]);
			return 2;
		}
	}
	data = btf__raw_data(btf, &size);
	f = fopen(argv[2], "w");
	if (!data || !f || fwrite(data, 1, size, f) != size || fclose(f))
		return 1;
	btf__free(btf);
	return 0;
}
