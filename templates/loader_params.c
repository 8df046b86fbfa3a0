
/* the tool's parameters (the spec's params:): their defaults, then what the command line says */
static struct params {
	{{PARAM_FIELDS}}
} params = {
	{{PARAM_DEFAULTS}}
};
{{#if PARAM_NUM}}

/* A param's digits: decimal or 0x hex after an optional '-'; false when it is no number */
static bool param_digits(const char *arg, bool *neg, __u64 *v, bool *overflow)
{
	const char *s = arg + (arg[0] == '-');
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	char *end;

	*neg = arg[0] == '-';
	s += hex ? 2 : 0;
	if (!((*s >= '0' && *s <= '9') || (hex && ((*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))))
		return false;	/* strtoull() would take spaces and a sign */
	errno = 0;
	*v = strtoull(s, &end, hex ? 16 : 10);
	*overflow = errno == ERANGE;
	return !*end;
}
{{/if}}
{{#if PARAM_U}}

/* An unsigned param from min to max; anything else is a usage error, as libbpf-tools' */
static __u64 parse_param_u(const char *arg, const char *what, __u64 min, __u64 max, struct argp_state *state)
{
	bool neg, overflow;
	__u64 v;

	if (!param_digits(arg, &neg, &v, &overflow)) {
		fprintf(stderr, "{{TOOL}}: error: %s: '%s' is not a number\n", what, arg);
		argp_usage(state);
	}
	if (overflow || (neg && v) || v < min || v > max) {
		fprintf(stderr, "{{TOOL}}: error: %s: '%s' is out of range %llu..%llu\n", what, arg,
			(unsigned long long)min, (unsigned long long)max);
		argp_usage(state);
	}
	return v;
}
{{/if}}
{{#if PARAM_S}}

/* A signed param from min to max; anything else is a usage error, as libbpf-tools' */
static __s64 parse_param_s(const char *arg, const char *what, __s64 min, __s64 max, struct argp_state *state)
{
	bool neg, overflow;
	__u64 v;

	if (!param_digits(arg, &neg, &v, &overflow)) {
		fprintf(stderr, "{{TOOL}}: error: %s: '%s' is not a number\n", what, arg);
		argp_usage(state);
	}
	if (overflow || v > (neg ? 1ULL << 63 : ~0ULL >> 1) ||
	    (neg ? (__s64)(0 - v) : (__s64)v) < min || (neg ? (__s64)(0 - v) : (__s64)v) > max) {
		fprintf(stderr, "{{TOOL}}: error: %s: '%s' is out of range %lld..%lld\n", what, arg,
			(long long)min, (long long)max);
		argp_usage(state);
	}
	return neg ? (__s64)(0 - v) : (__s64)v;
}
{{/if}}
