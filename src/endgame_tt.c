/* endgame_tt.c - allocation and aging of the endgame transposition table
 * (layout and rules in endgame_tt.h). */
#include <stdlib.h>
#include <string.h>
#include "endgame_tt.h"
#include "util.h"

bool endgame_tt_init(EndgameTT *t, int mb)
{
	uint64_t bytes = (uint64_t)(mb > 0 ? mb : 1) << 20;
	uint64_t n = 2048; /* 64 KB */
	while (n * 2 * sizeof(EndgameTTEntry) <= bytes)
		n *= 2;
	/* zeroed entries: date 0 is never a live date and seq 0 is free */
	EndgameTTEntry *e = util_alloc_large(n * sizeof *e);
	if (!e)
		return false;
	t->entries = e;
	t->mask = n - 1;
	t->date = 0;
	t->locking = false;
	return true;
}

void endgame_tt_free(EndgameTT *t)
{
	if (t->entries)
		util_free_large(t->entries, (t->mask + 1) * sizeof(EndgameTTEntry));
	t->entries = NULL;
	t->mask = 0;
}

void endgame_tt_new_solve(EndgameTT *t)
{
	if (t->date == 255) {
		for (uint64_t i = 0; i <= t->mask; i++)
			atomic_store_explicit(&t->entries[i].data, 0, memory_order_relaxed);
		t->date = 0;
	}
	t->date++;
}

uint64_t endgame_tt_bytes(const EndgameTT *t)
{
	return (t->mask + 1) * sizeof(EndgameTTEntry);
}
