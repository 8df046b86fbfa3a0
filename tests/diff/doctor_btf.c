// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Doctor a BTF file for tests: rename one raw tracepoint (so it is removed
 * and another added), retype one argument, rename another.
 *   doctor_btf IN OUT RENAME_TP NEW_NAME RETYPE_TP ARGNO TYPE_NAME RENAME_TP2 ARGNO2 NEW_ARGNAME
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

static const struct btf_type *proto_of(struct btf *btf, const char *tp)
{
	char name[256];
	int id;
	const struct btf_type *t;

	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	if (id < 0)
		return NULL;
	t = btf__type_by_id(btf, id);		/* typedef -> ptr -> func_proto */
	t = btf__type_by_id(btf, t->type);
	return btf__type_by_id(btf, t->type);
}

/*
 * Retype argument 'argno' of tracepoint 'tp' where the kernel would: in the
 * btf_trace_<tp> prototype and in __probestub_<tp>'s (both in place: these
 * prototypes belong to this tracepoint alone in the tests' choice of 'tp').
 */
static int retype(struct btf *btf, const char *tp, int argno, int type_id)
{
	char name[256];
	const struct btf_type *t = proto_of(btf, tp);
	int id;

	if (!t)
		return -1;
	btf_params((struct btf_type *)t)[argno + 1].type = type_id;
	snprintf(name, sizeof(name), "__probestub_%s", tp);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	if (id < 0)
		return -1;
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	btf_params((struct btf_type *)t)[argno + 1].type = type_id;
	return 0;
}

int main(int argc, char **argv)
{
	struct btf *btf;
	struct btf_type *t;
	const void *data;
	__u32 size;
	FILE *f;
	int id;
	char name[256];

	if (argc != 11) {
		fprintf(stderr, "usage: %s IN OUT TP NEWNAME TP2 ARGNO TYPE TP3 ARGNO3 ARGNAME\n", argv[0]);
		return 2;
	}
	btf = btf__parse(argv[1], NULL);
	if (!btf)
		return 1;
	/* rename btf_trace_<TP> */
	snprintf(name, sizeof(name), "btf_trace_%s", argv[3]);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	if (id < 0)
		return fprintf(stderr, "no %s\n", name), 1;
	snprintf(name, sizeof(name), "btf_trace_%s", argv[4]);
	{
		int off = btf__add_str(btf, name);

		t = (struct btf_type *)btf__type_by_id(btf, id);
		t->name_off = off;
	}
	/* retype an argument of TP2 */
	id = btf__find_by_name_kind(btf, argv[7], BTF_KIND_INT);
	if (id < 0 || retype(btf, argv[5], atoi(argv[6]), id))
		return fprintf(stderr, "cannot retype %s\n", argv[5]), 1;
	/* rename an argument of TP3: names come from __probestub_<tp>, so rename there */
	snprintf(name, sizeof(name), "__probestub_%s", argv[8]);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	if (id >= 0) {
		int off = btf__add_str(btf, argv[10]);
		const struct btf_type *fn = btf__type_by_id(btf, id);
		int proto = btf__add_func_proto(btf, btf__type_by_id(btf, fn->type)->type);
		const struct btf_type *old = btf__type_by_id(btf, fn->type);
		int i, n = btf_vlen(old);

		for (i = 0; i < n; i++) {
			old = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
			btf__add_func_param(btf, i == atoi(argv[9]) + 1 ? argv[10] :
					    btf__name_by_offset(btf, btf_params(old)[i].name_off),
					    btf_params(old)[i].type);
		}
		(void)off;
		t = (struct btf_type *)btf__type_by_id(btf, id);
		t->type = proto;
	}
	data = btf__raw_data(btf, &size);
	f = fopen(argv[2], "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		return 1;
	btf__free(btf);
	return 0;
}
