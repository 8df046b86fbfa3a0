// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tpgen_names: names for numbers in a loader. See tpgen_names.h.
 *
 * errno and signal numbers differ between architectures (EDEADLOCK,
 * SIGUSR1, SIGBUS); they are ABI, fixed per architecture, and the headers
 * of the compiler building this file are the target's. So the tables hold
 * names, the preprocessor supplies the numbers, and a name the target does
 * not have is left out by its #ifdef. Aliases (EWOULDBLOCK) come after the
 * name the kernel uses.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "tpgen_names.h"

/* an output buffer that counts what did not fit */
struct out {
	char *buf;
	size_t size;
	size_t len;
};

static void out_add(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out_add(struct out *o, const char *fmt, ...)
{
	va_list ap;
	size_t room = o->len < o->size ? o->size - o->len : 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += n;
}

static int out_done(const struct out *o)
{
	return (int)o->len;
}

static struct out out_init(char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
	return (struct out){ buf, size, 0 };
}

const char *tpgen_symbolic_name(const struct tpgen_sym *syms, size_t nr, unsigned long long value)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (syms[i].value == value)
			return syms[i].name;
	return NULL;
}

int tpgen_print_symbolic(char *buf, size_t size, const struct tpgen_sym *syms, size_t nr,
			 unsigned long long value)
{
	const char *name = tpgen_symbolic_name(syms, nr, value);

	return name ? snprintf(buf, size, "%s", name) : snprintf(buf, size, "0x%llx", value);
}

int tpgen_print_flags(char *buf, size_t size, const struct tpgen_sym *syms, size_t nr,
		      const char *sep, unsigned long long value)
{
	struct out o = out_init(buf, size);
	bool first = true;
	size_t i;

	for (i = 0; i < nr && value; i++) {
		unsigned long long mask = syms[i].value;

		if (!mask || (value & mask) != mask)
			continue;
		out_add(&o, "%s%s", first ? "" : sep, syms[i].name);
		first = false;
		value &= ~mask;
	}
	if (value)
		out_add(&o, "%s0x%llx", first ? "" : sep, value);
	return out_done(&o);
}

const char *tpgen_syscall_name(const struct tpgen_syscall *tab, size_t n, long nr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tab[mid].nr == nr)
			return tab[mid].name;
		if (tab[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int tpgen_syscall_nr(const struct tpgen_syscall *tab, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(tab[i].name, name))
			return tab[i].nr;
	return -1;
}

#define N(x) { x, #x }

static const struct { int nr; const char *name; } errnos[] = {
	N(EPERM), N(ENOENT), N(ESRCH), N(EINTR), N(EIO), N(ENXIO), N(E2BIG), N(ENOEXEC),
	N(EBADF), N(ECHILD), N(EAGAIN), N(ENOMEM), N(EACCES), N(EFAULT),
#ifdef ENOTBLK
	N(ENOTBLK),
#endif
	N(EBUSY), N(EEXIST), N(EXDEV), N(ENODEV), N(ENOTDIR), N(EISDIR), N(EINVAL), N(ENFILE),
	N(EMFILE), N(ENOTTY), N(ETXTBSY), N(EFBIG), N(ENOSPC), N(ESPIPE), N(EROFS), N(EMLINK),
	N(EPIPE), N(EDOM), N(ERANGE), N(EDEADLK), N(ENAMETOOLONG), N(ENOLCK), N(ENOSYS),
	N(ENOTEMPTY), N(ELOOP), N(ENOMSG), N(EIDRM),
#ifdef ECHRNG
	N(ECHRNG), N(EL2NSYNC), N(EL3HLT), N(EL3RST), N(ELNRNG), N(EUNATCH), N(ENOCSI),
	N(EL2HLT), N(EBADE), N(EBADR), N(EXFULL), N(ENOANO), N(EBADRQC), N(EBADSLT),
#endif
#ifdef EBFONT
	N(EBFONT),
#endif
	N(ENOSTR), N(ENODATA), N(ETIME), N(ENOSR),
#ifdef ENONET
	N(ENONET), N(ENOPKG),
#endif
	N(EREMOTE), N(ENOLINK),
#ifdef EADV
	N(EADV), N(ESRMNT), N(ECOMM),
#endif
	N(EPROTO), N(EMULTIHOP),
#ifdef EDOTDOT
	N(EDOTDOT),
#endif
	N(EBADMSG), N(EOVERFLOW),
#ifdef ENOTUNIQ
	N(ENOTUNIQ), N(EBADFD), N(EREMCHG), N(ELIBACC), N(ELIBBAD), N(ELIBSCN), N(ELIBMAX),
	N(ELIBEXEC),
#endif
	N(EILSEQ),
#ifdef ERESTART
	N(ERESTART),
#endif
#ifdef ESTRPIPE
	N(ESTRPIPE),
#endif
	N(EUSERS), N(ENOTSOCK), N(EDESTADDRREQ), N(EMSGSIZE), N(EPROTOTYPE), N(ENOPROTOOPT),
	N(EPROTONOSUPPORT), N(ESOCKTNOSUPPORT), N(EOPNOTSUPP), N(EPFNOSUPPORT), N(EAFNOSUPPORT),
	N(EADDRINUSE), N(EADDRNOTAVAIL), N(ENETDOWN), N(ENETUNREACH), N(ENETRESET),
	N(ECONNABORTED), N(ECONNRESET), N(ENOBUFS), N(EISCONN), N(ENOTCONN), N(ESHUTDOWN),
	N(ETOOMANYREFS), N(ETIMEDOUT), N(ECONNREFUSED), N(EHOSTDOWN), N(EHOSTUNREACH),
	N(EALREADY), N(EINPROGRESS), N(ESTALE),
#ifdef EUCLEAN
	N(EUCLEAN), N(ENOTNAM), N(ENAVAIL), N(EISNAM), N(EREMOTEIO),
#endif
	N(EDQUOT),
#ifdef ENOMEDIUM
	N(ENOMEDIUM), N(EMEDIUMTYPE),
#endif
	N(ECANCELED),
#ifdef ENOKEY
	N(ENOKEY), N(EKEYEXPIRED), N(EKEYREVOKED), N(EKEYREJECTED),
#endif
	N(EOWNERDEAD), N(ENOTRECOVERABLE),
#ifdef ERFKILL
	N(ERFKILL),
#endif
#ifdef EHWPOISON
	N(EHWPOISON),
#endif
#ifdef EDEADLOCK
	N(EDEADLOCK),		/* EDEADLK on most architectures, its own number on some */
#endif
	N(EWOULDBLOCK),
#ifdef ENOTSUP
	N(ENOTSUP),
#endif
	/* the kernel's own (include/linux/errno.h), the same on every architecture */
	{ 512, "ERESTARTSYS" }, { 513, "ERESTARTNOINTR" }, { 514, "ERESTARTNOHAND" },
	{ 515, "ENOIOCTLCMD" }, { 516, "ERESTART_RESTARTBLOCK" }, { 517, "EPROBE_DEFER" },
	{ 518, "EOPENSTALE" }, { 519, "ENOPARAM" }, { 521, "EBADHANDLE" }, { 522, "ENOTSYNC" },
	{ 523, "EBADCOOKIE" }, { 524, "ENOTSUPP" }, { 525, "ETOOSMALL" }, { 526, "ESERVERFAULT" },
	{ 527, "EBADTYPE" }, { 528, "EJUKEBOX" }, { 529, "EIOCBQUEUED" },
	{ 530, "ERECALLCONFLICT" }, { 531, "ENOGRACE" },
};

static const struct { int nr; const char *name; } signals[] = {
	N(SIGHUP), N(SIGINT), N(SIGQUIT), N(SIGILL), N(SIGTRAP), N(SIGABRT), N(SIGBUS), N(SIGFPE),
	N(SIGKILL), N(SIGUSR1), N(SIGSEGV), N(SIGUSR2), N(SIGPIPE), N(SIGALRM), N(SIGTERM),
#ifdef SIGSTKFLT
	N(SIGSTKFLT),
#endif
	N(SIGCHLD), N(SIGCONT), N(SIGSTOP), N(SIGTSTP), N(SIGTTIN), N(SIGTTOU), N(SIGURG),
	N(SIGXCPU), N(SIGXFSZ), N(SIGVTALRM), N(SIGPROF), N(SIGWINCH), N(SIGIO),
#ifdef SIGPWR
	N(SIGPWR),
#endif
	N(SIGSYS),
#ifdef SIGEMT
	N(SIGEMT),
#endif
#ifdef SIGLOST
	N(SIGLOST),
#endif
	N(SIGIOT), N(SIGPOLL),
};

/* the address families of <sys/socket.h>, the kernel's (include/linux/socket.h) */
static const struct { int nr; const char *name; } families[] = {
	N(AF_UNSPEC), N(AF_UNIX), N(AF_INET), N(AF_AX25), N(AF_IPX), N(AF_APPLETALK),
	N(AF_NETROM), N(AF_BRIDGE), N(AF_ATMPVC), N(AF_X25), N(AF_INET6), N(AF_ROSE),
	N(AF_DECnet), N(AF_NETBEUI), N(AF_SECURITY), N(AF_KEY), N(AF_NETLINK), N(AF_PACKET),
	N(AF_ASH), N(AF_ECONET), N(AF_ATMSVC), N(AF_RDS), N(AF_SNA), N(AF_IRDA), N(AF_PPPOX),
	N(AF_WANPIPE), N(AF_LLC),
#ifdef AF_IB
	N(AF_IB),
#endif
#ifdef AF_MPLS
	N(AF_MPLS),
#endif
	N(AF_CAN), N(AF_TIPC), N(AF_BLUETOOTH), N(AF_IUCV), N(AF_RXRPC), N(AF_ISDN),
	N(AF_PHONET), N(AF_IEEE802154), N(AF_CAIF), N(AF_ALG), N(AF_NFC), N(AF_VSOCK),
#ifdef AF_KCM
	N(AF_KCM),
#endif
#ifdef AF_QIPCRTR
	N(AF_QIPCRTR),
#endif
#ifdef AF_SMC
	N(AF_SMC),
#endif
#ifdef AF_XDP
	N(AF_XDP),
#endif
#ifdef AF_MCTP
	N(AF_MCTP),
#endif
};

#undef N

/* The kernel's real-time range; glibc's SIGRTMIN is larger (it keeps two for itself). */
#ifdef __SIGRTMIN
#define KERNEL_SIGRTMIN __SIGRTMIN
#else
#define KERNEL_SIGRTMIN 32
#endif
#ifdef __SIGRTMAX
#define KERNEL_SIGRTMAX __SIGRTMAX
#else
#define KERNEL_SIGRTMAX 64
#endif

const char *tpgen_errno_name(long err)
{
	size_t i;

	if (err < 0)
		err = -err;
	for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (errnos[i].nr == err)
			return errnos[i].name;
	return NULL;
}

const char *tpgen_signal_name(int sig)
{
	size_t i;

	for (i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		if (signals[i].nr == sig)
			return signals[i].name;
	return NULL;
}

const char *tpgen_af_name(int family)
{
	size_t i;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (families[i].nr == family)
			return families[i].name;
	return NULL;
}

int tpgen_print_signal(char *buf, size_t size, int sig)
{
	const char *name = tpgen_signal_name(sig);

	if (name)
		return snprintf(buf, size, "%s", name);
	if (sig >= KERNEL_SIGRTMIN && sig <= KERNEL_SIGRTMAX)
		return snprintf(buf, size, "SIGRT_%d", sig - KERNEL_SIGRTMIN);
	return snprintf(buf, size, "%d", sig);
}

int tpgen_print_ipv4(char *buf, size_t size, const void *addr)
{
	const unsigned char *b = addr;

	return snprintf(buf, size, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
}

/*
 * As the kernel's %pI6c: the longest run of two or more zero groups (the
 * first of equal runs) becomes "::", groups lose leading zeros, and a
 * v4-mapped or ISATAP address ends in dotted quad.
 */
static void print_ipv6c(struct out *o, const unsigned char *a)
{
	bool mapped = !memcmp(a, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12);
	bool isatap = (a[8] | 0x02) == 0x02 && a[9] == 0 && a[10] == 0x5e && a[11] == 0xfe;
	int range = mapped || isatap ? 6 : 8, longest = 1, colonpos = -1, i, j;
	bool needcolon = false;

	for (i = 0; i < range; i++) {
		for (j = i; j < range && !a[2 * j] && !a[2 * j + 1]; j++)
			;
		if (j - i > longest) {
			longest = j - i;
			colonpos = i;
		}
	}
	for (i = 0; i < range; i++) {
		if (i == colonpos) {
			out_add(o, "%s:", needcolon || i == 0 ? ":" : "");
			needcolon = false;
			i += longest - 1;
			continue;
		}
		out_add(o, "%s%x", needcolon ? ":" : "", a[2 * i] << 8 | a[2 * i + 1]);
		needcolon = true;
	}
	if (range == 6)
		out_add(o, "%s%u.%u.%u.%u", needcolon ? ":" : "", a[12], a[13], a[14], a[15]);
}

static void print_ipv6(struct out *o, const unsigned char *a, bool compressed)
{
	int i;

	if (compressed) {
		print_ipv6c(o, a);
		return;
	}
	for (i = 0; i < 16; i += 2)
		out_add(o, "%s%02x%02x", i ? ":" : "", a[i], a[i + 1]);
}

int tpgen_print_ipv6(char *buf, size_t size, const void *addr, bool compressed)
{
	struct out o = out_init(buf, size);

	print_ipv6(&o, addr, compressed);
	return out_done(&o);
}

int tpgen_print_sockaddr(char *buf, size_t size, const void *sa, size_t len, const char *flags)
{
	struct out o = out_init(buf, size);
	bool port = strchr(flags, 'p'), compressed = strchr(flags, 'c');
	sa_family_t family;

	if (len < sizeof(family))
		return out_done(&o);
	memcpy(&family, sa, sizeof(family));
	if (family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		struct sockaddr_in in;

		memcpy(&in, sa, sizeof(in));
		out_add(&o, "%u.%u.%u.%u", ((unsigned char *)&in.sin_addr)[0],
			((unsigned char *)&in.sin_addr)[1], ((unsigned char *)&in.sin_addr)[2],
			((unsigned char *)&in.sin_addr)[3]);
		if (port)
			out_add(&o, ":%u", ntohs(in.sin_port));
	} else if (family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
		struct sockaddr_in6 in6;

		memcpy(&in6, sa, sizeof(in6));
		if (port)
			out_add(&o, "[");
		print_ipv6(&o, in6.sin6_addr.s6_addr, compressed);
		if (port)
			out_add(&o, "]:%u", ntohs(in6.sin6_port));
	}
	return out_done(&o);
}

int tpgen_print_mac(char *buf, size_t size, const void *addr)
{
	const unsigned char *m = addr;

	return snprintf(buf, size, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

int tpgen_print_hex(char *buf, size_t size, const void *data, size_t len, bool concat)
{
	struct out o = out_init(buf, size);
	const unsigned char *b = data;
	size_t i;

	for (i = 0; i < len; i++)
		out_add(&o, "%s%02x", i && !concat ? " " : "", b[i]);
	return out_done(&o);
}

unsigned short tpgen_be16(unsigned short be)
{
	return ntohs(be);
}
