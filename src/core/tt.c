/* tt.c - allocation, clearing and aging of the transposition table
 * (layout and rules in tt.h). */
#include "tt.h"
#include "util.h"

static void tt_restamp(TT *t)
{
	t->stamp = (uint64_t)(t->date & 0xFF) << 40 | (uint64_t)(t->epoch & TT_EPOCH_MAX) << 48;
}

uint64_t tt_size_for(uint64_t bytes)
{
	uint64_t n = TT_MIN_ENTRIES;
	while (n * 2 * sizeof(TTEntry) <= bytes)
		n *= 2;
	return n * sizeof(TTEntry);
}

bool tt_init_bytes(TT *t, uint64_t bytes)
{
	if (bytes > (uint64_t)TT_MAX_MB << 20)
		return false;
	const uint64_t size = tt_size_for(bytes);
	if (size != (size_t)size)
		return false;
	/* fresh anonymous pages are zero: entries of epoch 0 (empty), seq 0
	 * (free); nothing to write, the pages fault in when a search uses them */
	TTEntry *e = util_alloc_large((size_t)size);
	if (!e)
		return false;
	t->entries = e;
	t->mask = size / sizeof *e - 1;
	t->bytes = (size_t)size;
	t->date = 1;
	t->epoch = 1;
	tt_restamp(t);
	t->locking = false;
	return true;
}

bool tt_init(TT *t, int mb)
{
	if (mb < 1)
		mb = 1;
	if (mb > TT_MAX_MB)
		return false;
	return tt_init_bytes(t, (uint64_t)mb << 20);
}

void tt_free(TT *t)
{
	if (t->entries)
		util_free_large((void *)t->entries, t->bytes);
	t->entries = NULL;
	t->mask = 0;
	t->bytes = 0;
}

void tt_clear(TT *t)
{
	/* a new epoch: every entry written before reads as empty.  When the
	 * epoch wraps the pages go back to the system and return zeroed
	 * (epoch 0, empty) when touched.  No search runs, so the plain
	 * writes are ordered before any later access by the thread
	 * hand-overs that separate searches. */
	if (t->epoch >= TT_EPOCH_MAX) {
		util_zero_large((void *)t->entries, t->bytes);
		t->epoch = 0;
	}
	t->epoch++;
	t->date = 1;
	tt_restamp(t);
}

void tt_new_search(TT *t)
{
	t->date = t->date >= 255 ? 1 : t->date + 1;
	tt_restamp(t);
}
