// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Kernel BTF: a file (raw BTF, or an ELF object with a .BTF section) or the
 * running kernel's /sys/kernel/btf/vmlinux, read with libbpf. A failure is
 * reported once, located at the file, with libbpf's own reason when it gave
 * one: "x.btf: error: not a BTF file: neither raw BTF (magic 0xeB9F) nor an ELF object".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "lib/limits.h"
#include "input/fieldtype.h"
#include "input/rawtp.h"
#include "lib/util.h"

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

/* libbpf's last warning while parsing: its reason goes into our one message. */
static char libbpf_msg[256];

static int capture_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t n;

	if (level != LIBBPF_WARN)
		return 0;
	vsnprintf(libbpf_msg, sizeof(libbpf_msg), fmt, ap);
	n = strcspn(libbpf_msg, "\n");
	libbpf_msg[n] = '\0';
	return 0;
}

static const char *errno_name(int err)
{
	switch (err) {
	case ENOENT:	return "-ENOENT";
	case EACCES:	return "-EACCES";
	case EPERM:	return "-EPERM";
	case EINVAL:	return "-EINVAL";
	case ENOMEM:	return "-ENOMEM";
	case EISDIR:	return "-EISDIR";
	case EIO:	return "-EIO";
	case E2BIG:	return "-E2BIG";
	case ENODATA:	return "-ENODATA";
	case EPROTO:	return "-EPROTO";
	default:	return NULL;
	}
}

/* What a user should read into an errno from btf__parse(). */
static const char *what(int err)
{
	switch (err) {
	case ENOENT:	return "cannot read BTF: no such file";
	case EACCES:
	case EPERM:	return "cannot read BTF: permission denied";
	case EISDIR:	return "cannot read BTF: is a directory";
	case ENOMEM:	return "cannot read BTF: out of memory";
	default:	return "not a BTF file";
	}
}

/* Say what the file is before libbpf says what it is not: missing, empty, neither kind. */
static int precheck(const char *path)
{
	unsigned char magic[4] = {};
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	n = read(fd, magic, sizeof(magic));
	close(fd);
	if (n <= 0) {
		diag_error(path, 0, 0, "not a BTF file: empty");
		return -ENODATA;
	}
	if ((magic[0] == 0x9f && magic[1] == 0xeb) || (magic[0] == 0xeb && magic[1] == 0x9f) ||
	    !memcmp(magic, "\177ELF", 4))
		return 0;
	diag_error(path, 0, 0, "not a BTF file: neither raw BTF (magic 0xeB9F) nor an ELF object");
	return -EINVAL;
}

/*
 * Edge k of type t that btf_dump follows when it prints a declaration (the
 * type a pointer, typedef, modifier or array is of; a prototype's return and
 * parameter types; an anonymous struct's member types), or -1 past the last.
 */
static long edge(const struct btf_type *t, unsigned int k)
{
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return k ? -1 : (long)t->type;
	case BTF_KIND_ARRAY:
		return k ? -1 : (long)btf_array(t)->type;
	case BTF_KIND_FUNC_PROTO:
		if (!k)
			return t->type;
		return k <= btf_vlen(t) ? (long)btf_params(t)[k - 1].type : -1;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		if (t->name_off)	/* named ones are printed by name */
			return -1;
		return k < btf_vlen(t) ? (long)btf_members(t)[k].type : -1;
	default:
		return -1;
	}
}

/*
 * libbpf 1.1 parses BTF without checking what its types refer to, and its
 * btf_dump then reads past the end or loops. Check once, before anyone walks
 * it: every type id and name offset in range, FUNC on a FUNC_PROTO, and no
 * cycle a declaration could follow (a pointer to itself, say). One pass over
 * the types, then a depth-first walk that follows each edge once.
 */
/* The size of the strings of this BTF (not its base's), or -1 without a header. */
static long str_size(const struct btf *btf)
{
	const struct btf_header *hdr;
	const void *raw;
	__u32 sz;

	raw = btf__raw_data(btf, &sz);
	if (!raw || sz < sizeof(*hdr))
		return -1;
	hdr = raw;
	return hdr->str_len;
}

/*
 * A split BTF (a module's, on vmlinux) is checked from its first own type:
 * its types and strings follow the base's, and what it refers to in the base
 * was checked with the base.
 */
static int validate(const struct btf *btf, const char *path)
{
	const struct btf *base = btf__base_btf(btf);
	__u32 n = btf__type_cnt(btf), i, j, str_len, *stack = NULL, start;
	const struct btf_type **types = NULL, *t;
	unsigned char *state = NULL;	/* 0 new, 1 on the stack, 2 done */
	int err = -EINVAL;

	start = base ? btf__type_cnt(base) : 1;
	if (str_size(btf) < 0 || (base && str_size(base) < 0))
		goto bad_header;
	str_len = str_size(btf) + (base ? str_size(base) : 0);
	types = xcalloc(n, sizeof(*types));
	for (i = start; i < n; i++) {
		t = types[i] = btf__type_by_id(btf, i);
		if (t->name_off >= str_len)
			goto bad_name;
		switch (btf_kind(t)) {
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			for (j = 0; j < btf_vlen(t); j++)
				if (btf_members(t)[j].type >= n || btf_members(t)[j].name_off >= str_len)
					goto bad_ref;
			break;
		case BTF_KIND_ENUM:
			for (j = 0; j < btf_vlen(t); j++)
				if (btf_enum(t)[j].name_off >= str_len)
					goto bad_name;
			break;
		case BTF_KIND_ENUM64:
			for (j = 0; j < btf_vlen(t); j++)
				if (btf_enum64(t)[j].name_off >= str_len)
					goto bad_name;
			break;
		case BTF_KIND_FUNC_PROTO:
			for (j = 0; j < btf_vlen(t); j++)
				if (btf_params(t)[j].type >= n || btf_params(t)[j].name_off >= str_len)
					goto bad_ref;
			if (t->type >= n)
				goto bad_ref;
			break;
		case BTF_KIND_ARRAY:
			if (btf_array(t)->type >= n || btf_array(t)->index_type >= n)
				goto bad_ref;
			break;
		case BTF_KIND_DATASEC:
			for (j = 0; j < btf_vlen(t); j++)
				if (btf_var_secinfos(t)[j].type >= n)
					goto bad_ref;
			break;
		case BTF_KIND_FUNC:
			if (t->type >= n || !btf_is_func_proto(btf__type_by_id(btf, t->type)))
				goto bad_ref;
			break;
		case BTF_KIND_PTR:
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_CONST:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
		case BTF_KIND_VAR:
		case BTF_KIND_DECL_TAG:
			if (t->type >= n)
				goto bad_ref;
			break;
		default:
			break;
		}
	}
	/* cycles: each type entered once; the stack holds (id, next edge) pairs */
	state = xcalloc(n, 1);
	memset(state, 2, start);	/* the base's: done */
	stack = xmalloc(2 * n * sizeof(*stack));
	for (i = start; i < n; i++) {
		int sp = 0;

		if (state[i])
			continue;
		state[i] = 1;
		stack[sp++] = i;
		stack[sp++] = 0;
		while (sp) {
			__u32 id = stack[sp - 2];
			long e;

			/* the next edge to a type not done yet (0 is void) */
			do
				e = edge(types[id], stack[sp - 1]++);
			while (e >= 0 && (!e || state[e] == 2));
			if (e < 0) {
				state[id] = 2;
				sp -= 2;
				continue;
			}
			if (state[e] == 1) {
				diag_error(path, 0, 0, "malformed BTF: type [%ld] refers back to itself "
					   "through [%u] (-EINVAL)", e, id);
				goto out;
			}
			state[e] = 1;
			stack[sp++] = e;
			stack[sp++] = 0;
		}
	}
	err = 0;
	goto out;
bad_header:
	diag_error(path, 0, 0, "malformed BTF: no header (-EINVAL)");
	goto out;
bad_name:
	diag_error(path, 0, 0, "malformed BTF: type [%u] has a name past the strings (-EINVAL)", i);
	goto out;
bad_ref:
	diag_error(path, 0, 0, "malformed BTF: type [%u] refers to a type that does not exist (-EINVAL)", i);
out:
	free(types);
	free(state);
	free(stack);
	return err;
}

/*
 * Raw BTF (a file, or the kernel's in sysfs) mapped, not read: the kernel's
 * pages are mapped as they are, and libbpf's copy is the only one. Files that
 * cannot be mapped (sysfs before 6.16) are read in one go at their size.
 */
static struct btf *parse_raw(const char *path)
{
	struct btf *b = NULL;
	size_t size, len = 0;
	struct stat st;
	void *data;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		err = errno ? -errno : -EINVAL;
		close(fd);
		errno = -err;
		return btf__parse(path, NULL);	/* not a plain file: libbpf reads it */
	}
	size = st.st_size;
	data = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (data != MAP_FAILED) {
		close(fd);
		b = btf__new(data, size);
		err = b ? 0 : errno;
		munmap(data, size);
		errno = err;
		return b;
	}
	data = xmalloc(size);
	while (len < size) {
		ssize_t r = read(fd, (char *)data + len, size - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += r;
	}
	close(fd);
	errno = 0;
	b = btf__new(data, len);
	err = b ? 0 : errno;
	free(data);
	errno = err;
	return b;
}

int kbtf_load(const char *path, struct btf **btf)
{
	const char *shown = path ? path : VMLINUX_BTF;
	libbpf_print_fn_t old;
	const char *name;
	bool elf = false;
	struct btf *b;
	int err;

	*btf = NULL;
	if (path) {
		char head[4] = {};
		FILE *f;

		err = precheck(path);
		if (err == -ENODATA || (err == -EINVAL))
			return err;
		f = fopen(path, "re");
		if (f) {
			elf = fread(head, 1, 4, f) == 4 && !memcmp(head, "\177ELF", 4);
			fclose(f);
		}
	}
	libbpf_msg[0] = '\0';
	old = libbpf_set_print(capture_print);
	errno = 0;
	if (path)
		b = elf ? btf__parse(path, NULL) : parse_raw(path);
	else if (!access(VMLINUX_BTF, R_OK))
		b = parse_raw(VMLINUX_BTF);
	else
		b = btf__load_vmlinux_btf();
	err = b ? 0 : (errno ? -errno : -EINVAL);
	libbpf_set_print(old);
	if (err) {
		name = errno_name(-err);
		if (elf && err == -ENOENT) {
			diag_error(shown, 0, 0, "no .BTF section in this ELF file (-ENOENT)");
		} else if (-err >= __LIBBPF_ERRNO__START) {
			char buf[128];

			libbpf_strerror(err, buf, sizeof(buf));
			diag_error(shown, 0, 0, "not a BTF file: %s", buf);
			err = -EINVAL;
		} else if (libbpf_msg[0] && err != -ENOENT && err != -EACCES && err != -EPERM) {
			/* libbpf's reason names the file itself; errors of open() say enough */
			const char *m = libbpf_msg;

			if (!strncmp(m, "libbpf: ", 8))
				m += 8;
			diag_error(shown, 0, 0, "%s: %s (%s)", what(-err), m,
				   name ? name : strerror(-err));
		} else if (path && !elf && err == -EINVAL) {
			diag_error(shown, 0, 0, "not a BTF file: corrupt or truncated raw BTF (-EINVAL)");
		} else if (name) {
			diag_error(shown, 0, 0, "%s (%s)", what(-err), name);
		} else {
			diag_error(shown, 0, 0, "%s (%s)", what(-err), strerror(-err));
		}
		return err;
	}
	if (btf__type_cnt(b) <= 1) {
		diag_error(shown, 0, 0, "not a BTF file: no types (-EINVAL)");
		btf__free(b);
		return -EINVAL;
	}
	err = validate(b, shown);
	if (err) {
		btf__free(b);
		return err;
	}
	*btf = b;
	return 0;
}

int kbtf_load_split(const char *path, const struct btf *base, struct btf **btf)
{
	struct stat st;
	libbpf_print_fn_t old;
	struct btf *b;
	size_t len;
	char *data;
	int err;

	*btf = NULL;
	if (stat(path, &st)) {
		err = -errno;
		diag_error(path, 0, 0, "cannot read BTF: %s", strerror(-err));
		return err == -EACCES || err == -EPERM ? err : -EINVAL;
	}
	if (!S_ISREG(st.st_mode)) {	/* before any open(): a FIFO would block it */
		diag_error(path, 0, 0, "cannot read BTF: %s", file_kind(st.st_mode));
		return -EINVAL;
	}
	err = precheck(path);
	if (err == -ENODATA || err == -EINVAL)
		return -EINVAL;
	/* a regular file of a bounded size (read_file() says so); libbpf 1.1 has no btf__new_split() */
	err = read_file(path, &data, &len);
	if (err) {
		diag_error(path, 0, 0, "cannot read BTF: %s", read_strerror(err));
		return err == -EACCES || err == -EPERM ? err : -EINVAL;
	}
	free(data);
	libbpf_msg[0] = '\0';
	old = libbpf_set_print(capture_print);
	errno = 0;
	b = btf__parse_raw_split(path, (struct btf *)base);
	err = b ? 0 : (errno ? -errno : -EINVAL);
	libbpf_set_print(old);
	if (err) {
		const char *m = libbpf_msg[0] ? libbpf_msg : "corrupt or truncated raw BTF";

		if (!strncmp(m, "libbpf: ", 8))
			m += 8;
		diag_error(path, 0, 0, "not a module's BTF on this vmlinux: %.*s (-EINVAL)",
			   (int)strcspn(m, "\n"), m);
		return -EINVAL;
	}
	if (btf__type_cnt(b) <= btf__type_cnt(base)) {
		diag_error(path, 0, 0, "not a BTF file: no types (-EINVAL)");
		btf__free(b);
		return -EINVAL;
	}
	err = validate(b, path);
	if (err) {
		btf__free(b);
		return -EINVAL;
	}
	*btf = b;
	return 0;
}

static size_t str_hash(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

void kbtf_names_add(struct kbtf_names *d, const char *name, __u32 id)
{
	size_t i;

	if (2 * (d->nr + 1) > d->cap) {
		struct kbtf_names n = { .cap = d->cap ? d->cap * 2 : 1 << 14 };

		n.slot = xcalloc(n.cap, sizeof(*n.slot));
		n.last = xcalloc(n.cap, sizeof(*n.last));
		n.cnt = xcalloc(n.cap, 1);
		for (i = 0; i < d->cap; i++) {
			size_t j;

			if (!d->slot[i])
				continue;
			for (j = str_hash(d->slot[i]) & (n.cap - 1); n.slot[j]; j = (j + 1) & (n.cap - 1))
				;
			n.slot[j] = d->slot[i];
			n.last[j] = d->last[i];
			n.cnt[j] = d->cnt[i];
		}
		n.nr = d->nr;
		free(d->slot);
		free(d->last);
		free(d->cnt);
		*d = n;
	}
	for (i = str_hash(name) & (d->cap - 1); d->slot[i]; i = (i + 1) & (d->cap - 1)) {
		if (!strcmp(d->slot[i], name)) {
			d->cnt[i] = 2;
			d->last[i] = id;
			return;
		}
	}
	d->slot[i] = name;
	d->last[i] = id;
	d->cnt[i] = 1;
	d->nr++;
}

/* The last id named 'name' if the name is repeated, else 0. */
__u32 kbtf_names_last(const struct kbtf_names *d, const char *name)
{
	size_t i;

	if (!d->cap || !name)
		return 0;
	for (i = str_hash(name) & (d->cap - 1); d->slot[i]; i = (i + 1) & (d->cap - 1))
		if (!strcmp(d->slot[i], name))
			return d->cnt[i] > 1 ? d->last[i] : 0;
	return 0;
}

void kbtf_names_clear(struct kbtf_names *d)
{
	free(d->slot);
	free(d->last);
	free(d->cnt);
	memset(d, 0, sizeof(*d));
}

/*
 * What a standalone header forward-declares for a pointer to type 'id': the
 * named struct or union under its qualifiers, typedefs and pointers, as
 * emit/btf_decl.c spells the pointer (there, anything else is a fixed-width
 * type or void).
 */
char *kbtf_pointee_fwd(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name;
	int depth = 0;

	for (;;) {
		for (; id && t && depth < BTF_MAX_DEPTH; depth++) {
			if (!btf_is_const(t) && !btf_is_volatile(t) && !btf_is_typedef(t) &&
			    !btf_is_restrict(t) && btf_kind(t) != BTF_KIND_TYPE_TAG)
				break;
			id = t->type;
			t = btf__type_by_id(btf, id);
		}
		if (!id || !t || depth >= BTF_MAX_DEPTH)
			return NULL;
		if (!btf_is_ptr(t))
			break;
		id = t->type;	/* a pointer to a pointer: what the inner one points to */
		t = btf__type_by_id(btf, id);
		depth++;
	}
	name = t->name_off ? btf__name_by_offset(btf, t->name_off) : NULL;
	if (!(btf_is_struct(t) || btf_is_union(t) || btf_is_fwd(t)) || !name || !*name)
		return NULL;
	return xstrcat((btf_is_fwd(t) ? btf_kflag(t) : btf_is_union(t)) ? "union " : "struct ", name, NULL);
}
