// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * printfmt_oracle [--write-judge DIR] [--judged FILE] EVENTS_DIR [BTF]:
 * tpgen's print fmt tables (gen/input/printfmt.c, rendered by bpf/tpgen_names.c)
 * against libtraceevent, with the C compiler as the judge of arithmetic.
 *
 * For every event whose print fmt has __print_symbolic/__print_flags:
 *  - the tables: libtraceevent's parsed argument tree has the same tables
 *    in the same order, with the same names, separators and values (a name
 *    the kernel left unexpanded, which libtraceevent reads as 0 or -1, is
 *    resolved by tpgen through BTF and counted "from BTF");
 *  - the names: each table alone becomes the print fmt of a synthetic
 *    event whose argument is a u64 field holding the value tpgen computed;
 *    libtraceevent (tep_print_event) and tpgen (tpgen_print_*) must print
 *    the same string for every test value (0, each table value, values in
 *    no entry, unions of flags, small numbers);
 *  - the arithmetic: the whole call, as the kernel wrote it, is printed by
 *    libtraceevent from records holding the test values in the fields; a
 *    difference is a mismatch unless the C compiler (the judge) computes
 *    what tpgen computes, i.e. libtraceevent evaluates unlike C (it reads
 *    fields zero-extended and computes in 64 bits): such cases are counted
 *    and the first few printed as UNLIKE-C.
 * Values libtraceevent's eval_flag() cannot read (anything not starting
 * with a digit: "-6ULL" reads as -1, enum constants as 0) are given to it
 * as hex numbers; the judge checks them instead.
 *
 * The judge: --write-judge DIR writes DIR/judge.c and DIR/inputs.txt, a
 * program that computes each table's values and argument from the kernel's
 * own text with the C compiler (-DJUDGE_VMLINUX_H='"vmlinux.h"' supplies
 * enum constants and typedefs) over a packed struct laid out as the record,
 * and the argument as pf_emit_c() writes it. Its output on inputs.txt,
 * given back with --judged FILE, is compared with pf_eval() and the values.
 *
 * Fields printed with %pI4/%pI6/%pI6c/%pISpc/%pM are printed by both from
 * records holding test addresses.
 *
 * Prints every disagreement (MISMATCH) and one "printfmt oracle: ..." line;
 * exits 1 on any mismatch.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <traceevent/event-parse.h>

#include "model/model.h"
#include "input/pfbtf.h"
#include "input/printfmt.h"
#include "tpgen_names.h"
#include "lib/util.h"

static int events, tables, from_btf, values, whole, unlike_c, judged_values, bit63, addr_found, addr_convs, addrs, mismatches,
	   skip_undefined, skip_tep, skip_hex, terminators, partial, bit63, addr_found, addr_convs, exprs;
static FILE *judge_c, *judge_in;

#define MAX_REPORT 200

static void mismatch(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void mismatch(const char *path, const char *fmt, ...)
{
	va_list ap;

	if (++mismatches > MAX_REPORT)
		return;
	printf("MISMATCH %s: ", path);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* libtraceevent's tables in the order of the text: an in-order walk of the argument tree */
struct tep_tables {
	struct tep_print_arg *arg[256];
	int nr;
};

static void collect(struct tep_print_arg *a, struct tep_tables *tt)
{
	for (; a; a = a->next) {
		switch (a->type) {
		case TEP_PRINT_FLAGS:
		case TEP_PRINT_SYMBOL:
			if (tt->nr < (int)ARRAY_SIZE(tt->arg))
				tt->arg[tt->nr++] = a;
			break;
		case TEP_PRINT_OP:
			/* op.left and op.right are single args, not lists */
			if (a->op.left) {
				struct tep_print_arg *n = a->op.left->next;

				a->op.left->next = NULL;
				collect(a->op.left, tt);
				a->op.left->next = n;
			}
			if (a->op.right) {
				struct tep_print_arg *n = a->op.right->next;

				a->op.right->next = NULL;
				collect(a->op.right, tt);
				a->op.right->next = n;
			}
			break;
		case TEP_PRINT_TYPE:
			collect(a->typecast.item, tt);
			break;
		case TEP_PRINT_FUNC:
			collect(a->func.args, tt);
			break;
		default:
			break;
		}
	}
}

/* The event's format text from "format:" up to "print fmt:" (fields), and the print fmt line. */
static int split_format(const char *text, char **fields, char **fmt, int *fmt_line)
{
	const char *f = strstr(text, "\nformat:\n"), *p;
	int line = 1;

	p = strstr(text, "\nprint fmt:");
	if (!f || !p)
		return -1;
	for (const char *c = text; c <= p; c++)
		line += *c == '\n';
	*fields = xstrndup(f + 9, p - (f + 9) + 1);
	*fmt = xstrdup(p + 1);		/* to the end: its strings may hold newlines */
	if (**fmt && (*fmt)[strlen(*fmt) - 1] == '\n')
		(*fmt)[strlen(*fmt) - 1] = '\0';
	*fmt_line = line;
	return 0;
}

static const struct tp_field *find_field(const struct tp_event *ev, const char *name)
{
	int i;

	for (i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return &ev->fields[i];
	return NULL;
}

/* the record both sides read */
struct rec {
	const struct tp_event *ev;
	unsigned char data[4096];
	unsigned int size;
};

static bool numeric(const struct tp_field *f)
{
	return f && (f->kind == FIELD_SCALAR || f->kind == FIELD_POINTER) &&
	       (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) && f->offset + f->size <= 4096;
}

static void put(struct rec *r, const struct tp_field *f, unsigned long long v)
{
	unsigned int i;

	for (i = 0; i < f->size; i++)
		r->data[f->offset + i] = v >> (8 * i);
}

static unsigned long long get_raw(const struct rec *r, const struct tp_field *f)
{
	unsigned long long v = 0;
	unsigned int i;

	for (i = 0; i < f->size; i++)
		v |= (unsigned long long)r->data[f->offset + i] << (8 * i);
	return v;
}

static int field_getter(void *ctx, const char *name, struct pf_val *val)
{
	const struct rec *r = ctx;
	const struct tp_field *f = find_field(r->ev, name);

	if (!numeric(f))
		return -1;
	*val = pf_field_val(get_raw(r, f), f->size, f->is_signed);
	return 0;
}

struct fields_ctx {
	const struct tp_event *ev;
	const struct tp_field *f[16];
	int nr;
	bool ok;
};

static void note_field(void *ctx, const char *name)
{
	struct fields_ctx *fc = ctx;
	const struct tp_field *f = find_field(fc->ev, name);

	if (!numeric(f) || fc->nr == 16)
		fc->ok = false;
	else
		fc->f[fc->nr++] = f;
}

/*
 * A synthetic event: the same fields, print fmt "<fmt>", <arg>. The _u64
 * forms become the plain ones, the same with a 64-bit long: libtraceevent
 * 1.7 does not know them.
 */
static struct tep_handle *synthetic(const char *sys, const char *fields, const char *fmt,
				    const char *arg, size_t arg_len, struct tep_event **tev)
{
	struct tep_handle *tep = tep_alloc();
	char *text = xasprintf("name: tpgen_oracle\nID: 4242\nformat:\n%sprint fmt: \"%s\", %.*s\n",
			       fields, fmt, (int)arg_len, arg), *u;

	while ((u = strstr(text, "_u64(")))
		memmove(u, u + 4, strlen(u + 4) + 1);

	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	*tev = NULL;
	if (tep_parse_format(tep, tev, text, strlen(text), sys) || !*tev) {
		tep_free(tep);
		tep = NULL;
	}
	free(text);
	return tep;
}

static char *tep_says(struct tep_handle *tep, struct rec *r)
{
	struct tep_record record = { .data = r->data, .size = r->size };
	struct trace_seq s;
	char *out;

	r->data[0] = 4242 & 0xff;	/* common_type: the synthetic event */
	r->data[1] = 4242 >> 8;
	trace_seq_init(&s);
	tep_print_event(tep, &s, &record, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	out = xstrdup(s.buffer);
	trace_seq_destroy(&s);
	return out;
}

static void tpgen_says(const struct pf_table *t, unsigned long long v, char *buf, size_t size)
{
	struct tpgen_sym syms[512];
	int i, n = t->nr_entries < 512 ? t->nr_entries : 512;

	for (i = 0; i < n; i++)
		syms[i] = (struct tpgen_sym){ t->entries[i].value, t->entries[i].name };
	if (t->zero_name && !v)
		snprintf(buf, size, "%s", t->zero_name);
	else if (t->kind == PF_SYMBOLIC)
		tpgen_print_symbolic(buf, size, syms, n, v);
	else
		tpgen_print_flags(buf, size, syms, n, t->sep, v);
}

/* the values a table is tried with */
static int test_values(const struct pf_table *t, unsigned long long *v, int max)
{
	unsigned long long all = 0, b;
	int n = 0, i;

	v[n++] = 0;
	for (i = 0; i < t->nr_entries && n < max - 8; i++) {
		v[n++] = t->entries[i].value;
		all |= t->entries[i].value;
		if (t->kind == PF_FLAGS && i && n < max - 8)
			v[n++] = t->entries[i].value | t->entries[i - 1].value;
	}
	for (b = 1; b && (all & b); b <<= 1)
		;
	if (t->kind == PF_FLAGS) {
		v[n++] = all;
		if (b)
			v[n++] = all | b;
		if (b)
			v[n++] = b;
	} else {
		for (b = 1; b < 1000; b++) {
			for (i = 0; i < t->nr_entries && t->entries[i].value != b; i++)
				;
			if (i == t->nr_entries)
				break;
		}
		v[n++] = b;
		v[n++] = 0x5a5a;
	}
	for (b = 1; b <= 8 && n < max; b++)
		v[n++] = b;
	return n;
}

static const char *field_c(void *ctx, const char *name)
{
	static char buf[64];
	const struct tp_field *f = find_field(ctx, name);

	snprintf(buf, sizeof(buf), "rd_%c%u(rec, %u)", f->is_signed ? 's' : 'u', f->size * 8, f->offset);
	return buf;
}

/*
 * The judge: a C file with, for each table, the kernel's own text of its
 * argument and values compiled by the C compiler (with vmlinux.h for enum
 * constants and typedefs) over a packed struct laid out as the record, and
 * pf_emit_c()'s text of the same argument.
 */
static void judge_table(int k, const struct tp_event *ev, const char *fmt_text, const struct pf_table *t,
			const struct fields_ctx *fc)
{
	const char *ul = t->u64 ? "unsigned long long" : "unsigned long";
	unsigned int off = 0;
	struct strbuf sb;
	int i;

	fprintf(judge_c, "struct judge_rec%d {\n", k);
	for (i = 0; i < ev->nr_fields; i++) {
		const struct tp_field *f = &ev->fields[i];

		if (!numeric(f) || f->offset < off || strcmp(f->name, f->cname))
			continue;
		if (f->offset > off)
			fprintf(judge_c, "\tunsigned char __pad%u[%u];\n", off, f->offset - off);
		fprintf(judge_c, "\t__%c%u %s;\n", f->is_signed ? 's' : 'u', f->size * 8, f->name);
		off = f->offset + f->size;
	}
	fprintf(judge_c, "\tunsigned char __end;\n} __attribute__((packed));\n\n");
	fprintf(judge_c, "static unsigned long long judge_kernel%d(const unsigned char *rec)\n{\n"
		"\tconst struct judge_rec%d *REC = (const void *)rec;\n\n\t(void)REC;\n"
		"\treturn (%s)(%.*s);\n}\n\n", k, k, ul, (int)(t->arg_end - t->arg_start),
		fmt_text + t->arg_start);
	sb_init(&sb);
	pf_emit_c(&sb, t->expr, field_c, (void *)ev);
	fprintf(judge_c, "static unsigned long long judge_tpgen%d(const unsigned char *rec)\n{\n"
		"\t(void)rec;\n\treturn %s;\n}\n\n", k, sb.buf);
	sb_clear(&sb);
	fprintf(judge_c, "static void judge_put%d(unsigned char *rec, unsigned long long v)\n{\n"
		"\t(void)rec;\n\t(void)v;\n", k);
	for (i = 0; i < fc->nr; i++)
		fprintf(judge_c, "\twr(rec, %u, %u, v);\n", fc->f[i]->offset, fc->f[i]->size);
	fprintf(judge_c, "}\n\nstatic const unsigned long long judge_values%d[] = {\n", k);
	for (i = 0; i < t->nr_entries; i++)
		fprintf(judge_c, "\t(%s)(%.*s),\n", ul, (int)(t->entries[i].vend - t->entries[i].vstart),
			fmt_text + t->entries[i].vstart);
	fprintf(judge_c, "};\n\n");
}

/*
 * The kernel's trace_print_flags_seq_u64() (kernel/trace/trace_output.c),
 * for flags libtraceevent cannot print: does its output differ from 'ours'?
 */
static bool kernel_differs(const struct pf_table *t, unsigned long long flags, const char *ours)
{
	char buf[4096] = "";
	size_t len = 0;
	bool first = true;
	int i;

	if (t->zero_name && !flags)
		return strcmp(t->zero_name, ours);
	for (i = 0; i < t->nr_entries && flags; i++) {
		unsigned long long mask = t->entries[i].value;

		if ((flags & mask) != mask)
			continue;
		flags &= ~mask;
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s", first ? "" : t->sep, t->entries[i].name);
		first = false;
		if (len >= sizeof(buf))
			return true;
	}
	if (flags)
		snprintf(buf + len, sizeof(buf) - len, "%s0x%llx", first ? "" : t->sep, flags);
	return strcmp(buf, ours);
}

/* The judge's results for table k: its values, and the argument for each input. */
struct judged {
	int k;
	int i;				/* 'V': entry; 'E': -1 */
	unsigned long long in, kernel, emitted;
};
static struct judged *judged;
static int nr_judged;

static const struct judged *judged_find(int k, int i, unsigned long long in)
{
	int lo = 0, hi = nr_judged;

	/* sorted by (k, i, in) */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const struct judged *j = &judged[mid];

		if (j->k < k || (j->k == k && (j->i < i || (j->i == i && j->in < in))))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < nr_judged && judged[lo].k == k && judged[lo].i == i && judged[lo].in == in)
		return &judged[lo];
	return NULL;
}

static int judged_cmp(const void *a, const void *b)
{
	const struct judged *x = a, *y = b;

	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	if (x->i != y->i)
		return x->i < y->i ? -1 : 1;
	return x->in < y->in ? -1 : x->in > y->in;
}

static void load_judged(const char *path)
{
	FILE *f = fopen(path, "r");
	char kind;
	int cap = 0;

	if (!f) {
		perror(path);
		exit(2);
	}
	for (;;) {
		struct judged j = { .i = -1 };

		if (fscanf(f, " %c", &kind) != 1)
			break;
		if ((kind == 'V' && fscanf(f, "%d %d %llu", &j.k, &j.i, &j.kernel) != 3) ||
		    (kind == 'E' && fscanf(f, "%d %llu %llu %llu", &j.k, &j.in, &j.kernel, &j.emitted) != 4) ||
		    (kind != 'V' && kind != 'E')) {
			fprintf(stderr, "%s: bad line\n", path);
			exit(2);
		}
		if (nr_judged == cap) {
			cap = cap ? cap * 2 : 4096;
			judged = xrealloc(judged, cap * sizeof(*judged));
		}
		judged[nr_judged++] = j;
	}
	fclose(f);
	qsort(judged, nr_judged, sizeof(*judged), judged_cmp);
}

static void escape_c(struct strbuf *sb, const char *s)
{
	sb_putc(sb, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sb_putc(sb, '\\');
		if ((unsigned char)*s < ' ')
			sb_printf(sb, "\\%03o", (unsigned char)*s);
		else
			sb_putc(sb, *s);
	}
	sb_putc(sb, '"');
}

/*
 * The table alone: its call with the argument replaced by a field
 * (__tpgen_v, after the record) that holds the value tpgen computed, and
 * with values libtraceevent cannot read (enum constants, "-6ULL") as hex.
 */
static struct tep_handle *table_only(const char *sys, const struct tp_event *ev, const char *fields,
				     const char *fmt_text, const struct pf_table *t, bool *hex,
				     unsigned int *voff)
{
	struct strbuf arg, f;
	struct tep_event *tev;
	struct tep_handle *tep;
	unsigned int pos;
	int i;

	*voff = (ev->size + 7) / 8 * 8;
	sb_init(&f);
	sb_printf(&f, "%s\tfield:u64 __tpgen_v;\toffset:%u;\tsize:8;\tsigned:0;\n\n", fields, *voff);
	/* the fields text ends with a blank line: put the new field before it */
	if (f.len > 2 && !strncmp(fields + strlen(fields) - 2, "\n\n", 2)) {
		sb_reset(&f);
		sb_add(&f, fields, strlen(fields) - 1);
		sb_printf(&f, "\tfield:u64 __tpgen_v;\toffset:%u;\tsize:8;\tsigned:0;\n\n", *voff);
	}
	sb_init(&arg);
	if (t->zero_name)
		sb_puts(&arg, "REC->__tpgen_v ? ");
	sb_add(&arg, fmt_text + t->call_start, t->arg_start - t->call_start);
	sb_puts(&arg, "REC->__tpgen_v");
	pos = t->arg_end;
	for (i = 0; i < t->nr_entries; i++) {
		const struct pf_entry *e = &t->entries[i];

		if (!hex[i])
			continue;
		sb_add(&arg, fmt_text + pos, e->vstart - pos);
		sb_printf(&arg, "0x%llx", e->value);
		pos = e->vend;
	}
	sb_add(&arg, fmt_text + pos, t->call_end - pos);
	if (t->zero_name) {
		sb_puts(&arg, " : ");
		escape_c(&arg, t->zero_name);
	}
	tep = synthetic(sys, f.buf, "%s", arg.buf, arg.len, &tev);
	if (!tep)
		printf("NOTE table alone not parsed: %s\n", arg.buf);
	sb_clear(&arg);
	sb_clear(&f);
	return tep;
}

static void check_table(const char *path, const char *sys, const struct tp_event *ev,
			const char *fields, const char *fmt_text, const struct pf_table *t,
			const struct tep_print_arg *ta)
{
	struct fields_ctx fc = { .ev = ev, .ok = true };
	struct tep_handle *tep, *alone;
	struct tep_event *tev;
	struct strbuf arg;
	unsigned long long v[1100];
	unsigned int pos, voff;
	bool hex[512], top_bit = false;
	int i, n, k;

	pf_node_fields(t->expr, note_field, &fc);
	if (!fc.ok || t->nr_entries > 512) {
		skip_tep++;
		printf("SKIP %s: table at %u: a field that is not a number\n", path, t->start);
		return;
	}
	k = exprs++;
	/* values libtraceevent's eval_flag() cannot read go to it as hex */
	for (i = 0; i < t->nr_entries; i++) {
		const struct pf_entry *e = &t->entries[i];

		hex[i] = e->from_btf || (e->value >> 63);
		if (ta) {
			const struct tep_print_flag_sym *fs = ta->type == TEP_PRINT_FLAGS ?
				ta->flags.flags : ta->symbol.symbols;
			int j;

			for (j = 0; j < i && fs; j++)
				fs = fs->next;
			hex[i] = e->from_btf || (fs && !isdigit((unsigned char)fs->value[0]));
		}
		if (nr_judged) {
			const struct judged *j = judged_find(k, i, 0);

			if (!j)
				mismatch(path, "table at %u, entry %d: the judge has no value", t->start, i);
			else if (j->kernel != e->value)
				mismatch(path, "table at %u, entry %d (%s): value 0x%llx, the C compiler says 0x%llx",
					 t->start, i, e->name, e->value, j->kernel);
		}
	}
	if (judge_c)
		judge_table(k, ev, fmt_text, t, &fc);
	/* the call as the kernel wrote it, hex values aside */
	sb_init(&arg);
	pos = t->start;
	for (i = 0; i < t->nr_entries; i++) {
		const struct pf_entry *e = &t->entries[i];

		if (!hex[i])
			continue;
		sb_add(&arg, fmt_text + pos, e->vstart - pos);
		sb_printf(&arg, "0x%llx", e->value);
		pos = e->vend;
	}
	sb_add(&arg, fmt_text + pos, t->end - pos);
	tep = synthetic(sys, fields, "%s", arg.buf, arg.len, &tev);
	sb_clear(&arg);
	alone = table_only(sys, ev, fields, fmt_text, t, hex, &voff);
	if (!tep || !alone) {
		mismatch(path, "libtraceevent cannot parse the table at %u on its own", t->start);
		if (tep)
			tep_free(tep);
		if (alone)
			tep_free(alone);
		return;
	}
	for (i = 0; i < t->nr_entries; i++)
		top_bit |= t->kind == PF_FLAGS && (t->entries[i].value >> 63);
	n = test_values(t, v, ARRAY_SIZE(v));
	for (i = 0; i < n; i++) {
		struct rec r = { .ev = ev, .size = ev->size };
		const struct judged *j = NULL;
		unsigned long long value;
		char ours[4096], *theirs;
		int f;

		for (f = 0; f < fc.nr; f++)
			put(&r, fc.f[f], v[i]);
		if (pf_table_value(t, field_getter, &r, &value)) {
			skip_undefined++;
			continue;
		}
		if (judge_c)
			fprintf(judge_in, "%d %llu\n", k, v[i]);
		if (nr_judged) {
			j = judged_find(k, -1, v[i]);
			if (!j)
				mismatch(path, "table at %u: the judge has no value for 0x%llx", t->start, v[i]);
			else if (j->kernel != value)
				mismatch(path, "%s at %u, record value 0x%llx: tpgen computes 0x%llx, the C compiler 0x%llx",
					 t->field ? t->field : "(no field)", t->start, v[i], value, j->kernel);
			else if (j->emitted != value)
				mismatch(path, "%s at %u, record value 0x%llx: pf_emit_c() gives 0x%llx, pf_eval() 0x%llx",
					 t->field ? t->field : "(no field)", t->start, v[i], j->emitted, value);
			judged_values++;
		}
		tpgen_says(t, value, ours, sizeof(ours));

		/* the table alone, on the value tpgen computed */
		r.size = voff + 8;
		put(&r, &(struct tp_field){ .offset = voff, .size = 8 }, value);
		theirs = tep_says(alone, &r);
		values++;
		if (strcmp(ours, theirs) && top_bit && !kernel_differs(t, value, ours)) {
			bit63++;	/* libtraceevent skips entries with bit 63; the kernel does not */
		} else if (strcmp(ours, theirs)) {
			mismatch(path, "%s at %u, value 0x%llx: tpgen \"%s\", libtraceevent \"%s\"",
				 t->field ? t->field : "(no field)", t->start, value, ours, theirs);
		}
		free(theirs);

		/* the whole call, libtraceevent evaluating the argument itself */
		r.size = ev->size;
		theirs = tep_says(tep, &r);
		whole++;
		if (strcmp(ours, theirs)) {
			if (top_bit && !kernel_differs(t, value, ours)) {
				bit63++;
			} else if (j && j->kernel == value) {
				/* the C compiler sides with tpgen: libtraceevent evaluates unlike C */
				unlike_c++;
				if (unlike_c <= 20)
					printf("UNLIKE-C %s: %s at %u, record value 0x%llx: tpgen and C \"%s\", "
					       "libtraceevent \"%s\"\n", path, t->field ? t->field : "(no field)",
					       t->start, v[i], ours, theirs);
			} else if (!nr_judged) {
				mismatch(path, "%s at %u, record value 0x%llx: tpgen \"%s\", libtraceevent \"%s\" "
					 "(no judge)", t->field ? t->field : "(no field)", t->start, v[i], ours,
					 theirs);
			}
		}
		free(theirs);
	}
	tep_free(tep);
	tep_free(alone);
}

/* libtraceevent's table against tpgen's, entry by entry */
static void compare_table(const char *path, const struct pf_table *t, const struct tep_print_arg *ta)
{
	const struct tep_print_flag_sym *fs = ta->type == TEP_PRINT_FLAGS ? ta->flags.flags : ta->symbol.symbols;
	int i;

	if ((t->kind == PF_FLAGS) != (ta->type == TEP_PRINT_FLAGS))
		mismatch(path, "table at %u: kind", t->start);
	if (t->kind == PF_FLAGS && strcmp(t->sep, ta->flags.delim ? ta->flags.delim : ""))
		mismatch(path, "table at %u: separator \"%s\" vs \"%s\"", t->start, t->sep,
			 ta->flags.delim ? ta->flags.delim : "");
	for (i = 0; fs && i < t->nr_entries; i++, fs = fs->next) {
		const struct pf_entry *e = &t->entries[i];

		if (strcmp(e->name, fs->str))
			mismatch(path, "table at %u, entry %d: name \"%s\" vs \"%s\"", t->start, i, e->name, fs->str);
		if (e->from_btf) {
			from_btf++;	/* libtraceevent reads an enum constant it does not know as 0 or -1 */
		} else if (isdigit((unsigned char)fs->value[0]) || fs->value[0] == '-') {
			unsigned long long tv = fs->value[0] == '-' ? (unsigned long long)strtoll(fs->value, NULL, 0) :
					       strtoull(fs->value, NULL, 0);

			if (tv != e->value)
				mismatch(path, "table at %u, entry %d (%s): value 0x%llx vs %s", t->start, i,
					 e->name, e->value, fs->value);
		} else {
			mismatch(path, "table at %u, entry %d (%s): libtraceevent has the name %s, tpgen 0x%llx "
				 "without BTF", t->start, i, e->name, fs->value, e->value);
		}
	}
	/* the kernel's terminator written out ({ 0, ((void *)0) }) is an entry to libtraceevent */
	if (fs && !fs->next && i == t->nr_entries && (!strcmp(fs->str, "0") || !strcmp(fs->str, "NULL"))) {
		terminators++;
		fs = NULL;
	}
	if (fs || i != t->nr_entries)
		mismatch(path, "table at %u: %d entries in tpgen, more or fewer in libtraceevent (next: %s, %s)",
			 t->start, t->nr_entries, fs ? fs->value : "-", fs ? fs->str : "-");
}

/* test addresses: dotted quads and groups that tell bytes apart, and zero runs */
static void fill_addr(unsigned char *p, unsigned int len, int round)
{
	static const unsigned char v6[3][16] = {
		{ 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 },
		{ 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 },
		{ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 7 },
	};
	unsigned int i;

	for (i = 0; i < len; i++)
		p[i] = len == 16 ? v6[round][i] : (unsigned char)(round * 64 + 7 * i + 1);
}

static void check_addr(const char *path, const char *sys, const struct tp_event *ev, const char *fields,
		       const char *fmt_text, const struct pf_addr *a)
{
	const struct tp_field *f = find_field(ev, a->field);
	struct tep_event *tev;
	struct tep_handle *tep;
	char *conv;
	int round;

	if (a->kind == PF_ADDR_HEX || !f || f->kind != FIELD_ARRAY || strchr(a->flags, 'i') ||
	    strpbrk(a->flags, "hnblfsRF") || f->offset + f->size > 4000) {
		skip_hex++;	/* hex bytes, dynamic arrays, byte-order and padding variants */
		return;
	}
	conv = xasprintf("%%%s", a->conv);
	tep = synthetic(sys, fields, conv, fmt_text + a->start, a->end - a->start, &tev);
	free(conv);
	if (!tep) {
		mismatch(path, "libtraceevent cannot parse %%%s of %s on its own", a->conv, a->field);
		return;
	}
	for (round = 0; round < 3; round++) {
		struct rec r = { .ev = ev, .size = ev->size };
		unsigned char *p = r.data + f->offset;
		char ours[256], *theirs;

		switch (a->kind) {
		case PF_ADDR_IPV4:
			fill_addr(p, 4, round);
			tpgen_print_ipv4(ours, sizeof(ours), p);
			break;
		case PF_ADDR_IPV6:
		case PF_ADDR_IPV6C:
			fill_addr(p, 16, round);
			tpgen_print_ipv6(ours, sizeof(ours), p, a->kind == PF_ADDR_IPV6C);
			break;
		case PF_ADDR_MAC:
			fill_addr(p, 6, round);
			tpgen_print_mac(ours, sizeof(ours), p);
			break;
		default:	/* sockaddr: in, in6, in */
			if (f->size < 16) {
				skip_hex++;
				goto out;
			}
			p[0] = round == 1 && f->size >= 28 ? 10 : 2;	/* AF_INET6 : AF_INET, little-endian */
			p[1] = 0;
			p[2] = 0x1f;					/* port 8080 */
			p[3] = 0x90 + round;
			if (p[0] == 2)
				fill_addr(p + 4, 4, round);
			else
				fill_addr(p + 8, 16, round);
			tpgen_print_sockaddr(ours, sizeof(ours), p, f->size, a->flags);
			break;
		}
		theirs = tep_says(tep, &r);
		addrs++;
		if (strcmp(ours, theirs))
			mismatch(path, "%%%s of %s: tpgen \"%s\", libtraceevent \"%s\"", a->conv, a->field, ours,
				 theirs);
		free(theirs);
	}
out:
	tep_free(tep);
}

static void one(struct tep_handle *tep, struct tp_events *evs, const struct pf_env *env,
		const char *dir, const char *sys, const char *name)
{
	char *path = xasprintf("%s/%s/%s/format", dir, sys, name), *text = NULL, *fields = NULL, *fmt = NULL;
	struct tep_event *tev = NULL;
	struct tep_tables tt = {};
	struct tp_event *ev;
	struct printfmt pf;
	int line, i;
	size_t len;

	if (read_file(path, &text, &len) || !(ev = tp_events_find(evs, sys, name)) ||
	    split_format(text, &fields, &fmt, &line) || !strstr(text, "\nID:"))
		goto out;
	printfmt_parse(path, line, fmt, env, &pf);
	if (!strstr(fmt, "__print_symbolic") && !strstr(fmt, "__print_flags") && !pf.nr_addrs) {
		printfmt_clear(&pf);
		goto out;
	}
	events++;
	if (tep_parse_format(tep, &tev, text, len, sys) || !tev) {
		printf("SKIP %s: libtraceevent cannot parse it\n", path);
		skip_tep++;
		printfmt_clear(&pf);
		goto out;
	}
	collect(tev->print_fmt.args, &tt);
	tables += pf.nr_tables;
	if (tev->flags & TEP_EVENT_FL_FAILED) {
		/* libtraceevent gave up on the line (a ({ statement expression })): tables one by one only */
		printf("PARTIAL %s: libtraceevent cannot read the whole print fmt; tables checked one by one\n",
		       path);
		partial++;
		tt.nr = 0;
		pf.nr_skipped = -1;
	} else if (pf.nr_tables + pf.nr_skipped != tt.nr)
		mismatch(path, "%d tables in libtraceevent, %d in tpgen (%d left numeric)", tt.nr,
			 pf.nr_tables, pf.nr_skipped);
	for (i = 0; i < pf.nr_tables; i++) {
		const struct tep_print_arg *ta = !pf.nr_skipped && i < tt.nr ? tt.arg[i] : NULL;

		if (ta)
			compare_table(path, &pf.tables[i], ta);
		check_table(path, sys, ev, fields, fmt + 10, &pf.tables[i], ta);
	}
	for (i = 0; i < pf.nr_addrs; i++) {
		check_addr(path, sys, ev, fields, fmt + 10, &pf.addrs[i]);
		/* the network addresses the scan below counts (%pS, %ps, %p: tests/t_spec_ksym.sh) */
		addr_found += pf.addrs[i].kind != PF_ADDR_HEX && pf.addrs[i].kind != PF_ADDR_KSYM &&
			      pf.addrs[i].kind != PF_ADDR_KSYM_NAME && pf.addrs[i].kind != PF_ADDR_PTR;
	}
	/* every address conversion of the format string (up to its closing quote) was found */
	{
		const char *p = strchr(fmt, '"'), *e = p ? strstr(p + 1, "\", ") : NULL;
		int n = 0;

		for (; p && e && (p = strstr(p, "%p")) && p < e; p += 2)
			n += ((p[2] == 'I' || p[2] == 'i') && strchr("46S", p[3])) || p[2] == 'M' || p[2] == 'm';
		addr_convs += n;
	}
	printfmt_clear(&pf);
out:
	free(fields);
	free(fmt);
	free(text);
	free(path);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void open_judge(const char *dir)
{
	char *p;

	p = xasprintf("%s/judge.c", dir);
	judge_c = fopen(p, "w");
	free(p);
	p = xasprintf("%s/inputs.txt", dir);
	judge_in = fopen(p, "w");
	free(p);
	if (!judge_c || !judge_in) {
		perror(dir);
		exit(2);
	}
	fputs("/* generated by printfmt_oracle: the kernel's print fmt text compiled as C */\n"
	      "#ifdef JUDGE_VMLINUX_H\n#include JUDGE_VMLINUX_H\n#else\n"
	      "typedef unsigned char u8; typedef unsigned short u16; typedef unsigned int u32;\n"
	      "typedef unsigned long long u64; typedef signed char s8; typedef short s16;\n"
	      "typedef int s32; typedef long long s64;\n"
	      "typedef u8 __u8; typedef u16 __u16; typedef u32 __u32; typedef u64 __u64;\n"
	      "typedef s8 __s8; typedef s16 __s16; typedef s32 __s32; typedef s64 __s64;\n#endif\n\n"
	      "int printf(const char *, ...);\nint scanf(const char *, ...);\n\n"
	      "#define RD(name, type) static type name(const unsigned char *rec, unsigned int off) "
	      "{ type v; __builtin_memcpy(&v, rec + off, sizeof(v)); return v; }\n"
	      "RD(rd_u8, unsigned char) RD(rd_s8, signed char) RD(rd_u16, unsigned short) RD(rd_s16, short)\n"
	      "RD(rd_u32, unsigned int) RD(rd_s32, int) RD(rd_u64, unsigned long long) RD(rd_s64, long long)\n\n"
	      "static void wr(unsigned char *rec, unsigned int off, unsigned int size, unsigned long long v)\n"
	      "{\n\tfor (unsigned int i = 0; i < size; i++)\n\t\trec[off + i] = v >> (8 * i);\n}\n\n",
	      judge_c);
}

static void close_judge(void)
{
	int i;

	fputs("static const struct {\n\tunsigned long long (*kernel)(const unsigned char *);\n"
	      "\tunsigned long long (*tpgen)(const unsigned char *);\n"
	      "\tvoid (*put)(unsigned char *, unsigned long long);\n"
	      "\tconst unsigned long long *values;\n\tunsigned int nr_values;\n} judge[] = {\n", judge_c);
	for (i = 0; i < exprs; i++)
		fprintf(judge_c, "\t{ judge_kernel%d, judge_tpgen%d, judge_put%d, judge_values%d, "
			"sizeof(judge_values%d) / sizeof(judge_values%d[0]) },\n", i, i, i, i, i, i);
	fprintf(judge_c, "\t{ 0 }\n};\n\nint main(void)\n{\n\tunsigned long long v;\n\tint k;\n\n"
		"\tfor (k = 0; k < %d; k++)\n"
		"\t\tfor (unsigned int i = 0; i < judge[k].nr_values; i++)\n"
		"\t\t\tprintf(\"V %%d %%u %%llu\\n\", k, i, judge[k].values[i]);\n"
		"\twhile (scanf(\"%%d %%llu\", &k, &v) == 2) {\n"
		"\t\tunsigned char rec[4096] = { 0 };\n\n"
		"\t\tif (k < 0 || k >= %d)\n\t\t\treturn 1;\n"
		"\t\tjudge[k].put(rec, v);\n"
		"\t\tprintf(\"E %%d %%llu %%llu %%llu\\n\", k, v, judge[k].kernel(rec), judge[k].tpgen(rec));\n"
		"\t}\n\treturn 0;\n}\n", exprs, exprs);
	fclose(judge_c);
	fclose(judge_in);
}

int main(int argc, char **argv)
{
	struct dirent **systems, **evd;
	struct pf_btf *pb = NULL;
	struct btf *btf = NULL;
	struct tep_handle *tep;
	struct tp_events evs;
	struct pf_env env;
	int i, j, ns, ne, a = 1;

	for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
		if (!strcmp(argv[a], "--write-judge"))
			open_judge(argv[a + 1]);
		else if (!strcmp(argv[a], "--judged"))
			load_judged(argv[a + 1]);
		else
			break;
	}
	if (argc - a < 1 || argc - a > 2) {
		fprintf(stderr, "usage: %s [--write-judge DIR] [--judged FILE] EVENTS_DIR [BTF]\n", argv[0]);
		return 2;
	}
	if (argc - a == 2) {
		btf = btf__parse(argv[a + 1], NULL);
		if (!btf) {
			perror(argv[a + 1]);
			return 2;
		}
	}
	pb = pf_btf_new(btf);
	env = pf_btf_env(pb);
	if (tracefs_load(&evs, argv[a])) {
		fprintf(stderr, "%s: tpgen's loader fails on it\n", argv[a]);
		return 2;
	}
	tep = tep_alloc();
	tep_set_long_size(tep, 8);
	ns = scandir(argv[a], &systems, NULL, by_name);
	if (ns < 0) {
		perror(argv[a]);
		return 2;
	}
	for (i = 0; i < ns; i++) {
		char *sd = xasprintf("%s/%s", argv[a], systems[i]->d_name);

		ne = systems[i]->d_name[0] == '.' ? -1 : scandir(sd, &evd, NULL, by_name);
		for (j = 0; j < ne; j++) {
			if (evd[j]->d_name[0] != '.')
				one(tep, &evs, &env, argv[a], systems[i]->d_name, evd[j]->d_name);
			free(evd[j]);
		}
		if (ne >= 0)
			free(evd);
		free(sd);
		free(systems[i]);
	}
	free(systems);
	if (judge_c)
		close_judge();
	tep_free(tep);
	tp_events_clear(&evs);
	pf_btf_free(pb);
	btf__free(btf);
	printf("printfmt oracle: %d events (%d partly read by libtraceevent), %d tables (%d entries from "
	       "BTF, %d terminators), %d values compared alone, %d within the whole call (%d where "
	       "libtraceevent evaluates unlike C), %d checked by the C compiler, %d flags with bit 63 "
	       "checked against the kernel's algorithm, %d of %d address conversions found, %d addresses compared, "
	       "%d mismatches; left out: %d undefined in C, %d not parsed by libtraceevent, %d hex or "
	       "variant conversions\n",
	       events, partial, tables, from_btf, terminators, values, whole, unlike_c, judged_values, bit63, addr_found, addr_convs, addrs,
	       mismatches, skip_undefined, skip_tep, skip_hex);
	return mismatches ? 1 : 0;
}
