// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Syscall names for the target's numbers, from the kernel's syscall metadata
 * or the target's unistd header. See sysnames.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <linux/perf_event.h>
#include <bpf/btf.h>

#include "lib/limits.h"
#include "input/kread.h"
#include "model/model.h"
#include "input/pfexpr.h"
#include "input/sysnames.h"

static int by_nr(const void *a, const void *b)
{
	const struct sysname *x = a, *y = b;

	if (x->nr != y->nr)
		return x->nr < y->nr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void add(struct sysnames *sn, int *cap, int nr, const char *name)
{
	if (sn->nr == *cap) {
		*cap = *cap ? *cap * 2 : 512;
		sn->tab = xrealloc(sn->tab, *cap * sizeof(*sn->tab));
	}
	sn->tab[sn->nr].nr = nr;
	sn->tab[sn->nr].name = xstrdup(name);
	sn->nr++;
}

void sysnames_clear(struct sysnames *sn)
{
	int i;

	for (i = 0; i < sn->nr; i++)
		free(sn->tab[i].name);
	free(sn->tab);
	free(sn->arch);
	free(sn->source);
	memset(sn, 0, sizeof(*sn));
}

/* Sort by number; a number named twice keeps its first name in order. */
static void finish(struct sysnames *sn)
{
	int i, j;

	qsort(sn->tab, sn->nr, sizeof(*sn->tab), by_nr);
	for (i = 0, j = 0; i < sn->nr; i++) {
		if (j && sn->tab[j - 1].nr == sn->tab[i].nr) {
			free(sn->tab[i].name);
			continue;
		}
		sn->tab[j++] = sn->tab[i];
	}
	sn->nr = j;
}

static bool valid_name(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!(islower((unsigned char)s[n]) || isdigit((unsigned char)s[n]) || s[n] == '_'))
			return false;
	return n > 0 && n <= SYSNAMES_NAME_MAX;
}

/* The byte offset of member 'name' of struct 'type' (looking into anonymous members), or -1. */
static int member_offset(const struct btf *btf, const struct btf_type *t, const char *name, int depth)
{
	const struct btf_member *m = btf_members(t);
	int i, off;

	for (i = 0; i < btf_vlen(t) && depth < 8; i++) {
		const char *n = btf__name_by_offset(btf, m[i].name_off);
		const struct btf_type *mt = btf__type_by_id(btf, m[i].type);

		if (btf_member_bit_offset(t, i) % 8 || !mt)
			continue;
		if (n && !strcmp(n, name))
			return btf_member_bit_offset(t, i) / 8;
		if ((!n || !*n) && (btf_is_struct(mt) || btf_is_union(mt))) {
			off = member_offset(btf, mt, name, depth + 1);
			if (off >= 0)
				return btf_member_bit_offset(t, i) / 8 + off;
		}
	}
	return -1;
}

static int offset_of(const struct btf *btf, const char *type, const char *member)
{
	int id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);

	return id > 0 ? member_offset(btf, btf__type_by_id(btf, id), member, 0) : -1;
}

/*
 * The way to the kernel's syscall metadata, in the kernel's own layout:
 * from our task to a syscall event we opened with perf_event_open()
 * (current->files->fdt->fd[fd]->private_data, a perf_event, ->tp_event),
 * then along the list of all trace_event_calls (->list) to every call of
 * the same class (the syscall enter events), each with ->data, its
 * syscall_metadata.
 */
struct layout {
	int task_files, files_fdt, fdt_max_fds, fdt_fd, file_private, event_tp;
	int call_list, call_class, call_data;
	int meta_name, meta_nr;
	unsigned int meta_size;
};

static int kernel_layout(const struct btf *btf, struct layout *l)
{
	int meta = btf ? btf__find_by_name_kind(btf, "syscall_metadata", BTF_KIND_STRUCT) : -1;

	if (meta <= 0)
		return -ENOENT;
	*l = (struct layout){
		.task_files = offset_of(btf, "task_struct", "files"),
		.files_fdt = offset_of(btf, "files_struct", "fdt"),
		.fdt_max_fds = offset_of(btf, "fdtable", "max_fds"),
		.fdt_fd = offset_of(btf, "fdtable", "fd"),
		.file_private = offset_of(btf, "file", "private_data"),
		.event_tp = offset_of(btf, "perf_event", "tp_event"),
		.call_list = offset_of(btf, "trace_event_call", "list"),
		.call_class = offset_of(btf, "trace_event_call", "class"),
		.call_data = offset_of(btf, "trace_event_call", "data"),
		.meta_name = offset_of(btf, "syscall_metadata", "name"),
		.meta_nr = offset_of(btf, "syscall_metadata", "syscall_nr"),
		.meta_size = btf__type_by_id(btf, meta)->size,
	};
	if (l->task_files < 0 || l->files_fdt < 0 || l->fdt_max_fds < 0 || l->fdt_fd < 0 ||
	    l->file_private < 0 || l->event_tp < 0 || l->call_list < 0 || l->call_class < 0 ||
	    l->call_data < 0 || l->meta_name < 0 || l->meta_nr < 0 || l->meta_size > KREAD_MAX ||
	    (unsigned int)l->meta_name + 8 > l->meta_size || (unsigned int)l->meta_nr + 4 > l->meta_size)
		return -EINVAL;
	return 0;
}

/* A pointer at kernel address 'addr'; 0 is an error. */
static int kptr(struct kread *kr, unsigned long long addr, unsigned long long *out)
{
	int err = kread(kr, addr, out, sizeof(*out), false);

	return err ? err : *out ? 0 : -ENOENT;
}

/* The trace_event_call behind our perf event 'fd'. */
static int fd_call(struct kread *kr, const struct layout *l, int fd, unsigned long long *call)
{
	unsigned long long task = 0, files, fdt, fds, file, event;
	unsigned int max_fds;
	int err;

	err = kread_current(kr, &task);
	if (!err)
		err = kptr(kr, task + l->task_files, &files);
	if (!err)
		err = kptr(kr, files + l->files_fdt, &fdt);
	if (!err)
		err = kread(kr, fdt + l->fdt_max_fds, &max_fds, sizeof(max_fds), false);
	if (!err && (unsigned int)fd >= max_fds)
		err = -EBADF;
	if (!err)
		err = kptr(kr, fdt + l->fdt_fd, &fds);
	if (!err)
		err = kptr(kr, fds + 8ULL * fd, &file);
	if (!err)
		err = kptr(kr, file + l->file_private, &event);
	if (!err)
		err = kptr(kr, event + l->event_tp, call);
	return err;
}

/* A syscall event's metadata: its name ("sys_openat") and number. */
static int read_meta(struct kread *kr, const struct layout *l, unsigned long long call, int *nr, char *name)
{
	unsigned long long meta, name_ptr;
	unsigned char buf[KREAD_MAX];
	int err;

	err = kptr(kr, call + l->call_data, &meta);
	if (!err)
		err = kread(kr, meta, buf, l->meta_size, false);
	if (err)
		return err;
	memcpy(&name_ptr, buf + l->meta_name, sizeof(name_ptr));
	memcpy(nr, buf + l->meta_nr, sizeof(*nr));
	return kread(kr, name_ptr, name, SYSNAMES_NAME_MAX + 1, true);
}

/* One trace_event_call of the list: a syscall enter event of this kernel? Then its number. */
static void visit(struct kread *kr, const struct layout *l, const struct tp_events *evs,
		  unsigned long long call, unsigned long long class, struct sysnames *sn, int *cap, int *found)
{
	char name[SYSNAMES_NAME_MAX + 1], event[SYSNAMES_NAME_MAX + 16];
	unsigned long long c;
	int nr;

	/* the list's head is no call: what we read there is not the class, or fails the checks below */
	if (kread(kr, call + l->call_class, &c, sizeof(c), false) || c != class)
		return;
	if (read_meta(kr, l, call, &nr, name) || strncmp(name, "sys_", 4) || !valid_name(name + 4))
		return;
	/* only the names of this kernel's syscalls/sys_enter_* events count */
	snprintf(event, sizeof(event), "sys_enter_%s", name + 4);
	if (!tp_events_find((struct tp_events *)evs, "syscalls", event))
		return;
	(*found)++;
	if (nr >= 0)		/* -1: no syscall number points at it on this kernel */
		add(sn, cap, nr, name + 4);
}

static int walk_events(struct kread *kr, const struct layout *l, const struct tp_events *evs, int fd,
		       struct sysnames *sn, int *found)
{
	unsigned long long start = 0, class, node, next;
	int err, cap = 0, i;

	err = fd_call(kr, l, fd, &start);
	if (!err)
		err = kptr(kr, start + l->call_class, &class);
	if (err)
		return err;
	visit(kr, l, evs, start, class, sn, &cap, found);
	node = start + l->call_list;
	for (i = 0; i < SYSNAMES_MAX_EVENTS; i++) {
		err = kptr(kr, node, &next);	/* list_head.next */
		if (err || next == start + l->call_list)
			break;
		node = next;
		visit(kr, l, evs, node - l->call_list, class, sn, &cap, found);
	}
	if (!err && i == SYSNAMES_MAX_EVENTS)
		err = -ELOOP;
	return err;
}

int sysnames_read_kernel(struct sysnames *sn, const struct tp_events *evs, const struct btf *btf)
{
	const struct tp_event *first = NULL;
	int err, i, events = 0, found = 0, fd;
	struct kread kr;
	struct layout l;
	struct utsname u;

	memset(sn, 0, sizeof(*sn));
	for (i = 0; i < evs->nr; i++) {
		/* every listed event counts; one read (with its id) is enough to open */
		if (!strcmp(evs->ev[i].sys, "syscalls") && !strncmp(evs->ev[i].name, "sys_enter_", 10)) {
			events++;
			if (!first && evs->ev[i].id >= 0)
				first = &evs->ev[i];
		}
	}
	if (!first) {
		pr_err("syscall names: no syscalls/sys_enter_* events (a kernel without CONFIG_FTRACE_SYSCALLS: "
		       "give its asm/unistd_64.h instead)");
		return -ENOENT;
	}
	err = kernel_layout(btf, &l);
	if (err) {
		pr_err("syscall names: the kernel's BTF lacks struct syscall_metadata or a member on the way to it");
		return err;
	}
	err = kread_open(&kr);
	if (err) {
		pr_err("syscall names: cannot load a BPF program that reads kernel memory: %s", strerror(-err));
		return err;
	}
	{
		struct perf_event_attr attr = {
			.type = PERF_TYPE_TRACEPOINT,
			.size = sizeof(attr),
			.config = first->id,
			.disabled = 1,
		};

		fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0) {
		err = -errno;
		pr_err("syscall names: perf_event_open(syscalls/%s): %s", first->name, strerror(-err));
	} else {
		err = walk_events(&kr, &l, evs, fd, sn, &found);
		close(fd);
		if (err)
			pr_err("syscall names: reading the kernel's syscall metadata: %s", strerror(-err));
	}
	kread_close(&kr);
	if (!err && found != events) {
		pr_err("syscall names: metadata of %d of the %d syscalls/sys_enter_* events found", found, events);
		err = -ENOENT;
	}
	if (err) {
		sysnames_clear(sn);
		return err;
	}
	finish(sn);
	sn->arch = xstrdup(uname(&u) ? "unknown" : u.machine);
	sn->source = xstrdup("kernel syscall metadata");
	return 0;
}

/* unistd headers */

struct defines {
	struct { char *name; struct pf_val v; } *d;
	int nr;
};

static int define_value(void *ctx, const char *name, struct pf_val *val)
{
	struct defines *defs = ctx;
	int i;

	for (i = defs->nr - 1; i >= 0; i--) {
		if (!strcmp(defs->d[i].name, name)) {
			*val = defs->d[i].v;
			return 0;
		}
	}
	return -ENOENT;
}

int sysnames_parse_unistd(const char *path, const char *text, const char *arch, struct sysnames *sn)
{
	struct defines defs = {};
	struct pf_env env = { .enum_value = define_value, .ctx = &defs };
	const char *line = text;
	int lineno = 0, cap = 0, err = 0, i;

	memset(sn, 0, sizeof(*sn));
	for (; *line && !err; line += strcspn(line, "\n"), line += *line == '\n') {
		const char *p = line, *name;
		size_t nlen;
		struct pf_toks toks;
		struct pf_node *n = NULL;
		struct pf_val v;
		unsigned int epos;
		const char *emsg;
		char *expr, *id;
		int t = 0;

		lineno++;
		p += strspn(p, " \t");
		if (*p != '#')
			continue;
		p++;
		p += strspn(p, " \t");
		if (strncmp(p, "define", 6) || (p[6] != ' ' && p[6] != '\t'))
			continue;
		p += 6;
		p += strspn(p, " \t");
		name = p;
		nlen = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
		if (!nlen || strncmp(name, "__NR", 4) || p[nlen] == '(')
			continue;	/* not a syscall number, or a function-like macro */
		p += nlen;
		expr = xstrndup(p, strcspn(p, "\n"));
		id = xstrndup(name, nlen);
		if (strstr(expr, "/*"))
			expr[strstr(expr, "/*") - expr] = '\0';
		if (pf_tokenize(expr, &toks, &epos)) {
			diag_error(path, lineno, (int)(p - line + epos + 1), "cannot read the value of %s", id);
			err = -EINVAL;
		} else if (pf_parse_expr(&toks, &t, &env, &n, &epos, &emsg) || toks.t[t].kind != PF_TOK_END ||
			   pf_eval(n, &env, NULL, NULL, &v, &epos)) {
			diag_error(path, lineno, (int)(p - line + epos + 1), "the value of %s is not a number",
				   id);
			err = -EINVAL;
		} else if ((long long)v.v < 0 || v.v > 0x7fffffff) {
			diag_error(path, lineno, (int)(p - line + 1), "%s is out of range", id);
			err = -EINVAL;
		} else {
			defs.d = xrealloc(defs.d, (defs.nr + 1) * sizeof(*defs.d));
			defs.d[defs.nr].name = id;
			defs.d[defs.nr].v = v;
			defs.nr++;
			id = NULL;
			/* __NR_<lowercase name>: a syscall; __NR3264_x, __NR_Linux, __NR_syscalls: helpers */
			name = defs.d[defs.nr - 1].name;
			if (!strncmp(name, "__NR_", 5) && valid_name(name + 5) && strcmp(name + 5, "syscalls"))
				add(sn, &cap, (int)v.v, name + 5);
		}
		pf_node_free(n);
		pf_toks_clear(&toks);
		free(expr);
		free(id);
	}
	for (i = 0; i < defs.nr; i++)
		free(defs.d[i].name);
	free(defs.d);
	if (!err && !sn->nr) {
		diag_error(path, 0, 0, "no '#define __NR_<name> <number>' line");
		err = -EINVAL;
	}
	if (err) {
		sysnames_clear(sn);
		return err;
	}
	finish(sn);
	sn->arch = arch ? xstrdup(arch) : NULL;
	sn->source = xstrdup(strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	return 0;
}

/* the snapshot file */

int sysnames_load(const char *path, struct sysnames *sn)
{
	char *text, *line, *next;
	size_t len;
	int lineno = 0, cap = 0, err, i;

	memset(sn, 0, sizeof(*sn));
	err = read_file(path, &text, &len);
	if (err)
		return err;
	if (strlen(text) != len) {
		diag_error(path, 0, 0, "NUL byte in a text file");
		free(text);
		return -EINVAL;
	}
	for (line = text; *line && !err; line = next) {
		char name[SYSNAMES_NAME_MAX + 2];
		long nr;
		int used = 0;

		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		lineno++;
		if (lineno == 1 && !strncmp(line, "# tpgen syscalls: ", 18)) {
			size_t n = strcspn(line + 18, ",");

			sn->arch = xstrndup(line + 18, n);
			if (!strncmp(line + 18 + n, ", from ", 7))
				sn->source = xstrdup(line + 18 + n + 7);
			continue;
		}
		if (line[0] == '#' || !line[0])
			continue;
		if (sscanf(line, "%ld %65s%n", &nr, name, &used) != 2 || line[used] || nr < 0 ||
		    nr > 0x7fffffff || !isdigit((unsigned char)line[0]) || !valid_name(name)) {
			diag_error(path, lineno, 1, "expected '<number> <syscall name>'");
			err = -EINVAL;
			break;
		}
		add(sn, &cap, (int)nr, name);
	}
	free(text);
	if (!err && !sn->nr) {
		diag_error(path, 0, 0, "no syscall in the table");
		err = -EINVAL;
	}
	if (!err) {
		qsort(sn->tab, sn->nr, sizeof(*sn->tab), by_nr);
		for (i = 1; i < sn->nr && !err; i++) {
			if (sn->tab[i].nr == sn->tab[i - 1].nr) {
				diag_error(path, 0, 0, "syscall %d is both %s and %s", sn->tab[i].nr,
					   sn->tab[i - 1].name, sn->tab[i].name);
				err = -EINVAL;
			}
		}
	}
	if (err)
		sysnames_clear(sn);
	return err;
}

void sysnames_text(struct strbuf *sb, const struct sysnames *sn)
{
	int i;

	sb_printf(sb, "# tpgen syscalls: %s, from %s\n", sn->arch ? sn->arch : "unknown",
		  sn->source ? sn->source : "unknown");
	for (i = 0; i < sn->nr; i++)
		sb_printf(sb, "%d %s\n", sn->tab[i].nr, sn->tab[i].name);
}

const char *sysnames_name(const struct sysnames *sn, int nr)
{
	int lo = 0, hi = sn->nr;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (sn->tab[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < sn->nr && sn->tab[lo].nr == nr ? sn->tab[lo].name : NULL;
}

int sysnames_nr(const struct sysnames *sn, const char *name)
{
	int i;

	for (i = 0; i < sn->nr; i++)
		if (!strcmp(sn->tab[i].name, name))
			return sn->tab[i].nr;
	return -1;
}

/* Text from a snapshot file in a C comment: letters, digits and " ._-" only. */
static void comment_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++)
		sb_putc(sb, isalnum((unsigned char)*s) || strchr(" ._-", *s) ? *s : '?');
}

void sysnames_emit(struct strbuf *sb, const struct sysnames *sn, const char *var)
{
	int i;

	sb_puts(sb, "/* syscalls of ");
	comment_text(sb, sn->arch ? sn->arch : "the target");
	sb_puts(sb, ", from ");
	comment_text(sb, sn->source ? sn->source : "the kernel");
	sb_puts(sb, " */\n");
	sb_printf(sb, "static const struct tpgen_syscall %s[] = {\n", var);
	for (i = 0; i < sn->nr; i++)
		sb_printf(sb, "\t{ %d, \"%s\" },\n", sn->tab[i].nr, sn->tab[i].name);
	sb_puts(sb, "};\n");
}
