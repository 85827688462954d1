/* endgame_tt.c - allocation and aging of the endgame transposition table
 * (layout and rules in endgame_tt.h). */
#include "endgame_tt.h"
#include "util.h"

uint64_t endgame_tt_size_for(uint64_t bytes)
{
	uint64_t n = 2048; /* 64 KB */
	while (n * 2 * sizeof(EndgameTTEntry) <= bytes)
		n *= 2;
	return n * sizeof(EndgameTTEntry);
}

bool endgame_tt_init_bytes(EndgameTT *t, uint64_t bytes)
{
	const uint64_t size = endgame_tt_size_for(bytes);
	if (size != (size_t)size)
		return false;
	/* zeroed entries: date 0 is never a live date and seq 0 is free */
	EndgameTTEntry *e = util_alloc_large((size_t)size);
	if (!e)
		return false;
	t->entries = e;
	t->mask = size / sizeof *e - 1;
	t->date = 0;
	t->locking = false;
	return true;
}

bool endgame_tt_init(EndgameTT *t, int mb)
{
	return endgame_tt_init_bytes(t, (uint64_t)(mb > 0 ? mb : 1) << 20);
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
		/* no solve runs: all entries back to zero (date 0, free) */
		util_zero_large(t->entries, (size_t)endgame_tt_bytes(t));
		t->date = 0;
	}
	t->date++;
}

uint64_t endgame_tt_bytes(const EndgameTT *t)
{
	return (t->mask + 1) * sizeof(EndgameTTEntry);
}
