// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Doctor a BTF file for tests: swap the offsets of two members of a struct. */
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>

int main(int argc, char **argv)
{
	struct btf_member *m, *a = NULL, *b = NULL;
	struct btf_type *t;
	const void *data;
	struct btf *btf;
	__u32 size, off;
	FILE *f;
	int id, i;

	if (argc != 6) {
		fprintf(stderr, "usage: %s IN OUT STRUCT MEMBER1 MEMBER2\n", argv[0]);
		return 2;
	}
	btf = btf__parse(argv[1], NULL);
	if (!btf)
		return 1;
	id = btf__find_by_name_kind(btf, argv[3], BTF_KIND_STRUCT);
	if (id < 0)
		return fprintf(stderr, "no struct %s\n", argv[3]), 1;
	btf__add_str(btf, "tpgen");	/* makes the BTF writable: types move, look up after */
	t = (struct btf_type *)btf__type_by_id(btf, id);
	for (i = 0, m = btf_members(t); i < btf_vlen(t); i++, m++) {
		if (!strcmp(btf__name_by_offset(btf, m->name_off), argv[4]))
			a = m;
		if (!strcmp(btf__name_by_offset(btf, m->name_off), argv[5]))
			b = m;
	}
	if (!a || !b)
		return fprintf(stderr, "no such members\n"), 1;
	off = a->offset;
	a->offset = b->offset;
	b->offset = off;
	data = btf__raw_data(btf, &size);
	f = fopen(argv[2], "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		return 1;
	btf__free(btf);
	return 0;
}
