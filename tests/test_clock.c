/*
 * test_clock.c - the one clock model (timeman.h): what each protocol
 * makes of its time commands (GTP time_settings/time_left, NBoard's GGF
 * clocks, UGI go), the plans the model draws from them, a whole game
 * played on paper against each clock, and genmove wall times that never
 * exceed a per-move clock of 0.05 to 1 s.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gtp.h"
#include "nboard.h"
#include "proto_io.h"
#include "testutil.h"
#include "timeman.h"
#include "ugi.h"
#include "util.h"

#define EPS 1e-9

static Options quiet_options(void)
{
	Options o;
	options_init(&o);
	char err[OPTIONS_ERR];
	ck_assert(options_set(&o, OPT_USEBOOK, "false", err));
	ck_assert(options_set(&o, OPT_OVERHEAD, "20", err));
	return o;
}

/* ---- the protocols' translations -------------------------------------------- */

START_TEST(gtp_clock_translation)
{
	Options o = quiet_options();
	char err[OPTIONS_ERR];
	FILE *out = fopen("/dev/null", "w");
	Gtp *g = gtp_new(out, &o, err);
	ck_assert_ptr_nonnull(g);
	/* no clock */
	EngineLimits l = gtp_limits(g);
	ck_assert(l.time_left < 0 && l.movetime == 0);
	/* S seconds per move, as emilia-match and Quarry set it */
	ck_assert(gtp_execute_line(g, "time_settings 0 0.1 1"));
	l = gtp_limits(g);
	ck_assert_double_eq_tol(l.time_left, 0.1, EPS);
	ck_assert_int_eq(l.moves_to_go, 1);
	ck_assert_double_eq_tol(l.overhead, 0.020, EPS);
	TimePlan tp = timeman_plan(&l, 50);
	ck_assert(tp.use_all);
	ck_assert_double_eq_tol(tp.hard, 0.1 - 0.020 - timeman_margin(0.1), EPS);
	ck_assert_double_eq_tol(tp.soft, tp.hard, EPS);
	/* main time then Canadian periods of 10 stones in 5 s */
	ck_assert(gtp_execute_line(g, "time_settings 300 5 10"));
	l = gtp_limits(g);
	ck_assert_double_eq_tol(l.time_left, 300, EPS);
	ck_assert_int_eq(l.moves_to_go, 0);
	ck_assert_double_eq_tol(l.byo_time, 5, EPS);
	ck_assert_int_eq(l.byo_moves, 10);
	/* the controller says black is in a period: 3 stones in 4 s */
	ck_assert(gtp_execute_line(g, "time_left black 4 3"));
	l = gtp_limits(g);
	ck_assert_double_eq_tol(l.time_left, 4, EPS);
	ck_assert_int_eq(l.moves_to_go, 3);
	ck_assert_double_eq_tol(l.byo_time, 0, EPS);
	/* sudden death: 10 s for the game */
	ck_assert(gtp_execute_line(g, "time_settings 10 0 0"));
	ck_assert(gtp_execute_line(g, "time_left black 7 0"));
	l = gtp_limits(g);
	ck_assert_double_eq_tol(l.time_left, 7, EPS);
	ck_assert_int_eq(l.moves_to_go, 0);
	ck_assert_int_eq(l.byo_moves, 0);
	/* byo-yomi time without stones: no limit (GTP) */
	ck_assert(gtp_execute_line(g, "time_settings 0 5 0"));
	l = gtp_limits(g);
	ck_assert(l.time_left < 0);
	gtp_free(g);
	fclose(out);
}
END_TEST

START_TEST(nboard_clock_translation)
{
	Options o = quiet_options();
	char err[OPTIONS_ERR];
	FILE *out = fopen("/dev/null", "w");
	NBoard *nb = nboard_new(out, &o, err);
	ck_assert_ptr_nonnull(nb);
	ck_assert(nboard_execute_line(nb, "nboard 2"));
	/* 5 minutes + 2 s a move each; black used 3 s on f5, white 4 s on d6 */
	ck_assert(nboard_execute_line(nb, "set game (;GM[Othello]PC[x]TI[5:00/2]TY[8]BO[8 -------- "
	                                  "-------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
	                                  "B[f5//3]W[d6//4];)"));
	EngineLimits l = nboard_limits(nb);
	/* black to move: 300 + 2 - 3 */
	ck_assert_double_eq_tol(l.time_left, 299, EPS);
	ck_assert_double_eq_tol(l.increment, 2, EPS);
	ck_assert_double_eq_tol(l.overhead, 0.020, EPS);
	ck_assert_int_eq(l.moves_to_go, 0);
	/* a move sent with its time charges the mover's clock */
	ck_assert(nboard_execute_line(nb, "move c3//10"));
	l = nboard_limits(nb);
	ck_assert_double_eq_tol(l.time_left, 300 + 2 - 4, EPS); /* white */
	ck_assert(nboard_execute_line(nb, "move d3//1.5"));
	l = nboard_limits(nb);
	ck_assert_double_eq_tol(l.time_left, 299 + 2 - 10, EPS); /* black */
	nboard_free(nb);
	fclose(out);
}
END_TEST

static bool go(Ugi *u, const char *args, EngineLimits *l)
{
	char buf[256], err[256];
	snprintf(buf, sizeof buf, "%s", args);
	char *argv[32];
	int argc = proto_split(buf, argv, 32);
	return ugi_go_limits(u, argc, argv, l, err, sizeof err);
}

START_TEST(ugi_clock_translation)
{
	Options o = quiet_options();
	char err[OPTIONS_ERR];
	FILE *out = fopen("/dev/null", "w");
	Ugi *u = ugi_new(out, &o, err);
	ck_assert_ptr_nonnull(u);
	ck_assert(ugi_execute_line(u, "position startpos"));
	EngineLimits l;
	ck_assert(go(u, "wtime 1000 btime 2000 winc 10 binc 20 movestogo 5", &l));
	ck_assert_double_eq_tol(l.time_left, 2.0, EPS); /* black moves first */
	ck_assert_double_eq_tol(l.increment, 0.02, EPS);
	ck_assert_int_eq(l.moves_to_go, 5);
	ck_assert_double_eq_tol(l.overhead, 0.020, EPS);
	ck_assert_double_eq_tol(l.movetime, 0, EPS);
	ck_assert(go(u, "movetime 300", &l));
	ck_assert_double_eq_tol(l.movetime, 0.3, EPS);
	ck_assert(l.time_left < 0);
	TimePlan tp = timeman_plan(&l, 50);
	ck_assert(tp.use_all);
	ck_assert_double_eq_tol(tp.hard, 0.3 - 0.020 - timeman_margin(0.3), EPS);
	/* a clock already run out (GUIs send negative times) is 0 left */
	ck_assert(go(u, "btime -50 wtime 100", &l));
	ck_assert_double_eq_tol(l.time_left, 0, EPS);
	ck_assert(ugi_execute_line(u, "position startpos moves f5"));
	ck_assert(go(u, "wtime 1000 btime 2000 winc 10 binc 20", &l));
	ck_assert_double_eq_tol(l.time_left, 1.0, EPS); /* white */
	ck_assert_double_eq_tol(l.increment, 0.01, EPS);
	ck_assert(!go(u, "movetime -5", &l));
	ck_assert(!go(u, "wtime", &l));
	ugi_free(u);
	fclose(out);
}
END_TEST

/* ---- the model's plans -------------------------------------------------------- */

static EngineLimits lim_clock(double left, double inc, int mtg)
{
	EngineLimits l;
	memset(&l, 0, sizeof l);
	l.time_left = left;
	l.increment = inc;
	l.moves_to_go = mtg;
	l.overhead = 0.01;
	return l;
}

/* Play a game on paper: the engine spends its soft target on every move
 * (and the hard limit on the moves that matter most, as an unstable
 * search would), the clock gets its increment; it must end with time on
 * the clock, never less than a move's margin, and the midgame and the
 * solve must get more than the opening. */
static double paper_game(double clock, double inc, bool greedy, double *opening, double *solve)
{
	*opening = *solve = 0;
	for (int empties = 60; empties >= 1; empties -= 2) {
		EngineLimits l = lim_clock(clock, inc, 0);
		TimePlan tp = timeman_plan(&l, empties);
		ck_assert(tp.soft > 0 && tp.hard >= tp.soft);
		ck_assert_msg(tp.hard <= clock - 0.01, "%d empties: hard %.3f with %.3f left", empties, tp.hard,
		              clock);
		double used = greedy && empties <= 40 && empties % 4 == 0 ? tp.hard : tp.soft;
		if (empties == 60)
			*opening = used;
		if (empties == 22)
			*solve = used;
		clock += inc - used - 0.01;
	}
	return clock;
}

START_TEST(whole_game_allocation)
{
	double op, sv;
	double left = paper_game(60, 0, false, &op, &sv);
	ck_assert_msg(left > 0 && left < 60 * 0.1, "60 s: %.2f s left", left);
	ck_assert(sv > op);
	left = paper_game(10, 0.1, false, &op, &sv);
	ck_assert_msg(left > 0 && left < 10 * 0.15, "10+0.1: %.2f s left", left);
	ck_assert(sv > op);
	/* an unstable search that keeps hitting hard still ends in time */
	left = paper_game(60, 0, true, &op, &sv);
	ck_assert_msg(left > 0, "60 s greedy: %.2f s left", left);
	left = paper_game(10, 0.1, true, &op, &sv);
	ck_assert_msg(left > 0, "10+0.1 greedy: %.2f s left", left);
}
END_TEST

START_TEST(periods_and_byo_yomi)
{
	/* Canadian period: 10 stones in 5 s: a move may not take the period */
	EngineLimits l = lim_clock(5, 0, 10);
	TimePlan tp = timeman_plan(&l, 40);
	ck_assert(!tp.use_all);
	ck_assert(tp.hard <= 0.4 * 5 + EPS && tp.soft >= 5.0 / 10 * 0.8);
	/* 10 stones in 5 s, playing all 10 at the soft target fits */
	double clock = 5;
	for (int k = 10; k >= 1; k--) {
		l = lim_clock(clock, 0, k);
		tp = timeman_plan(&l, 40 - 2 * (10 - k));
		clock -= tp.soft + 0.01;
	}
	ck_assert_msg(clock > 0, "period overrun: %.3f", clock);
	/* main time spent, byo-yomi of 1 stone in 2 s follows: all of it */
	l = lim_clock(0, 0, 0);
	l.byo_time = 2;
	l.byo_moves = 1;
	tp = timeman_plan(&l, 30);
	ck_assert(tp.use_all);
	ck_assert_double_eq_tol(tp.hard, 2 - 0.01 - timeman_margin(2), EPS);
	/* main time left, periods after it: a move may also count on one */
	l = lim_clock(1, 0, 0);
	l.byo_time = 2;
	l.byo_moves = 1;
	tp = timeman_plan(&l, 30);
	ck_assert(tp.hard > 1 && tp.hard <= 1 + 2 - 0.02);
	ck_assert(timeman_deadline(&l) <= 3 - 0.01 + EPS);
	/* the deadline of a per-move clock is the clock less the overhead */
	l = lim_clock(0.05, 0, 1);
	ck_assert_double_eq_tol(timeman_deadline(&l), 0.04, EPS);
	ck_assert_double_eq_tol(timeman_plan(&l, 40).hard, 0.04 - timeman_margin(0.05), EPS);
	/* extra time while the best move changes or the score drops */
	ck_assert_double_eq_tol(timeman_factor(1, 0, 0), 1, EPS);
	ck_assert_double_eq_tol(timeman_factor(5, 0, 0), 2, EPS);
	ck_assert_double_eq_tol(timeman_factor(5, 0, 3), 3, EPS);
	ck_assert_double_eq_tol(timeman_factor(5, 1, 0), 1, EPS);
	ck_assert_double_eq_tol(timeman_factor(5, 3, 0), 0.5, EPS);
	ck_assert_double_eq_tol(timeman_factor(5, 3, 2), 0.75, EPS);
}
END_TEST

/* ---- real moves against a per-move clock -------------------------------------- */

START_TEST(per_move_clock_never_exceeded)
{
	static const char *const pos[] = {
		"f5d6c3d3c4f4f6f3e6e7",
		"f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6",
		"f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2",
		"f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2g3h4f1e1f2g1b1f8",
	};
	static const double per_move[] = { 0.05, 0.1, 0.25, 1.0 };
	Options o;
	options_init(&o);
	char err[OPTIONS_ERR];
	ck_assert(options_set(&o, OPT_USEBOOK, "false", err));
#ifdef __SANITIZE_THREAD__
	/* ThreadSanitizer runs the search some ten times slower, and its stop
	 * latency with it: a user of such a build raises move-overhead */
	ck_assert(options_set(&o, OPT_OVERHEAD, "15", err));
#endif
	FILE *out = fopen("/dev/null", "w");
	Gtp *g = gtp_new(out, &o, err);
	ck_assert_ptr_nonnull(g);
	double worst = -1, used = 0, given = 0;
	for (int i = 0; i < 4; i++) {
		for (int k = 0; k < 4; k++) {
			if (per_move[i] >= 1 && k > 1)
				break; /* keep the suite short */
			char cmd[256];
			snprintf(cmd, sizeof cmd, "emilia-transcript %s", pos[k]);
			ck_assert(gtp_execute_line(g, "clear_board"));
			ck_assert(gtp_execute_line(g, cmd));
			snprintf(cmd, sizeof cmd, "time_settings 0 %g 1", per_move[i]);
			ck_assert(gtp_execute_line(g, cmd));
			double t0 = util_now();
			ck_assert(gtp_execute_line(g, "genmove black")); /* black is to move in each */
			double el = util_now() - t0;
			if (getenv("CLOCK_DEBUG"))
				fprintf(stderr, "%g %d: %.4f\n", per_move[i], k, el);
			if (el > per_move[i]) {
				/* once more: a neighbour that held both cores for a
				 * moment (CI shares them) is not the engine's fault,
				 * an overrun twice in a row is */
				fprintf(stderr, "clock: %.2f s per move took %.4f s; again\n", per_move[i], el);
				ck_assert(gtp_execute_line(g, "undo"));
				t0 = util_now();
				ck_assert(gtp_execute_line(g, "genmove black"));
				el = util_now() - t0;
			}
			ck_assert_msg(el <= per_move[i], "%.2f s per move: took %.4f s (twice)", per_move[i], el);
			if (el - per_move[i] > worst)
				worst = el - per_move[i];
			used += el;
			given += per_move[i];
		}
	}
	fprintf(stderr, "clock: per-move moves used %.0f %% of their clocks, worst %.2f ms to spare\n",
	        100 * used / given, -worst * 1e3);
	gtp_free(g);
	fclose(out);
}
END_TEST

static Suite *clock_suite(void)
{
	Suite *s = suite_create("clock");
	TCase *tc = tcase_create("model");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, gtp_clock_translation);
	tcase_add_test(tc, nboard_clock_translation);
	tcase_add_test(tc, ugi_clock_translation);
	tcase_add_test(tc, whole_game_allocation);
	tcase_add_test(tc, periods_and_byo_yomi);
	tcase_add_test(tc, per_move_clock_never_exceeded);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(clock_suite)
