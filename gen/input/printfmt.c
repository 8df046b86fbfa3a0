// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Names for numbers from an event's "print fmt:" line: __print_symbolic and
 * __print_flags tables, and fields printed as addresses. See printfmt.h.
 *
 * The line is tokenized once; every __print_* call is found by its name
 * wherever it sits (an argument, a ternary's branch, inside another call)
 * and read on its own, so a construct tpgen cannot read elsewhere on the
 * line costs nothing. Conversions (%pI4 ...) are matched to arguments by
 * counting, as printf does.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/limits.h"
#include "input/printfmt.h"

struct reader {
	const char *path;
	int line;
	unsigned int base;	/* column of the text's first byte, minus one */
	struct pf_toks *toks;
	int *match;		/* bracket partners, see match_brackets() */
	int warnings;
	unsigned int loc_pos, loc_line, loc_bol;	/* see locate() */
	const struct pf_env *env;
	struct printfmt *pf;
};

/*
 * Line and column of 'pos' (a print fmt's strings may hold newlines), from
 * where the last call left off: warnings come in order, so all of them
 * cost one pass over the text.
 */
static void locate(struct reader *r, unsigned int pos, int *line, int *col)
{
	const char *text = r->toks->text;

	if (pos < r->loc_pos)
		r->loc_pos = r->loc_line = r->loc_bol = 0;
	for (; r->loc_pos < pos && text[r->loc_pos]; r->loc_pos++) {
		if (text[r->loc_pos] == '\n') {
			r->loc_line++;
			r->loc_bol = r->loc_pos + 1;
		}
	}
	*line = r->line + r->loc_line;
	*col = (int)(pos - r->loc_bol + (r->loc_bol ? 0 : r->base) + 1);
}

static void warn(struct reader *r, unsigned int pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void warn(struct reader *r, unsigned int pos, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n, line = 0, col = 0;

	if (++r->warnings > PRINTFMT_MAX_WARNINGS || diag_quiet_warnings || diag_silent)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	msg = xmalloc(n + 1);
	va_start(ap, fmt);
	vsnprintf(msg, n + 1, fmt, ap);
	va_end(ap);
	if (r->line)
		locate(r, pos, &line, &col);
	diag_warning(r->path, line, col, "%s", msg);
	free(msg);
}

static bool opener(const struct pf_toks *toks, int i)
{
	return pf_tok_is(toks, i, '(') || pf_tok_is(toks, i, '{') || pf_tok_is(toks, i, '[');
}

static bool closer(const struct pf_toks *toks, int i)
{
	return pf_tok_is(toks, i, ')') || pf_tok_is(toks, i, '}') || pf_tok_is(toks, i, ']');
}

/*
 * For each bracket its partner's index (-1: none), found once so that every
 * later walk is linear: a line of a million brackets must not take hours.
 */
static int *match_brackets(const struct pf_toks *toks)
{
	int *match = xmalloc(toks->nr * sizeof(*match)), *stack = xmalloc(toks->nr * sizeof(*stack));
	int i, sp = 0;

	for (i = 0; i < toks->nr; i++) {
		match[i] = -1;
		if (opener(toks, i)) {
			stack[sp++] = i;
		} else if (closer(toks, i) && sp) {
			match[i] = stack[--sp];
			match[match[i]] = i;
		}
	}
	free(stack);
	return match;
}

/* The token after the bracket matching the one at i, or -1. */
static int skip_parens(const struct reader *r, int i)
{
	return r->match[i] >= 0 ? r->match[i] + 1 : -1;
}

/* From i, the first ',' outside brackets, or the closing bracket around i, or the end. */
static int arg_end(const struct reader *r, int i)
{
	const struct pf_toks *toks = r->toks;

	while (toks->t[i].kind != PF_TOK_END && !pf_tok_is(toks, i, ',') && !closer(toks, i)) {
		if (opener(toks, i)) {
			if (r->match[i] < 0)
				return i;	/* never closed: stop there */
			i = r->match[i];
		}
		i++;
	}
	return i;
}

static void table_clear(struct pf_table *t)
{
	int i;

	for (i = 0; i < t->nr_entries; i++)
		free(t->entries[i].name);
	free(t->entries);
	free(t->field);
	free(t->sep);
	free(t->zero_name);
	pf_node_free(t->expr);
	memset(t, 0, sizeof(*t));
}

static void last_field(void *ctx, const char *name)
{
	*(const char **)ctx = name;
}

static bool has_name(const struct pf_node *n)
{
	return n && (n->kind == PF_NAME || has_name(n->a) || has_name(n->b) || has_name(n->c));
}

/* A name resolved through the env: a PF_NUM that keeps its name. */
static bool has_resolved(const struct pf_node *n)
{
	return n && ((n->kind == PF_NUM && n->name) || has_resolved(n->a) || has_resolved(n->b) ||
		     has_resolved(n->c));
}

static unsigned int tok_end(const struct pf_toks *toks, int i)
{
	return toks->t[i].pos + toks->t[i].len;
}

/*
 * "cond ? CALL : "str"" around the call at tokens [call, end): when cond
 * is the call's own value, the string is what 0 prints. Sets zero_name
 * and widens the span.
 */
static void read_zero_name(struct reader *r, int call, int end, struct pf_table *t)
{
	struct pf_toks *toks = r->toks;
	struct pf_node *cond = NULL;
	struct pf_tok question;
	unsigned int epos;
	const char *emsg;
	int i, start, next;
	bool same;
	char *s;

	if (call < 2 || !pf_tok_is(toks, call - 1, '?') || !pf_tok_is(toks, end, ':') ||
	    toks->t[end + 1].kind != PF_TOK_STR)
		return;
	/* back to the ',', '?', ':' or open bracket before the condition, over bracketed groups */
	for (i = call - 2; i >= 0; i--) {
		if (closer(toks, i)) {
			if (r->match[i] < 0)
				return;
			i = r->match[i];
		} else if (opener(toks, i) || pf_tok_is(toks, i, ',') || pf_tok_is(toks, i, '?') ||
			   pf_tok_is(toks, i, ':')) {
			break;
		}
	}
	start = i + 1;
	/* the condition alone: the '?' becomes the end for a moment */
	question = toks->t[call - 1];
	toks->t[call - 1] = (struct pf_tok){ .kind = PF_TOK_END, .pos = question.pos };
	i = start;
	same = !pf_parse_expr(toks, &i, r->env, &cond, &epos, &emsg) && i == call - 1 &&
	       pf_node_equal(cond, t->expr);
	toks->t[call - 1] = question;
	pf_node_free(cond);
	if (!same)
		return;
	s = pf_tok_string(toks, end + 1, &next);
	if (!s)
		return;
	if (!pf_tok_is(toks, next, ',') && !pf_tok_is(toks, next, ')') &&
	    toks->t[next].kind != PF_TOK_END) {
		free(s);
		return;
	}
	t->zero_name = s;
	t->start = toks->t[start].pos;
	t->end = toks->t[next - 1].pos + toks->t[next - 1].len;
}

/* At ',' before an entry's name: is the name NULL ("((void *)0)", "NULL")? Then *i is after its '}'. */
static bool is_null(struct reader *r, int *i)
{
	struct pf_node *n = NULL;
	struct pf_val v;
	unsigned int epos;
	const char *emsg;
	int j = *i + 1;
	bool null;

	if (pf_tok_ident(r->toks, j, "NULL") && pf_tok_is(r->toks, j + 1, '}')) {
		*i = j + 2;
		return true;
	}
	if (pf_parse_expr(r->toks, &j, NULL, &n, &epos, &emsg))
		return false;
	null = !pf_eval(n, NULL, NULL, NULL, &v, NULL) && !v.v && pf_tok_is(r->toks, j, '}');
	pf_node_free(n);
	if (null)
		*i = j + 1;
	return null;
}

/* __print_symbolic/__print_flags[_u64] at token 'call'. Returns the token after it. */
static int read_table(struct reader *r, int call)
{
	const struct pf_toks *toks = r->toks;
	const struct pf_tok *name = &toks->t[call];
	const char *fn = toks->text + name->pos, *emsg = NULL, *field = NULL;
	struct pf_table t = { .start = name->pos };
	unsigned int epos = name->pos;
	int i = call + 2, next, cap = 0, err;
	bool ended = false;

	t.kind = !strncmp(fn, "__print_flags", 13) ? PF_FLAGS : PF_SYMBOLIC;
	t.u64 = name->len > 4 && !strncmp(fn + name->len - 4, "_u64", 4);
	next = skip_parens(r, call + 1);
	t.arg_start = toks->t[i].pos;
	if (pf_parse_expr(toks, &i, r->env, &t.expr, &epos, &emsg))
		goto bad;
	t.arg_end = tok_end(toks, i - 1);
	if (has_name(t.expr)) {
		emsg = "a name tpgen cannot resolve";
		goto bad;
	}
	pf_node_fields(t.expr, last_field, &field);
	t.field = field ? xstrdup(field) : NULL;
	t.direct = pf_node_plain_field(t.expr) != NULL;
	if (!pf_tok_is(toks, i, ',')) {
		epos = toks->t[i].pos;
		emsg = "expected ','";
		goto bad;
	}
	i++;
	if (t.kind == PF_FLAGS) {
		if (toks->t[i].kind != PF_TOK_STR || !(t.sep = pf_tok_string(toks, i, &i)) ||
		    !pf_tok_is(toks, i, ',')) {
			epos = toks->t[i].pos;
			emsg = "expected the separator string and ','";
			goto bad;
		}
		i++;
	}
	for (;;) {
		struct pf_node *v = NULL;
		struct pf_val val;
		unsigned int vstart, vend;
		bool from_btf;
		char *s;

		epos = toks->t[i].pos;
		if (!pf_tok_is(toks, i, '{')) {
			emsg = "expected '{ value, \"name\" }'";
			goto bad;
		}
		i++;
		if (pf_tok_is(toks, i, '}')) {
			i++;		/* "{ }": the kernel's terminator, written out */
			ended = true;
			goto next;
		}
		vstart = toks->t[i].pos;
		if (pf_parse_expr(toks, &i, r->env, &v, &epos, &emsg))
			goto bad;
		vend = tok_end(toks, i - 1);
		from_btf = has_resolved(v);
		err = pf_eval(v, r->env, NULL, NULL, &val, &epos);
		pf_node_free(v);
		if (err) {
			emsg = err == -EDOM ? "a value C leaves undefined" :
					      "a value that is not a constant tpgen knows";
			goto bad;
		}
		if (pf_tok_is(toks, i, ',') && toks->t[i + 1].kind != PF_TOK_STR && is_null(r, &i)) {
			ended = true;	/* { 0, ((void *)0) }: the terminator */
			goto next;
		}
		if (!pf_tok_is(toks, i, ',') || toks->t[i + 1].kind != PF_TOK_STR) {
			epos = toks->t[i].pos;
			emsg = "expected ', \"name\"'";
			goto bad;
		}
		s = pf_tok_string(toks, i + 1, &i);
		if (!s || !pf_tok_is(toks, i, '}')) {
			free(s);
			epos = toks->t[i].pos;
			emsg = "expected '\"name\" }'";
			goto bad;
		}
		i++;
		if (ended) {		/* the kernel stops at its terminator */
			free(s);
			goto next;
		}
		if (t.nr_entries == cap) {
			cap = cap ? cap * 2 : 8;
			t.entries = xrealloc(t.entries, cap * sizeof(*t.entries));
		}
		t.entries[t.nr_entries].value = val.v;
		t.entries[t.nr_entries].name = s;
		t.entries[t.nr_entries].from_btf = from_btf;
		t.entries[t.nr_entries].vstart = vstart;
		t.entries[t.nr_entries].vend = vend;
		t.nr_entries++;
next:
		if (pf_tok_is(toks, i, ')'))
			break;
		if (!pf_tok_is(toks, i, ',')) {
			epos = toks->t[i].pos;
			emsg = "expected ',' or ')'";
			goto bad;
		}
		i++;
	}
	if (!t.nr_entries) {		/* __print_symbolic(x, { }): nothing to name */
		table_clear(&t);
		return i + 1;
	}
	if (!t.sep)
		t.sep = t.kind == PF_FLAGS ? xstrdup("") : NULL;
	t.end = toks->t[i].pos + 1;
	t.call_start = t.start;
	t.call_end = t.end;
	read_zero_name(r, call, i + 1, &t);
	r->pf->tables = xrealloc(r->pf->tables, (r->pf->nr_tables + 1) * sizeof(*r->pf->tables));
	r->pf->tables[r->pf->nr_tables++] = t;
	return i + 1;
bad:
	if (!t.field) {
		/* the last REC->field of the first argument, read as tokens */
		int j, e = arg_end(r, call + 2);

		for (j = call + 2; j < e; j++) {
			if (pf_tok_ident(toks, j, "REC") && pf_tok_is(toks, j + 1, PF_ARROW) &&
			    toks->t[j + 2].kind == PF_TOK_IDENT) {
				free(t.field);
				t.field = xstrndup(toks->text + toks->t[j + 2].pos, toks->t[j + 2].len);
			}
		}
	}
	warn(r, epos, "%.*s: %s; %s%s%s stays numeric", (int)name->len, fn, emsg,
	     t.field ? "'" : "", t.field ? t.field : "the value", t.field ? "'" : "");
	r->pf->nr_skipped++;
	table_clear(&t);
	return next > call ? next : call + 1;
}

/* REC->f, &REC->f, (cast)REC->f or __get_dynamic_array(f) spanning tokens [i, end): f's token. */
static int arg_field(const struct pf_toks *toks, int i, int end)
{
	while (i < end && (pf_tok_is(toks, i, '&') || pf_tok_is(toks, i, '('))) {
		int j = i + 1;

		if (pf_tok_is(toks, i, '&')) {
			i++;
			continue;
		}
		while (j < end && (toks->t[j].kind == PF_TOK_IDENT || pf_tok_is(toks, j, '*')))
			j++;
		if (!pf_tok_is(toks, j, ')'))
			return -1;
		i = j + 1;	/* a cast */
	}
	if (pf_tok_ident(toks, i, "REC") && pf_tok_is(toks, i + 1, PF_ARROW) &&
	    toks->t[i + 2].kind == PF_TOK_IDENT && i + 3 == end)
		return i + 2;
	if ((pf_tok_ident(toks, i, "__get_dynamic_array") || pf_tok_ident(toks, i, "__get_rel_dynamic_array")) &&
	    pf_tok_is(toks, i + 1, '(') && toks->t[i + 2].kind == PF_TOK_IDENT &&
	    pf_tok_is(toks, i + 3, ')') && i + 4 == end)
		return i + 2;
	return -1;
}

static void add_addr(struct reader *r, enum pf_addr_kind kind, int ftok, const char *conv,
		     const char *flags, int first, int last)
{
	struct printfmt *pf = r->pf;
	struct pf_addr *a;

	pf->addrs = xrealloc(pf->addrs, (pf->nr_addrs + 1) * sizeof(*pf->addrs));
	a = &pf->addrs[pf->nr_addrs++];
	a->kind = kind;
	a->field = xstrndup(r->toks->text + r->toks->t[ftok].pos, r->toks->t[ftok].len);
	a->flags = xstrdup(flags);
	a->conv = conv ? xstrdup(conv) : NULL;
	a->start = r->toks->t[first].pos;
	a->end = tok_end(r->toks, last);
}

/*
 * The format string's conversions, matched to the arguments (token ranges
 * args[k]..args[k+1]-1, without the commas): %pI4 & co. of plain fields.
 */
static void read_conversions(struct reader *r, const char *fmt, const int *args, int nr_args)
{
	const struct pf_toks *toks = r->toks;
	const char *p = fmt;
	int k = 0;

	while ((p = strchr(p, '%'))) {
		enum pf_addr_kind kind;
		char flags[8] = "", conv[16];
		const char *cstart;
		int n = 0, f;

		p++;
		if (*p == '%') {
			p++;
			continue;
		}
		p += strspn(p, "-+ #0'");
		if (*p == '*') {
			k++;
			p++;
		} else {
			p += strspn(p, "0123456789");
		}
		if (*p == '.') {
			p++;
			if (*p == '*') {
				k++;
				p++;
			} else {
				p += strspn(p, "0123456789");
			}
		}
		p += strspn(p, "hlLqjzZt");
		if (!*p)
			break;
		cstart = p;
		if (*p++ != 'p' || k >= nr_args) {
			k++;
			continue;
		}
		if (*p == 'i')
			flags[n++] = 'i';	/* %pi4: zero-padded; %pi6: no colons */
		if ((*p == 'I' || *p == 'i') && p[1] == '4') {
			kind = PF_ADDR_IPV4;
			for (p += 2; n < 7 && *p && strchr("hnbl", *p); p++)
				flags[n++] = *p;
		} else if ((*p == 'I' || *p == 'i') && p[1] == '6') {
			kind = p[2] == 'c' ? PF_ADDR_IPV6C : PF_ADDR_IPV6;
			p += kind == PF_ADDR_IPV6C ? 3 : 2;
		} else if ((*p == 'I' || *p == 'i') && p[1] == 'S') {
			kind = PF_ADDR_SOCKADDR;
			for (p += 2; n < 7 && *p && strchr("pcfsnhlb", *p); p++)
				flags[n++] = *p;
		} else if (*p == 'M' || *p == 'm') {
			kind = PF_ADDR_MAC;
			n = 0;		/* %pm: no colons; kept as it is written in conv */
			for (p++; n < 7 && (*p == 'R' || *p == 'F'); p++)
				flags[n++] = *p;
		} else if (*p == 'S' || *p == 'B' || *p == 'F') {
			kind = PF_ADDR_KSYM;	/* vsprintf's symbol+0xoff/0xsize: "R", "b" after it */
			for (p++; n < 7 && (*p == 'R' || *p == 'b'); p++)
				flags[n++] = *p;
		} else if (*p == 's' || *p == 'f') {
			kind = PF_ADDR_KSYM_NAME;
			p++;
		} else if (*p == 'x' || *p == 'K' || !isalnum((unsigned char)*p)) {
			kind = PF_ADDR_PTR;	/* a plain %p (hashed by the kernel), %px, %pK */
			if (*p == 'x' || *p == 'K')
				p++;
		} else {
			k++;
			continue;
		}
		flags[n] = '\0';
		snprintf(conv, sizeof(conv), "%.*s", (int)(p - cstart), cstart);
		f = arg_field(toks, args[k], args[k + 1] - 1);
		if (f >= 0)
			add_addr(r, kind, f, conv, flags, args[k], args[k + 1] - 2);
		k++;
	}
}

int printfmt_parse(const char *path, int line, const char *text, const struct pf_env *env,
		   struct printfmt *pf)
{
	struct reader r = { .path = path, .line = line, .env = env, .pf = pf };
	struct pf_toks toks;
	unsigned int bad;
	int *args = NULL, nr_args = 0, i, depth = 0;
	char *fmt;

	memset(pf, 0, sizeof(*pf));
	if (!strncmp(text, "print fmt:", 10)) {
		r.base = 10;
		text += 10;
	}
	if (pf_tokenize(text, &toks, &bad)) {
		if (strstr(text, "__print_") || strchr(text, '%')) {
			toks.text = text;
			r.toks = &toks;
			warn(&r, bad, "cannot read this print fmt; its fields stay numeric");
			pf->nr_skipped++;
		}
		return 0;
	}
	r.toks = &toks;
	r.match = match_brackets(&toks);
	fmt = toks.t[0].kind == PF_TOK_STR ? pf_tok_string(&toks, 0, &i) : NULL;
	if (!fmt) {
		warn(&r, toks.t[0].pos, "print fmt does not start with a format string; its fields stay numeric");
		pf->nr_skipped++;
		free(r.match);
		pf_toks_clear(&toks);
		return 0;
	}
	/* arguments: token ranges between commas at depth 0; args[nr] is one past the last ',' */
	if (pf_tok_is(&toks, i, ',')) {
		int start = ++i;

		for (; toks.t[i].kind != PF_TOK_END; i++) {
			if (pf_tok_is(&toks, i, '(') || pf_tok_is(&toks, i, '{') || pf_tok_is(&toks, i, '['))
				depth++;
			else if (pf_tok_is(&toks, i, ')') || pf_tok_is(&toks, i, '}') || pf_tok_is(&toks, i, ']'))
				depth--;
			else if (!depth && pf_tok_is(&toks, i, ',')) {
				args = xrealloc(args, (nr_args + 2) * sizeof(*args));
				args[nr_args++] = start;
				start = i + 1;
			}
		}
		args = xrealloc(args, (nr_args + 2) * sizeof(*args));
		args[nr_args++] = start;
		args[nr_args] = i + 1;	/* as if a ',' followed the last argument */
	}
	read_conversions(&r, fmt, args, nr_args);
	free(fmt);
	free(args);

	for (i = 1; toks.t[i].kind != PF_TOK_END; i++) {
		const struct pf_tok *t = &toks.t[i];
		static const char *const calls[] = {
			"__print_symbolic", "__print_symbolic_u64", "__print_flags", "__print_flags_u64",
		};
		size_t c;

		if (t->kind != PF_TOK_IDENT || !pf_tok_is(&toks, i + 1, '('))
			continue;
		if (pf_tok_ident(&toks, i, "__print_hex") || pf_tok_ident(&toks, i, "__print_hex_str")) {
			int d = arg_field(&toks, i + 2, arg_end(&r, i + 2));

			if (d >= 0 && skip_parens(&r, i + 1) > 0)
				add_addr(&r, PF_ADDR_HEX, d, NULL,
					 pf_tok_ident(&toks, i, "__print_hex_str") ? "N" : "", i,
					 skip_parens(&r, i + 1) - 1);
			continue;
		}
		for (c = 0; c < ARRAY_SIZE(calls); c++)
			if (pf_tok_ident(&toks, i, calls[c]))
				break;
		if (c < ARRAY_SIZE(calls))
			i = read_table(&r, i) - 1;
	}
	if (r.warnings > PRINTFMT_MAX_WARNINGS && !diag_quiet_warnings)
		diag_warning(path, line, 0, "%d more __print_* calls left numeric", r.warnings - PRINTFMT_MAX_WARNINGS);
	free(r.match);
	pf_toks_clear(&toks);
	return 0;
}

void printfmt_clear(struct printfmt *pf)
{
	int i;

	for (i = 0; i < pf->nr_tables; i++)
		table_clear(&pf->tables[i]);
	free(pf->tables);
	for (i = 0; i < pf->nr_addrs; i++) {
		free(pf->addrs[i].field);
		free(pf->addrs[i].flags);
		free(pf->addrs[i].conv);
	}
	free(pf->addrs);
	memset(pf, 0, sizeof(*pf));
}

const struct pf_table *printfmt_table(const struct printfmt *pf, const char *field)
{
	int i;

	for (i = 0; i < pf->nr_tables; i++)
		if (pf->tables[i].field && !strcmp(pf->tables[i].field, field))
			return &pf->tables[i];
	return NULL;
}

const struct pf_addr *printfmt_addr(const struct printfmt *pf, const char *field)
{
	int i;

	for (i = 0; i < pf->nr_addrs; i++)
		if (!strcmp(pf->addrs[i].field, field))
			return &pf->addrs[i];
	return NULL;
}

int pf_table_value(const struct pf_table *t, pf_field_fn field, void *ctx,
		   unsigned long long *value)
{
	struct pf_val v;
	int err;

	err = pf_eval(t->expr, NULL, field, ctx, &v, NULL);
	if (!err)
		*value = v.v;
	return err;
}
