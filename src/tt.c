/* tt.c - the shared transposition table (layout and rules in tt.h). */
#include <stdlib.h>
#include "tt.h"
#include "util.h"

#define TT_BUCKET_BYTES (TT_WAYS * sizeof(TTEntry))

bool tt_init_bytes(TT *t, uint64_t bytes)
{
	if (bytes > (uint64_t)TT_MAX_MB << 20)
		return false;
	size_t nb = 1;
	while (nb * 2 * TT_BUCKET_BYTES <= bytes)
		nb *= 2;
	void *mem = util_alloc_large(nb * TT_BUCKET_BYTES);
	if (!mem)
		return false;
	/* fresh anonymous pages are zero, which is the empty entry of epoch
	 * 0: nothing to write, the pages fault in when a search uses them */
	t->entries = mem;
	t->mask = nb - 1;
	t->bytes = nb * TT_BUCKET_BYTES;
	t->date = 1;
	t->epoch = 1;
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
	 * creation/joins that separate searches. */
	if (t->epoch >= TT_EPOCH_MAX) {
		util_zero_large((void *)t->entries, t->bytes);
		t->epoch = 0;
	}
	t->epoch++;
	t->date = 1;
}

void tt_new_search(TT *t)
{
	t->date = t->date >= 255 ? 1 : t->date + 1;
}

static inline uint64_t tt_pack(const TT *t, int lower, int upper, int move, int depth, int sel)
{
	return (uint64_t)(uint8_t)(int8_t)lower | (uint64_t)(uint8_t)(int8_t)upper << 8 |
	       (uint64_t)(move & 0xFF) << 16 | (uint64_t)(depth & 0xFF) << 24 |
	       (uint64_t)(sel & 0xFF) << 32 | (uint64_t)(t->date & 0xFF) << 40 |
	       (uint64_t)(t->epoch & TT_EPOCH_MAX) << 48;
}

static inline void tt_unpack(uint64_t w, TTData *d)
{
	d->lower = (int8_t)(w & 0xFF);
	d->upper = (int8_t)(w >> 8 & 0xFF);
	d->move = (int)(w >> 16 & 0xFF);
	d->depth = (int)(w >> 24 & 0xFF);
	d->sel = (int)(w >> 32 & 0xFF);
}

static inline unsigned tt_date_of(uint64_t w) { return (unsigned)(w >> 40 & 0xFF); }

/* An entry holds data of the current epoch (else it is empty: never
 * written, or written before the last tt_clear). */
static inline bool tt_live(const TT *t, uint64_t w) { return (unsigned)(w >> 48) == t->epoch; }

/* Consistent snapshot of an entry; false when a write overlapped.
 * Why this is enough (C11 model, no fences): the data words are stored
 * with release order after the writer's CAS, and loaded here with acquire
 * order; if a load returns a value from a writer W, W's CAS happens before
 * the final reload of seq, which then sees an odd or a newer value. */
static inline bool tt_read(const TTEntry *e, uint64_t *p, uint64_t *o, uint64_t *data)
{
	uint64_t s1 = atomic_load_explicit((_Atomic uint64_t *)&e->seq, memory_order_acquire);
	if (s1 & 1)
		return false;
	*p = atomic_load_explicit((_Atomic uint64_t *)&e->p, memory_order_acquire);
	*o = atomic_load_explicit((_Atomic uint64_t *)&e->o, memory_order_acquire);
	*data = atomic_load_explicit((_Atomic uint64_t *)&e->data, memory_order_acquire);
	return atomic_load_explicit((_Atomic uint64_t *)&e->seq, memory_order_relaxed) == s1;
}

static inline void tt_write(TTEntry *e, uint64_t p, uint64_t o, uint64_t data)
{
	uint64_t s = atomic_load_explicit(&e->seq, memory_order_relaxed);
	if ((s & 1) || !atomic_compare_exchange_strong_explicit(&e->seq, &s, s + 1,
	                                                        memory_order_acq_rel,
	                                                        memory_order_relaxed))
		return; /* someone else is writing this entry: drop the store */
	atomic_store_explicit(&e->p, p, memory_order_release);
	atomic_store_explicit(&e->o, o, memory_order_release);
	atomic_store_explicit(&e->data, data, memory_order_release);
	atomic_store_explicit(&e->seq, s + 2, memory_order_release);
}

bool tt_probe(const TT *t, uint64_t p, uint64_t o, TTData *d)
{
	const TTEntry *b = &t->entries[tt_index(t, p, o) * TT_WAYS];
	for (int i = 0; i < TT_WAYS; i++) {
		uint64_t ep, eo, w;
		if (tt_read(&b[i], &ep, &eo, &w) && ep == p && eo == o && tt_live(t, w)) {
			tt_unpack(w, d);
			return true;
		}
	}
	return false;
}

void tt_store(TT *t, uint64_t p, uint64_t o, int depth, int sel,
              int alpha, int beta, int score, int move)
{
	TTEntry *b = &t->entries[tt_index(t, p, o) * TT_WAYS];
	int lower = score > alpha ? score : -127;
	int upper = score < beta ? score : 127;
	if (move < 0 || move > 63)
		move = TT_NO_MOVE;
	int victim = -1, vkey = 1 << 30;
	for (int i = 0; i < TT_WAYS; i++) {
		uint64_t ep, eo, w;
		if (!tt_read(&b[i], &ep, &eo, &w))
			continue;
		const bool live = tt_live(t, w);
		if (ep == p && eo == o && live) {
			TTData d;
			tt_unpack(w, &d);
			if (d.depth > depth || (d.depth == depth && d.sel > sel))
				return; /* keep the deeper result */
			if (d.depth == depth && d.sel == sel) {
				int lo = d.lower > lower ? d.lower : lower;
				int up = d.upper < upper ? d.upper : upper;
				if (lo <= up) {
					lower = lo;
					upper = up;
				}
				if (move == TT_NO_MOVE)
					move = d.move;
			}
			tt_write(&b[i], p, o, tt_pack(t, lower, upper, move, depth, sel));
			return;
		}
		/* victim key: empty < older date < shallower */
		int key = !live ? -1 : (tt_date_of(w) != t->date ? 0 : 1 << 16) + (int)(w >> 24 & 0xFF) * 256 +
		                    (int)(w >> 32 & 0xFF);
		if (key < vkey) {
			vkey = key;
			victim = i;
		}
	}
	if (victim < 0)
		victim = 0;
	tt_write(&b[victim], p, o, tt_pack(t, lower, upper, move, depth, sel));
}
