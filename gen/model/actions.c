// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What an entry does, resolved in its probe: items of records and keys
 * (values under names), named values (let), values carried between events
 * (save and join, one map per name), and aggregations, every expression typed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/decode.h"
#include "model/prog.h"

/* ---- expressions and items ----------------------------------------------- */

/*
 * A '~' that sees only the first 127 bytes (TPGEN_GLOB_MAX - 1) of a string
 * that can be longer: not a prefix, nor a "*suffix" of a syscall's char *
 * (tpgen_glob_tail() reads its tail). Warned, located at the pattern.
 */
static void warn_cut_globs(struct resolver *r, const struct spec_str *src, const struct expr *e)
{
	const struct pvalue *v;

	if (!e)
		return;
	warn_cut_globs(r, src, e->a);
	warn_cut_globs(r, src, e->b);
	warn_cut_globs(r, src, e->c);
	if (e->op != EX_GLOB || expr_glob_is_prefix(e) || e->a->op != EX_REF || e->a->ref < 0)
		return;
	v = &r->pr->vals[e->a->ref];
	if (v->kind != PV_STR || (v->size && v->size <= 128))
		return;
	if (expr_glob_is_suffix(e) && v->src == PV_USTR && !v->argv)
		return;
	spec_warning(r->p->spec, &src->loc, e->b->off, "this glob sees the first 127 bytes of '%s', which "
		     "can be longer (\"abc*\", and \"*abc\" on a syscall's char *, see all of it)", v->name);
}

/* Parse and type 'src' in the probe; a condition when 'cond'. */
int probe_expr(struct resolver *r, const struct spec_str *src, bool cond, struct expr **out)
{
	int err;

	r->src = src;
	err = expr_parse(r->p->spec, src, out);
	if (!err)
		err = expr_check(*out, r->p->spec, src, cond, value_expr_resolve, r, &r->pr->lits);
	if (!err)
		warn_cut_globs(r, src, *out);
	if (!err && (*out)->op != EX_REF) {
		int *refs = NULL, nr = 0;

		/* a filter, or a computed value: it would read 1 KiB onto a 512-byte BPF stack */
		expr_refs(*out, &refs, &nr);
		for (int i = 0; i < nr && !err; i++)
			if (r->pr->vals[refs[i]].argv) {
				spec_error(r->p->spec, &src->loc, 0, "'%s' is an argument list: it can be printed or "
					   "saved, not tested or computed with", r->pr->vals[refs[i]].name);
				err = -EINVAL;
			}
		free(refs);
	}
	if (err) {
		expr_free(*out);
		*out = NULL;
	}
	return err;
}

/* A C member name from what was written: "exit_code >> 8" -> "exit_code_8" */
static char *member_name(const char *s)
{
	struct strbuf sb;

	sb_init(&sb);
	if (*s >= '0' && *s <= '9')
		sb_putc(&sb, 'v');
	for (; *s; s++) {
		bool id = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
			  *s == '_';

		if (id)
			sb_putc(&sb, *s);
		else if (sb.len && sb.buf[sb.len - 1] != '_')
			sb_putc(&sb, '_');
	}
	while (sb.len && sb.buf[sb.len - 1] == '_')
		sb.buf[--sb.len] = '\0';
	if (!sb.len)
		sb_puts(&sb, "value");
	return sb_steal(&sb);
}

/* A value of an item: a bare name is the value itself; anything else is computed. */
static int item_value(struct resolver *r, const struct spec_item *it, bool str_ok, int *val)
{
	struct expr *e;
	int err;

	err = probe_expr(r, &it->expr, false, &e);
	if (err)
		return err;
	if (e->op == EX_REF) {
		*val = e->ref;
		expr_free(e);
	} else {
		int *refs = NULL, nr = 0;

		/* bytes (an address) are shown or kept whole: no arithmetic on them */
		expr_refs(e, &refs, &nr);
		for (int i = 0; i < nr; i++)
			if (r->pr->vals[refs[i]].kind == PV_BYTES) {
				spec_error(r->p->spec, &it->expr.loc, 0, "'%s' is %u bytes: it can be shown or "
					   "counted by, not computed with", r->pr->vals[refs[i]].name,
					   r->pr->vals[refs[i]].size);
				free(refs);
				expr_free(e);
				return -EINVAL;
			}
		free(refs);
		*val = value_add_expr(r->pr, e, it->label.s ? it->label.s : it->expr.s);
	}
	if (!str_ok && r->pr->vals[*val].kind != PV_INT) {
		spec_error(r->p->spec, &it->expr.loc, 0, "%s needs a number, and '%s' is %s", r->what,
			   it->expr.s, r->pr->vals[*val].kind == PV_STR ? "a string" : "a pointer");
		return -EINVAL;
	}
	return 0;
}

static bool is_libc_macro(const char *s)
{
	static const char *const macros[] = {
		"errno", "stdin", "stdout", "stderr", "NULL", "EOF", "assert", "offsetof", "bool", "true",
		"false", "unix", "linux", "i386", "major", "minor", "makedev", "environ", "signal",
		/* <signal.h>: members of struct sigaction and siginfo_t are macros */
		"sa_handler", "sa_sigaction", "si_pid", "si_uid", "si_timerid", "si_overrun", "si_status",
		"si_utime", "si_stime", "si_value", "si_int", "si_ptr", "si_addr", "si_addr_lsb",
		"si_lower", "si_upper", "si_pkey", "si_band", "si_fd", "si_call_addr", "si_syscall",
		"si_arch",
	};

	for (size_t i = 0; i < ARRAY_SIZE(macros); i++)
		if (!strcmp(s, macros[i]))
			return true;
	return false;
}

/*
 * kstack(N), ustack(N): the stack with at most N frames shown, as bpftrace's
 * kstack(n). Returns N (> 0), 0 for another item, or -EINVAL (reported);
 * the value, "kstack", is written into 'inner' at the same columns.
 */
static int stack_limit(struct resolver *r, const struct spec_item *it, struct spec_item *inner)
{
	const char *s = it->expr.s;
	size_t b = strspn(s, " \t"), open, num, end;
	long n = 0;

	if (strncmp(s + b, "kstack", 6) && strncmp(s + b, "ustack", 6))
		return 0;
	open = b + 6 + strspn(s + b + 6, " \t");
	if (s[open] != '(')
		return 0;
	num = open + 1 + strspn(s + open + 1, " \t");
	for (end = num; s[end] >= '0' && s[end] <= '9' && end - num < 4; end++)
		n = n * 10 + s[end] - '0';
	if (end == num || n < 1 || n > STACK_DEPTH || (s[end] >= '0' && s[end] <= '9')) {
		spec_error(r->p->spec, &it->expr.loc, num, "%.6s(N): N is how many frames to show, 1 to %d",
			   s + b, STACK_DEPTH);
		return -EINVAL;
	}
	end += strspn(s + end, " \t");
	if (s[end] != ')' || s[end + 1 + strspn(s + end + 1, " \t")]) {
		spec_error(r->p->spec, &it->expr.loc, end, s[end] != ')' ? "expected ')' of %.6s(N)" :
			   "%.6s(N) is a whole item: nothing may follow it", s + b);
		return -EINVAL;
	}
	*inner = *it;
	inner->expr.s = xstrdup(s);
	memset(inner->expr.s + b + 6, ' ', strlen(s) - b - 6);
	return (int)n;
}

static void pitem_clear(struct pitem *it);

static bool caller_glob_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '.' || c == '*' || c == '?';
}

/*
 * kcaller, kcaller(GLOB, ...): the first frame of the kernel stack whose
 * function matches none of the globs (perf lock's caller: the first outside
 * the locking functions). Returns 1 and the globs, 0 for another item, or
 * -EINVAL (reported); the value, "kstack", is written into 'inner'.
 */
static int caller_item(struct resolver *r, const struct spec_item *it, struct spec_item *inner, struct pitem *pi)
{
	const char *s = it->expr.s;
	size_t b = strspn(s, " \t"), i = b + 7;

	if (strncmp(s + b, "kcaller", 7) || (s[i] && s[i] != '(' && s[i] != ' ' && s[i] != '\t'))
		return 0;
	i += strspn(s + i, " \t");
	if (s[i] == '(') {
		for (i++;;) {
			size_t g, e;
			char q = 0;

			i += strspn(s + i, " \t");
			if (s[i] == '"' || s[i] == '\'')
				q = s[i++];
			for (g = e = i; caller_glob_char(s[e]); e++)
				;
			if (e == g || (q && s[e] != q)) {
				spec_error(r->p->spec, &it->expr.loc, e, "kcaller(GLOB, ...): a glob of function names "
					   "(letters, digits, '_', '.', '*' and '?'), as in kcaller(_raw_spin_lock*, mutex_lock*)");
				return -EINVAL;
			}
			pi->skip = xrealloc(pi->skip, (pi->nr_skip + 1) * sizeof(*pi->skip));
			pi->skip[pi->nr_skip++] = xstrndup(s + g, e - g);
			i = e + !!q;
			i += strspn(s + i, " \t");
			if (s[i] == ',') {
				i++;
				continue;
			}
			if (s[i] != ')') {
				spec_error(r->p->spec, &it->expr.loc, i, "expected ',' or ')' in kcaller(...)%s",
					   it->expr.loc.style == SPEC_PLAIN ? ": in a [flow, list] a comma ends the item; "
					   "quote it or write one item per line" : "");
				return -EINVAL;
			}
			i++;
			break;
		}
	}
	i += strspn(s + i, " \t");
	if (s[i]) {
		spec_error(r->p->spec, &it->expr.loc, i, "kcaller is a whole item: nothing may follow it");
		return -EINVAL;
	}
	*inner = *it;
	inner->expr.s = xstrdup(s);
	memcpy(inner->expr.s + b, "kstack ", 7);
	memset(inner->expr.s + b + 7, ' ', strlen(s) - b - 7);
	pi->caller = true;
	r->p->any_caller = true;
	return 1;
}

int probe_add_items(struct resolver *r, const struct spec_items *l, struct pitems *out, bool str_ok)
{
	int i, j, val, err, n;

	for (i = 0; i < l->nr; i++) {
		/* print items and keys: shown by name (errno(ret)), byte arrays too */
		bool shown = !strcmp(r->what, "print") || !strcmp(r->what, "count") || !strcmp(r->what, "by");
		const struct spec_item *src = &l->v[i];
		const struct decode *dec = NULL;
		struct spec_item inner;
		char *enum_name = NULL;
		size_t name_off = 0;
		struct pitem *it;
		char *cname;
		int fn = -ENOENT;

		struct pitem caller = {};
		int frames = 0;

		if (shown) {
			frames = stack_limit(r, src, &inner);
			if (!frames)
				frames = caller_item(r, src, &inner, &caller);
			if (frames < 0) {
				pitem_clear(&caller);
				return frames;
			}
			if (caller.caller)
				frames = 0;
		}
		if (shown && !frames && !caller.caller) {
			fn = decode_parse(r, src, &inner, &enum_name, &name_off);
			if (fn == -EINVAL)
				return fn;
			if (fn >= 0)
				src = &inner;
		} else if (frames || caller.caller) {
			src = &inner;
		}
		r->bytes_ok = shown;
		r->want_bytes = fn == DECODE_IPV4 || fn == DECODE_IPV6;
		err = item_value(r, src, str_ok, &val);
		r->bytes_ok = false;
		r->want_bytes = false;
		if (!err && (frames || caller.caller) && !r->pr->vals[val].stack) {
			spec_error(r->p->spec, &l->v[i].expr.loc, 0, "'%s' is not a stack", src->expr.s +
				   strspn(src->expr.s, " \t"));
			err = -EINVAL;
		}
		if (!err && shown)
			err = decode_resolve(r, src, fn, enum_name, name_off, val,
					     r->pr->vals[val].src != PV_EXPR, &dec);
		free(enum_name);
		if (fn >= 0 || frames || caller.caller)
			free(inner.expr.s);
		if (err) {
			pitem_clear(&caller);
			return err;
		}
		if (!l->v[i].label.s) {
			for (j = 0; j < out->nr; j++)
				if (out->v[j].val == val && out->v[j].dec == dec && r->pr->vals[val].src != PV_EXPR &&
				    out->v[j].frames == frames && out->v[j].caller == caller.caller) {
					spec_error(r->p->spec, &l->v[i].expr.loc, 0, "'%s' is listed twice",
						   l->v[i].expr.s);
					return -EINVAL;
				}
		}
		out->v = xrealloc(out->v, (out->nr + 1) * sizeof(*out->v));
		it = &out->v[out->nr++];
		memset(it, 0, sizeof(*it));
		it->val = val;
		it->dec = dec;
		it->frames = frames;
		it->skip = caller.skip;
		it->nr_skip = caller.nr_skip;
		it->caller = caller.caller;
		it->label = xstrdup(l->v[i].label.s ? l->v[i].label.s : l->v[i].expr.s);
		/* errno(ret) is the column ret; errno(ret & 0xff) the column ret_0xff */
		cname = l->v[i].label.s ? xstrdup(l->v[i].label.s) : it->caller ? xstrdup("kcaller") :
			r->pr->vals[val].src == PV_EXPR ? member_name(src->expr.s) : xstrdup(r->pr->vals[val].cname);
		/* not a macro of the C library the loader includes (signal_generate has 'errno') */
		if (is_libc_macro(cname)) {
			char *c = xasprintf("%s_", cname);

			free(cname);
			cname = c;
		}
		/* members of one struct are unique: name_2, name_3 after the first */
		it->cname = xstrdup(cname);
		for (n = 2, j = 0; j < out->nr - 1; j++) {
			if (strcmp(out->v[j].cname, it->cname))
				continue;
			free(it->cname);
			it->cname = xasprintf("%s_%d", cname, n++);
			j = -1;
		}
		free(cname);
		/* a label is shown as written ('major'), whatever its C member became ('major_') */
		it->name = xstrdup(l->v[i].label.s ? l->v[i].label.s : it->cname);
		if (dec && dec->kind == DECODE_USYM) {
			/* the process the address is in, beside it: "<column>_pid" */
			int pid = value_find(r, "PID", 0);
			struct pitem *h;

			if (pid < 0)
				return pid;
			out->v = xrealloc(out->v, (out->nr + 1) * sizeof(*out->v));
			it = &out->v[out->nr - 1];
			h = &out->v[out->nr++];
			memset(h, 0, sizeof(*h));
			h->val = pid;
			h->hidden = true;
			h->label = xasprintf("%s_pid", it->label);
			h->cname = xasprintf("%s_pid", it->cname);
			h->name = xasprintf("%s_pid", it->name);
		}
	}
	return 0;
}

static void pitem_clear(struct pitem *it)
{
	for (int i = 0; i < it->nr_skip; i++)
		free(it->skip[i]);
	free(it->skip);
}

void pitems_clear(struct pitems *l)
{
	for (int i = 0; i < l->nr; i++) {
		free(l->v[i].label);
		free(l->v[i].cname);
		free(l->v[i].name);
		pitem_clear(&l->v[i]);
	}
	free(l->v);
}

/* Keys live on the 512-byte BPF stack: a 1 KiB argument list cannot be one. */
static int check_keys(struct resolver *r, const struct spec_items *l, const struct pitems *keys)
{
	for (int i = 0; i < keys->nr; i++)
		if (r->pr->vals[keys->v[i].val].argv) {
			spec_error(r->p->spec, &l->v[i].expr.loc, 0, "'%s' is an argument list: it can be printed "
				   "or saved, not be a key", l->v[i].expr.s);
			return -EINVAL;
		}
	return 0;
}

static const struct spec_items tid_key = {
	.v = (struct spec_item[]){ { .expr = { .s = "tid" } } },
	.nr = 1,
};

/* ---- save, join, let ------------------------------------------------------ */

int prog_find_set(const struct prog *p, const char *name)
{
	for (int i = 0; i < p->nr_sets; i++)
		if (!strcmp(p->sets[i].name, name))
			return i;
	return -1;
}

static void member_of(struct pvalue *m, const struct pprobe *pr, const struct pvalue *v, const char *cname)
{
	memset(m, 0, sizeof(*m));
	if (v->src == PV_CTX && v->field) {	/* shown as its event's print fmt shows it, once joined */
		m->field = v->field;
		m->field_ev = pr->ev;
	}
	m->kind = v->kind;	/* a saved pointer is still an address, printed in hex */
	m->size = v->kind == PV_PTR ? 8 : v->kind == PV_STR && !v->size ? 256 : v->size;
	m->is_signed = v->is_signed;
	m->stack = v->stack;
	m->argv = v->argv;
	m->user_str = pvalue_user_str(v);
	m->cname = xstrdup(cname);
	m->name = xstrdup(cname);
}

int probe_add_save(struct resolver *r, const struct spec_save *ss)
{
	struct pprobe *pr = r->pr;
	struct prog *p = r->p;
	struct psave *sv;
	struct psaved *set;
	int err, i, s;

	pr->saves = xrealloc(pr->saves, (pr->nr_saves + 1) * sizeof(*pr->saves));
	sv = &pr->saves[pr->nr_saves++];
	memset(sv, 0, sizeof(*sv));
	r->what = "a saved key";
	err = probe_add_items(r, ss->key.nr ? &ss->key : &tid_key, &sv->key, true);
	if (!err)
		err = check_keys(r, ss->key.nr ? &ss->key : &tid_key, &sv->key);
	r->what = "a saved value";
	if (!err)
		err = probe_add_items(r, &ss->values, &sv->values, true);
	if (err)
		return err;
	sv->if_absent = ss->if_absent;
	s = prog_find_set(p, ss->name.s);
	if (s < 0) {
		char *base;

		p->sets = xrealloc(p->sets, (p->nr_sets + 1) * sizeof(*p->sets));
		s = p->nr_sets++;
		set = &p->sets[s];
		memset(set, 0, sizeof(*set));
		set->name = xstrdup(ss->name.s);
		set->first = ss;
		base = xasprintf("%s_saved", ss->name.s);
		set->map = prog_ident(p, base);
		free(base);
		/* the pointer a join declares: no global may take its name */
		set->local = prog_ident(p, ss->name.s);
		base = xasprintf("%s_key", ss->name.s);
		set->key_struct = prog_ident(p, base);
		free(base);
		base = xasprintf("%s_val", ss->name.s);
		set->val_struct = prog_ident(p, base);
		free(base);
		set->keys = xcalloc(sv->key.nr, sizeof(*set->keys));
		set->nr_keys = sv->key.nr;
		for (i = 0; i < sv->key.nr; i++)
			member_of(&set->keys[i], pr, &pr->vals[sv->key.v[i].val], sv->key.v[i].cname);
		set->members = xcalloc(sv->values.nr, sizeof(*set->members));
		set->nr_members = sv->values.nr;
		for (i = 0; i < sv->values.nr; i++)
			member_of(&set->members[i], pr, &pr->vals[sv->values.v[i].val], sv->values.v[i].cname);
	}
	sv->set = s;
	set = &p->sets[s];
	/* saved from another field here: no one print fmt shows it */
	for (i = 0; i < sv->values.nr && i < set->nr_members; i++)
		if (pr->vals[sv->values.v[i].val].src != PV_CTX ||
		    pr->vals[sv->values.v[i].val].field != set->members[i].field)
			set->members[i].field = NULL;
	if (ss->entries > set->entries)
		set->entries = ss->entries;
	/* every save of one name keeps the same values under the same key */
	if (sv->key.nr != set->nr_keys) {
		spec_error(p->spec, &ss->loc, 0, "'%s' is saved with %d key value%s here and %d at line %d",
			   ss->name.s, sv->key.nr, sv->key.nr == 1 ? "" : "s", set->nr_keys, set->first->loc.line);
		return -EINVAL;
	}
	for (i = 0; i < sv->key.nr; i++)
		if ((pr->vals[sv->key.v[i].val].kind == PV_STR) != (set->keys[i].kind == PV_STR)) {
			spec_error(p->spec, &ss->loc, 0, "key %d of '%s' is a %s here, and a %s at line %d",
				   i + 1, ss->name.s, set->keys[i].kind == PV_STR ? "number" : "string",
				   set->keys[i].kind == PV_STR ? "string" : "number", set->first->loc.line);
			return -EINVAL;
		}
	/* key members are the set's, whatever each save calls them */
	for (i = 0; i < sv->key.nr; i++) {
		free(sv->key.v[i].cname);
		sv->key.v[i].cname = xstrdup(set->keys[i].cname);
	}
	if (sv->values.nr != set->nr_members)
		goto mismatch;
	for (i = 0; i < sv->values.nr; i++) {
		int m;

		for (m = 0; m < set->nr_members; m++)
			if (!strcmp(set->members[m].cname, sv->values.v[i].cname))
				break;
		if (m == set->nr_members ||
		    (set->members[m].kind == PV_STR) != (pr->vals[sv->values.v[i].val].kind == PV_STR))
			goto mismatch;
	}
	return 0;
mismatch:
	spec_error(p->spec, &ss->loc, 0, "'%s' saves other values at line %d: every save of a name "
		   "keeps the same values", ss->name.s, set->first->loc.line);
	return -EINVAL;
}

/*
 * A join's key and an optional join's defaults are made before the join
 * looks up its values: they may use what the joins before it found, not
 * its own or later ones.
 */
static int not_joined_yet(struct resolver *r, const struct spec_str *src, int val, const char *what)
{
	const struct pvalue *v = &r->pr->vals[val];
	int *refs = NULL, nr = 0, err = 0;

	if (v->src == PV_SAVED) {
		refs = xcalloc(1, sizeof(*refs));
		refs[nr++] = val;
	} else if (v->src == PV_EXPR) {
		expr_refs(v->expr, &refs, &nr);
	}
	for (int k = 0; k < nr && !err; k++)
		if (r->pr->vals[refs[k]].src == PV_SAVED && r->pr->vals[refs[k]].join >= r->pr->nr_joins - 1) {
			spec_error(r->p->spec, &src->loc, 0, "%s uses '%s', which is not joined yet (a join "
				   "before this one can be used)", what, r->pr->vals[refs[k]].name);
			err = -EINVAL;
		}
	free(refs);
	return err;
}

/*
 * An optional join's defaults: 'member: value', each a member the set
 * saves, of its kind, computed from the event (the joins before this one
 * found what they found; this one and the ones after it have nothing yet).
 */
static int join_defaults(struct resolver *r, const struct spec_join *sj, struct pjoin *j)
{
	const struct psaved *set = &r->p->sets[j->set];
	int i, m, err;

	r->what = "a default";
	err = probe_add_items(r, &sj->defaults, &j->defaults, true);
	if (err)
		return err;
	for (i = 0; i < j->defaults.nr; i++) {
		const struct spec_item *it = &sj->defaults.v[i];
		const struct pvalue *v = &r->pr->vals[j->defaults.v[i].val];

		for (m = 0; m < set->nr_members; m++)
			if (!strcmp(set->members[m].name, it->label.s))
				break;
		if (m == set->nr_members) {
			spec_error(r->p->spec, &it->label.loc, 0, "'%s' saves no '%s'", set->name, it->label.s);
			return -EINVAL;
		}
		for (int k = 0; k < i; k++)
			if (!strcmp(j->defaults.v[k].cname, set->members[m].cname)) {
				spec_error(r->p->spec, &it->label.loc, 0, "'%s' has two defaults", it->label.s);
				return -EINVAL;
			}
		free(j->defaults.v[i].cname);
		j->defaults.v[i].cname = xstrdup(set->members[m].cname);
		if ((v->kind == PV_STR) != (set->members[m].kind == PV_STR) || !v->stack != !set->members[m].stack ||
		    v->argv || set->members[m].argv) {
			spec_error(r->p->spec, &it->expr.loc, 0, "'%s.%s' is %s, and '%s' is not", set->name,
				   it->label.s, set->members[m].argv ? "an argument list" :
				   set->members[m].kind == PV_STR ? "a string" :
				   set->members[m].stack ? "a stack" : "a number", it->expr.s);
			return -EINVAL;
		}
		err = not_joined_yet(r, &it->expr, j->defaults.v[i].val, "a default");
		if (err)
			return err;
	}
	return 0;
}

int probe_add_join(struct resolver *r, const struct spec_join *sj)
{
	struct pprobe *pr = r->pr;
	struct prog *p = r->p;
	const struct spec_items *keys;
	struct pjoin *j;
	int s, err, i;

	s = prog_find_set(p, sj->name.s);
	if (s < 0) {
		spec_error(p->spec, sj->key.nr ? &sj->loc : &sj->name.loc, 0,
			   "no 'save' names '%s' (an entry that comes first must save it)", sj->name.s);
		return -EINVAL;
	}
	for (i = 0; i < pr->nr_joins; i++)
		if (pr->joins[i].set == s) {
			spec_error(p->spec, &sj->name.loc, 0, "'%s' is joined twice here", sj->name.s);
			return -EINVAL;
		}
	pr->joins = xrealloc(pr->joins, (pr->nr_joins + 1) * sizeof(*pr->joins));
	j = &pr->joins[pr->nr_joins++];
	memset(j, 0, sizeof(*j));
	j->set = s;
	p->sets[s].joined = true;
	r->what = "a join key";
	keys = sj->key.nr ? &sj->key : &tid_key;	/* none written: the thread's */
	err = probe_add_items(r, keys, &j->key, true);
	if (!err)
		err = check_keys(r, keys, &j->key);
	for (i = 0; i < j->key.nr && !err; i++)
		err = not_joined_yet(r, &keys->v[i].expr, j->key.v[i].val, "a join key");
	if (err)
		return err;
	if (j->key.nr != p->sets[s].nr_keys) {
		spec_error(p->spec, &sj->loc, 0, "'%s' is saved under %d key value%s, and joined with %d",
			   sj->name.s, p->sets[s].nr_keys, p->sets[s].nr_keys == 1 ? "" : "s", j->key.nr);
		return -EINVAL;
	}
	for (i = 0; i < j->key.nr; i++)
		if ((pr->vals[j->key.v[i].val].kind == PV_STR) != (p->sets[s].keys[i].kind == PV_STR)) {
			spec_error(p->spec, &sj->loc, 0, "key %d of '%s' is a %s where it is saved",
				   i + 1, sj->name.s, p->sets[s].keys[i].kind == PV_STR ? "string" : "number");
			return -EINVAL;
		}
	for (i = 0; i < j->key.nr; i++) {
		free(j->key.v[i].cname);
		j->key.v[i].cname = xstrdup(p->sets[s].keys[i].cname);
	}
	j->local = xstrdup(p->sets[s].local);
	j->del = !sj->keep;
	j->optional = sj->optional;
	if (sj->optional && !p->sets[s].absent_map) {
		char *base = xasprintf("%s_absent", sj->name.s);

		p->sets[s].absent_map = prog_ident(p, base);
		free(base);
	}
	return join_defaults(r, sj, j);
}

int probe_add_let(struct resolver *r, const struct spec_let *sl)
{
	static const char *const taken[] = { "ctx", "args", "e", "key", "val", "zero", "slot", "err" };
	struct pprobe *pr = r->pr;
	struct plet *l;
	struct expr *e;
	int err;

	for (size_t i = 0; i < ARRAY_SIZE(taken); i++)
		if (!strcmp(sl->name.s, taken[i]) || !strncmp(sl->name.s, "buf_", 4) ||
		    !strncmp(sl->name.s, "tpgen_", 6)) {
			spec_error(r->p->spec, &sl->name.loc, 0, "'%s' is a name the generated handler uses; "
				   "choose another", sl->name.s);
			return -EINVAL;
		}
	if (value_find(r, sl->name.s, 0) >= 0 || prog_find_set(r->p, sl->name.s) >= 0) {
		spec_error(r->p->spec, &sl->name.loc, 0, "'%s' is already a value here; choose another name",
			   sl->name.s);
		return -EINVAL;
	}
	r->what = "let";
	err = probe_expr(r, &sl->expr, false, &e);
	if (err)
		return err;
	if (e->t.kind == ET_STR) {
		spec_error(r->p->spec, &sl->expr.loc, 0, "'let' names numbers, and '%s' is a string", sl->expr.s);
		expr_free(e);
		return -EINVAL;
	}
	pr->lets = xrealloc(pr->lets, (pr->nr_lets + 1) * sizeof(*pr->lets));
	l = &pr->lets[pr->nr_lets++];
	memset(l, 0, sizeof(*l));
	l->name = xstrdup(sl->name.s);
	l->local = xstrdup(sl->name.s);
	l->expr = e;
	l->type.kind = e->t.is_ptr ? PV_PTR : PV_INT;	/* a named pointer is still no number */
	l->type.size = e->t.size;
	l->type.is_signed = e->t.is_signed;
	return 0;
}

/* ---- aggregations ---------------------------------------------------------- */

static int agg_value(struct resolver *r, const struct spec_str *src, const char *what)
{
	struct spec_item it = { .expr = *src };
	int val, err;

	r->what = what;
	err = item_value(r, &it, false, &val);
	if (!err && r->pr->vals[val].stack) {
		spec_error(r->p->spec, &src->loc, 0, "%s needs a number, and '%s' is a stack (a key of "
			   "'by', or printed)", what, src->s);
		return -EINVAL;
	}
	return err ? err : val;
}

static char *agg_title(const struct pprobe *pr, const struct pagg *a, const struct spec_agg *sa)
{
	struct strbuf sb;
	const char *sep = "";

	if (sa->name.s)
		return xstrdup(sa->name.s);
	sb_init(&sb);
	sb_printf(&sb, "%s: ", pr->sp->event.s);
	if (sa->legacy && (a->fns & AGG_HIST)) {
		sb_puts(&sb, sa->val[AGG_HIST_BIT].s);
		return sb_steal(&sb);
	}
	for (int f = 0; f < AGG_NR_FNS; f++) {
		const char *src = sa->val[f].s;

		if (!(sa->fns & (1u << f)))
			continue;
		sb_printf(&sb, "%s%s%s%s%s", sep, agg_fns[f].name, src ? "(" : "", src ? src : "", src ? ")" : "");
		sep = ", ";
	}
	for (int i = 0; i < a->keys.nr; i++)
		if (!a->keys.v[i].hidden)
			sb_printf(&sb, "%s%s", i ? ", " : " by ", a->keys.v[i].label);
	return sb_steal(&sb);
}

/* The row's column called 'name': a named one (its index), a function's (-1 - its bit), or -ENOENT. */
static int col_find(const struct pagg *a, const char *name)
{
	unsigned int named = 0;

	for (int j = 0; j < a->nr_cols; j++) {
		named |= a->cols[j].fn;
		if (!strcmp(a->cols[j].name, name))
			return j;
	}
	for (int f = 0; f < AGG_NR_FNS; f++)
		if ((a->fns & (1u << f) & ~named) && agg_fns[f].heading && !strcmp(agg_fns[f].name, name))
			return -1 - f;
	return -ENOENT;
}

/* "count, sum, frag": the row's columns, for an error */
static void col_names(struct strbuf *sb, const struct pagg *a)
{
	unsigned int named = 0;
	const char *sep = "";

	for (int j = 0; j < a->nr_cols; j++)
		named |= a->cols[j].fn;
	for (int f = 0; f < AGG_NR_FNS; f++)
		if ((a->fns & (1u << f) & ~named) && agg_fns[f].heading) {
			sb_printf(sb, "%s%s", sep, agg_fns[f].name);
			sep = ", ";
		}
	for (int j = 0; j < a->nr_cols; j++) {
		sb_printf(sb, "%s%s", sep, a->cols[j].name);
		sep = ", ";
	}
}

/*
 * A derived column's expression: + - * / ( ) of numbers and the row's
 * columns, the functions' and the named ones before it.
 */
static int derive_check(struct resolver *r, struct pagg *a, int self, struct expr *e)
{
	const struct spec_col *sc = a->cols[self].sc;
	const struct spec *spec = r->p->spec;
	int j, err;

	switch (e->op) {
	case EX_NUM:
		return 0;
	case EX_NEG:
	case EX_POS:
		return derive_check(r, a, self, e->a);
	case EX_ADD:
	case EX_SUB:
	case EX_MUL:
	case EX_DIV:
		err = derive_check(r, a, self, e->a);
		return err ? err : derive_check(r, a, self, e->b);
	case EX_REF:
		j = col_find(a, e->text);
		if (j == self) {
			spec_error(spec, &sc->val.loc, e->off, "derived column '%s' refers to itself", sc->name.s);
			return -EINVAL;
		}
		if (j > self && a->cols[j].kind == PCOL_DERIVED) {
			spec_error(spec, &sc->val.loc, e->off, "'%s' is a derived column written after '%s': a "
				   "derived column uses those before it", e->text, sc->name.s);
			return -EINVAL;
		}
		if (j == -ENOENT) {
			struct strbuf sb;

			sb_init(&sb);
			col_names(&sb, a);
			spec_error(spec, &sc->val.loc, e->off, "unknown column '%s' in derived column '%s' (the "
				   "row's columns: %s)", e->text, sc->name.s, sb.buf);
			sb_clear(&sb);
			return -EINVAL;
		}
		e->ref = j;
		return 0;
	default:
		spec_error(spec, &sc->val.loc, e->off, "a derived column is made of + - * / ( ), numbers and "
			   "the row's columns; '%s' is none of these", e->text ? e->text : expr_op_text(e->op));
		return -EINVAL;
	}
}

/* The named and derived columns of an aggregate (struct spec_col), after its functions' values. */
static int agg_cols(struct resolver *r, struct pagg *a)
{
	const struct spec_agg *sa = a->sa;
	struct pprobe *pr = r->pr;
	unsigned int named = 0;
	int err;

	a->cols = xcalloc(sa->nr_cols ? sa->nr_cols : 1, sizeof(*a->cols));
	for (int i = 0; i < sa->nr_cols; i++) {
		const struct spec_col *sc = &sa->cols[i];
		struct pcol *c = &a->cols[a->nr_cols++];
		static const unsigned int own[] = {
			[PCOL_COUNT] = AGG_COUNT, [PCOL_SUM] = AGG_SUM, [PCOL_AT] = AGG_MAX_AT, [PCOL_DERIVED] = 0,
		};

		c->sc = sc;
		c->name = sc->name.s;
		c->kind = (enum pcol_kind)sc->kind;
		c->val = -1;
		c->after = c->kind == PCOL_DERIVED ? AGG_MAX_AT : own[c->kind];
		for (int k = 0; k < a->keys.nr; k++)
			if (!a->keys.v[k].hidden && !strcmp(a->keys.v[k].name, c->name)) {
				spec_error(r->p->spec, &sc->name.loc, 0, "column '%s' has the name of a key of 'by': "
					   "choose another", c->name);
				return -EINVAL;
			}
		if (c->kind == PCOL_DERIVED)
			continue;
		/* the first count of true, the first sum and max_at: the function's own column */
		if (!(named & own[c->kind]) && (c->kind != PCOL_COUNT || !sc->val.s)) {
			c->fn = own[c->kind];
			named |= c->fn;
			c->val = c->fn == AGG_COUNT ? -1 : a->val[c->fn == AGG_SUM ? AGG_SUM_BIT : AGG_MAX_AT_BIT];
		} else if (sc->val.s) {
			err = c->val = agg_value(r, &sc->val, c->kind == PCOL_COUNT ? "a count's condition" :
						 c->kind == PCOL_SUM ? "sum" : "max_at");
			if (err < 0)
				return err;
		}
		c->is_signed = c->kind != PCOL_COUNT && c->val >= 0 && pr->vals[c->val].is_signed;
		if (!c->fn)
			c->cname = xasprintf("col_%s", c->name);
	}
	for (int i = 0; i < a->nr_cols; i++) {
		struct pcol *c = &a->cols[i];
		char *base;

		if (c->kind != PCOL_DERIVED)
			continue;
		err = expr_parse(r->p->spec, &c->sc->val, &c->expr);
		if (!err)
			err = derive_check(r, a, i, c->expr);
		if (err)
			return err;
		base = xasprintf("derive_%s_%s", a->map, c->name);
		c->derive_fn = prog_ident(r->p, base);
		free(base);
		r->p->any_derived = true;
	}
	r->p->any_cols |= a->nr_cols > 0;
	return 0;
}

/* The aggregate named 'name' an entry resolved before, or NULL. */
static struct pagg *find_table(struct prog *p, const struct pagg *a);

/*
 * A key of one number whose values the kernel names (a print fmt's
 * symbols, an enum, the syscall table), all of them small: the rows of
 * those values are a global array (struct pagg's rows). Its size: the
 * largest named value + 1, at most TPGEN_ROWS_MAX rows and
 * TPGEN_ROWS_BYTES bytes; 0: a map alone.
 */
#define TPGEN_ROWS_MAX		1024
#define TPGEN_ROWS_BYTES	65536

/* The bytes of an aggregate's value, as gen/emit/emit_maps.c declares it: __u64 members. */
static size_t agg_val_size(const struct pagg *a)
{
	size_t n = 0;

	for (int f = 0; f < AGG_NR_FNS; f++) {
		if (!(a->fns & (1u << f)))
			continue;
		if (agg_fns[f].type == AGG_M_U64 || agg_fns[f].type == AGG_M_VALUE)
			n += 8;
		else if (agg_fns[f].type == AGG_M_SLOTS)
			n += 8 * (size_t)a->nslots;
		if (agg_fns[f].metrics_sum)
			n += 8;
	}
	for (int j = 0; j < a->nr_cols; j++)
		n += a->cols[j].cname ? 8 : 0;
	return n;
}

static unsigned int key_rows(const struct pprobe *pr, const struct pagg *a, size_t val_size)
{
	const struct pitem *k = a->keys.nr == 1 ? &a->keys.v[0] : NULL;
	const struct pvalue *v = k ? &pr->vals[k->val] : NULL;
	unsigned long long max = 0;

	if (!k || v->kind != PV_INT || v->stack || !k->dec || k->dec->value_c || !k->dec->nr_syms ||
	    (k->dec->kind != DECODE_SYMBOLIC && k->dec->kind != DECODE_SYSCALL))
		return 0;
	for (int i = 0; i < k->dec->nr_syms; i++)
		if (k->dec->syms[i].value > max)
			max = k->dec->syms[i].value;
	if (max >= TPGEN_ROWS_MAX || (max + 1) * val_size > TPGEN_ROWS_BYTES)
		return 0;
	return max + 1;
}

/*
 * Whether an aggregate's first rows are an array (struct pagg's rows): as
 * a global, only when it counts or histograms and has no min or max; a
 * table's other entries index the same array.
 */
static void agg_rows(struct resolver *r, struct pagg *a)
{
	const struct pagg *t;
	char *base;

	if (a->feeder) {
		t = find_table(r->p, a);
		if (t && t->rows) {
			a->rows = t->rows;
			a->rows_ident = xstrdup(t->rows_ident);
			a->rows_signed = t->rows_signed;
		}
		return;
	}
	if (!(a->fns & (AGG_COUNT | AGG_HIST | AGG_LHIST)) || (a->fns & (AGG_MIN | AGG_MAX)))
		return;
	a->rows = key_rows(r->pr, a, agg_val_size(a));
	if (!a->rows)
		return;
	a->rows_signed = r->pr->vals[a->keys.v[0].val].is_signed;
	base = xasprintf("%s_rows", a->map);
	a->rows_ident = prog_ident(r->p, base);
	free(base);
}

/* The aggregate named 'name' an entry resolved before, or NULL. */
static struct pagg *find_table(struct prog *p, const struct pagg *a)
{
	for (int i = 0; i < p->nr_probes; i++)
		for (int k = 0; k < p->probes[i].nr_aggs; k++) {
			struct pagg *t = &p->probes[i].aggs[k];

			if (t == a)
				return NULL;
			if (!t->feeder && !t->sa->legacy && t->sa->name.s && !strcmp(t->sa->name.s, a->sa->name.s))
				return t;
		}
	return NULL;
}

static const char *key_kind(const struct pvalue *v)
{
	return v->stack ? "a stack" : v->kind == PV_STR ? "a string" : v->kind == PV_BYTES ? "bytes" : "a number";
}

/*
 * Aggregates of one name, on one event or several, are one table: the
 * first one resolved declares it; the others add to it (or subtract) with
 * the same functions under keys of the same kinds, members named as its.
 */
static int share_table(struct resolver *r, struct pagg *a)
{
	const struct spec_agg *sa = a->sa;
	struct prog *p = r->p;
	struct pprobe *tp = NULL;
	struct pagg *t;

	if (sa->legacy || !sa->name.s)
		return 0;
	t = find_table(p, a);
	if (!t)
		return 0;
	for (int i = 0; i < p->nr_probes && !tp; i++)
		if (t >= p->probes[i].aggs && t < p->probes[i].aggs + p->probes[i].nr_aggs)
			tp = &p->probes[i];
	if (t->fns != a->fns || t->lmin != sa->lmin || t->lstep != sa->lstep || t->nslots != a->nslots) {
		spec_error(p->spec, &sa->loc, 0, "'%s' is a table at line %d with other functions: an aggregate "
			   "of the same name adds to it, with the same ones (or give this one another name)",
			   sa->name.s, t->sa->loc.line);
		return -EINVAL;
	}
	for (int j = 0; j <= a->nr_cols; j++) {
		const struct pcol *c = j < a->nr_cols ? &a->cols[j] : NULL, *tc = j < t->nr_cols ? &t->cols[j] : NULL;

		if (!c && !tc)
			break;
		if (!c || !tc || strcmp(c->name, tc->name) || c->kind != tc->kind || c->fn != tc->fn ||
		    (c->kind == PCOL_DERIVED && (strcmp(c->sc->val.s, tc->sc->val.s) ||
						 c->sc->decimals != tc->sc->decimals ||
						 c->sc->percent != tc->sc->percent))) {
			spec_error(p->spec, &sa->loc, 0, "'%s' is a table at line %d with other columns: an "
				   "aggregate of the same name has the same ones, named and derived alike, in the "
				   "same order", sa->name.s, t->sa->loc.line);
			return -EINVAL;
		}
	}
	if (t->keys.nr != a->keys.nr) {
		spec_error(p->spec, &sa->loc, 0, "'%s' is a table at line %d by %d key%s, and this one has %d",
			   sa->name.s, t->sa->loc.line, t->keys.nr, t->keys.nr == 1 ? "" : "s", a->keys.nr);
		return -EINVAL;
	}
	for (int i = 0; i < a->keys.nr; i++) {
		const struct pvalue *tv = &tp->vals[t->keys.v[i].val], *v = &r->pr->vals[a->keys.v[i].val];

		if (strcmp(key_kind(tv), key_kind(v)) || (v->kind == PV_BYTES && v->size != tv->size) ||
		    tv->stack != v->stack) {
			spec_error(p->spec, &sa->by.v[i].expr.loc, 0, "key %d of '%s' is %s at line %d, and '%s' "
				   "is %s", i + 1, sa->name.s, key_kind(tv), t->sa->loc.line, sa->by.v[i].expr.s,
				   key_kind(v));
			return -EINVAL;
		}
		free(a->keys.v[i].cname);
		a->keys.v[i].cname = xstrdup(t->keys.v[i].cname);
	}
	free(a->map);
	free(a->key_struct);
	free(a->val_struct);
	a->map = xstrdup(t->map);
	a->key_struct = t->key_struct ? xstrdup(t->key_struct) : NULL;
	a->val_struct = xstrdup(t->val_struct);
	a->feeder = true;
	t->running |= a->subtract;
	/* what is taken back may pass what was added (a free of what came before): shown signed */
	if (t->running) {
		t->is_signed |= AGG_COUNT | AGG_SUM;
		for (int j = 0; j < t->nr_cols; j++)
			t->cols[j].is_signed |= t->cols[j].kind == PCOL_COUNT || t->cols[j].kind == PCOL_SUM;
	}
	t->added |= !a->subtract;
	t->stack_labels |= a->stack_labels;	/* any entry's metrics: is the table's */
	return 0;
}

int prog_check_tables(const struct prog *p)
{
	for (int i = 0; i < p->nr_probes; i++)
		for (int k = 0; k < p->probes[i].nr_aggs; k++) {
			const struct pagg *t = &p->probes[i].aggs[k];

			if (!t->feeder && !t->added) {
				spec_error(p->spec, &t->sa->loc, 0, "nothing adds to '%s', which this entry subtracts "
					   "from: an aggregate of the same name without subtract adds", t->sa->name.s);
				return -EINVAL;
			}
		}
	return 0;
}

int probe_add_agg_as(struct resolver *r, const struct spec_agg *sa, const char *name)
{
	struct pprobe *pr = r->pr;
	struct prog *p = r->p;
	int err, sum_from = AGG_SUM_BIT;
	struct pagg *a;
	char *base;

	pr->aggs = xrealloc(pr->aggs, (pr->nr_aggs + 1) * sizeof(*pr->aggs));
	a = &pr->aggs[pr->nr_aggs++];
	memset(a, 0, sizeof(*a));
	a->sa = sa;
	a->hist = -1;
	a->fns = sa->fns;
	r->what = sa->legacy ? "count" : "by";
	err = probe_add_items(r, &sa->by, &a->keys, true);
	if (!err)
		err = check_keys(r, &sa->by, &a->keys);
	if (err)
		return err;
	if (sa->stacks.s) {
		for (int i = 0; i < a->keys.nr && !a->stack_labels; i++)
			a->stack_labels = pr->vals[a->keys.v[i].val].stack && !a->keys.v[i].caller;
		if (!a->stack_labels) {
			spec_error(p->spec, &sa->stacks.loc, 0, "stacks: folded makes the aggregate's stacks "
				   "labels, and it has none among its keys (by: [comm, kstack])");
			return -EINVAL;
		}
	}
	for (int f = 0; f < AGG_NR_FNS; f++) {
		const struct agg_fn_desc *fn = &agg_fns[f];

		a->val[f] = -1;
		if (!(sa->fns & (1u << f)) || fn->arg == AGG_ARG_BOOL)
			continue;
		a->fns |= fn->needs;
		if ((fn->needs & AGG_SUM) && a->val[AGG_SUM_BIT] >= 0) {
			/* avg, stddev: of the values sum adds up, the sum's or the first one's */
			if (strcmp(sa->val[sum_from].s, sa->val[f].s)) {
				spec_error(p->spec, &sa->val[f].loc, 0, "%s is of the values sum adds up: give it the "
					   "value of '%s' (%s), or put it in an aggregate of its own", fn->name,
					   agg_fns[sum_from].name, sa->val[sum_from].s);
				return -EINVAL;
			}
			a->val[f] = a->val[AGG_SUM_BIT];
			continue;
		}
		err = a->val[f] = agg_value(r, &sa->val[f], fn->name);
		if (err < 0)
			return err;
		if (fn->needs & AGG_SUM) {
			a->val[AGG_SUM_BIT] = a->val[f];
			sum_from = f;
		}
		if (fn->type == AGG_M_SLOTS)
			a->hist = a->val[f];
	}
	a->nslots = sa->fns & AGG_LHIST ? (sa->lmax - sa->lmin + sa->lstep - 1) / sa->lstep + 2 : 64;
	a->unit = sa->unit.s ? sa->unit.s : a->hist >= 0 ? pr->vals[a->hist].name : "";
	if (name)
		base = xstrdup(name);
	else if (sa->legacy)
		base = xasprintf("%s_%s", pr->pname, sa->fns & AGG_HIST ? "hist" : "counts");
	else if (sa->name.s) {
		base = member_name(sa->name.s);	/* "hard IRQ time (usecs)" -> hard_irq_time_usecs */
		for (char *c = base; *c; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c += 'a' - 'A';
	} else
		base = xasprintf("%s_agg", pr->pname);
	a->map = prog_ident(p, base);
	free(base);
	if (a->keys.nr) {
		base = xasprintf("%s_key", a->map);
		a->key_struct = prog_ident(p, base);
		free(base);
	}
	base = xasprintf("%s_val", a->map);
	a->val_struct = prog_ident(p, base);
	free(base);
	a->title = agg_title(pr, a, sa);
	err = agg_cols(r, a);
	if (err)
		return err;
	a->subtract = sa->subtract;
	a->running = sa->subtract;
	a->added = !sa->subtract;
	p->any_running_agg |= sa->subtract;
	err = share_table(r, a);
	if (err)
		return err;
	a->lmin = sa->lmin;
	a->lstep = sa->lstep;
	a->top = sa->top;
	for (int f = 0; f < AGG_NR_FNS; f++) {
		if (!agg_fns[f].heading || !(a->fns & (1u << f)))
			continue;
		if (sa->sort.s ? !strcmp(sa->sort.s, agg_fns[f].name) : !a->sort)
			a->sort = 1u << f;	/* the one named, or the first: count, then sum, ... */
		if (agg_fns[f].type == AGG_M_VALUE && pr->vals[a->val[f]].is_signed)
			a->is_signed |= 1u << f;
	}
	/* a signed value's negatives are all in the last log2 slot: the loader shows it as '< 0' */
	if ((a->fns & AGG_HIST) && pr->vals[a->val[AGG_HIST_BIT]].is_signed)
		a->is_signed |= AGG_HIST;
	for (int j = 0; j < a->nr_cols; j++) {
		struct pcol *c = &a->cols[j];

		if (a->running && (c->kind == PCOL_COUNT || c->kind == PCOL_SUM))
			c->is_signed = true;
		if (sa->sort.s && !strcmp(sa->sort.s, c->name)) {
			a->sort = c->fn;	/* a function's own column: its function */
			a->sort_col = c->fn ? 0 : j + 1;
		}
	}
	if (!a->sort && !a->sort_col && !sa->sort.s && a->nr_cols)
		a->sort_col = 1;	/* conditional counts alone: the first */
	if (a->running)
		a->is_signed |= AGG_COUNT | AGG_SUM;
	if (sa->legacy)
		a->json = a->fns & AGG_HIST ? "hist" : "counts";
	else
		a->json = a->fns & (AGG_HIST | AGG_LHIST) ? "hist" : "agg";
	a->json_name = sa->legacy && !(a->fns & AGG_HIST) ? pr->event : a->title;
	a->global = !a->keys.nr && (a->fns & (AGG_COUNT | AGG_HIST | AGG_LHIST)) && !(a->fns & (AGG_MIN | AGG_MAX));
	agg_rows(r, a);
	p->any_global_agg |= a->rows > 0;
	p->any_agg = true;
	p->any_global_agg |= a->global;
	if (a->fns & AGG_HIST)
		p->any_hist = true;
	else if (a->fns & AGG_LHIST)
		p->any_lhist = true;
	else
		p->any_table = true;
	return 0;
}

int probe_add_agg(struct resolver *r, const struct spec_agg *sa)
{
	return probe_add_agg_as(r, sa, NULL);
}

bool pvalue_may_be_late(const struct prog *p, const struct pprobe *pr, const struct pvalue *v)
{
	const struct psaved *set;

	if (v->src != PV_SAVED || v->kind != PV_STR || v->argv)
		return false;
	set = &p->sets[pr->joins[v->join].set];
	for (int m = 0; set->refetch && m < set->nr_members; m++)
		if (!strcmp(set->members[m].cname, v->member))
			return set->members[m].user_str;
	return false;
}

static bool key_is_cpu(const struct pprobe *pr, const struct pitems *key)
{
	return key->nr == 1 && pr->vals[key->v[0].val].src == PV_CPU;
}

/* The task whose pid a key is, in tp_btf, as C: its trusted pointer; NULL: not one. */
const char *key_task(const struct pprobe *pr, const struct pitems *key)
{
	const struct pvalue *v = key->nr == 1 ? &pr->vals[key->v[0].val] : NULL;

	if (!v || pr->attach != ATTACH_TP_BTF)
		return NULL;
	if (v->src == PV_TID)
		return "bpf_get_current_task_btf()";
	if (v->src == PV_RAW && v->btf_direct && !v->curtask && !v->user_mem && v->arg_local && v->path &&
	    !strcmp(v->path, "pid") && v->arg_type && !strcmp(v->arg_type, "struct task_struct *"))
		return v->arg_local;
	return NULL;
}

void prog_plan_sets(struct prog *p)
{
	for (int s = 0; s < p->nr_sets; s++) {
		struct psaved *set = &p->sets[s];
		bool cpu, task, user = false, reserved = false;

		for (int m = 0; m < set->nr_members; m++) {
			user |= set->members[m].user_str;
			reserved |= !strncmp(set->members[m].cname, "tpgen_", 6);
		}
		/* the members tpgen adds are tpgen_*: a spec that names one keeps the plain forms */
		set->refetch = user && !reserved;
		cpu = task = !reserved;
		for (int i = 0; i < p->nr_probes && (cpu || task); i++) {
			const struct pprobe *pr = &p->probes[i];

			for (int k = 0; k < pr->nr_saves; k++)
				if (pr->saves[k].set == s) {
					cpu &= key_is_cpu(pr, &pr->saves[k].key);
					task &= key_task(pr, &pr->saves[k].key) != NULL;
				}
			for (int k = 0; k < pr->nr_joins; k++)
				if (pr->joins[k].set == s) {
					cpu &= key_is_cpu(pr, &pr->joins[k].key);
					task &= key_task(pr, &pr->joins[k].key) != NULL;
				}
		}
		set->per_cpu = cpu;
		set->per_task = task && !cpu;
	}
}
