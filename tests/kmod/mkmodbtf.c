// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Write the BTF a module with one tracepoint would have, split on a
 * vmlinux BTF, as /sys/kernel/btf/<module> holds it (t_kmod.sh):
 *
 *   struct tpgen_mod_req { int id; unsigned int len; };
 *   typedef void (*btf_trace_tpgen_mod_submit)(void *, struct tpgen_mod_req *,
 *                                               struct task_struct *, unsigned int);
 *   static void __bpf_trace_tpgen_mod_class(void *__data, struct tpgen_mod_req *req,
 *                                            struct task_struct *task, unsigned int flags);
 *
 * usage: mkmodbtf VMLINUX OUT [MODE]; MODE "hostile" names the struct
 * 'x");int y;("', "badref" makes a pointer to a type that does not exist.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>

static int must(int id, const char *what)
{
	if (id <= 0) {
		fprintf(stderr, "mkmodbtf: %s: %d\n", what, id);
		return -1;
	}
	return id;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 3 ? argv[3] : "";
	int s_int, s_uint, s_task, req, p_void, p_req, p_task, proto, fproto, ok = 1;
	struct btf *base, *btf;
	const void *raw;
	__u32 size;
	FILE *f;

	if (argc < 3)
		return 2;
	base = btf__parse(argv[1], NULL);
	if (!base)
		return fprintf(stderr, "mkmodbtf: %s: %s\n", argv[1], strerror(errno)), 1;
	btf = btf__new_empty_split(base);
	s_int = must(btf__find_by_name_kind(base, "int", BTF_KIND_INT), "int");
	s_uint = must(btf__find_by_name_kind(base, "unsigned int", BTF_KIND_INT), "unsigned int");
	s_task = must(btf__find_by_name_kind(base, "task_struct", BTF_KIND_STRUCT), "task_struct");
	if (s_int < 0 || s_uint < 0 || s_task < 0)
		return 1;
	req = btf__add_struct(btf, strcmp(mode, "hostile") ? "tpgen_mod_req" : "x\");int y;(\"", 8);
	ok &= !btf__add_field(btf, "id", s_int, 0, 0);
	ok &= !btf__add_field(btf, "len", s_uint, 32, 0);
	p_void = btf__add_ptr(btf, 0);
	p_req = btf__add_ptr(btf, strcmp(mode, "badref") ? req : 100000000);
	p_task = btf__add_ptr(btf, s_task);
	/* the tracepoint's prototype: parameters unnamed, as the kernel emits it */
	proto = btf__add_func_proto(btf, 0);
	ok &= !btf__add_func_param(btf, "", p_void);
	ok &= !btf__add_func_param(btf, "", p_req);
	ok &= !btf__add_func_param(btf, "", p_task);
	ok &= !btf__add_func_param(btf, "", s_uint);
	ok &= btf__add_typedef(btf, "btf_trace_tpgen_mod_submit", btf__add_ptr(btf, proto)) > 0;
	/* the class's probe: the same types, named */
	fproto = btf__add_func_proto(btf, 0);
	ok &= !btf__add_func_param(btf, "__data", p_void);
	ok &= !btf__add_func_param(btf, "req", p_req);
	ok &= !btf__add_func_param(btf, "task", p_task);
	ok &= !btf__add_func_param(btf, "flags", s_uint);
	ok &= btf__add_func(btf, "__bpf_trace_tpgen_mod_class", BTF_FUNC_STATIC, fproto) > 0;
	if (!ok || req <= 0 || p_void <= 0 || p_req <= 0 || p_task <= 0 || proto <= 0 || fproto <= 0)
		return fprintf(stderr, "mkmodbtf: cannot build the BTF\n"), 1;
	raw = btf__raw_data(btf, &size);
	f = fopen(argv[2], "we");
	if (!raw || !f || fwrite(raw, 1, size, f) != size || fclose(f))
		return fprintf(stderr, "mkmodbtf: %s: %s\n", argv[2], strerror(errno)), 1;
	btf__free(btf);
	btf__free(base);
	return 0;
}
