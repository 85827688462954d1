/*
 * endgame_solve.c - the solver's entry points (endgame.h) and its parallel
 * driver: the tables a series of solves keeps, one solve's table, threads and
 * window (eg_solve_window), the polling of the clock, the stop and progress,
 * and the subtree solvers of another search.  The search itself is
 * endgame.c; the files of the solver are listed in endgame_int.h.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "endgame_int.h"
#include "eval.h"
#include "util.h"
#include "workers.h"

/* ---- search bookkeeping --------------------------------------------- */

void eg_poll(Searcher *s)
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

/* ---- helper threads --------------------------------------------------- */

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
 * solve a third of its time (bench/results/solver-profile.md). */
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
	sh->sel_done = -1;
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

/* The table of one solve: the caller's, else the main table of its
 * tables or of tables made for this solve alone, else (those are busy) a
 * private one; `part` is the solve's view of it. */
typedef struct SolveTable {
	EndgameTables *tabs, *temp;
	bool shared;                /* tabs is locked by this solve */
	const TT *given;            /* the caller's table, or NULL */
	TT own, *tt, part;
	uint64_t bytes;             /* the request */
} SolveTable;

/* Chooses and prepares st's table for a solve of n empties with nthreads
 * threads; without any (no memory) the solve goes without (sh->features). */
static void eg_table_open(SolveTable *st, Shared *sh, const EndgameOptions *opt, int n, int nthreads)
{
	memset(st, 0, sizeof *st);
	st->bytes = eg_request(opt->hash_bytes ? opt->hash_bytes
	                                       : opt->hash_mb > 0 ? (uint64_t)opt->hash_mb << 20 : 0);
	st->tabs = opt->tables;
	if (!st->tabs && (st->temp = endgame_tables_new()))
		st->tabs = st->temp;
	st->shared = st->tabs && pthread_mutex_trylock(&st->tabs->lock) == 0;
	/* a caller's table (an engine's) is used whole, with its entries */
	TT *const given = opt->table && opt->table->entries ? opt->table : NULL;
	st->given = given;
	if (given) {
		st->tt = given;
		st->bytes = given->bytes;
	} else if (st->shared) {
		st->tt = eg_table_prepare(st->tabs, st->bytes);
	}
	/* a private table (the caller's are busy with another solve): sized
	 * for the solve, since small solves may come often */
	const uint64_t own_max = (uint64_t)(n <= 14 ? 1 : n <= 18 ? 8 : 65536) << 20;
	if (!st->tt && eg_tt_init_fallback(&st->own, st->bytes < own_max ? st->bytes : own_max))
		st->tt = &st->own;
	if (!st->tt) {
		sh->features &= ~(unsigned)(ENDGAME_F_TT | ENDGAME_F_ETC);
		st->tt = &st->own;
		memset(&st->own, 0, sizeof st->own);
	} else if (st->tt != given) {
		tt_clear(st->tt);
	}
	/* the solve's view of the table: it locks when this solve's threads
	 * share it or its owner says so (a caller's table is not changed);
	 * of its own table, only the part sized by eg_table_cap */
	st->part = *st->tt;
	st->part.locking = nthreads > 1 || (given && given->locking);
	if (st->tt != given && st->part.entries && st->part.mask + 1 > eg_table_cap(n) / sizeof(TTEntry))
		st->part.mask = eg_table_cap(n) / sizeof(TTEntry) - 1;
	sh->tt = &st->part;
}

static void eg_table_close(SolveTable *st)
{
	if (st->tt == &st->own && st->own.entries)
		tt_free(&st->own);
	if (st->shared)
		pthread_mutex_unlock(&st->tabs->lock);
	endgame_tables_free(st->temp);
}

/* The solve's threads' records, their tables near the leaves and
 * eg_mid_nws's tables; returns those (to free), NULL without them. */
static EgLocal *eg_threads_init(Shared *sh, Searcher *threads, SolveTable *st, int n)
{
	const int nthreads = sh->nthreads;
	memset(threads, 0, sizeof(Searcher) * (size_t)nthreads);
	sh->threads = threads;
	for (int i = 0; i < nthreads; i++) {
		if (st->shared && (sh->features & ENDGAME_F_TT))
			threads[i].near = eg_near_prepare(st->tabs, i, st->bytes, nthreads > 1 ? EG_NEAR_MB : EG_NEAR1_MB);
		threads[i].near_max = nthreads > 1 ? EG_NEAR_MAX : EG_NEAR1_MAX;
		threads[i].sh = sh;
		threads[i].id = i;
		atomic_init(&threads[i].published, 0);
	}
	/* eg_mid_nws's tables, empty: their scores hold for this size and
	 * variant only; without them (no memory) the full node serves */
	EgLocal *locals = NULL;
	if ((sh->features & ENDGAME_F_LOCAL) && n >= EG_LOCAL_MIN &&
	    (locals = aligned_alloc(64, sizeof(EgLocal) * (size_t)nthreads)) != NULL) {
		memset(locals, 0, sizeof(EgLocal) * (size_t)nthreads);
		for (int i = 0; i < nthreads; i++)
			threads[i].local = &locals[i];
	}
	return locals;
}

/* Starts the helpers 1.. of threads: the caller's workers, else threads
 * made for this solve; returns the threads running, the caller's included. */
static int eg_helpers_start(const EndgameOptions *opt, Searcher *threads, int nthreads)
{
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
	return started;
}

static EndgameResult eg_solve_window(Board b, const EndgameOptions *opt, int alpha, int beta)
{
	eg_tables_init();
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

	SolveTable st;
	eg_table_open(&st, &sh, opt, n, nthreads);
	Searcher threads[EG_MAX_THREADS];
	EgLocal *locals = eg_threads_init(&sh, threads, &st, n);
	split_pool_init(&sh.pool, eg_sp_work);
	const int started = eg_helpers_start(opt, threads, nthreads);

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
			sh.sel_move = BOARD_PASS;
			sh.sel_score = -sh.sel_score;
		}
	} else {
		res.score = eg_root(s, p, o, n, alpha, beta, &res.move);
	}
	res.aborted = atomic_load(&sh.stop);
	res.sel_level = sh.sel_done;
	res.sel_move = sh.sel_move;
	res.sel_score = sh.sel_score;

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
	eg_table_close(&st);

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

EndgameSubtree *endgame_subtree_new(uint64_t bytes)
{
	eg_tables_init();
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
