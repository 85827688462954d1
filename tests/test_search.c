/* The midgame search, the transposition table and the engine facade. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "testutil.h"
#include "engine.h"
#include "game.h"
#include "search.h"
#include "text.h"
#include "timeman.h"
#include "tt.h"
#include "util.h"

static EngineLimits lim_none(void)
{
	EngineLimits l;
	memset(&l, 0, sizeof l);
	l.time_left = -1;
	return l;
}

static void game_from(Game *g, const char *moves)
{
	char err[TEXT_ERR];
	game_init(g, 8, VARIANT_NORMAL);
	ck_assert_msg(text_apply_transcript(g, moves, err), "%s", err);
}

static void game_from_obf(Game *g, const char *obf, int size)
{
	ObfPosition pos;
	char err[TEXT_ERR];
	ck_assert_msg(text_parse_obf(obf, size, &pos, err), "%s", err);
	game_init(g, size, VARIANT_NORMAL);
	game_set(g, pos.board, pos.side);
}

/* Slow reference: plain negamax to the end of the game (few empties). */
static int ref_solve(Board b, int size, Variant v, bool passed)
{
	uint64_t geo = board_geometry(size);
	uint64_t m = board_moves(b.p, b.o) & geo;
	if (!m) {
		if (passed)
			return -board_final_score(board_pass(b), size, v);
		return -ref_solve(board_pass(b), size, v, true);
	}
	int best = -1000;
	for (; m; m = bit_pop(m)) {
		int sq = bit_first(m);
		int s = -ref_solve(board_apply(b, sq, ref_flips(b.p, b.o, sq)), size, v, false);
		if (s > best)
			best = s;
	}
	return best;
}

/* ---- transposition table -------------------------------------------------- */

START_TEST(tt_never_returns_another_position)
{
	/* a 1 MB table: 16384 buckets, so 200000 positions collide heavily */
	TT tt;
	ck_assert(tt_init(&tt, 1));
	uint64_t rs = 12345;
	enum { N = 200000 };
	static uint64_t ps[N], os[N];
	for (int i = 0; i < N; i++) {
		uint64_t p = test_rand(&rs), o = test_rand(&rs) & ~p;
		ps[i] = p;
		os[i] = o;
		/* the score encodes the position so that a wrong hit shows */
		int s = (int)((p ^ o) % 129) - 64;
		tt_store(&tt, p, o, 5, SEARCH_SEL_NONE, -SEARCH_INF, SEARCH_INF, s, (int)(p % 64));
	}
	long hits = 0;
	for (int i = 0; i < N; i++) {
		TTData d;
		if (tt_probe(&tt, ps[i], os[i], &d)) {
			hits++;
			int s = (int)((ps[i] ^ os[i]) % 129) - 64;
			ck_assert_int_eq(d.lower, s);
			ck_assert_int_eq(d.upper, s);
			ck_assert_int_eq(d.move, (int)(ps[i] % 64));
			ck_assert_int_eq(d.depth, 5);
		}
		/* the same discs with the colours swapped is another position */
		TTData d2;
		if (tt_probe(&tt, os[i], ps[i], &d2))
			ck_assert_msg(0, "hit for a position never stored");
	}
	/* both ways of the buckets hold entries */
	ck_assert(hits > 16384);
	tt_free(&tt);
}
END_TEST

START_TEST(tt_bounds_and_replacement)
{
	TT tt;
	ck_assert(tt_init(&tt, 1));
	uint64_t p = 0x0000000810000000ULL, o = 0x0000001008000000ULL;
	TTData d;
	ck_assert(!tt_probe(&tt, p, o, &d));
	/* fail high at depth 4: a lower bound */
	tt_store(&tt, p, o, 4, SEARCH_SEL_NONE, -3, 2, 6, 19);
	ck_assert(tt_probe(&tt, p, o, &d));
	ck_assert_int_eq(d.lower, 6);
	ck_assert_int_ge(d.upper, 64);
	ck_assert_int_eq(d.move, 19);
	/* fail low at the same depth: bounds merged */
	tt_store(&tt, p, o, 4, SEARCH_SEL_NONE, 9, 10, 8, TT_NO_MOVE);
	ck_assert(tt_probe(&tt, p, o, &d));
	ck_assert_int_eq(d.lower, 6);
	ck_assert_int_eq(d.upper, 8);
	ck_assert_int_eq(d.move, 19);
	/* a shallower result never replaces a deeper one */
	tt_store(&tt, p, o, 2, SEARCH_SEL_NONE, -64, 64, -10, 20);
	ck_assert(tt_probe(&tt, p, o, &d));
	ck_assert_int_eq(d.depth, 4);
	ck_assert_int_eq(d.lower, 6);
	/* a deeper one does */
	tt_store(&tt, p, o, 7, SEARCH_SEL_NONE, -64, 64, -2, 37);
	ck_assert(tt_probe(&tt, p, o, &d));
	ck_assert_int_eq(d.depth, 7);
	ck_assert_int_eq(d.lower, -2);
	ck_assert_int_eq(d.upper, -2);
	ck_assert_int_eq(d.move, 37);
	tt_clear(&tt);
	ck_assert(!tt_probe(&tt, p, o, &d));
	tt_free(&tt);
}
END_TEST

/* ---- engine results ----------------------------------------------------- */

START_TEST(search_game_end_and_pass)
{
	Engine *e = engine_new();
	ck_assert_ptr_nonnull(e);
	EngineLimits l = lim_none();
	l.depth = 6;
	Game g;
	/* one of the shortest games: a wipe-out after 9 moves */
	game_from(&g, "d3c3b3d2e1d6d7e3f4");
	ck_assert(game_is_over(&g));
	EngineInfo r = engine_search(e, &g, &l, NULL, NULL);
	ck_assert_int_eq(r.move, BOARD_NOMOVE);
	ck_assert_int_eq(r.score, board_final_score(g.board, 8, VARIANT_NORMAL));
	ck_assert(r.exact);
	/* a forced pass: white to move has no move; black has */
	game_from_obf(&g, "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO-- O", 8);
	ck_assert(game_must_pass(&g));
	r = engine_search(e, &g, &l, NULL, NULL);
	ck_assert_int_eq(r.move, BOARD_PASS);
	/* after the pass black plays g8; the score is exact at depth 6 */
	Game g2 = g;
	ck_assert_int_eq(game_play(&g2, BOARD_PASS), GAME_OK);
	int want = -ref_solve(g2.board, 8, VARIANT_NORMAL, false);
	ck_assert_int_eq(r.score, want);
	engine_free(e);
}
END_TEST

START_TEST(search_exact_small_positions)
{
	/* depth >= empties: the engine's score must equal a plain negamax on
	 * random positions with 7..9 empties, 8x8, 6x6 and anti */
	Engine *e = engine_new();
	uint64_t rs = 777;
	for (int k = 0; k < 18; k++) {
		int size = k % 3 == 1 ? 6 : 8;
		Variant v = k % 3 == 2 ? VARIANT_ANTI : VARIANT_NORMAL;
		Game g;
		game_init(&g, size, v);
		int target = 7 + k % 3;
		while (game_empties(&g) > target && !game_is_over(&g)) {
			uint64_t m = game_moves(&g);
			if (!m) {
				game_play(&g, BOARD_PASS);
				continue;
			}
			int c = (int)(test_rand(&rs) % (uint64_t)bit_count(m));
			while (c--)
				m = bit_pop(m);
			game_play(&g, bit_first(m));
		}
		if (game_is_over(&g) || !game_moves(&g))
			continue;
		EngineLimits l = lim_none();
		l.depth = 60;
		EngineInfo r = engine_search(e, &g, &l, NULL, NULL);
		int want = ref_solve(g.board, size, v, false);
		ck_assert_int_eq(r.score, want);
		ck_assert(r.exact);
		ck_assert(game_moves(&g) & bit_of(r.move));
		/* the chosen move achieves the score */
		Game h = g;
		ck_assert_int_eq(game_play(&h, r.move), GAME_OK);
		ck_assert_int_eq(-ref_solve(h.board, size, v, false), want);
	}
	engine_free(e);
}
END_TEST


/* ---- FFO positions: exact solves and multi-PV against the published scores */

typedef struct FfoSet {
	ObfPosition pos[16];
	int n;
} FfoSet;

static void ffo_load(FfoSet *fs)
{
	FILE *f = fopen(test_data("search-ffo.obf"), "r");
	ck_assert_msg(f != NULL, "missing fixture %s", test_data("search-ffo.obf"));
	char line[512], err[TEXT_ERR];
	fs->n = 0;
	while (fs->n < 16 && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!line[0])
			continue;
		ck_assert_msg(text_parse_obf(line, 8, &fs->pos[fs->n], err), "%s", err);
		fs->n++;
	}
	fclose(f);
	ck_assert_int_ge(fs->n, 7);
}

START_TEST(search_ffo_exact)
{
	FfoSet fs;
	ffo_load(&fs);
	Engine *e = engine_new();
	for (int i = 0; i < fs.n; i++) {
		const ObfPosition *p = &fs.pos[i];
		Game g;
		game_init(&g, 8, VARIANT_NORMAL);
		game_set(&g, p->board, p->side);
		EngineLimits l = lim_none();
		engine_set_level(e, 60);
		engine_new_game(e);
		EngineInfo r = engine_search(e, &g, &l, NULL, NULL);
		ck_assert(r.exact);
		ck_assert_int_eq(r.score, p->expected_score[0]);
		/* the move is one of those reaching the best score */
		bool ok = false;
		for (int k = 0; k < p->nexpected; k++)
			if (p->expected_move[k] == r.move && p->expected_score[k] == p->expected_score[0])
				ok = true;
		ck_assert_msg(ok, "FFO line %d: move %d does not reach %d", i + 1, r.move, p->expected_score[0]);
	}
	engine_free(e);
}
END_TEST

typedef struct Lines {
	EngineInfo last[8];
	int calls;
} Lines;

static void collect_lines(const EngineInfo *in, void *user)
{
	Lines *ls = user;
	ls->calls++;
	if (in->multipv_index >= 1 && in->multipv_index <= 8)
		ls->last[in->multipv_index - 1] = *in;
}

START_TEST(search_multipv_ffo)
{
	/* the best 4 moves with exact scores, as published */
	FfoSet fs;
	ffo_load(&fs);
	Engine *e = engine_new();
	engine_set_level(e, 60);
	for (int i = 1; i < 4; i++) {
		const ObfPosition *p = &fs.pos[i];
		Game g;
		game_init(&g, 8, VARIANT_NORMAL);
		game_set(&g, p->board, p->side);
		EngineLimits l = lim_none();
		l.multipv = 4;
		Lines ls;
		memset(&ls, 0, sizeof ls);
		EngineInfo r = engine_search(e, &g, &l, collect_lines, &ls);
		ck_assert(r.exact);
		ck_assert_int_eq(r.score, p->expected_score[0]);
		ck_assert_int_ge(ls.calls, 4);
		uint64_t seen = 0;
		for (int k = 0; k < 4; k++) {
			const EngineInfo *in = &ls.last[k];
			ck_assert_int_eq(in->multipv_index, k + 1);
			ck_assert(game_moves(&g) & bit_of(in->move));
			ck_assert(!(seen & bit_of(in->move)));
			seen |= bit_of(in->move);
			ck_assert_int_eq(in->pv[0], in->move);
			if (k)
				ck_assert_int_le(in->score, ls.last[k - 1].score);
			/* the published score of that move */
			int want = -1000;
			for (int j = 0; j < p->nexpected; j++)
				if (p->expected_move[j] == in->move)
					want = p->expected_score[j];
			ck_assert_int_eq(in->score, want);
			ck_assert_int_eq(in->score, p->expected_score[k]);
		}
	}
	engine_free(e);
}
END_TEST

START_TEST(search_multipv_midgame)
{
	/* multi-PV at depth 4: each line's score is the value of that move
	 * searched alone, the lines are sorted and distinct */
	Engine *e = engine_new();
	Game g;
	game_from(&g, "f5d6c3d3c4f4f6f3e6e7d7c5");
	EngineLimits l = lim_none();
	l.depth = 4;
	l.multipv = 5;
	Lines ls;
	memset(&ls, 0, sizeof ls);
	engine_set_level(e, 60);
	engine_search(e, &g, &l, collect_lines, &ls);
	int nmoves = bit_count(game_moves(&g));
	ck_assert_int_ge(nmoves, 5);
	uint64_t seen = 0;
	for (int k = 0; k < 5; k++) {
		const EngineInfo *in = &ls.last[k];
		ck_assert(game_moves(&g) & bit_of(in->move));
		ck_assert(!(seen & bit_of(in->move)));
		seen |= bit_of(in->move);
		if (k)
			ck_assert_int_le(in->score, ls.last[k - 1].score);
		Game h = g;
		ck_assert_int_eq(game_play(&h, in->move), GAME_OK);
		EngineLimits l3 = lim_none();
		l3.depth = 3;
		engine_new_game(e);
		EngineInfo r3 = engine_search(e, &h, &l3, NULL, NULL);
		ck_assert_int_eq(in->score, -r3.score);
	}
	/* every move not listed is no better than the 5th line */
	for (uint64_t m = game_moves(&g) & ~seen; m; m = bit_pop(m)) {
		Game h = g;
		game_play(&h, bit_first(m));
		EngineLimits l3 = lim_none();
		l3.depth = 3;
		EngineInfo r3 = engine_search(e, &h, &l3, NULL, NULL);
		ck_assert_int_le(-r3.score, ls.last[4].score);
	}
	engine_free(e);
}
END_TEST

/* ---- reproducibility ------------------------------------------------------ */

static void play_game(Engine *e, int level, uint64_t seed, char *out)
{
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	engine_new_game(e);
	engine_set_level(e, level);
	engine_set_seed(e, seed);
	EngineLimits l = lim_none();
	while (!game_is_over(&g) && game_empties(&g) > 40) {
		EngineInfo r = engine_search(e, &g, &l, NULL, NULL);
		ck_assert_int_eq(game_play(&g, r.move), GAME_OK);
	}
	text_transcript(&g, out);
}

START_TEST(search_reproducible)
{
	Engine *e = engine_new();
	Game g;
	game_from(&g, "f5d6c3d3c4f4f6f3e6e7d7c5b6d8");
	EngineLimits l = lim_none();
	l.depth = 9;
	engine_set_level(e, 60);
	engine_new_game(e);
	EngineInfo a = engine_search(e, &g, &l, NULL, NULL);
	engine_new_game(e);
	EngineInfo b = engine_search(e, &g, &l, NULL, NULL);
	ck_assert_int_eq(a.move, b.move);
	ck_assert_int_eq(a.score, b.score);
	ck_assert_uint_eq(a.nodes, b.nodes);
	ck_assert_int_eq(a.pvlen, b.pvlen);
	ck_assert(!memcmp(a.pv, b.pv, sizeof(int) * (size_t)a.pvlen));
	/* node-limited searches stop at the same node */
	l.depth = 0;
	l.nodes = 200000;
	engine_new_game(e);
	a = engine_search(e, &g, &l, NULL, NULL);
	engine_new_game(e);
	b = engine_search(e, &g, &l, NULL, NULL);
	ck_assert_int_eq(a.move, b.move);
	ck_assert_int_eq(a.depth, b.depth);
	ck_assert_uint_eq(a.nodes, b.nodes);
	ck_assert_uint_lt(a.nodes, 200000 + 2048);
	/* Easy and Normal: the same seed gives the same game, and seeds vary play */
	char t1[200], t2[200];
	for (int level = ENGINE_LEVEL_NORMAL; level >= ENGINE_LEVEL_NORMAL; level--) {
		play_game(e, level, 42, t1);
		play_game(e, level, 42, t2);
		ck_assert_str_eq(t1, t2);
	}
	play_game(e, ENGINE_LEVEL_EASY, 42, t1);
	play_game(e, ENGINE_LEVEL_EASY, 42, t2);
	ck_assert_str_eq(t1, t2);
	int differ = 0;
	for (uint64_t s = 1; s <= 4; s++) {
		play_game(e, ENGINE_LEVEL_EASY, s, t2);
		differ += strcmp(t1, t2) != 0;
	}
	ck_assert_int_ge(differ, 1);
	/* Hard never varies */
	play_game(e, 2, 1, t1);
	play_game(e, 2, 99, t2);
	ck_assert_str_eq(t1, t2);
	engine_free(e);
}
END_TEST

/* ---- stop and time ---------------------------------------------------------- */

/* The engine keeps a margin inside every limit, so on an idle machine each
 * move ends before its time (the worst overrun is printed, and negative).
 * The suites also run on loaded 2-core CI machines where a thread may
 * wait tens of milliseconds for a core: the assertions allow that much. */
#ifdef NDEBUG
#define TEST_LOAD_SLACK 0.100
#else
/* sanitizer builds (MODE=debug, MODE=tsan) run 5 to 20 times slower, the
 * endgame solver's stop polling included */
#define TEST_LOAD_SLACK 0.500
#endif

typedef struct StopRun {
	Engine *e;
	Game g;
	EngineLimits l;
	EngineInfo r;
	double returned;
} StopRun;

static void *stop_run_main(void *arg)
{
	StopRun *sr = arg;
	sr->r = engine_search(sr->e, &sr->g, &sr->l, NULL, NULL);
	sr->returned = util_now();
	return NULL;
}

START_TEST(search_stop_latency)
{
	/* engine_stop() from another thread ends an infinite search within a
	 * few milliseconds, with a legal move */
	const char *lines[] = { "f5d6c3d3c4f4f6f3e6e7", "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6" };
	double worst = 0;
	for (int k = 0; k < 2; k++) {
		for (int threads = 1; threads <= 2; threads++) {
			StopRun sr;
			sr.e = engine_new();
			engine_set_threads(sr.e, threads);
			game_from(&sr.g, lines[k]);
			sr.l = lim_none();
			sr.l.infinite = true;
			pthread_t tid;
			ck_assert_int_eq(pthread_create(&tid, NULL, stop_run_main, &sr), 0);
			struct timespec ts = { 0, 150 * 1000000L };
			nanosleep(&ts, NULL);
			double asked = util_now();
			engine_stop(sr.e);
			pthread_join(tid, NULL);
			double lat = sr.returned - asked;
			if (lat > worst)
				worst = lat;
			ck_assert(game_moves(&sr.g) & bit_of(sr.r.move));
			engine_free(sr.e);
		}
	}
	fprintf(stderr, "search: worst stop latency %.2f ms\n", worst * 1e3);
	/* typically 0.1 ms; the bound leaves room for a loaded machine */
	ck_assert_msg(worst < TEST_LOAD_SLACK / 2, "stop took %.1f ms", worst * 1e3);
}
END_TEST


START_TEST(search_time_limits)
{
	/* the elapsed time of engine_search never exceeds the time given */
	static const char *pos[] = {
		"f5d6c3d3c4f4f6f3e6e7",
		"f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6",
		"f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2",
		"f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2g3h4f1e1f2g1b1f8",
		"f5f6e6f4e3d6c4f3g3b4g5h5f7g6c5c6d7g4b3e7a4c8d8g8h3h4d3c3e8f8",
		"f5",
	};
	static const double movetimes[] = { 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.1, 0.1, 0.3, 1.0 };
	Engine *e = engine_new();
	double worst = -1;
	for (int i = 0; i < (int)(sizeof movetimes / sizeof movetimes[0]); i++) {
		Game g;
		game_from(&g, pos[i % 6]);
		EngineLimits l = lim_none();
		l.movetime = movetimes[i];
		engine_set_threads(e, 1 + (i & 1));
		double t0 = util_now();
		EngineInfo r = engine_search(e, &g, &l, NULL, NULL);
		double el = util_now() - t0;
		ck_assert(game_moves(&g) & bit_of(r.move));
		if (el - movetimes[i] > worst)
			worst = el - movetimes[i];
		ck_assert_msg(el <= movetimes[i] + TEST_LOAD_SLACK, "movetime %.2f s took %.4f s", movetimes[i], el);
	}
	/* clocks: sudden death with 10 s left, byo-yomi (no main time, 0.2 s a
	 * move), 3 moves in 0.3 s */
	static const double left[] = { 10.0, 0.0, 0.3 };
	static const double inc[] = { 0.0, 0.2, 0.0 };
	static const int mtg[] = { 0, 0, 3 };
	for (int i = 0; i < 3; i++) {
		Game g;
		game_from(&g, pos[1]);
		EngineLimits l = lim_none();
		l.time_left = left[i];
		l.increment = inc[i];
		l.moves_to_go = mtg[i];
		double avail = left[i] > 0 ? left[i] : inc[i];
		double t0 = util_now();
		EngineInfo r = engine_search(e, &g, &l, NULL, NULL);
		double el = util_now() - t0;
		ck_assert(game_moves(&g) & bit_of(r.move));
		if (el - avail > worst)
			worst = el - avail;
		ck_assert_msg(el <= avail + TEST_LOAD_SLACK, "clock %.2f s: move took %.4f s", avail, el);
		if (mtg[i])
			ck_assert_msg(el <= avail / 2 + TEST_LOAD_SLACK, "3 moves in %.2f s: one took %.4f s", avail, el);
	}
	fprintf(stderr, "search: worst time overrun %.2f ms (negative: all moves inside their time)\n",
	        worst * 1e3);
	engine_free(e);
}
END_TEST

START_TEST(search_time_plans)
{
	EngineLimits l = lim_none();
	l.movetime = 1.0;
	TimePlan tp = timeman_plan(&l, 40);
	ck_assert(tp.hard > 0.9 && tp.hard < 1.0);
	ck_assert(tp.soft <= tp.hard);
	l = lim_none();
	l.time_left = 60;
	tp = timeman_plan(&l, 50);
	ck_assert(tp.soft > 60.0 / 30 && tp.soft < 60.0 / 15);
	ck_assert(tp.hard >= tp.soft && tp.hard < 60 * 0.5);
	/* the last moves may use nearly all, never all */
	tp = timeman_plan(&l, 6);
	ck_assert(tp.hard < 60 - timeman_margin(60) + 1e-9);
	/* byo-yomi only */
	l.time_left = 0;
	l.increment = 5;
	tp = timeman_plan(&l, 30);
	ck_assert(tp.hard <= 5 - timeman_margin(5) + 1e-9 && tp.hard > 3);
	/* periods: 3 moves in 0.3 s: at most half for one */
	l.time_left = 0.3;
	l.increment = 0;
	l.moves_to_go = 3;
	tp = timeman_plan(&l, 40);
	ck_assert(tp.hard <= 0.15 && tp.soft <= tp.hard);
	l.moves_to_go = 0;
	/* Fischer: never more than the clock */
	l.time_left = 0.5;
	l.increment = 10;
	tp = timeman_plan(&l, 30);
	ck_assert(tp.hard <= 0.5);
	/* no clock */
	l = lim_none();
	tp = timeman_plan(&l, 30);
	ck_assert(tp.soft == 0 && tp.hard == 0);
}
END_TEST

START_TEST(search_levels_table)
{
	int d, x, r;
	engine_level_plan(1, false, &d, &x, &r);
	ck_assert(d == 1 && x == 2 && r < 0);
	engine_level_plan(10, false, &d, &x, &r);
	ck_assert(d == 10 && x == 20 && r < 0);
	engine_level_plan(21, false, &d, &x, &r);
	ck_assert(d == 21 && x == 31);
	engine_level_plan(60, false, &d, &x, &r);
	ck_assert(d == 60 && x == 60);
	engine_level_plan(ENGINE_LEVEL_EASY, true, &d, &x, &r);
	ck_assert(r > 0);
	int de = d;
	engine_level_plan(ENGINE_LEVEL_NORMAL, true, &d, &x, &r);
	ck_assert(r >= 0 && d > de);
	engine_level_plan(ENGINE_LEVEL_HARD, true, &d, &x, &r);
	ck_assert(r < 0 && d == 60 && x == 60);
	/* numeric levels: a level-L search reaches depth L */
	Engine *e = engine_new();
	Game g;
	game_from(&g, "f5d6c3d3c4f4f6f3e6e7");
	EngineLimits l = lim_none();
	for (int level = 0; level <= 6; level += 3) {
		engine_set_level(e, level);
		EngineInfo in = engine_search(e, &g, &l, NULL, NULL);
		ck_assert_int_eq(in.depth, level < 1 ? 1 : level);
	}
	engine_free(e);
}
END_TEST

START_TEST(search_small_boards)
{
	/* 6x6 and anti: moves stay on the board and are legal for the variant */
	Engine *e = engine_new();
	engine_set_level(e, 4);
	for (int k = 0; k < 2; k++) {
		Game g;
		game_init(&g, k ? 8 : 6, k ? VARIANT_ANTI : VARIANT_NORMAL);
		EngineLimits l = lim_none();
		while (!game_is_over(&g)) {
			EngineInfo r = engine_search(e, &g, &l, NULL, NULL);
			if (game_must_pass(&g))
				ck_assert_int_eq(r.move, BOARD_PASS);
			else
				ck_assert(game_moves(&g) & bit_of(r.move));
			ck_assert_int_eq(game_play(&g, r.move), GAME_OK);
		}
		EngineInfo r = engine_search(e, &g, &l, NULL, NULL);
		ck_assert_int_eq(r.move, BOARD_NOMOVE);
	}
	engine_free(e);
}
END_TEST

START_TEST(search_limit_edge_cases)
{
	Engine *e = engine_new();
	Game g;
	game_from(&g, "f5d6c3d3c4f4f6f3e6e7");
	/* a node limit of 1: still a legal move */
	EngineLimits l = lim_none();
	l.nodes = 1;
	EngineInfo r = engine_search(e, &g, &l, NULL, NULL);
	ck_assert(game_moves(&g) & bit_of(r.move));
	/* no limits structure at all: the level decides */
	engine_set_level(e, 3);
	r = engine_search(e, &g, NULL, NULL, NULL);
	ck_assert(game_moves(&g) & bit_of(r.move));
	ck_assert_int_eq(r.depth, 3);
	/* more lines than moves: one line per move */
	l = lim_none();
	l.depth = 2;
	l.multipv = 40;
	Lines ls;
	memset(&ls, 0, sizeof ls);
	r = engine_search(e, &g, &l, collect_lines, &ls);
	ck_assert_int_eq(ls.calls, 2 * bit_count(game_moves(&g)));
	/* a tiny clock and a huge depth */
	l = lim_none();
	l.time_left = 0.001;
	l.depth = 200;
	r = engine_search(e, &g, &l, NULL, NULL);
	ck_assert(game_moves(&g) & bit_of(r.move));
	/* 4x4 board: exact from the start (the game is tiny) */
	game_init(&g, 4, VARIANT_NORMAL);
	engine_set_level(e, 60);
	l = lim_none();
	r = engine_search(e, &g, &l, NULL, NULL);
	ck_assert(r.exact);
	ck_assert_int_eq(r.score, ref_solve(g.board, 4, VARIANT_NORMAL, false));
	engine_free(e);
}
END_TEST

/* ---- emilia bench --file / --smp ------------------------------------- */

static void write_text(char *path, const char *text)
{
	strcpy(path, "/tmp/emilia-test-bench-XXXXXX");
	int fd = mkstemp(path);
	ck_assert(fd >= 0);
	FILE *f = fdopen(fd, "w");
	ck_assert(f != NULL);
	fputs(text, f);
	fclose(f);
}

static unsigned long long after(const char *out, const char *label)
{
	const char *at = strstr(out, label);
	ck_assert_msg(at != NULL, "no '%s' in:\n%s", label, out);
	return strtoull(at + strlen(label), NULL, 10);
}

/* `emilia ARGS` exits with `status`, says `message` and prints no totals. */
static void bench_fails(const char *args, int status, const char *message)
{
	int st;
	char *out = test_run_emilia(args, &st);
	ck_assert_int_eq(st, status);
	ck_assert_msg(strstr(out, message) != NULL, "no '%s' in:\n%s", message, out);
	ck_assert_msg(strstr(out, "Nodes searched") == NULL, "%s", out);
	free(out);
}

/* --file: its positions (a transcript and an OBF line; comments and blank
 * lines skipped) at the given depth, node counts the same run after run;
 * --smp: the same 1-thread node counts, plus the speedup lines; bad files
 * and options give a message and a non-zero status. */
START_TEST(search_bench_file_and_smp)
{
	char path[64], args[256];
	write_text(path, "# two positions\n\n  f5d6c3d3c4  \n"
	                 "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;\r\n");
	snprintf(args, sizeof args, "bench --file %s --depth 5", path);
	int st;
	char *out = test_run_emilia(args, &st);
	ck_assert_msg(st == 0, "%s", out);
	ck_assert_msg(strstr(out, " 1 mid    55 empties  depth  5") != NULL, "%s", out);
	ck_assert_msg(strstr(out, " 2 mid    14 empties") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "\n 3 ") == NULL, "%s", out);
	const unsigned long long total = after(out, "Nodes searched: ");
	ck_assert_uint_gt(total, 0);
	free(out);
	out = test_run_emilia(args, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_uint_eq(after(out, "Nodes searched: "), total);
	free(out);

	snprintf(args, sizeof args, "bench --file %s --depth 5 --smp 2", path);
	out = test_run_emilia(args, &st);
	ck_assert_msg(st == 0, "%s", out);
	ck_assert_uint_eq(after(out, "Nodes, 1 thread: "), total);
	ck_assert_msg(strstr(out, "Time-to-depth speedup of 2 threads: ") != NULL, "%s", out);
	free(out);
	unlink(path);

	bench_fails("bench --file /nonexistent/positions.txt", 1, "bench: cannot open '/nonexistent/positions.txt'");
	write_text(path, "# nothing but comments\n\n");
	snprintf(args, sizeof args, "bench --file %s", path);
	bench_fails(args, 1, "bench: no positions in");
	unlink(path);
	write_text(path, "f5d6\nf5zz\n");
	snprintf(args, sizeof args, "bench --file %s --depth 2", path);
	bench_fails(args, 1, "bench: position 2: ");
	unlink(path);
	bench_fails("bench --smp 1", 2, "bench: --smp must be 2..256 threads, not '1'");
}
END_TEST

static Suite *search_suite(void)
{
	Suite *s = suite_create("search");
	TCase *tc = tcase_create("tt");
	tcase_add_test(tc, tt_never_returns_another_position);
	tcase_add_test(tc, tt_bounds_and_replacement);
	suite_add_tcase(s, tc);
	tc = tcase_create("engine");
	tcase_add_test(tc, search_game_end_and_pass);
	tcase_add_test(tc, search_exact_small_positions);
	tcase_add_test(tc, search_ffo_exact);
	tcase_add_test(tc, search_multipv_ffo);
	tcase_add_test(tc, search_multipv_midgame);
	tcase_add_test(tc, search_reproducible);
	tcase_add_test(tc, search_levels_table);
	tcase_add_test(tc, search_small_boards);
	tcase_add_test(tc, search_limit_edge_cases);
	tcase_add_test(tc, search_bench_file_and_smp);
	suite_add_tcase(s, tc);
	tc = tcase_create("time");
	tcase_add_test(tc, search_time_plans);
	tcase_add_test(tc, search_stop_latency);
	tcase_add_test(tc, search_time_limits);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(search_suite)
