/*
 * search.c - principal-variation search (design in search.h).
 *
 * Node kinds follow the classic PVS roles: PV nodes are searched with an
 * open window and keep a triangular PV; the other nodes get a null window
 * and are expected to cut (CUT) or to fail low (ALL): a PV node's first
 * child is PV and its later ones CUT; a CUT node's first child is ALL; an
 * ALL node's children, and every later child, are CUT.  Move ordering:
 * the table move first; then, at PV and CUT nodes deep enough, the value
 * of a shallow search of each child; everywhere the opponent's mobility
 * after the move (fastest first, corners counted twice) and a corner
 * bonus.  ALL nodes search every move anyway and skip the expensive part.
 *
 * Multi-ProbCut (non-PV nodes, depth >= PROBCUT_MIN_DEPTH, not when the
 * search reaches the end of the game): the value v of a search of depth
 * d is predicted from the value s of a shallow search of depth
 * probcut_shallow_depth(d) as v ~ a(d) * s + b(d) with residual deviation
 * sigma(d, empties); with confidence t = search_pc_t[sel] the node is cut
 * when the shallow search proves s >= (beta + t sigma - b) / a (fail high)
 * or s <= (alpha - t sigma - b) / a (fail low).  The parameters are
 * fitted from data by tools/emilia-probcut.c; the constants and how they
 * were obtained are in probcut.c.
 *
 * Leaves: depth 0 is the static evaluation (the final score when the game
 * is over); depth 1 at non-PV nodes is a loop over the children's static
 * values.  A node off the PV with depth >= empties is the endgame
 * solver's (endgame_subtree_solve, with the thread's own EndgameSubtree),
 * as Edax hands over: every exact subtree, in multi-PV analysis and the
 * random levels too, gets the solver's ordering, table and last-empties
 * code.  PV nodes stay here to the end, so that the PV is whole.  A
 * thread without an EndgameSubtree (the tools' searchers) searches such
 * nodes like any other.  The shared stop flag
 * is read at every node and the clock/node limit polled every
 * SEARCH_POLL_NODES nodes, so a stop unwinds within well under a
 * millisecond.
 */
#include <math.h>
#include <string.h>
#include "endgame.h"
#include "probcut.h"
#include "search.h"
#include "util.h"

enum { NODE_PV = 0, NODE_CUT = 1, NODE_ALL = 2 };

/* Depth from which PV/CUT nodes order moves by a shallow search. */
#define SEARCH_SORT_SEARCH_DEPTH 5
/* Depth from which moves are ordered by the child's static evaluation. */
#define SEARCH_SORT_EVAL_DEPTH 3
#define SEARCH_POLL_NODES 256

static const double search_pc_t[SEARCH_SEL_NONE] = { 1.1, 1.5, 2.0, 2.6, 3.3 };
static const int search_sel_pct[SEARCH_SEL_NONE + 1] = { 73, 87, 95, 98, 99, 100 };

int search_sel_percent(int sel)
{
	if (sel < 0)
		sel = 0;
	if (sel > SEARCH_SEL_NONE)
		sel = SEARCH_SEL_NONE;
	return search_sel_pct[sel];
}

void search_shared_init(SearchShared *sh, TT *tt, int size, Variant v)
{
	sh->tt = tt;
	sh->size = size;
	sh->variant = v;
	sh->ev = eval_get(size, v);
	sh->geo = board_geometry(size);
	sh->corners = size == 8 ? 0x8100000000000081ULL : size == 6 ? 0x0000210000000021ULL
	                                                            : 0x0000000009000009ULL;
	atomic_store(&sh->stop, false);
	sh->hard_deadline = 0;
	sh->node_limit = 0;
	split_pool_reset(&sh->pool);
}

static void search_split_work(void *thread, SplitNode *node);

void search_pool_init(SearchShared *sh)
{
	split_pool_init(&sh->pool, search_split_work);
}

void search_pool_destroy(SearchShared *sh)
{
	split_pool_destroy(&sh->pool);
}

void search_thread_init(SearchThread *t, SearchShared *sh, int id)
{
	t->sh = sh;
	t->id = id;
	t->nodes = 0;
	atomic_store_explicit(&t->nodes_pub, 0, memory_order_relaxed);
	t->next_poll = SEARCH_POLL_NODES;
	t->sel = SEARCH_SEL_NONE;
	t->aborted = false;
	t->sp = NULL;
	t->partial = false;
	t->pvlen[0] = 0;
}

uint64_t search_total_nodes(const SearchShared *sh)
{
	uint64_t n = 0;
	for (int i = 0; i < sh->nthreads; i++)
		n += atomic_load_explicit(&sh->threads[i].nodes_pub, memory_order_relaxed);
	return n;
}

/* Publish the node count and check the clock and the node limit. */
static void search_poll(SearchThread *t)
{
	SearchShared *sh = t->sh;
	t->next_poll = t->nodes + SEARCH_POLL_NODES;
	atomic_store_explicit(&t->nodes_pub, t->nodes, memory_order_relaxed);
	if (sh->hard_deadline > 0 && util_now() >= sh->hard_deadline)
		atomic_store_explicit(&sh->stop, true, memory_order_relaxed);
	if (sh->node_limit && search_total_nodes(sh) >= sh->node_limit)
		atomic_store_explicit(&sh->stop, true, memory_order_relaxed);
}

/* A split point: a node whose moves after the first are shared among the
 * threads that join it.  The fields above `alpha` are fixed once it is
 * registered. */
typedef struct SearchSplit {
	SplitNode node;                 /* first: the pool's part */
	Board b;
	EvalState es;                   /* b's evaluation state */
	int depth, ply, kind, sel;
	struct SearchMove *ml;          /* node.count moves */
	int beta;
	int alpha, best, bestmove;      /* under node.lock; alpha rises */
	int pv[SEARCH_MAX_PLY];         /* PV nodes: the node's PV (under node.lock) */
	int pvlen;
	SearchRootMove *root;           /* the root: each move's result (under node.lock) */
	int order_depth;                /* > 0: an ordering job (search_split_order) */
} SearchSplit;

/* True when the search must unwind now. */
static inline bool search_stopped(SearchThread *t)
{
	if (t->nodes >= t->next_poll)
		search_poll(t);
	if (atomic_load_explicit(&t->sh->stop, memory_order_relaxed) || split_node_cut(t->sp))
		t->aborted = true;
	return t->aborted;
}

static inline int search_final(const SearchShared *sh, Board b)
{
	return board_final_score(b, sh->size, sh->variant);
}

/* Static value of a leaf whose evaluation state is es. */
static inline int search_leaf(const SearchShared *sh, Board b, const EvalState *es)
{
	if (!(sh->geo & ~(b.p | b.o)) || !b.p || !b.o)
		return search_final(sh, b);
	return eval_score_state(sh->ev, b.p, b.o, es);
}

/* Static value of the leaf c reached from the position of es by the
 * move sq flipping flips. */
static inline int search_leaf_play(const SearchShared *sh, Board c, const EvalState *es, int sq, uint64_t flips)
{
	if (!(sh->geo & ~(c.p | c.o)) || !c.p || !c.o)
		return search_final(sh, c);
	return eval_score_play(sh->ev, es, sq, flips, c.p, c.o);
}

/* A node that the solver finishes (depth >= empties, not on the PV):
 * the thread's EndgameSubtree, under the split point it works for. */
static int search_endgame(SearchThread *t, Board b, int alpha, int beta)
{
	bool stopped;
	const int v = endgame_subtree_solve(t->eg, b.p, b.o, alpha, beta, t->sp, &t->nodes, &stopped);
	if (stopped) {
		t->aborted = true;
		return 0;
	}
	return v;
}

/* Depth 1: best child by static evaluation. */
static int search_depth1(SearchThread *t, Board b, const EvalState *es, int alpha, int beta)
{
	const SearchShared *sh = t->sh;
	t->nodes++;
	uint64_t moves = board_moves(b.p, b.o) & sh->geo;
	if (!moves) {
		if (!(board_moves(b.o, b.p) & sh->geo))
			return search_final(sh, b);
		EvalState pass;
		eval_state_pass(sh->ev, es, &pass);
		return -search_depth1(t, board_pass(b), &pass, -beta, -alpha);
	}
	int best = -SEARCH_INF;
	for (; moves; moves = bit_pop(moves)) {
		int sq = bit_first(moves);
		const uint64_t flips = board_flips(b.p, b.o, sq);
		Board c = board_apply(b, sq, flips);
		t->nodes++;
		int v = -search_leaf_play(sh, c, es, sq, flips);
		if (v > best) {
			best = v;
			if (v >= beta)
				break;
		}
	}
	return best;
}

typedef struct SearchMove {
	int sq;
	uint64_t flips;
	int val;
} SearchMove;

static int search_pvs(SearchThread *t, Board b, const EvalState *es, int alpha, int beta, int depth, int ply,
                      int kind);

/* Depth of the shallow search used to order moves at depth `depth`. */
static inline int search_sort_depth(int depth)
{
	if (depth < SEARCH_SORT_SEARCH_DEPTH)
		return -1;
	int d = (depth - 3) / 3;
	return d > 4 ? 4 : d;
}

/* Ordering value of the table move (first whatever else is found). */
#define SEARCH_TT_VAL (1 << 30)

static void search_split_order(SearchThread *t, Board b, const EvalState *es, SearchMove *ml, int n, int sd,
                               int ply);

/* Fill and score the move list of b (moves != 0). */
static int search_order(SearchThread *t, Board b, const EvalState *es, uint64_t moves, int ttmove, int depth,
                        int ply, int kind, SearchMove *ml)
{
	const SearchShared *sh = t->sh;
	const bool anti = sh->variant == VARIANT_ANTI;
	int n = 0;
	const int sd = kind == NODE_ALL ? -1 : search_sort_depth(depth);
	for (; moves; moves = bit_pop(moves)) {
		int sq = bit_first(moves);
		SearchMove *m = &ml[n++];
		m->sq = sq;
		m->flips = board_flips(b.p, b.o, sq);
		if (sq == ttmove) {
			m->val = SEARCH_TT_VAL;
			continue;
		}
		Board c = board_apply(b, sq, m->flips);
		uint64_t om = board_moves(c.p, c.o) & sh->geo;
		int val = -(bit_count(om) + bit_count(om & sh->corners)) * 64;
		if (bit_of(sq) & sh->corners)
			val += anti ? -256 : 256;
		if (sd == 0 || (sd < 0 && depth >= SEARCH_SORT_EVAL_DEPTH))
			val -= search_leaf_play(sh, c, es, sq, m->flips) * (sd == 0 ? 256 : 64);
		m->val = val;
	}
	if (sd <= 0)
		return n;
	/* the children's shallow searches: shared with idle helpers when
	 * they are worth it */
	if (sd >= SEARCH_SPLIT_ORDER_MIN && n >= 3 && split_pool_has_idle(&sh->pool)) {
		search_split_order(t, b, es, ml, n, sd, ply);
		return n;
	}
	for (int i = 0; i < n; i++) {
		if (ml[i].val == SEARCH_TT_VAL)
			continue;
		const Board c = board_apply(b, ml[i].sq, ml[i].flips);
		EvalState ces;
		eval_state_play(sh->ev, es, ml[i].sq, ml[i].flips, &ces);
		ml[i].val -= search_pvs(t, c, &ces, -SEARCH_INF, SEARCH_INF, sd, ply + 1, NODE_CUT) * 256;
	}
	return n;
}

/* Move the best-valued move of ml[i..n) to ml[i]. */
static inline void search_pick(SearchMove *ml, int i, int n)
{
	int bi = i;
	for (int j = i + 1; j < n; j++)
		if (ml[j].val > ml[bi].val)
			bi = j;
	if (bi != i) {
		SearchMove tmp = ml[i];
		ml[i] = ml[bi];
		ml[bi] = tmp;
	}
}

/* Multi-ProbCut at a non-PV node; returns true with *out set when the node
 * is cut. */
static bool search_probcut(SearchThread *t, Board b, const EvalState *es, int alpha, int beta, int depth,
                           int empties, int ply, int *out)
{
	const int sel = t->sel;
	const ProbCutModel *pm = probcut_model(depth);
	const int sd = probcut_shallow_depth(depth);
	const double sigma = probcut_sigma(depth, empties);
	const double tt = search_pc_t[sel];
	/* fail high: a * s + b - t sigma >= beta */
	double hi = (beta + tt * sigma - pm->b) / pm->a;
	if (hi < 64.0) {
		int hb = (int)ceil(hi);
		if (hb < -63)
			hb = -63;
		int v = search_pvs(t, b, es, hb - 1, hb, sd, ply, NODE_CUT);
		if (t->aborted)
			return false;
		if (v >= hb) {
			*out = beta;
			return true;
		}
	}
	double lo = (alpha - tt * sigma - pm->b) / pm->a;
	if (lo > -64.0) {
		int la = (int)floor(lo);
		if (la > 63)
			la = 63;
		int v = search_pvs(t, b, es, la, la + 1, sd, ply, NODE_ALL);
		if (t->aborted)
			return false;
		if (v <= la) {
			*out = alpha;
			return true;
		}
	}
	return false;
}

/* A later move (not the first) of a node: PVS's null window, re-searched
 * with the open window at PV nodes when it lands inside it. */
static int search_later(SearchThread *t, Board b, const EvalState *es, const SearchMove *m, int a, int beta,
                        int depth, int ply, bool pvnode)
{
	const Board c = board_apply(b, m->sq, m->flips);
	EvalState ces;
	eval_state_play(t->sh->ev, es, m->sq, m->flips, &ces);
	if (pvnode)
		t->pvlen[ply + 1] = 0;
	int v = -search_pvs(t, c, &ces, -a - 1, -a, depth - 1, ply + 1, NODE_CUT);
	if (pvnode && v > a && v < beta && !t->aborted)
		v = -search_pvs(t, c, &ces, -beta, -a, depth - 1, ply + 1, NODE_PV);
	return v;
}

/* Record root move `sq`'s value v and the PV below it (t->pv[1]) in r. */
static void search_root_record(SearchRootMove *r, const SearchThread *t, int sq, int v)
{
	int len = t->pvlen[1];
	if (len > SEARCH_MAX_PLY - 1)
		len = SEARCH_MAX_PLY - 1;
	r->score = v;
	r->searched = true;
	r->pv[0] = sq;
	memcpy(&r->pv[1], t->pv[1], sizeof(int) * (size_t)len);
	r->pvlen = len + 1;
}

/* The ordering job of sp (search_split_order): take moves and subtract
 * each one's shallow search value times 256 from its val (its slot is
 * this thread's alone). */
static void search_order_work(SearchThread *t, SearchSplit *sp)
{
	SplitNode *node = &sp->node;
	for (;;) {
		pthread_mutex_lock(&node->lock);
		if (node->next >= node->count) {
			pthread_mutex_unlock(&node->lock);
			break;
		}
		SearchMove *m = &sp->ml[node->next++];
		pthread_mutex_unlock(&node->lock);
		if (m->val == SEARCH_TT_VAL)
			continue;
		const Board c = board_apply(sp->b, m->sq, m->flips);
		EvalState ces;
		eval_state_play(t->sh->ev, &sp->es, m->sq, m->flips, &ces);
		const int v = search_pvs(t, c, &ces, -SEARCH_INF, SEARCH_INF, sp->order_depth, sp->ply + 1, NODE_CUT);
		if (search_stopped(t))
			break;
		m->val -= v * 256;
	}
}

/* The pool's work function: take and search moves of a SearchSplit until
 * none are left or it is cut off; afterwards t->aborted tells whether t
 * itself must unwind. */
static void search_split_work(void *thread, SplitNode *node)
{
	SearchThread *t = thread;
	SearchSplit *sp = (SearchSplit *)node;
	SplitNode *prev = t->sp;
	const int sel = t->sel;
	t->sp = node;
	t->sel = sp->sel;
	t->aborted = false; /* a helper's flag may be left from its last split point */
	const bool pvnode = sp->kind == NODE_PV;
	if (sp->order_depth)
		search_order_work(t, sp);
	else for (;;) {
		pthread_mutex_lock(&node->lock);
		if (node->next >= node->count || atomic_load_explicit(&node->cutoff, memory_order_relaxed)) {
			pthread_mutex_unlock(&node->lock);
			break;
		}
		const SearchMove *m = &sp->ml[node->next++];
		const int a = sp->alpha;
		pthread_mutex_unlock(&node->lock);
		int v = search_later(t, sp->b, &sp->es, m, a, sp->beta, sp->depth, sp->ply, pvnode);
		if (search_stopped(t))
			break;
		pthread_mutex_lock(&node->lock);
		if (v > sp->best) {
			sp->best = v;
			sp->bestmove = m->sq;
			if (v > sp->alpha) {
				sp->alpha = v;
				if (pvnode) {
					const int len = t->pvlen[sp->ply + 1];
					sp->pv[0] = m->sq;
					memcpy(&sp->pv[1], t->pv[sp->ply + 1], sizeof(int) * (size_t)len);
					sp->pvlen = len + 1;
				}
				if (v >= sp->beta)
					atomic_store_explicit(&node->cutoff, true, memory_order_relaxed);
			}
		}
		if (sp->root)
			search_root_record(&sp->root[m - sp->ml], t, m->sq, v);
		pthread_mutex_unlock(&node->lock);
	}
	t->sp = prev;
	t->sel = sel;
	t->aborted = atomic_load_explicit(&t->sh->stop, memory_order_relaxed) || split_node_cut(prev);
}

void search_helper_loop(SearchThread *t)
{
	split_pool_helper(&t->sh->pool, t);
	atomic_store_explicit(&t->nodes_pub, t->nodes, memory_order_relaxed);
}

void search_pool_quit(SearchShared *sh)
{
	split_pool_quit(&sh->pool);
}

/* Register sp, work for it, wait for its helpers, and unregister it; sp's
 * fields are then the caller's again, and t->aborted tells whether t must
 * unwind. */
static void search_split_run(SearchThread *t, SearchSplit *sp)
{
	split_pool_run(&t->sh->pool, &sp->node, t);
	t->aborted = atomic_load_explicit(&t->sh->stop, memory_order_relaxed) || split_node_cut(t->sp);
}

/* Fill sp for a node b at `ply` (moves ml[0..n), handed out from
 * `next`); the caller sets root, order_depth and the PV. */
static void search_split_init(SearchSplit *sp, const SearchThread *t, Board b, const EvalState *es, SearchMove *ml,
                              int n, int next, int depth, int ply, int kind, int alpha, int beta, int best,
                              int bestmove)
{
	split_node_init(&sp->node, t->sp, next, n);
	sp->b = b;
	sp->es = *es;
	sp->depth = depth;
	sp->ply = ply;
	sp->kind = kind;
	sp->sel = t->sel;
	sp->ml = ml;
	sp->beta = beta;
	sp->alpha = alpha;
	sp->best = best;
	sp->bestmove = bestmove;
	sp->pvlen = 0;
	sp->root = NULL;
	sp->order_depth = 0;
}

/* The shallow searches of search_order (depth sd) of the moves ml[0..n)
 * but the table move, shared with idle helpers; each subtracts its value
 * times 256 from the move's val. */
static void search_split_order(SearchThread *t, Board b, const EvalState *es, SearchMove *ml, int n, int sd,
                               int ply)
{
	SearchSplit sp;
	search_split_init(&sp, t, b, es, ml, n, 0, sd, ply, NODE_CUT, -SEARCH_INF, SEARCH_INF, -SEARCH_INF, TT_NO_MOVE);
	sp.order_depth = sd;
	search_split_run(t, &sp);
	split_node_destroy(&sp.node);
}

/* Search ml[1..n) of a node whose first move is done (window (*a, beta),
 * values so far *best / *bestmove) together with the idle helpers; on
 * return the node's result is in *a, *best, *bestmove (and t->pv[ply] at
 * PV nodes), unless t->aborted.  At the root (`root` set: ply 0, a PV
 * node, ml in root order) each move's value and PV go to root[i]. */
static void search_split(SearchThread *t, Board b, const EvalState *es, SearchMove *ml, int n, int depth, int ply,
                         int kind, int beta, int *a, int *best, int *bestmove, SearchRootMove *root)
{
	if (!root)
		for (int i = 1; i < n - 1; i++)
			search_pick(ml, i, n);
	SearchSplit sp;
	search_split_init(&sp, t, b, es, ml, n, 1, depth, ply, kind, *a, beta, *best, *bestmove);
	sp.root = root;
	if (kind == NODE_PV && !root) {
		sp.pvlen = t->pvlen[ply];
		memcpy(sp.pv, t->pv[ply], sizeof(int) * (size_t)sp.pvlen);
	}
	search_split_run(t, &sp);
	/* every worker is gone: sp is ours again */
	*a = sp.alpha;
	*best = sp.best;
	*bestmove = sp.bestmove;
	if (kind == NODE_PV && !root) {
		t->pvlen[ply] = sp.pvlen;
		memcpy(t->pv[ply], sp.pv, sizeof(int) * (size_t)sp.pvlen);
	}
	split_node_destroy(&sp.node);
}

static int search_pvs(SearchThread *t, Board b, const EvalState *es, int alpha, int beta, int depth, int ply,
                      int kind)
{
	const SearchShared *sh = t->sh;
	const bool pvnode = kind == NODE_PV;
	if (pvnode)
		t->pvlen[ply] = 0;
	if (search_stopped(t))
		return 0;
	const uint64_t empt = sh->geo & ~(b.p | b.o);
	const int empties = bit_count(empt);
	if (depth >= empties && !pvnode && t->eg)
		return search_endgame(t, b, alpha, beta);
	if (depth <= 0 || ply >= SEARCH_MAX_PLY - 2) {
		t->nodes++;
		return search_leaf(sh, b, es);
	}
	if (depth == 1 && !pvnode)
		return search_depth1(t, b, es, alpha, beta);
	t->nodes++;
	const uint64_t moves = board_moves(b.p, b.o) & sh->geo;
	if (!moves) {
		if (!(board_moves(b.o, b.p) & sh->geo))
			return search_final(sh, b);
		if (pvnode)
			t->pvlen[ply + 1] = 0;
		EvalState pass;
		eval_state_pass(sh->ev, es, &pass);
		int v = -search_pvs(t, board_pass(b), &pass, -beta, -alpha, depth, ply + 1,
		                    kind == NODE_PV ? NODE_PV : 3 - kind);
		if (pvnode && !t->aborted) {
			t->pv[ply][0] = BOARD_PASS;
			memcpy(&t->pv[ply][1], t->pv[ply + 1], sizeof(int) * (size_t)t->pvlen[ply + 1]);
			t->pvlen[ply] = t->pvlen[ply + 1] + 1;
		}
		return v;
	}
	if (depth > empties)
		depth = empties;
	const int sel = depth >= empties ? SEARCH_SEL_NONE : t->sel;
	/* the table's selectivity scale (tt.h): the same t values, no cut = exact */
	const int tsel = sel >= SEARCH_SEL_NONE ? TT_SEL_EXACT : sel;

	TTData d;
	int ttmove = TT_NO_MOVE;
	if (tt_probe(sh->tt, b.p, b.o, &d)) {
		ttmove = d.move;
		if (!pvnode && d.depth >= depth && d.sel >= tsel) {
			if (d.lower >= beta)
				return d.lower;
			if (d.upper <= alpha)
				return d.upper;
			if (d.lower == d.upper)
				return d.lower;
		}
	}

	if (!pvnode && sel < SEARCH_SEL_NONE && depth >= PROBCUT_MIN_DEPTH) {
		int v;
		if (search_probcut(t, b, es, alpha, beta, depth, empties, ply, &v))
			return v;
		if (t->aborted)
			return 0;
	}

	SearchMove ml[SEARCH_MAX_MOVES];
	const int n = search_order(t, b, es, moves, ttmove, depth, ply, kind, ml);
	if (t->aborted)
		return 0;
	int best = -SEARCH_INF, bestmove = TT_NO_MOVE, a = alpha;
	for (int i = 0; i < n; i++) {
		search_pick(ml, i, n);
		int v;
		if (i == 0) {
			if (pvnode)
				t->pvlen[ply + 1] = 0;
			EvalState ces;
			eval_state_play(sh->ev, es, ml[0].sq, ml[0].flips, &ces);
			v = -search_pvs(t, board_apply(b, ml[0].sq, ml[0].flips), &ces, -beta, -a, depth - 1, ply + 1,
			                pvnode ? NODE_PV : 3 - kind);
		} else {
			v = search_later(t, b, es, &ml[i], a, beta, depth, ply, pvnode);
		}
		if (t->aborted)
			return 0;
		if (v > best) {
			best = v;
			bestmove = ml[i].sq;
			if (v > a) {
				a = v;
				if (pvnode) {
					t->pv[ply][0] = ml[i].sq;
					memcpy(&t->pv[ply][1], t->pv[ply + 1], sizeof(int) * (size_t)t->pvlen[ply + 1]);
					t->pvlen[ply] = t->pvlen[ply + 1] + 1;
				}
				if (v >= beta)
					break;
			}
		}
		/* Young Brothers Wait: the first move is searched, share the rest */
		if (i == 0 && n > 2 && depth >= SEARCH_SPLIT_MIN_DEPTH &&
		    split_pool_has_idle(&sh->pool)) {
			search_split(t, b, es, ml, n, depth, ply, kind, beta, &a, &best, &bestmove, NULL);
			if (t->aborted)
				return 0;
			break;
		}
	}
	tt_store(sh->tt, b.p, b.o, depth, tsel, alpha, beta, best, bestmove);
	return best;
}

int search_root_moves(SearchThread *t, Board b, SearchRootMove *rm)
{
	const SearchShared *sh = t->sh;
	int n = 0, val[SEARCH_MAX_MOVES];
	for (uint64_t m = board_moves(b.p, b.o) & sh->geo; m; m = bit_pop(m)) {
		int sq = bit_first(m);
		Board c = board_apply(b, sq, board_flips(b.p, b.o, sq));
		int v = !(sh->geo & ~(c.p | c.o)) || !c.p || !c.o ? -search_final(sh, c) : -eval_score(sh->ev, c.p, c.o);
		int j = n++;
		while (j > 0 && val[j - 1] < v) {
			val[j] = val[j - 1];
			rm[j] = rm[j - 1];
			j--;
		}
		val[j] = v;
		rm[j].move = sq;
		rm[j].score = v;
		rm[j].searched = false;
		rm[j].pv[0] = sq;
		rm[j].pvlen = 1;
	}
	return n;
}

/* The k-th best (1-based) score among the searched moves, or -INF. */
static int search_kth_score(const int *scores, int n, int k)
{
	int top[SEARCH_MAX_MOVES], m = 0;
	for (int i = 0; i < n; i++) {
		int j = m++;
		while (j > 0 && top[j - 1] < scores[i]) {
			top[j] = top[j - 1];
			j--;
		}
		top[j] = scores[i];
	}
	return k <= m ? top[k - 1] : -SEARCH_INF;
}

int search_root(SearchThread *t, Board b, SearchRootMove *rm, int n, int depth,
                int alpha, int beta, int multipv)
{
	t->aborted = false;
	t->partial = false;
	EvalState es;
	eval_state_init(t->sh->ev, b.p, b.o, &es);
	int best = -SEARCH_INF, scores[SEARCH_MAX_MOVES];
	SearchRootMove tmp[SEARCH_MAX_MOVES];
	int done = 0;
	t->nodes++;
	/* not searched (after a fail high or a stop): kept after, in order */
	for (int i = 0; i < n; i++) {
		tmp[i] = rm[i];
		tmp[i].searched = false;
		tmp[i].score = -SEARCH_INF;
	}
	for (int i = 0; i < n; i++) {
		int a = alpha;
		if (multipv <= 1) {
			if (best > a)
				a = best;
		} else {
			int k = search_kth_score(scores, done, multipv);
			if (k > a)
				a = k;
		}
		const SearchMove m = { rm[i].move, board_flips(b.p, b.o, rm[i].move), 0 };
		int v;
		if (i == 0 || (multipv > 1 && a == alpha)) {
			t->pvlen[1] = 0;
			EvalState ces;
			eval_state_play(t->sh->ev, &es, m.sq, m.flips, &ces);
			v = -search_pvs(t, board_apply(b, m.sq, m.flips), &ces, -beta, -a, depth - 1, 1, NODE_PV);
		} else {
			v = search_later(t, b, &es, &m, a, beta, depth, 0, true);
		}
		if (t->aborted) {
			/* keep a partial iteration whose first move got a value
			 * inside the window: the moves searched so far are
			 * ordered by deeper values (a better one was proven) */
			t->partial = multipv <= 1 && done >= 1 && scores[0] > alpha && scores[0] < beta;
			if (!t->partial)
				return best;
			break;
		}
		search_root_record(&tmp[i], t, rm[i].move, v);
		scores[done++] = v;
		if (v > best)
			best = v;
		if (multipv <= 1 && v >= beta)
			break;
		/* single line: the other moves are shared with idle helpers */
		if (i == 0 && multipv <= 1 && n > 2 && depth >= SEARCH_SPLIT_MIN_DEPTH &&
		    split_pool_has_idle(&t->sh->pool)) {
			SearchMove ml[SEARCH_MAX_MOVES];
			for (int k = 0; k < n; k++) {
				ml[k].sq = rm[k].move;
				ml[k].flips = board_flips(b.p, b.o, rm[k].move);
				ml[k].val = n - k;
			}
			int ra = best > alpha ? best : alpha, bm = rm[0].move;
			search_split(t, b, &es, ml, n, depth, 0, NODE_PV, beta, &ra, &best, &bm, tmp);
			if (t->aborted) {
				t->partial = scores[0] > alpha && scores[0] < beta;
				if (!t->partial)
					return best;
			}
			break;
		}
	}
	/* stable insertion sort, best first */
	for (int i = 1; i < n; i++) {
		SearchRootMove x = tmp[i];
		int j = i;
		while (j > 0 && tmp[j - 1].score < x.score) {
			tmp[j] = tmp[j - 1];
			j--;
		}
		tmp[j] = x;
	}
	memcpy(rm, tmp, sizeof(SearchRootMove) * (size_t)n);
	return best;
}

int search_value(SearchThread *t, Board b, int depth, int alpha, int beta)
{
	t->aborted = false;
	EvalState es;
	eval_state_init(t->sh->ev, b.p, b.o, &es);
	return search_pvs(t, b, &es, alpha, beta, depth, 0, NODE_PV);
}
