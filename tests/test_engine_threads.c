/* Threaded search: the shared table under contention, split points (Young
 * Brothers Wait) against exact scores, threaded engine results, stop from
 * another thread.  Meant for ThreadSanitizer (`make tsan`) as
 * well as the normal builds, so the searches are kept small. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include "testutil.h"
#include "engine.h"
#include "search.h"
#include "text.h"
#include "tt.h"
#include "util.h"

static EngineLimits lim_none(void)
{
	EngineLimits l;
	memset(&l, 0, sizeof l);
	l.time_left = -1;
	return l;
}

/* ---- the table under contention ------------------------------------------ */

typedef struct Hammer {
	TT *tt;
	uint64_t seed;
	long wrong;
	long hits;
} Hammer;

/* Positions come from a small pool so that threads collide on the same
 * entries; each stored score is a function of the position, so any torn
 * or foreign entry would show up as a wrong score. */
static int hammer_score(uint64_t p, uint64_t o)
{
	return (int)((p * 31 + o) % 121) - 60;
}

static void *hammer_main(void *arg)
{
	Hammer *h = arg;
	uint64_t rs = h->seed;
	for (int i = 0; i < 100000; i++) {
		uint64_t k = test_rand(&rs) % 4096;
		uint64_t p = k * 0x9E3779B97F4A7C15ULL, o = (k * 0xC2B2AE3D27D4EB4FULL) & ~p;
		if (test_rand(&rs) & 1) {
			int s = hammer_score(p, o);
			tt_store(h->tt, p, o, (int)(k % 20), SEARCH_SEL_NONE, -SEARCH_INF, SEARCH_INF, s, (int)(k % 64));
		} else {
			TTData d;
			if (tt_probe(h->tt, p, o, &d)) {
				h->hits++;
				if (d.lower != hammer_score(p, o) || d.upper != d.lower || d.move != (int)(k % 64) ||
				    d.depth != (int)(k % 20))
					h->wrong++;
			}
		}
	}
	return NULL;
}

START_TEST(threads_tt_contention)
{
	TT tt;
	ck_assert(tt_init(&tt, 1));
	tt.locking = true;
	/* 1 MB = 16384 buckets; 4096 keys keep several threads on the same lines */
	Hammer h[4];
	pthread_t tid[4];
	for (int i = 0; i < 4; i++) {
		h[i] = (Hammer){ &tt, 1000 + (uint64_t)i, 0, 0 };
		ck_assert_int_eq(pthread_create(&tid[i], NULL, hammer_main, &h[i]), 0);
	}
	long hits = 0;
	for (int i = 0; i < 4; i++) {
		pthread_join(tid[i], NULL);
		ck_assert_int_eq(h[i].wrong, 0);
		hits += h[i].hits;
	}
	ck_assert(hits > 1000);
	tt_free(&tt);
}
END_TEST

/* ---- split points ---------------------------------------------------------- */

static void *split_helper_main(void *arg)
{
	search_helper_loop(arg);
	return NULL;
}

START_TEST(threads_split_points_exact)
{
	/* the search module alone with 3 threads: thread 0 searches, two
	 * helpers join its split points.  Searches to the end must give the
	 * exact scores, and null windows around them must fail high and low
	 * on the right side; the helpers must have searched nodes */
	static const char *obf[] = {
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
		"-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X",
	};
	static const int want[] = { 18, 10 };
	enum { THREADS = 3 };
	TT tt;
	ck_assert(tt_init(&tt, 16));
	tt.locking = true;
	SearchShared sh;
	SearchThread th[THREADS];
	search_shared_init(&sh, &tt, 8, VARIANT_NORMAL);
	search_pool_init(&sh);
	sh.threads = th;
	sh.nthreads = THREADS;
	for (int i = 0; i < THREADS; i++)
		search_thread_init(&th[i], &sh, i);
	pthread_t tid[THREADS];
	for (int i = 1; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&tid[i], NULL, split_helper_main, &th[i]), 0);
	SearchThread *t = &th[0];
	t->sel = SEARCH_SEL_NONE;
	for (int i = 0; i < 2; i++) {
		ObfPosition pos;
		char err[TEXT_ERR];
		ck_assert(text_parse_obf(obf[i], 8, &pos, err));
		Board b = pos.board;
		const int empties = 64 - bit_count(b.p | b.o);
		tt_clear(&tt);
		SearchRootMove rm[SEARCH_MAX_MOVES];
		int n = search_root_moves(t, b, rm);
		int v = search_root(t, b, rm, n, empties, -SEARCH_INF, SEARCH_INF, 1);
		ck_assert(!t->aborted);
		ck_assert_int_eq(v, want[i]);
		ck_assert_int_eq(rm[0].score, want[i]);
		/* every move's value with its own open window, then null windows */
		tt_clear(&tt);
		ck_assert_int_eq(search_value(t, b, empties, -SEARCH_INF, SEARCH_INF), want[i]);
		tt_clear(&tt);
		ck_assert_int_ge(search_value(t, b, empties, want[i] - 1, want[i]), want[i]);
		tt_clear(&tt);
		ck_assert_int_le(search_value(t, b, empties, want[i], want[i] + 1), want[i]);
	}
	search_pool_quit(&sh);
	for (int i = 1; i < THREADS; i++)
		pthread_join(tid[i], NULL);
	uint64_t helped = 0;
	for (int i = 1; i < THREADS; i++)
		helped += atomic_load(&th[i].nodes_pub);
	ck_assert_uint_gt(helped, 1000);
	search_pool_destroy(&sh);
	tt_free(&tt);
}
END_TEST

/* ---- the engine with threads ------------------------------------------------ */

START_TEST(threads_exact_scores_agree)
{
	/* exact solves give the same score with 1, 2 and 3 threads, with the
	 * endgame solver and with the midgame search run to the end */
	static const char *obf[] = {
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
		"-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X",
	};
	static const int want[] = { 18, 10 };
	for (int i = 0; i < 2; i++) {
		ObfPosition pos;
		char err[TEXT_ERR];
		ck_assert(text_parse_obf(obf[i], 8, &pos, err));
		Game g;
		game_init(&g, 8, VARIANT_NORMAL);
		game_set(&g, pos.board, pos.side);
		for (int threads = 1; threads <= 3; threads++) {
			for (int solver = 0; solver < 2; solver++) {
				Engine *e = engine_new();
				engine_set_threads(e, threads);
				engine_set_solver(e, solver);
				engine_set_level(e, 60);
				EngineLimits l = lim_none();
				EngineInfo r = engine_search(e, &g, &l, NULL, NULL);
				ck_assert(r.exact);
				ck_assert_int_eq(r.score, want[i]);
				engine_free(e);
			}
		}
	}
}
END_TEST

START_TEST(threads_midgame_legal)
{
	/* threaded midgame searches by depth, nodes and time return legal moves */
	Game g;
	char err[TEXT_ERR];
	game_init(&g, 8, VARIANT_NORMAL);
	ck_assert(text_apply_transcript(&g, "f5d6c3d3c4f4f6f3e6e7d7c5b6d8", err));
	Engine *e = engine_new();
	engine_set_threads(e, 3);
	engine_set_level(e, 60);
	EngineLimits l = lim_none();
	l.depth = 6;
	EngineInfo r = engine_search(e, &g, &l, NULL, NULL);
	ck_assert(game_moves(&g) & bit_of(r.move));
	ck_assert_int_eq(r.depth, 6);
	l = lim_none();
	l.nodes = 50000;
	r = engine_search(e, &g, &l, NULL, NULL);
	ck_assert(game_moves(&g) & bit_of(r.move));
	l = lim_none();
	l.movetime = 0.2;
	double t0 = util_now();
	r = engine_search(e, &g, &l, NULL, NULL);
	/* slack for a loaded CI machine and the slower sanitizer builds */
	ck_assert(util_now() - t0 <= 0.2 + 0.3);
	ck_assert(game_moves(&g) & bit_of(r.move));
	l.movetime = 0;
	l.multipv = 3;
	l.depth = 4;
	r = engine_search(e, &g, &l, NULL, NULL);
	ck_assert(game_moves(&g) & bit_of(r.move));
	engine_free(e);
}
END_TEST

typedef struct DepthLog {
	Game g;
	int n, depth[64];
	bool bad;
} DepthLog;

static void log_depth(const EngineInfo *info, void *user)
{
	DepthLog *d = user;
	/* every report: a legal move that starts its PV, a deeper iteration */
	if (!(game_moves(&d->g) & bit_of(info->move)) || info->pvlen < 1 || info->pv[0] != info->move ||
	    info->score < -64 || info->score > 64 || (d->n > 0 && info->depth <= d->depth[d->n - 1]))
		d->bad = true;
	if (d->n < 64)
		d->depth[d->n++] = info->depth;
}

START_TEST(threads_iterations_complete_in_order)
{
	/* with helpers the reports still come one per completed depth, deeper
	 * each time, with legal moves and PVs, up to the requested depth */
	static const char *lines[] = { "f5d6c3d3c4f4f6f3e6e7d7c5b6d8", "f5f6e6f4e3c5c4e7", "c4c3d3c5b4" };
	for (int k = 0; k < 3; k++) {
		DepthLog d;
		memset(&d, 0, sizeof d);
		char err[TEXT_ERR];
		game_init(&d.g, 8, VARIANT_NORMAL);
		ck_assert(text_apply_transcript(&d.g, lines[k], err));
		Engine *e = engine_new();
		engine_set_threads(e, 2 + k % 2);
		engine_set_level(e, 60);
		EngineLimits l = lim_none();
		l.depth = 11;
		EngineInfo r = engine_search(e, &d.g, &l, log_depth, &d);
		ck_assert_msg(!d.bad, "line %d: a report out of order or illegal", k);
		ck_assert_int_ge(d.n, 1);
		ck_assert_int_eq(d.depth[d.n - 1], 11);
		ck_assert_int_eq(r.depth, 11);
		ck_assert(game_moves(&d.g) & bit_of(r.move));
		engine_free(e);
	}
}
END_TEST

typedef struct Run {
	Engine *e;
	Game g;
	EngineInfo r;
	atomic_bool done;
} Run;

static void *run_main(void *arg)
{
	Run *run = arg;
	EngineLimits l = lim_none();
	l.infinite = true;
	run->r = engine_search(run->e, &run->g, &l, NULL, NULL);
	atomic_store(&run->done, true);
	return NULL;
}

START_TEST(threads_stop_from_another_thread)
{
	Run run;
	char err[TEXT_ERR];
	game_init(&run.g, 8, VARIANT_NORMAL);
	ck_assert(text_apply_transcript(&run.g, "f5d6c3d3c4f4f6f3e6e7", err));
	run.e = engine_new();
	atomic_init(&run.done, false);
	engine_set_threads(run.e, 3);
	pthread_t tid;
	ck_assert_int_eq(pthread_create(&tid, NULL, run_main, &run), 0);
	struct timespec ts = { 0, 100 * 1000000L };
	/* a stop before the search has started is ignored: repeat until done */
	while (!atomic_load(&run.done)) {
		nanosleep(&ts, NULL);
		engine_stop(run.e);
	}
	pthread_join(tid, NULL);
	ck_assert(game_moves(&run.g) & bit_of(run.r.move));
	engine_free(run.e);
}
END_TEST

START_TEST(threads_options_during_search)
{
	/* options set from another thread while a search runs; a new table or
	 * a new game stops the search first (no crash, no race for TSan) */
	for (int k = 0; k < 2; k++) {
		Run run;
		char err[TEXT_ERR];
		game_init(&run.g, 8, VARIANT_NORMAL);
		ck_assert(text_apply_transcript(&run.g, "f5d6c3d3c4f4f6f3e6e7", err));
		run.e = engine_new();
		atomic_init(&run.done, false);
		engine_set_threads(run.e, 2);
		pthread_t tid;
		ck_assert_int_eq(pthread_create(&tid, NULL, run_main, &run), 0);
		struct timespec ts = { 0, 50 * 1000000L };
		nanosleep(&ts, NULL);
		engine_set_level(run.e, 5);
		engine_set_seed(run.e, 7);
		engine_set_threads(run.e, 1);
		engine_set_selectivity(run.e, 95);
		engine_set_solver(run.e, false);
		/* returns only once the search is over (it may have started
		 * after the stop request and then needs another one) */
		while (!atomic_load(&run.done)) {
			if (k == 0)
				ck_assert(engine_set_hash_mb(run.e, 2));
			else
				engine_new_game(run.e);
			if (!atomic_load(&run.done))
				engine_stop(run.e);
		}
		pthread_join(tid, NULL);
		ck_assert(game_moves(&run.g) & bit_of(run.r.move));
		/* the options took effect for the next search */
		EngineLimits l = lim_none();
		EngineInfo r = engine_search(run.e, &run.g, &l, NULL, NULL);
		ck_assert_int_eq(r.depth, 5);
		engine_free(run.e);
	}
}
END_TEST

static Suite *threads_suite(void)
{
	Suite *s = suite_create("engine_threads");
	TCase *tc = tcase_create("threads");
	tcase_add_test(tc, threads_tt_contention);
	tcase_add_test(tc, threads_split_points_exact);
	tcase_add_test(tc, threads_exact_scores_agree);
	tcase_add_test(tc, threads_midgame_legal);
	tcase_add_test(tc, threads_iterations_complete_in_order);
	tcase_add_test(tc, threads_stop_from_another_thread);
	tcase_add_test(tc, threads_options_during_search);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(threads_suite)
