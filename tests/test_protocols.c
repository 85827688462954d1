/*
 * test_protocols.c - whole NBoard, UGI and terminal-game sessions fed into
 * the emilia binary; the output is compared exactly with
 * tests/data/proto/NAME.out (wildcards only where a value depends on the
 * clock or on the evaluation weights: see transcript.h).  The positions
 * whose moves and scores are compared exactly are endgames the engine
 * solves at the level used (6 empties), forced passes, or finished games.
 * Also the GGF parser and UGI's never-more-than-two-tokens bestmove.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "nboard.h"
#include "testutil.h"
#include "transcript.h"
#include "ugi.h"
#include "util.h"

static void session(const char *name, const char *args)
{
	char why[1024];
	bool ok = transcript_session(name, args, why, sizeof why);
	ck_assert_msg(ok, "%s: %s", name, why);
}

START_TEST(nboard_session)
{
	session("nboard_session", "--nboard --no-book --threads 1 --hash 16");
}
END_TEST

/* `learn` into a new book file (--book), then `hint` answers from the
 * book: `book` lines with the pv along the learned game, the game's final
 * value as proven ("100%"), and no search lines. */
START_TEST(nboard_learn_and_book_hints)
{
	char path[128], args[256];
	snprintf(path, sizeof path, "/tmp/emilia-nboard-book-%ld.book", (long)getpid());
	remove(path);
	snprintf(args, sizeof args, "--nboard --threads 1 --hash 16 --book %s", path);
	session("nboard_book", args);
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "learn did not write %s", path);
	fclose(f);
	remove(path);
}
END_TEST

START_TEST(ugi_session)
{
	session("ugi_session", "--ugi --no-book --hash 16");
}
END_TEST

START_TEST(play_both_session)
{
	session("play_both", "play --color both --no-book --level 1");
}
END_TEST

START_TEST(play_engine_session)
{
	session("play_engine", "play --color white --no-book --level 2 --time 0.5");
}
END_TEST

START_TEST(ggf_clocks_and_passes)
{
	Game g;
	double tl[2], inc[2];
	char err[160];
	const char *ggf = "(;GM[Othello]PC[x]TB[10:00/5]TW[1:02:03]TY[8]BO[8 "
	                  "---------------------------O*------*O--------------------------- *]"
	                  "B[f5/0/3]W[f6]B[c4]W[g5]B[h5]W[h4]B[f7]W[h6/1/20.5]B[PA]W[E7//2];)";
	ck_assert_msg(nboard_parse_ggf(ggf, VARIANT_NORMAL, &g, tl, inc, err), "%s", err);
	ck_assert_int_eq(g.nply, 10);
	ck_assert_int_eq(g.hist[8].move, BOARD_PASS);
	ck_assert_int_eq(g.side, BLACK);
	/* black: 600 s + 5 plies (the pass too) x 5 s - 3 s; white: 3723 s - 22.5 s */
	ck_assert(tl[BLACK] > 621.99 && tl[BLACK] < 622.01);
	ck_assert(tl[WHITE] > 3700.49 && tl[WHITE] < 3700.51);
	ck_assert(inc[BLACK] > 4.99 && inc[BLACK] < 5.01);
	/* the same game without the PA: the pass is implied */
	const char *implied = "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]"
	                      "B[f5]W[f6]B[c4]W[g5]B[h5]W[h4]B[f7]W[h6]W[e7];)";
	Game h;
	ck_assert_msg(nboard_parse_ggf(implied, VARIANT_NORMAL, &h, tl, inc, err), "%s", err);
	ck_assert(h.board.p == g.board.p && h.board.o == g.board.o && h.side == g.side);
	ck_assert(tl[0] == -1 && tl[1] == -1);
	/* broken ones: nothing written, a message */
	static const char *const bad[] = {
		"", "(;GM[Othello]", "(;GM[Othello]BO[8 ---- *];)",
		("(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]B[f4];)"),
		"(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]TI[abc];)",
		"(;GM[Othello]B[f5];)", "(;BO[8 ---------------------------O*------*O--------------------------- *]B[zz];)",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		Game t = g;
		err[0] = 0;
		ck_assert_msg(!nboard_parse_ggf(bad[i], VARIANT_NORMAL, &t, tl, inc, err), "accepted %s", bad[i]);
		ck_assert(err[0]);
		ck_assert(t.nply == g.nply && t.board.p == g.board.p);
	}
}
END_TEST

/* A pipelined UGI session in process: replies in order, bestmove lines of
 * exactly two tokens even for passes and finished games. */
START_TEST(ugi_in_process)
{
	Options o;
	options_init(&o);
	char err[OPTIONS_ERR];
	ck_assert(options_set(&o, OPT_USEBOOK, "false", err));
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	Ugi *u = ugi_new(out, &o, err);
	ck_assert_ptr_nonnull(u);
	ck_assert(ugi_execute_line(u, "position startpos moves f5 f6 c4 g5 h5 h4 f7 h6"));
	ck_assert(ugi_execute_line(u, "go nodes 100"));
	ck_assert(ugi_execute_line(u, "position startpos moves e6 f4 e3 f6 g5 d6 e7 f5 c5"));
	ck_assert(ugi_execute_line(u, "go depth 1"));
	ck_assert(ugi_execute_line(u, "query result"));
	ck_assert(!ugi_execute_line(u, "quit"));
	ugi_wait(u);
	fflush(out);
	ck_assert_str_eq(buf, "bestmove pass\nbestmove 0000\nresponse p1win\n");
	ugi_free(u);
	fclose(out);
	free(buf);
}
END_TEST

/* The `ugi` reply lists every registered option once, with its type and
 * default, between the id lines and ugiok. */
START_TEST(ugi_options_from_registry)
{
	Options o;
	options_init(&o);
	char err[OPTIONS_ERR];
	ck_assert(options_set(&o, OPT_USEBOOK, "false", err));
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	Ugi *u = ugi_new(out, &o, err);
	ck_assert(ugi_execute_line(u, "ugi"));
	fflush(out);
	ck_assert(strncmp(buf, "id name Emilia\nid author ", 25) == 0);
	ck_assert(strstr(buf, "\nugiok\n") != NULL);
	int lines = 0;
	for (const char *p = buf; (p = strstr(p, "option name ")); p++)
		lines++;
	ck_assert_int_eq(lines, OPT_COUNT);
	for (int i = 0; i < OPT_COUNT; i++) {
		char want[128];
		snprintf(want, sizeof want, "option name %s type ", options_def((OptionId)i)->name);
		ck_assert_msg(strstr(buf, want) != NULL, "no line for %s", want);
	}
	ugi_free(u);
	fclose(out);
	free(buf);
}
END_TEST

/* The runner's clock is never overrun: with 400 ms left for White and no
 * increment, at level hard, bestmove comes back before the clock would
 * fall (the watchdog stops the search at half the time left). */
START_TEST(ugi_never_loses_on_time)
{
	Options o;
	options_init(&o);
	char err[OPTIONS_ERR];
	ck_assert(options_set(&o, OPT_USEBOOK, "false", err));
	ck_assert(options_set(&o, OPT_LEVEL, "hard", err));
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	Ugi *u = ugi_new(out, &o, err);
	ck_assert(ugi_execute_line(u, "position startpos moves f5 d6 c3"));
	for (int i = 0; i < 3; i++) {
		double t0 = util_now();
		ck_assert(ugi_execute_line(u, "go p1time 400 p2time 400 p1inc 0 p2inc 0"));
		ugi_wait(u);
		double dt = util_now() - t0;
		ck_assert_msg(dt < 0.4, "took %.3f s of a 0.4 s clock", dt);
	}
	fflush(out);
	ck_assert(strstr(buf, "bestmove ") != NULL);
	ugi_free(u);
	fclose(out);
	free(buf);
}
END_TEST

static Suite *protocols_suite(void)
{
	Suite *s = suite_create("protocols");
	TCase *tc = tcase_create("sessions");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, nboard_session);
	tcase_add_test(tc, nboard_learn_and_book_hints);
	tcase_add_test(tc, ugi_session);
	tcase_add_test(tc, play_both_session);
	tcase_add_test(tc, play_engine_session);
	tcase_add_test(tc, ggf_clocks_and_passes);
	tcase_add_test(tc, ugi_in_process);
	tcase_add_test(tc, ugi_options_from_registry);
	tcase_add_test(tc, ugi_never_loses_on_time);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(protocols_suite)
