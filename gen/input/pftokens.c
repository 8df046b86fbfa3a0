// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Tokens of "print fmt:" lines: numbers, strings, names, C's punctuators. See pfexpr.h. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "input/pfexpr.h"

static int punct2(char a, char b)
{
	static const struct { char a, b; int code; } two[] = {
		{ '-', '>', PF_ARROW }, { '<', '<', PF_SHL }, { '>', '>', PF_SHR },
		{ '<', '=', PF_LE }, { '>', '=', PF_GE }, { '=', '=', PF_EQ },
		{ '!', '=', PF_NE }, { '&', '&', PF_ANDAND }, { '|', '|', PF_OROR },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(two); i++)
		if (two[i].a == a && two[i].b == b)
			return two[i].code;
	return 0;
}

int pf_tokenize(const char *text, struct pf_toks *toks, unsigned int *bad)
{
	const char *p = text;
	int cap = 0;

	memset(toks, 0, sizeof(*toks));
	toks->text = text;
	for (;;) {
		struct pf_tok tok = {};

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		tok.pos = p - text;
		if (!*p) {
			tok.kind = PF_TOK_END;
		} else if (isdigit((unsigned char)*p)) {
			tok.kind = PF_TOK_NUM;
			while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
				p++;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			tok.kind = PF_TOK_IDENT;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
		} else if (*p == '"' || *p == '\'') {
			char q = *p++;

			tok.kind = q == '"' ? PF_TOK_STR : PF_TOK_CHAR;
			while (*p && *p != q) {
				if (*p == '\\' && p[1])
					p++;
				p++;
			}
			if (!*p) {
				*bad = tok.pos;
				pf_toks_clear(toks);
				return -EINVAL;
			}
			p++;
		} else if (strchr("+-*/%<>=!&|^~?:,(){}[].;", *p)) {
			tok.kind = PF_TOK_PUNCT;
			tok.punct = punct2(p[0], p[1]);
			if (tok.punct) {
				p += 2;
			} else {
				tok.punct = (unsigned char)*p;
				p++;
			}
		} else {
			*bad = tok.pos;
			pf_toks_clear(toks);
			return -EINVAL;
		}
		tok.len = (p - text) - tok.pos;
		if (toks->nr == cap) {
			cap = cap ? cap * 2 : 64;
			toks->t = xrealloc(toks->t, cap * sizeof(*toks->t));
		}
		toks->t[toks->nr++] = tok;
		if (tok.kind == PF_TOK_END)
			return 0;
	}
}

void pf_toks_clear(struct pf_toks *toks)
{
	free(toks->t);
	toks->t = NULL;
	toks->nr = 0;
}

bool pf_tok_is(const struct pf_toks *toks, int i, int punct)
{
	return i < toks->nr && toks->t[i].kind == PF_TOK_PUNCT && toks->t[i].punct == punct;
}

bool pf_tok_ident(const struct pf_toks *toks, int i, const char *name)
{
	const struct pf_tok *t;

	if (i >= toks->nr)
		return false;
	t = &toks->t[i];
	return t->kind == PF_TOK_IDENT && strlen(name) == t->len &&
	       !strncmp(toks->text + t->pos, name, t->len);
}

char *pf_tok_strdup(const struct pf_toks *toks, int i)
{
	return xstrndup(toks->text + toks->t[i].pos, toks->t[i].len);
}

int pf_unescape(const char **p)
{
	static const char from[] = "ntrabfv\\'\"?", to[] = "\n\t\r\a\b\f\v\\'\"?";
	const char *s = *p, *c;
	int v = 0, n;

	if (*s && (c = strchr(from, *s))) {
		*p = s + 1;
		return to[c - from];
	}
	if (*s >= '0' && *s <= '7') {
		for (n = 0; n < 3 && *s >= '0' && *s <= '7'; n++, s++)
			v = v * 8 + (*s - '0');
		*p = s;
		return v > 255 ? -1 : v;
	}
	if (*s == 'x' && isxdigit((unsigned char)s[1])) {
		for (s++, n = 0; isxdigit((unsigned char)*s); s++, n++) {
			v = v * 16 + (isdigit((unsigned char)*s) ? *s - '0' : (tolower(*s) - 'a' + 10));
			if (v > 255)
				return -1;
		}
		*p = s;
		return v;
	}
	return -1;
}

char *pf_tok_string(const struct pf_toks *toks, int i, int *next)
{
	struct strbuf sb;

	sb_init(&sb);
	for (; i < toks->nr && toks->t[i].kind == PF_TOK_STR; i++) {
		const char *s = toks->text + toks->t[i].pos + 1;
		const char *end = toks->text + toks->t[i].pos + toks->t[i].len - 1;

		while (s < end) {
			int c = (unsigned char)*s++;

			if (c == '\\') {
				c = pf_unescape(&s);
				if (c <= 0) {		/* malformed, or a NUL inside */
					sb_clear(&sb);
					return NULL;
				}
			}
			sb_putc(&sb, c);
		}
	}
	if (next)
		*next = i;
	return sb_steal(&sb);
}
