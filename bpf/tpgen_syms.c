// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tpgen_syms: kernel and user stack symbolization for loaders. See
 * tpgen_syms.h. Needs libdw (-ldw -lelf, elfutils) and liblzma (-llzma).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* qsort_r() */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <lzma.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <elfutils/libdwfl.h>

#include "tpgen_syms.h"

#define UNUSED		__attribute__((unused))
#define KSYM_MAX_OFFSET	(16ULL << 20)	/* further from any kernel symbol: unknown */
#define NR_BUCKETS	256

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
	if (t->nr)
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
	char *line = NULL;
	size_t cap = 0;
	bool seen_addr = false;
	int err = 0;

	if (!f)
		return -errno;
	/* offset 0 of the strtab is "" (no module) */
	if (strtab_add(&t->str, "", 0) < 0) {
		fclose(f);
		return -ENOMEM;
	}
	/* getline(): a name of any length (KSYM_NAME_LEN is 512, a module's name follows) stays one line */
	while (!err && getline(&line, &cap, f) > 0) {
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
	free(line);
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

/*
 * User symbols, through elfutils' libdwfl.
 *
 * A process is one Dwfl: dwfl_linux_proc_report() reads /proc/PID/maps
 * (getline(), any length) and reports one module per mapped file; its ELF
 * file is opened here (proc_find_elf()), never by a path the process
 * chose when the kernel can give the mapped file itself. The symbols of
 * a file are read once, by a Dwfl of their own that ends when they are
 * copied (file_syms_build()): .symtab, else .dynsym and the symbols of
 * .gnu_debugdata, or the .symtab of the separate debug file named by the
 * build id under /usr/lib/debug. They are kept by file identity (device,
 * inode, size, mtime) and shared by every process that maps the file.
 *
 * Every file is checked before libelf or libdwfl reads it (elf_check()):
 * a regular file, headers, sections and notes inside it (64-bit sums),
 * counts and sizes under the limits below, .gnu_debugdata decompressed
 * under a limit. Processes and files are kept least recently used first
 * within TPGEN_SYMS_MAX_PROCS processes and TPGEN_SYMS_MAX_BYTES bytes.
 * A process is checked on a lookup (its start time, exe and the layout
 * the kernel gave its image; once a millisecond at most, so once per
 * stack): an exec or a reused pid reads it again.
 */
#ifndef TPGEN_SYMS_MAX_PROCS
#define TPGEN_SYMS_MAX_PROCS	64
#endif
#ifndef TPGEN_SYMS_MAX_BYTES
#define TPGEN_SYMS_MAX_BYTES	(128ULL << 20)	/* symbol tables and headers kept */
#endif
#define MAX_FILE_BYTES		(64ULL << 20)	/* what libdwfl may read of one file */
#define MAX_SHNUM		16384
#define MAX_PHNUM		1024
#define MAX_NOTE		(64ULL << 10)
#define MAX_SHSTRTAB		(1ULL << 20)
#define MAX_DEBUGDATA_XZ	(16ULL << 20)
#define MAX_NAME		1024		/* longer symbol names are cut */
#define MAX_VMAS		(1 << 17)
#define REREPORT_NS		1000000000ULL	/* an address in no module: maps read again after 1 s */
#define RECHECK_NS		1000000ULL	/* a process's identity: read again after 1 ms */

/* One ELF file's function symbols, by address in the file (its p_vaddr). */
struct file_syms {
	dev_t dev;
	ino_t ino;
	long long size, mtime_sec, mtime_nsec;
	struct symtab syms;
	unsigned long long bytes, lru;
	int err;
	struct file_syms *next;
};

/* What proc_find_elf() found for a module: the file, opened (fd owned by libdwfl). */
struct mod_info {
	int fd;
	struct stat st;
};

struct vma {
	unsigned long long start, end;
};

struct proc {
	int pid;
	char id[192];		/* start time, exe and image layout (proc_identity()) */
	Dwfl *dwfl;
	int err;
	struct vma *vmas;	/* /proc/PID/map_files, read for proc_find_elf() */
	int nr_vmas;
	bool vmas_read;
	unsigned long long bytes, lru, reported_ns, checked_ns;
	struct proc *next;
};

struct tpgen_syms {
	struct symtab ksyms;
	int kerr;
	bool kloaded;
	struct file_syms *files[NR_BUCKETS];
	struct proc *procs[NR_BUCKETS];
	unsigned long long tick, bytes;
	int nr_procs;
	char name[MAX_NAME + 1];	/* what tpgen_syms_user() returns, until the next call */
	char module[PATH_MAX];
};

static __thread struct proc *cur_proc;	/* for proc_find_elf() */

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

/* 'off' + 'size' inside a file of 'fsize' bytes, in 64 bits */
static bool in_file(unsigned long long off, unsigned long long size, unsigned long long fsize)
{
	return off <= fsize && size <= fsize - off;
}

/* Decompressed .gnu_debugdata (xz) up to 'max' bytes; its size, or 0 when bad or bigger. */
static unsigned long long xz_size(int fd, unsigned long long off, unsigned long long size, unsigned long long max)
{
	lzma_stream strm = LZMA_STREAM_INIT;
	unsigned long long total = 0;
	unsigned char *in, out[1 << 16];
	lzma_ret ret;

	in = malloc(size ? size : 1);
	if (!in || pread(fd, in, size, (off_t)off) != (ssize_t)size ||
	    lzma_stream_decoder(&strm, 64ULL << 20, LZMA_CONCATENATED) != LZMA_OK) {
		free(in);
		return 0;
	}
	strm.next_in = in;
	strm.avail_in = size;
	do {
		strm.next_out = out;
		strm.avail_out = sizeof(out);
		ret = lzma_code(&strm, LZMA_FINISH);
		total += sizeof(out) - strm.avail_out;
	} while (ret == LZMA_OK && total <= max);
	lzma_end(&strm);
	free(in);
	return ret == LZMA_STREAM_END && total <= max ? total : 0;
}

/*
 * Whether libelf and libdwfl may read the file open on 'fd': a regular ELF
 * file whose headers, sections and notes lie inside it, within the limits.
 * 'weight': what reading its symbols may cost; 'hdr': what its headers cost.
 * A separate debug file ('debug') keeps the program headers of its program
 * but not what they point to: they are not read, not checked.
 */
static int elf_check(int fd, const struct stat *st, bool debug, unsigned long long *weight, unsigned long long *hdr)
{
	unsigned long long fsize = (unsigned long long)st->st_size, w = 0;
	size_t shnum, phnum, shstrndx, i;
	bool syms = false, dynamic = false, debugdata = false;
	GElf_Ehdr eh;
	int err = -ENOEXEC;
	Elf *e;

	if (!S_ISREG(st->st_mode) || st->st_size < (off_t)sizeof(Elf32_Ehdr))
		return -ENOEXEC;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e)
		return -ENOEXEC;
	if (elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) || elf_getshdrnum(e, &shnum) ||
	    elf_getphdrnum(e, &phnum) || elf_getshdrstrndx(e, &shstrndx))
		goto out;
	if (shnum > MAX_SHNUM || phnum > MAX_PHNUM ||
	    !in_file(eh.e_shoff, (unsigned long long)shnum * eh.e_shentsize, fsize) ||
	    !in_file(eh.e_phoff, (unsigned long long)phnum * eh.e_phentsize, fsize))
		goto out;
	*hdr = (unsigned long long)shnum * sizeof(GElf_Shdr) + (unsigned long long)phnum * sizeof(GElf_Phdr);
	for (i = 0; i < phnum && !debug; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph))
			goto out;
		/* notes (build ids) and the dynamic section are read whole */
		if ((ph.p_type == PT_NOTE || ph.p_type == PT_DYNAMIC) &&
		    (ph.p_filesz > MAX_NOTE || !in_file(ph.p_offset, ph.p_filesz, fsize)))
			goto out;
		if (ph.p_type == PT_NOTE || ph.p_type == PT_DYNAMIC)
			*hdr += ph.p_filesz;
		dynamic |= ph.p_type == PT_DYNAMIC;
	}
	if (shnum && shstrndx < shnum) {
		GElf_Shdr sh;

		if (!gelf_getshdr(elf_getscn(e, shstrndx), &sh) || sh.sh_size > MAX_SHSTRTAB ||
		    (sh.sh_type != SHT_NOBITS && !in_file(sh.sh_offset, sh.sh_size, fsize)))
			goto out;
		w += sh.sh_size;
	}
	for (i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(e, i);
		const char *name;
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh))
			goto out;
		if (sh.sh_type == SHT_NOBITS)
			continue;
		if (!in_file(sh.sh_offset, sh.sh_size, fsize))
			goto out;
		if ((sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM || sh.sh_type == SHT_STRTAB) &&
		    (sh.sh_flags & SHF_COMPRESSED))
			goto out;
		syms |= sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM;
		switch (sh.sh_type) {
		case SHT_NOTE:
			if (sh.sh_size > MAX_NOTE)
				goto out;
			/* fallthrough */
		case SHT_SYMTAB:
		case SHT_DYNSYM:
		case SHT_STRTAB:
		case SHT_SYMTAB_SHNDX:
		case SHT_GNU_versym:
			w += sh.sh_size;
			break;
		case SHT_PROGBITS:
			name = elf_strptr(e, shstrndx, sh.sh_name);
			if (name && !strcmp(name, ".gnu_debugdata")) {
				unsigned long long n;

				if (sh.sh_size > MAX_DEBUGDATA_XZ)
					goto out;
				n = xz_size(fd, sh.sh_offset, sh.sh_size, MAX_FILE_BYTES);
				if (!n)
					goto out;
				w += sh.sh_size + 2 * n;	/* the stream, the ELF file in it */
				debugdata = true;
			} else if (name && (!strcmp(name, ".gnu_debuglink") || !strcmp(name, ".gnu_debugaltlink"))) {
				w += sh.sh_size;
			}
			break;
		}
	}
	w += *hdr;
	/*
	 * Without a symbol section libdwfl would look for symbols through
	 * PT_DYNAMIC, with sizes from the file (DT_STRSZ, hash tables): none,
	 * unless there is .gnu_debugdata and no PT_DYNAMIC (a static binary).
	 */
	if ((syms || (debugdata && !dynamic)) && w <= MAX_FILE_BYTES) {
		*weight = w;
		err = 0;
	}
out:
	elf_end(e);
	return err;
}

/*
 * Open a file for libelf: O_NONBLOCK (a FIFO or a device never blocks
 * the loader), a regular file, checked. Returns the fd (with its stat) or -errno.
 */
static int open_checked(const char *path, int flags, bool debug, struct stat *st, unsigned long long *weight,
			unsigned long long *hdr)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | flags);
	int err;

	if (fd < 0)
		return -errno;
	if (fstat(fd, st)) {
		err = -errno;
		close(fd);
		return err;
	}
	err = elf_check(fd, st, debug, weight, hdr);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/* libdwfl's find_debuginfo: only /usr/lib/debug/.build-id/xx/yyyy.debug, a file root owns. */
static int find_debuginfo(Dwfl_Module *mod, void **userdata UNUSED, const char *modname UNUSED,
			  Dwarf_Addr base UNUSED, const char *file_name UNUSED, const char *debuglink_file UNUSED,
			  GElf_Word debuglink_crc UNUSED, char **debuginfo_file_name)
{
	const unsigned char *id;
	unsigned long long w, h;
	char path[PATH_MAX], hex[2 * 64 + 1], real[PATH_MAX];
	GElf_Addr vaddr;
	struct stat st;
	int n, i, fd;

	n = dwfl_module_build_id(mod, &id, &vaddr);
	if (n < 2 || n > 64)
		return -1;
	for (i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
	fd = open_checked(path, O_NOFOLLOW, true, &st, &w, &h);
	if (fd == -ELOOP && realpath(path, real) && !strncmp(real, "/usr/lib/debug/", 15))
		fd = open_checked(real, O_NOFOLLOW, true, &st, &w, &h);	/* a link within /usr/lib/debug */
	if (fd < 0)
		return -1;
	if (st.st_uid != 0 || (st.st_mode & 022)) {
		close(fd);
		return -1;
	}
	*debuginfo_file_name = NULL;
	return fd;
}

static int vma_cmp(const void *a, const void *b)
{
	const struct vma *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The mapping of 'p' that starts at 'start', from /proc/PID/map_files (read once per report). */
static const struct vma *proc_vma(struct proc *p, unsigned long long start)
{
	struct vma key = {};
	char path[64];
	struct dirent *d;
	int cap = 0;
	DIR *dir;

	if (!p->vmas_read) {
		p->vmas_read = true;
		snprintf(path, sizeof(path), "/proc/%d/map_files", p->pid);
		dir = opendir(path);
		while (dir && (d = readdir(dir)) && p->nr_vmas < MAX_VMAS) {
			unsigned long long s, e;
			char c;

			if (sscanf(d->d_name, "%llx-%llx%c", &s, &e, &c) != 2)
				continue;
			if (p->nr_vmas == cap) {
				struct vma *v = realloc(p->vmas, (cap ? cap * 2 : 64) * sizeof(*v));

				if (!v)
					break;
				p->vmas = v;
				cap = cap ? cap * 2 : 64;
			}
			p->vmas[p->nr_vmas++] = (struct vma){ s, e };
		}
		if (dir)
			closedir(dir);
		qsort(p->vmas, p->nr_vmas, sizeof(*p->vmas), vma_cmp);
	}
	key.start = start;
	return p->nr_vmas ? bsearch(&key, p->vmas, p->nr_vmas, sizeof(*p->vmas), vma_cmp) : NULL;
}

/*
 * libdwfl's find_elf for a process: the file mapped at 'base', opened
 * through /proc/PID/map_files (the mapped file itself, whatever its path
 * now is), else the path inside the process's root, never following a
 * last symlink. [vdso] and anything not a file: no ELF, no symbols.
 */
static int proc_find_elf(Dwfl_Module *mod UNUSED, void **userdata, const char *name, Dwarf_Addr base,
			 char **file_name, Elf **elfp)
{
	struct proc *p = cur_proc;
	unsigned long long weight, hdr;
	const struct vma *v;
	struct mod_info *mi;
	char path[PATH_MAX + 64];
	struct stat st;
	int fd = -ENOENT;
	Elf *e;

	if (!p || name[0] != '/')
		return -1;
	v = proc_vma(p, base);
	if (v) {
		snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", p->pid, v->start, v->end);
		fd = open_checked(path, 0, false, &st, &weight, &hdr);
	}
	if (fd < 0 && fd != -ENOEXEC && strlen(name) < PATH_MAX &&
	    snprintf(path, sizeof(path), "/proc/%d/root%s", p->pid, name) < (int)sizeof(path))
		fd = open_checked(path, O_NOFOLLOW, false, &st, &weight, &hdr);
	if (fd < 0)
		return -1;
	/* headers of every module count against the budget; a process that maps too much gets no more */
	if (p->bytes + hdr > TPGEN_SYMS_MAX_BYTES / 4 || !(mi = calloc(1, sizeof(*mi)))) {
		close(fd);
		return -1;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);	/* read(), not mmap(): a file cut short is an error, not SIGBUS */
	if (!e) {
		free(mi);
		close(fd);
		return -1;
	}
	p->bytes += hdr + sizeof(*mi);
	mi->fd = fd;
	mi->st = st;
	free(*userdata);
	*userdata = mi;
	*file_name = NULL;
	*elfp = e;
	return fd;
}

static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = proc_find_elf,
	.find_debuginfo = find_debuginfo,
};

/* find_elf of the Dwfl that reads one file's symbols: the fd of the process's module, again. */
static int file_find_elf(Dwfl_Module *mod UNUSED, void **userdata, const char *name UNUSED, Dwarf_Addr base UNUSED,
			 char **file_name, Elf **elfp)
{
	const struct mod_info *mi = *userdata;
	unsigned long long w, h;
	struct stat st;
	int fd;

	*userdata = NULL;
	if (!mi)
		return -1;
	fd = fcntl(mi->fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	/* the file may have changed since: checked again */
	if (fstat(fd, &st) || st.st_ino != mi->st.st_ino || st.st_dev != mi->st.st_dev || elf_check(fd, &st, false, &w, &h) ||
	    !(*elfp = elf_begin(fd, ELF_C_READ, NULL))) {
		close(fd);
		return -1;
	}
	*file_name = NULL;
	return fd;
}

static const Dwfl_Callbacks file_callbacks = {
	.find_elf = file_find_elf,
	.find_debuginfo = find_debuginfo,
};

static unsigned int file_bucket(const struct stat *st)
{
	return (unsigned int)((unsigned long long)st->st_ino ^ (unsigned long long)st->st_dev) % NR_BUCKETS;
}

static bool file_is(const struct file_syms *f, const struct stat *st)
{
	return f->dev == st->st_dev && f->ino == st->st_ino && f->size == (long long)st->st_size &&
	       f->mtime_sec == (long long)st->st_mtim.tv_sec && f->mtime_nsec == (long long)st->st_mtim.tv_nsec;
}

/*
 * The string sections of an ELF file symbols came from (the file, its
 * debug file, the one in .gnu_debugdata). libdwfl checks that a name
 * starts inside its section, not that it ends there: name_ok() does.
 */
struct strsecs {
	Elf *e;
	int n;
	struct {
		uintptr_t start, end;
	} sec[8];
};

static bool name_ok(struct strsecs *c, int *nr, Elf *e, const char *name)
{
	uintptr_t s = (uintptr_t)name;
	struct strsecs *x = NULL;
	Elf_Scn *scn = NULL;
	int i;

	for (i = 0; i < *nr && !x; i++)
		if (c[i].e == e)
			x = &c[i];
	if (!x) {
		if (*nr == 4)
			return false;
		x = &c[(*nr)++];
		x->e = e;
		x->n = 0;
		while ((scn = elf_nextscn(e, scn)) && x->n < 8) {
			Elf_Data *d;
			GElf_Shdr sh;

			if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_STRTAB && (d = elf_getdata(scn, NULL)) &&
			    d->d_buf && d->d_size) {
				x->sec[x->n].start = (uintptr_t)d->d_buf;
				x->sec[x->n++].end = (uintptr_t)d->d_buf + d->d_size;
			}
		}
	}
	for (i = 0; i < x->n; i++)
		if (s >= x->sec[i].start && s < x->sec[i].end)
			return memchr(name, '\0', x->sec[i].end - s) != NULL;
	return false;
}

/*
 * The function symbols of the file open in 'mi', mapped at low..high as
 * module 'name' of a process, in a Dwfl of their own that ends here.
 */
static int file_syms_build(struct file_syms *f, const char *name, Dwarf_Addr low, Dwarf_Addr high,
			   struct mod_info *mi)
{
	struct strsecs strsecs[4];
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Dwfl *dwfl;
	int n, i, nr_strsecs = 0, err = 0;

	dwfl = dwfl_begin(&file_callbacks);
	if (!dwfl)
		return -ENOMEM;
	dwfl_report_begin(dwfl);
	mod = dwfl_report_module(dwfl, name ? name : "?", low, high);
	if (mod) {
		void **ud;

		dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
		*ud = mi;	/* for file_find_elf(), which takes it back */
	}
	dwfl_report_end(dwfl, NULL, NULL);
	if (!mod || !dwfl_module_getelf(mod, &bias) || (n = dwfl_module_getsymtab(mod)) < 0) {
		dwfl_end(dwfl);
		return -ENOENT;
	}
	for (i = 1; i < n && !err; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *e = NULL;
		const char *s = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx, &e, NULL);
		size_t len;

		if (!s || !e || !sym.st_value || shndx == SHN_UNDEF ||
		    (GELF_ST_TYPE(sym.st_info) != STT_FUNC && GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC) ||
		    !name_ok(strsecs, &nr_strsecs, e, s) || !*s || *s == '@')
			continue;
		/* "name@VERSION" (.symtab) as "name"; at one address: global, then weak, then local */
		len = strnlen(s, MAX_NAME);
		len = strcspn(s, "@") < len ? strcspn(s, "@") : len;
		err = symtab_add(&f->syms, addr - bias, sym.st_size, s, len, 0,
				 GELF_ST_BIND(sym.st_info) == STB_GLOBAL ? 0 :
				 GELF_ST_BIND(sym.st_info) == STB_WEAK ? 1 : 2);
	}
	dwfl_end(dwfl);
	if (err)
		return err;
	symtab_sort(&f->syms);
	f->bytes = sizeof(*f) + f->syms.cap * sizeof(struct sym) + f->syms.str.cap;
	return 0;
}

static void file_syms_free(struct file_syms *f)
{
	symtab_free(&f->syms);
	free(f);
}

/* The symbols of the file of module 'mod' of the current process: kept, else read. */
static struct file_syms *file_syms_get(struct tpgen_syms *s, Dwfl_Module *mod)
{
	Dwarf_Addr low, high;
	struct mod_info *mi;
	struct file_syms *f;
	const char *name;
	void **ud;
	unsigned int b;

	name = dwfl_module_info(mod, &ud, &low, &high, NULL, NULL, NULL, NULL);
	mi = *ud;
	if (!mi)
		return NULL;
	b = file_bucket(&mi->st);
	for (f = s->files[b]; f; f = f->next)
		if (file_is(f, &mi->st))
			break;
	if (!f) {
		f = calloc(1, sizeof(*f));
		if (!f)
			return NULL;
		f->dev = mi->st.st_dev;
		f->ino = mi->st.st_ino;
		f->size = (long long)mi->st.st_size;
		f->mtime_sec = (long long)mi->st.st_mtim.tv_sec;
		f->mtime_nsec = (long long)mi->st.st_mtim.tv_nsec;
		f->err = file_syms_build(f, name, low, high, mi);
		if (f->err) {
			symtab_free(&f->syms);
			f->bytes = sizeof(*f);
		}
		s->bytes += f->bytes;
		f->next = s->files[b];
		s->files[b] = f;
	}
	f->lru = ++s->tick;
	return f->err ? NULL : f;
}

static int free_mod_info(Dwfl_Module *mod UNUSED, void **ud, const char *name UNUSED, Dwarf_Addr start UNUSED,
			 void *arg UNUSED)
{
	free(*ud);
	*ud = NULL;
	return DWARF_CB_OK;
}

static void proc_drop(struct proc *p)
{
	if (p->dwfl) {
		dwfl_getmodules(p->dwfl, free_mod_info, NULL, 0);
		dwfl_end(p->dwfl);
		p->dwfl = NULL;
	}
	free(p->vmas);
	p->vmas = NULL;
	p->nr_vmas = 0;
	p->vmas_read = false;
}

/*
 * What tells one image of a process from another: its start time (a
 * reused pid), its exe, and where the kernel put its code, stack and
 * arguments (an exec). "" when it is gone.
 */
static int proc_identity(int pid, char *id, size_t size)
{
	unsigned long long f[52] = {};
	char path[64], buf[2048], *p, *tok, *save;
	struct stat st;
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -ESRCH;
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* the comm may hold spaces and parentheses */
	if (!p)
		return -ESRCH;
	/* fields from 3 (the state, a letter: 0) on */
	for (i = 3, tok = strtok_r(p + 1, " \n", &save); tok && i < 52; tok = strtok_r(NULL, " \n", &save), i++)
		f[i] = strtoull(tok, NULL, 10);
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	if (stat(path, &st))
		memset(&st, 0, sizeof(st));
	/* 22 start time, 26-28 start and end of code, stack; 48-51 arguments and environment */
	snprintf(id, size, "%llu %llx %llx %llx %llx %llx %llx %llx %llx %llx %lld.%ld", f[22], f[26], f[27], f[28],
		 f[48], f[49], f[50], f[51], (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
		 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	return 0;
}

/* (Re)read the process's mappings into a new Dwfl. */
static int proc_report(struct proc *p)
{
	int err;

	proc_drop(p);
	p->bytes = sizeof(*p);
	p->reported_ns = now_ns();
	p->dwfl = dwfl_begin(&proc_callbacks);
	if (!p->dwfl)
		return -ENOMEM;
	dwfl_report_begin(p->dwfl);
	err = dwfl_linux_proc_report(p->dwfl, p->pid);
	if (dwfl_report_end(p->dwfl, NULL, NULL) && !err)
		err = ENOMEM;
	if (err) {
		proc_drop(p);
		return err == ENOENT ? -ESRCH : err > 0 ? -err : -ENOENT;
	}
	return 0;
}

static void proc_unlink(struct tpgen_syms *s, struct proc *p)
{
	struct proc **pp = &s->procs[(unsigned int)p->pid % NR_BUCKETS];

	for (; *pp; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	}
	s->nr_procs--;
	proc_drop(p);
	free(p);
}

/* Drop what was used longest ago until the budget holds; never 'keep' nor what it uses now ('since'). */
static void evict(struct tpgen_syms *s, struct proc *keep, unsigned long long since)
{
	for (;;) {
		struct file_syms *f, *fmin = NULL, **pp;
		struct proc *p, *pmin = NULL;
		unsigned long long total = s->bytes;
		int i;

		for (i = 0; i < NR_BUCKETS; i++)
			for (p = s->procs[i]; p; p = p->next)
				total += p->bytes;
		if (total <= TPGEN_SYMS_MAX_BYTES && s->nr_procs <= TPGEN_SYMS_MAX_PROCS)
			return;
		for (i = 0; i < NR_BUCKETS; i++) {
			for (p = s->procs[i]; p; p = p->next)
				if (p != keep && (!pmin || p->lru < pmin->lru))
					pmin = p;
			for (f = s->files[i]; f; f = f->next)
				if (f->lru < since && (!fmin || f->lru < fmin->lru))
					fmin = f;
		}
		if (pmin && (s->nr_procs > TPGEN_SYMS_MAX_PROCS || !fmin || pmin->lru < fmin->lru)) {
			proc_unlink(s, pmin);
		} else if (fmin) {
			for (pp = &s->files[file_bucket(&(struct stat){ .st_dev = fmin->dev, .st_ino = fmin->ino })];
			     *pp != fmin; pp = &(*pp)->next)
				;
			*pp = fmin->next;
			s->bytes -= fmin->bytes;
			file_syms_free(fmin);
		} else {
			return;
		}
	}
}

/* The process 'pid' as it is now: kept when it is the same image, else read again. */
static struct proc *proc_get(struct tpgen_syms *s, int pid, int *err)
{
	unsigned int b = (unsigned int)pid % NR_BUCKETS;
	char id[sizeof(((struct proc *)0)->id)];
	unsigned long long now = now_ns();
	struct proc *p;

	for (p = s->procs[b]; p; p = p->next)
		if (p->pid == pid)
			break;
	/* one check serves the frames of a stack, however they are asked for */
	if (p && now - p->checked_ns < RECHECK_NS) {
		p->lru = ++s->tick;
		*err = p->err;
		return p;
	}
	*err = proc_identity(pid, id, sizeof(id));
	if (*err) {
		if (p)
			proc_unlink(s, p);
		return NULL;
	}
	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p) {
			*err = -ENOMEM;
			return NULL;
		}
		p->pid = pid;
		p->next = s->procs[b];
		s->procs[b] = p;
		s->nr_procs++;
		p->bytes = sizeof(*p);
		p->err = -EAGAIN;
	}
	p->lru = ++s->tick;
	p->checked_ns = now;
	if (p->err == -EAGAIN || strcmp(p->id, id)) {
		/* new, exec'd, or a new process with the pid */
		snprintf(p->id, sizeof(p->id), "%s", id);
		p->err = proc_report(p);
	}
	*err = p->err;
	return p;
}

struct tpgen_syms *tpgen_syms_new(void)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		errno = EINVAL;
		return NULL;
	}
	return calloc(1, sizeof(struct tpgen_syms));
}

void tpgen_syms_free(struct tpgen_syms *s)
{
	int i;

	if (!s)
		return;
	symtab_free(&s->ksyms);
	for (i = 0; i < NR_BUCKETS; i++) {
		while (s->files[i]) {
			struct file_syms *f = s->files[i];

			s->files[i] = f->next;
			file_syms_free(f);
		}
		while (s->procs[i]) {
			struct proc *p = s->procs[i];

			s->procs[i] = p->next;
			proc_drop(p);
			free(p);
		}
	}
	free(s);
}

void tpgen_syms_forget(struct tpgen_syms *s, int pid)
{
	struct proc *p;

	for (p = s->procs[(unsigned int)pid % NR_BUCKETS]; p; p = p->next) {
		if (p->pid == pid) {
			proc_unlink(s, p);
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

/*
 * The frames the tracing itself adds on top of a kernel stack: the BPF
 * program, and what runs it from the tracepoint (bpf_trace_run4() and
 * __traceiter_sched_switch() under raw_tp and tp_btf, perf_trace_*() and
 * trace_call_bpf() under a perf tracepoint, __bpf_trace_*() on older kernels).
 */
static const char *const tracing_frames[] = {
	"bpf_prog_", "bpf_trace_run", "__bpf_trace_", "__traceiter_", "perf_trace_", "trace_call_bpf",
	"bpf_trampoline_", "__bpf_prog_enter", "__bpf_prog_exit",
};

int tpgen_stack_tracing_frames(struct tpgen_syms *s, const unsigned long long *ips, int len)
{
	struct tpgen_sym_info info;
	int n;

	for (n = 0; n < len; n++) {
		size_t i;

		if (tpgen_syms_kernel(s, ips[n], &info))
			break;
		for (i = 0; i < sizeof(tracing_frames) / sizeof(tracing_frames[0]); i++)
			if (!strncmp(info.name, tracing_frames[i], strlen(tracing_frames[i])))
				break;
		if (i == sizeof(tracing_frames) / sizeof(tracing_frames[0]))
			break;
	}
	return n;
}

/* An address of 'p', a process as proc_get() returned it. */
static int user_lookup(struct tpgen_syms *s, struct proc *p, unsigned long long addr, struct tpgen_sym_info *info)
{
	unsigned long long since = s->tick;
	const struct file_syms *f;
	const struct sym *sym;
	Dwfl_Module *mod;
	const char *name;
	GElf_Addr bias;
	Elf *e;

	memset(info, 0, sizeof(*info));
	if (p->err)
		return p->err;
	mod = dwfl_addrmodule(p->dwfl, addr);
	if (!mod && now_ns() - p->reported_ns > REREPORT_NS) {
		/* mapped since (dlopen()): the maps again, once a second at most */
		p->err = proc_report(p);
		if (p->err)
			return p->err;
		mod = dwfl_addrmodule(p->dwfl, addr);
	}
	if (!mod)
		return -ENOENT;
	name = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	if (name) {
		snprintf(s->module, sizeof(s->module), "%s", name);
		info->module = s->module;
	}
	cur_proc = p;
	e = dwfl_module_getelf(mod, &bias);
	f = e ? file_syms_get(s, mod) : NULL;
	cur_proc = NULL;
	sym = f ? symtab_find(&f->syms, addr - bias) : NULL;
	if (sym) {
		snprintf(s->name, sizeof(s->name), "%s", f->syms.str.buf + sym->name);
		info->name = s->name;
		info->offset = addr - bias - sym->start;
	}
	evict(s, p, since + 1);
	return sym ? 0 : -ENOENT;
}

int tpgen_syms_user(struct tpgen_syms *s, int pid, unsigned long long addr, struct tpgen_sym_info *info)
{
	struct proc *p;
	int err;

	memset(info, 0, sizeof(*info));
	p = proc_get(s, pid, &err);
	if (!p)
		return err;
	return user_lookup(s, p, addr, info);
}

/* The length of the UTF-8 sequence at s (n bytes at most) of a character a terminal shows, or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned int cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	cp = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp < 0xa0)
		return 0;	/* overlong, out of range, a surrogate, a C1 control */
	return len;
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

/*
 * A name the files of a process chose, safe for a terminal as strace and
 * 'ls -b' show it: valid UTF-8 as it is; \\, \t, \n, \r; \xNN for other
 * control bytes, bytes of no UTF-8 character and the bytes of 'also'.
 */
static void out_text(struct out *o, const char *s, const char *also)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
	char esc[5];
	size_t u;

	for (; p < end; p++) {
		if (*p == '\\' || *p == '\t' || *p == '\n' || *p == '\r') {
			esc[0] = '\\';
			esc[1] = *p == '\t' ? 't' : *p == '\n' ? 'n' : *p == '\r' ? 'r' : '\\';
			out_str(o, esc, 2);
		} else if (*p >= 0x20 && *p < 0x7f && !strchr(also, *p)) {
			out_str(o, (const char *)p, 1);
		} else if (*p >= 0x80 && (u = utf8_len(p, end - p))) {
			out_str(o, (const char *)p, u);
			p += u - 1;
		} else {
			snprintf(esc, sizeof(esc), "\\x%02x", *p);
			out_str(o, esc, 4);
		}
	}
}

static int sym_str(struct out *o, const struct tpgen_sym_info *info, bool offset, const char *also)
{
	char off[32];

	if (!info->name) {
		out_str(o, "[unknown]", 9);
		return (int)o->len;
	}
	out_text(o, info->name, also);
	if (offset && info->offset)
		out_str(o, off, snprintf(off, sizeof(off), "+0x%llx", info->offset));
	return (int)o->len;
}

int tpgen_sym_str(char *buf, size_t size, const struct tpgen_sym_info *info, bool offset)
{
	struct out o = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	return sym_str(&o, info, offset, "");
}

/* a frame of a folded line: a ';' in a name would split it */
static void out_frame(struct out *o, const struct tpgen_sym_info *info, bool first)
{
	if (!first)
		out_str(o, ";", 1);
	sym_str(o, info, false, ";");
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
	struct tpgen_sym_info info = {};
	bool first = true;
	struct proc *p;
	int i, err;

	if (size)
		buf[0] = '\0';
	ulen = stack_len(ustack, ulen);
	klen = stack_len(kstack, klen);
	if (comm) {
		/* a ';' would split the frame: the comm is one */
		out_text(&o, comm, ";");
		first = false;
	}
	p = ulen ? proc_get(s, pid, &err) : NULL;
	for (i = ulen - 1; i >= 0; i--) {
		if (!p || user_lookup(s, p, ustack[i], &info))
			info.name = NULL;
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
	struct proc *p = NULL;
	char name[256];
	int i, err;

	len = stack_len(ips, len);
	if (pid >= 0 && len)
		p = proc_get(s, pid, &err);
	for (i = 0; i < len; i++) {
		if (pid < 0)
			tpgen_syms_kernel(s, ips[i], &info);
		else if (!p || user_lookup(s, p, ips[i], &info))
			info.name = NULL;
		tpgen_sym_str(name, sizeof(name), &info, true);
		fprintf(f, "%s%#llx %s\n", indent, ips[i], name);
	}
}
