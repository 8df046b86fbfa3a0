
/* how a column is shown: by a name from a table, or as an address */
{{SHOW_KINDS}}

struct show {
	enum show_kind kind;
	const struct tpgen_sym *syms;		/* SHOW_SYMBOLIC, SHOW_FLAGS */
	const struct tpgen_syscall *syscalls;	/* SHOW_SYSCALL */
	size_t nr;
	const char *sep;			/* SHOW_FLAGS */
	const char *zero;			/* SHOW_FLAGS: the name of 0 ("R"), or NULL */
	unsigned long long field;		/* SHOW_FLAGS: bits of one value, named first (O_ACCMODE) */
	unsigned long long (*value)(unsigned long long v);	/* what the table decodes; NULL: v */
};

{{SHOWS}}

{{#if SHOW_VALUE}}

{{SHOW_NAMES}}

/*
 * 'v' as text into buf: its name (true), or the number (false: an errno
 * that is not negative, a value no entry names).
 */
static bool show_value(const struct show *s, unsigned long long v, bool is_signed, char *buf, size_t size)
{
	const char *name = NULL;

	if (s->value)
		v = s->value(v);
	switch (s->kind) {
	case SHOW_SYMBOLIC:
		if (tpgen_symbolic_name(s->syms, s->nr, v)) {
			tpgen_print_symbolic(buf, size, s->syms, s->nr, v);
			return true;
		}
		break;
	case SHOW_FLAGS:
		if (s->field) {
			/* O_RDONLY|O_CLOEXEC: the field's value by name (it may be 0), then the flags */
			int n = 0;

			for (size_t i = 0; i < s->nr; i++) {
				if ((s->syms[i].value & ~s->field) || s->syms[i].value != (v & s->field))
					continue;
				n = snprintf(buf, size, "%s%s", s->syms[i].name, v & ~s->field ? s->sep : "");
				v &= ~s->field;
				break;
			}
			if (!n && !v)
				snprintf(buf, size, "0");
			else if (n >= 0 && (size_t)n < size && v)
				tpgen_print_flags(buf + n, size - n, s->syms, s->nr, s->sep, v);
			return true;
		}
		if (!v && s->zero)
			name = s->zero;
		else if (v || s->nr) {
			tpgen_print_flags(buf, size, s->syms, s->nr, s->sep, v);
			return true;
		}
		break;
	case SHOW_SIGNAL:
		if (v > 0 && v < 1024) {
			tpgen_print_signal(buf, size, (int)v);
			return buf[0] == 'S';
		}
		break;
	case SHOW_SYSCALL:
		name = tpgen_syscall_name(s->syscalls, s->nr, (long)v);
		break;
	case SHOW_NTOHS:
		v = tpgen_be16((unsigned short)v);
		is_signed = false;
		break;
	case SHOW_ADDR:
		snprintf(buf, size, "0x%llx", v);
		return false;
{{#if KSYMS}}
	case SHOW_KSYM:
	case SHOW_KSYM_NAME: {
		struct tpgen_sym_info info;

		/* as %pS and %ps print it; no symbol: the address */
		if (tpgen_syms_kernel(syms, v, &info)) {
			snprintf(buf, size, "0x%llx", v);
			return false;
		}
		tpgen_sym_str(buf, size, &info, s->kind == SHOW_KSYM);
		return true;
	}
{{/if}}
	default:
		name = show_name(s->kind, v);
		break;
	}
	if (name) {
		snprintf(buf, size, "%s", name);
		return true;
	}
	snprintf(buf, size, is_signed ? "%lld" : "%llu", v);
	return false;
}
{{/if}}
{{#if USYM}}

/* usym(): an address of process 'pid', "symbol+0xoff" (its ELF symbols); no symbol: the address */
static bool usym_name(unsigned long long v, int pid, char *buf, size_t size)
{
	struct tpgen_sym_info info;

	if (tpgen_syms_user(syms, pid, v, &info) || !info.name) {
		snprintf(buf, size, "0x%llx", v);
		return false;
	}
	tpgen_sym_str(buf, size, &info, true);
	return true;
}
{{/if}}
{{#if SHOW_BYTES}}

/* bytes as an address (127.0.0.1, ::1) or in hex */
static void show_bytes(const struct show *s, const void *p, size_t len, char *buf, size_t size)
{
	if (s->kind == SHOW_IPV4 && len == 4)
		tpgen_print_ipv4(buf, size, p);
	else if (s->kind == SHOW_IPV6 && len == 16)
		tpgen_print_ipv6(buf, size, p, true);
	else
		tpgen_print_hex(buf, size, p, len, true);
}
{{/if}}
{{#if SHOW_NAME}}

/* JSON: the name beside the number, null when it has none */
static void print_json_name(const char *name, bool named)
{
	if (named)
		print_json_str(name);
	else
		printf("null");
}
{{/if}}
