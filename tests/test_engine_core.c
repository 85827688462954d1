/*
 * test_engine_core.c - what an engine owns: its weights, its tables and
 * its threads.  Two engines in one process give what two processes give;
 * no thread is created per move once the first search has run; the
 * process's resident memory follows --hash.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "testutil.h"
#include "engine.h"
#include "eval.h"
#include "patterns.h"
#include "options.h"
#include "text.h"
#include "ugi.h"
#include "util.h"
#include "weights.h"

/* Sanitizer builds run several times slower (and their shadow memory
 * makes resident sizes meaningless): fewer rounds there. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CORE_SANITIZED 1
#else
#define CORE_SANITIZED 0
#endif

/* ---- every thread the process creates is counted --------------------- */

static atomic_int threads_created;

/* This definition in the test program comes before the C library's for
 * every call in the process, the library's own included. */
int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
	static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
	atomic_fetch_add(&threads_created, 1);
	return real(t, a, fn, arg);
}

static void game_obf(Game *g, const char *obf)
{
	ObfPosition pos;
	char err[TEXT_ERR];
	ck_assert_msg(text_parse_obf(obf, 8, &pos, err), "%s", err);
	game_init(g, 8, VARIANT_NORMAL);
	game_set(g, pos.board, pos.side);
}

static const char *const MID1 = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8";
static const char *const MID2 = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6";
/* FFO #40, 20 empties: A2 +38 */
static const char *const FFO40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";

/* After the first search, the engine's searches and solves create no
 * thread: the helpers are kept (midgame iterations, the solver's exact
 * iteration with threads, engine_solve_game, timed searches). */
START_TEST(core_no_thread_per_move)
{
	Engine *e = engine_new();
	ck_assert(e != NULL);
	engine_set_threads(e, 2);
	ck_assert(engine_set_hash_mb(e, 16));
	Game mid, end;
	test_game_from(&mid, MID2);
	game_obf(&end, FFO40);
	EngineLimits lim = test_depth_limits(8);
	EngineInfo r = engine_search(e, &mid, &lim, NULL, NULL);
	ck_assert(game_moves(&mid) & bit_of(r.move));
	const int after_first = atomic_load(&threads_created);
	ck_assert_int_ge(after_first, 1); /* the helper (the count works) */
	for (int i = 0; i < (CORE_SANITIZED ? 2 : 3); i++) {
		lim = test_depth_limits(7 + i);
		r = engine_search(e, &mid, &lim, NULL, NULL);
		ck_assert(game_moves(&mid) & bit_of(r.move));
		/* the exact iteration by the solver, with both threads */
		lim = test_depth_limits(20);
		r = engine_search(e, &end, &lim, NULL, NULL);
		ck_assert_int_eq(r.score, 38);
		ck_assert(r.exact);
		EngineInfo s = engine_solve_game(e, &end, i == 1, NULL);
		ck_assert_int_eq(s.score, i == 1 ? 1 : 38);
		/* a clocked search (the hard deadline is the solver's own) */
		EngineLimits clock = { .time_left = -1, .movetime = 0.05 };
		r = engine_search(e, &end, &clock, NULL, NULL);
		ck_assert(game_moves(&end) & bit_of(r.move));
		engine_new_game(e);
	}
	ck_assert_int_eq(atomic_load(&threads_created), after_first);
	engine_free(e);
}
END_TEST

/* The same through a protocol that searches in the background (UGI, as
 * NBoard): its worker and watchdog threads are kept too. */
START_TEST(core_no_thread_per_protocol_move)
{
	Options o;
	options_init(&o);
	char err[OPTIONS_ERR];
	ck_assert(options_set(&o, OPT_USEBOOK, "false", err));
	ck_assert(options_set(&o, OPT_THREADS, "2", err));
	ck_assert(options_set(&o, OPT_HASH, "16", err));
	FILE *out = fopen("/dev/null", "w");
	ck_assert_ptr_nonnull(out);
	Ugi *u = ugi_new(out, &o, err);
	ck_assert_msg(u != NULL, "%s", err);
	ck_assert(ugi_execute_line(u, "position startpos moves f5 d6 c3 d3 c4 f4 f6 f3 e6 e7"));
	ck_assert(ugi_execute_line(u, "go movetime 100"));
	ugi_wait(u);
	const int after_first = atomic_load(&threads_created);
	for (int i = 0; i < 4; i++) {
		ck_assert(ugi_execute_line(u, i & 1 ? "go depth 6" : "go movetime 60"));
		ugi_wait(u);
		ck_assert(ugi_execute_line(u, "go infinite"));
		ck_assert(ugi_execute_line(u, "stop"));
		ugi_wait(u);
	}
	ck_assert_int_eq(atomic_load(&threads_created), after_first);
	ugi_free(u);
	fclose(out);
}
END_TEST

/* ---- two engines in one process ---------------------------------------- */

/* Weights unlike the built-in ones: each weight scaled by 3/4 plus a
 * pseudo-random +-8. */
static Evaluator *other_weights(void)
{
	const size_t nw = (size_t)PATTERN_PHASES * PATTERN_WEIGHTS;
	int16_t *w = malloc(nw * sizeof *w);
	ck_assert(w != NULL);
	size_t len;
	const unsigned char *img = weights_builtin(&len);
	char err[WEIGHTS_ERR];
	ck_assert_msg(weights_decode(img, len, patterns_set_id(), PATTERN_PHASES, PATTERN_WEIGHTS, w, err), "%s",
	              err);
	uint64_t rng = 5;
	for (size_t i = 0; i < nw; i++)
		w[i] = (int16_t)(w[i] * 3 / 4 + (int)(test_rand(&rng) % 17) - 8);
	Evaluator *ev = eval_new(w);
	free(w);
	ck_assert(ev != NULL);
	return ev;
}

/* What a test engine does; the results compared. */
typedef struct CoreResult {
	int move[3], score[3], depth[3], pvlen[3];
	int pv[3][ENGINE_MAX_PV];
	uint64_t nodes[3];
} CoreResult;

typedef struct CoreEngine {
	int threads, hash_mb;
	bool weights;        /* other_weights() instead of the built-in ones */
	CoreResult res;
} CoreEngine;

static void core_record(CoreResult *c, int i, const EngineInfo *r)
{
	c->move[i] = r->move;
	c->score[i] = r->score;
	c->depth[i] = r->depth;
	c->pvlen[i] = r->pvlen;
	memcpy(c->pv[i], r->pv, sizeof r->pv);
	c->nodes[i] = r->nodes;
}

/* A midgame search at depth 9, an endgame search at depth 12 (ProbCut
 * on), an exact solve of 20 empties (short enough for ThreadSanitizer). */
static void *core_engine_run(void *arg)
{
	CoreEngine *ce = arg;
	Engine *e = engine_new();
	ck_assert(e != NULL);
	engine_set_threads(e, ce->threads);
	ck_assert(engine_set_hash_mb(e, ce->hash_mb));
	if (ce->weights)
		engine_set_evaluator(e, other_weights());
	memset(&ce->res, 0, sizeof ce->res);
	Game g;
	test_game_from(&g, MID1);
	EngineLimits lim = test_depth_limits(9);
	EngineInfo r = engine_search(e, &g, &lim, NULL, NULL);
	core_record(&ce->res, 0, &r);
	game_obf(&g, FFO40);
	lim = test_depth_limits(12);
	engine_set_solver(e, false);
	r = engine_search(e, &g, &lim, NULL, NULL);
	core_record(&ce->res, 1, &r);
	engine_set_solver(e, true);
	r = engine_solve_game(e, &g, false, NULL);
	core_record(&ce->res, 2, &r);
	engine_free(e);
	return NULL;
}

/* The engine alone in a child process. */
static CoreResult core_alone(const CoreEngine *spec)
{
	int fd[2];
	ck_assert_int_eq(pipe(fd), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		CoreEngine ce = *spec;
		core_engine_run(&ce);
		ssize_t n = write(fd[1], &ce.res, sizeof ce.res);
		_exit(n == (ssize_t)sizeof ce.res ? 0 : 1);
	}
	close(fd[1]);
	CoreResult c;
	size_t got = 0;
	while (got < sizeof c) {
		ssize_t n = read(fd[0], (char *)&c + got, sizeof c - got);
		ck_assert_int_gt(n, 0);
		got += (size_t)n;
	}
	close(fd[0]);
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return c;
}

/* Single-threaded engines: everything equal, nodes included.  With
 * threads the node counts and a heuristic search's value depend on the
 * schedule: only the exact solve's value is compared. */
static void core_assert_same(const CoreResult *a, const CoreResult *b, bool threads, const char *who)
{
	for (int i = threads ? 2 : 0; i < 3; i++) {
		ck_assert_msg(a->score[i] == b->score[i], "%s, search %d: score %d alone, %d together", who, i,
		              a->score[i], b->score[i]);
		ck_assert_int_eq(a->depth[i], b->depth[i]);
		if (threads)
			continue; /* the solve's move: any of equal value */
		ck_assert_msg(a->move[i] == b->move[i], "%s, search %d: move %d alone, %d together", who, i, a->move[i],
		              b->move[i]);
		ck_assert_msg(a->nodes[i] == b->nodes[i], "%s, search %d: %llu nodes alone, %llu together", who, i,
		              (unsigned long long)a->nodes[i], (unsigned long long)b->nodes[i]);
		ck_assert_int_eq(a->pvlen[i], b->pvlen[i]);
		ck_assert_int_eq(memcmp(a->pv[i], b->pv[i], sizeof(int) * (size_t)a->pvlen[i]), 0);
	}
}

START_TEST(core_two_engines_as_two_processes)
{
	CoreEngine spec[3] = {
		{ .threads = 1, .hash_mb = 16, .weights = false },
		{ .threads = 1, .hash_mb = 64, .weights = true },
		{ .threads = 2, .hash_mb = 32, .weights = false },
	};
	CoreResult alone[3];
	for (int i = 0; i < 3; i++)
		alone[i] = core_alone(&spec[i]);
	/* the weights matter: the two single-threaded engines differ */
	ck_assert(alone[0].nodes[0] != alone[1].nodes[0] || alone[0].score[0] != alone[1].score[0]);
	ck_assert_int_eq(alone[0].score[2], 38); /* FFO #40 */
	/* all three at once in this process, twice */
	for (int round = 0; round < (CORE_SANITIZED ? 1 : 2); round++) {
		pthread_t t[3];
		for (int i = 0; i < 3; i++)
			ck_assert_int_eq(pthread_create(&t[i], NULL, core_engine_run, &spec[i]), 0);
		for (int i = 0; i < 3; i++)
			pthread_join(t[i], NULL);
		core_assert_same(&alone[0], &spec[0].res, false, "engine 1");
		core_assert_same(&alone[1], &spec[1].res, false, "engine 2 (other weights)");
		core_assert_same(&alone[2], &spec[2].res, true, "engine 3 (2 threads)");
	}
}
END_TEST

/* ---- one search stack ---------------------------------------------------- */

typedef struct CoreLines {
	int n;
	EngineInfo line[8];
} CoreLines;

static void core_lines(const EngineInfo *in, void *user)
{
	CoreLines *l = user;
	if (in->multipv_index >= 1 && in->multipv_index <= 8) {
		l->line[in->multipv_index - 1] = *in;
		if (in->multipv_index > l->n)
			l->n = in->multipv_index;
	}
}

/* Multi-PV analysis to the end hands the exact subtrees to the solver: the
 * best four moves of FFO #40 with their exact values (the FFO list: A2 +38,
 * C7 +36, D8 +34, then C1 or B1 +30), and far fewer nodes than the same
 * search without it (23.6 M nodes, 1.0 s; the midgame search alone took
 * 12.5 s). */
START_TEST(core_multipv_exact_uses_solver)
{
	static const int want[] = { 38, 36, 34, 30 };
	Engine *e = engine_new();
	ck_assert(e != NULL);
	ck_assert(engine_set_hash_mb(e, 64));
	Game g;
	game_obf(&g, FFO40);
	EngineLimits lim = test_depth_limits(20);
	lim.multipv = 4;
	CoreLines l;
	memset(&l, 0, sizeof l);
	EngineInfo r = engine_search(e, &g, &lim, core_lines, &l);
	ck_assert_int_eq(r.score, 38);
	ck_assert_int_eq(r.move, text_parse_square("a2", 8));
	ck_assert_int_eq(l.n, 4);
	for (int i = 0; i < 4; i++) {
		ck_assert_msg(l.line[i].score == want[i], "line %d: %d, want %d", i + 1, l.line[i].score, want[i]);
		ck_assert(l.line[i].exact);
		ck_assert_int_ge(l.line[i].pvlen, 15); /* the PV runs to the end of the game */
	}
	ck_assert_int_eq(l.line[1].move, text_parse_square("c7", 8));
	ck_assert_int_eq(l.line[2].move, text_parse_square("d8", 8));
	fprintf(stderr, "multi-PV 4 of FFO #40 to the end: %llu nodes, %.2f s\n", (unsigned long long)r.nodes,
	        r.seconds);
	ck_assert_uint_lt(r.nodes, 60000000);
	engine_free(e);
}
END_TEST

/* A solve of many empties stops at once, in the pre-searches' deep
 * evaluation searches too (they once ran seconds without looking at the
 * stop flag; bench/scripts/api-stop.c measures the latency). */
typedef struct CoreStopper {
	Engine *e;
	double at;
} CoreStopper;

static void *core_stopper(void *arg)
{
	CoreStopper *c = arg;
	const struct timespec ms = { 0, 200000000 };
	nanosleep(&ms, NULL);
	c->at = util_now();
	engine_stop(c->e);
	return NULL;
}

START_TEST(core_solve_of_many_empties_stops)
{
	Engine *e = engine_new();
	ck_assert(e != NULL);
	Game g;
	test_game_from(&g, MID1);
	CoreStopper c = { e, 0 };
	pthread_t tid;
	ck_assert_int_eq(pthread_create(&tid, NULL, core_stopper, &c), 0);
	EngineInfo r = engine_solve_game(e, &g, false, NULL);
	const double done = util_now();
	pthread_join(tid, NULL);
	ck_assert(!r.exact);
	ck_assert_int_eq(r.move, BOARD_NOMOVE);
	/* loose: a loaded machine, sanitizers */
	ck_assert_msg(done - c.at < 1.0, "returned %.3f s after the stop", done - c.at);
	engine_free(e);
}
END_TEST

/* ---- memory follows --hash ---------------------------------------------- */

#define MIB ((uint64_t)1 << 20)

/* In a child: an engine with --hash mb and 2 threads, its tables faulted
 * in, then a midgame search, an exact solve with both threads and a
 * clocked search; the peak resident size of the process. */
static uint64_t core_peak(int mb)
{
	Engine *e = engine_new();
	if (!e || !engine_set_hash_mb(e, mb))
		return 0;
	engine_set_threads(e, 2);
	/* the background faulting of the tables: until the size stays put */
	const struct timespec ms = { 0, 20000000 };
	uint64_t last = 0, now;
	for (int i = 0; i < 500 && (now = test_status_bytes("VmRSS")) != last; i++) {
		last = now;
		nanosleep(&ms, NULL);
	}
	Game g;
	test_game_from(&g, MID2);
	EngineLimits lim = test_depth_limits(10);
	engine_search(e, &g, &lim, NULL, NULL);
	game_obf(&g, FFO40);
	if (engine_solve_game(e, &g, false, NULL).score != 38)
		return 0;
	EngineLimits clock = { .time_left = -1, .movetime = 0.2 };
	test_game_from(&g, MID1);
	engine_search(e, &g, &clock, NULL, NULL);
	const uint64_t peak = test_status_bytes("VmHWM");
	engine_free(e);
	return peak;
}

/* The process's peak resident size is at most --hash + 40 MiB + the
 * weights, for --hash 1, 64 and 1024. */
START_TEST(core_memory_follows_hash)
{
	if (CORE_SANITIZED)
		return;
	static const int sizes[] = { 1, 64, 1024 };
	const uint64_t weights = (uint64_t)PATTERN_PHASES * PATTERN_WEIGHTS * sizeof(int16_t);
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		const int mb = sizes[k];
		if (util_mem_available() < (uint64_t)(mb + 200) * MIB)
			continue; /* not on this machine now */
		int fd[2];
		ck_assert_int_eq(pipe(fd), 0);
		pid_t pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			uint64_t peak = core_peak(mb);
			_exit(write(fd[1], &peak, sizeof peak) == (ssize_t)sizeof peak ? 0 : 1);
		}
		close(fd[1]);
		uint64_t peak = 0;
		ck_assert_int_eq(read(fd[0], &peak, sizeof peak), (ssize_t)sizeof peak);
		close(fd[0]);
		int st;
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert(peak > 0);
		const uint64_t limit = (uint64_t)(mb + 40) * MIB + weights;
		fprintf(stderr, "memory: --hash %d: peak resident %.1f MiB (limit %.1f MiB)\n", mb,
		        (double)peak / (double)MIB, (double)limit / (double)MIB);
		ck_assert_msg(peak <= limit, "--hash %d: peak resident %llu bytes, limit %llu", mb,
		              (unsigned long long)peak, (unsigned long long)limit);
		/* and the table is there: at least half the budget in use */
		ck_assert_uint_ge(peak, (uint64_t)mb * MIB / 2);
	}
}
END_TEST

static Suite *core_suite(void)
{
	Suite *s = suite_create("engine_core");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, core_no_thread_per_move);
	tcase_add_test(tc, core_no_thread_per_protocol_move);
	tcase_add_test(tc, core_two_engines_as_two_processes);
	tcase_add_test(tc, core_memory_follows_hash);
	tcase_add_test(tc, core_multipv_exact_uses_solver);
	tcase_add_test(tc, core_solve_of_many_empties_stops);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(core_suite)
