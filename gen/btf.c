// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Kernel BTF: a file (raw BTF, or an ELF object with a .BTF section) or the
 * running kernel's /sys/kernel/btf/vmlinux, read with libbpf. A failure is
 * reported once, located at the file, with libbpf's own reason when it gave
 * one: "vmlinux: error: not a BTF file: failed to get EHDR from vmlinux (-EINVAL)".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "rawtp.h"
#include "util.h"

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

int kbtf_load(const char *path, struct btf **btf)
{
	const char *shown = path ? path : VMLINUX_BTF;
	libbpf_print_fn_t old;
	const char *name;
	struct btf *b;
	int err;

	*btf = NULL;
	libbpf_msg[0] = '\0';
	old = libbpf_set_print(capture_print);
	errno = 0;
	b = path ? btf__parse(path, NULL) : btf__load_vmlinux_btf();
	err = b ? 0 : (errno ? -errno : -EINVAL);
	libbpf_set_print(old);
	if (err) {
		name = errno_name(-err);
		/* libbpf's reason names the file itself; errors of open() say enough */
		if (libbpf_msg[0] && err != -ENOENT && err != -EACCES && err != -EPERM) {
			const char *m = libbpf_msg;

			if (!strncmp(m, "libbpf: ", 8))
				m += 8;
			diag_error(shown, 0, 0, "%s: %s (%s)", what(-err), m,
				   name ? name : strerror(-err));
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
	*btf = b;
	return 0;
}
