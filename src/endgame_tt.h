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
 *   seq       version of the bucket (the first entry's field counts for
 *             both; the second's is unused), used only when threads share
 *             the table: odd while a store is writing the bucket
 * The small fields are packed into one word, `data`.
 *
 * CONCURRENCY.  With more than one thread the buckets are sequence locks.
 * A store takes its bucket by moving seq from even to odd (compare and
 * exchange, spinning while another store holds it), writes, and releases
 * it with the next even value.  A probe takes no lock and writes nothing:
 * it reads seq, the entries, then seq again, and a bucket that was being
 * written meanwhile (an odd or changed seq) reads as a miss.  So a probe
 * never sees half of one store and half of another, and probes (most
 * table traffic: the enhanced transposition cutoff probes every child)
 * neither wait nor pull the cache line away from the other threads.
 * Every field is atomic (acquire loads, release stores: plain moves on
 * x86), so there is no data race in the C11 sense.  With one thread seq is not touched.
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
	_Atomic uint64_t p, o;
	_Atomic uint64_t data;  /* lower, upper, move, empties, date, sel: a byte each, from bit 0 */
	atomic_uint seq;        /* even: free, odd: a store is writing (first entry of a bucket) */
	uint32_t pad;
} EndgameTTEntry;

typedef struct EndgameTT {
	EndgameTTEntry *entries;
	uint64_t mask;      /* number of entries - 1; even indices start buckets */
	uint8_t date;
	bool locking;       /* several threads use the table */
} EndgameTT;

/* Allocate a table of about `mb` megabytes (at least 64 KB); false when
 * memory is short.  Nothing is written (zero pages are empty entries of
 * date 0): the pages fault in when solves use them. */
bool endgame_tt_init(EndgameTT *t, int mb);
/* The same with the size in bytes: the largest power-of-two number of
 * entries that fits, at least 2048 (64 KB). */
bool endgame_tt_init_bytes(EndgameTT *t, uint64_t bytes);
/* Bytes of the table endgame_tt_init_bytes(t, bytes) makes. */
uint64_t endgame_tt_size_for(uint64_t bytes);
void endgame_tt_free(EndgameTT *t);
/* Start a new solve: older entries become invisible (every 255 solves,
 * when the date wraps, the pages go back to the system and return zeroed:
 * nothing is written). */
void endgame_tt_new_solve(EndgameTT *t);
/* Bytes allocated. */
uint64_t endgame_tt_bytes(const EndgameTT *t);

static inline uint64_t endgame_tt_hash(uint64_t p, uint64_t o)
{
	uint64_t h = p * 0x9E3779B97F4A7C15ULL ^ (o + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
	return h ^ (h >> 31);
}

/* The packed small fields. */
typedef struct EndgameTTData {
	int lower, upper, move, empties, date, sel;
} EndgameTTData;

static inline uint64_t endgame_tt_pack(int lower, int upper, int move, int empties, int date, int sel)
{
	return (uint64_t)(uint8_t)lower | (uint64_t)(uint8_t)upper << 8 | (uint64_t)(uint8_t)move << 16 |
	       (uint64_t)(uint8_t)empties << 24 | (uint64_t)(uint8_t)date << 32 | (uint64_t)(uint8_t)sel << 40;
}

static inline EndgameTTData endgame_tt_unpack(uint64_t d)
{
	EndgameTTData r = { (int8_t)(d & 0xFF), (int8_t)(d >> 8 & 0xFF), (int)(d >> 16 & 0xFF),
	                    (int)(d >> 24 & 0xFF), (int)(d >> 32 & 0xFF), (int)(d >> 40 & 0xFF) };
	return r;
}

/* Field accesses: acquire loads and release stores (plain moves on x86).
 * A probe that reads a field written by a store thereby sees that store's
 * odd seq on its second read of seq; a store's fields are written after
 * its odd seq. */
#define EG_TT_LOAD(x) atomic_load_explicit(&(x), memory_order_acquire)
#define EG_TT_STORE(x, v) atomic_store_explicit(&(x), (v), memory_order_release)

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
	unsigned seq = 0;
	if (t->locking) {
		seq = atomic_load_explicit(&b->seq, memory_order_acquire);
		if (seq & 1)
			return false; /* a store is writing the bucket */
	}
	for (int i = 0; i < 2; i++) {
		const EndgameTTEntry *e = &b[i];
		if (EG_TT_LOAD(e->p) != p || EG_TT_LOAD(e->o) != o)
			continue;
		const EndgameTTData d = endgame_tt_unpack(EG_TT_LOAD(e->data));
		if (d.date != t->date)
			continue;
		if (t->locking) {
			if (atomic_load_explicit(&b->seq, memory_order_relaxed) != seq)
				return false; /* written meanwhile */
		}
		if (d.sel >= sel) {
			*lower = d.lower;
			*upper = d.upper;
		} else {
			*lower = -127;
			*upper = 127;
		}
		*move = d.move;
		return true;
	}
	return false;
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
		EndgameTTEntry *e = &b[i];
		if (EG_TT_LOAD(e->p) != p || EG_TT_LOAD(e->o) != o)
			continue;
		EndgameTTData d = endgame_tt_unpack(EG_TT_LOAD(e->data));
		if (d.date != t->date)
			continue;
		if (sel < d.sel)
			goto done;
		if (sel > d.sel || lo > d.upper || hi < d.lower) {
			d.sel = sel;
			d.lower = lo;
			d.upper = hi;
		} else {
			if (lo > d.lower)
				d.lower = lo;
			if (hi < d.upper)
				d.upper = hi;
		}
		if (move != ENDGAME_TT_NOMOVE)
			d.move = move;
		EG_TT_STORE(e->data, endgame_tt_pack(d.lower, d.upper, d.move, d.empties, d.date, d.sel));
		goto done;
	}
	/* victim: another date first, else fewer empties (entry 1 on ties) */
	const EndgameTTData d0 = endgame_tt_unpack(EG_TT_LOAD(b[0].data));
	EndgameTTEntry *v = d0.date != t->date || d0.empties < empties ? &b[0] : &b[1];
	EG_TT_STORE(v->p, p);
	EG_TT_STORE(v->o, o);
	EG_TT_STORE(v->data, endgame_tt_pack(lo, hi, move, empties, t->date, sel));
done:
	if (t->locking)
		atomic_store_explicit(&b->seq, seq + 2, memory_order_release);
}

#endif
