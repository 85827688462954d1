/*
 * endgame_tt.h - the endgame solver's transposition table.
 *
 * LAYOUT.  2^k entries of 32 bytes, two per 64-byte cache line; a position
 * hashes to an even index i and may live in entry i or i + 1 (a bucket).
 * An entry holds the FULL position (p, o), so a probe matches only the same
 * position: a hash collision costs a miss, never a wrong score.
 *
 *   p, o      the position (side to move, opponent); p = o = 0 is empty
 *   lower     the score is >= lower     } exact-solve bounds: valid for
 *   upper     the score is <= upper     } any later window
 *   move      best move found (square), or ENDGAME_TT_NOMOVE
 *   empties   empties of the position: the replacement priority
 *   sel       selectivity of the search that gave the bounds (endgame.c's
 *             probable-cut levels; ENDGAME_TT_EXACT for exact searches):
 *             a probe at level L uses the bounds only when sel >= L, the
 *             move always (a selective pre-search orders the exact one)
 *   date      solve number: entries of another date are treated as empty,
 *             so each solve starts from an empty table without a clear
 *             (results and node counts never depend on earlier solves)
 *   lock      spin lock of the bucket (the first entry's field guards both;
 *             the second's is unused), taken only when threads share the table
 *
 * CONCURRENCY.  With more than one thread every access to an entry's data
 * happens with its bucket's lock held (acquire on take, release on give), so the
 * fields are plain data and there is no race in the C11 sense; the critical
 * sections are a few loads/stores.  With one thread the locks are skipped.
 *
 * REPLACEMENT.  A store to a position already in the bucket intersects the
 * bounds (or replaces them when they contradict, which cannot happen for
 * exact bounds but keeps the table consistent).  Otherwise the victim is an
 * entry of another date, else the one with fewer empties.
 */
#ifndef EMILIA_ENDGAME_TT_H
#define EMILIA_ENDGAME_TT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum { ENDGAME_TT_NOMOVE = 255, ENDGAME_TT_EXACT = 255 };

typedef struct EndgameTTEntry {
	uint64_t p, o;
	int8_t lower, upper;
	uint8_t move, empties, date, sel;
	atomic_uchar lock;  /* 0 free, 1 taken */
	uint8_t pad[9];
} EndgameTTEntry;

typedef struct EndgameTT {
	EndgameTTEntry *entries;
	uint64_t mask;      /* number of entries - 1; even indices start buckets */
	uint8_t date;
	bool locking;       /* several threads use the table */
} EndgameTT;

/* Allocate a table of about `mb` megabytes (at least 64 KB); false when
 * memory is short. */
bool endgame_tt_init(EndgameTT *t, int mb);
void endgame_tt_free(EndgameTT *t);
/* Start a new solve: older entries become invisible. */
void endgame_tt_new_solve(EndgameTT *t);
/* Bytes allocated. */
uint64_t endgame_tt_bytes(const EndgameTT *t);

static inline uint64_t endgame_tt_hash(uint64_t p, uint64_t o)
{
	uint64_t h = p * 0x9E3779B97F4A7C15ULL ^ (o + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
	return h ^ (h >> 31);
}

/* The bucket's lock is the `lock` field of its first entry; it guards both
 * entries (one atomic exchange per probe or store). */
static inline void endgame_tt_lock(const EndgameTT *t, EndgameTTEntry *b)
{
	if (t->locking)
		while (atomic_exchange_explicit(&b->lock, 1, memory_order_acquire))
			;
}

static inline void endgame_tt_unlock(const EndgameTT *t, EndgameTTEntry *b)
{
	if (t->locking)
		atomic_store_explicit(&b->lock, 0, memory_order_release);
}

/* Start loading the bucket of (p, o) into the cache. */
static inline void endgame_tt_prefetch(const EndgameTT *t, uint64_t p, uint64_t o)
{
	__builtin_prefetch(&t->entries[endgame_tt_hash(p, o) & t->mask & ~1ULL]);
}

/* Look (p, o) up: true with its bounds and move when present; bounds from
 * a search less exact than `sel` read as (-127, 127). */
static inline bool endgame_tt_probe(const EndgameTT *t, uint64_t p, uint64_t o, int sel, int *lower, int *upper,
                                    int *move)
{
	EndgameTTEntry *b = &t->entries[endgame_tt_hash(p, o) & t->mask & ~1ULL];
	bool found = false;
	endgame_tt_lock(t, b);
	for (int i = 0; i < 2; i++) {
		const EndgameTTEntry *e = &b[i];
		if (e->p == p && e->o == o && e->date == t->date) {
			if (e->sel >= sel) {
				*lower = e->lower;
				*upper = e->upper;
			} else {
				*lower = -127;
				*upper = 127;
			}
			*move = e->move;
			found = true;
			break;
		}
	}
	endgame_tt_unlock(t, b);
	return found;
}

/* Record the result of a search of (p, o) at selectivity `sel` with window
 * (alpha, beta) that returned `score` (a bound when outside the window) and
 * best move.  Bounds of a more exact search are never overwritten by those
 * of a less exact one; equal levels intersect. */
static inline void endgame_tt_store(const EndgameTT *t, uint64_t p, uint64_t o, int empties, int sel, int alpha,
                                    int beta, int score, int move)
{
	EndgameTTEntry *b = &t->entries[endgame_tt_hash(p, o) & t->mask & ~1ULL];
	int lo = score > alpha ? score : -127, hi = score < beta ? score : 127;
	endgame_tt_lock(t, b);
	for (int i = 0; i < 2; i++) {
		EndgameTTEntry *e = &b[i];
		if (e->p == p && e->o == o && e->date == t->date) {
			if (sel < e->sel)
				goto done;
			if (sel > e->sel || lo > e->upper || hi < e->lower) {
				e->sel = (uint8_t)sel;
				e->lower = (int8_t)lo;
				e->upper = (int8_t)hi;
			} else {
				if (lo > e->lower)
					e->lower = (int8_t)lo;
				if (hi < e->upper)
					e->upper = (int8_t)hi;
			}
			if (move != ENDGAME_TT_NOMOVE)
				e->move = (uint8_t)move;
			goto done;
		}
	}
	/* victim: another date first, else fewer empties (entry 1 on ties);
	 * the bucket stays locked, so the choice still holds when written */
	EndgameTTEntry *v = b[0].date != t->date || b[0].empties < empties ? &b[0] : &b[1];
	v->p = p;
	v->o = o;
	v->lower = (int8_t)lo;
	v->upper = (int8_t)hi;
	v->move = (uint8_t)move;
	v->empties = (uint8_t)empties;
	v->date = t->date;
	v->sel = (uint8_t)sel;
done:
	endgame_tt_unlock(t, b);
}

#endif
