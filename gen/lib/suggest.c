// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* "Did you mean": the candidate nearest to a mistyped word, by edit distance. */
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

static int edit_distance(const char *a, const char *b)
{
	int la = strlen(a), lb = strlen(b), i, j, *row, prev, tmp, best;

	if (la > 64 || lb > 64)
		return 100;
	row = xcalloc(lb + 1, sizeof(*row));
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	best = row[lb];
	free(row);
	return best;
}

const char *str_suggest(const char *word, const char *const *cands, int n)
{
	const char *best = NULL;
	int i, d, bestd = 1000, limit = strlen(word) / 3;

	if (limit < 2)
		limit = 2;
	for (i = 0; i < n; i++) {
		d = edit_distance(word, cands[i]);
		if (d < bestd) {
			bestd = d;
			best = cands[i];
		}
	}
	return bestd <= limit ? best : NULL;
}
