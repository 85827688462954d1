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
#include "gamefile.h"
#include "nboard.h"
#include "text.h"
#include "textcheck.h"
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

/* hint N in a book position (the built-in book): the best N book moves,
 * best first, not the first N in square order. */
START_TEST(nboard_hint_order)
{
	session("nboard_hint_order", "--nboard --threads 1 --hash 16");
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
	ck_assert_msg(text_parse_ggf(ggf, VARIANT_NORMAL, &g, tl, inc, err), "%s", err);
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
	ck_assert_msg(text_parse_ggf(implied, VARIANT_NORMAL, &h, tl, inc, err), "%s", err);
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
		ck_assert_msg(!text_parse_ggf(bad[i], VARIANT_NORMAL, &t, tl, inc, err), "accepted %s", bad[i]);
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

/* ---- the terminal game's commands, driven through its command loop ---- */

/* Run `emilia ARGS` with the lines of `input` on stdin; stdout+stderr. */
static char *play_run(const char *args, const char *input)
{
	const char *in = test_tmp_path("play.in");
	test_write_file(in, input, strlen(input));
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "%s < %s", args, in);
	int st;
	char *out = test_run_emilia(cmd, &st);
	ck_assert_msg(st == 0, "status %d: %s", st, out);
	ck_assert_msg(strstr(out, "Bye.") != NULL, "no end: %s", out);
	return out;
}

static void expect(const char *out, const char *want)
{
	ck_assert_msg(strstr(out, want) != NULL, "'%s' not in:\n%s", want, out);
}

/* The final `Hint: SQ (score N ...).` line after `from`; into buf. */
static const char *hint_after(const char *from, char *buf, size_t len)
{
	const char *h = from;
	while ((h = strstr(h, "Hint: ")) != NULL && strncmp(strchr(h, ' ') + 4, "(score", 6) != 0)
		h++;
	ck_assert_msg(h != NULL, "no hint in %s", from);
	size_t n = strcspn(h, "\n");
	ck_assert(n < len);
	memcpy(buf, h, n);
	buf[n] = 0;
	return h + n;
}

/* level and time bare, a hint at full strength at any level, the thinking
 * line, the last-move marker, save and load (GGF and transcript). */
START_TEST(play_new_commands)
{
	char dir[512], input[4096];
	snprintf(dir, sizeof dir, "%s", test_tmpdir());
	snprintf(input, sizeof input,
	         "level\ntime\nlevel easy\nhint\nlevel hard\nhint\nlevel 1\ntime 0.3\ntime\nf5\n"
	         "save %s/g.ggf\nsave %s/g.txt\nundo\nload %s/g.ggf\ntranscript\nload %s/missing.ggf\nsave\n"
	         "load %s/g.txt\nquit\n", dir, dir, dir, dir, dir);
	char *out = play_run("play --color black --no-book --level 1 --threads 1 --hash 16 --thinking", input);
	expect(out, "Black to move> Level 1 (hints are always at full strength).\n");
	expect(out, "Black to move> Emilia's time per move: by level (no limit).\n");
	expect(out, "Black to move> Level easy.\n");
	/* the same hint at Easy as at Hard: Hard's search both times.  The
	 * start position's four moves are equivalent, so the two searches may
	 * pick different ones (the second has a warm table): compare the
	 * scores and check that each move is one of the four. */
	char h1[128], h2[128];
	const char *rest = hint_after(out, h1, sizeof h1);
	hint_after(rest, h2, sizeof h2);
	ck_assert_str_eq(strchr(h1, '('), strchr(h2, '('));
	const char *first[4] = { "Hint: d3 ", "Hint: c4 ", "Hint: f5 ", "Hint: e6 " };
	int ok1 = 0, ok2 = 0;
	for (int k = 0; k < 4; k++) {
		ok1 |= strncmp(h1, first[k], 9) == 0;
		ok2 |= strncmp(h2, first[k], 9) == 0;
	}
	ck_assert_msg(ok1 && ok2, "%s / %s", h1, h2);
	expect(out, "Hint: 0.");      /* the thinking line of the hint ... */
	expect(out, ", depth 16, ");  /* ... which searched to Hard's depth */
	expect(out, "Black to move> Emilia's time per move: 0.3 s.\n");
	expect(out, "Black to move> Emilia thinks: ");
	/* Emilia's reply, marked on the board */
	const char *p = strstr(out, "Emilia (White) plays ");
	ck_assert(p != NULL);
	char reply[3] = { p[21], p[22], 0 };
	char want[1024];
	snprintf(want, sizeof want, "last move %s\n", reply);
	expect(p, want);
	int sq = text_parse_square(reply, 8);
	ck_assert_int_ge(sq, 0);
	const char *row = strstr(p, "\n 1 ");
	for (int r = 0; r < sq / 8; r++)
		row = strchr(row + 1, '\n');
	ck_assert_int_eq(row[1 + 2 + 2 * (sq % 8)], '[');
	ck_assert_int_eq(row[1 + 2 + 2 * (sq % 8) + 1], 'O');
	ck_assert_int_eq(row[1 + 2 + 2 * (sq % 8) + 2], ']');
	/* the files */
	snprintf(want, sizeof want, "Saved 2 moves to %s/g.ggf.\n", dir);
	expect(out, want);
	GameRecord rec;
	char err[GAMEFILE_ERR], path[600];
	snprintf(path, sizeof path, "%s/g.ggf", dir);
	ck_assert_msg(gamefile_load(path, 8, VARIANT_NORMAL, &rec, err), "%s", err);
	ck_assert_int_eq(rec.format, GAMEFILE_GGF);
	ck_assert_int_eq(rec.game.nply, 2);
	ck_assert_int_eq(rec.game.hist[0].move, text_parse_square("f5", 8));
	ck_assert_int_eq(rec.game.hist[1].move, sq);
	ck_assert_str_eq(rec.black, "Player");
	ck_assert_str_eq(rec.white, "Emilia");
	snprintf(path, sizeof path, "%s/g.txt", dir);
	char *txt = transcript_read_file(path);
	snprintf(want, sizeof want, "f5%s\n", reply);
	ck_assert_str_eq(txt, want);
	free(txt);
	expect(out, "Black to move> Move taken back.\n");
	snprintf(want, sizeof want, "Loaded %s/g.ggf: 2 moves.\n", dir);
	expect(out, want);
	snprintf(want, sizeof want, "Transcript: f5%s\n", reply);
	expect(out, want);
	snprintf(want, sizeof want, "Not loaded: %s/missing.ggf: ", dir);
	expect(out, want);
	expect(out, "save needs a file name");
	snprintf(want, sizeof want, "Loaded %s/g.txt: 2 moves.\n", dir);
	expect(out, want);
	free(out);
}
END_TEST

/* --clock 5+3: both clocks beside the board and with a bare `time`, the
 * increment after a move; a clock that runs out loses the game. */
START_TEST(play_clock)
{
	char *out = play_run("play --color both --no-book --clock 5+3", "time\nf5\ntime\nquit\n");
	expect(out, " 4 - - . O X - - - 4   clock Black 5:00  White 5:00\n");
	expect(out, "Black to move> Game clock 5+3: Black 5:00, White 5:00 left.\n");
	expect(out, " 4 - - - O X . - - 4   clock Black 5:03  White 5:00\n");
	expect(out, "White to move> Game clock 5+3: Black 5:03, White 5:00 left.\n");
	free(out);
	/* 1.2 s each: White answers 2 s after its clock started (after its
	 * prompt, so that a slow start of a sanitizer build does not let
	 * White's move wait in the pipe before the clock runs) */
	int st;
	char script[4096];
	const char *fifo = test_tmp_path("play.fifo"), *log = test_tmp_path("play.out");
	snprintf(script, sizeof script,
	         "rm -f '%s'; mkfifo '%s' || exit 1; "
	         "\"${EMILIA_BIN:-./emilia}\" play --color both --no-book --clock 0.02 <'%s' >'%s' 2>&1 & "
	         "exec 3>'%s'; printf 'f5\\n' >&3; "
	         "i=0; until grep -q 'White to move>' '%s' || [ $i -ge 600 ]; do sleep 0.05; i=$((i+1)); done; "
	         "sleep 2; printf 'd6\\nd3\\nquit\\n' >&3; exec 3>&-; wait $!; st=$?; cat '%s'; exit $st",
	         fifo, fifo, fifo, log, fifo, log, log);
	char *bin_out = test_run_shell(script, &st);
	ck_assert_int_eq(st, 0);
	expect(bin_out, "White's time is up: Black wins on time.\n");
	expect(bin_out, "> The game is over. Type 'new' to play again or 'undo' to take back.\n");
	free(bin_out);
}
END_TEST

/* `review` at the end of a game (here a 9-move wipe-out), in text and as
 * an HTML report that parses as XML. */
START_TEST(play_review_at_end)
{
	char input[1024];
	snprintf(input, sizeof input, "d3\nc3\nb3\nd2\ne1\nd6\nd7\ne3\nf4\nreview 1 %s\nreview purple\nquit\n",
	         test_tmp_path("r.html"));
	char *out = play_run("play --color both --no-book --level 3", input);
	expect(out, "Game over. Black 13, White 0 (plain scoring).\n");
	expect(out, "Type 'review' to see every move's loss");
	expect(out, "> Review: Black vs White, 9 moves, Black wins by 64.\n");
	expect(out, "Engine level 1: depth 1, exact from 2 empties");
	expect(out, "\n  9  Black   f4 ");
	expect(out, "\nSummary ");
	expect(out, "HTML report written to ");
	expect(out, "review takes a level");
	/* the last move wins everything: the best one, exactly */
	char *doc = transcript_read_file(test_tmp_path("r.html"));
	ck_assert(doc != NULL);
	char err[160];
	ck_assert_msg(xml_check(doc, NULL, NULL, err), "%s", err);
	free(doc);
	free(out);
}
END_TEST

static Suite *protocols_suite(void)
{
	Suite *s = suite_create("protocols");
	TCase *tc = tcase_create("sessions");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, nboard_session);
	tcase_add_test(tc, nboard_learn_and_book_hints);
	tcase_add_test(tc, nboard_hint_order);
	tcase_add_test(tc, ugi_session);
	tcase_add_test(tc, play_both_session);
	tcase_add_test(tc, play_engine_session);
	tcase_add_test(tc, ggf_clocks_and_passes);
	tcase_add_test(tc, ugi_in_process);
	tcase_add_test(tc, ugi_options_from_registry);
	tcase_add_test(tc, ugi_never_loses_on_time);
	suite_add_tcase(s, tc);
	TCase *tp = tcase_create("play");
	tcase_set_timeout(tp, 120);
	tcase_add_checked_fixture(tp, test_tmpdir_setup, test_tmpdir_teardown);
	tcase_add_test(tp, play_new_commands);
	tcase_add_test(tp, play_clock);
	tcase_add_test(tp, play_review_at_end);
	suite_add_tcase(s, tp);
	return s;
}

TEST_MAIN(protocols_suite)
