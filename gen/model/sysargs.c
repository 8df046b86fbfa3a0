// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * raw_tp and tp_btf entries on syscalls/sys_enter_<X> and sys_exit_<X>
 * (see sysargs.h): the syscall's number on the target, its arguments by the
 * names of the event's format file, and the C that tests and reads them.
 *
 * In the format file of syscalls/sys_enter_<X>, __syscall_nr is at 8 and
 * the arguments follow in 8-byte slots, in the syscall's order: the field
 * at 16 + 8 * i is argument i, which the syscall ABI passes in a register.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/limits.h"
#include "lib/cstring.h"
#include "model/prog.h"
#include "model/sysargs.h"
#include "input/sysnames.h"

#define SYS_ARGS_OFF	16	/* the first argument in a sys_enter record */

static bool is_sys_event(const char *sys, const char *name, bool *exit)
{
	if (strcmp(sys, "syscalls"))
		return false;
	if (!strncmp(name, "sys_enter_", 10) && name[10]) {
		*exit = false;
		return true;
	}
	if (!strncmp(name, "sys_exit_", 9) && name[9]) {
		*exit = true;
		return true;
	}
	return false;
}

static bool raw_entry(const struct spec *s, const struct spec_probe *sp)
{
	enum attach_kind a = sp->attach ? sp->attach : s->attach;
	bool exit;

	return (a == ATTACH_RAW_TP || a == ATTACH_TP_BTF) && is_sys_event(sp->sys, sp->name, &exit);
}

bool sysargs_needed(const struct spec *s)
{
	int i;

	for (i = 0; i < s->nr_events; i++)
		if (raw_entry(s, &s->events[i]))
			return true;
	for (i = 0; i < s->nr_lats; i++)
		if (raw_entry(s, &s->lats[i].from) || raw_entry(s, &s->lats[i].to))
			return true;
	return false;
}

int sysargs_probe(struct prog *p, struct pprobe *pr)
{
	const struct spec_probe *sp = pr->sp;
	const char *x;
	bool exit;
	int nr;

	pr->sys_nr = -1;
	if (!is_sys_event(sp->sys, sp->name, &exit))
		return 0;
	x = sp->name + (exit ? 9 : 10);
	/* the argument names are the entry event's, for sys_exit_X too (as a join would carry them) */
	pr->sys_ev = tp_events_find(p->evs, sp->sys, sp->name);
	if (!pr->sys_ev) {
		spec_error(p->spec, &sp->event.loc, 0, "event '%s' does not exist on this kernel "
			   "('tpgen list' shows them)", sp->event.s);
		return -EINVAL;
	}
	if (!p->sysnames) {
		spec_error(p->spec, &sp->event.loc, 0, "the number of syscall '%s' on the target is not "
			   "known, and attach: %s fires for every syscall and must test it: %s", x,
			   attach_name(pr->attach), p->sysnames_why ? p->sysnames_why : "no syscall table");
		return -EINVAL;
	}
	nr = sysnames_nr(p->sysnames, x);
	if (nr < 0) {
		spec_error(p->spec, &sp->event.loc, 0, "syscall '%s' is not in the target's syscall table "
			   "(%s), so attach: %s cannot test for it", x, p->sysnames->source ?
			   p->sysnames->source : "syscalls", attach_name(pr->attach));
		return -EINVAL;
	}
	pr->sys_nr = nr;
	pr->sys_exit = exit;
	pr->uses_ctx = true;
	p->any_sysregs = true;	/* tpgen_syscall_nr(), PT_REGS_PARMn_CORE_SYSCALL() */
	p->any_core = true;
	return 0;
}

/* The field of syscalls/sys_enter_X named 'name' that is argument *idx. */
/*
 * syscalls/ events keep each argument in 8 bytes (unsigned, as the kernel's
 * unsigned long args[]); the argument's declared type says its width and
 * sign (core_sys.c), so that 'pid == -1' on kill's pid_t means what it says.
 */
void syscall_arg_type(const struct tp_field *f, struct pvalue *v)
{
	if (sys_arg_type(f, &v->size, &v->is_signed))
		v->narrow = v->size < 8;
}

static const struct tp_field *arg_field(const struct tp_event *ev, const char *name, int *idx)
{
	for (int i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];

		if (strcmp(f->name, name) || f->common || f->offset < SYS_ARGS_OFF)
			continue;
		*idx = (f->offset - SYS_ARGS_OFF) / 8;
		return f;
	}
	return NULL;
}

int sysargs_value(struct resolver *r, struct pvalue *v, const char *name, size_t off)
{
	const struct pprobe *pr = r->pr;
	const struct tp_field *f;
	int idx;

	if (!pr->sys_ev || pr->sys_exit)
		return -ENOENT;	/* sys_exit: 'ret' is the raw tracepoint's own argument */
	f = arg_field(pr->sys_ev, name, &idx);
	if (!f)
		return -ENOENT;
	if (f->size != 8 || (f->offset - SYS_ARGS_OFF) % 8 || idx >= SYSCALL_MAX_ARGS) {
		spec_error(r->p->spec, &r->src->loc, off, "'%s' of %s/%s (%s at %u) is not one of the "
			   "syscall's six register arguments", name, pr->sys_ev->sys, pr->sys_ev->name,
			   f->type, f->offset);
		return -EINVAL;
	}
	v->src = PV_SYSARG;
	v->sys_arg = idx;
	v->field = f;
	switch (f->kind) {
	case FIELD_SCALAR:
		v->kind = PV_INT;
		v->size = 8;
		v->is_signed = f->is_signed;
		syscall_arg_type(f, v);
		v->narrow = false;
		break;
	case FIELD_POINTER:
		if (!strcmp(f->type, "const char *") || !strcmp(f->type, "char *")) {
			v->kind = PV_STR;	/* a string in the caller's memory */
			v->size = 0;
			v->str_ptr = true;
		} else {
			v->kind = PV_PTR;
			v->size = 8;
		}
		break;
	default:
		spec_error(r->p->spec, &r->src->loc, off, "field '%s' (%s) has a type tpgen cannot read here "
			   "(integers, pointers and char strings only)", name, f->type);
		return -EINVAL;
	}
	return 0;
}

int sysargs_names_of(const struct pprobe *pr, const char ***names)
{
	int idx, n = 0;

	*names = NULL;
	if (!pr->sys_ev || pr->sys_exit)
		return 0;
	for (int i = 0; i < pr->sys_ev->nr_fields; i++) {
		const struct tp_field *f = &pr->sys_ev->fields[i];

		if (arg_field(pr->sys_ev, f->name, &idx) != f)
			continue;
		*names = xrealloc(*names, (n + 1) * sizeof(**names));
		(*names)[n++] = f->name;
	}
	return n;
}
