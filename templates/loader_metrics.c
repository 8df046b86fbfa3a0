
/*
 * --metrics [ADDR:]PORT: the aggregations as Prometheus metrics (text
 * exposition 0.0.4, or OpenMetrics 1.0.0 when the scraper's Accept asks for
 * it), served by libmicrohttpd's one polling thread. A scrape
 * reads the maps without deleting anything: counters are cumulative, and
 * -i resets only what the terminal shows (metrics_delta()).
 */
{{#if RINGBUF}}

/* records read, per event */
static const struct {
	int type;
	const char *event;
} metric_events[] = {
	{{METRIC_EVENTS}}
};
static __u64 metric_records[sizeof(metric_events) / sizeof(metric_events[0])];

static void metrics_count_record(int type)
{
	for (size_t i = 0; i < sizeof(metric_events) / sizeof(metric_events[0]); i++)
		if (metric_events[i].type == type)
			__atomic_add_fetch(&metric_records[i], 1, __ATOMIC_RELAXED);
}
{{/if}}

/* the rows the terminal showed last, per table: -i shows what came since */
static struct metric_base {
	char *rows;	/* key, then value; sorted by key */
	int n;
} metric_bases[sizeof(aggs) / sizeof(aggs[0])];

static unsigned int metric_key_size;

static int cmp_key_bytes(const void *x, const void *y)
{
	return memcmp(x, y, metric_key_size);
}

{{#if COLS}}
/* a member a named max_at column keeps: a value, not a count */
static bool xcol_at(const struct agg *a, unsigned int off)
{
	for (int i = 0; i < a->nr_xcols; i++)
		if (a->xcols[i].kind == XCOL_AT && a->xcols[i].off == off)
			return true;
	return false;
}

{{/if}}
/*
 * -i with --metrics: the maps keep counting (a scrape reads them), so the
 * terminal shows each row less what it showed last time: counts, sums and
 * slots since, min and max as they are. Rows with nothing new are left out.
 */
static int metrics_delta(const struct agg *a, char *buf, int n)
{
	struct metric_base *b = &metric_bases[a - aggs];
	size_t row = a->key_size + a->val_size;
	char *copy = malloc(n ? n * row : 1);
	int out = 0;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, n * row);
	metric_key_size = a->key_size;
	qsort(copy, n, row, cmp_key_bytes);
	for (int i = 0; i < n; i++) {
		char *key = buf + i * row, *val = key + a->key_size;
		const char *old = b->n ? bsearch(key, b->rows, b->n, row, cmp_key_bytes) : NULL;
		bool any = !old;

		if (old) {
			old += a->key_size;
			for (unsigned int off = 0; off + 8 <= a->val_size; off += 8) {
				__u64 v = val_u64(val, off), o = val_u64(old, off);

				if (a->fns & AGG_MIN && off == a->off_min)
					continue;
				if (a->fns & AGG_MAX && off == a->off_max)
					continue;
				if (a->fns & AGG_MAX_AT && off == a->off_max_at)
					continue;
{{#if COLS}}
				if (xcol_at(a, off))
					continue;	/* a value of the event that set max, as max */
{{/if}}
				v -= o;
				memcpy(val + off, &v, 8);
			}
			any = (a->fns & AGG_COUNT) ? val_u64(val, a->off_count) != 0 :
			      memcmp(val, old, a->val_size) != 0;
			if (a->fns & (AGG_HIST | AGG_LHIST))
				for (unsigned int s = 0; s < a->nslots && !any; s++)
					any = val_u64(val, a->off_slots + s * 8) != 0;
		}
		if (any)
			memmove(buf + out++ * row, key, row);
	}
	free(b->rows);
	b->rows = copy;
	b->n = n;
	return out;
}

#ifndef TPGEN_NO_METRICS
#include <strings.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/utsname.h>
#include <microhttpd.h>

/* a family of a table: which function, as which type, under which name */
struct metric_fam {
	unsigned int fn;
	const char *type;
	const char *name;
	const char *help;
	const char *unit;	/* OpenMetrics' UNIT: "seconds", "bytes"; NULL: none */
{{#if COLS}}
	int xcol;			/* a named column's (its index + 1), 0: the function's */
{{/if}}
};

struct metric_table {
	const char *table;
	const char *const *labels;	/* per key column; NULL: not a label (a stack) */
	double scale;			/* to base units: seconds, bytes */
	bool le_inclusive;		/* integers as counted: a bucket's le is its last value */
	unsigned int off_hist_sum;	/* a histogram's sum of values (its _sum); 0: none */
	bool hist_signed;		/* ... of a signed value */
	const struct metric_fam *fams;
	int nr_fams;
};

static const struct metric_table metric_tables[] = {
{{METRICS_TABLES}}
};

static struct {
	struct sockaddr_storage addr;
	int max_series;
	struct MHD_Daemon *daemon;
	const __u64 *lost_map_full;
	const struct bpf_object *obj;	/* its programs' nested_misses() */
{{#if RINGBUF}}
	const __u64 *lost_ringbuf;
{{/if}}
{{#if STACKS}}
	const __u64 *lost_stack;
{{/if}}
	char kernel[65];
{{#if METRICS_SYMS}}
	struct tpgen_syms *syms;	/* the scrapes' thread's syms */
{{/if}}
	/* per table, the label sets exported so far, sorted: a series once exported stays */
	struct metric_kept {
		char **labels;
		int n;
	} kept[sizeof(aggs) / sizeof(aggs[0])];
} metrics = { .max_series = 2000 };

/* [ADDR:]PORT, [ADDR6]:PORT; 127.0.0.1 unless told */
static int metrics_parse_addr(const char *arg)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)&metrics.addr;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&metrics.addr;
	const char *colon = strrchr(arg, ':'), *port = colon ? colon + 1 : arg;
	char host[64] = "127.0.0.1", *end;
	long p;

	if (colon) {
		size_t len = colon - arg;

		if (len && arg[0] == '[' && arg[len - 1] == ']') {
			arg++;
			len -= 2;
		}
		if (!len || len >= sizeof(host))
			return -EINVAL;
		memcpy(host, arg, len);
		host[len] = '\0';
	}
	errno = 0;
	p = strtol(port, &end, 10);
	if (errno || end == port || *end || p < 1 || p > 65535)
		return -EINVAL;
	memset(&metrics.addr, 0, sizeof(metrics.addr));
	if (inet_pton(AF_INET, host, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons(p);
	} else if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(p);
	} else {
		return -EINVAL;
	}
	return 0;
}

/* the exposition, grown as it is written */
struct mbuf {
	char *p;
	size_t len, cap;
	bool failed;
};

static void mb_grow(struct mbuf *b, size_t more)
{
	char *np;
	size_t cap;

	if (b->failed || b->len + more < b->cap)
		return;
	for (cap = b->cap ? b->cap : 65536; cap <= b->len + more; cap *= 2)
		;
	np = realloc(b->p, cap);
	if (!np) {
		b->failed = true;
		return;
	}
	b->p = np;
	b->cap = cap;
}

static void __attribute__((format(printf, 2, 3))) mb_printf(struct mbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	mb_grow(b, n + 1);
	if (b->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += n;
}

/*
 * A label value: '\', '"' and newline escaped as the format wants; other
 * control bytes and bytes that are not UTF-8 as the text \xNN.
 */
static void mb_label_value(struct mbuf *b, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	mb_grow(b, 4 * n + 1);
	for (size_t i = 0; i < n && !b->failed; i++) {
		size_t len;

		if (s[i] == '\\' || s[i] == '"') {
			b->p[b->len++] = '\\';
			b->p[b->len++] = s[i];
		} else if (s[i] == '\n') {
			b->p[b->len++] = '\\';
			b->p[b->len++] = 'n';
		} else if (s[i] >= 0x20 && s[i] < 0x7f) {
			b->p[b->len++] = s[i];
		} else if (s[i] >= 0x80 && (len = utf8_len(s + i, n - i))) {
			memcpy(b->p + b->len, s + i, len);
			b->len += len;
			i += len - 1;
		} else {
			b->len += sprintf(b->p + b->len, "\\\\x%02x", s[i]);
		}
	}
}

{{#if METRICS_STACKS}}
/*
 * The label of each stack a scrape has named, by the key's value (its pid
 * and stack id, which the stack map gives one stack for good), its kind and
 * its frames: named once, so that a series keeps its labels when its process
 * has gone (its user frames would be [unknown] then), and a scrape names
 * only the stacks that are new. An open-addressing table, at most half full.
 */
static struct metric_stack {
	__u64 v;
	int kind, frames;
	char *label;	/* NULL: an empty slot */
} *metric_stacks;
static size_t metric_stacks_n, metric_stacks_cap;

static struct metric_stack *metric_stack_slot(struct metric_stack *tab, size_t cap, __u64 v, int kind,
					      int frames)
{
	size_t i = (v * 0x9e3779b97f4a7c15ULL ^ kind ^ (__u64)frames << 8) & (cap - 1);

	while (tab[i].label && (tab[i].v != v || tab[i].kind != kind || tab[i].frames != frames))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

/* a stack's frames root first, ';' between them, as -f folds them ("a;b;c"; a ';' in a name "\x3b") */
static const char *metric_stack_label(const struct col *c, __u64 v)
{
	unsigned long long ips[TPGEN_STACK_DEPTH];
	bool user = c->kind == COL_USTACK;
	struct metric_stack *m;
	char line[16384];
	int pid, n;

	if (2 * (metric_stacks_n + 1) > metric_stacks_cap) {
		size_t cap = metric_stacks_cap ? 2 * metric_stacks_cap : 1024;
		struct metric_stack *tab = calloc(cap, sizeof(*tab));

		if (!tab)
			return NULL;
		for (size_t i = 0; i < metric_stacks_cap; i++)
			if (metric_stacks[i].label)
				*metric_stack_slot(tab, cap, metric_stacks[i].v, metric_stacks[i].kind,
						   metric_stacks[i].frames) = metric_stacks[i];
		free(metric_stacks);
		metric_stacks = tab;
		metric_stacks_cap = cap;
	}
	m = metric_stack_slot(metric_stacks, metric_stacks_cap, v, c->kind, c->frames);
	if (m->label)
		return m->label;
	n = stack_read(v, user, c->frames, ips, &pid);
	if (user)
		tpgen_stack_folded(syms, line, sizeof(line), NULL, pid, ips, n, NULL, 0);
	else
		tpgen_stack_folded(syms, line, sizeof(line), NULL, -1, NULL, 0, ips, n);
	m->label = strdup(line);
	if (!m->label)
		return NULL;
	m->v = v;
	m->kind = c->kind;
	m->frames = c->frames;
	metric_stacks_n++;
	return m->label;
}

/* a stack as a label (metrics: { stacks: folded }) */
static void mb_stack(struct mbuf *b, const struct col *c, const char *key)
{
	const char *label = metric_stack_label(c, col_value(c, key));

	if (!label)
		b->failed = true;
	else
		mb_label_value(b, label, strlen(label));
}

{{/if}}
/* a key column's value as the text users see: the name, the address, the string */
static void mb_col(struct mbuf *b, const struct col *c, const char *key)
{
	char buf[256];

{{#if METRICS_STACKS}}
	if (c->kind == COL_KSTACK || c->kind == COL_USTACK) {
		mb_stack(b, c, key);
		return;
	}
{{/if}}
{{#if NAMES}}
	if (c->show) {
{{#if SHOW_BYTES}}
		if (c->show->kind == SHOW_IPV4 || c->show->kind == SHOW_IPV6 || c->show->kind == SHOW_HEX) {
			show_bytes(c->show, key + c->off, c->size, buf, sizeof(buf));
			mb_label_value(b, buf, strlen(buf));
			return;
		}
{{/if}}
{{#if SHOW_VALUE}}
		show_value(c->show, col_value(c, key), c->kind == COL_S, buf, sizeof(buf));
		mb_label_value(b, buf, strlen(buf));
{{/if}}
		return;
	}
{{/if}}
	if (c->kind == COL_STR) {
		mb_label_value(b, key + c->off, strnlen(key + c->off, c->size));
		return;
	}
	if (c->kind == COL_BYTES) {
		for (unsigned int i = 0; i < c->size; i++)
			mb_printf(b, "%02x", (unsigned char)key[c->off + i]);
		return;
	}
	if (c->kind == COL_PTR)
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)col_value(c, key));
	else if (c->kind == COL_S)
		snprintf(buf, sizeof(buf), "%lld", (long long)col_value(c, key));
	else
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)col_value(c, key));
	mb_label_value(b, buf, strlen(buf));
}

/* one series: its labels (name="value",...) and its value, the map's, merged */
struct mseries {
	char *labels;
	char *val;
};

static int cmp_series_labels(const void *x, const void *y)
{
	return strcmp(((const struct mseries *)x)->labels, ((const struct mseries *)y)->labels);
}

static const struct agg *weight_agg;

/* what a series is worth when series are many: its count, else its first function */
static double series_weight(const struct agg *a, const char *val)
{
	double w = 0;

	if (a->fns & (AGG_HIST | AGG_LHIST)) {
		for (unsigned int i = 0; i < a->nslots; i++)
			w += val_u64(val, a->off_slots + i * 8);
		return w;
	}
	return a->fns & AGG_COUNT ? val_u64(val, a->off_count) : fn_value(a, val, a->sort ? a->sort : a->fns & -a->fns);
}

static int cmp_series_weight(const void *x, const void *y)
{
	const struct mseries *s = x, *t = y;
	double u = series_weight(weight_agg, s->val), v = series_weight(weight_agg, t->val);

	if (u != v)
		return u < v ? 1 : -1;
	return strcmp(s->labels, t->labels);
}

/* two rows of one series: counts, sums and slots added, min and max kept, max_at's values with their max */
static void merge_val(const struct agg *a, char *dst, const char *src)
{
	__u64 dm = val_u64(dst, a->off_max), sm = val_u64(src, a->off_max);
	bool src_max = a->is_signed & AGG_MAX ? (__s64)sm > (__s64)dm : sm > dm;

	for (unsigned int off = 0; off + 8 <= a->val_size; off += 8) {
		__u64 d = val_u64(dst, off), s = val_u64(src, off);
		bool sgn;

		if (a->fns & AGG_MAX_AT && off == a->off_max_at) {
			if (src_max)
				d = s;
{{#if COLS}}
		} else if (xcol_at(a, off)) {	/* a named max_at value: with its max too */
			if (src_max)
				d = s;
{{/if}}
		} else if (a->fns & AGG_MIN && off == a->off_min) {
			sgn = a->is_signed & AGG_MIN;
			if (sgn ? (__s64)s < (__s64)d : s < d)
				d = s;
		} else if (a->fns & AGG_MAX && off == a->off_max) {
			sgn = a->is_signed & AGG_MAX;
			if (sgn ? (__s64)s > (__s64)d : s > d)
				d = s;
		} else {
			d += s;
		}
		memcpy(dst + off, &d, 8);
	}
}

/*
 * Every row of a hash map in BPF_MAP_LOOKUP_BATCH calls of 1024 rows: a few
 * syscalls for 10,000 keys where a walk makes 20,000. An error (a kernel
 * without batches, a bucket of more rows than a call takes): the walk instead.
 */
static int metrics_rows_batch(const struct agg *a, char **out)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	const __u32 chunk = 1024;
	size_t row = a->key_size + a->val_size;
	char *keys = malloc(chunk * a->key_size), *vals = malloc(chunk * a->val_size), *buf = NULL;
	__u64 in = 0, next = 0;	/* the hash map's batch token: a bucket */
	int n = 0, err = 0;

	if (!keys || !vals) {
		err = -ENOMEM;
		goto out;
	}
	for (bool first = true;; first = false) {
		__u32 got = chunk;
		char *nbuf;

		err = bpf_map_lookup_batch(a->fd, first ? NULL : &in, &next, keys, vals, &got, &opts);
		if (err && err != -ENOENT)
			goto out;
		nbuf = realloc(buf, (n + got ? n + got : 1) * row);
		if (!nbuf) {
			err = -ENOMEM;
			goto out;
		}
		buf = nbuf;
		for (__u32 i = 0; i < got; i++, n++) {
			memcpy(buf + n * row, keys + i * a->key_size, a->key_size);
			memcpy(buf + n * row + a->key_size, vals + i * a->val_size, a->val_size);
		}
		if (err == -ENOENT)
			break;	/* the last batch */
		in = next;
	}
	err = 0;
out:
	free(keys);
	free(vals);
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	return n;
}

/* every row by walking the keys, one lookup each */
static int metrics_rows_walk(const struct agg *a, char **out)
{
	size_t row = a->key_size + a->val_size;
	char *buf = NULL;
	int n = 0, cap = 0;

	for (;;) {
		if (n == cap) {
			char *nbuf = realloc(buf, (cap = cap ? cap * 2 : 256) * row);

			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
		}
		if (bpf_map_get_next_key(a->fd, n ? buf + (n - 1) * row : NULL, buf + n * row))
			break;
		/* with --metrics nothing deletes a row: one that is gone ends the walk */
		if (bpf_map_lookup_elem(a->fd, buf + n * row, buf + n * row + a->key_size))
			break;
		n++;
	}
	*out = buf;
	return n;
}

/* every row of a table as it is now: nothing deleted, nothing reset */
static int metrics_rows(const struct agg *a, char **out)
{
	size_t row = a->key_size + a->val_size;
	char *buf = NULL, *nbuf;
	int n;

{{#if GLOBAL_AGG}}
	if (a->mem) {
		__u64 *mem = a->mem, v;

		buf = calloc(1, row);
		if (!buf)
			return -ENOMEM;
		for (size_t i = 0; i < a->val_size / sizeof(v); i++) {
			v = __atomic_load_n(&mem[i], __ATOMIC_RELAXED);
			memcpy(buf + a->key_size + i * sizeof(v), &v, sizeof(v));
		}
		*out = buf;
		return 1;
	}
{{/if}}
	n = metrics_rows_batch(a, &buf);
	if (n < 0 && n != -ENOMEM)
		n = metrics_rows_walk(a, &buf);
	if (n < 0)
		return n;
	if (!n && !a->nr_keys) {
		/* one row, not counted yet: zeros, so that the series is there from the start */
		nbuf = realloc(buf, row);
		if (!nbuf) {
			free(buf);
			return -ENOMEM;
		}
		buf = memset(nbuf, 0, row);
		n = 1;
	}
	*out = buf;
	return n;
}

static bool kept(const struct metric_kept *k, const char *labels)
{
	int lo = 0, hi = k->n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2, r = strcmp(labels, k->labels[mid]);

		if (!r)
			return true;
		if (r < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return false;
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/*
 * A family's HELP and TYPE. OpenMetrics names a counter's family without
 * its samples' "_total", gives its unit (the name's suffix) and escapes
 * '"' in HELP too; the help is escaped as 0.0.4 wants it ('\\', '\n').
 */
static void mb_family(struct mbuf *b, bool om, const char *name, const char *type, const char *unit,
		      const char *help)
{
	int len = strlen(name);

	if (om && !strcmp(type, "counter"))
		len -= strlen("_total");
	mb_printf(b, "# HELP %.*s ", len, name);
	for (const char *c = help; *c; c++) {
		if (om && *c == '"')
			mb_printf(b, "\\\"");
		else
			mb_printf(b, "%c", *c);
	}
	mb_printf(b, "\n# TYPE %.*s %s\n", len, name, type);
	if (om && unit)
		mb_printf(b, "# UNIT %.*s %s\n", len, name, unit);
}

static void mb_le(struct mbuf *b, const struct metric_table *t, const char *labels, const char *name,
		  long long hi, __u64 cum)
{
	if (t->le_inclusive)
		mb_printf(b, "%s_bucket{%s%sle=\"%lld\"} %llu\n", name, labels, *labels ? "," : "", hi - 1,
			  (unsigned long long)cum);
	else
		mb_printf(b, "%s_bucket{%s%sle=\"%.9g\"} %llu\n", name, labels, *labels ? "," : "", hi * t->scale,
			  (unsigned long long)cum);
}

/*
 * One series of a histogram. OpenMetrics has no _sum of values that can be
 * negative (no counter), and no _count without a _sum: there, a histogram
 * of a signed value has its buckets alone.
 */
static void mb_hist(struct mbuf *b, bool om, const struct agg *a, const struct metric_table *t,
		    const char *name, const char *labels, const char *val)
{
	unsigned int last = 0, i;
	__u64 cum = 0, total = 0;

	for (i = 0; i < a->nslots; i++)
		if (val_u64(val, a->off_slots + i * 8))
			last = i;
	for (i = 0; i <= last && i < a->nslots - (a->fns & AGG_LHIST ? 1 : 0); i++) {
		long long hi = a->fns & AGG_LHIST ? a->lmin + (long long)i * a->lstep :
			       i >= 62 ? LLONG_MAX : 1LL << (i + 1);	/* where the slot ends */

		cum += val_u64(val, a->off_slots + i * 8);
		/* a bucket below 0 of an unsigned value, always empty: none */
		if (!t->hist_signed && (t->le_inclusive ? hi - 1 : hi) < 0)
			continue;
		mb_le(b, t, labels, name, hi, cum);
	}
	for (i = 0; i < a->nslots; i++)
		total += val_u64(val, a->off_slots + i * 8);
	mb_printf(b, "%s_bucket{%s%sle=\"+Inf\"} %llu\n", name, labels, *labels ? "," : "",
		  (unsigned long long)total);
	if (om && t->hist_signed)
		return;
	if (t->off_hist_sum) {
		__u64 sum = val_u64(val, t->off_hist_sum);

		mb_printf(b, "%s_sum%s%s%s ", name, *labels ? "{" : "", labels, *labels ? "}" : "");
		if (t->scale != 1)
			mb_printf(b, "%.15g\n", (t->hist_signed ? (double)(__s64)sum : (double)sum) * t->scale);
		else if (t->hist_signed)
			mb_printf(b, "%lld\n", (long long)sum);
		else
			mb_printf(b, "%llu\n", (unsigned long long)sum);
	}
	mb_printf(b, "%s_count%s%s%s %llu\n", name, *labels ? "{" : "", labels, *labels ? "}" : "",
		  (unsigned long long)total);
}

{{#if COLS}}
/* a named column: counts and values as integers, sums in the table's unit, derived ones as they show */
static void mb_xcol(struct mbuf *b, const struct agg *a, const struct metric_table *t, const struct xcol *x,
		    const char *val)
{
	if (x->kind == XCOL_DERIVED || (x->kind == XCOL_SUM && t->scale != 1))
		mb_printf(b, "%.15g\n", xcol_value(a, x, val) * (x->kind == XCOL_SUM ? t->scale : 1));
	else if (x->is_signed)
		mb_printf(b, "%lld\n", (long long)val_u64(val, x->off));
	else
		mb_printf(b, "%llu\n", (unsigned long long)val_u64(val, x->off));
}

{{/if}}
static void mb_value(struct mbuf *b, const struct agg *a, const struct metric_table *t, unsigned int fn,
		     const char *val)
{
	if (fn == AGG_COUNT) {
		mb_printf(b, "%llu\n", (unsigned long long)val_u64(val, a->off_count));
	} else if (fn == AGG_AVG || fn == AGG_STDDEV || t->scale != 1) {
		mb_printf(b, "%.15g\n", fn_value(a, val, fn) * t->scale);
	} else {
		unsigned int off = fn == AGG_SUM ? a->off_sum : fn == AGG_MIN ? a->off_min :
				   fn == AGG_MAX_AT ? a->off_max_at : a->off_max;

		if (a->is_signed & fn)
			mb_printf(b, "%lld\n", (long long)val_u64(val, off));
		else
			mb_printf(b, "%llu\n", (unsigned long long)val_u64(val, off));
	}
}

/* One table's families; the number of label sets folded into 'other', or -ENOMEM. */
static long metrics_table(struct mbuf *b, bool om, const struct agg *a, const struct metric_table *t,
			  struct metric_kept *k)
{
	size_t row = a->key_size + a->val_size;
	struct mseries *s = NULL, *fresh;
	int n, ns = 0, nfresh = 0, i, j;
	long folded = 0;
	char *buf, *other = NULL;

	n = metrics_rows(a, &buf);
	if (n < 0)
		return n;
	s = calloc(n ? n : 1, sizeof(*s));
	if (!s)
		goto nomem;
	/* the label set of each row; rows of one label set (a stack's ids, a string's tail) merged */
	for (i = 0; i < n; i++) {
		struct mbuf lb = {};
		const char *key = buf + i * row;

		for (j = 0; j < a->nr_keys; j++) {
			if (!t->labels[j])
				continue;
			mb_printf(&lb, "%s%s=\"", lb.len ? "," : "", t->labels[j]);
			mb_col(&lb, &a->keys[j], key);
			mb_printf(&lb, "\"");
		}
		mb_grow(&lb, 1);
		if (lb.failed) {
			free(lb.p);
			goto nomem;
		}
		lb.p[lb.len] = '\0';
		s[i].labels = lb.p;
		s[i].val = buf + i * row + a->key_size;
	}
	qsort(s, n, sizeof(*s), cmp_series_labels);
	for (i = 0; i < n; i++) {
		if (ns && !strcmp(s[ns - 1].labels, s[i].labels)) {
			merge_val(a, s[ns - 1].val, s[i].val);
			free(s[i].labels);
			continue;
		}
		s[ns++] = s[i];
	}
	n = ns;

	/* at most max_series: those exported before, then the biggest; the rest in one 'other' */
	fresh = calloc(n ? n : 1, sizeof(*fresh));
	if (!fresh)
		goto nomem;
	for (i = 0; i < n; i++)
		if (!kept(k, s[i].labels))
			fresh[nfresh++] = s[i];
	if (k->n + nfresh > metrics.max_series - 1 && nfresh) {
		weight_agg = a;
		qsort(fresh, nfresh, sizeof(*fresh), cmp_series_weight);
	}
	for (i = 0; i < nfresh && k->n < metrics.max_series - 1; i++) {
		char **nl = realloc(k->labels, (k->n + 1) * sizeof(*nl));

		if (!nl || !(nl[k->n] = strdup(fresh[i].labels))) {
			free(fresh);
			if (nl)
				k->labels = nl;
			goto nomem;
		}
		k->labels = nl;
		k->n++;
	}
	if (i)
		qsort(k->labels, k->n, sizeof(*k->labels), cmp_str);
	free(fresh);
	for (i = 0, ns = 0; i < n; i++) {
		if (kept(k, s[i].labels)) {
			s[ns++] = s[i];
			continue;
		}
		if (!other) {
			other = calloc(1, a->val_size);
			if (!other)
				goto nomem;
			memcpy(other, s[i].val, a->val_size);
		} else {
			merge_val(a, other, s[i].val);
		}
		free(s[i].labels);
		folded++;
	}

	for (int f = 0; f < t->nr_fams; f++) {
		const struct metric_fam *fm = &t->fams[f];

		mb_family(b, om, fm->name, fm->type, fm->unit, fm->help);
		for (i = 0; i <= ns; i++) {
			const char *labels = i < ns ? s[i].labels : "other=\"true\"";
			const char *val = i < ns ? s[i].val : other;

			if (!val)
				break;
			if (fm->fn & (AGG_HIST | AGG_LHIST)) {
				mb_hist(b, om, a, t, fm->name, labels, val);
				continue;
			}
			mb_printf(b, "%s%s%s%s ", fm->name, *labels ? "{" : "", labels, *labels ? "}" : "");
{{#if COLS}}
			if (fm->xcol) {
				mb_xcol(b, a, t, &a->xcols[fm->xcol - 1], val);
				continue;
			}
{{/if}}
			mb_value(b, a, t, fm->fn, val);
		}
	}
	for (i = 0; i < ns; i++)
		free(s[i].labels);
	free(s);
	free(other);
	free(buf);
	return b->failed ? -ENOMEM : folded;
nomem:
	for (i = 0; s && i < ns; i++)
		free(s[i].labels);
	free(s);
	free(other);
	free(buf);
	return -ENOMEM;
}

/*
 * The whole exposition, 0.0.4 or OpenMetrics (om: build_info an info
 * family, counters' families without "_total", UNIT, "# EOF" at the end);
 * NULL when memory ran out.
 */
static char *metrics_text(size_t *len, bool om)
{
	struct mbuf b = {};
	long folded[sizeof(aggs) / sizeof(aggs[0])];
	size_t i;

{{#if METRICS_SYMS}}
	syms = metrics.syms;	/* this thread's */
{{/if}}
	mb_family(&b, om, om ? "{{TOOL}}_build" : "{{TOOL}}_build_info", om ? "info" : "gauge", NULL,
		  {{METRICS_DOC}});
	mb_printf(&b, "{{TOOL}}_build_info{kernel=\"");
	mb_label_value(&b, metrics.kernel, strlen(metrics.kernel));
	mb_printf(&b, "\",spec_hash=\"{{SPEC_HASH}}\",version=\"tpgen {{VERSION}}\"} 1\n");
	for (i = 0; i < sizeof(aggs) / sizeof(aggs[0]); i++) {
		folded[i] = metrics_table(&b, om, &aggs[i], &metric_tables[i], &metrics.kept[i]);
		if (folded[i] < 0) {
			free(b.p);
			return NULL;
		}
	}
	mb_family(&b, om, "{{TOOL}}_folded_series", "gauge", NULL,
		  "Label sets of a table past --metrics-max-series, summed into its series other=\"true\"");
	for (i = 0; i < sizeof(aggs) / sizeof(aggs[0]); i++)
		mb_printf(&b, "{{TOOL}}_folded_series{table=\"%s\"} %ld\n", metric_tables[i].table, folded[i]);
{{#if !STACKS}}
	mb_family(&b, om, "{{TOOL}}_lost_total", "counter", NULL,
		  "Updates lost: a map was full (map_full), records the ring buffer had no room for "
		  "(ringbuf_full), or events the kernel skipped inside another BPF program (nested)");
{{/if}}
{{#if STACKS}}
	mb_family(&b, om, "{{TOOL}}_lost_total", "counter", NULL,
		  "Updates lost: a map was full (map_full), records the ring buffer had no room for "
		  "(ringbuf_full), events the kernel skipped inside another BPF program (nested), or "
		  "stacks the stack map had no place for (stack)");
{{/if}}
	mb_printf(&b, "{{TOOL}}_lost_total{reason=\"map_full\"} %llu\n",
		  (unsigned long long)__atomic_load_n(metrics.lost_map_full, __ATOMIC_RELAXED));
	mb_printf(&b, "{{TOOL}}_lost_total{reason=\"nested\"} %llu\n", nested_misses(metrics.obj));
{{#if STACKS}}
	mb_printf(&b, "{{TOOL}}_lost_total{reason=\"stack\"} %llu\n",
		  (unsigned long long)__atomic_load_n(metrics.lost_stack, __ATOMIC_RELAXED));
{{/if}}
{{#if RINGBUF}}
	mb_printf(&b, "{{TOOL}}_lost_total{reason=\"ringbuf_full\"} %llu\n",
		  (unsigned long long)__atomic_load_n(metrics.lost_ringbuf, __ATOMIC_RELAXED));
	mb_family(&b, om, "{{TOOL}}_events_total", "counter", NULL, "Records read, per event");
	for (i = 0; i < sizeof(metric_events) / sizeof(metric_events[0]); i++) {
		__u64 v = 0;
		size_t j;

		for (j = 0; j < i && strcmp(metric_events[j].event, metric_events[i].event); j++)
			;
		if (j < i)
			continue;	/* one series per event, however many entries print it */
		for (j = i; j < sizeof(metric_events) / sizeof(metric_events[0]); j++)
			if (!strcmp(metric_events[j].event, metric_events[i].event))
				v += __atomic_load_n(&metric_records[j], __ATOMIC_RELAXED);
		mb_printf(&b, "{{TOOL}}_events_total{event=\"%s\"} %llu\n", metric_events[i].event,
			  (unsigned long long)v);
	}
{{/if}}
	if (om)
		mb_printf(&b, "# EOF\n");
	if (b.failed) {
		free(b.p);
		return NULL;
	}
	*len = b.len;
	return b.p;
}

/* a media range's or a parameter's token in an Accept header, less spaces */
static bool accept_token(const char *s, size_t n, const char *want)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n == strlen(want) && !strncasecmp(s, want, n);
}

/*
 * Whether Accept asks for OpenMetrics 1.0.0 before the text format 0.0.4:
 * of the media ranges served (application/openmetrics-text of version
 * 1.0.0; text/plain of 0.0.4, and the wildcards), the one of the highest q,
 * the first on a tie. Prometheus 2 sends "application/openmetrics-text;
 * version=1.0.0,...,text/plain;version=0.0.4;q=0.5,..."; curl a wildcard.
 * No Accept, or one without either, is 0.0.4.
 */
static bool metrics_wants_om(const char *accept)
{
	double q_om = 0, q_text = 0;
	int at_om = -1, at_text = -1, at = 0;

	for (const char *r = accept; r && *r; at++) {
		const char *end = r + strcspn(r, ","), *p = r + strcspn(r, ";,");
		bool om = accept_token(r, p - r, "application/openmetrics-text");
		bool text = accept_token(r, p - r, "text/plain") || accept_token(r, p - r, "text/*") ||
			    accept_token(r, p - r, "*/*");
		double q = 1;

		/* ;version=...;q=...: another version than the two served is neither */
		while (p < end) {
			const char *name = p + 1, *eq, *next;

			next = name + strcspn(name, ";,");
			eq = memchr(name, '=', next - name);
			if (eq && accept_token(name, eq - name, "q"))
				q = strtod(eq + 1, NULL);
			else if (eq && accept_token(name, eq - name, "version")) {
				om &= accept_token(eq + 1, next - eq - 1, "1.0.0");
				text &= accept_token(eq + 1, next - eq - 1, "0.0.4");
			}
			p = next;
		}
		if (om && q > q_om) {
			q_om = q;
			at_om = at;
		}
		if (text && q > q_text) {
			q_text = q;
			at_text = at;
		}
		r = *end ? end + 1 : end;
	}
	return q_om > 0 && (q_om > q_text || (q_om == q_text && at_om < at_text));
}

static enum MHD_Result metrics_reply(struct MHD_Connection *conn, unsigned int status, const char *type,
				     char *body, size_t len, enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *resp = MHD_create_response_from_buffer(len, body, mode);
	enum MHD_Result ret;

	if (!resp) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

/* GET /metrics, GET / (a link to it); 404 for anything else, 405 for other methods */
static enum MHD_Result metrics_handler(void *cls, struct MHD_Connection *conn, const char *url,
				       const char *method, const char *version, const char *upload_data,
				       size_t *upload_data_size, void **req_cls)
{
	static char index[] = "<html><head><title>{{TOOL}}</title></head><body>"
			      "<a href=\"/metrics\">Metrics</a></body></html>\n";
	static char not_found[] = "Not found: this serves /metrics\n";
	static char not_allowed[] = "Only GET and HEAD\n";
	static char no_memory[] = "Out of memory\n";
	char *text;
	size_t len;
	bool om;

	(void)cls, (void)version, (void)upload_data, (void)req_cls;	/* MHD_AccessHandlerCallback's */
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return metrics_reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", not_allowed,
				     strlen(not_allowed), MHD_RESPMEM_PERSISTENT);
	if (*upload_data_size)
		return MHD_NO;	/* a GET with a body */
	if (!strcmp(url, "/"))
		return metrics_reply(conn, MHD_HTTP_OK, "text/html; charset=utf-8", index, strlen(index),
				     MHD_RESPMEM_PERSISTENT);
	if (strcmp(url, "/metrics"))
		return metrics_reply(conn, MHD_HTTP_NOT_FOUND, "text/plain", not_found, strlen(not_found),
				     MHD_RESPMEM_PERSISTENT);
	om = metrics_wants_om(MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	text = metrics_text(&len, om);
	if (!text)
		return metrics_reply(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain", no_memory,
				     strlen(no_memory), MHD_RESPMEM_PERSISTENT);
	return metrics_reply(conn, MHD_HTTP_OK,
			     om ? "application/openmetrics-text; version=1.0.0; charset=utf-8" :
				  "text/plain; version=0.0.4; charset=utf-8",
			     text, len, MHD_RESPMEM_MUST_FREE);
}

/*
 * One polling thread serves every connection: a client that sends nothing
 * holds a slot until its timeout, not the others. A request's headers have
 * 16 KB; a scrape is built while no other is.
 */
static int metrics_start(struct {{SKEL}} *skel)
{
	struct utsname u;

	metrics.lost_map_full = &skel->bss->tpgen_lost;
	metrics.obj = skel->obj;
{{#if RINGBUF}}
	metrics.lost_ringbuf = &skel->bss->ringbuf_drops;
{{/if}}
{{#if STACKS}}
	metrics.lost_stack = &skel->bss->tpgen_stacks_lost;
{{/if}}
	if (!uname(&u))
		snprintf(metrics.kernel, sizeof(metrics.kernel), "%s", u.release);
{{#if METRICS_SYMS}}
	metrics.syms = tpgen_syms_new();
	if (!metrics.syms) {
		fprintf(stderr, "{{TOOL}}: cannot serve metrics: %s\n", strerror(errno));
		return -1;
	}
	tpgen_syms_kernel(metrics.syms, 0, &(struct tpgen_sym_info){ 0 });	/* kallsyms, now */
{{/if}}
	metrics.daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO |
					  (metrics.addr.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
					  0, NULL, NULL, metrics_handler, NULL,
					  MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&metrics.addr,
					  MHD_OPTION_CONNECTION_LIMIT, (unsigned int)8,
					  MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)4,
					  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)10,
					  MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
					  MHD_OPTION_END);
	if (!metrics.daemon) {
		fprintf(stderr, "{{TOOL}}: cannot serve metrics on %s: %s\n", env.metrics,
			errno ? strerror(errno) : "libmicrohttpd failed");
		return -1;
	}
	fprintf(stderr, "Serving metrics on http://%s%s/metrics\n", strchr(env.metrics, ':') ? "" : "127.0.0.1:",
		env.metrics);
	return 0;
}

static void metrics_stop(void)
{
	if (metrics.daemon)
		MHD_stop_daemon(metrics.daemon);
{{#if METRICS_SYMS}}
	tpgen_syms_free(metrics.syms);
{{/if}}
{{#if METRICS_STACKS}}
	for (size_t i = 0; i < metric_stacks_cap; i++)
		free(metric_stacks[i].label);
	free(metric_stacks);
{{/if}}
	for (size_t i = 0; i < sizeof(aggs) / sizeof(aggs[0]); i++) {
		for (int j = 0; j < metrics.kept[i].n; j++)
			free(metrics.kept[i].labels[j]);
		free(metrics.kept[i].labels);
		free(metric_bases[i].rows);
	}
}
#endif /* TPGEN_NO_METRICS */
