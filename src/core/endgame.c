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
 * node counts on FFO #40-#49 (bench/results/endgame-results.md).
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
 * part of its time.  Figures in bench/results/solver-profile.md.
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
#include "endgame_int.h"
#include "endgame_last.h"
#include "endgame_order.h"
#include "eval.h"
#include "probcut.h"
#include "splitpool.h"
#include "util.h"

/* Probable-cut levels of the selective pre-searches: level L (1-based)
 * cuts when a shallow evaluation search is t = eg_mpc_t[L - 1] standard
 * deviations beyond the window. */
static const double eg_mpc_t[] = { 1.1, 1.5, 2.0, 2.6 };
#define EG_MPC_LEVELS ((int)(sizeof eg_mpc_t / sizeof eg_mpc_t[0]))

void eg_tables_init(void)
{
	pthread_once(&eg_once, eg_init_tables);
}

/* ---- nodes ---------------------------------------------------------- */

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

/* The moves of p in (p, o), worked out when moves is EG_MOVES_UNKNOWN.
 * Where p has none, *om holds the opponent's: the node passes to them, or
 * with none either the game is over.  Every node below the root starts so. */
static inline __attribute__((always_inline)) uint64_t eg_node_moves(const Shared *sh, uint64_t p, uint64_t o,
                                                                     uint64_t moves, uint64_t *om)
{
	if (moves == EG_MOVES_UNKNOWN)
		moves = board_moves(p, o) & sh->geo;
	if (!moves)
		*om = board_moves(o, p) & sh->geo;
	return moves;
}

/* Nodes with few empties: move generation, lone-square moves first. */
static int eg_shallow(Searcher *s, uint64_t p, uint64_t o, int alpha, int beta, int n, uint64_t moves)
{
	const Shared *sh = s->sh;
	s->nodes++;
	uint64_t opp;
	if (!(moves = eg_node_moves(sh, p, o, moves, &opp)))
		return opp ? -eg_shallow(s, o, p, -beta, -alpha, n, opp) : eg_final(sh, p, o);
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

/* ---- null-window nodes near the leaves ------------------------------- */

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
	uint64_t opp;
	if (!(moves = eg_node_moves(sh, p, o, moves, &opp)))
		return opp ? -eg_mid_nws(s, o, p, -alpha - 1, n, opp) : eg_final(sh, p, o);
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

/* Search child m of (p, o), n empties, in a PVS window: the first move
 * (first) with the whole window, the others with a null window and, when
 * that fails high inside the window, again with the whole window.  The
 * full node, the root and the split points all search their children so. */
static inline __attribute__((always_inline)) int eg_search_child(Searcher *s, uint64_t p, uint64_t o,
                                                                  const EgMove *m, int alpha, int beta, int n,
                                                                  bool first)
{
	uint64_t cp = o ^ m->f, co = p ^ m->f ^ bit_of(m->sq);
	if (first || beta == alpha + 1)
		return -eg_node(s, cp, co, -beta, -alpha, n - 1, m->om);
	int v = -eg_node(s, cp, co, -alpha - 1, -alpha, n - 1, m->om);
	if (v > alpha && v < beta && !eg_aborted(s))
		v = -eg_node(s, cp, co, -beta, -alpha, n - 1, m->om);
	return v;
}

/* The pool's work function: take and search moves of a SplitPoint until
 * none are left or it is cut off. */
void eg_sp_work(void *thread, SplitNode *node)
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
		int v = eg_search_child(s, sp->p, sp->o, m, alpha, beta, sp->n, false);
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

	uint64_t opp;
	if (!(moves = eg_node_moves(sh, p, o, moves, &opp)))
		return opp ? -eg_search(s, o, p, -beta, -alpha, n, opp) : eg_final(sh, p, o);

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
		const int v = eg_search_child(s, p, o, m, alpha, beta, n, i == 0);
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
		const int v = eg_search_child(s, p, o, m, alpha, beta, n, i == 0);
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

int eg_root(Searcher *s, uint64_t p, uint64_t o, int n, int alpha, int beta, int *move)
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
			sh->sel_done = level;
			sh->sel_move = pm;
			sh->sel_score = g;
		}
		sh->sel = EG_SEL_EXACT;
	}
	return eg_root_aspiration(s, p, o, n, &r, alpha, beta, g, move, 0);
}

/* ---- subtrees of another search (endgame_solve.c makes them) --------- */

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
