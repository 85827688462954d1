/*
 * tt.h - the transposition table: one entry format for the midgame search
 * (search.c) and the endgame solver (endgame.c), which share an engine's
 * table.
 *
 * LAYOUT.  2^k entries of 32 bytes, two per 64-byte cache line; a position
 * hashes to an even index i and may live in entry i or i + 1 (a bucket).
 * An entry holds the FULL position (p, o), so a probe matches only the same
 * position: a hash collision costs a miss, never a wrong score.
 *
 *   p, o      the position (side to move, opponent)
 *   data      bits  0..7   lower bound (int8, discs; -127: none)
 *             bits  8..15  upper bound (int8, discs; 127: none)
 *             bits 16..23  best move (square), TT_NO_MOVE = none
 *             bits 24..31  selectivity: the probable-cut confidence the
 *                          bounds hold with (index into the t values
 *                          1.1, 1.5, 2.0, 2.6, 3.3 that probcut.h's users
 *                          share), TT_SEL_EXACT for no probable cut
 *             bits 32..39  depth searched, plies, never more than the
 *                          empties of the position; a search to the end
 *                          of the game (every solver entry) has depth =
 *                          empties.  So bits 24..39 of an entry of a
 *                          position with n empties are >= (n << 8 | s)
 *                          exactly when it reached the end of the game
 *                          with selectivity >= s (tt_depth_sel).
 *             bits 40..47  date: the search that wrote it (aging)
 *             bits 48..63  epoch: the table's clear count; an entry of
 *                          another epoch is empty
 *   seq       version of the bucket (the first entry's counts for both;
 *             the second's is unused), used only when threads share the
 *             table: odd while a store is writing the bucket
 *
 * A probe returns the bounds with their depth and selectivity; the caller
 * uses them only when they are at least as deep and as exact as the search
 * it is doing, and the move always (a shallow or selective result orders
 * a deeper one).  The solver thus uses the midgame's moves, and the
 * midgame the solver's exact bounds.
 *
 * CONCURRENCY.  With `locking` set (more than one thread uses the table),
 * each bucket is a sequence lock.  A store takes its bucket by moving seq
 * from even to odd (compare and exchange, spinning while another store
 * holds it), writes, and releases it with the next even value.  A probe
 * takes no lock and writes nothing: it reads seq, the entries, then seq
 * again, and a bucket that was being written meanwhile (an odd or changed
 * seq) reads as a miss.  So a probe never sees half of one store and half
 * of another, and probes (most table traffic: the solver's enhanced
 * transposition cutoff probes every child) neither wait nor pull the cache
 * line away from the other threads.  Every field is atomic (acquire loads,
 * release stores: plain moves on x86), so there is no data race in the
 * C11 sense.  Without `locking` seq is not touched.  Whoever starts a
 * search or solve on the table sets `locking` for its thread count.
 *
 * REPLACEMENT.  A store to a position already in the bucket compares
 * (depth, selectivity): a smaller pair leaves the entry alone, an equal
 * one intersects the bounds (or replaces them when they contradict), a
 * larger one replaces them; the old move stays when the new store has
 * none.  Otherwise the first entry of the bucket is replaced when it is
 * empty, of an earlier search (date) or shallower than the new result, else
 * the second: the first keeps deep results, the second takes the rest.
 *
 * MEMORY.  tt_init() maps the table (util_alloc_large) and writes none of
 * it: fresh anonymous pages read as zero, an all-zero entry is empty (epoch
 * 0), and pages are faulted in by the first search that touches them (or
 * before, by an engine's background pre-faulting between searches: util.h),
 * so a table of many GiB costs no start-up time.  tt_clear() does not write
 * the table either: it advances the epoch; only when the 16-bit epoch wraps
 * are the pages handed back to the system (util_zero_large).
 *
 * An engine has one table of its whole --hash budget (engine.h); the solver
 * adds small per-thread tables of the same format for the nodes near the
 * leaves (endgame.h).
 */
#ifndef EMILIA_TT_H
#define EMILIA_TT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TT_NO_MOVE 255
#define TT_SEL_EXACT 255
#define TT_DEFAULT_MB 64
#define TT_MAX_MB 65536
#define TT_EPOCH_MAX 0xFFFF
#define TT_MIN_ENTRIES 2048 /* 64 KB */

typedef struct TTEntry {
	_Atomic uint64_t p, o;
	_Atomic uint64_t data;
	atomic_uint seq;        /* even: free, odd: a store is writing (first entry of a bucket) */
	uint32_t pad;
} TTEntry;

typedef struct TT {
	TTEntry *entries;
	uint64_t mask;      /* number of entries - 1; even indices start buckets */
	size_t bytes;
	unsigned date;      /* 1..255: the search generation (aging) */
	unsigned epoch;     /* 1..TT_EPOCH_MAX: entries of another epoch are empty */
	uint64_t stamp;     /* date << 40 | epoch << 48: the high bits of a new entry */
	bool locking;       /* several threads use the table */
} TT;

/* What a probe returns. */
typedef struct TTData {
	int lower, upper;   /* bounds on the score, discs */
	int move;           /* best move or TT_NO_MOVE */
	int depth;
	int sel;
} TTData;

/* Bytes of the table tt_init_bytes(t, bytes) makes: the largest
 * power-of-two number of entries that fits, at least TT_MIN_ENTRIES. */
uint64_t tt_size_for(uint64_t bytes);
/* Map a table of tt_size_for(bytes) bytes (at most TT_MAX_MB MiB); false
 * when it cannot be mapped (t untouched).  Nothing is written. */
bool tt_init_bytes(TT *t, uint64_t bytes);
/* The same with `mb` MiB (at least 1). */
bool tt_init(TT *t, int mb);
void tt_free(TT *t);
/* Empty the table (a new epoch: O(1)); no search may be running. */
void tt_clear(TT *t);
/* Start a new search generation; no search may be running. */
void tt_new_search(TT *t);

static inline uint64_t tt_hash(uint64_t p, uint64_t o)
{
	uint64_t h = p * 0x9E3779B97F4A7C15ULL ^ (o + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
	return h ^ (h >> 31);
}

static inline TTEntry *tt_bucket(const TT *t, uint64_t p, uint64_t o)
{
	return &t->entries[tt_hash(p, o) & t->mask & ~1ULL];
}

/* Start loading the bucket of (p, o) into the cache. */
static inline void tt_prefetch(const TT *t, uint64_t p, uint64_t o)
{
	__builtin_prefetch(tt_bucket(t, p, o));
}

static inline uint64_t tt_pack(const TT *t, int lower, int upper, int move, int depth, int sel)
{
	return (uint64_t)(uint8_t)lower | (uint64_t)(uint8_t)upper << 8 | (uint64_t)(uint8_t)move << 16 |
	       (uint64_t)(uint8_t)sel << 24 | (uint64_t)(uint8_t)depth << 32 | t->stamp;
}

static inline TTData tt_unpack(uint64_t w)
{
	TTData d = { (int8_t)(w & 0xFF), (int8_t)(w >> 8 & 0xFF), (int)(w >> 16 & 0xFF), (int)(w >> 32 & 0xFF),
	             (int)(w >> 24 & 0xFF) };
	return d;
}

/* Bits 24..39 of an entry's data, depth << 8 | sel, and the value they
 * must reach for a search of `depth` plies at selectivity `sel` (compare
 * with >=; exact for a depth of the position's empties, see LAYOUT). */
static inline unsigned tt_depth_sel(uint64_t w)
{
	return (unsigned)(w >> 24 & 0xFFFF);
}

static inline unsigned tt_depth_sel_key(int depth, int sel)
{
	return (unsigned)depth << 8 | (unsigned)sel;
}

/* An entry of the current epoch (else it is empty). */
static inline bool tt_live(const TT *t, uint64_t w)
{
	return (w >> 48) == (t->stamp >> 48);
}

#define TT_LOAD(x) atomic_load_explicit(&(x), memory_order_acquire)
#define TT_STORE(x, v) atomic_store_explicit(&(x), (v), memory_order_release)

/* Look (p, o) up; true and *w = its packed data (the layout above) when
 * present. */
static inline bool tt_probe_word(const TT *t, uint64_t p, uint64_t o, uint64_t *word)
{
	TTEntry *b = tt_bucket(t, p, o);
	unsigned seq = 0;
	if (t->locking) {
		seq = atomic_load_explicit(&b->seq, memory_order_acquire);
		if (seq & 1)
			return false; /* a store is writing the bucket */
	}
	for (int i = 0; i < 2; i++) {
		const TTEntry *e = &b[i];
		if (TT_LOAD(e->p) != p || TT_LOAD(e->o) != o)
			continue;
		const uint64_t w = TT_LOAD(e->data);
		if (!tt_live(t, w))
			continue;
		if (t->locking && atomic_load_explicit(&b->seq, memory_order_relaxed) != seq)
			return false; /* written meanwhile */
		*word = w;
		return true;
	}
	return false;
}

/* Look (p, o) up; true and *d filled when present. */
static inline bool tt_probe(const TT *t, uint64_t p, uint64_t o, TTData *d)
{
	uint64_t w;
	if (!tt_probe_word(t, p, o, &w))
		return false;
	*d = tt_unpack(w);
	return true;
}

/* Record the result `score` of a search of (p, o) with window (alpha,
 * beta) at depth/sel with best move `move` (a square, or TT_NO_MOVE): a lower bound
 * when score >= beta, an upper one when score <= alpha, else exact. */
static inline void tt_store(TT *t, uint64_t p, uint64_t o, int depth, int sel, int alpha, int beta, int score,
                            int move)
{
	TTEntry *b = tt_bucket(t, p, o);
	int lo = score > alpha ? score : -127, hi = score < beta ? score : 127;
	unsigned seq = 0;
	if (t->locking) {
		for (;;) {
			seq = atomic_load_explicit(&b->seq, memory_order_relaxed);
			if (!(seq & 1) && atomic_compare_exchange_weak_explicit(&b->seq, &seq, seq + 1,
			                                                        memory_order_acquire,
			                                                        memory_order_relaxed))
				break;
		}
	}
	for (int i = 0; i < 2; i++) {
		TTEntry *e = &b[i];
		if (TT_LOAD(e->p) != p || TT_LOAD(e->o) != o)
			continue;
		const uint64_t w = TT_LOAD(e->data);
		if (!tt_live(t, w))
			continue;
		TTData d = tt_unpack(w);
		if (depth < d.depth || (depth == d.depth && sel < d.sel))
			goto done; /* keep the deeper or more exact result */
		if (depth > d.depth || sel > d.sel || lo > d.upper || hi < d.lower) {
			d.lower = lo;
			d.upper = hi;
		} else {
			if (lo > d.lower)
				d.lower = lo;
			if (hi < d.upper)
				d.upper = hi;
		}
		if (move != TT_NO_MOVE)
			d.move = move;
		TT_STORE(e->data, tt_pack(t, d.lower, d.upper, d.move, depth, sel));
		goto done;
	}
	/* victim: the first entry when empty or of an earlier search (its
	 * epoch or date differs), or shallower, else the second */
	const uint64_t w0 = TT_LOAD(b[0].data);
	TTEntry *v = (w0 >> 40) != (t->stamp >> 40) || (int)(w0 >> 32 & 0xFF) < depth ? &b[0] : &b[1];
	TT_STORE(v->p, p);
	TT_STORE(v->o, o);
	TT_STORE(v->data, tt_pack(t, lo, hi, move, depth, sel));
done:
	if (t->locking)
		atomic_store_explicit(&b->seq, seq + 2, memory_order_release);
}

#endif
