// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer harness: an ELF file a process maps, as bpf/tpgen_syms.c reads
 * it for a loader (root): the checks (elf_check()), then its symbols read
 * by libdwfl (file_syms_build()) and looked up. Any input is refused or
 * gives a sorted table whose lookups stay inside it; nothing crashes, leaks
 * or reads out of bounds, and what is read stays within the limits.
 */
#include <stdint.h>
#include <sys/mman.h>

#include "../../bpf/tpgen_syms.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct file_syms f = {};
	struct mod_info mi = {};
	unsigned long long w, h, a;
	const struct sym *sym;
	int fd;

	elf_version(EV_CURRENT);
	fd = memfd_create("fuzz.so", MFD_CLOEXEC);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size || fstat(fd, &mi.st) ||
	    elf_check(fd, &mi.st, false, &w, &h)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	if (w > MAX_FILE_BYTES)
		__builtin_trap();
	mi.fd = fd;
	if (!file_syms_build(&f, "/fuzz.so", 0x10000, 0x10000 + size, &mi)) {
		for (size_t i = 1; i < f.syms.nr; i++)
			if (f.syms.syms[i - 1].start > f.syms.syms[i].start)
				__builtin_trap();
		for (a = 0; a < 0x4000; a += 0x10) {
			sym = symtab_find(&f.syms, a);
			if (sym && (sym < f.syms.syms || sym >= f.syms.syms + f.syms.nr ||
				    strlen(f.syms.str.buf + sym->name) > MAX_NAME))
				__builtin_trap();
		}
	}
	symtab_free(&f.syms);
	close(fd);
	return 0;
}
