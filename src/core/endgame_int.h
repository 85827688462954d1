/*
 * endgame_int.h - the solver's own types and the functions its files share.
 *
 * The solver is four files: endgame.c (the search: the nodes, the split
 * points, the probable cuts and the root), endgame_last.h (the last empties:
 * full-board flip counts, stability and the code for 1 to 4 empties),
 * endgame_order.h (move ordering) and endgame_solve.c (the entry points of
 * endgame.h: the tables, one solve's threads and window, progress and the
 * subtrees of another search).  The two headers are included by endgame.c
 * alone: their functions are static so that the search inlines them.  Other
 * modules use endgame.h, never this file.
 */
#ifndef EMILIA_ENDGAME_INT_H
#define EMILIA_ENDGAME_INT_H

#include <pthread.h>
#include "bounds.h"
#include "endgame.h"
#include "splitpool.h"
#include "tt.h"

enum {
	EG_SHALLOW_MAX = 5,       /* nodes with <= this many empties: no table */
	EG_LOCAL_MIN = 5,         /* null-window nodes from here */
	EG_LOCAL_MAX = 10,        /* up to here: eg_mid_nws */
	EG_LOCAL_BITS = 10,       /* entries of its table per empties count: 2^this */
	EG_ETC_MIN = 12,          /* enhanced transposition cutoff from here */
	EG_STATIC_SORT_MIN = 14,  /* add the children's static evaluation */
	EG_SORT_SEARCH_MIN = 17,  /* order by a shallow evaluation search */
	/* ordering weights (eg_order): one reply fewer for the opponent (a
	 * corner counts twice), an own disc next to a corner that can never
	 * be flipped, an empty square fewer next to the mover's discs, a disc
	 * of a child's static evaluation and a disc of its evaluation search.
	 * A disc of evaluation weighs a quarter to a half of a reply: tuned
	 * by node counts on FFO #40-#49 and 60 tournament positions of 20-24
	 * empties; from EG_STATIC_SORT_MIN empties, where the evaluation joins
	 * in, a square of potential mobility weighs six times more (tournament
	 * positions of 22-26 empties; bench/results/solver-profile.md) */
	EG_W_MOBILITY = 1 << 10,
	EG_W_CORNER = 1 << 9,
	EG_W_POTENTIAL = 1 << 7,
	EG_W_POTENTIAL_DEEP = 3 << 8,
	EG_W_STATIC = 1 << 8,
	EG_W_SEARCH = 1 << 9,
	EG_W_ROOT = 1 << 16,      /* the root: its evaluation search decides */
	EG_SPLIT_MIN = 14,        /* parallel split points from here */
	EG_THREADS_MIN = 18,      /* fewer empties: solve with one thread */
	EG_MAX_MOVES = 34,        /* legal moves never exceed 33 */
	EG_MAX_THREADS = BOUNDS_THREADS_MAX,
	EG_DEFAULT_HASH_MB = 128,
	EG_INF = 127,
	EG_MPC_MIN = 9,           /* probable cuts in selective searches from here */
	EG_PRESEARCH_MIN = 18,    /* the root runs selective pre-searches from here */
	EG_PRESEARCH_TRIES = 6,   /* aspiration windows per pre-search level, at most */
	EG_SEL_EXACT = TT_SEL_EXACT,
	EG_NEAR_MAX = 10,         /* with threads: own tables up to here */
	EG_NEAR_MB = 2,           /* the size of each (a core's L2 cache) */
	EG_NEAR1_MAX = 12,        /* a lone thread: own table up to here */
	EG_NEAR1_MB = 8           /* and its size */
};

/* ---- shared state and threads -------------------------------------- */

/* A move set that is not known yet (never a real one: it would hold the
 * occupied squares too). */
#define EG_MOVES_UNKNOWN (~0ULL)

typedef struct EgMove {
	uint64_t f;     /* flips */
	uint64_t om;    /* the opponent's moves after it, or EG_MOVES_UNKNOWN */
	int sq;
	int value;      /* ordering value, higher first */
} EgMove;

typedef struct Searcher Searcher;
typedef struct SplitPoint SplitPoint;

typedef struct Shared {
	TT *tt;
	const Evaluator *ev;
	uint64_t geo, corners;
	uint64_t quadrant[4];
	uint64_t quadrant_of[64];       /* the quadrant's squares, by square */
	int size, area;
	Variant variant;
	unsigned features;
	int nthreads;
	int sel;                        /* probable-cut level, an index into eg_mpc_t (EG_SEL_EXACT:
	                                 * none); set between root searches */
	int sel_done, sel_move, sel_score; /* the last pre-search level completed (-1: none) */
	atomic_bool stop;               /* user stop or abort: everyone unwinds */
	atomic_bool *user_stop;
	double deadline;                /* util_now() time to stop at; 0: none */
	/* progress (main thread only) */
	void (*progress)(void *user, int depth_or_bound, uint64_t nodes, double elapsed);
	void *progress_user;
	void (*progress_root)(void *user, int bound, uint64_t nodes, double elapsed, int move_index, int moves);
	double t0, next_progress;
	int root_bound, root_index, root_moves;
	SplitPool pool;                 /* split points */
	Searcher *threads;
} Shared;

/* Each thread's record fills whole cache lines of its own: its node count
 * changes at every node, and a neighbour sharing the line would miss on its
 * own fields at every node (false sharing). */
struct Searcher {
	_Alignas(64) Shared *sh;
	SplitNode *sp;                  /* innermost split point worked under */
	TT *near;                       /* own table for nodes near the leaves, or NULL */
	int near_max;                   /* the most empties of a node that uses it */
	struct EgLocal *local;          /* eg_mid_nws's tables, or NULL: no such nodes */
	uint64_t nodes;
	_Atomic uint64_t published;     /* nodes, for progress reports */
	unsigned polls;
	int id;
	pthread_t thread;
};

struct SplitPoint {
	SplitNode node;                 /* first: the pool's part */
	uint64_t p, o;
	int n;
	int alpha, beta;                /* under node.lock; alpha rises */
	int best, best_move;            /* under node.lock */
	EgMove *moves;
};

/* The thread's small tables of eg_mid_nws, one per empties count of the
 * positions stored (EG_LOCAL_MIN - 1 to EG_LOCAL_MAX - 1), indexed by a
 * hash of the position: 24 KB each, so that they stay in the core's cache.  An
 * entry is keyed by a child position and bounds the score of the move that
 * led to it (minus the child's score): [lo, hi] from the mover's side. */
typedef struct EgLocalEntry {
	uint64_t p, o;
	int8_t lo, hi;
} EgLocalEntry;

typedef struct EgLocal {
	EgLocalEntry e[EG_LOCAL_MAX - EG_LOCAL_MIN + 1][1u << EG_LOCAL_BITS];
} EgLocal;


/* A subtree solver of another search (endgame.h). */
struct EndgameSubtree {
	Searcher s;     /* first: its alignment is the struct's */
	Shared sh;
	TT near;        /* the thread's table for nodes near the leaves */
	EgLocal local;  /* eg_mid_nws's tables */
};

/* Score of a finished game, p to move. */
static inline int eg_final(const Shared *sh, uint64_t p, uint64_t o)
{
	int np = bit_count(p), no = bit_count(o);
	if (sh->variant == VARIANT_ANTI)
		return no - np;
	int d = np - no, e = sh->area - np - no;
	return d > 0 ? d + e : d < 0 ? d - e : 0;
}

static inline int eg_quadrant_of(const Shared *sh, int sq)
{
	int half = sh->size / 2, r = sq >> 3, c = sq & 7;
	return (c >= half) | ((r >= half) << 1);
}

/* True when this thread's current work is useless: a stop, or a cutoff at
 * a split point it works under. */
static inline bool eg_aborted(const Searcher *s)
{
	/* the user's flag too: a clocked solve stops at once, not at the
	 * next poll */
	Shared *sh = s->sh;
	if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
		return true;
	if (sh->user_stop && atomic_load_explicit(sh->user_stop, memory_order_relaxed)) {
		atomic_store_explicit(&sh->stop, true, memory_order_relaxed);
		return true;
	}
	return split_node_cut(s->sp);
}


/* endgame.c */
void eg_tables_init(void);          /* the last-empties tables (endgame_last.h), once */
int eg_root(Searcher *s, uint64_t p, uint64_t o, int n, int alpha, int beta, int *move);
void eg_sp_work(void *thread, SplitNode *node);   /* the split pool's work function */
/* endgame_solve.c */
void eg_poll(Searcher *s);          /* every 1024 nodes: clock, stop, progress */

#endif
