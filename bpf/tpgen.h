/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * tpgen.h: BPF-side helpers for the programs tpgen generates (usable in any
 * libbpf program). Include after vmlinux.h and <bpf/bpf_helpers.h>.
 *
 *   tpgen_task_wanted()	the loader's -p PID / -c COMM knobs
 *   tpgen_time()		the event's time, one clock read per program
 *   tpgen_ringbuf_reserve()	bpf_ringbuf_reserve() that counts what it drops
 *   tpgen_ringbuf_submit()	bpf_ringbuf_submit() that wakes the loader once per batch
 *   tpgen_count()		per-key counters in a hash map
 *   tpgen_stackid()		bpf_get_stackid() once per entry, counting the stacks the map lost
 *   tpgen_save(), tpgen_save_value(), tpgen_save_first()
 *				values kept under a key for a later event
 *   tpgen_hist_add()		log2 histograms, as libbpf-tools' bits.bpf.h
 *   tpgen_streq(), tpgen_prefix(), tpgen_glob()
 *				string tests of filters (== and ~ of tracefs);
 *				tpgen_glob() with TPGEN_GLOB defined first,
 *				tpgen_glob_tail() ("*suffix" of a long user
 *				string) with TPGEN_GLOB_TAIL too
 *   tpgen_syscall_nr(), tpgen_syscall_arg6()
 *				a syscall's number and sixth argument in its user
 *				registers (raw_tp/tp_btf on sys_enter/sys_exit)
 *   tpgen_read_argv()		execve()'s argv, from the caller's memory
 */
#ifndef __TPGEN_BPF_H
#define __TPGEN_BPF_H

#ifndef TASK_COMM_LEN
#define TASK_COMM_LEN 16
#endif

/* log2 histogram slots: enough for any __u64 */
#define TPGEN_MAX_SLOTS 64

/* Strings that filters test with '~' globs are matched in their first 127 bytes. */
#define TPGEN_GLOB_MAX 128

#ifndef __tpgen_always_inline
#define __tpgen_always_inline inline __attribute__((always_inline))
#endif

/*
 * The event's time: the clock is read by the first entry of a program that
 * needs it, and the others get the same value. An event every entry rejects
 * first (a filter, a join that finds nothing) reads no clock.
 */
static __tpgen_always_inline __u64 tpgen_time(__u64 *now)
{
	if (!*now)
		*now = bpf_ktime_get_ns();
	return *now;
}

/* an entry's stack id before its first use takes it (not an id, nor an error) */
#define TPGEN_STACK_UNTAKEN	(1LL << 32)

/*
 * The event's stack, taken by the first use in an entry (*id is
 * TPGEN_STACK_UNTAKEN before): its other uses (kstack, kstack(N), kcaller as
 * columns and keys) get the same id, as libbpf-tools take one per event. The
 * stack map keeps one stack per bucket (the hash of its frames), and without
 * BPF_F_REUSE_STACKID a different stack whose hash lands in a taken bucket
 * gets -EEXIST, as one gets -ENOMEM when no free entry is left: those are
 * counted in *lost. A stack that cannot be taken at all (-EFAULT: a kernel
 * thread's user stack) is not a loss.
 */
static __tpgen_always_inline __u32 tpgen_stackid(void *ctx, void *map, __u64 flags, __s64 *id, __u64 *lost)
{
	if (*id == TPGEN_STACK_UNTAKEN) {
		*id = bpf_get_stackid(ctx, map, flags);
		if (*id == -17 /* -EEXIST */ || *id == -12 /* -ENOMEM */)
			__sync_fetch_and_add(lost, 1);
	}
	return (__u32)*id;
}

/* Floor of log2, branch-free (libbpf-tools' log2l()); 0 for 0. */
static __tpgen_always_inline __u64 tpgen_log2_32(__u32 v)
{
	__u32 shift, r;

	r = (v > 0xFFFF) << 4; v >>= r;
	shift = (v > 0xFF) << 3; v >>= shift; r |= shift;
	shift = (v > 0xF) << 2; v >>= shift; r |= shift;
	shift = (v > 0x3) << 1; v >>= shift; r |= shift;
	r |= (v >> 1);
	return r;
}

static __tpgen_always_inline __u64 tpgen_log2(__u64 v)
{
	__u32 hi = v >> 32;

	if (hi)
		return tpgen_log2_32(hi) + 32;
	return tpgen_log2_32(v);
}

/* Add one to the slot of 'v' in a histogram of TPGEN_MAX_SLOTS counters. */
static __tpgen_always_inline void tpgen_hist_add(__u64 *hist, __u64 v)
{
	__u64 slot = tpgen_log2(v);

	if (slot >= TPGEN_MAX_SLOTS)
		slot = TPGEN_MAX_SLOTS - 1;
	__sync_fetch_and_add(&hist[slot], 1);
}

/*
 * Per-CPU scratch for what the 512-byte BPF stack has no room for: 'off'
 * bytes into slot 'slot' of the tpgen_scratch map (which a generated
 * program declares when it needs one), or NULL.
 */
#define tpgen_scratch_get(slot, off) ({						\
	const __u32 __tpgen_slot = (slot);					\
	char *__tpgen_p = bpf_map_lookup_elem(&tpgen_scratch, &__tpgen_slot);	\
	__tpgen_p ? (void *)(__tpgen_p + (off)) : (void *)0;			\
})

/* Look a key up, inserting 'init' first when missing (libbpf-tools' bpf_map_lookup_or_try_init()). */
static __tpgen_always_inline void *tpgen_lookup_or_try_init(void *map, const void *key, const void *init)
{
	void *val;
	long err;

	val = bpf_map_lookup_elem(map, key);
	if (val)
		return val;
	err = bpf_map_update_elem(map, key, init, BPF_NOEXIST);
	if (err && err != -17 /* -EEXIST: another CPU was first */)
		return 0;
	return bpf_map_lookup_elem(map, key);
}

/* Count one for 'key' in a hash map of __u64 counters. */
static __tpgen_always_inline void tpgen_count(void *map, const void *key)
{
	static const __u64 zero;
	__u64 *cnt;

	cnt = tpgen_lookup_or_try_init(map, key, &zero);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
}

/*
 * Keep values under 'key' (a 'save'): the zeroed values 'init', replacing
 * what was there, to be filled in place. NULL, and one more in *lost, when
 * the map is full.
 */
static __tpgen_always_inline void *tpgen_save(void *map, const void *key, const void *init, __u64 *lost)
{
	if (bpf_map_update_elem(map, key, init, BPF_ANY)) {
		__sync_fetch_and_add(lost, 1);
		return 0;
	}
	return bpf_map_lookup_elem(map, key);
}

/*
 * Keep the values 'val' under 'key' (a 'save' of a few numbers, built on the
 * stack): one map update. Non-zero, and one more in *lost, when the map is full.
 */
static __tpgen_always_inline int tpgen_save_value(void *map, const void *key, const void *val, __u64 *lost)
{
	if (bpf_map_update_elem(map, key, val, BPF_ANY)) {
		__sync_fetch_and_add(lost, 1);
		return -1;
	}
	return 0;
}

/*
 * Keep 'val' under 'key' only where nothing is kept yet (a 'save' with
 * if_absent, BPF_NOEXIST): the first value stays. The values kept, to be
 * filled in place; NULL where something was kept already, or when the map is
 * full (one more in *lost).
 */
static __tpgen_always_inline void *tpgen_save_first(void *map, const void *key, const void *val, __u64 *lost)
{
	long err = bpf_map_update_elem(map, key, val, BPF_NOEXIST);

	if (err) {
		if (err != -17)	/* -EEXIST: something is kept */
			__sync_fetch_and_add(lost, 1);
		return 0;
	}
	return bpf_map_lookup_elem(map, key);
}

/* Add one to the slot of 'v' in a linear histogram: below min, [min + i*step, ...), the rest. */
static __tpgen_always_inline void tpgen_lhist_add(__u64 *slots, __u32 nslots, __s64 v, __s64 min, __s64 step)
{
	__u64 slot = v < min ? 0 : (__u64)(v - min) / (__u64)step + 1;

	if (slot >= nslots)
		slot = nslots - 1;
	/* the bound must be on the register the address is made of: no copy in between */
	asm volatile("" : "+r"(slot));
	if (slot < nslots)
		__sync_fetch_and_add(&slots[slot], 1);
}

/*
 * Signed division and remainder as C has them (truncated toward zero): BPF
 * before v4 divides unsigned only, and clang before 17 refuses to. By 0, as
 * BPF's own division: the quotient is 0, the remainder the dividend.
 */
static __tpgen_always_inline __s64 tpgen_sdiv(__s64 a, __s64 b)
{
	__u64 ua = a < 0 ? -(__u64)a : (__u64)a, ub = b < 0 ? -(__u64)b : (__u64)b;
	__u64 q = ub ? ua / ub : 0;

	return (a < 0) != (b < 0) ? -(__s64)q : (__s64)q;
}

static __tpgen_always_inline __s64 tpgen_smod(__s64 a, __s64 b)
{
	__u64 ua = a < 0 ? -(__u64)a : (__u64)a, ub = b < 0 ? -(__u64)b : (__u64)b;
	__u64 r = ub ? ua % ub : ua;

	return a < 0 ? -(__s64)r : (__s64)r;
}

/* bpf_ringbuf_reserve() that adds one to *drops when the buffer is full. */
static __tpgen_always_inline void *tpgen_ringbuf_reserve(void *rb, __u64 size, __u64 *drops)
{
	void *rec = bpf_ringbuf_reserve(rb, size, 0);

	if (!rec)
		__sync_fetch_and_add(drops, 1);
	return rec;
}

/*
 * bpf_ringbuf_submit() that wakes the loader only once a batch is waiting:
 * waking it for every record costs both sides more than the record (a burst
 * of 2M records goes from ~0.7M/s to ~1.3M/s). The loader also polls every
 * POLL_TIMEOUT_MS (a constant of the loader), so a lone record waits at most
 * that long.
 */
#define TPGEN_WAKEUP_BYTES	(64 * 1024)

static __tpgen_always_inline void tpgen_ringbuf_submit(void *rec, void *rb)
{
	__u64 avail = bpf_ringbuf_query(rb, BPF_RB_AVAIL_DATA);

	bpf_ringbuf_submit(rec, avail >= TPGEN_WAKEUP_BYTES ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
}

/*
 * The loader's knobs: a thread group id (0: any) and a comm ("": any), tested
 * against the task that is current when the event fires. They are the
 * program's const volatile targ_tgid and targ_comm (.rodata), set before the
 * load, as libbpf-tools' targ_tgid: without -p and -c the verifier reads 0
 * and "" from the frozen map and drops both tests as dead code.
 */
static __tpgen_always_inline bool tpgen_task_wanted(pid_t tgid, const volatile char *comm)
{
	char cur[TASK_COMM_LEN];
	int i;

	if (tgid && (bpf_get_current_pid_tgid() >> 32) != (__u32)tgid)
		return false;
	if (!comm[0])
		return true;
	bpf_get_current_comm(cur, sizeof(cur));
#pragma unroll
	for (i = 0; i < TASK_COMM_LEN; i++) {
		if (cur[i] != comm[i])
			return false;
		if (!cur[i])
			break;
	}
	return true;
}

/*
 * String tests. 'buf' is a char array holding a NUL-terminated string, 'lit'
 * a constant string in .rodata (bpf_strncmp() wants a read-only map value).
 */
#define tpgen_streq(buf, lit)		(bpf_strncmp(buf, sizeof(buf), lit) == 0)
#define tpgen_prefix(buf, lit, n)	(bpf_strncmp(buf, n, lit) == 0)

#ifdef TPGEN_GLOB
/*
 * Glob matching as the kernel's glob_match() ('*' and '?'), one step per
 * bpf_loop() iteration. The matcher backtracks only to the last '*', so a
 * string and a pattern of at most TPGEN_GLOB_MAX bytes each need at most
 * (TPGEN_GLOB_MAX + 1)^2 steps: the loop always finishes the match.
 */
struct tpgen_glob_state {
	char s[TPGEN_GLOB_MAX];
	char p[TPGEN_GLOB_MAX];
	__u32 si, pi;
	__u32 star_si, star_pi;
	int star;
	int match;
	const char *src;	/* tpgen_glob_tail(): the string in user memory, */
	__u32 len;		/* its length, found TPGEN_GLOB_MAX - 1 bytes at a time */
};

static __noinline long tpgen_glob_step(__u32 i, void *data)
{
	struct tpgen_glob_state *g = data;
	char c = g->s[g->si & (TPGEN_GLOB_MAX - 1)];
	char d = g->p[g->pi & (TPGEN_GLOB_MAX - 1)];

	(void)i;	/* bpf_loop()'s index: the state says where we are */
	if (d == '*') {
		g->star = 1;
		g->star_pi = ++g->pi;
		g->star_si = g->si;
		return 0;
	}
	if (!c && !d) {
		g->match = 1;
		return 1;
	}
	if (c && (d == '?' || c == d)) {
		g->si++;
		g->pi++;
		return 0;
	}
	/* mismatch: let the last '*' eat one more character */
	if (!g->star || !g->s[g->star_si & (TPGEN_GLOB_MAX - 1)])
		return 1;
	g->pi = g->star_pi;
	g->si = ++g->star_si;
	return 0;
}

#define tpgen_glob(buf, lit) ({								\
	struct tpgen_glob_state __g = {};						\
											\
	bpf_probe_read_kernel(__g.s, sizeof(buf) < TPGEN_GLOB_MAX ? sizeof(buf) : TPGEN_GLOB_MAX - 1, buf); \
	bpf_probe_read_kernel(__g.p, sizeof(lit) < TPGEN_GLOB_MAX ? sizeof(lit) : TPGEN_GLOB_MAX - 1, lit); \
	bpf_loop((TPGEN_GLOB_MAX + 1) * (TPGEN_GLOB_MAX + 1), tpgen_glob_step, &__g, 0);	\
	__g.match;									\
})
#ifdef TPGEN_GLOB_TAIL
/* The length of the user string at g->src, a chunk per iteration; g->match < 0: unreadable */
static __noinline long tpgen_strlen_step(__u32 i, void *data)
{
	struct tpgen_glob_state *g = data;
	long n = bpf_probe_read_user_str(g->s, sizeof(g->s), g->src + g->len);

	(void)i;	/* bpf_loop()'s index: g->len says where we are */
	if (n <= 0) {
		g->match = -1;
		return 1;
	}
	if (n < (long)sizeof(g->s)) {
		g->len += n - 1;
		return 1;
	}
	g->len += sizeof(g->s) - 1;
	return 0;
}

/*
 * A "*suffix" glob of a user string at 'addr' that 'buf' holds cut short (its
 * last byte but the NUL is set): the string's last TPGEN_GLOB_MAX - 1 bytes
 * are read and matched, which for a pattern with one '*', its first byte,
 * and a suffix shorter than that, is the match of the whole string. A string
 * that fits is matched in 'buf'. Strings up to PATH_MAX (4096) bytes.
 */
#define tpgen_glob_tail(buf, lit, addr) ({						\
	struct tpgen_glob_state __g = { .src = (const char *)(addr) };			\
											\
	if ((buf)[sizeof(buf) - 2]) {							\
		bpf_loop(4096 / (TPGEN_GLOB_MAX - 1) + 1, tpgen_strlen_step, &__g, 0);	\
		/* shorter than a chunk (it changed): the first one holds it */	\
		if (!__g.match && __g.len >= TPGEN_GLOB_MAX - 1 &&			\
		    bpf_probe_read_user(__g.s, TPGEN_GLOB_MAX - 1,			\
					__g.src + __g.len - (TPGEN_GLOB_MAX - 1)))	\
			__g.match = -1;							\
		__g.s[TPGEN_GLOB_MAX - 1] = '\0';					\
	} else {									\
		bpf_probe_read_kernel(__g.s, sizeof(buf) < TPGEN_GLOB_MAX ? sizeof(buf) : TPGEN_GLOB_MAX - 1, buf); \
	}										\
	if (!__g.match) {								\
		bpf_probe_read_kernel(__g.p, sizeof(lit) < TPGEN_GLOB_MAX ? sizeof(lit) : TPGEN_GLOB_MAX - 1, lit); \
		bpf_loop((TPGEN_GLOB_MAX + 1) * (TPGEN_GLOB_MAX + 1), tpgen_glob_step, &__g, 0); \
	}										\
	__g.match > 0;									\
})
#endif /* TPGEN_GLOB_TAIL */
#endif /* TPGEN_GLOB */

/*
 * The syscall number as the kernel's syscall_get_nr() finds it in the user
 * registers, and the sixth argument, which libbpf 1.1's bpf_tracing.h has no
 * PT_REGS_PARM6_CORE_SYSCALL() for. CO-RE reads of a struct pt_regs *;
 * need vmlinux.h, <bpf/bpf_core_read.h> and -D__TARGET_ARCH_<arch>.
 */
#if defined(__TARGET_ARCH_x86)
#define tpgen_syscall_nr(regs)		((long)BPF_CORE_READ(regs, orig_ax))
#define tpgen_syscall_arg6(regs)	BPF_CORE_READ(regs, r9)
#elif defined(__TARGET_ARCH_arm64)
#define tpgen_syscall_nr(regs)		((long)BPF_CORE_READ(regs, syscallno))
#define tpgen_syscall_arg6(regs)	BPF_CORE_READ(regs, regs[5])
#elif defined(__TARGET_ARCH_riscv)
#define tpgen_syscall_nr(regs)		((long)BPF_CORE_READ(regs, a7))
#define tpgen_syscall_arg6(regs)	BPF_CORE_READ(regs, a5)
#elif defined(__TARGET_ARCH_s390)
#define tpgen_syscall_nr(regs)		((long)(BPF_CORE_READ(regs, int_code) & 0xffff))
#define tpgen_syscall_arg6(regs)	BPF_CORE_READ(regs, gprs[7])
#elif defined(__TARGET_ARCH_powerpc)
#define tpgen_syscall_nr(regs)		((long)BPF_CORE_READ(regs, gpr[0]))
#define tpgen_syscall_arg6(regs)	BPF_CORE_READ(regs, gpr[8])
#endif

/* argv: at most this many arguments, each read up to this many bytes (NUL included) */
#define TPGEN_ARGV_MAX	32
#define TPGEN_ARG_MAX	128

/*
 * An argv-style array of the caller's memory (execve()'s argv) into
 * buf[size]: the strings one after another, each ending in its NUL, as
 * many as fit; buf[size - 2] is the number read, buf[size - 1] is 1 when
 * something was left out (more arguments, or an argument cut at
 * TPGEN_ARG_MAX - 1 bytes). As argv[0], the buffer is a string. 'size' is
 * a constant of at least TPGEN_ARG_MAX + 2 and at most 4096.
 */
#define tpgen_read_argv(buf, uargv) tpgen_read_argv_sz(buf, sizeof(buf), uargv)

static __tpgen_always_inline void tpgen_read_argv_sz(char *buf, unsigned int size, const char *const *uargv)
{
	unsigned int off = 0, i, cut = 0;
	const char *arg;
	long n;

	for (i = 0; i < TPGEN_ARGV_MAX; i++) {
		if (bpf_probe_read_user(&arg, sizeof(arg), &uargv[i]) || !arg)
			break;
		if (off > size - 2 - TPGEN_ARG_MAX) {
			cut = 1;	/* no room for another */
			break;
		}
		n = bpf_probe_read_user_str(&buf[off], TPGEN_ARG_MAX, arg);
		if (n <= 0) {
			cut = 1;
			break;
		}
		/*
		 * 1 when the string filled its TPGEN_ARG_MAX bytes (perhaps
		 * longer), without a branch: with 'if (n == TPGEN_ARG_MAX)'
		 * the verifier follows both ways in every pass, with 'off'
		 * exact on one, and walked 235,000 instructions (1.5 s at
		 * load) where it now walks 1,300.
		 */
		cut |= n / TPGEN_ARG_MAX;
		off += n;
	}
	if (i == TPGEN_ARGV_MAX && !bpf_probe_read_user(&arg, sizeof(arg), &uargv[i]) && arg)
		cut = 1;
	if (!off)
		buf[0] = '\0';
	buf[size - 2] = i;
	buf[size - 1] = cut;
}

#endif /* __TPGEN_BPF_H */
