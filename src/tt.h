/*
 * tt.h - the transposition table shared by all search threads.
 *
 * LAYOUT.  The table is an array of 2^k buckets of 64 bytes (one cache
 * line), each holding TT_WAYS = 2 entries of 32 bytes:
 *
 *   word 0  seq    sequence counter: even = stable, odd = being written
 *   word 1  p      discs of the side to move   } the FULL position, so a
 *   word 2  o      discs of the opponent       } probe can never return
 *                                                the data of another one
 *   word 3  data   bits  0..7   lower bound (int8, discs)
 *                  bits  8..15  upper bound (int8, discs)
 *                  bits 16..23  best move (square 0..63, TT_NO_MOVE = none)
 *                  bits 24..31  depth searched (plies)
 *                  bits 32..39  selectivity (ProbCut level, higher = safer)
 *                  bits 40..47  date (search generation, for aging)
 *                  bits 48..63  epoch (the table's clear count)
 *
 * The bucket is chosen by a 64-bit mix of (p, o).  An entry matches a probe
 * only when both p and o are equal, so hash collisions cost a miss, never a
 * wrong score.
 *
 * CONCURRENCY (lock-free readers, try-lock writers = a per-entry seqlock).
 * Every word is a C11 atomic (plain moves on x86: release stores and
 * acquire loads cost nothing there), so there is no data race in the C11
 * sense and ThreadSanitizer can check it.  A writer claims an entry by a
 * CAS of seq from even s to s + 1; if the CAS fails another thread is
 * writing it and the store is simply dropped (the table is a cache).  It
 * then writes p, o, data (release) and publishes seq = s + 2 (release).
 * A reader loads seq (acquire), the three words (acquire) and reloads seq:
 * it uses the words only when both loads agree and are even, i.e. no write
 * overlapped the read, so a torn entry (p of one position with the data of
 * another) is never returned.
 *
 * REPLACEMENT.  A store first looks for the same position in the bucket:
 *  - found with the same (depth, selectivity): the bounds are intersected
 *    (merged) with the new ones, or replaced when they contradict;
 *  - found with a smaller (depth, selectivity): overwritten;
 *  - found with a larger one: only refreshed when the new search is at
 *    least as deep (never downgraded), i.e. left alone.
 * Otherwise the victim is, in order: an entry of an older date (a previous
 * search), then the entry of smallest depth.  tt_new_search() advances the
 * date so that entries of earlier searches are replaced first.
 *
 * MEMORY.  tt_init() maps the table (util_alloc_large) and writes none of
 * it: fresh anonymous pages read as zero, an all-zero entry is empty, and
 * pages are faulted in by the first search that touches them (or before,
 * by the engine's background pre-faulting between searches: util.h), so
 * a table of many GiB costs no start-up time.  tt_clear() does not write
 * the table either: it advances the epoch, and an entry of another epoch
 * reads as empty to probes and stores alike (exactly as after a memset,
 * so search results do not change); only when the 16-bit epoch wraps,
 * after 65535 clears, are the pages handed back to the system
 * (util_zero_large).
 *
 * BUDGET.  An engine's --hash of N MiB (engine_set_hash_mb) is the total
 * of this table and the endgame solver's (endgame.h), split by
 * engine_hash_split(): the midgame table gets the largest power of two
 * below N (N/2 when N is a power of two), the solver's table the largest
 * power of two that fits in the rest.  64 MiB: 32 + 32; 100 MiB: 64 + 32;
 * 4096 MiB: 2048 + 2048; 1 MiB: 0.5 + 0.5.
 */
#ifndef EMILIA_TT_H
#define EMILIA_TT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TT_WAYS 2
#define TT_NO_MOVE 255
#define TT_DEFAULT_MB 64
#define TT_MAX_MB 65536

typedef struct TTEntry {
	_Atomic uint64_t seq;
	_Atomic uint64_t p;
	_Atomic uint64_t o;
	_Atomic uint64_t data;
} TTEntry;

typedef struct TT {
	TTEntry *entries;   /* nbuckets * TT_WAYS, 64-byte aligned */
	uint64_t mask;      /* nbuckets - 1 */
	size_t bytes;
	unsigned date;      /* 1..255, written only between searches */
	unsigned epoch;     /* 1..TT_EPOCH_MAX: entries of another epoch are empty */
} TT;

#define TT_EPOCH_MAX 0xFFFF

/* What a probe returns. */
typedef struct TTData {
	int lower, upper;   /* bounds on the score, discs */
	int move;           /* best move or TT_NO_MOVE */
	int depth;
	int sel;
} TTData;

/* Allocate a table of at most `mb` megabytes (a power-of-two number of
 * buckets, at least one); false when it cannot be allocated (t untouched).
 * Nothing is written: the pages fault in when searches use them. */
bool tt_init(TT *t, int mb);
/* The same with the size in bytes (at most TT_MAX_MB MiB). */
bool tt_init_bytes(TT *t, uint64_t bytes);
void tt_free(TT *t);
/* Empty the table (a new epoch: O(1)); no search may be running. */
void tt_clear(TT *t);
/* Start a new search generation; no search may be running. */
void tt_new_search(TT *t);

/* Look (p, o) up; true and *d filled when present. */
bool tt_probe(const TT *t, uint64_t p, uint64_t o, TTData *d);

/* Record the result `score` of a search of (p, o) with window (alpha,
 * beta) at depth/sel with best move `move` (or TT_NO_MOVE). */
void tt_store(TT *t, uint64_t p, uint64_t o, int depth, int sel,
              int alpha, int beta, int score, int move);

/* Bucket index of (p, o): a multiply-xorshift mix of both words. */
static inline uint64_t tt_index(const TT *t, uint64_t p, uint64_t o)
{
	uint64_t h = p * 0x9E3779B97F4A7C15ULL ^ (o + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
	h ^= h >> 31;
	return h & t->mask;
}

#endif
