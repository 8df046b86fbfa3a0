
enum col_kind { COL_U, COL_S, COL_STR, COL_PTR, COL_BYTES, COL_KSTACK, COL_USTACK };

/* a member of a key: its heading, JSON name, place and kind, and how it is shown */
struct col {
	const char *name;
	const char *json;
	unsigned int off, size;
	enum col_kind kind;
{{#if NAMES}}
	const struct show *show;	/* by name or as an address; NULL: as it is */
	int width;			/* a column of names: its width, left-aligned; 0: a number's */
{{/if}}
{{#if STACKS}}
	int frames;			/* kstack(N), ustack(N): at most N frames; 0: all */
{{/if}}
{{#if CALLER}}
	const char *const *caller;	/* kcaller: the first frame outside these functions; NULL: a stack */
{{/if}}
{{#if USYM}}
	unsigned int pid_off;		/* usym(): where the key keeps the address's process */
{{/if}}
};

/* the functions of an aggregate */
{{AGG_FNS}}
{{#if COLS}}

struct agg;

enum xcol_kind { XCOL_COUNT, XCOL_SUM, XCOL_AT, XCOL_DERIVED };

/*
 * A named column: a count (of a condition), a sum, a value max_at keeps,
 * or one derived from the row; or a function's own column under a name.
 */
struct xcol {
	const char *heading;
	const char *json;
	unsigned int after;		/* AGG_*: shown after that function's column */
	unsigned int fn;		/* AGG_*: that function's own column (not shown as its own); 0: none */
	enum xcol_kind kind;
	unsigned int off;		/* its member of the value */
	bool is_signed;
{{#if DERIVED}}
	double (*derive)(const struct agg *a, const char *val);	/* XCOL_DERIVED */
	int decimals;
	bool percent;
{{/if}}
};
{{/if}}
{{#if DERIVED}}

{{AGG_DERIVE_DECLS}}
{{/if}}

/* an aggregation's map and how to print it */
struct agg {
	const char *title;
	const char *json;		/* "counts", "agg" or "hist" */
	const char *json_name;
	const char *unit;
	int fd;
{{#if GLOBAL_AGG}}
	void *mem;			/* no key: the BPF program's global, through the skeleton */
	unsigned int nrows;		/* or the rows of the key's values 0 to nrows - 1 in 'mem' (an array) */
{{/if}}
	unsigned int key_size, val_size;
	const struct col *keys;
	int nr_keys;
	unsigned int fns;		/* AGG_* */
	{{AGG_OFFSETS}}
	unsigned int is_signed;		/* the AGG_* whose value is signed */
	unsigned int nslots;
	long long lmin, lstep;
	unsigned int sort;		/* the function rows are sorted by (biggest first); 0: the key */
	int top;
{{#if COLS}}
	const struct xcol *xcols;	/* named and derived columns */
	int nr_xcols;
	unsigned int hidden;		/* AGG_*: functions shown under a name, as an xcol */
	int sort_xcol;			/* rows sorted by this xcol + 1 (biggest first); 0: by sort */
{{/if}}
{{#if RUNNING_AGG}}
	/*
	 * An entry subtracts from it (memleak's outstanding allocations):
	 * rows are a state, not what an interval added, so -i never resets
	 * them; a row back at zero is not shown.
	 */
	bool running;
{{/if}}
};

static struct agg aggs[] = {
{{AGGS}}
};

static __u64 val_u64(const char *val, unsigned int off)
{
	__u64 v;

	memcpy(&v, val + off, sizeof(v));
	return v;
}

/* a member of a row's value as a number, signed if fn's value is */
static double agg_num(const struct agg *a, const char *val, unsigned int off, unsigned int fn)
{
	__u64 v = val_u64(val, off);

	return a->is_signed & fn ? (double)(__s64)v : (double)v;
}

/* avg: sum / count */
static double agg_avg(const struct agg *a, const char *val)
{
	__u64 n = val_u64(val, a->off_count);

	return n ? agg_num(a, val, a->off_sum, AGG_SUM) / n : 0;
}

/* stddev: of the population, sqrt(count * sqsum - sum * sum) / count, in integers */
static double agg_stddev(const struct agg *a, const char *val)
{
	__u64 n = val_u64(val, a->off_count), sum = val_u64(val, a->off_sum);
	__int128 ss = a->is_signed & AGG_SUM ? (__int128)(__s64)sum : (__int128)sum;
	unsigned __int128 s = ss < 0 ? -ss : ss, sq = val_u64(val, a->off_sqsum), var, x, y;

	if (!n || n * sq < s * s)
		return 0;
	var = (n * sq - s * s) / ((unsigned __int128)n * n);
	/* Newton's method from above: the largest x with x * x <= var */
	for (x = var, y = (x + 1) / 2; y < x; y = (x + var / x) / 2)
		x = y;
	return (double)x;
}

static void print_int(const struct agg *a, const char *val, unsigned int off, unsigned int fn)
{
	__u64 v = val_u64(val, off);

	if (a->is_signed & fn)
		printf(env.json ? "%lld" : "%10lld", (long long)v);
	else
		printf(env.json ? "%llu" : "%10llu", (unsigned long long)v);
}

{{AGG_COLUMNS}}
{{#if COLS}}

/* a named column's value in a row */
static double xcol_value(const struct agg *a, const struct xcol *x, const char *val)
{
{{#if DERIVED}}
	if (x->kind == XCOL_DERIVED)
		return x->derive(a, val);
{{/if}}
	(void)a;
	return x->is_signed ? (double)(__s64)val_u64(val, x->off) : (double)val_u64(val, x->off);
}
{{/if}}
{{#if DERIVED}}

/* a derived column's division: 0 where the divisor is, as perf kmem's fragmentation */
static double derive_div(double x, double y)
{
	return y != 0 ? x / y : 0;
}

{{AGG_DERIVE}}
{{/if}}

static const struct agg *sort_agg;

static double sort_value(const char *row)
{
	const struct agg *a = sort_agg;
	const char *val = row + a->key_size;
	__u64 v = 0;
{{#if COLS}}

	if (a->sort_xcol)
		return xcol_value(a, &a->xcols[a->sort_xcol - 1], val);
{{/if}}

	if (!(a->fns & (AGG_HIST | AGG_LHIST)))
		return fn_value(a, val, a->sort);
	/* histograms: by their total */
	for (unsigned int i = 0; i < a->nslots; i++)
		v += val_u64(val, a->off_slots + i * 8);
	return v;
}

static __s64 col_value(const struct col *c, const char *key)
{
	__s64 v = 0;

	switch (c->size) {
	case 1:
		v = c->kind == COL_S ? (__s64)*(__s8 *)(key + c->off) : (__s64)*(__u8 *)(key + c->off);
		break;
	case 2: {
		__u16 x;

		memcpy(&x, key + c->off, 2);
		v = c->kind == COL_S ? (__s64)(__s16)x : (__s64)x;
		break;
	}
	case 4: {
		__u32 x;

		memcpy(&x, key + c->off, 4);
		v = c->kind == COL_S ? (__s64)(__s32)x : (__s64)x;
		break;
	}
	default:
		memcpy(&v, key + c->off, 8);
	}
	return v;
}

static int cmp_keys(const void *x, const void *y)
{
	const struct agg *a = sort_agg;

	for (int i = 0; i < a->nr_keys; i++) {
		const struct col *c = &a->keys[i];
		int r;

		if (c->kind == COL_STR) {
			r = strncmp((const char *)x + c->off, (const char *)y + c->off, c->size);
		} else if (c->kind == COL_BYTES) {
			r = memcmp((const char *)x + c->off, (const char *)y + c->off, c->size);
		} else {
			__s64 u = col_value(c, x), v = col_value(c, y);

			r = c->kind == COL_S ? (u > v) - (u < v) : ((__u64)u > (__u64)v) - ((__u64)u < (__u64)v);
		}
		if (r)
			return r;
	}
	return 0;
}

static int cmp_rows(const void *x, const void *y)
{
	double u, v;

{{#if COLS}}
	if (!sort_agg->sort && !sort_agg->sort_xcol)
		return cmp_keys(x, y);
{{/if}}
{{#if !COLS}}
	if (!sort_agg->sort)
		return cmp_keys(x, y);
{{/if}}
	u = sort_value(x);
	v = sort_value(y);
	if (u != v)
		return u < v ? 1 : -1;
	return cmp_keys(x, y);
}

static int col_width(const struct col *c)
{
	int w = c->kind == COL_STR ? 16 : c->kind == COL_PTR ? 18 : 7, n = strlen(c->name);

{{#if CALLER}}
	if (c->caller)
		w = 24;
{{/if}}
{{#if NAMES}}
	if (c->width)
		w = c->width;
{{/if}}
	return n > w ? n : w;
}

/* names and strings are left-aligned, numbers right-aligned */
static bool col_left(const struct col *c)
{
{{#if CALLER}}
	if (c->caller)
		return true;
{{/if}}
{{#if NAMES}}
	if (c->width)
		return true;
{{/if}}
	return c->kind == COL_STR;
}

static void print_col(const struct col *c, const char *key, bool last)
{
	int w = last || env.json ? 0 : col_width(c);
	__s64 v;
{{#if NAMES}}

	if (c->show) {
		char buf[256];
{{#if SHOW_NAME}}
		bool named;
{{/if}}
{{#if SHOW_BYTES}}

		/* an address: bytes, or a __be32 as it sits in memory */
		if (c->show->kind == SHOW_IPV4 || c->show->kind == SHOW_IPV6 || c->show->kind == SHOW_HEX) {
			show_bytes(c->show, key + c->off, c->size, buf, sizeof(buf));
			if (env.json)
				print_json_str(buf);
			else
				printf("%-*s", w, buf);
			return;
		}
{{/if}}
{{#if SHOW_VALUE}}

{{#if SHOW_NAME}}
{{#if USYM}}
		if (c->show->kind == SHOW_USYM)	/* the process is kept beside the address */
			named = usym_name(col_value(c, key), *(const __s32 *)(key + c->pid_off), buf, sizeof(buf));
		else
			named = show_value(c->show, col_value(c, key), c->kind == COL_S, buf, sizeof(buf));
{{/if}}
{{#if !USYM}}
		named = show_value(c->show, col_value(c, key), c->kind == COL_S, buf, sizeof(buf));
{{/if}}
{{/if}}
{{#if !SHOW_NAME}}
		show_value(c->show, col_value(c, key), c->kind == COL_S, buf, sizeof(buf));
{{/if}}
		if (!env.json)
			printf(c->show->kind == SHOW_NTOHS ? "%*s" : "%-*s", w, buf);
		else if (c->show->kind == SHOW_NTOHS)
			printf("%s", buf);
		else if (c->show->kind == SHOW_ADDR)
			print_json_str(buf);
{{#if SHOW_NAME}}
		else {
			/* the number (an address: in hex), and its name beside it */
			printf(c->show->kind == SHOW_KSYM || c->show->kind == SHOW_KSYM_NAME || c->show->kind == SHOW_USYM ?
			       "\"0x%llx\",\"%s_name\":" :
			       c->kind == COL_S ? "%lld,\"%s_name\":" : "%llu,\"%s_name\":",
			       (long long)col_value(c, key), c->json);
			print_json_name(buf, named);
		}
{{/if}}
{{/if}}
		return;
	}
{{/if}}

	if (c->kind == COL_STR) {
		char text[1024];

		if (env.json)
			print_json_str(key + c->off);
		else
			printf("%-*s", w, text_str(text, sizeof(text), key + c->off, c->size, ""));
		return;
	}
	v = col_value(c, key);
{{#if CALLER}}
	if (c->caller) {
		char buf[128];

		stack_caller(v, c->caller, buf, sizeof(buf));
		if (env.json)
			print_json_str(buf);
		else
			printf("%-*s", w, buf);
		return;
	}
{{/if}}
{{#if STACKS}}
	if (c->kind == COL_KSTACK || c->kind == COL_USTACK) {
		if (env.json)	/* text: the frames follow the row */
			print_stack_json(v, c->kind == COL_USTACK, c->frames);
		return;
	}
{{/if}}
	if (c->kind == COL_PTR)
		printf(env.json ? "\"0x%-*llx\"" : "0x%-*llx", w ? w - 2 : 0, (unsigned long long)v);
	else if (c->kind == COL_S)
		printf("%*lld", w, (long long)v);
	else
		printf("%*llu", w, (unsigned long long)v);
}

{{#if GLOBAL_AGG}}
/*
 * A value kept in the BPF program's globals (through the skeleton) into
 * 'val'; with 'reset', each __u64 taken and zeroed in one atomic exchange,
 * so that what an event adds meanwhile is in this interval or the next,
 * never lost. False: all zeros (nothing counted), no row.
 */
static bool read_value(const struct agg *a, __u64 *mem, bool reset, char *val)
{
	bool any = false;
	__u64 v;

	for (size_t i = 0; i < a->val_size / sizeof(v); i++) {
		v = reset ? __atomic_exchange_n(&mem[i], 0, __ATOMIC_RELAXED) :
			    __atomic_load_n(&mem[i], __ATOMIC_RELAXED);
		memcpy(val + i * sizeof(v), &v, sizeof(v));
		any |= v != 0;
	}
	return any;
}

/* An aggregation without a key, the BPF program's global: its one row. */
static int read_global(const struct agg *a, bool reset, char **out)
{
	char *buf = calloc(1, a->key_size + a->val_size);

	*out = NULL;
	if (!buf)
		return -ENOMEM;
	if (!read_value(a, a->mem, reset, buf + a->key_size)) {
		free(buf);
		return 0;
	}
	*out = buf;
	return 1;
}

/*
 * The rows of a key's values 0 to nrows - 1, the BPF program's global
 * array (the map has the others): appended to the n rows in *buf, each
 * with its index as the key. Returns the number of rows in *buf now.
 */
static int read_indexed(const struct agg *a, bool reset, char **buf, int *cap, int n)
{
	const struct col *k = &a->keys[0];
	size_t row = a->key_size + a->val_size;

	for (unsigned int i = 0; i < a->nrows; i++) {
		char *key;

		if (n == *cap) {
			char *nbuf = realloc(*buf, (*cap = *cap ? *cap * 2 : 256) * row);

			if (!nbuf)
				return -ENOMEM;
			*buf = nbuf;
		}
		key = *buf + n * row;
		if (!read_value(a, (__u64 *)((char *)a->mem + (size_t)i * a->val_size), reset, key + a->key_size))
			continue;
		memset(key, 0, a->key_size);
		if (k->size == 1) {
			key[k->off] = (char)i;
		} else if (k->size == 2) {
			__u16 v = i;

			memcpy(key + k->off, &v, sizeof(v));
		} else if (k->size == 4) {
			__u32 v = i;

			memcpy(key + k->off, &v, sizeof(v));
		} else {
			__u64 v = i;

			memcpy(key + k->off, &v, sizeof(v));
		}
		n++;
	}
	return n;
}

{{/if}}
{{#if STACK_MERGE}}
{{AGG_MERGE}}
{{#if COLS}}

/* named counts and sums added (a value max_at keeps stays the first row's) */
static void xcols_merge(const struct agg *a, char *dst, const char *src)
{
	for (int i = 0; i < a->nr_xcols; i++) {
		const struct xcol *x = &a->xcols[i];
		__u64 v;

		if (x->fn || (x->kind != XCOL_COUNT && x->kind != XCOL_SUM))
			continue;
		v = val_u64(dst, x->off) + val_u64(src, x->off);
		memcpy(dst + x->off, &v, 8);
	}
}
{{/if}}

/* a stack as a key shows it: its frames (at most c->frames), the tgid of a user stack */
struct shown_stack {
	__u64 v;
	unsigned long long hash;
	int n;
	unsigned long long ips[TPGEN_STACK_DEPTH];
};

/*
 * kstack(N): each stack id of column c replaced by the first one whose
 * frames show alike (the first N of the whole stacks). Returns 0 or -ENOMEM.
 */
static int shown_stacks(const struct col *c, char *buf, int n, size_t row)
{
	struct shown_stack *seen = calloc(n, sizeof(*seen)), cur;
	int nseen = 0, pid;

	if (!seen)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		char *key = buf + i * row;
		int j;

		cur.v = (__u64)col_value(c, key);
{{#if CALLER}}
		if (c->caller) {	/* the frame it shows */
			char name[128];

			cur.ips[0] = stack_caller(cur.v, c->caller, name, sizeof(name));
			cur.n = 1;
		} else
{{/if}}
		cur.n = stack_read(cur.v, c->kind == COL_USTACK, c->frames, cur.ips, &pid);
		/* FNV-1a over the frames, and the process of a user stack */
		cur.hash = 14695981039346656037ULL ^ (c->kind == COL_USTACK ? cur.v >> 32 : 0);
		for (j = 0; j < cur.n; j++)
			cur.hash = (cur.hash ^ cur.ips[j]) * 1099511628211ULL;
		for (j = 0; j < nseen; j++)
			if (seen[j].hash == cur.hash && seen[j].n == cur.n &&
			    (c->kind != COL_USTACK || seen[j].v >> 32 == cur.v >> 32) &&
			    !memcmp(seen[j].ips, cur.ips, cur.n * sizeof(cur.ips[0])))
				break;
		if (j < nseen)
			memcpy(key + c->off, &seen[j].v, sizeof(seen[j].v));
		else
			seen[nseen++] = cur;
	}
	free(seen);
	return 0;
}

/* Rows whose keys show alike (kstack(N)) made one: their values merged. Returns the rows left. */
static int merge_rows(const struct agg *a, char *buf, int n)
{
	size_t row = a->key_size + a->val_size;
	bool any = false;
	int m = 0;

	for (int k = 0; k < a->nr_keys; k++) {
{{#if CALLER}}
		if (!a->keys[k].frames && !a->keys[k].caller)
			continue;
{{/if}}
{{#if !CALLER}}
		if (!a->keys[k].frames)
			continue;
{{/if}}
		if (shown_stacks(&a->keys[k], buf, n, row))
			return n;	/* no memory: the rows of the whole stacks */
		any = true;
	}
	if (!any)
		return n;
	sort_agg = a;
	qsort(buf, n, row, cmp_keys);
	for (int i = 0; i < n; i++) {
		char *r = buf + i * row;

		if (m && !cmp_keys(buf + (m - 1) * row, r)) {
			agg_merge(a, buf + (m - 1) * row + a->key_size, r + a->key_size);
{{#if COLS}}
			xcols_merge(a, buf + (m - 1) * row + a->key_size, r + a->key_size);
{{/if}}
			continue;
		}
		if (m != i)
			memmove(buf + m * row, r, row);
		m++;
	}
	return m;
}

{{/if}}
static int metrics_delta(const struct agg *a, char *buf, int n);

/*
 * Read every row of an aggregation (key, then value), sorted; with 'reset',
 * delete them; with --metrics (whose counters never reset), keep them and
 * show what came since the last summary.
 */
static int read_rows(const struct agg *a, bool reset, char **out)
{
	size_t row = a->key_size + a->val_size;
	char *buf = NULL, *prev = NULL;
	bool delta = env.metrics;
	int n = 0, cap = 0;

	if (delta)
		reset = false;
{{#if RUNNING_AGG}}
	if (a->running)
		reset = false;
{{/if}}
{{#if GLOBAL_AGG}}
	if (a->mem && !a->nrows) {
		n = read_global(a, reset, out);
		return n > 0 && delta ? metrics_delta(a, *out, n) : n;
	}

{{/if}}
	for (;;) {
		if (n == cap) {
			char *nbuf = realloc(buf, (cap = cap ? cap * 2 : 256) * row);

			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
			if (prev)
				prev = buf + (n - 1) * row;
		}
		if (bpf_map_get_next_key(a->fd, prev, buf + n * row))
			break;
		prev = buf + n * row;
		n++;
	}
	for (int i = 0; i < n; i++) {
		char *key = buf + i * row;

		if (bpf_map_lookup_elem(a->fd, key, key + a->key_size))
			memset(key + a->key_size, 0, a->val_size);
	}
	if (reset)
		for (int i = 0; i < n; i++)
			bpf_map_delete_elem(a->fd, buf + i * row);
{{#if GLOBAL_AGG}}
	if (a->nrows)
		n = read_indexed(a, reset, &buf, &cap, n);
{{/if}}
	if (delta && n >= 0)
		n = metrics_delta(a, buf, n);
	if (n < 0) {
		free(buf);
		return n;
	}
{{#if RUNNING_AGG}}
	if (a->running) {
		/* rows all taken back: nothing outstanding under that key */
		int kept = 0;

		for (int i = 0; i < n; i++) {
			const char *val = buf + i * row + a->key_size;
			bool zero = true;

			for (unsigned int b = 0; b < a->val_size; b++)
				zero &= !val[b];
			if (!zero)
				memmove(buf + kept++ * row, buf + i * row, row);
		}
		n = kept;
	}
{{/if}}
{{#if STACK_MERGE}}
	n = merge_rows(a, buf, n);
{{/if}}
	sort_agg = a;
	qsort(buf, n, row, cmp_rows);
	*out = buf;
	return n;
}

{{#if STACKS}}

/* a key whose frames go under the row (kcaller's one frame is a column) */
static bool is_stack(const struct col *c)
{
{{#if CALLER}}
	if (c->caller)
		return false;
{{/if}}
	return c->kind == COL_KSTACK || c->kind == COL_USTACK;
}

/* The frames of a row's stacks, under it: kernel, then user ones, "--" between. */
static void print_row_stacks(const struct agg *a, const char *key)
{
	bool any = false;

	for (int k = 0; k < a->nr_keys; k++)
		if (is_stack(&a->keys[k]))
			any |= print_stack(col_value(&a->keys[k], key), a->keys[k].kind == COL_USTACK,
					   a->keys[k].frames, "        ", any);
}

/*
 * -f: one line per row, "key;...;user root;...;-;kernel root;...;leaf value",
 * the other keys first (comm), as libbpf-tools' offcputime -f and
 * flamegraph.pl read it; the value is the row's first function.
 */
static void print_folded(const struct agg *a, const char *key, const char *val)
{
	unsigned long long kips[TPGEN_STACK_DEPTH], uips[TPGEN_STACK_DEPTH];
	int k, kn = 0, un = 0, pid = -1, kpid;
	char prefix[4096] = "", line[16384];
	size_t len = 0;
	__u64 v;

	for (k = 0; k < a->nr_keys; k++) {
		const struct col *c = &a->keys[k];

		if (c->kind == COL_KSTACK && !kn && is_stack(c))	/* kcaller: a part of the prefix */
			kn = stack_read(col_value(c, key), false, c->frames, kips, &kpid);
		else if (c->kind == COL_USTACK && !un)
			un = stack_read(col_value(c, key), true, c->frames, uips, &pid);
		else if (!is_stack(c) && len + 1 < sizeof(prefix)) {
			char part[1024];
			size_t start = len;

			/* a ';' in a key would split the frame: \x3b; a space, '_' as before */
			if (c->kind == COL_STR)
				text_str(part, sizeof(part), key + c->off, c->size, ";");
{{#if CALLER}}
			else if (c->caller)
				stack_caller(col_value(c, key), c->caller, part, sizeof(part));
{{/if}}
			else if (c->kind == COL_S)
				snprintf(part, sizeof(part), "%lld", (long long)col_value(c, key));
			else
				snprintf(part, sizeof(part), "%llu", (unsigned long long)col_value(c, key));
			len += snprintf(prefix + len, sizeof(prefix) - len, "%s%s", len ? ";" : "", part);
			if (len >= sizeof(prefix))
				len = sizeof(prefix) - 1;
			for (size_t j = start; j < len; j++)
				if (prefix[j] == ' ')
					prefix[j] = '_';
		}
	}
	tpgen_stack_folded(syms, line, sizeof(line), NULL, pid, uips, un, kips, kn);
	v = a->fns & AGG_SUM && (a->sort == AGG_SUM || !(a->fns & AGG_COUNT)) ? val_u64(val, a->off_sum) :
	    val_u64(val, a->off_count);
	printf("%s%s%s %llu\n", prefix, len && *line ? ";" : "", line, (unsigned long long)v);
}
{{/if}}

/* -r: a count or a sum shown per second of the period the summary covers */
static bool per_second(unsigned int fn)
{
	return env.rate && env.period > 0 && (fn == AGG_COUNT || fn == AGG_SUM);
}

{{#if COLS}}
static bool xcol_per_second(const struct xcol *x)
{
	return env.rate && env.period > 0 && (x->kind == XCOL_COUNT || x->kind == XCOL_SUM);
}

static int xcol_width(const struct xcol *x)
{
	int n = strlen(x->heading) + (xcol_per_second(x) ? 2 : 0);

	return n > 10 ? n : 10;
}

/* the named columns shown after function 'fn': headings, or a row's values */
static void print_xcols(const struct agg *a, unsigned int fn, const char *val, const char **sep)
{
	for (int i = 0; i < a->nr_xcols; i++) {
		const struct xcol *x = &a->xcols[i];
		int w = xcol_width(x);
		double v;

		if (x->after != fn)
			continue;
		if (!val) {
			printf("%s%*s%s", *sep, xcol_per_second(x) ? w - 2 : w, x->heading,
			       xcol_per_second(x) ? "/s" : "");
			*sep = " ";
			continue;
		}
		if (env.json)
			printf(",\"%s%s\":", x->json, xcol_per_second(x) ? "_per_s" : "");
		else
			printf("%s", *sep);
		*sep = " ";
		v = xcol_value(a, x, val);
		if (env.json)
			w = 0;
		if (xcol_per_second(x))
			printf("%*.*f", w, env.json ? 2 : 1, v / env.period);
{{#if DERIVED}}
		else if (x->kind == XCOL_DERIVED && env.json)
			printf("%.*f", x->decimals, v);
		else if (x->kind == XCOL_DERIVED)
			printf("%*.*f%s", x->percent ? w - 1 : w, x->decimals, v, x->percent ? "%" : "");
{{/if}}
		else if (x->is_signed)
			printf("%*lld", w, (long long)val_u64(val, x->off));
		else
			printf("%*llu", w, (unsigned long long)val_u64(val, x->off));
	}
}

{{/if}}
/* One aggregation: a table, or a histogram per key, as libbpf-tools print them. */
static void print_agg(const struct agg *a, bool reset)
{
	size_t row = a->key_size + a->val_size;
	char *buf;
	int n, i, k;

	n = read_rows(a, reset, &buf);
	if (n <= 0)
		return;
	if (a->top && n > a->top)
		n = a->top;
{{#if STACKS}}
	for (k = 0; env.folded && !env.json && !(a->fns & (AGG_HIST | AGG_LHIST)) && k < a->nr_keys; k++) {
		if (!is_stack(&a->keys[k]))
			continue;
		for (i = 0; i < n; i++)
			print_folded(a, buf + i * row, buf + i * row + a->key_size);
		free(buf);
		return;
	}
{{/if}}
	if (!env.json && !(a->fns & (AGG_HIST | AGG_LHIST))) {
		const char *sep = "";

		printf("\n%s\n", a->title);
		for (size_t f = 0; f < sizeof(agg_cols) / sizeof(agg_cols[0]); f++) {
			char h[16];

{{#if COLS}}
			if (!(a->fns & agg_cols[f].fn & ~a->hidden)) {
				print_xcols(a, agg_cols[f].fn, NULL, &sep);
				continue;
			}
{{/if}}
{{#if !COLS}}
			if (!(a->fns & agg_cols[f].fn))
				continue;
{{/if}}
			snprintf(h, sizeof(h), "%s%s", agg_cols[f].heading, per_second(agg_cols[f].fn) ? "/s" : "");
			printf("%s%10s", sep, h);
			sep = " ";
{{#if COLS}}
			print_xcols(a, agg_cols[f].fn, NULL, &sep);
{{/if}}
		}
		for (k = 0; k < a->nr_keys; k++) {
			bool last = k == a->nr_keys - 1;

{{#if STACKS}}
			if (is_stack(&a->keys[k]))
				continue;	/* frames under each row */
			for (int j = k + 1; j < a->nr_keys && is_stack(&a->keys[j]); j++)
				last = j == a->nr_keys - 1;
{{/if}}
			printf(col_left(&a->keys[k]) ? "  %-*s" : "  %*s", last ? 0 : col_width(&a->keys[k]),
			       a->keys[k].name);
		}
		printf("\n");
	} else if (!env.json && a->nr_keys) {
		printf("\n%s\n", a->title);
	}
	for (i = 0; i < n; i++) {
		const char *key = buf + i * row, *val = key + a->key_size;

		if (env.json) {
			printf("{\"%s\":", a->json);
			print_json_str(a->json_name);
			if (env.when[0])
				printf(",\"time\":\"%s\"", env.when);
			for (k = 0; k < a->nr_keys; k++) {
				printf(",\"%s\":", a->keys[k].json);
				print_col(&a->keys[k], key, true);
			}
		} else if (a->fns & (AGG_HIST | AGG_LHIST)) {
			if (!a->nr_keys)
				printf("\n%s\n", a->title);
			for (k = 0; k < a->nr_keys; k++) {
				printf("%s%s = ", k ? ", " : "\n", a->keys[k].name);
				print_col(&a->keys[k], key, true);
			}
			if (a->nr_keys)
				printf("\n");
		}
{{#if ANY_HIST}}
		if (a->fns & (AGG_HIST | AGG_LHIST)) {
			__u64 slots[a->nslots];

			memcpy(slots, val + a->off_slots, sizeof(slots));
{{#if HIST}}
			if (a->fns & AGG_HIST)
				print_log2_hist(slots, a->nslots, a->unit, a->is_signed & AGG_HIST);
{{/if}}
{{#if LHIST}}
			if (a->fns & AGG_LHIST)
				print_linear_hist(slots, a->nslots, a->lmin, a->lstep, a->unit);
{{/if}}
			continue;
		}
{{/if}}
{{#if COLS}}
		const char *sep = "";

		for (size_t f = 0; f < sizeof(agg_cols) / sizeof(agg_cols[0]); f++) {
			if (!(a->fns & agg_cols[f].fn & ~a->hidden)) {
				print_xcols(a, agg_cols[f].fn, val, &sep);
				continue;
			}
			if (env.json)
				printf(",\"%s%s\":", agg_cols[f].json, per_second(agg_cols[f].fn) ? "_per_s" : "");
			else
				printf("%s", sep);
			sep = " ";
			if (per_second(agg_cols[f].fn))
				printf(env.json ? "%.2f" : "%10.1f", fn_value(a, val, agg_cols[f].fn) / env.period);
			else
				print_fn(a, val, agg_cols[f].fn);
			print_xcols(a, agg_cols[f].fn, val, &sep);
		}
{{/if}}
{{#if !COLS}}
		for (size_t f = 0, cols = 0; f < sizeof(agg_cols) / sizeof(agg_cols[0]); f++) {
			if (!(a->fns & agg_cols[f].fn))
				continue;
			if (env.json)
				printf(",\"%s%s\":", agg_cols[f].json, per_second(agg_cols[f].fn) ? "_per_s" : "");
			else if (cols++)
				printf(" ");
			if (per_second(agg_cols[f].fn))
				printf(env.json ? "%.2f" : "%10.1f", fn_value(a, val, agg_cols[f].fn) / env.period);
			else
				print_fn(a, val, agg_cols[f].fn);
		}
{{/if}}
		if (env.json) {
			printf("}\n");
			continue;
		}
		for (k = 0; k < a->nr_keys; k++) {
			bool last = k == a->nr_keys - 1;

{{#if STACKS}}
			if (is_stack(&a->keys[k]))
				continue;
			for (int j = k + 1; j < a->nr_keys && is_stack(&a->keys[j]); j++)
				last = j == a->nr_keys - 1;	/* stacks go under the row */
{{/if}}
			printf("  ");
			print_col(&a->keys[k], key, last);
		}
		printf("\n");
{{#if STACKS}}
		print_row_stacks(a, key);
{{/if}}
	}
	free(buf);
}
