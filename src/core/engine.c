/*
 * engine.c - the engine facade (contract in engine.h): iterative
 * deepening with aspiration windows over search.c's root search, helper
 * threads (Young Brothers Wait) sharing one transposition table, time
 * management (timeman.h), levels, the random choice of Easy/Normal,
 * multi-PV, the book hook.
 *
 * Threads: the calling thread is search thread 0 and drives the
 * iterations, the clock and the reports; helpers 1..N-1 are the engine's
 * workers (workers.h: made by the first search that needs them, then
 * kept), which wait in the search's split-point pool (search_helper_loop,
 * Young Brothers Wait, see search.h) and work under thread 0's nodes,
 * sharing one transposition table.  Every thread polls the same atomic
 * stop flag; thread 0 raises it and closes the pool when it is done and
 * returns at once (a helper that waits for a core, on a loaded machine,
 * must not delay the move); engine_join() waits for the helpers at the
 * start of the next call that touches the table or the threads
 * (engine_search, engine_new_game, engine_set_hash_mb, engine_free).
 *
 * Hand-over to the endgame solver (endgame.h): the exact iteration of a
 * single-line search (no multi-PV, no random choice) is done by
 * endgame_solve_window() with all the threads: the midgame helpers leave
 * the pool first and the same workers become the solver's helpers; the
 * solver stops itself at the hard deadline.  Multi-PV and the random
 * levels need the exact score of several moves and solve with the
 * midgame search run to the end instead.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "endgame.h"
#include "engine.h"
#include "search.h"
#include "timeman.h"
#include "tt.h"
#include "util.h"
#include "workers.h"

/* In timed play the exact solve starts once the midgame depth is within
 * this many plies of the end; stopped by the clock, it plays the move of
 * the last selective pre-search it finished (endgame.h), a search to the
 * end with probable cuts, which sees more than the midgame's. */
#ifndef ENGINE_SOLVE_LEAD
#define ENGINE_SOLVE_LEAD 12
#endif
/* Aspiration window: the previous iteration's score +- this many discs;
 * a fail doubles the step on the failing side until it exceeds
 * ENGINE_ASPIRATION_MAX, then that side opens completely. */
#ifndef ENGINE_ASPIRATION
#define ENGINE_ASPIRATION 4
#endif
#ifndef ENGINE_ASPIRATION_MAX
#define ENGINE_ASPIRATION_MAX 16
#endif
/* Untimed Hard plays as this numeric level. */
#define ENGINE_HARD_UNTIMED_LEVEL 16

struct Engine {
	/* search_lock is held by engine_search() for its whole run and by the
	 * calls that replace or clear the table (after stopping the search);
	 * opt_lock guards the options, which engine_search() copies at its
	 * start, and the random generator. */
	pthread_mutex_t search_lock;
	pthread_mutex_t opt_lock;
	TT tt;              /* the one table of the midgame search and the solver */
	EndgameTables *eg;  /* the solver's near-leaf tables */
	/* the helper threads, made once and kept (workers.h); helpers still
	 * unwinding after engine_search() returned are waited for by
	 * engine_join() before anything touches the table or the threads
	 * again */
	Workers *workers;
	SearchThread *threads;
	int threads_alloc;
	bool use_solver;
	int midgame_sel;
	int hash_mb;        /* the table budget; under search_lock */
	UtilPrefault prefault; /* faults tt in, in the background (under search_lock) */
	char hash_error[160];
	int nthreads;
	int level;
	uint64_t rng;
	EngineBookFn book;
	void *book_ctx;
	SearchShared sh;
	Evaluator *weights;  /* the 8x8 normal game's, or NULL: built-in; under opt_lock */
	atomic_bool running;
};

/* What a level means for one search. */
typedef struct EnginePlan {
	int depth;          /* deepest midgame iteration */
	int exact_empties;  /* solve exactly from this many empties on */
	int sel;            /* ProbCut level of the midgame iterations */
	int random_margin;  /* Easy/Normal: play any move this close to the best; < 0 = best */
} EnginePlan;

/* The default ProbCut level of midgame iterations (87 %). */
#define ENGINE_MIDGAME_SEL 1

void engine_level_plan(int level, bool timed, int *depth, int *exact_empties, int *random_margin)
{
	int d, x, r = -1;
	switch (level) {
	case ENGINE_LEVEL_EASY:
		d = 2, x = 6, r = 6;
		break;
	case ENGINE_LEVEL_NORMAL:
		d = 8, x = 16, r = 1;
		break;
	case ENGINE_LEVEL_HARD:
		if (timed) {
			d = 60, x = 60;
			break;
		}
		level = ENGINE_HARD_UNTIMED_LEVEL;
		/* fall through */
	default:
		if (level < 0)
			level = 0;
		if (level > 60)
			level = 60;
		d = level < 1 ? 1 : level;
		x = level <= 10 ? 2 * level : level + 10;
		if (x > 60)
			x = 60;
		break;
	}
	*depth = d;
	*exact_empties = x;
	*random_margin = r;
}

/* Make the table of a budget of `mb` MiB (e->tt is not allocated): false,
 * with nothing allocated, when it cannot be mapped in full.  `prefault`:
 * fault it in in the background (not for engine_new()'s default table,
 * which the protocols replace at once by --hash's). */
static bool engine_alloc_table(Engine *e, int mb, bool prefault)
{
	TT t;
	if (!tt_init(&t, mb))
		return false;
	e->tt = t;
	e->hash_mb = mb;
	/* nothing was written, so the engine is ready at once; the pages
	 * are faulted in behind its back, between searches (util.h) */
	if (prefault)
		util_prefault_start(&e->prefault, t.entries, t.bytes);
	return true;
}

Engine *engine_new(void)
{
	Engine *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	if (!(e->eg = endgame_tables_new()) || !engine_alloc_table(e, TT_DEFAULT_MB, false)) {
		endgame_tables_free(e->eg);
		free(e);
		return NULL;
	}
	e->threads = calloc(1, sizeof *e->threads);
	e->workers = workers_new();
	if (!e->threads || !e->workers) {
		free(e->threads);
		workers_free(e->workers);
		tt_free(&e->tt);
		endgame_tables_free(e->eg);
		free(e);
		return NULL;
	}
	e->threads_alloc = 1;
	pthread_mutex_init(&e->search_lock, NULL);
	pthread_mutex_init(&e->opt_lock, NULL);
	e->nthreads = 1;
	e->use_solver = true;
	e->midgame_sel = ENGINE_MIDGAME_SEL;
	e->level = ENGINE_LEVEL_HARD;
	e->rng = 0x9E3779B97F4A7C15ULL;
	atomic_init(&e->running, false);
	search_shared_init(&e->sh, &e->tt, 8, VARIANT_NORMAL);
	search_pool_init(&e->sh);
	return e;
}

/* The most bytes of all threads' subtree solvers' tables together, and
 * of one. */
#define ENGINE_SUBTREE_TOTAL ((uint64_t)32 << 20)
#define ENGINE_SUBTREE_MAX ((uint64_t)4 << 20)

/* Free the threads' subtree solvers (remade by the next search). */
static void engine_free_subtrees(Engine *e)
{
	for (int i = 0; i < e->threads_alloc; i++) {
		endgame_subtree_free(e->threads[i].eg);
		e->threads[i].eg = NULL;
	}
}

/* Wait for the helpers of the last search (they were told to stop). */
static void engine_join(Engine *e)
{
	workers_wait(e->workers);
}

void engine_free(Engine *e)
{
	if (!e)
		return;
	engine_stop(e);
	pthread_mutex_lock(&e->search_lock);
	engine_join(e);
	pthread_mutex_unlock(&e->search_lock);
	pthread_mutex_destroy(&e->search_lock);
	pthread_mutex_destroy(&e->opt_lock);
	workers_free(e->workers);
	search_pool_destroy(&e->sh);
	engine_free_subtrees(e);
	free(e->threads);
	util_prefault_stop(&e->prefault);
	tt_free(&e->tt);
	endgame_tables_free(e->eg);
	eval_free(e->weights);
	free(e);
}

void engine_set_threads(Engine *e, int threads)
{
	if (threads < 1)
		threads = 1;
	if (threads > SEARCH_MAX_THREADS)
		threads = SEARCH_MAX_THREADS;
	pthread_mutex_lock(&e->opt_lock);
	e->nthreads = threads;
	pthread_mutex_unlock(&e->opt_lock);
}

int engine_threads(Engine *e)
{
	pthread_mutex_lock(&e->opt_lock);
	const int n = e->nthreads;
	pthread_mutex_unlock(&e->opt_lock);
	return n;
}

bool engine_set_hash_mb(Engine *e, int mb)
{
	if (mb < 1 || mb > TT_MAX_MB) {
		/* (hash_error: written by this function only, see engine.h) */
		snprintf(e->hash_error, sizeof e->hash_error, "hash must be 1..%d MiB, not %d", TT_MAX_MB, mb);
		return false;
	}
	engine_stop(e);
	pthread_mutex_lock(&e->search_lock);
	engine_join(e);
	/* free before allocating: the old and the new tables are never held
	 * at once, and the memory check below sees what the old ones held */
	const int old = e->hash_mb;
	util_prefault_stop(&e->prefault);
	tt_free(&e->tt);
	endgame_tables_release(e->eg);
	engine_free_subtrees(e);
	bool ok = false;
	e->hash_error[0] = 0;
	if (util_hash_refused(mb, util_mem_available(), e->hash_error, sizeof e->hash_error)) {
		/* refused: the old size again (empty) */
	} else if (engine_alloc_table(e, mb, true)) {
		ok = true;
	} else {
		snprintf(e->hash_error, sizeof e->hash_error, "cannot allocate %d MiB of hash", mb);
	}
	if (!ok) {
		/* never leave the engine without a table: the old size, else
		 * the largest half of it that can be had */
		int s = old < mb ? old : mb / 2;
		if (s < 1)
			s = 1;
		while (!engine_alloc_table(e, s, true) && s > 1)
			s /= 2;
		if (s != old && e->tt.entries) {
			size_t n = strlen(e->hash_error);
			snprintf(e->hash_error + n, sizeof e->hash_error - n, " (using %d MiB)", e->hash_mb);
		}
	}
	pthread_mutex_unlock(&e->search_lock);
	return ok;
}

int engine_hash_mb(Engine *e)
{
	pthread_mutex_lock(&e->search_lock);
	const int mb = e->hash_mb;
	pthread_mutex_unlock(&e->search_lock);
	return mb;
}

uint64_t engine_table_bytes(Engine *e)
{
	pthread_mutex_lock(&e->search_lock);
	const uint64_t b = e->tt.bytes;
	pthread_mutex_unlock(&e->search_lock);
	return b;
}

const char *engine_hash_error(const Engine *e)
{
	return e->hash_error;
}

void engine_set_level(Engine *e, int level)
{
	if (level > 60)
		level = 60;
	if (level < ENGINE_LEVEL_HARD)
		level = ENGINE_LEVEL_HARD;
	pthread_mutex_lock(&e->opt_lock);
	e->level = level;
	pthread_mutex_unlock(&e->opt_lock);
}

void engine_set_seed(Engine *e, uint64_t seed)
{
	pthread_mutex_lock(&e->opt_lock);
	e->rng = seed ? seed : 0x9E3779B97F4A7C15ULL;
	pthread_mutex_unlock(&e->opt_lock);
}

void engine_set_book(Engine *e, EngineBookFn fn, void *ctx)
{
	pthread_mutex_lock(&e->opt_lock);
	e->book = fn;
	e->book_ctx = ctx;
	pthread_mutex_unlock(&e->opt_lock);
}

void engine_new_game(Engine *e)
{
	engine_stop(e);
	pthread_mutex_lock(&e->search_lock);
	engine_join(e);
	tt_clear(&e->tt);
	pthread_mutex_unlock(&e->search_lock);
}

void engine_set_evaluator(Engine *e, Evaluator *ev)
{
	engine_stop(e);
	pthread_mutex_lock(&e->search_lock);
	engine_join(e);
	pthread_mutex_lock(&e->opt_lock);
	Evaluator *old = e->weights;
	e->weights = ev;
	pthread_mutex_unlock(&e->opt_lock);
	pthread_mutex_unlock(&e->search_lock);
	eval_free(old);
}

const Evaluator *engine_evaluator(Engine *e, int size, Variant v)
{
	pthread_mutex_lock(&e->opt_lock);
	const Evaluator *ev = e->weights && eval_size(e->weights) == size && eval_variant(e->weights) == v
	                         ? e->weights : eval_get(size, v);
	pthread_mutex_unlock(&e->opt_lock);
	return ev;
}

void engine_set_solver(Engine *e, bool on)
{
	pthread_mutex_lock(&e->opt_lock);
	e->use_solver = on;
	pthread_mutex_unlock(&e->opt_lock);
}

void engine_set_selectivity(Engine *e, int percent)
{
	int sel = 0;
	while (sel < SEARCH_SEL_NONE && search_sel_percent(sel) < percent)
		sel++;
	pthread_mutex_lock(&e->opt_lock);
	e->midgame_sel = sel;
	pthread_mutex_unlock(&e->opt_lock);
}

void engine_stop(Engine *e)
{
	if (atomic_load(&e->running))
		atomic_store(&e->sh.stop, true);
}

/* xorshift64* */
static uint64_t engine_rand(Engine *e)
{
	pthread_mutex_lock(&e->opt_lock);
	uint64_t x = e->rng;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	e->rng = x;
	pthread_mutex_unlock(&e->opt_lock);
	return x * 0x2545F4914F6CDD1DULL;
}

static void engine_fill_info(EngineInfo *in, const SearchRootMove *r, int depth, int sel,
                             bool exact, const SearchShared *sh, double start)
{
	in->move = r->move;
	in->score = r->score;
	in->depth = depth;
	in->selectivity = search_sel_percent(sel);
	in->exact = exact;
	in->wld = false;
	in->book = false;
	in->pvlen = r->pvlen < ENGINE_MAX_PV ? r->pvlen : ENGINE_MAX_PV;
	memcpy(in->pv, r->pv, sizeof(int) * (size_t)in->pvlen);
	atomic_store_explicit(&sh->threads[0].nodes_pub, sh->threads[0].nodes, memory_order_relaxed);
	in->nodes = search_total_nodes(sh);
	in->seconds = util_now() - start;
}

/* Depth and selectivity of iteration d; false when the schedule is over. */
static bool engine_iteration(const EnginePlan *pl, int d, int empties, int *depth, int *sel)
{
	if (empties <= pl->exact_empties && (d > pl->depth || d + ENGINE_SOLVE_LEAD >= empties)) {
		*depth = empties;
		*sel = SEARCH_SEL_NONE;
		return true;
	}
	if (d > pl->depth)
		return false;
	*depth = d >= empties ? empties : d;
	*sel = pl->sel;
	return true;
}

/* The endgame module's solve of g with the engine's tables, weights,
 * workers, stop flag and hard deadline, on `threads` threads. */
static EndgameResult engine_endgame(Engine *e, const Game *g, bool wld, int threads)
{
	SearchShared *sh = &e->sh;
	EndgameOptions o = endgame_default_options();
	o.size = g->size;
	o.variant = g->variant;
	o.wld = wld;
	o.table = &e->tt;
	o.threads = threads;
	o.stop = &sh->stop;
	o.tables = e->eg;
	o.eval = sh->ev;
	o.workers = e->workers;
	o.deadline = sh->hard_deadline;
	return endgame_solve_window(g->board, &o, -65, 65);
}

/* Exact solve of the root by the endgame module; false when it was
 * stopped with nothing usable (rm untouched).  Moves the best move first
 * in rm.  *sel: SEARCH_SEL_NONE for a finished solve, or the level of the
 * selective pre-search whose move stands for a stopped one. */
static bool engine_solve(Engine *e, const Game *g, SearchRootMove *rm, int n, int threads, uint64_t *nodes,
                         int *sel)
{
	EndgameResult r = engine_endgame(e, g, false, threads);
	*nodes += r.nodes;
	*sel = SEARCH_SEL_NONE;
	if (r.aborted || atomic_load(&e->sh.stop)) {
		if (r.sel_level < 0)
			return false;
		*sel = r.sel_level;
		r.move = r.sel_move;
		r.score = r.sel_score;
	}
	int k = 0;
	while (k < n && rm[k].move != r.move)
		k++;
	if (k == n)
		return false; /* cannot happen: the solver returns a legal move */
	SearchRootMove best = rm[k];
	memmove(&rm[1], &rm[0], sizeof(SearchRootMove) * (size_t)k);
	rm[0] = best;
	rm[0].score = r.score;
	rm[0].searched = true;
	rm[0].pv[0] = r.move;
	rm[0].pvlen = 1;
	for (int i = 1; i < n; i++)
		rm[i].searched = false;
	return true;
}

static void engine_helper_main(void *arg)
{
	search_helper_loop(arg);
}

/* One call of engine_search() (or engine_solve_game()) across its phases:
 * prepare, quick answers, plan, iterate, pick, finish. */
typedef struct EngineRun {
	Engine *e;
	const Game *g;
	const EngineLimits *lim;
	EngineInfoFn info;
	void *user;
	double start;
	int empties;
	/* options, copied at the start */
	int level, midgame_sel;
	bool use_solver;
	EngineBookFn book;
	void *book_ctx;
	/* threads: t0 is the calling thread */
	SearchThread *t0;
	int nthreads, nhelpers;
	/* the plan and the root */
	EnginePlan plan;
	TimePlan tp;
	bool timed;
	int multipv;
	SearchRootMove rm[SEARCH_MAX_MOVES];
	int n;
	int res_sel;
	uint64_t solver_nodes;
	EngineInfo res;
} EngineRun;

/* Take the engine, copy its options, set up the shared state and the
 * search threads' records. */
static void run_prepare(EngineRun *r)
{
	Engine *e = r->e;
	r->start = util_now();
	pthread_mutex_lock(&e->search_lock);
	engine_join(e);
	pthread_mutex_lock(&e->opt_lock);
	const int want_threads = e->nthreads;
	r->level = e->level;
	r->midgame_sel = e->midgame_sel;
	r->use_solver = e->use_solver;
	r->book = e->book;
	r->book_ctx = e->book_ctx;
	pthread_mutex_unlock(&e->opt_lock);
	SearchShared *sh = &e->sh;
	search_shared_init(sh, &e->tt, r->g->size, r->g->variant);
	sh->ev = engine_evaluator(e, r->g->size, r->g->variant);
	atomic_store(&e->running, true);
	tt_new_search(&e->tt);
	memset(&r->res, 0, sizeof r->res);
	r->res.selectivity = 100;
	r->res.multipv_index = 1;
	r->empties = game_empties(r->g);
	if (e->threads_alloc < want_threads) {
		SearchThread *nt = calloc((size_t)want_threads, sizeof *nt);
		if (nt) {
			for (int i = 0; i < e->threads_alloc; i++)
				nt[i].eg = e->threads[i].eg;
			free(e->threads);
			e->threads = nt;
			e->threads_alloc = want_threads;
		}
	}
	r->nthreads = want_threads <= e->threads_alloc ? want_threads : e->threads_alloc;
	sh->threads = e->threads;
	sh->nthreads = r->nthreads;
	/* each thread's solver of exact subtrees: a table of its own, all of
	 * them together at most ENGINE_SUBTREE_TOTAL and the solver's share */
	uint64_t sub = ENGINE_SUBTREE_TOTAL / (uint64_t)r->nthreads;
	if (sub > ENGINE_SUBTREE_MAX)
		sub = ENGINE_SUBTREE_MAX;
	if (sub > e->tt.bytes)
		sub = e->tt.bytes;
	e->tt.locking = r->nthreads > 1;
	for (int i = 0; i < r->nthreads; i++) {
		SearchThread *t = &e->threads[i];
		search_thread_init(t, sh, i);
		if (!t->eg)
			t->eg = endgame_subtree_new(sub);
		if (t->eg)
			endgame_subtree_begin(t->eg, r->g->size, r->g->variant, sh->ev, &sh->stop, 0, &e->tt);
	}
	r->t0 = &e->threads[0];
}

/* Release the engine; res.seconds is set. */
static void run_finish(EngineRun *r)
{
	r->res.seconds = util_now() - r->start;
	atomic_store(&r->e->running, false);
	pthread_mutex_unlock(&r->e->search_lock);
}

/* No move (the game is over or the side must pass) or a book move: true
 * with the answer in res. */
static bool run_quick_answer(EngineRun *r)
{
	const Game *g = r->g;
	EngineInfo *res = &r->res;
	if (!game_moves(g)) {
		if (game_is_over(g)) {
			res->move = BOARD_NOMOVE;
			res->score = board_final_score(g->board, g->size, g->variant);
			res->exact = true;
		} else {
			/* forced pass: a short search of the opponent's reply for a score */
			int d = r->empties < 4 ? r->empties : 4;
			r->t0->sel = SEARCH_SEL_NONE;
			res->move = BOARD_PASS;
			res->score = -search_value(r->t0, board_pass(g->board), d, -SEARCH_INF, SEARCH_INF);
			res->depth = d;
			res->exact = d >= r->empties;
			res->pv[0] = BOARD_PASS;
			res->pvlen = 1;
		}
		res->nodes = r->t0->nodes;
		return true;
	}
	if (r->book && r->lim->multipv <= 1) {
		int score = 0;
		int mv = r->book(r->book_ctx, g, &score);
		if (mv >= 0 && mv < 64 && (game_moves(g) & bit_of(mv))) {
			res->move = mv;
			res->score = score;
			res->book = true;
			res->pv[0] = mv;
			res->pvlen = 1;
			res->seconds = util_now() - r->start;
			if (r->info)
				r->info(res, r->user);
			return true;
		}
	}
	return false;
}

/* The plan of the level and the limits, the clock's deadlines, the root
 * moves; the helpers join the pool. */
static void run_plan(EngineRun *r)
{
	const EngineLimits *lim = r->lim;
	SearchShared *sh = &r->e->sh;
	r->timed = lim->movetime > 0 || lim->time_left >= 0;
	engine_level_plan(r->level, r->timed || lim->infinite, &r->plan.depth, &r->plan.exact_empties,
	                  &r->plan.random_margin);
	r->plan.sel = r->midgame_sel;
	if (lim->infinite) {
		r->plan.depth = 60;
		r->plan.exact_empties = 60;
	}
	if (lim->depth > 0) {
		r->plan.depth = lim->depth;
		r->plan.exact_empties = lim->depth;
	}
	r->multipv = lim->multipv > 1 ? lim->multipv : 1;
	if (r->plan.random_margin >= 0 && lim->multipv <= 1)
		r->multipv = SEARCH_MAX_MOVES; /* exact scores for every move */
	r->tp = timeman_plan(lim, r->empties);
	sh->hard_deadline = r->tp.hard > 0 ? r->start + r->tp.hard : 0;
	for (int i = 0; i < r->nthreads; i++)
		if (r->e->threads[i].eg)
			endgame_subtree_set_deadline(r->e->threads[i].eg, sh->hard_deadline);
	sh->node_limit = lim->nodes;
	r->n = search_root_moves(r->t0, r->g->board, r->rm);
	if (r->multipv > r->n)
		r->multipv = r->n;
	engine_fill_info(&r->res, &r->rm[0], 0, r->plan.sel, false, sh, r->start);
	void *args[SEARCH_MAX_THREADS];
	for (int i = 1; i < r->nthreads; i++)
		args[i - 1] = &r->e->threads[i];
	r->nhelpers = workers_start(r->e->workers, r->nthreads - 1, engine_helper_main, args);
	r->res_sel = SEARCH_SEL_NONE;
	r->solver_nodes = 0;
}

/* The exact iteration by the endgame solver with every thread; false when
 * the solve was stopped (its last selective pre-search, if any, is then
 * the result). */
static bool run_solve(EngineRun *r, int depth, int sel)
{
	SearchShared *sh = &r->e->sh;
	search_pool_quit(sh);
	workers_wait(r->e->workers);
	r->nhelpers = 0;
	int got;
	if (!engine_solve(r->e, r->g, r->rm, r->n, r->nthreads, &r->solver_nodes, &got))
		return false;
	const bool done = got == SEARCH_SEL_NONE;
	engine_fill_info(&r->res, &r->rm[0], depth, done ? sel : got, done, sh, r->start);
	r->res.nodes += r->solver_nodes;
	if (r->info)
		r->info(&r->res, r->user);
	return done;
}

/* One iteration's root search with an aspiration window; false when it
 * was stopped (what it found is kept when it is usable). */
static bool run_iteration(EngineRun *r, int d, int depth, int sel, bool exact)
{
	SearchShared *sh = &r->e->sh;
	SearchThread *t0 = r->t0;
	SearchRootMove *rm = r->rm;
	int alpha = -SEARCH_INF, beta = SEARCH_INF, delta = ENGINE_ASPIRATION;
	if (d >= 4 && r->multipv == 1 && rm[0].searched) {
		alpha = rm[0].score - delta;
		beta = rm[0].score + delta;
	}
	for (;;) {
		int v = search_root(t0, r->g->board, rm, r->n, depth, alpha, beta, r->multipv);
		if (t0->aborted)
			break;
		/* a failed window widens step by step on its side */
		delta *= 2;
		if (v <= alpha && alpha > -SEARCH_INF)
			alpha = delta > ENGINE_ASPIRATION_MAX ? -SEARCH_INF : v - delta;
		else if (v >= beta && beta < SEARCH_INF)
			beta = delta > ENGINE_ASPIRATION_MAX ? SEARCH_INF : v + delta;
		else
			break;
	}
	if (t0->aborted) {
		if (t0->partial && r->res.depth > 0) {
			/* the deeper iteration's best so far; the depth
			 * reported stays the last completed one */
			int keep = r->res.depth;
			engine_fill_info(&r->res, &rm[0], keep, r->res_sel, false, sh, r->start);
		}
		return false;
	}
	engine_fill_info(&r->res, &rm[0], depth, sel, exact, sh, r->start);
	r->res_sel = sel;
	if (r->info) {
		int lines = r->lim->multipv > 1 ? r->multipv : 1;
		for (int i = 0; i < lines; i++) {
			EngineInfo li;
			engine_fill_info(&li, &rm[i], depth, sel, exact, sh, r->start);
			li.multipv_index = i + 1;
			r->info(&li, r->user);
		}
	}
	return true;
}

/* Iterative deepening until the plan, the limits or the clock end it. */
static void run_iterate(EngineRun *r)
{
	const EngineLimits *lim = r->lim;
	int last_best = -1, stable = 0, last_score = -SEARCH_INF;
	for (int d = 1;; d++) {
		int depth, sel;
		if (!engine_iteration(&r->plan, d, r->empties, &depth, &sel))
			break;
		r->t0->sel = sel;
		const bool exact = depth >= r->empties && sel == SEARCH_SEL_NONE;
		if (exact && r->multipv == 1 && r->use_solver) {
			run_solve(r, depth, sel);
			break;
		}
		if (!run_iteration(r, d, depth, sel, exact) || exact)
			break;
		if (lim->depth > 0 && depth >= lim->depth)
			break;
		if (r->rm[0].move == last_best) {
			stable++;
		} else {
			stable = 0;
			last_best = r->rm[0].move;
		}
		if (r->timed && r->n == 1 && !lim->infinite)
			break; /* forced move */
		/* with a fixed time per move (not banked) the whole time is used:
		 * the hard limit stops the last iteration, which still counts */
		if (r->tp.soft > 0 && !lim->infinite && !r->tp.use_all) {
			double factor = timeman_factor(d, stable, last_score - r->rm[0].score);
			last_score = r->rm[0].score;
			double el = util_now() - r->start;
			/* the next iteration costs a few times this one; when it
			 * is stopped, what it searched is still used */
			if (el * 2.0 > r->tp.soft * factor || el >= r->tp.soft)
				break;
		}
	}
	SearchShared *sh = &r->e->sh;
	if (lim->infinite) {
		const struct timespec ms = { 0, 1000000 };
		while (!atomic_load(&sh->stop))
			nanosleep(&ms, NULL);
	}
	/* the helpers unwind on their own; engine_join() collects them
	 * before the next use of the table or the threads */
	atomic_store(&sh->stop, true);
	search_pool_quit(sh);
	atomic_store_explicit(&r->t0->nodes_pub, r->t0->nodes, memory_order_relaxed);
}

/* Easy and Normal: any move within the level's margin of the best. */
static void run_pick(EngineRun *r)
{
	EngineInfo *res = &r->res;
	if (r->plan.random_margin >= 0 && r->lim->multipv <= 1 && res->depth > 0 && r->n > 1) {
		int cand = 0;
		while (cand < r->n && r->rm[cand].searched && r->rm[cand].score >= r->rm[0].score - r->plan.random_margin)
			cand++;
		if (cand > 1) {
			int k = (int)(engine_rand(r->e) % (uint64_t)cand);
			engine_fill_info(res, &r->rm[k], res->depth, r->res_sel, res->exact, &r->e->sh, r->start);
		}
	}
	res->nodes = search_total_nodes(&r->e->sh) + r->solver_nodes;
}

static EngineInfo engine_search_run(Engine *e, const Game *g, const EngineLimits *lim,
                                    EngineInfoFn info, void *user)
{
	EngineLimits nolim = { .time_left = -1 };
	EngineRun r = { .e = e, .g = g, .lim = lim ? lim : &nolim, .info = info, .user = user };
	run_prepare(&r);
	if (!run_quick_answer(&r)) {
		run_plan(&r);
		run_iterate(&r);
		run_pick(&r);
	}
	run_finish(&r);
	return r.res;
}

EngineInfo engine_solve_game(Engine *e, const Game *g, bool wld, const EngineLimits *lim)
{
	EngineLimits nolim = { .time_left = -1 };
	EngineRun r = { .e = e, .g = g, .lim = lim ? lim : &nolim };
	util_busy_enter();
	run_prepare(&r);
	EngineInfo *res = &r.res;
	if (game_is_over(g)) {
		res->move = BOARD_NOMOVE;
		res->score = board_final_score(g->board, g->size, g->variant);
		res->exact = true;
	} else {
		TimePlan tp = timeman_plan(r.lim, r.empties);
		e->sh.hard_deadline = tp.hard > 0 ? r.start + tp.hard : 0;
		EndgameResult er = engine_endgame(e, g, wld, r.nthreads);
		res->nodes = er.nodes;
		if (!er.aborted) {
			res->move = er.move;
			res->score = er.score;
			res->exact = !wld;
			res->wld = wld;
			res->depth = r.empties;
			res->selectivity = 100;
			if (er.move >= 0 && er.move < 64) {
				res->pv[0] = er.move;
				res->pvlen = 1;
			}
		} else {
			res->move = BOARD_NOMOVE; /* stopped: no result */
		}
	}
	run_finish(&r);
	util_busy_leave();
	return r.res;
}

EngineInfo engine_search(Engine *e, const Game *g, const EngineLimits *lim,
                         EngineInfoFn info, void *user)
{
	/* the tables' background pre-faulting waits meanwhile (util.h) */
	util_busy_enter();
	EngineInfo r = engine_search_run(e, g, lim, info, user);
	util_busy_leave();
	return r;
}
