
static void print_stars(unsigned long long val, unsigned long long val_max, int width)
{
	int num_stars = val_max ? (int)(val * width / val_max) : 0;
	int num_spaces = width - num_stars;
	int i;

	for (i = 0; i < num_stars; i++)
		putchar('*');
	for (i = 0; i < num_spaces; i++)
		putchar(' ');
	if (val > val_max)
		putchar('+');
}
{{#if HIST}}

/* slot i holds [2^i, 2^(i+1)), slot 0 also 0 */
static unsigned long long slot_high(int i)
{
	return i >= 63 ? ~0ULL : (1ULL << (i + 1)) - 1;
}

/*
 * libbpf-tools' print_log2_hist(): silent when empty, up to the last non-zero
 * slot. A signed value's negatives are all in the last slot (as a __u64 they
 * are 2^63 and more, which no positive reaches): a row '< 0' first, as
 * bpftrace's '(..., 0)'; in JSON the bucket {"low":null,"high":-1}.
 */
static void print_log2_hist(const __u64 *vals, int vals_size, const char *val_type, bool is_signed)
{
	int stars_max = 40, idx_max = -1;
	unsigned long long val_max = 0, neg = 0;
	int i, width;

	if (is_signed)
		neg = vals[--vals_size];
	for (i = 0; i < vals_size; i++) {
		if (vals[i] > 0)
			idx_max = i;
		if (vals[i] > val_max)
			val_max = vals[i];
	}
	if (neg > val_max)
		val_max = neg;
	if (idx_max < 0 && !neg)
		return;
	if (env.json) {
		printf(",\"unit\":");
		print_json_str(val_type);
		printf(",\"buckets\":[");
		if (neg)
			printf("{\"low\":null,\"high\":-1,\"count\":%llu}", neg);
		for (i = 0; i <= idx_max; i++)
			printf("%s{\"low\":%llu,\"high\":%llu,\"count\":%llu}", i || neg ? "," : "",
			       i ? 1ULL << i : 0, slot_high(i), (unsigned long long)vals[i]);
		printf("]}\n");
		return;
	}
	printf("%*s%-*s : count    distribution\n", idx_max <= 32 ? 5 : 15, "",
	       idx_max <= 32 ? 19 : 29, val_type);
	if (idx_max <= 32)
		stars_max = 40;
	else
		stars_max = 20;
	width = idx_max <= 32 ? 10 : 20;
	if (neg) {
		printf("%*s    %-*s : %-8llu |", width, "< 0", width, "", neg);
		print_stars(neg, val_max, stars_max);
		printf("|\n");
	}
	for (i = 0; i <= idx_max; i++) {
		unsigned long long low = i ? 1ULL << i : 0, high = slot_high(i);

		printf("%*llu -> %-*llu : %-8llu |", width, low, width, high,
		       (unsigned long long)vals[i]);
		print_stars(vals[i], val_max, stars_max);
		printf("|\n");
	}
}
{{/if}}
{{#if LHIST}}

/* a linear histogram: below min, [min + i*step, min + (i+1)*step), at or above the last */
static void print_linear_hist(const __u64 *vals, int nslots, long long min, long long step,
			      const char *val_type)
{
	unsigned long long val_max = 0;
	int i, first = -1, last = -1;

	for (i = 0; i < nslots; i++) {
		if (vals[i] && first < 0)
			first = i;
		if (vals[i])
			last = i;
		if (vals[i] > val_max)
			val_max = vals[i];
	}
	if (first < 0)
		return;
	if (env.json) {
		printf(",\"unit\":");
		print_json_str(val_type);
		printf(",\"buckets\":[");
		for (i = first; i <= last; i++)
			printf("%s{\"low\":%lld,\"high\":%lld,\"count\":%llu}", i > first ? "," : "",
			       i ? min + (i - 1) * step : LLONG_MIN,
			       i == nslots - 1 ? LLONG_MAX : min + i * step - 1, (unsigned long long)vals[i]);
		printf("]}\n");
		return;
	}
	printf("     %-21s : count    distribution\n", val_type);
	for (i = first; i <= last; i++) {
		char range[48];

		if (!i)
			snprintf(range, sizeof(range), "< %lld", min);
		else if (i == nslots - 1)
			snprintf(range, sizeof(range), ">= %lld", min + (i - 1) * step);
		else
			snprintf(range, sizeof(range), "%lld -> %lld", min + (i - 1) * step, min + i * step - 1);
		printf("%26s : %-8llu |", range, (unsigned long long)vals[i]);
		print_stars(vals[i], val_max, 40);
		printf("|\n");
	}
}
{{/if}}
