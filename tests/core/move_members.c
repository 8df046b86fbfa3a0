// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Doctor a BTF file for tests: give members of a struct new byte offsets (and
 * the struct a new size), as another kernel would lay them out.
 *   move_members IN OUT STRUCT SIZE MEMBER=OFFSET...   (SIZE 0: unchanged)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

int main(int argc, char **argv)
{
	const void *data;
	struct btf_type *t;
	struct btf *btf;
	__u32 size;
	FILE *f;
	int id, i, a;

	if (argc < 5) {
		fprintf(stderr, "usage: %s IN OUT STRUCT SIZE MEMBER=OFFSET...\n", argv[0]);
		return 2;
	}
	btf = btf__parse(argv[1], NULL);
	if (!btf)
		return fprintf(stderr, "%s: cannot parse BTF\n", argv[1]), 1;
	id = btf__find_by_name_kind(btf, argv[3], BTF_KIND_STRUCT);
	if (id < 0)
		return fprintf(stderr, "no struct %s\n", argv[3]), 1;
	btf__add_str(btf, "tpgen");	/* makes the BTF writable: types move, look up after */
	t = (struct btf_type *)btf__type_by_id(btf, id);
	if (atoi(argv[4]))
		t->size = atoi(argv[4]);
	for (a = 5; a < argc; a++) {
		const char *eq = strchr(argv[a], '=');
		struct btf_member *m = btf_members(t);

		if (!eq)
			return fprintf(stderr, "%s: not MEMBER=OFFSET\n", argv[a]), 2;
		for (i = 0; i < btf_vlen(t); i++, m++) {
			const char *name = btf__name_by_offset(btf, m->name_off);

			if (strlen(name) == (size_t)(eq - argv[a]) && !strncmp(name, argv[a], eq - argv[a]))
				break;
		}
		if (i == btf_vlen(t))
			return fprintf(stderr, "struct %s has no member %.*s\n", argv[3], (int)(eq - argv[a]),
				       argv[a]), 1;
		if (btf_kflag(t))	/* bit-field layout: the offset is in the low 24 bits */
			m->offset = (m->offset & 0xff000000u) | (atoi(eq + 1) * 8);
		else
			m->offset = atoi(eq + 1) * 8;
	}
	data = btf__raw_data(btf, &size);
	f = fopen(argv[2], "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		return 1;
	btf__free(btf);
	return 0;
}
