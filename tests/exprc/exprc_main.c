// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Runs each generated expression (exprc_gen.c) as written (C's answer) and as
 * tpgen printed it, on random values of every variable, and compares values,
 * sizeof and signedness, and tpgen's own type and folded constant. Prints
 * the first disagreement and exits 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exprc_rt.h"

extern const struct case_info cases[];
extern const int ncases;
extern const unsigned long long seed;

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* mostly edges: 0, 1, -1, the minimum and maximum of each width */
static uint64_t some_value(void)
{
	static const uint64_t edge[] = {
		0, 1, 2, ~0ULL, ~0ULL - 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff,
		0x80000000, 0xffffffff, 0x7fffffffffffffff, 0x8000000000000000,
	};

	switch (rnd() % 3) {
	case 0:
		return edge[rnd() % (sizeof(edge) / sizeof(edge[0]))];
	case 1:
		return rnd() % 300 - 150;
	default:
		return rnd() >> (rnd() % 64);
	}
}

static void fill(struct vals *v)
{
	v->u8a = some_value(); v->u8b = some_value(); v->s8a = some_value(); v->s8b = some_value();
	v->u16a = some_value(); v->u16b = some_value(); v->s16a = some_value(); v->s16b = some_value();
	v->u32a = some_value(); v->u32b = some_value(); v->s32a = some_value(); v->s32b = some_value();
	v->u64a = some_value(); v->u64b = some_value(); v->s64a = some_value(); v->s64b = some_value();
}

static void show(const struct vals *v)
{
	fprintf(stderr, "  values: u8a=%u u8b=%u s8a=%d s8b=%d u16a=%u u16b=%u s16a=%d s16b=%d\n"
		"          u32a=%u u32b=%u s32a=%d s32b=%d u64a=%llu u64b=%llu s64a=%lld s64b=%lld\n",
		v->u8a, v->u8b, v->s8a, v->s8b, v->u16a, v->u16b, v->s16a, v->s16b, v->u32a, v->u32b,
		v->s32a, v->s32b, v->u64a, v->u64b, v->s64a, v->s64b);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 100;

	rng = seed ^ 0x5eed;
	for (int i = 0; i < ncases; i++) {
		const struct case_info *c = &cases[i];

		for (int k = 0; k < rounds; k++) {
			struct result w = {}, e = {};
			const char *what = NULL;
			struct vals v;

			fill(&v);
			c->written(&v, &w);
			c->emitted(&v, &e);
			if (w.size != e.size || w.sgn != e.sgn)
				what = "the type of tpgen's C";
			else if (w.size != c->size || w.sgn != c->sgn)
				what = "tpgen's type";
			else if (w.val != e.val)
				what = "the value";
			else if (c->is_const && w.val != c->num)
				what = "tpgen's folded constant";
			else if (w.cond != e.cond)
				what = "the condition (tpgen's negation)";
			else if (w.cond2 != e.cond2)
				what = "the condition (as a filter's test)";
			if (!what)
				continue;
			fprintf(stderr, "FAIL (seed %llu, case %d): %s differs\n  expression: %s\n  tpgen's C:  %s\n"
				"  C:         %s%u value %llu (%lld) cond %d\n"
				"  tpgen's C: %s%u value %llu (%lld) cond %d\n"
				"  tpgen:     %s%u%s",
				seed, i, what, c->text, c->c, w.sgn ? "s" : "u", w.size * 8, w.val, (long long)w.val,
				w.cond, e.sgn ? "s" : "u", e.size * 8, e.val, (long long)e.val, e.cond,
				c->sgn ? "s" : "u", c->size * 8, c->is_const ? " constant " : "\n");
			if (c->is_const)
				fprintf(stderr, "%llu (%lld)\n", c->num, (long long)c->num);
			show(&v);
			return 1;
		}
	}
	printf("%d expressions x %d values: C and tpgen agree\n", ncases, rounds);
	return 0;
}
