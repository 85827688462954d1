/*
 * endgame.c - exact and win/loss/draw endgame solver.
 *
 * DESIGN.  Negamax alpha-beta on exact final scores, layered by the number
 * of empty squares n of the node:
 *   n <= 4      dedicated code (eg_solve_2/3/4): no move generation, each
 *               empty square with an adjacent opponent disc is tried
 *               directly with board_flips(); the last empty is scored by
 *               counting its flips line by line (eg_count_last_flips) since
 *               the board is then full; the 3/4-empty code tries squares
 *               alone in their quadrant first (parity).
 *   n <= EG_SHALLOW_MAX   move generation, moves alone in their quadrant
 *               first, no shared table (below this size it costs more
 *               than it saves); null-window nodes from EG_LOCAL_MIN
 *               empties are eg_mid_nws's (next).
 *   EG_LOCAL_MIN <= n <= EG_LOCAL_MAX with a null window (all but a few
 *               nodes of that size): eg_mid_nws, as Egaroucid does it:
 *               stability cutoff, no shared table but small tables of the
 *               thread's own that stay in its cache, looked up for every
 *               child before the ordering (a known cut returns at once, a
 *               known fail is not searched), ordering by parity and, above
 *               EG_SHALLOW_MAX, first by the opponent's mobility.
 *   larger      the full node (eg_search): stability cutoff, transposition
 *               table (tt.h) with best move, enhanced transposition
 *               cutoff (n >= EG_ETC_MIN), fastest-first ordering (opponent
 *               mobility, potential mobility, corner stability, parity; the
 *               children's move sets found there are handed down with the
 *               moves, so no node generates its moves twice) and,
 *               for n >= EG_SORT_SEARCH_MIN, ordering by a shallow
 *               eval_score() search; PVS (null windows for all but the first
 *               move, re-search on a fail-high) and Young-Brothers-Wait
 *               parallelism (n >= EG_SPLIT_MIN: once the eldest move is
 *               searched the others are shared with idle threads).
 * The root (eg_root) orders its moves deterministically (a shallow search
 * independent of the table), then drives the search with narrow aspiration
 * windows around the estimate; the root's move list is searched in order by
 * the calling thread, so the best move is always the first move of that
 * order with the best score: the same for any thread count.
 *
 * Selective pre-searches (n >= EG_PRESEARCH_MIN, as Edax and Egaroucid do):
 * before the exact search the root runs the same search with probable cuts
 * (multi-ProbCut) at nodes with n >= EG_MPC_MIN: a node is cut when an
 * evaluation search of depth probcut_endgame_depth(n) lies t standard deviations
 * beyond the window, t rising over the levels eg_mpc_t[].  Each level is
 * cheap and leaves best moves in the table (its bounds are tagged with the
 * level, so the exact search never uses them) and a better score estimate
 * for the next level's aspiration window.  Together they about halve the
 * nodes of the exact search; the sigma model and t values were tuned by
 * node counts on FFO #40-#49 (bench/endgame-results.md).
 *
 * Table traffic: the table is allocated with huge pages (util_alloc_large)
 * and a node prefetches its children's buckets while ordering them.  Nodes
 * near the leaves use a small table of the thread's own instead of the
 * shared one (n <= EG_NEAR_MAX, EG_NEAR_MB each with threads; n <=
 * EG_NEAR1_MAX, EG_NEAR1_MB for a lone thread): most table traffic is
 * near the leaves (the enhanced transposition cutoff from EG_ETC_MIN
 * probes every child), and a miss into the big table (a cache miss and, on
 * virtual machines, a TLB miss) costs more than the few transpositions the
 * small table loses.  With threads, two cores missing into the big table
 * at that rate also slow each other down; threads rarely share
 * such small subtrees.  A small solve with a table of its own uses only a
 * part of it (eg_table_cap): its first touches of the table's pages are
 * part of its time.  Figures in bench/solver-profile.md.
 *
 * In an engine the solver works in the engine's table, shared with the
 * midgame search (tt.h): its entries are kept from search to search, the
 * midgame's best moves order the solver's nodes, and bounds count only
 * when their search reached the end of the game (depth >= empties).
 *
 * A node with n < EG_MPC_MIN has no probable cut below it, so what a
 * selective pre-search finds there is exact: it is stored as exact, and the
 * exact search reuses it.
 *
 * Passes: a side without a move passes; when neither side can move the game
 * is over and the score is board_final_score().  Normal scores on any board
 * are even (the empties go to the winner), Anti scores need not be.
 *
 * Every search result is a fail-soft bound: <= alpha is an upper bound,
 * >= beta a lower bound, anything between exact.  The table's bounds carry
 * their selectivity, and the exact search uses only exact ones, which are
 * valid in any later window.
 * A search that sees the stop flag (or a cutoff at a split point it works
 * under) unwinds without storing anything.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "endgame.h"
#include "tt.h"
#include "eval.h"
#include "probcut.h"
#include "splitpool.h"
#include "util.h"
#include "workers.h"

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
	 * positions of 22-26 empties; bench/solver-profile.md) */
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
	EG_MAX_THREADS = 64,
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

/* Probable-cut levels of the selective pre-searches: level L (1-based)
 * cuts when a shallow evaluation search is t = eg_mpc_t[L - 1] standard
 * deviations beyond the window. */
static const double eg_mpc_t[] = { 1.1, 1.5, 2.0, 2.6 };
#define EG_MPC_LEVELS ((int)(sizeof eg_mpc_t / sizeof eg_mpc_t[0]))

/* ---- tables ------------------------------------------------------------ */

/* eg_line_flips[pos][line]: discs flipped on one line of 8 when a disc is
 * played at `pos`, `line` being the player's discs on it and every other
 * square the opponent's (a full board).  Squares beyond the board's edge
 * behave as opponent discs with no player disc behind them, so the table
 * also serves diagonals and the smaller boards. */
static uint8_t eg_line_flips[8][256];
static uint64_t eg_diag9[64], eg_diag7[64]; /* diagonals through a square */
/* Position of a square on its diagonals counted from the diagonal's lowest
 * square (the index order of _pext_u64 in the AVX2 build). */
static uint8_t eg_diag9_pos[64], eg_diag7_pos[64];
/* eg_adjacent[sq]: the (up to 8) squares next to sq.  A move at sq flips
 * nothing unless an opponent disc is adjacent: the last-empties code tests
 * this before computing the flips. */
static uint64_t eg_adjacent[64];
static pthread_once_t eg_once = PTHREAD_ONCE_INIT;

/* Empty-or-not squares next to the set b, outside b. */
static inline uint64_t eg_neighbours(uint64_t b)
{
	const uint64_t notA = 0xFEFEFEFEFEFEFEFEULL, notH = 0x7F7F7F7F7F7F7F7FULL;
	uint64_t l = (b >> 1) & notH, r = (b << 1) & notA;
	uint64_t h = b | l | r;
	return (h | (h << 8) | (h >> 8) | l | r) & ~b;
}

static void eg_init_tables(void)
{
	for (int pos = 0; pos < 8; pos++)
		for (int line = 0; line < 256; line++) {
			int n = 0, k;
			for (k = pos - 1; k >= 0 && !(line & (1 << k)); k--)
				;
			if (k >= 0)
				n += pos - 1 - k;
			for (k = pos + 1; k < 8 && !(line & (1 << k)); k++)
				;
			if (k < 8)
				n += k - pos - 1;
			eg_line_flips[pos][line] = (uint8_t)n;
		}
	for (int sq = 0; sq < 64; sq++) {
		int r = sq >> 3, c = sq & 7;
		uint64_t d9 = 0, d7 = 0;
		for (int s = 0; s < 64; s++) {
			int rr = s >> 3, cc = s & 7;
			if (cc - rr == c - r)
				d9 |= bit_of(s);
			if (cc + rr == c + r)
				d7 |= bit_of(s);
		}
		eg_diag9[sq] = d9;
		eg_diag7[sq] = d7;
		eg_diag9_pos[sq] = (uint8_t)(r < c ? r : c);
		eg_diag7_pos[sq] = (uint8_t)(r + c > 7 ? 7 - c : r);
		eg_adjacent[sq] = eg_neighbours(bit_of(sq));
	}
}

/* Discs the side with discs `p` flips by playing `sq` on a full board.
 * Each line of sq is gathered into an 8-bit index: with BMI2's pext in the
 * AVX2 build (bits in square order, sq at its eg_diag*_pos), else by a
 * multiplication that moves each disc to its column's bit; bits past the
 * line's end are 0 either way, which the table reads as opponent discs with
 * no player disc behind, so both give the same counts. */
static inline int eg_count_last_flips(uint64_t p, int sq)
{
	const int r = sq >> 3, c = sq & 7;
	const uint64_t fileA = 0x0101010101010101ULL;
	int n = eg_line_flips[c][(p >> (r * 8)) & 0xFF];
#if EMILIA_HAVE_AVX2
	n += eg_line_flips[r][_pext_u64(p, fileA << c)];
	n += eg_line_flips[eg_diag9_pos[sq]][_pext_u64(p, eg_diag9[sq])];
	n += eg_line_flips[eg_diag7_pos[sq]][_pext_u64(p, eg_diag7[sq])];
#else
	n += eg_line_flips[r][(((p >> c) & fileA) * 0x0102040810204080ULL) >> 56];
	n += eg_line_flips[c][((p & eg_diag9[sq]) * fileA) >> 56];
	n += eg_line_flips[c][((p & eg_diag7[sq]) * fileA) >> 56];
#endif
	return n;
}

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

/* ---- scoring and stability ------------------------------------------ */

/* Score of a finished game, p to move. */
static inline int eg_final(const Shared *sh, uint64_t p, uint64_t o)
{
	int np = bit_count(p), no = bit_count(o);
	if (sh->variant == VARIANT_ANTI)
		return no - np;
	int d = np - no, e = sh->area - np - no;
	return d > 0 ? d + e : d < 0 ? d - e : 0;
}


/* Squares whose line is full in each direction (outside squares count as
 * full).  out[0] horizontal, [1] vertical, [2] a1-h8 diagonals, [3] the
 * other diagonals.  Rows and columns AND their 8 bits together by halving
 * shifts; a diagonal is full when no empty square spreads onto it (the
 * empties are spread both ways along the diagonal by shifts of 1, 2 and 4
 * steps, masked so that nothing wraps around the board's edge). */
static inline void eg_full_lines(uint64_t occ, uint64_t out[4])
{
	const uint64_t nA = 0xFEFEFEFEFEFEFEFEULL, nAB = 0xFCFCFCFCFCFCFCFCULL, nAD = 0xF0F0F0F0F0F0F0F0ULL;
	const uint64_t nH = 0x7F7F7F7F7F7F7F7FULL, nGH = 0x3F3F3F3F3F3F3F3FULL, nEH = 0x0F0F0F0F0F0F0F0FULL;
	uint64_t h = occ & (occ >> 4);
	h &= h >> 2;
	h &= h >> 1;
	out[0] = (h & 0x0101010101010101ULL) * 0xFF;
	uint64_t v = occ & (occ >> 32);
	v &= v >> 16;
	v &= v >> 8;
	out[1] = (v & 0xFF) * 0x0101010101010101ULL;
	const uint64_t e = ~occ;
	uint64_t g = e;
	g |= (g << 9) & nA;
	g |= (g << 18) & nAB;
	g |= (g << 36) & nAD;
	g |= (g >> 9) & nH;
	g |= (g >> 18) & nGH;
	g |= (g >> 36) & nEH;
	out[2] = ~g;
	g = e;
	g |= (g << 7) & nH;
	g |= (g << 14) & nGH;
	g |= (g << 28) & nEH;
	g |= (g >> 7) & nA;
	g |= (g >> 14) & nAB;
	g |= (g >> 28) & nAD;
	out[3] = ~g;
}

/* Stable discs of p: a disc is stable when in each of the four directions
 * its line is full, or one neighbour along it is off the board or a stable
 * disc of the same colour.  Iterated to a fixed point from the edges. */
static uint64_t eg_stable(const Shared *sh, uint64_t p, uint64_t o)
{
	const uint64_t A = 0x0101010101010101ULL, H = 0x8080808080808080ULL;
	const uint64_t R1 = 0xFFULL, R8 = 0xFF00000000000000ULL;
	const uint64_t off = ~sh->geo;
	uint64_t full[4];
	eg_full_lines(p | o | off, full);
	uint64_t hz = full[0] | A | H, vt = full[1] | R1 | R8;
	uint64_t d9 = full[2] | A | H | R1 | R8, d7 = full[3] | A | H | R1 | R8;
	uint64_t st = 0, prev;
	do {
		prev = st;
		uint64_t s = st | off;
		uint64_t a = p & (hz | ((s << 1) & ~A) | ((s >> 1) & ~H));
		a &= vt | (s << 8) | (s >> 8);
		a &= d9 | ((s << 9) & ~A) | ((s >> 9) & ~H);
		a &= d7 | ((s << 7) & ~H) | ((s >> 7) & ~A);
		st = a;
	} while (st != prev);
	return st;
}

/* An upper bound of p's score from the opponent's stable discs (Anti: p's
 * own), worked out only when it could be at most alpha; else EG_INF. */
static inline int eg_stability_bound(const Shared *sh, uint64_t p, uint64_t o, int alpha)
{
	const uint64_t who = sh->variant == VARIANT_ANTI ? p : o;
	if (alpha < sh->area - 2 * bit_count(who))
		return EG_INF;
	return sh->area - 2 * bit_count(eg_stable(sh, who, who == p ? o : p));
}

/* ---- search bookkeeping --------------------------------------------- */

static void eg_poll(Searcher *s)
{
	Shared *sh = s->sh;
	atomic_store_explicit(&s->published, s->nodes, memory_order_relaxed);
	/* every thread watches the user's flag: the main thread may be waiting
	 * for a helper's long subtree */
	if (sh->user_stop && atomic_load_explicit(sh->user_stop, memory_order_relaxed))
		atomic_store_explicit(&sh->stop, true, memory_order_relaxed);
	if (sh->deadline > 0 && util_now() >= sh->deadline) {
		atomic_store_explicit(&sh->stop, true, memory_order_relaxed);
		if (sh->user_stop)
			atomic_store_explicit(sh->user_stop, true, memory_order_relaxed);
	}
	if (s->id != 0)
		return;
	if (sh->progress || sh->progress_root) {
		double now = util_now();
		if (now >= sh->next_progress) {
			sh->next_progress = now + 1.0;
			uint64_t total = 0;
			for (int i = 0; i < sh->nthreads; i++)
				total += atomic_load_explicit(&sh->threads[i].published, memory_order_relaxed);
			if (sh->progress_root)
				sh->progress_root(sh->progress_user, sh->root_bound, total, now - sh->t0, sh->root_index,
				                  sh->root_moves);
			else
				sh->progress(sh->progress_user, sh->root_bound, total, now - sh->t0);
		}
	}
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


/* ---- the last empties ---------------------------------------------- */

/* One empty square sq left, p to move. */
static inline int eg_last1(Searcher *s, uint64_t p, uint64_t o, int sq)
{
	const Shared *sh = s->sh;
	s->nodes++;
	int np = bit_count(p);
	int n = eg_count_last_flips(p, sq);
	int d; /* final discs of p minus discs of o */
	if (n) {
		d = 2 * (np + n + 1) - sh->area;
	} else if ((n = eg_count_last_flips(o, sq)) != 0) {
		d = 2 * (np - n) - sh->area;
	} else {
		d = 2 * np - sh->area + 1; /* the square stays empty */
		if (sh->variant == VARIANT_ANTI)
			return -d;
		return d > 0 ? d + 1 : d - 1;
	}
	return sh->variant == VARIANT_ANTI ? -d : d;
}

static inline int eg_quadrant_of(const Shared *sh, int sq)
{
	int half = sh->size / 2, r = sq >> 3, c = sq & 7;
	return (c >= half) | ((r >= half) << 1);
}

/* The quadrants of the board in which e (the empty squares) has exactly
 * one square: the parity order plays those squares first. */
static inline uint64_t eg_lone_quadrants(const Shared *sh, uint64_t e)
{
	uint64_t lone = 0;
	for (int q = 0; q < 4; q++)
		if (bit_count(e & sh->quadrant[q]) == 1)
			lone |= sh->quadrant[q];
	return lone;
}

static inline __attribute__((always_inline)) int eg_solve_2(Searcher *s, uint64_t p, uint64_t o, int alpha,
                                                             int beta, int x1, int x2)
{
	s->nodes++;
	int best = -EG_INF;
	uint64_t f;
	if ((o & eg_adjacent[x1]) && (f = board_flips(p, o, x1)) != 0) {
		best = -eg_last1(s, o ^ f, p ^ f ^ bit_of(x1), x2);
		if (best >= beta)
			return best;
	}
	if ((o & eg_adjacent[x2]) && (f = board_flips(p, o, x2)) != 0) {
		int v = -eg_last1(s, o ^ f, p ^ f ^ bit_of(x2), x1);
		if (v > best)
			best = v;
		return best;
	}
	if (best > -EG_INF)
		return best;
	/* p passes: the opponent plays, p's score is the minimum */
	int worst = EG_INF;
	if ((p & eg_adjacent[x1]) && (f = board_flips(o, p, x1)) != 0) {
		worst = eg_last1(s, p ^ f, o ^ f ^ bit_of(x1), x2);
		if (worst <= alpha)
			return worst;
	}
	if ((p & eg_adjacent[x2]) && (f = board_flips(o, p, x2)) != 0) {
		int v = eg_last1(s, p ^ f, o ^ f ^ bit_of(x2), x1);
		if (v < worst)
			worst = v;
	}
	if (worst < EG_INF)
		return worst;
	return eg_final(s->sh, p, o);
}

/* The side to move's best result over its moves at 3 empties (the order
 * of x), or EG_NO_MOVE when it has none. */
#define EG_NO_MOVE (-EG_INF - 1)
static inline __attribute__((always_inline)) int eg_solve_3_side(Searcher *s, uint64_t p, uint64_t o, int alpha,
                                                                  int beta, int x0, int x1, int x2)
{
	int best = EG_NO_MOVE;
	uint64_t f;
	if ((o & eg_adjacent[x0]) && (f = board_flips(p, o, x0)) != 0) {
		best = -eg_solve_2(s, o ^ f, p ^ f ^ bit_of(x0), -beta, -alpha, x1, x2);
		if (best >= beta)
			return best;
	}
	if ((o & eg_adjacent[x1]) && (f = board_flips(p, o, x1)) != 0) {
		const int v = -eg_solve_2(s, o ^ f, p ^ f ^ bit_of(x1), -beta, -(alpha > best ? alpha : best), x0, x2);
		if (v > best) {
			best = v;
			if (best >= beta)
				return best;
		}
	}
	if ((o & eg_adjacent[x2]) && (f = board_flips(p, o, x2)) != 0) {
		const int v = -eg_solve_2(s, o ^ f, p ^ f ^ bit_of(x2), -beta, -(alpha > best ? alpha : best), x0, x1);
		if (v > best)
			best = v;
	}
	return best;
}

static int eg_solve_3(Searcher *s, uint64_t p, uint64_t o, int alpha, int beta, uint64_t e)
{
	s->nodes++;
	int x0 = bit_first(e);
	e = bit_pop(e);
	int x1 = bit_first(e), x2 = bit_first(bit_pop(e));
	if (s->sh->features & ENDGAME_F_PARITY) {
		/* the square alone in its quadrant first */
		const uint64_t q0 = s->sh->quadrant_of[x0];
		const bool same01 = q0 >> x1 & 1, same02 = q0 >> x2 & 1;
		const bool same12 = s->sh->quadrant_of[x1] >> x2 & 1;
		if (same01 && !same12) {
			int t = x2; x2 = x1; x1 = x0; x0 = t;
		} else if (same02 && !same12) {
			int t = x1; x1 = x0; x0 = t;
		}
	}
	int v = eg_solve_3_side(s, p, o, alpha, beta, x0, x1, x2);
	if (v != EG_NO_MOVE)
		return v;
	v = eg_solve_3_side(s, o, p, -beta, -alpha, x0, x1, x2);
	if (v != EG_NO_MOVE)
		return -v;
	return eg_final(s->sh, p, o);
}

/* The same at 4 empties, the squares in x[] in the order to try. */
static inline __attribute__((always_inline)) int eg_solve_4_side(Searcher *s, uint64_t p, uint64_t o, int alpha,
                                                                  int beta, const int x[4], uint64_t e)
{
	int best = EG_NO_MOVE;
	for (int i = 0; i < 4; i++) {
		if (!(o & eg_adjacent[x[i]]))
			continue;
		const uint64_t f = board_flips(p, o, x[i]);
		if (!f)
			continue;
		/* keep the parity order for the three left: solve_3 reorders */
		const int v = -eg_solve_3(s, o ^ f, p ^ f ^ bit_of(x[i]), -beta, -(alpha > best ? alpha : best),
		                          e ^ bit_of(x[i]));
		if (v > best) {
			best = v;
			if (best >= beta)
				return best;
		}
	}
	return best;
}

static int eg_solve_4(Searcher *s, uint64_t p, uint64_t o, int alpha, int beta, uint64_t e)
{
	s->nodes++;
	int x[4], k = 0;
	if (s->sh->features & ENDGAME_F_PARITY) {
		/* squares alone in their quadrant first */
		const uint64_t lone = eg_lone_quadrants(s->sh, e);
		for (uint64_t m = e & lone; m; m = bit_pop(m))
			x[k++] = bit_first(m);
		for (uint64_t m = e & ~lone; m; m = bit_pop(m))
			x[k++] = bit_first(m);
	} else {
		for (uint64_t m = e; m; m = bit_pop(m))
			x[k++] = bit_first(m);
	}
	int v = eg_solve_4_side(s, p, o, alpha, beta, x, e);
	if (v != EG_NO_MOVE)
		return v;
	v = eg_solve_4_side(s, o, p, -beta, -alpha, x, e);
	if (v != EG_NO_MOVE)
		return -v;
	return eg_final(s->sh, p, o);
}

static int eg_search(Searcher *s, uint64_t p, uint64_t o, int alpha, int beta, int n, uint64_t moves);
static int eg_shallow(Searcher *s, uint64_t p, uint64_t o, int alpha, int beta, int n, uint64_t moves);
static int eg_mid_nws(Searcher *s, uint64_t p, uint64_t o, int alpha, int n, uint64_t moves);

/* Any node: dispatch on the number of empties.  `moves` is the legal move
 * set of p within the board when the caller computed it while ordering,
 * else EG_MOVES_UNKNOWN. */
static inline int eg_node(Searcher *s, uint64_t p, uint64_t o, int alpha, int beta, int n, uint64_t moves)
{
	if (n >= EG_LOCAL_MIN && n <= EG_LOCAL_MAX && beta == alpha + 1 && s->local)
		return eg_mid_nws(s, p, o, alpha, n, moves);
	if (n > EG_SHALLOW_MAX)
		return eg_search(s, p, o, alpha, beta, n, moves);
	if (!(s->sh->features & ENDGAME_F_LASTN) || n > 4)
		return eg_shallow(s, p, o, alpha, beta, n, moves);
	uint64_t e = s->sh->geo & ~(p | o);
	switch (n) {
	case 4:
		return eg_solve_4(s, p, o, alpha, beta, e);
	case 3:
		return eg_solve_3(s, p, o, alpha, beta, e);
	case 2: {
		int x1 = bit_first(e);
		return eg_solve_2(s, p, o, alpha, beta, x1, bit_first(bit_pop(e)));
	}
	case 1:
		return eg_last1(s, p, o, bit_first(e));
	default:
		s->nodes++;
		return eg_final(s->sh, p, o);
	}
}

/* Nodes with few empties: move generation, lone-square moves first. */
static int eg_shallow(Searcher *s, uint64_t p, uint64_t o, int alpha, int beta, int n, uint64_t moves)
{
	const Shared *sh = s->sh;
	s->nodes++;
	if (moves == EG_MOVES_UNKNOWN)
		moves = board_moves(p, o) & sh->geo;
	if (!moves) {
		const uint64_t om = board_moves(o, p) & sh->geo;
		if (!om)
			return eg_final(sh, p, o);
		return -eg_shallow(s, o, p, -beta, -alpha, n, om);
	}
	uint64_t first = moves, second = 0;
	if (sh->features & ENDGAME_F_PARITY) {
		/* squares alone in their quadrant first: where a quadrant holds
		 * 3 empties, fewer nodes than odd quadrants first */
		const uint64_t lone = eg_lone_quadrants(sh, sh->geo & ~(p | o));
		first = moves & lone;
		second = moves & ~lone;
	}
	int best = -EG_INF;
	for (int pass = 0; pass < 2; pass++) {
		for (uint64_t m = pass ? second : first; m; m = bit_pop(m)) {
			int sq = bit_first(m);
			uint64_t f = board_flips(p, o, sq);
			int v = -eg_node(s, o ^ f, p ^ f ^ bit_of(sq), -beta, -(alpha > best ? alpha : best), n - 1,
			                 EG_MOVES_UNKNOWN);
			if (v > best) {
				best = v;
				if (best >= beta)
					return best;
			}
		}
	}
	return best;
}


/* ---- move ordering -------------------------------------------------- */

/* Shallow evaluation search (alpha-beta, depth plies) for move ordering. */
static int eg_eval_search(Searcher *s, uint64_t p, uint64_t o, int alpha, int beta, int depth, bool passed)
{
	const Shared *sh = s->sh;
	s->nodes++;
	if (depth == 0)
		return eval_score(sh->ev, p, o);
	/* deep ones (a probable cut at many empties) take long: watch the stop,
	 * and poll the clock about as often as the other nodes do (a node of
	 * depth 3 or more stands for hundreds of leaves) */
	if (depth >= 3) {
		if ((s->polls += 64) >= 1024) {
			s->polls = 0;
			eg_poll(s);
		}
		if (eg_aborted(s))
			return 0;
	}
	uint64_t moves = board_moves(p, o) & sh->geo;
	if (!moves) {
		if (passed)
			return eg_final(sh, p, o);
		return -eg_eval_search(s, o, p, -beta, -alpha, depth, true);
	}
	int best = -EG_INF;
	for (; moves; moves = bit_pop(moves)) {
		int sq = bit_first(moves);
		uint64_t f = board_flips(p, o, sq);
		int v = -eg_eval_search(s, o ^ f, p ^ f ^ bit_of(sq), -beta, -(alpha > best ? alpha : best), depth - 1, false);
		if (v > best) {
			best = v;
			if (best >= beta)
				break;
		}
	}
	return best;
}

/* Plies of the evaluation search that orders the moves of an n-empties
 * node (0: fastest-first and static evaluation only); deeper ordering
 * pays for itself from 24 empties on. */
static int eg_sort_depth(int n)
{
	return n < EG_SORT_SEARCH_MIN ? 0 : n < 24 ? 2 : 3;
}

/* Own discs near corners that can never be flipped: corners, and edge
 * squares next to an own corner when owned. */
static inline int eg_corner_stability(const Shared *sh, uint64_t me)
{
	uint64_t c = me & sh->corners;
	uint64_t near = ((c << 1) & 0xFEFEFEFEFEFEFEFEULL) | ((c >> 1) & 0x7F7F7F7F7F7F7F7FULL) | (c << 8) | (c >> 8);
	return bit_count(c | (near & me));
}

/* The table for a node with n empties. */
static inline TT *eg_table_for(const Searcher *s, int n)
{
	return n <= s->near_max && s->near ? s->near : s->sh->tt;
}

/* Look (p, o) up: true with its bounds and move when present; bounds of
 * a search that did not reach the end of the game or was less exact than
 * the solve read as (-127, 127).  need = tt_depth_sel_key(n, sel) for a
 * position of n empties: an entry's depth never exceeds its empties
 * (tt.h), so one compare tells both. */
static inline bool eg_probe(const TT *t, uint64_t p, uint64_t o, unsigned need, int *lower, int *upper, int *move)
{
	uint64_t w;
	if (!tt_probe_word(t, p, o, &w))
		return false;
	const TTData d = tt_unpack(w);
	if (tt_depth_sel(w) >= need) {
		*lower = d.lower;
		*upper = d.upper;
	} else {
		*lower = -127;
		*upper = 127;
	}
	*move = d.move;
	return true;
}

/* Fill the move list of (p, o) with flips and ordering values; a disc of
 * the evaluation search of sort_depth plies weighs search_weight. */
static int eg_order(Searcher *s, uint64_t p, uint64_t o, uint64_t moves, int n, int ttmove, EgMove *list,
                    int sort_depth, int search_weight)
{
	const Shared *sh = s->sh;
	const bool prefetch = n - 1 > EG_SHALLOW_MAX && (sh->features & ENDGAME_F_TT) && sh->tt->entries;
	const TT *ct = eg_table_for(s, n - 1);
	int k = 0;
	uint64_t e = sh->geo & ~(p | o), odd = 0;
	for (int q = 0; q < 4; q++)
		if (bit_count(e & sh->quadrant[q]) & 1)
			odd |= sh->quadrant[q];
	for (; moves; moves = bit_pop(moves)) {
		const int sq = bit_first(moves);
		EgMove *m = &list[k++];
		m->sq = sq;
		m->f = board_flips(p, o, sq);
		m->om = EG_MOVES_UNKNOWN;
		uint64_t cp = o ^ m->f, co = p ^ m->f ^ bit_of(sq);
		if (prefetch)
			tt_prefetch(ct, cp, co);
		int v = 0;
		if (sort_depth > 0) {
			v = -eg_eval_search(s, cp, co, -EG_INF, EG_INF, sort_depth - 1, false) * search_weight;
		} else if (n >= EG_STATIC_SORT_MIN && (sh->features & ENDGAME_F_SORTSEARCH)) {
			v = -eval_score(sh->ev, cp, co) * EG_W_STATIC;
		}
		if (sh->features & ENDGAME_F_FASTEST) {
			/* the child's move set, passed down so that it is not generated twice */
			const uint64_t om = board_moves(cp, co) & sh->geo;
			m->om = om;
			int mob = bit_count(om) + bit_count(om & sh->corners);
			int pot = bit_count(eg_neighbours(co) & e & ~bit_of(sq));
			v += -mob * EG_W_MOBILITY - pot * (n >= EG_STATIC_SORT_MIN ? EG_W_POTENTIAL_DEEP : EG_W_POTENTIAL) +
			     eg_corner_stability(sh, co) * EG_W_CORNER;
			if (sh->features & ENDGAME_F_PARITY)
				v += (int)(odd >> sq & 1) << 3;
		}
		if (sq == ttmove)
			v = 1 << 30;
		m->value = v;
	}
	return k;
}

/* Bring the best remaining move to position i. */
static inline void eg_pick(EgMove *list, int i, int k)
{
	int b = i;
	for (int j = i + 1; j < k; j++)
		if (list[j].value > list[b].value)
			b = j;
	if (b != i) {
		EgMove t = list[b];
		list[b] = list[i];
		list[i] = t;
	}
}


/* ---- null-window nodes near the leaves ------------------------------- */

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

/* The slot of child (p, o), which has n empties. */
static inline EgLocalEntry *eg_local_slot(const Searcher *s, int n, uint64_t p, uint64_t o)
{
	const uint64_t h = (p * 0x9dda1c54cfe6b6e9ULL) ^ (o * 0xa2e6c0300831e05aULL);
	return &s->local->e[n - (EG_LOCAL_MIN - 1)][h >> (64 - EG_LOCAL_BITS)];
}

static inline void eg_local_store(EgLocalEntry *t, uint64_t p, uint64_t o, int lo, int hi)
{
	t->p = p;
	t->o = o;
	t->lo = (int8_t)lo;
	t->hi = (int8_t)hi;
}

/* A null-window node (alpha, alpha + 1) with EG_LOCAL_MIN <= n <=
 * EG_LOCAL_MAX empties, as Egaroucid searches them: stability cutoff, no
 * shared table, only the thread's small tables, consulted for every child
 * before ordering (a child known to cut is returned at once, a child known
 * to fail is not searched again); squares alone in their quadrant first,
 * and above EG_SHALLOW_MAX empties fastest-first ordering before that (the
 * opponent's mobility, corners twice).  Its subtrees are small, so it
 * neither polls the clock nor watches the stop flag. */
static int eg_mid_nws(Searcher *s, uint64_t p, uint64_t o, int alpha, int n, uint64_t moves)
{
	const Shared *sh = s->sh;
	const unsigned feat = sh->features;
	s->nodes++;
	if (feat & ENDGAME_F_STABILITY) {
		const int hi = eg_stability_bound(sh, p, o, alpha);
		if (hi <= alpha)
			return hi;
	}
	if (moves == EG_MOVES_UNKNOWN)
		moves = board_moves(p, o) & sh->geo;
	if (!moves) {
		const uint64_t om = board_moves(o, p) & sh->geo;
		if (!om)
			return eg_final(sh, p, o);
		return -eg_mid_nws(s, o, p, -alpha - 1, n, om);
	}
	const uint64_t lone = (feat & ENDGAME_F_PARITY) ? eg_lone_quadrants(sh, sh->geo & ~(p | o)) : 0;
	EgMove list[EG_MAX_MOVES];
	int k = 0, best = -EG_INF;
	for (; moves; moves = bit_pop(moves)) {
		const int sq = bit_first(moves);
		const uint64_t f = board_flips(p, o, sq);
		const uint64_t cp = o ^ f, co = p ^ f ^ bit_of(sq);
		const EgLocalEntry *t = eg_local_slot(s, n - 1, cp, co);
		if (t->p == cp && t->o == co) {
			if (t->lo > alpha)
				return t->lo;
			if (t->hi <= alpha) {
				if (t->hi > best)
					best = t->hi;
				continue;
			}
		}
		EgMove *m = &list[k++];
		m->sq = sq;
		m->f = f;
		m->om = EG_MOVES_UNKNOWN;
		int v = (int)(lone >> sq & 1);
		if ((feat & ENDGAME_F_FASTEST) && n > EG_SHALLOW_MAX) {
			const uint64_t om = board_moves(cp, co) & sh->geo;
			m->om = om;
			v -= (bit_count(om) + bit_count(om & sh->corners)) * 2;
		}
		m->value = v;
	}
	for (int i = 0; i < k; i++) {
		eg_pick(list, i, k);
		const EgMove *m = &list[i];
		const uint64_t cp = o ^ m->f, co = p ^ m->f ^ bit_of(m->sq);
		const int v = -eg_node(s, cp, co, -alpha - 1, -alpha, n - 1, m->om);
		EgLocalEntry *t = eg_local_slot(s, n - 1, cp, co);
		if (v > alpha) {
			eg_local_store(t, cp, co, v, EG_INF);
			return v;
		}
		eg_local_store(t, cp, co, -EG_INF, v);
		if (v > best)
			best = v;
	}
	return best;
}

/* ---- parallel split points ------------------------------------------ */

/* Search one child of a split point with its current window. */
static int eg_search_child(Searcher *s, uint64_t p, uint64_t o, const EgMove *m, int alpha, int beta, int n)
{
	uint64_t cp = o ^ m->f, co = p ^ m->f ^ bit_of(m->sq);
	if (beta == alpha + 1)
		return -eg_node(s, cp, co, -beta, -alpha, n - 1, m->om);
	int v = -eg_node(s, cp, co, -alpha - 1, -alpha, n - 1, m->om);
	if (v > alpha && v < beta && !eg_aborted(s))
		v = -eg_node(s, cp, co, -beta, -alpha, n - 1, m->om);
	return v;
}

/* The pool's work function: take and search moves of a SplitPoint until
 * none are left or it is cut off. */
static void eg_sp_work(void *thread, SplitNode *node)
{
	Searcher *s = thread;
	SplitPoint *sp = (SplitPoint *)node;
	SplitNode *prev = s->sp;
	s->sp = node;
	for (;;) {
		pthread_mutex_lock(&node->lock);
		if (node->next >= node->count || atomic_load_explicit(&node->cutoff, memory_order_relaxed)) {
			pthread_mutex_unlock(&node->lock);
			break;
		}
		const EgMove *m = &sp->moves[node->next++];
		int alpha = sp->alpha, beta = sp->beta;
		pthread_mutex_unlock(&node->lock);
		int v = eg_search_child(s, sp->p, sp->o, m, alpha, beta, sp->n);
		if (eg_aborted(s))
			break;
		pthread_mutex_lock(&node->lock);
		if (v > sp->best) {
			sp->best = v;
			sp->best_move = m->sq;
			if (v > sp->alpha) {
				sp->alpha = v;
				if (v >= sp->beta)
					atomic_store_explicit(&node->cutoff, true, memory_order_relaxed);
			}
		}
		pthread_mutex_unlock(&node->lock);
	}
	s->sp = prev;
}

static void eg_helper(void *arg)
{
	Searcher *s = arg;
	split_pool_helper(&s->sh->pool, s);
	atomic_store_explicit(&s->published, s->nodes, memory_order_relaxed);
}

static void *eg_helper_thread(void *arg)
{
	eg_helper(arg);
	return NULL;
}

/* Search moves list[1..k) of a node in parallel; returns with the node's
 * result in *best / *best_move (alpha/beta as updated). */
static void eg_split(Searcher *s, uint64_t p, uint64_t o, int n, EgMove *list, int k, int *alpha, int beta,
                     int *best, int *best_move)
{
	SplitPoint sp;
	split_node_init(&sp.node, s->sp, 1, k);
	sp.p = p;
	sp.o = o;
	sp.n = n;
	sp.alpha = *alpha;
	sp.beta = beta;
	sp.best = *best;
	sp.best_move = *best_move;
	sp.moves = list;
	split_pool_run(&s->sh->pool, &sp.node, s);
	/* all workers are gone: sp's fields are ours again */
	*alpha = sp.alpha;
	*best = sp.best;
	*best_move = sp.best_move;
	split_node_destroy(&sp.node);
}

/* ---- probable cuts (selective pre-searches) -------------------------- */

/* Multi-ProbCut at an n-empties node of a selective search: true with *v
 * when a shallow evaluation search predicts a result outside (alpha, beta)
 * with the level's confidence. */
static bool eg_probable_cut(Searcher *s, uint64_t p, uint64_t o, int alpha, int beta, int n, int *v)
{
	const int d = probcut_endgame_depth(n);
	const Shared *sh = s->sh;
	const int margin = (int)(eg_mpc_t[sh->sel] * probcut_endgame_sigma(n, d) + 0.5);
	const int hi = beta + margin, lo = alpha - margin;
	if (hi < sh->area && eg_eval_search(s, p, o, hi - 1, hi, d, false) >= hi) {
		*v = beta;
		return true;
	}
	if (lo > -sh->area && eg_eval_search(s, p, o, lo, lo + 1, d, false) <= lo) {
		*v = alpha;
		return true;
	}
	return false;
}

/* ---- the full node -------------------------------------------------- */

static int eg_search(Searcher *s, uint64_t p, uint64_t o, int alpha, int beta, int n, uint64_t moves)
{
	Shared *sh = s->sh;
	s->nodes++;
	if (++s->polls >= 1024) {
		s->polls = 0;
		eg_poll(s);
	}
	if (eg_aborted(s))
		return 0;
	const unsigned feat = sh->features;

	if (feat & ENDGAME_F_STABILITY) {
		const int hi = eg_stability_bound(sh, p, o, alpha);
		if (hi <= alpha)
			return hi;
		if (hi < beta)
			beta = hi;
	}

	int ttmove = TT_NO_MOVE;
	if (feat & ENDGAME_F_TT) {
		int lo, hi;
		if (eg_probe(eg_table_for(s, n), p, o, tt_depth_sel_key(n, sh->sel), &lo, &hi, &ttmove)) {
			if (lo >= beta)
				return lo;
			if (hi <= alpha)
				return hi;
			if (lo == hi)
				return lo;
			if (lo > alpha)
				alpha = lo;
			if (hi < beta)
				beta = hi;
		}
	}

	if (sh->sel != EG_SEL_EXACT && n >= EG_MPC_MIN) {
		int v;
		if (eg_probable_cut(s, p, o, alpha, beta, n, &v))
			return v;
	}

	if (moves == EG_MOVES_UNKNOWN)
		moves = board_moves(p, o) & sh->geo;
	if (!moves) {
		const uint64_t om = board_moves(o, p) & sh->geo;
		if (!om)
			return eg_final(sh, p, o);
		return -eg_search(s, o, p, -beta, -alpha, n, om);
	}

	EgMove list[EG_MAX_MOVES];
	int k;
	if (bit_count(moves) == 1) {
		list[0].sq = bit_first(moves);
		list[0].f = board_flips(p, o, list[0].sq);
		list[0].om = EG_MOVES_UNKNOWN;
		list[0].value = 0;
		k = 1;
	} else {
		k = eg_order(s, p, o, moves, n, ttmove, list, (feat & ENDGAME_F_SORTSEARCH) ? eg_sort_depth(n) : 0,
		             EG_W_SEARCH);
		/* enhanced transposition cutoff: a child already known to be good enough */
		if ((feat & (ENDGAME_F_ETC | ENDGAME_F_TT)) == (ENDGAME_F_ETC | ENDGAME_F_TT) && n >= EG_ETC_MIN) {
			const TT *ct = eg_table_for(s, n - 1);
			const unsigned cneed = tt_depth_sel_key(n - 1, sh->sel);
			for (int i = 0; i < k; i++) {
				int lo, hi, mv;
				uint64_t cp = o ^ list[i].f, co = p ^ list[i].f ^ bit_of(list[i].sq);
				if (eg_probe(ct, cp, co, cneed, &lo, &hi, &mv) && -hi >= beta) {
					tt_store(eg_table_for(s, n), p, o, n, sh->sel, alpha, beta, -hi, list[i].sq);
					return -hi;
				}
			}
		}
	}

	const int alpha0 = alpha;
	int best = -EG_INF, best_move = list[0].sq;
	for (int i = 0; i < k; i++) {
		eg_pick(list, i, k);
		const EgMove *m = &list[i];
		uint64_t cp = o ^ m->f, co = p ^ m->f ^ bit_of(m->sq);
		int v;
		if (i == 0) {
			v = -eg_node(s, cp, co, -beta, -alpha, n - 1, m->om);
		} else {
			v = -eg_node(s, cp, co, -alpha - 1, -alpha, n - 1, m->om);
			if (v > alpha && v < beta && !eg_aborted(s))
				v = -eg_node(s, cp, co, -beta, -alpha, n - 1, m->om);
		}
		if (eg_aborted(s))
			return 0;
		if (v > best) {
			best = v;
			best_move = m->sq;
			if (v > alpha) {
				alpha = v;
				if (alpha >= beta)
					break;
			}
		}
		if (i == 0 && k > 2 && n >= EG_SPLIT_MIN && sh->nthreads > 1 &&
		    split_pool_has_idle(&sh->pool)) {
			for (int j = 1; j < k; j++)
				eg_pick(list, j, k);
			eg_split(s, p, o, n, list, k, &alpha, beta, &best, &best_move);
			if (eg_aborted(s))
				return 0;
			break;
		}
	}
	if (feat & ENDGAME_F_TT)
		tt_store(eg_table_for(s, n), p, o, n, n < EG_MPC_MIN ? EG_SEL_EXACT : sh->sel, alpha0, beta, best,
		         best_move);
	return best;
}

/* ---- root ----------------------------------------------------------- */

typedef struct EgRoot {
	EgMove list[EG_MAX_MOVES];
	int k;
} EgRoot;

/* PVS over the root moves in their fixed order; the best move is the first
 * one with the best score. */
static int eg_root_pvs(Searcher *s, uint64_t p, uint64_t o, int n, EgRoot *r, int alpha, int beta, int *move)
{
	int best = -EG_INF;
	*move = r->list[0].sq;
	s->sh->root_bound = alpha;
	s->sh->root_moves = r->k;
	for (int i = 0; i < r->k; i++) {
		const EgMove *m = &r->list[i];
		s->sh->root_index = i;
		uint64_t cp = o ^ m->f, co = p ^ m->f ^ bit_of(m->sq);
		int v;
		if (i == 0) {
			v = -eg_node(s, cp, co, -beta, -alpha, n - 1, m->om);
		} else {
			v = -eg_node(s, cp, co, -alpha - 1, -alpha, n - 1, m->om);
			if (v > alpha && v < beta && !eg_aborted(s))
				v = -eg_node(s, cp, co, -beta, -alpha, n - 1, m->om);
		}
		if (eg_aborted(s))
			break;
		if (v > best) {
			best = v;
			*move = m->sq;
			if (v > alpha) {
				alpha = v;
				s->sh->root_bound = alpha;
				if (alpha >= beta)
					break;
			}
		}
	}
	return best;
}

/* Root search in (alpha, beta) by aspiration windows around the estimate g.
 * An exact search gives the same value in any window, so the windows close
 * in on it.  A selective one need not: a probable cut depends on the
 * window, and a value can fail high in one window and low in the next for
 * ever.  With max_tries > 0 the search then stops after that many windows
 * and returns the last value, which is only an estimate anyway. */
static int eg_root_aspiration(Searcher *s, uint64_t p, uint64_t o, int n, EgRoot *r, int alpha, int beta, int g,
                              int *move, int max_tries)
{
	if (s->sh->variant == VARIANT_NORMAL)
		g &= ~1;
	if (g < alpha + 1)
		g = alpha + 1;
	if (g > beta - 1)
		g = beta - 1;
	/* (g - 2, g + 2): a wider window costs more nodes than the occasional
	 * re-search of a narrow one */
	int lo = g - 2 > alpha ? g - 2 : alpha, hi = g + 2 < beta ? g + 2 : beta;
	int delta = 4;
	for (int tries = 1;; tries++) {
		int v = eg_root_pvs(s, p, o, n, r, lo, hi, move);
		if (eg_aborted(s) || tries == max_tries)
			return v;
		if (v <= lo && lo > alpha) {
			hi = v + 1 < hi ? v + 1 : hi;
			lo = v - delta > alpha ? v - delta : alpha;
		} else if (v >= hi && hi < beta) {
			lo = v - 1 > lo ? v - 1 : lo;
			hi = v + delta < beta ? v + delta : beta;
		} else {
			return v;
		}
		delta *= 2;
	}
}

static int eg_root(Searcher *s, uint64_t p, uint64_t o, int n, int alpha, int beta, int *move)
{
	Shared *sh = s->sh;
	EgRoot r;
	uint64_t moves = board_moves(p, o) & sh->geo;
	int sd = (sh->features & ENDGAME_F_SORTSEARCH) ? (n >= 14 ? eg_sort_depth(n) + 2 : n >= 8 ? 2 : 0) : 0;
	r.k = eg_order(s, p, o, moves, n, TT_NO_MOVE, r.list, sd, EG_W_ROOT);
	/* stable full sort (ties by square): a deterministic order */
	for (int i = 1; i < r.k; i++) {
		EgMove m = r.list[i];
		int j = i;
		while (j > 0 && r.list[j - 1].value < m.value) {
			r.list[j] = r.list[j - 1];
			j--;
		}
		r.list[j] = m;
	}
	if (!(sh->features & ENDGAME_F_ASPIRATION) || beta - alpha <= 2 || n < 10)
		return eg_root_pvs(s, p, o, n, &r, alpha, beta, move);
	/* aspiration around the estimate: the first move's shallow score */
	int g = r.list[0].value / EG_W_ROOT;
	if (sd == 0)
		g = eval_score(sh->ev, p, o);
	/* selective pre-searches of rising confidence: each leaves best moves
	 * in the table for the next and a better estimate of the score */
	if ((sh->features & (ENDGAME_F_PRESEARCH | ENDGAME_F_TT)) == (ENDGAME_F_PRESEARCH | ENDGAME_F_TT) &&
	    n >= EG_PRESEARCH_MIN) {
		for (int level = 0; level < EG_MPC_LEVELS; level++) {
			sh->sel = level;
			int pm;
			g = eg_root_aspiration(s, p, o, n, &r, alpha, beta, g, &pm, EG_PRESEARCH_TRIES);
			if (eg_aborted(s)) {
				sh->sel = EG_SEL_EXACT;
				*move = pm;
				return g;
			}
		}
		sh->sel = EG_SEL_EXACT;
	}
	return eg_root_aspiration(s, p, o, n, &r, alpha, beta, g, move, 0);
}

/* ---- public API ----------------------------------------------------- */

EndgameOptions endgame_default_options(void)
{
	EndgameOptions o;
	memset(&o, 0, sizeof o);
	o.size = 8;
	o.variant = VARIANT_NORMAL;
	o.threads = 1;
	o.features = 0;
	return o;
}

/* A series of solves' tables (endgame.h): the main one, made for a
 * request of `req` bytes (it may be smaller), and each thread's table for
 * the nodes near the leaves, all of near_bytes.  `lock` is held by the
 * solve using them. */
struct EndgameTables {
	pthread_mutex_t lock;
	TT table;
	uint64_t req;
	UtilPrefault prefault;      /* faults `table` in after endgame_tables_reserve() */
	TT near[EG_MAX_THREADS];
	uint64_t near_bytes;
};

/* The most bytes of the table a solve of n empties uses: 16 MiB at 20
 * empties, twice that every 2 more, all of it from 25 empties.  A small
 * solve fills only a little of a large table, and the pages it touches
 * fault in while it runs: on a fresh 128 MiB table that cost a 20-empty
 * solve a third of its time (bench/solver-profile.md). */
static uint64_t eg_table_cap(int n)
{
	if (n > 24)
		return UINT64_MAX;
	const int k = 20 + (n - 12) / 2;
	return (uint64_t)1 << (k < 16 ? 16 : k);
}

/* The bytes a solve asks for. */
static uint64_t eg_request(uint64_t bytes)
{
	return bytes ? bytes : (uint64_t)EG_DEFAULT_HASH_MB << 20;
}

uint64_t endgame_table_size_for(uint64_t bytes)
{
	return tt_size_for(eg_request(bytes));
}

/* A table of `bytes`, or when that cannot be mapped of the largest smaller
 * power of two that can; false when not even the smallest (64 KB) can. */
static bool eg_tt_init_fallback(TT *t, uint64_t bytes)
{
	for (uint64_t size = tt_size_for(bytes);; size /= 2) {
		if (tt_init_bytes(t, size))
			return true;
		if (size <= tt_size_for(0))
			return false;
	}
}

/* Make the main table for a request of `bytes` (remade when the request
 * changed: the old one is freed first); NULL when memory is short even
 * for the smallest table.  Nothing is written: the pages fault in when
 * used.  Called with tb->lock held. */
static TT *eg_table_prepare(EndgameTables *tb, uint64_t bytes)
{
	if (tb->table.entries && tb->req != bytes) {
		util_prefault_stop(&tb->prefault);
		tt_free(&tb->table);
	}
	if (!tb->table.entries && eg_tt_init_fallback(&tb->table, bytes))
		tb->req = bytes;
	return tb->table.entries ? &tb->table : NULL;
}

static void eg_near_free(EndgameTables *tb)
{
	for (int j = 0; j < EG_MAX_THREADS; j++)
		tt_free(&tb->near[j]);
	tb->near_bytes = 0;
}

/* Thread i's table near the leaves, `mb` (at most the main table's
 * request `bytes`) and empty for a new solve; NULL when memory is short.
 * Called with tb->lock held. */
static TT *eg_near_prepare(EndgameTables *tb, int i, uint64_t bytes, int mb)
{
	const uint64_t near = (uint64_t)mb << 20, want = bytes < near ? bytes : near;
	if (tb->near_bytes != want) {
		eg_near_free(tb);
		tb->near_bytes = want;
	}
	if (!tb->near[i].entries && !tt_init_bytes(&tb->near[i], want))
		return NULL;
	tt_clear(&tb->near[i]);
	return &tb->near[i];
}

EndgameTables *endgame_tables_new(void)
{
	EndgameTables *tb = calloc(1, sizeof *tb);
	if (tb)
		pthread_mutex_init(&tb->lock, NULL);
	return tb;
}

static void eg_tables_clear(EndgameTables *tb)
{
	util_prefault_stop(&tb->prefault);
	tt_free(&tb->table);
	tb->req = 0;
	eg_near_free(tb);
}

void endgame_tables_free(EndgameTables *tb)
{
	if (!tb)
		return;
	eg_tables_clear(tb);
	pthread_mutex_destroy(&tb->lock);
	free(tb);
}

bool endgame_tables_reserve(EndgameTables *tb, uint64_t bytes, uint64_t *got, bool prefault)
{
	if (pthread_mutex_trylock(&tb->lock) != 0)
		return false;
	const bool made = !tb->table.entries || tb->req != eg_request(bytes);
	const TT *t = eg_table_prepare(tb, eg_request(bytes));
	if (t && made && prefault)
		util_prefault_start(&tb->prefault, t->entries, (size_t)t->bytes);
	if (got)
		*got = t ? t->bytes : 0;
	pthread_mutex_unlock(&tb->lock);
	return true;
}

bool endgame_tables_release(EndgameTables *tb)
{
	if (pthread_mutex_trylock(&tb->lock) != 0)
		return false;
	eg_tables_clear(tb);
	pthread_mutex_unlock(&tb->lock);
	return true;
}

/* The constants of a solve (size, variant, evaluator, features); no
 * stop, no progress, one thread, exact. */
static void eg_shared_init(Shared *sh, int size, Variant v, const Evaluator *ev, unsigned features)
{
	memset(sh, 0, sizeof *sh);
	sh->size = size == 6 || size == 4 ? size : 8;
	sh->area = sh->size * sh->size;
	sh->geo = board_geometry(sh->size);
	sh->variant = v;
	sh->ev = ev ? ev : eval_get(sh->size, sh->variant);
	sh->features = features ? features : ENDGAME_F_ALL;
	sh->sel = EG_SEL_EXACT;
	sh->nthreads = 1;
	atomic_init(&sh->stop, false);
	const int m = sh->size - 1;
	sh->corners = bit_of(0) | bit_of(m) | bit_of(8 * m) | bit_of(8 * m + m);
	for (int sq = 0; sq < 64; sq++)
		if (sh->geo >> sq & 1)
			sh->quadrant[eg_quadrant_of(sh, sq)] |= bit_of(sq);
	for (int sq = 0; sq < 64; sq++)
		sh->quadrant_of[sq] = sh->geo >> sq & 1 ? sh->quadrant[eg_quadrant_of(sh, sq)] : 0;
}

static EndgameResult eg_solve_window(Board b, const EndgameOptions *opt, int alpha, int beta)
{
	pthread_once(&eg_once, eg_init_tables);
	EndgameOptions def = endgame_default_options();
	if (!opt)
		opt = &def;
	double t0 = util_now();
	EndgameResult res;
	memset(&res, 0, sizeof res);

	Shared sh;
	eg_shared_init(&sh, opt->size, opt->variant, opt->eval, opt->features);
	sh.user_stop = opt->stop;
	sh.deadline = opt->deadline;
	sh.progress = opt->progress;
	sh.progress_user = opt->progress_user;
	sh.progress_root = opt->progress_root;
	sh.t0 = t0;
	sh.next_progress = t0 + 1.0;
	if (alpha < -EG_INF + 1)
		alpha = -EG_INF + 1;
	if (beta > EG_INF - 1)
		beta = EG_INF - 1;

	const uint64_t p = b.p & sh.geo, o = b.o & sh.geo;
	const int n = bit_count(sh.geo & ~(p | o));
	int nthreads = opt->threads < 1 ? 1 : opt->threads > EG_MAX_THREADS ? EG_MAX_THREADS : opt->threads;
	if (n < EG_THREADS_MIN)
		nthreads = 1;
	sh.nthreads = nthreads;

	/* the tables: the caller's, else ones made for this solve alone */
	uint64_t bytes = eg_request(opt->hash_bytes ? opt->hash_bytes
	                                                  : opt->hash_mb > 0 ? (uint64_t)opt->hash_mb << 20 : 0);
	TT own, *tt = NULL;
	EndgameTables *tabs = opt->tables, *temp = NULL;
	if (!tabs && (temp = endgame_tables_new()))
		tabs = temp;
	bool shared_table = tabs && pthread_mutex_trylock(&tabs->lock) == 0;
	/* a caller's table (an engine's) is used whole, with its entries */
	TT *const given = opt->table && opt->table->entries ? opt->table : NULL;
	if (given) {
		tt = given;
		bytes = given->bytes;
	} else if (shared_table) {
		tt = eg_table_prepare(tabs, bytes);
	}
	/* a private table (the caller's are busy with another solve): sized
	 * for the solve, since small solves may come often */
	const uint64_t own_max = (uint64_t)(n <= 14 ? 1 : n <= 18 ? 8 : 65536) << 20;
	if (!tt && eg_tt_init_fallback(&own, bytes < own_max ? bytes : own_max))
		tt = &own;
	if (!tt) {
		sh.features &= ~(unsigned)(ENDGAME_F_TT | ENDGAME_F_ETC);
		tt = &own;
		memset(&own, 0, sizeof own);
	} else if (tt != given) {
		tt_clear(tt);
	}
	/* the solve's view of the table: it locks when this solve's threads
	 * share it or its owner says so (a caller's table is not changed);
	 * of its own table, only the part sized by eg_table_cap */
	TT part = *tt;
	part.locking = nthreads > 1 || (given && given->locking);
	if (tt != given && part.entries && part.mask + 1 > eg_table_cap(n) / sizeof(TTEntry))
		part.mask = eg_table_cap(n) / sizeof(TTEntry) - 1;
	sh.tt = &part;

	Searcher threads[EG_MAX_THREADS];
	memset(threads, 0, sizeof(Searcher) * (size_t)nthreads);
	sh.threads = threads;
	for (int i = 0; i < nthreads; i++) {
		if (shared_table && (sh.features & ENDGAME_F_TT))
			threads[i].near = eg_near_prepare(tabs, i, bytes, nthreads > 1 ? EG_NEAR_MB : EG_NEAR1_MB);
		threads[i].near_max = nthreads > 1 ? EG_NEAR_MAX : EG_NEAR1_MAX;
		threads[i].sh = &sh;
		threads[i].id = i;
		atomic_init(&threads[i].published, 0);
	}
	/* eg_mid_nws's tables, empty: their scores hold for this size and
	 * variant only; without them (no memory) the full node serves */
	EgLocal *locals = NULL;
	if ((sh.features & ENDGAME_F_LOCAL) && n >= EG_LOCAL_MIN &&
	    (locals = aligned_alloc(64, sizeof(EgLocal) * (size_t)nthreads)) != NULL) {
		memset(locals, 0, sizeof(EgLocal) * (size_t)nthreads);
		for (int i = 0; i < nthreads; i++)
			threads[i].local = &locals[i];
	}
	split_pool_init(&sh.pool, eg_sp_work);
	/* the helpers: the caller's workers, else threads made for this solve */
	int started = 1;
	if (opt->workers && nthreads > 1) {
		void *args[EG_MAX_THREADS];
		for (int i = 1; i < nthreads; i++)
			args[i - 1] = &threads[i];
		started += workers_start(opt->workers, nthreads - 1, eg_helper, args);
	} else {
		for (int i = 1; i < nthreads; i++) {
			if (pthread_create(&threads[i].thread, NULL, eg_helper_thread, &threads[i]) != 0)
				break;
			started++;
		}
	}

	Searcher *s = &threads[0];
	uint64_t moves = board_moves(p, o) & sh.geo;
	if (!moves) {
		if (!(board_moves(o, p) & sh.geo)) {
			res.move = BOARD_NOMOVE;
			res.score = eg_final(&sh, p, o);
			s->nodes++;
		} else {
			int mv;
			res.move = BOARD_PASS;
			res.score = -eg_root(s, o, p, n, -beta, -alpha, &mv);
		}
	} else {
		res.score = eg_root(s, p, o, n, alpha, beta, &res.move);
	}
	res.aborted = atomic_load(&sh.stop);

	split_pool_quit(&sh.pool);
	if (opt->workers)
		workers_wait(opt->workers);
	else
		for (int i = 1; i < started; i++)
			pthread_join(threads[i].thread, NULL);
	for (int i = 0; i < started; i++)
		res.nodes += threads[i].nodes;
	split_pool_destroy(&sh.pool);
	free(locals);

	if (tt == &own && own.entries)
		tt_free(&own);
	if (shared_table)
		pthread_mutex_unlock(&tabs->lock);
	endgame_tables_free(temp);

	if (opt->wld)
		res.score = res.score > 0 ? 1 : res.score < 0 ? -1 : 0;
	res.seconds = util_now() - t0;
	return res;
}

EndgameResult endgame_solve_window(Board b, const EndgameOptions *opt, int alpha, int beta)
{
	/* the table's background pre-faulting waits meanwhile (util.h) */
	util_busy_enter();
	EndgameResult r = eg_solve_window(b, opt, alpha, beta);
	util_busy_leave();
	return r;
}

EndgameResult endgame_solve(Board b, const EndgameOptions *opt)
{
	if (opt && opt->wld)
		return endgame_solve_window(b, opt, -1, 1);
	return endgame_solve_window(b, opt, -EG_INF + 1, EG_INF - 1);
}

/* ---- subtrees of another search ----------------------------------------- */

struct EndgameSubtree {
	Searcher s;     /* first: its alignment is the struct's */
	Shared sh;
	TT near;        /* the thread's table for nodes near the leaves */
	EgLocal local;  /* eg_mid_nws's tables */
};

EndgameSubtree *endgame_subtree_new(uint64_t bytes)
{
	pthread_once(&eg_once, eg_init_tables);
	const size_t size = (sizeof(EndgameSubtree) + 63) & ~(size_t)63;
	EndgameSubtree *st = aligned_alloc(64, size);
	if (!st)
		return NULL;
	memset(st, 0, size);
	if (!tt_init_bytes(&st->near, bytes)) {
		free(st);
		return NULL;
	}
	eg_shared_init(&st->sh, 8, VARIANT_NORMAL, NULL, 0);
	return st;
}

void endgame_subtree_free(EndgameSubtree *st)
{
	if (!st)
		return;
	tt_free(&st->near);
	free(st);
}

void endgame_subtree_begin(EndgameSubtree *st, int size, Variant v, const Evaluator *ev, atomic_bool *stop,
                           double deadline, TT *table)
{
	eg_shared_init(&st->sh, size, v, ev, 0);
	st->sh.user_stop = stop;
	st->sh.deadline = deadline;
	tt_clear(&st->near);
	memset(&st->s, 0, sizeof st->s);
	st->s.sh = &st->sh;
	memset(&st->local, 0, sizeof st->local);
	st->s.local = &st->local;
	if (table && table->entries) {
		st->sh.tt = table;
		st->s.near = &st->near;
		st->s.near_max = table->locking ? EG_NEAR_MAX : EG_NEAR1_MAX;
	} else {
		st->sh.tt = &st->near;
	}
}

void endgame_subtree_set_deadline(EndgameSubtree *st, double deadline)
{
	st->sh.deadline = deadline;
}

int endgame_subtree_solve(EndgameSubtree *st, uint64_t p, uint64_t o, int alpha, int beta, SplitNode *sp,
                          uint64_t *nodes, bool *aborted)
{
	Searcher *s = &st->s;
	if (alpha < -EG_INF + 1)
		alpha = -EG_INF + 1;
	if (beta > EG_INF - 1)
		beta = EG_INF - 1;
	s->sp = sp;
	s->nodes = 0;
	const int n = bit_count(st->sh.geo & ~(p | o));
	const int v = eg_node(s, p, o, alpha, beta, n, EG_MOVES_UNKNOWN);
	*nodes += s->nodes;
	*aborted = eg_aborted(s);
	s->sp = NULL;
	return v;
}
