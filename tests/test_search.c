/* The midgame search, the transposition table and the engine facade. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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
	/* the last stores are all still there (2 ways per bucket) */
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
	 * random positions with 8..11 empties, 8x8, 6x6 and anti */
	Engine *e = engine_new();
	uint64_t rs = 777;
	for (int k = 0; k < 24; k++) {
		int size = k % 3 == 1 ? 6 : 8;
		Variant v = k % 3 == 2 ? VARIANT_ANTI : VARIANT_NORMAL;
		Game g;
		game_init(&g, size, v);
		int target = 8 + k % 4;
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
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(search_suite)
