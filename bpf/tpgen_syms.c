// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tpgen_syms: kernel and user stack symbolization for loaders. See
 * tpgen_syms.h. Needs libelf (-lelf), which every libbpf loader links.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* qsort_r() */
#endif
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tpgen_syms.h"

#define KSYM_MAX_OFFSET	(16ULL << 20)	/* further from any kernel symbol: unknown */
#define NR_BUCKETS	256
#define MAX_ELF_SIZE	(1ULL << 32)

/* strings, one arena per table; names are offsets into it */
struct strtab {
	char *buf;
	size_t len, cap;
};

static long strtab_add(struct strtab *st, const char *s, size_t n)
{
	if (st->len + n + 1 > st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 1 << 16;
		char *buf;

		while (cap < st->len + n + 1)
			cap *= 2;
		buf = realloc(st->buf, cap);
		if (!buf)
			return -1;
		st->buf = buf;
		st->cap = cap;
	}
	memcpy(st->buf + st->len, s, n);
	st->buf[st->len + n] = '\0';
	st->len += n + 1;
	return (long)(st->len - n - 1);
}

/* a symbol of a sorted table */
struct sym {
	unsigned long long start, size;	/* size 0: unknown (kernel symbols, assembly) */
	unsigned int name;		/* in the table's strtab */
	unsigned int module;		/* kernel: "[mod]" in the strtab, 0 for none */
	unsigned char rank;		/* among symbols at one address: lower wins */
};

struct symtab {
	struct sym *syms;
	size_t nr, cap;
	struct strtab str;
};

/*
 * By address; at one address the name to print first: by rank (binding),
 * then a public name before an internal one (getppid, __getppid), then
 * the shorter, then in byte order, so that the choice never depends on
 * the order of the file.
 */
static int sym_cmp(const void *a, const void *b, void *strs)
{
	const struct sym *x = a, *y = b;
	const char *xn = (const char *)strs + x->name, *yn = (const char *)strs + y->name;
	size_t xl, yl;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if ((xn[0] == '_') != (yn[0] == '_'))
		return xn[0] == '_' ? 1 : -1;
	xl = strlen(xn);
	yl = strlen(yn);
	if (xl != yl)
		return xl < yl ? -1 : 1;
	return strcmp(xn, yn);
}

static void symtab_sort(struct symtab *t)
{
	qsort_r(t->syms, t->nr, sizeof(*t->syms), sym_cmp, t->str.buf);
}

static int symtab_add(struct symtab *t, unsigned long long start, unsigned long long size, const char *name,
		      size_t nlen, unsigned int module, unsigned char rank)
{
	long off;

	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 4096;
		struct sym *syms = realloc(t->syms, cap * sizeof(*syms));

		if (!syms)
			return -ENOMEM;
		t->syms = syms;
		t->cap = cap;
	}
	off = strtab_add(&t->str, name, nlen);
	if (off < 0 || off > UINT_MAX)
		return -ENOMEM;
	t->syms[t->nr++] = (struct sym){ start, size, (unsigned int)off, module, rank };
	return 0;
}

static void symtab_free(struct symtab *t)
{
	free(t->syms);
	free(t->str.buf);
	memset(t, 0, sizeof(*t));
}

/*
 * The symbol covering 'addr': the last one starting at or before it (the
 * first of those at one address, by rank), or one a little before that
 * when it is too short; a symbol of size 0 covers up to the next.
 */
static const struct sym *symtab_find(const struct symtab *t, unsigned long long addr)
{
	size_t lo = 0, hi = t->nr, i, j, k;
	int tries;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* groups of symbols at one address, from the last before addr backwards */
	for (i = lo, tries = 0; i > 0 && tries < 16; i = j, tries++) {
		for (j = i - 1; j > 0 && t->syms[j - 1].start == t->syms[j].start; j--)
			;
		for (k = j; k < i; k++) {
			const struct sym *s = &t->syms[k];

			if (!s->size || addr < s->start + s->size)
				return s;
		}
	}
	return NULL;
}

/* kernel symbols */

static int kallsyms_load(struct symtab *t)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];
	bool seen_addr = false;
	int err = 0;

	if (!f)
		return -errno;
	/* offset 0 of the strtab is "" (no module) */
	if (strtab_add(&t->str, "", 0) < 0) {
		fclose(f);
		return -ENOMEM;
	}
	while (!err && fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, *name, *mod, *end;
		long moff = 0;

		addr = strtoull(line, &end, 16);
		if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
			continue;
		type = end[1];
		name = end + 3;
		name[strcspn(name, "\n")] = '\0';
		mod = strchr(name, '\t');
		if (mod) {
			*mod++ = '\0';
			moff = strtab_add(&t->str, mod, strlen(mod));
			if (moff < 0)
				err = -ENOMEM;
		}
		seen_addr |= addr != 0;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		/* at one address: global before local, a name before its __pfx_ padding */
		if (!err)
			err = symtab_add(t, addr, 0, name, strlen(name), (unsigned int)moff,
					 (type == 'T' ? 0 : type == 't' ? 1 : 2) + 4 * !strncmp(name, "__pfx_", 6));
	}
	fclose(f);
	if (!err && !seen_addr)
		err = -EPERM;	/* kernel.kptr_restrict or not root: every address is 0 */
	if (!err && !t->nr)
		err = -ENOENT;
	if (err) {
		symtab_free(t);
		return err;
	}
	symtab_sort(t);
	return 0;
}

/* ELF files */

struct load {
	unsigned long long offset, vaddr, filesz;
};

struct elf_file {
	dev_t dev;
	ino_t ino;
	char *path;
	struct symtab syms;
	struct load *loads;
	int nr_loads;
	int err;		/* not an ELF file we can read: no symbols */
	struct elf_file *next;
};

struct mapping {
	unsigned long long start, end, offset;
	struct elf_file *elf;	/* NULL: not a file ([vdso], anonymous) or unreadable */
};

struct proc {
	int pid;
	struct mapping *maps;
	int nr;
	int err;
	struct proc *next;
};

struct tpgen_syms {
	struct symtab ksyms;
	int kerr;
	bool kloaded;
	struct elf_file *files[NR_BUCKETS];
	struct proc *procs[NR_BUCKETS];
};

struct tpgen_syms *tpgen_syms_new(void)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		errno = EINVAL;
		return NULL;
	}
	return calloc(1, sizeof(struct tpgen_syms));
}

static void elf_file_free(struct elf_file *ef)
{
	symtab_free(&ef->syms);
	free(ef->loads);
	free(ef->path);
	free(ef);
}

static void proc_free(struct proc *p)
{
	free(p->maps);
	free(p);
}

void tpgen_syms_free(struct tpgen_syms *s)
{
	int i;

	if (!s)
		return;
	symtab_free(&s->ksyms);
	for (i = 0; i < NR_BUCKETS; i++) {
		while (s->files[i]) {
			struct elf_file *ef = s->files[i];

			s->files[i] = ef->next;
			elf_file_free(ef);
		}
		while (s->procs[i]) {
			struct proc *p = s->procs[i];

			s->procs[i] = p->next;
			proc_free(p);
		}
	}
	free(s);
}

/* The symbols of one symbol section of 'e' (functions only). */
static int read_symbols(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, struct symtab *t)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n;
	int err = 0;

	if (!data || !sh->sh_entsize)
		return -EINVAL;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n && !err; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		if ((GELF_ST_TYPE(sym.st_info) != STT_FUNC && GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC) ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_value)
			continue;
		name = elf_strptr(e, sh->sh_link, sym.st_name);
		if (!name || !*name || *name == '@')
			continue;
		/* at one address: global, then weak, then local; "name@VERSION" (.symtab) as "name" */
		err = symtab_add(t, sym.st_value, sym.st_size, name, strcspn(name, "@"), 0,
				 GELF_ST_BIND(sym.st_info) == STB_GLOBAL ? 0 :
				 GELF_ST_BIND(sym.st_info) == STB_WEAK ? 1 : 2);
	}
	return err;
}

/* .symtab, else .dynsym, of 'e'; 'build_id' gets the GNU build id (hex) when there is one. */
static int elf_symbols(Elf *e, struct symtab *t, char *build_id, size_t size, bool *full)
{
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	GElf_Shdr sh, symtab_sh, dynsym_sh;

	*full = false;
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			symtab = scn;
			symtab_sh = sh;
		} else if (sh.sh_type == SHT_DYNSYM) {
			dynsym = scn;
			dynsym_sh = sh;
		} else if (sh.sh_type == SHT_NOTE && build_id) {
			Elf_Data *data = elf_getdata(scn, NULL);
			size_t off = 0, name_off, desc_off;
			GElf_Nhdr nh;

			while (data && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
				const unsigned char *d = (const unsigned char *)data->d_buf + desc_off;
				size_t i;

				if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
				    memcmp((const char *)data->d_buf + name_off, "GNU", 4) ||
				    nh.n_descsz * 2 + 1 > size || nh.n_descsz < 2)
					continue;
				for (i = 0; i < nh.n_descsz; i++)
					snprintf(build_id + 2 * i, 3, "%02x", d[i]);
			}
		}
	}
	if (symtab) {
		*full = true;
		return read_symbols(e, symtab, &symtab_sh, t);
	}
	if (dynsym)
		return read_symbols(e, dynsym, &dynsym_sh, t);
	return 0;
}

/* The .symtab of the file's separate debug file, when the file has none and the debug file is there. */
static void debug_symbols(struct elf_file *ef, const char *build_id)
{
	struct symtab t = {};
	char path[PATH_MAX];
	bool full;
	Elf *e;
	int fd;

	if (!build_id[0])
		return;
	snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%.2s/%s.debug", build_id, build_id + 2);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && !elf_symbols(e, &t, NULL, 0, &full) && full && t.nr) {
		symtab_free(&ef->syms);
		ef->syms = t;
	} else {
		symtab_free(&t);
	}
	if (e)
		elf_end(e);
	close(fd);
}

static int elf_read(struct elf_file *ef, int fd)
{
	char build_id[128] = "";
	size_t n, i;
	GElf_Ehdr eh;
	bool full;
	Elf *e;
	int err = 0;

	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) || elf_getphdrnum(e, &n)) {
		if (e)
			elf_end(e);
		return -ENOEXEC;
	}
	for (i = 0; i < n && !err; i++) {
		GElf_Phdr ph;
		struct load *loads;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		loads = realloc(ef->loads, (ef->nr_loads + 1) * sizeof(*loads));
		if (!loads) {
			err = -ENOMEM;
			break;
		}
		ef->loads = loads;
		ef->loads[ef->nr_loads++] = (struct load){ ph.p_offset, ph.p_vaddr, ph.p_filesz };
	}
	if (!err)
		err = elf_symbols(e, &ef->syms, build_id, sizeof(build_id), &full);
	elf_end(e);
	if (err)
		return err;
	if (!full)
		debug_symbols(ef, build_id);
	symtab_sort(&ef->syms);
	return 0;
}

/* The ELF file open on 'fd' (path for info), read once for all processes. */
static struct elf_file *elf_get(struct tpgen_syms *s, int fd, const char *path)
{
	struct elf_file *ef;
	struct stat st;
	unsigned int b;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (unsigned long long)st.st_size > MAX_ELF_SIZE)
		return NULL;
	b = (unsigned int)(st.st_ino ^ st.st_dev) % NR_BUCKETS;
	for (ef = s->files[b]; ef; ef = ef->next)
		if (ef->dev == st.st_dev && ef->ino == st.st_ino)
			return ef->err ? NULL : ef;
	ef = calloc(1, sizeof(*ef));
	if (!ef)
		return NULL;
	ef->dev = st.st_dev;
	ef->ino = st.st_ino;
	ef->path = strdup(path);
	ef->err = ef->path ? elf_read(ef, fd) : -ENOMEM;
	ef->next = s->files[b];
	s->files[b] = ef;
	return ef->err ? NULL : ef;
}

/* Open a mapped file as the process sees it: through map_files, its root, or the path. */
static int open_mapped(int pid, unsigned long long start, unsigned long long end, const char *path)
{
	char p[PATH_MAX + 64];
	int fd;

	snprintf(p, sizeof(p), "/proc/%d/map_files/%llx-%llx", pid, start, end);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	snprintf(p, sizeof(p), "/proc/%d/root%s", pid, path);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	return open(path, O_RDONLY | O_CLOEXEC);
}

static int proc_load(struct tpgen_syms *s, struct proc *p)
{
	char path[64], line[PATH_MAX + 128];
	FILE *f;
	int cap = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", p->pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, offset;
		char perms[8], *file;
		int n = 0, fd;

		if (sscanf(line, "%llx-%llx %7s %llx %*x:%*x %*u %n", &start, &end, perms, &offset, &n) < 4 ||
		    !n || !strchr(perms, 'x'))
			continue;
		file = line + n;
		file[strcspn(file, "\n")] = '\0';
		if (p->nr == cap) {
			struct mapping *maps = realloc(p->maps, (cap ? cap * 2 : 32) * sizeof(*maps));

			if (!maps) {
				fclose(f);
				return -ENOMEM;
			}
			p->maps = maps;
			cap = cap ? cap * 2 : 32;
		}
		p->maps[p->nr] = (struct mapping){ start, end, offset, NULL };
		if (file[0] == '/') {
			fd = open_mapped(p->pid, start, end, file);
			if (fd >= 0) {
				p->maps[p->nr].elf = elf_get(s, fd, file);
				close(fd);
			}
		}
		p->nr++;
	}
	fclose(f);
	return 0;
}

static struct proc *proc_get(struct tpgen_syms *s, int pid)
{
	unsigned int b = (unsigned int)pid % NR_BUCKETS;
	struct proc *p;

	for (p = s->procs[b]; p; p = p->next)
		if (p->pid == pid)
			return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	p->err = proc_load(s, p);
	p->next = s->procs[b];
	s->procs[b] = p;
	return p;
}

void tpgen_syms_forget(struct tpgen_syms *s, int pid)
{
	struct proc **pp = &s->procs[(unsigned int)pid % NR_BUCKETS], *p;

	for (; (p = *pp); pp = &p->next) {
		if (p->pid == pid) {
			*pp = p->next;
			proc_free(p);
			return;
		}
	}
}

int tpgen_syms_kernel(struct tpgen_syms *s, unsigned long long addr, struct tpgen_sym_info *info)
{
	const struct sym *sym;

	memset(info, 0, sizeof(*info));
	if (!s->kloaded) {
		s->kerr = kallsyms_load(&s->ksyms);
		s->kloaded = true;
	}
	if (s->kerr)
		return s->kerr;
	sym = symtab_find(&s->ksyms, addr);
	if (!sym || addr - sym->start > KSYM_MAX_OFFSET)
		return -ENOENT;
	info->name = s->ksyms.str.buf + sym->name;
	info->offset = addr - sym->start;
	info->module = sym->module ? s->ksyms.str.buf + sym->module : NULL;
	return 0;
}

int tpgen_syms_user(struct tpgen_syms *s, int pid, unsigned long long addr, struct tpgen_sym_info *info)
{
	const struct mapping *m = NULL;
	const struct sym *sym;
	struct proc *p;
	unsigned long long off, vaddr = 0;
	int i;

	memset(info, 0, sizeof(*info));
	p = proc_get(s, pid);
	if (!p)
		return -ENOMEM;
	if (p->err)
		return p->err;
	for (i = 0; i < p->nr; i++) {
		if (addr >= p->maps[i].start && addr < p->maps[i].end) {
			m = &p->maps[i];
			break;
		}
	}
	if (!m || !m->elf)
		return -ENOENT;
	info->module = m->elf->path;
	/* the file offset, then the virtual address the ELF file gives it */
	off = addr - m->start + m->offset;
	for (i = 0; i < m->elf->nr_loads; i++) {
		const struct load *l = &m->elf->loads[i];

		if (off >= l->offset && off < l->offset + l->filesz) {
			vaddr = off - l->offset + l->vaddr;
			break;
		}
	}
	if (i == m->elf->nr_loads)
		return -ENOENT;
	sym = symtab_find(&m->elf->syms, vaddr);
	if (!sym)
		return -ENOENT;
	info->name = m->elf->syms.str.buf + sym->name;
	info->offset = vaddr - sym->start;
	return 0;
}

int tpgen_sym_str(char *buf, size_t size, const struct tpgen_sym_info *info, bool offset)
{
	if (!info->name)
		return snprintf(buf, size, "[unknown]");
	if (offset && info->offset)
		return snprintf(buf, size, "%s+0x%llx", info->name, info->offset);
	return snprintf(buf, size, "%s", info->name);
}

/* an output buffer that counts what did not fit */
struct out {
	char *buf;
	size_t size, len;
};

static void out_str(struct out *o, const char *s, size_t n)
{
	if (o->len < o->size) {
		size_t room = o->size - o->len - 1;

		memcpy(o->buf + o->len, s, n < room ? n : room);
		o->buf[o->len + (n < room ? n : room)] = '\0';
	}
	o->len += n;
}

static void out_frame(struct out *o, const struct tpgen_sym_info *info, bool first)
{
	char name[256];
	int n = tpgen_sym_str(name, sizeof(name), info, false);

	if (!first)
		out_str(o, ";", 1);
	out_str(o, name, n < (int)sizeof(name) ? (size_t)n : sizeof(name) - 1);
}

static int stack_len(const unsigned long long *ips, int len)
{
	int n = 0;

	while (ips && n < len && ips[n])
		n++;
	return n;
}

int tpgen_stack_folded(struct tpgen_syms *s, char *buf, size_t size, const char *comm, int pid,
		       const unsigned long long *ustack, int ulen, const unsigned long long *kstack,
		       int klen)
{
	struct out o = { buf, size, 0 };
	struct tpgen_sym_info info;
	bool first = true;
	int i;

	if (size)
		buf[0] = '\0';
	ulen = stack_len(ustack, ulen);
	klen = stack_len(kstack, klen);
	if (comm) {
		/* a ';' would split the frame: the comm is one */
		for (; *comm; comm++)
			out_str(&o, *comm == ';' ? "_" : comm, 1);
		first = false;
	}
	for (i = ulen - 1; i >= 0; i--) {
		tpgen_syms_user(s, pid, ustack[i], &info);
		out_frame(&o, &info, first);
		first = false;
	}
	if (ulen && klen)
		out_str(&o, ";-", 2);
	for (i = klen - 1; i >= 0; i--) {
		tpgen_syms_kernel(s, kstack[i], &info);
		out_frame(&o, &info, first);
		first = false;
	}
	return (int)o.len;
}

void tpgen_stack_print(struct tpgen_syms *s, FILE *f, const char *indent, int pid,
		       const unsigned long long *ips, int len)
{
	struct tpgen_sym_info info;
	char name[256];
	int i;

	len = stack_len(ips, len);
	for (i = 0; i < len; i++) {
		if (pid < 0)
			tpgen_syms_kernel(s, ips[i], &info);
		else
			tpgen_syms_user(s, pid, ips[i], &info);
		tpgen_sym_str(name, sizeof(name), &info, true);
		fprintf(f, "%s%#llx %s\n", indent, ips[i], name);
	}
}
