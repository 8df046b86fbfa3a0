
/* kstack and ustack: ids into the stack map, symbolized here */
static int stack_fd = -1;

/*
 * A kstack or ustack value (the id in the low 32 bits, negative: none; the
 * tgid above): its frames, a kernel stack's without the tracing's own
 * (bpf_prog_*, bpf_trace_run*, __traceiter_*, ...), at most 'max' (0: all).
 */
static int stack_read(__u64 v, bool user, int max, unsigned long long *ips, int *pid)
{
	__s32 id = (__s32)(__u32)v;
	int n, skip;

	*pid = (int)(v >> 32);
	if (id < 0 || bpf_map_lookup_elem(stack_fd, &id, ips))
		return 0;
	for (n = 0; n < TPGEN_STACK_DEPTH && ips[n]; n++)
		;
	if (!user) {
		skip = tpgen_stack_tracing_frames(syms, ips, n);
		memmove(ips, ips + skip, (n - skip) * sizeof(*ips));
		n -= skip;
	}
	return max && n > max ? max : n;
}

/* One frame per line, innermost first, "--" before it when 'sep'; whether there was one. */
static bool print_stack(__u64 v, bool user, int max, const char *indent, bool sep)
{
	unsigned long long ips[TPGEN_STACK_DEPTH];
	int pid, n = stack_read(v, user, max, ips, &pid);

	if (!n)
		return false;
	if (sep)
		printf("%s--\n", indent);
	tpgen_stack_print(syms, stdout, indent, user ? pid : -1, ips, n);
	return true;
}

/* JSON: an array of frames, innermost first */
static void print_stack_json(__u64 v, bool user, int max)
{
	unsigned long long ips[TPGEN_STACK_DEPTH];
	struct tpgen_sym_info info;
	int pid, i, n = stack_read(v, user, max, ips, &pid);
	char name[512];

	putchar('[');
	for (i = 0; i < n; i++) {
		/* the name as it is: print_json_str() escapes it */
		if (user ? tpgen_syms_user(syms, pid, ips[i], &info) : tpgen_syms_kernel(syms, ips[i], &info))
			snprintf(name, sizeof(name), "[unknown]");
		else if (info.offset)
			snprintf(name, sizeof(name), "%s+0x%llx", info.name, info.offset);
		else
			snprintf(name, sizeof(name), "%s", info.name);
		if (i)
			putchar(',');
		print_json_str(name);
	}
	putchar(']');
}
{{#if CALLER}}

/*
 * kcaller: the first frame of a kernel stack whose function matches none of
 * 'skip' (globs), as "symbol+0xoff" (an address without a symbol is never
 * skipped), "[unknown]" when every frame matches. Returns its address, 0: none.
 */
static unsigned long long stack_caller(__u64 v, const char *const *skip, char *buf, size_t size)
{
	unsigned long long ips[TPGEN_STACK_DEPTH];
	struct tpgen_sym_info info;
	int pid, n = stack_read(v, false, 0, ips, &pid);

	for (int i = 0; i < n; i++) {
		const char *const *g = skip;

		if (tpgen_syms_kernel(syms, ips[i], &info)) {
			snprintf(buf, size, "0x%llx", ips[i]);
			return ips[i];
		}
		while (*g && fnmatch(*g, info.name, 0))
			g++;
		if (!*g) {
			tpgen_sym_str(buf, size, &info, true);
			return ips[i];
		}
	}
	snprintf(buf, size, "[unknown]");
	return 0;
}
{{/if}}
