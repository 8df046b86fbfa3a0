// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * CO-RE for syscalls/ events. Their records are not trace_event_raw_<class>
 * structs: the kernel writes 'struct syscall_trace_enter' (ent; int nr;
 * unsigned long args[]) and 'struct syscall_trace_exit' (ent; int nr; long
 * ret), both in BTF. Argument i of the format file is args[i], whatever
 * offsets the format file gives; read through a ___tpgen flavor of the
 * struct, libbpf relocates nr, args and ret to the running kernel's offsets.
 * Each argument is typed as the syscall declares it: the value sits in the
 * low bits of its unsigned long slot, so a cast gives it on either endianness.
 */
#include <string.h>
#include <bpf/btf.h>

#include "lib/limits.h"
#include "input/fieldtype.h"
#include "model/model.h"
#include "lib/util.h"

/*
 * The width and sign of a syscall argument's declared type, for the 8-byte
 * slots of syscalls/ records. uid_t and gid_t are taken as signed: (uid_t)-1
 * is the "unchanged" of setresuid(), and shows as -1, as strace shows it.
 */
bool sys_arg_type(const struct tp_field *f, unsigned int *size, bool *is_signed)
{
	static const struct {
		const char *type;
		unsigned int size;
		bool is_signed;
	} types[] = {
		{ "int", 4, true }, { "pid_t", 4, true }, { "key_serial_t", 4, true },
		{ "clockid_t", 4, true }, { "mqd_t", 4, true }, { "timer_t", 4, true },
		{ "rwf_t", 4, true }, { "key_t", 4, true }, { "uid_t", 4, true }, { "gid_t", 4, true },
		{ "unsigned int", 4, false },
		{ "unsigned", 4, false },
		{ "qid_t", 4, false }, { "u32", 4, false }, { "__u32", 4, false },
		{ "umode_t", 2, false }, { "unsigned short", 2, false }, { "short", 2, true },
		{ "long", 8, true }, { "off_t", 8, true }, { "loff_t", 8, true }, { "time_t", 8, true },
		{ "ssize_t", 8, true }, { "long long", 8, true },
	};

	if (f->size != 8)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(f->type, types[i].type)) {
			*size = types[i].size;
			*is_signed = types[i].is_signed;
			return true;
		}
	return false;
}

const char *sys_arg_ctype(const struct tp_field *f)
{
	unsigned int size;
	bool is_signed;

	if (f->kind == FIELD_SCALAR && sys_arg_type(f, &size, &is_signed))
		return ctype_fixed(size, is_signed);
	return f->ctype;
}

static bool has_member(const struct btf *btf, int id, const char *name, bool array)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m = btf_members(t);

	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const struct btf_type *mt;

		if (strcmp(btf__name_by_offset(btf, m->name_off), name))
			continue;
		mt = btf__type_by_id(btf, m->type);
		while (mt && (btf_is_mod(mt) || btf_is_typedef(mt)))
			mt = btf__type_by_id(btf, mt->type);
		return mt && (array ? btf_is_array(mt) : btf_is_int(mt)) && !btf_member_bitfield_size(t, i);
	}
	return false;
}

/*
 * Where the record has nr and args[] (or ret): after the common header, nr
 * 4-aligned, args (ret) 8-aligned after it; args[] starts at the first
 * argument (the end of nr, rounded up, without one).
 */
bool core_sys_layout(const struct tp_event *ev, unsigned int *nr_off, unsigned int *args_off)
{
	unsigned int end = 0;
	int i, n = 0;

	for (i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];

		if (f->common) {
			if (f->offset + f->size > end)
				end = f->offset + f->size;
			continue;
		}
		if (n++ == 0) {
			*nr_off = f->offset;
			*args_off = (f->offset + 4 + 7) & ~7u;
			if (f->offset < end || f->offset % 4)
				return false;
			continue;
		}
		if (n == 2) {
			*args_off = f->offset;
			if (f->offset < *nr_off + 4 || f->offset % 8)
				return false;
		}
	}
	return n > 0;
}

/*
 * A syscalls/ event read through syscall_trace_enter or _exit: sets
 * ev->core_sys and each field's core_sys_arg, or says why not.
 */
bool core_sys_match(const struct btf *btf, struct tp_event *ev, const char **why)
{
	bool enter = !strncmp(ev->name, "sys_enter_", 10);
	const char *st = enter ? "syscall_trace_enter" : "syscall_trace_exit";
	unsigned int nr_off, args_off;
	int id, i, nargs = 0;
	bool nr = false;

	if (strcmp(ev->sys, "syscalls") || (!enter && strncmp(ev->name, "sys_exit_", 9)))
		return false;
	id = btf__find_by_name_kind(btf, st, BTF_KIND_STRUCT);
	if (id < 0 || !has_member(btf, id, "nr", false) ||
	    !has_member(btf, id, enter ? "args" : "ret", enter)) {
		*why = enter ? "no struct syscall_trace_enter (nr, args[]) in BTF" :
			       "no struct syscall_trace_exit (nr, ret) in BTF";
		return false;
	}
	*why = enter ? "not the fields of struct syscall_trace_enter" :
		       "not the fields of struct syscall_trace_exit";
	for (i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];

		if (f->common)
			continue;
		if (!nr) {
			if (strcmp(f->name, "__syscall_nr") || f->kind != FIELD_SCALAR || f->size != 4)
				return false;
			nr = true;
			continue;
		}
		if ((f->kind != FIELD_SCALAR && f->kind != FIELD_POINTER) || f->size != 8)
			return false;
		if (enter ? nargs == SYSCALL_MAX_ARGS : nargs || strcmp(f->name, "ret"))
			return false;
		nargs++;
	}
	if (!nr || (!enter && !nargs) || !core_sys_layout(ev, &nr_off, &args_off))
		return false;
	nargs = -1;	/* the first field is __syscall_nr, then args[0], ... */
	for (i = 0; i < ev->nr_fields; i++) {
		struct tp_field *f = &ev->fields[i];

		if (f->common)
			continue;
		f->core_sys_arg = nargs < 0 ? CORE_SYS_NR : enter ? nargs : CORE_SYS_RET;
		nargs++;
	}
	ev->core_sys = enter ? CORE_SYS_ENTER : CORE_SYS_EXIT;
	*why = NULL;
	return true;
}
