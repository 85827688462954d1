/* The match runner: statistics against hand-computed values, command-line
 * pieces, games between scripted fake engines (tests/fake/gtp-script.sh)
 * with every kind of forfeit, the emilia-match tool end to end, and short
 * real matches against gtp-rhino and between two ./emilia processes. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "elo.h"
#include "match.h"
#include "text.h"
#include "util.h"

#define RHINO "/usr/games/gtp-rhino"

/* The scripted game (tests/data/match-game.txt, Logistello self-play game
 * from logbook.gam: "+37" raw discs) : 59 moves and two White passes (after
 * h5 and after h7); 63 discs, one empty square, Black wins 50-13 as the
 * discs stand, 51-13 with the empty given to the winner. */
#define GAME_PLIES 61
#define GAME_PLAIN 37
#define GAME_OFFICIAL 38

static char script_path[400], game_path[400], opening_path[400];

static void paths(void)
{
	snprintf(script_path, sizeof script_path, "%s/../fake/gtp-script.sh", test_data(""));
	snprintf(game_path, sizeof game_path, "%s", test_data("match-game.txt"));
	snprintf(opening_path, sizeof opening_path, "%s", test_data("match-opening.txt"));
}

static MatchEngineSpec fake(const char *name, const char *args)
{
	MatchEngineSpec s;
	memset(&s, 0, sizeof s);
	paths();
	snprintf(s.name, sizeof s.name, "%s", name);
	snprintf(s.cmd, sizeof s.cmd, "%s %s %s", script_path, game_path, args);
	return s;
}

static const char *tool(void)
{
	static char buf[400];
	const char *d = getenv("EMILIA_TOOLS");
	snprintf(buf, sizeof buf, "%s/emilia-match", d ? d : ".");
	return buf;
}

/* Run a shell command; stdout into out (NUL-terminated); returns the exit
 * status (or -1). */
static int run(const char *cmd, char *out, size_t n)
{
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	size_t len = fread(out, 1, n - 1, p);
	out[len] = '\0';
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int n = 0, c;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static const MatchGameConfig default_cfg = {
	.tc = { 5, 0, 0 }, .grace = 0.1, .command_timeout = 5, .scoring = SCORING_OFFICIAL
};

static Game opening_game(void)
{
	Game g;
	char err[TEXT_ERR];
	game_init(&g, 8, VARIANT_NORMAL);
	ck_assert(text_apply_transcript(&g, "d3c3c4e3d2b4b3c5", err));
	return g;
}

/* ---- statistics -------------------------------------------------------- */

START_TEST(elo_trinomial_hand_computed)
{
	/* 6 wins, 2 draws, 2 losses: s = (6 + 1) / 10 = 0.7;
	 * var = (6 (1-.7)^2 + 2 (.5-.7)^2 + 2 (0-.7)^2) / 10
	 *     = (0.54 + 0.08 + 0.98) / 10 = 0.16;
	 * half width = 1.959964 * sqrt(0.16 / 10) = 1.959964 * 0.126491 = 0.247918;
	 * elo(0.7) = -400 log10(1/0.7 - 1) = 400 log10(7/3) = 147.1907;
	 * elo(0.452082) = -400 log10(0.547918 / 0.452082) = -33.3994;
	 * elo(0.947918) = 400 log10(0.947918 / 0.052082) = 504.0333. */
	EloEstimate e;
	ck_assert(elo_trinomial(6, 2, 2, &e));
	ck_assert_double_eq_tol(e.n, 10, 1e-12);
	ck_assert_double_eq_tol(e.score, 0.7, 1e-12);
	ck_assert_double_eq_tol(e.var, 0.16, 1e-12);
	ck_assert_double_eq_tol(e.elo, 147.1907, 1e-3);
	ck_assert_double_eq_tol(e.lo, -33.3994, 1e-3);
	ck_assert_double_eq_tol(e.hi, 504.0333, 1e-3);
	/* Even score: exactly 0 Elo, symmetric interval. */
	ck_assert(elo_trinomial(3, 4, 3, &e));
	ck_assert_double_eq_tol(e.elo, 0, 1e-12);
	ck_assert_double_eq_tol(e.lo, -e.hi, 1e-9);
	/* All wins: +inf; no games: false. */
	ck_assert(elo_trinomial(5, 0, 0, &e));
	ck_assert(isinf(e.elo) && e.elo > 0);
	ck_assert(!elo_trinomial(0, 0, 0, &e));
}
END_TEST

START_TEST(elo_pentanomial_hand_computed)
{
	/* Pairs scoring 0, 1/2, 1, 3/2, 2 points: 1, 2, 5, 8, 4 (N = 20).
	 * Per-game scores 0, .25, .5, .75, 1: mean = (0 + .5 + 2.5 + 6 + 4) / 20
	 * = 0.65; var = (1 (.65)^2 + 2 (.4)^2 + 5 (.15)^2 + 8 (.1)^2 + 4 (.35)^2) / 20
	 * = (0.4225 + 0.32 + 0.1125 + 0.08 + 0.49) / 20 = 0.07125;
	 * half width = 1.959964 * sqrt(0.07125 / 20) = 0.116984;
	 * elo(0.65) = 400 log10(0.65 / 0.35) = 107.5381;
	 * elo(0.533016) = 22.9755; elo(0.766984) = 206.9600. */
	const int c[5] = { 1, 2, 5, 8, 4 };
	EloEstimate e;
	ck_assert(elo_pentanomial(c, &e));
	ck_assert_double_eq_tol(e.n, 20, 1e-12);
	ck_assert_double_eq_tol(e.score, 0.65, 1e-12);
	ck_assert_double_eq_tol(e.var, 0.07125, 1e-12);
	ck_assert_double_eq_tol(e.elo, 107.5381, 1e-3);
	ck_assert_double_eq_tol(e.lo, 22.9755, 1e-3);
	ck_assert_double_eq_tol(e.hi, 206.9600, 1e-3);
	const int z[5] = { 0, 0, 0, 0, 0 };
	ck_assert(!elo_pentanomial(z, &e));
	/* The logistic model both ways. */
	ck_assert_double_eq_tol(elo_score_of(0), 0.5, 1e-15);
	ck_assert_double_eq_tol(elo_score_of(400), 10.0 / 11.0, 1e-12);
	ck_assert_double_eq_tol(elo_of_score(10.0 / 11.0), 400, 1e-9);
}
END_TEST

START_TEST(sprt_hand_computed)
{
	/* elo0 = 0, elo1 = 10, alpha = beta = 0.05:
	 * bounds ln(0.05 / 0.95) = -2.944439, ln(0.95 / 0.05) = +2.944439;
	 * s0 = 0.5, s1 = 1 / (1 + 10^(-10/400)) = 0.5143872. */
	const EloSprt t = { 0, 10, 0.05, 0.05 };
	char err[120];
	ck_assert(elo_sprt_valid(&t, err));
	double lo, hi;
	elo_sprt_bounds(&t, &lo, &hi);
	ck_assert_double_eq_tol(lo, -2.944439, 1e-6);
	ck_assert_double_eq_tol(hi, 2.944439, 1e-6);
	/* Pentanomial counts 1 2 5 8 4 (mean 0.65, var 0.07125 above):
	 * LLR = 20 (s1 - s0) (2 * 0.65 - s0 - s1) / (2 * 0.07125)
	 *     = 20 * 0.0143872 * 0.2856128 / 0.1425 = 0.576725. */
	const int c[5] = { 1, 2, 5, 8, 4 };
	double v = elo_sprt_llr_pentanomial(&t, c);
	ck_assert_double_eq_tol(v, 0.576725, 1e-5);
	ck_assert_int_eq(elo_sprt_verdict(&t, v, 20), ELO_SPRT_CONTINUE);
	/* Trinomial 6-2-2 (s 0.7, var 0.16): LLR = 10 * 0.0143872 *
	 * (1.4 - 1.0143872) / 0.32 = 0.173371. */
	ck_assert_double_eq_tol(elo_sprt_llr_trinomial(&t, 6, 2, 2), 0.173371, 1e-5);
	/* One pair won 2-0, zero counts regularized to 1e-3 (N = 1.004):
	 * mean = 0.997759..., var = 0.001425..., LLR = 3.805070: past the upper
	 * bound; two such pairs: 15.172897. */
	const int one[5] = { 0, 0, 0, 0, 1 }, two[5] = { 0, 0, 0, 0, 2 };
	ck_assert_double_eq_tol(elo_sprt_llr_pentanomial(&t, one), 3.805070, 1e-5);
	ck_assert_double_eq_tol(elo_sprt_llr_pentanomial(&t, two), 15.172897, 1e-5);
	/* ... which decides nothing before ELO_SPRT_MIN_SAMPLES samples */
	ck_assert_int_eq(elo_sprt_verdict(&t, 3.805070, 1), ELO_SPRT_CONTINUE);
	ck_assert_int_eq(elo_sprt_verdict(&t, 15.172897, 2), ELO_SPRT_CONTINUE);
	ck_assert_int_eq(elo_sprt_verdict(&t, -3.0, ELO_SPRT_MIN_SAMPLES - 1), ELO_SPRT_CONTINUE);
	ck_assert_int_eq(elo_sprt_verdict(&t, 3.805070, ELO_SPRT_MIN_SAMPLES), ELO_SPRT_H1);
	ck_assert_int_eq(elo_sprt_verdict(&t, -3.0, ELO_SPRT_MIN_SAMPLES), ELO_SPRT_H0);
	/* Symmetry: the mirrored counts give the LLR of the mirrored test. */
	const EloSprt m = { -10, 0, 0.05, 0.05 };
	const int cm[5] = { 4, 8, 5, 2, 1 };
	ck_assert_double_eq_tol(elo_sprt_llr_pentanomial(&m, cm), -0.576725, 1e-5);
	/* Bad parameters. */
	const EloSprt bad1 = { 10, 0, 0.05, 0.05 }, bad2 = { 0, 10, 0.6, 0.5 };
	ck_assert(!elo_sprt_valid(&bad1, err));
	ck_assert(!elo_sprt_valid(&bad2, err));
}
END_TEST

/* ---- command-line pieces ----------------------------------------------- */

START_TEST(engine_words_parse)
{
	MatchEngineSpec s;
	char err[MATCH_ERR];
	char *w1[] = { "name=rhino3", "cmd=/usr/games/gtp-rhino -l 3", "--engine" };
	ck_assert_int_eq(match_parse_engine_words(3, w1, &s, err), 2);
	ck_assert_str_eq(s.name, "rhino3");
	ck_assert_str_eq(s.cmd, "/usr/games/gtp-rhino -l 3");
	/* Everything in one argument, with sh quoting. */
	char *w2[] = { "name=e1 cmd=\"./emilia --level 'easy'\" init='emilia-threads 1;komi 0'" };
	ck_assert_int_eq(match_parse_engine_words(1, w2, &s, err), 1);
	ck_assert_str_eq(s.name, "e1");
	/* single quotes inside double quotes stay (sh -c removes them later) */
	ck_assert_str_eq(s.cmd, "./emilia --level 'easy'");
	ck_assert_str_eq(s.init, "emilia-threads 1;komi 0");
	/* Quotes that reached us literally around a whole value are dropped. */
	char *w3[] = { "cmd=\"x -l 1\"", "name=b" };
	ck_assert_int_eq(match_parse_engine_words(2, w3, &s, err), 2);
	ck_assert_str_eq(s.cmd, "x -l 1");
	/* Errors: missing cmd, bad name, unknown key, unbalanced quote. */
	char *e1[] = { "name=a", "-l", "3" };
	ck_assert_int_eq(match_parse_engine_words(3, e1, &s, err), 0);
	ck_assert_ptr_nonnull(strstr(err, "stopped at '-l'"));
	char *e2[] = { "name=a b]", "cmd=x" };
	ck_assert_int_eq(match_parse_engine_words(2, e2, &s, err), 0);
	char *e3[] = { "name=a", "cmd=x", "colour=red" };
	ck_assert_int_eq(match_parse_engine_words(3, e3, &s, err), 0);
	ck_assert_ptr_nonnull(strstr(err, "unknown engine key 'colour'"));
	char *e4[] = { "name=a cmd=\"x -l 1" };
	ck_assert_int_eq(match_parse_engine_words(1, e4, &s, err), 0);
	ck_assert_ptr_nonnull(strstr(err, "unbalanced"));
	char *e5[] = { "name=a", "cmd=  " };
	ck_assert_int_eq(match_parse_engine_words(2, e5, &s, err), 0);
}
END_TEST

START_TEST(time_controls_parse)
{
	MatchTimeControl tc;
	char buf[64];
	ck_assert(match_parse_tc("0.1", &tc));
	ck_assert_double_eq(tc.move_time, 0.1);
	match_tc_ggf(&tc, buf, sizeof buf);
	ck_assert_str_eq(buf, "00:00/00:00.1");
	ck_assert(match_parse_tc("5+2", &tc));
	ck_assert_double_eq(tc.move_time, 0);
	ck_assert_double_eq(tc.clock, 300);
	ck_assert_double_eq(tc.increment, 2);
	match_tc_ggf(&tc, buf, sizeof buf);
	ck_assert_str_eq(buf, "05:00/00:02");
	ck_assert(match_parse_tc("0.5+0.25", &tc));
	ck_assert_double_eq(tc.clock, 30);
	match_tc_ggf(&tc, buf, sizeof buf);
	ck_assert_str_eq(buf, "00:30/00:00.25");
	ck_assert(match_parse_tc("none", &tc));
	ck_assert(tc.none);
	match_tc_ggf(&tc, buf, sizeof buf);
	ck_assert_str_eq(buf, "-");
	const char *bad[] = { "", "0", "-1", "1e3", "inf", "nan", "1+", "+1", "0+0", "1+2+3", "a", "1..2", " 1",
	                      "None", "none+1" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(!match_parse_tc(bad[i], &tc), "accepted '%s'", bad[i]);
}
END_TEST

/* ---- games between scripted engines ------------------------------------ */

START_TEST(scripted_game_plays_out_with_both_pass_conventions)
{
	match_ignore_sigpipe();
	MatchEngineSpec sa = fake("explicit", "good 1 explicit"), sb = fake("implicit", "good 1 implicit");
	MatchEngine a, b;
	match_engine_init(&a, &sa, NULL, NULL);
	match_engine_init(&b, &sb, NULL, NULL);
	Game op = opening_game();
	MatchGameResult *r = malloc(sizeof *r);
	for (int round = 0; round < 2; round++) {
		MatchEngine *bl = round ? &b : &a, *wh = round ? &a : &b;
		ck_assert(match_play_game(bl, wh, &op, &default_cfg, r));
		ck_assert_int_eq(r->end, MATCH_END_BOARD);
		ck_assert_int_eq(r->game.nply, GAME_PLIES);
		ck_assert_int_eq(r->opening_plies, 8);
		ck_assert_int_eq(r->margin, GAME_OFFICIAL);
		ck_assert_int_eq(r->winner, BLACK);
		ck_assert_int_eq(r->loser, -1);
		ck_assert_int_eq(game_margin(&r->game, SCORING_PLAIN), GAME_PLAIN);
		ck_assert_str_eq(r->reason, "");
		/* the two passes are White's, made by the referee */
		int passes = 0;
		for (int i = 0; i < r->game.nply; i++)
			if (r->game.hist[i].move == BOARD_PASS) {
				passes++;
				ck_assert_int_eq(r->game.hist[i].side, WHITE);
				ck_assert_double_eq(r->ply_secs[i], 0);
			}
		ck_assert_int_eq(passes, 2);
		char t[200];
		text_transcript(&r->game, t);
		FILE *f = fopen(game_path, "r");
		char want[200];
		ck_assert(fgets(want, sizeof want, f));
		fclose(f);
		want[strcspn(want, "\n")] = '\0';
		ck_assert_str_eq(t, want);
		match_engine_stop(&a, 1);
		match_engine_stop(&b, 1);
		ck_assert_int_eq(a.pid, 0);
	}
	/* the probe found each program's pass convention */
	ck_assert(a.probed && a.explicit_pass);
	ck_assert(b.probed && !b.explicit_pass);
	/* plain scoring */
	MatchGameConfig plain = default_cfg;
	plain.scoring = SCORING_PLAIN;
	ck_assert(match_play_game(&a, &b, &op, &plain, r));
	ck_assert_int_eq(r->margin, GAME_PLAIN);
	/* the GGF record of it */
	char ggf[4096];
	match_ggf(r, "explicit", "implicit", "2026.01.02_03:04:05.UTC", ggf, sizeof ggf);
	ck_assert_msg(!strncmp(ggf, "(;GM[Othello]PC[emilia-match]DT[2026.01.02_03:04:05.UTC]PB[explicit]"
	                            "PW[implicit]RE[+37.000]TI[00:00/00:05]TY[8]BO[8 -------------------"
	                            "--------O*------*O--------------------------- *]B[D3]W[C3]B[C4]W[E3]"
	                            "B[D2]W[B4]B[B3]W[C5]B[A5//", 214), "%s", ggf);
	ck_assert_ptr_nonnull(strstr(ggf, "B[H5//"));
	ck_assert_ptr_nonnull(strstr(ggf, "W[PA]B[H8//"));
	ck_assert_ptr_nonnull(strstr(ggf, "W[PA]B[B2//"));
	ck_assert_str_eq(ggf + strlen(ggf) - 2, ";)");
	match_engine_stop(&a, 1);
	match_engine_stop(&b, 1);
	free(r);
}
END_TEST

START_TEST(clocks_and_time_commands)
{
	match_ignore_sigpipe();
	MatchEngineSpec sa = fake("a", "good"), sb = fake("b", "slow 3 implicit");
	MatchLog log;
	pthread_mutex_init(&log.mu, NULL);
	log.f = tmpfile();
	ck_assert_ptr_nonnull(log.f);
	MatchEngine a, b;
	match_engine_init(&a, &sa, &log, NULL);
	match_engine_init(&b, &sb, &log, NULL);
	Game op = opening_game();
	MatchGameResult *r = malloc(sizeof *r);
	/* A game clock of 0.05 min = 3 s plus 0.1 s a move.  b's third answer
	 * takes 2 s: within its clock, so the game is played out. */
	MatchGameConfig cfg = default_cfg;
	ck_assert(match_parse_tc("0.05+0.1", &cfg.tc));
	ck_assert(match_play_game(&a, &b, &op, &cfg, r));
	ck_assert_int_eq(r->end, MATCH_END_BOARD);
	ck_assert_int_eq(r->margin, GAME_OFFICIAL);
	/* Each clock is 3 s, minus each move's time (floored at 0), plus 0.1 s
	 * after each move: recomputed here from the recorded move times. */
	double left[2] = { 3, 3 };
	int moves[2] = { 0, 0 };
	for (int i = r->opening_plies; i < r->game.nply; i++) {
		const GamePly *h = &r->game.hist[i];
		if (h->move == BOARD_PASS)
			continue;
		double l = left[h->side] - r->ply_secs[i];
		left[h->side] = (l > 0 ? l : 0) + 0.1;
		moves[h->side]++;
	}
	/* 61 plies alternate, White's two passes included: Black 31, White 30
	 * (28 moves); minus the 4 + 4 plies of the opening */
	ck_assert_int_eq(moves[BLACK], 27);
	ck_assert_int_eq(moves[WHITE], 24);
	ck_assert_double_eq_tol(r->clock_left[BLACK], left[BLACK], 1e-9);
	ck_assert_double_eq_tol(r->clock_left[WHITE], left[WHITE], 1e-9);
	ck_assert(r->ply_secs[13] >= 2.0); /* b (White)'s third genmove: ply 14 */
	ck_assert(r->clock_left[WHITE] < 3 + 24 * 0.1 - 2.0 + 1e-9);
	/* The GTP traffic: the clock in time_settings, time_left before each
	 * genmove (3 s at Black's first move: "time_left black 3 0"). */
	fflush(log.f);
	rewind(log.f);
	char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf - 1, log.f);
	buf[n] = '\0';
	ck_assert_ptr_nonnull(strstr(buf, "a << time_settings 3 0 0\n"));
	ck_assert_ptr_nonnull(strstr(buf, "b << time_settings 3 0 0\n"));
	const char *tl = strstr(buf, "[game 0] a << time_left black 3 0\n");
	ck_assert_ptr_nonnull(tl);
	const char *gm = strstr(tl, "[game 0] a << ");
	gm = gm ? strstr(gm + 1, "[game 0] a << ") : NULL; /* the command after it */
	ck_assert_ptr_nonnull(gm);
	ck_assert(!strncmp(gm, "[game 0] a << genmove black\n", 28));
	ck_assert_ptr_nonnull(strstr(buf, "b -- passes are implicit"));
	ck_assert_ptr_nonnull(strstr(buf, "a << play white pass"));
	ck_assert_ptr_null(strstr(buf, "b << play white pass"));
	match_engine_stop(&a, 1);
	match_engine_stop(&b, 1);
	fclose(log.f);

	/* The same slow answer against a 1 s clock (+ 0.1 s grace) loses. */
	ck_assert(match_parse_tc("0.0166+0", &cfg.tc)); /* 0.996 s */
	match_engine_init(&a, &sa, NULL, NULL);
	match_engine_init(&b, &sb, NULL, NULL);
	ck_assert(match_play_game(&a, &b, &op, &cfg, r));
	ck_assert_int_eq(r->end, MATCH_END_TIME);
	ck_assert_int_eq(r->loser, WHITE);
	ck_assert_int_eq(r->game.nply, 13);
	ck_assert_ptr_nonnull(strstr(r->reason, "b (white) lost on time: no move within"));
	match_engine_stop(&a, 1);
	match_engine_stop(&b, 1);

	/* Per-engine clocks: b has none (tc=none): no time commands, only the
	 * hang limit (command_timeout 5 s), so its 2 s answer under a 0.4 s
	 * per-move match clock is fine; the GGF gives each side's clock. */
	char err[MATCH_ERR];
	char *words[] = { "name=b", sb.cmd, "tc=none" };
	char cmdw[MATCH_CMD_MAX + 8];
	snprintf(cmdw, sizeof cmdw, "cmd=%s", sb.cmd);
	words[1] = cmdw;
	MatchEngineSpec sn;
	ck_assert_int_eq(match_parse_engine_words(3, words, &sn, err), 3);
	ck_assert(sn.has_tc && sn.tc.none);
	cfg = default_cfg;
	cfg.tc.move_time = 0.4;
	match_engine_init(&a, &sa, NULL, NULL);
	match_engine_init(&b, &sn, NULL, NULL);
	ck_assert(match_play_game(&a, &b, &op, &cfg, r));
	ck_assert_int_eq(r->end, MATCH_END_BOARD);
	ck_assert(r->tc[WHITE].none && !r->tc[BLACK].none);
	char ggf[4096];
	match_ggf(r, "a", "b", "2026.01.02_03:04:05.UTC", ggf, sizeof ggf);
	ck_assert_msg(strstr(ggf, "RE[+38.000]TB[00:00/00:00.4]TW[-]TY[8]"), "%s", ggf);
	match_engine_stop(&a, 1);
	match_engine_stop(&b, 1);
	free(r);
}
END_TEST

typedef struct ForfeitCase {
	const char *args;       /* fake's mode */
	int colour;             /* the fake's colour */
	MatchEnd end;
	int plies;              /* plies on the board when it forfeited */
	const char *reason;     /* expected text in the message */
} ForfeitCase;

/* The fake misbehaves at its Nth genmove: as Black its genmoves are plies
 * 9, 11, 13... (after the 8-ply opening), as White plies 10, 12, 14... */
static const ForfeitCase forfeit_cases[] = {
	{ "illegal 3", BLACK, MATCH_END_ILLEGAL, 12,
	  "bad (black) played illegal move 'D4' (legal: " },
	{ "pass 2", WHITE, MATCH_END_ILLEGAL, 11, "bad (white) played illegal move 'PASS'" },
	{ "exit 5", WHITE, MATCH_END_CRASH, 17, "bad (white) exited during 'genmove white' (exit status 3)" },
	{ "hang 1", BLACK, MATCH_END_TIME, 8, "bad (black) lost on time: no move within 0.500 s" },
	{ "slow 2", WHITE, MATCH_END_TIME, 11, "lost on time" },
	{ "junk 2", BLACK, MATCH_END_JUNK, 10,
	  "bad (black) printed junk in reply to 'genmove black': 'thinking very hard about black'" },
	{ "binary 1", WHITE, MATCH_END_JUNK, 9, "printed junk in reply to 'genmove white': '\\x01\\x02\\xffgarbage'" },
	{ "long 1", BLACK, MATCH_END_JUNK, 8, "printed junk in reply to 'genmove black': '=0000" },
	{ "refuse 1", WHITE, MATCH_END_JUNK, 9, "bad (white) refused 'genmove white': 'cannot think'" },
	{ "deadstart", BLACK, MATCH_END_CRASH, 8, "bad (black) exited during 'protocol_version' (exit status 1)" },
	{ "resign 4", WHITE, MATCH_END_RESIGN, 15, "bad (white) resigned" },
};

START_TEST(fake_engines_forfeit)
{
	match_ignore_sigpipe();
	const ForfeitCase *fc = &forfeit_cases[_i];
	MatchEngineSpec sg = fake("good", "good"), sbad = fake("bad", fc->args);
	MatchEngine good, bad;
	match_engine_init(&good, &sg, NULL, NULL);
	match_engine_init(&bad, &sbad, NULL, NULL);
	MatchGameConfig cfg = default_cfg;
	cfg.tc.move_time = 0.4;
	Game op = opening_game();
	MatchGameResult *r = malloc(sizeof *r);
	double t0 = util_now();
	ck_assert(match_play_game(fc->colour == BLACK ? &bad : &good, fc->colour == BLACK ? &good : &bad,
	                          &op, &cfg, r));
	double took = util_now() - t0;
	ck_assert_msg(r->end == fc->end, "%s: end %s", fc->args, match_end_name(r->end));
	ck_assert_int_eq(r->loser, fc->colour);
	ck_assert_int_eq(r->winner, !fc->colour);
	ck_assert_int_eq(r->margin, fc->colour == BLACK ? -64 : 64);
	ck_assert_int_eq(r->game.nply, fc->plies);
	ck_assert_msg(strstr(r->reason, fc->reason), "%s: reason '%s'", fc->args, r->reason);
	/* a hung engine costs its clock, not more */
	ck_assert_msg(took < 5, "took %.2f s", took);
	ck_assert(bad.failed || fc->end == MATCH_END_RESIGN);
	/* The tournament goes on with the same MatchEngine objects: the
	 * forfeiting engine is restarted and misbehaves at the same point again
	 * (it is scripted), and the healthy one, left mid-game, gets clear_board
	 * and plays a whole game against a fresh partner. */
	ck_assert(match_play_game(fc->colour == BLACK ? &bad : &good, fc->colour == BLACK ? &good : &bad,
	                          &op, &cfg, r));
	ck_assert_int_eq(r->end, fc->end);
	ck_assert_int_eq(r->game.nply, fc->plies);
	MatchEngineSpec st = fake("twin", "good 1 implicit");
	MatchEngine twin;
	match_engine_init(&twin, &st, NULL, NULL);
	ck_assert(match_play_game(&twin, &good, &op, &default_cfg, r));
	ck_assert_int_eq(r->end, MATCH_END_BOARD);
	ck_assert_int_eq(r->margin, GAME_OFFICIAL);
	ck_assert_int_eq(r->game.nply, GAME_PLIES);
	match_engine_stop(&twin, 1);
	match_engine_stop(&good, 1);
	match_engine_stop(&bad, 1);
	ck_assert_int_eq(bad.pid, 0);
	free(r);
}
END_TEST

/* ---- the tool end to end ----------------------------------------------- */

START_TEST(tool_gauntlet_with_misbehaving_engines)
{
	paths();
	char out[4096], cmd[16384], ggf[256], logp[256], line[8192];
	snprintf(ggf, sizeof ggf, "/tmp/emilia-test-match-%d.ggf", (int)getpid());
	snprintf(logp, sizeof logp, "/tmp/emilia-test-match-%d.log", (int)getpid());
	unlink(ggf);
	unlink(logp);
	snprintf(cmd, sizeof cmd,
	         "%s --engine name=good cmd='%s %s' "
	         "--engine 'name=illegal cmd=\"%s %s illegal 2\"' "
	         "--engine name=exits cmd='%s %s exit 4 implicit' "
	         "--engine name=hangs cmd='%s %s hang 3' "
	         "--engine name=junk cmd='%s %s junk 1' "
	         "--engine name=twin cmd='%s %s good 1 implicit' "
	         "--openings %s --games 4 --tc 0.3 --grace 0.1 --concurrency 2 --quiet --out %s --log %s "
	         "2>/dev/null",
	         tool(), script_path, game_path, script_path, game_path, script_path, game_path,
	         script_path, game_path, script_path, game_path, script_path, game_path, opening_path, ggf,
	         logp);
	ck_assert_int_eq(run(cmd, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "good vs illegal: 4 games, +4 =0 -0"), "%s", out);
	ck_assert_msg(strstr(out, "good vs exits: 4 games, +4 =0 -0"), "%s", out);
	ck_assert_msg(strstr(out, "good vs hangs: 4 games, +4 =0 -0"), "%s", out);
	ck_assert_msg(strstr(out, "good vs junk: 4 games, +4 =0 -0"), "%s", out);
	/* the scripted twin replays the same game: Black wins by 38 each time */
	ck_assert_msg(strstr(out, "good vs twin: 4 games, +2 =0 -2"), "%s", out);
	ck_assert_msg(strstr(out, "mean disc difference +0.00 over 4 games ended on the board (official"), "%s", out);
	ck_assert_msg(strstr(out, "pentanomial (pairs where good scored 0, 1/2, 1, 3/2, 2): 0 0 0 0 2"), "%s", out);
	ck_assert_msg(strstr(out, "pentanomial (pairs where good scored 0, 1/2, 1, 3/2, 2): 0 0 2 0 0"), "%s", out);
	ck_assert_msg(strstr(out, "forfeits: illegal 4 (illegal move 4) exits 4 (crash 4) hangs 4 (time 4) "
	                          "junk 4 (junk 4)"), "%s", out);
	ck_assert_msg(strstr(out, "standings (points / games): good 18/20 illegal 0/4 exits 0/4 hangs 0/4 "
	                          "junk 0/4 twin 2/4"), "%s", out);
	/* every game is on record: 20 GGF lines, with the right results */
	ck_assert_int_eq(count_lines(ggf), 20);
	FILE *f = fopen(ggf, "r");
	int boards = 0, timeouts = 0, forfeits = 0;
	while (fgets(line, sizeof line, f)) {
		ck_assert(!strncmp(line, "(;GM[Othello]PC[emilia-match]", 29));
		ck_assert(strstr(line, ";)\n"));
		ck_assert(strstr(line, "TI[00:00/00:00.3]"));
		if (strstr(line, "RE[+38.000]"))
			boards++;
		else if (strstr(line, ".000:t]"))
			timeouts++;
		else if (strstr(line, "RE[+64.000:r]") || strstr(line, "RE[-64.000:r]"))
			forfeits++;
	}
	fclose(f);
	ck_assert_int_eq(boards, 4);
	ck_assert_int_eq(timeouts, 4);
	ck_assert_int_eq(forfeits, 12);
	unlink(ggf);
	/* The log has the GTP traffic of every engine (two workers wrote it). */
	f = fopen(logp, "r");
	ck_assert_ptr_nonnull(f);
	bool probe = false, exited = false, junk = false;
	while (fgets(line, sizeof line, f)) {
		probe |= strstr(line, "] exits -- passes are implicit") != NULL;
		exited |= strstr(line, "] exits !! exited during 'genmove ") != NULL;
		junk |= strstr(line, "] junk >> thinking very hard about ") != NULL;
	}
	fclose(f);
	ck_assert(probe && exited && junk);
	unlink(logp);
}
END_TEST

START_TEST(tool_round_robin_reusing_processes)
{
	paths();
	char out[4096], cmd[16384], ggf[256], line[8192];
	snprintf(ggf, sizeof ggf, "/tmp/emilia-test-rr-%d.ggf", (int)getpid());
	unlink(ggf);
	/* Three scripted twins, everyone against everyone, processes kept
	 * between games (clear_board), plain scoring: every game is the same
	 * Black win by 37, so each pairing splits 1-1 and everyone has 2/4. */
	snprintf(cmd, sizeof cmd,
	         "%s --round-robin --reuse --scoring plain --order sequential "
	         "--engine name=a cmd='%s %s' --engine name=b cmd='%s %s good 1 implicit' "
	         "--engine name=c cmd='%s %s' --openings %s --games 2 --tc 5 --quiet --out %s 2>&1",
	         tool(), script_path, game_path, script_path, game_path, script_path, game_path,
	         opening_path, ggf);
	ck_assert_int_eq(run(cmd, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "round robin, 2 games per pairing"), "%s", out);
	ck_assert_msg(strstr(out, "reused processes"), "%s", out);
	ck_assert_msg(strstr(out, "a vs b: 2 games, +1 =0 -1"), "%s", out);
	ck_assert_msg(strstr(out, "a vs c: 2 games, +1 =0 -1"), "%s", out);
	ck_assert_msg(strstr(out, "b vs c: 2 games, +1 =0 -1"), "%s", out);
	ck_assert_msg(strstr(out, "mean disc difference +0.00 over 2 games ended on the board (plain scoring)"),
	              "%s", out);
	ck_assert_msg(strstr(out, "standings (points / games): a 2/4 b 2/4 c 2/4"), "%s", out);
	ck_assert_msg(strstr(out, "forfeits: none"), "%s", out);
	FILE *f = fopen(ggf, "r");
	ck_assert_ptr_nonnull(f);
	int n = 0;
	while (fgets(line, sizeof line, f)) {
		n++;
		ck_assert_msg(strstr(line, "RE[+37.000]TI[00:00/00:05]"), "%s", line);
	}
	fclose(f);
	ck_assert_int_eq(n, 6);
	unlink(ggf);
}
END_TEST

START_TEST(tool_sprt_stops_the_match)
{
	paths();
	char out[4096], cmd[16384];
	/* Every game is forfeited by the second engine.  The SPRT decides
	 * nothing before ELO_SPRT_MIN_SAMPLES = 20 pairs; then 20 pairs 2-0
	 * (zero counts regularized to 1e-3, N = 20.004, mean = 0.999875,
	 * var = 9.371563e-05) give LLR = 20.004 * 0.0143872 * (1.99975 -
	 * 1.0143872) / 1.874313e-04 = 1513.027 > 2.944439: H1 after 40 games,
	 * the other 60 are not played. */
	snprintf(cmd, sizeof cmd,
	         "%s --engine name=good cmd='%s %s' --engine name=bad cmd='%s %s illegal 1' "
	         "--openings %s --games 100 --tc 2 --quiet --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 "
	         "2>/dev/null",
	         tool(), script_path, game_path, script_path, game_path, opening_path);
	ck_assert_int_eq(run(cmd, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "good vs bad: 40 games, +40 =0 -0"), "%s", out);
	ck_assert_msg(strstr(out, "LLR 1513.027, bounds [-2.944, 2.944]: H1 accepted"), "%s", out);
	/* The trinomial model decides after 20 games: counts 20, 1e-3, 1e-3
	 * (N = 20.002): mean = 0.999925, var = 6.248813e-05, LLR = 20.002 *
	 * 0.0143872 * (1.99985 - 1.0143872) / 1.249763e-04 = 2269.144. */
	snprintf(cmd, sizeof cmd,
	         "%s --engine name=good cmd='%s %s' --engine name=bad cmd='%s %s illegal 1' "
	         "--openings %s --games 100 --tc 2 --quiet "
	         "--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 model=trinomial 2>/dev/null",
	         tool(), script_path, game_path, script_path, game_path, opening_path);
	ck_assert_int_eq(run(cmd, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "good vs bad: 20 games, +20 =0 -0"), "%s", out);
	ck_assert_msg(strstr(out, "LLR 2269.144, bounds [-2.944, 2.944]: H1 accepted"), "%s", out);
}
END_TEST

START_TEST(tool_stops_cleanly_on_sigint)
{
	paths();
	char out[4096], cmd[16384];
	/* The engine hangs on its first genmove with 60 s to answer: SIGINT
	 * must abort the game at once (not a result, not recorded), kill the
	 * engines and exit with status 130 after the summary. */
	snprintf(cmd, sizeof cmd,
	         "%s --engine name=good cmd='%s %s' --engine name=hangs cmd='%s %s hang 1' "
	         "--openings %s --games 2 --tc 60 --quiet >/tmp/emilia-test-int-%d.txt 2>/dev/null & "
	         "pid=$!; sleep 1; kill -INT $pid; wait $pid; echo rc=$?; cat /tmp/emilia-test-int-%d.txt; "
	         "rm -f /tmp/emilia-test-int-%d.txt",
	         tool(), script_path, game_path, script_path, game_path, opening_path, (int)getpid(),
	         (int)getpid(), (int)getpid());
	double t0 = util_now();
	ck_assert_int_eq(run(cmd, out, sizeof out), 0);
	ck_assert_msg(util_now() - t0 < 10, "took %.1f s", util_now() - t0);
	ck_assert_msg(strstr(out, "rc=130"), "%s", out);
	ck_assert_msg(strstr(out, "good vs hangs: 0 games, +0 =0 -0"), "%s", out);
	ck_assert_msg(strstr(out, "stopped after 0 of 2 games"), "%s", out);
}
END_TEST

START_TEST(tool_rejects_bad_command_lines)
{
	paths();
	char out[4096], cmd[16384];
	const char *bad[] = {
		"--engine name=a cmd=x",                                  /* one engine */
		"--engine name=a cmd=x --engine name=a cmd=y",            /* same name */
		"--engine name=a cmd=x --engine name=b cmd=y --games 3",  /* odd */
		"--engine name=a cmd=x --engine name=b cmd=y --tc 0",
		"--engine name=a cmd=x --engine name=b cmd=y --tc fast",
		"--engine name=a cmd=x --engine name=b cmd=y --concurrency 0",
		"--engine name=a cmd=x --engine name=b cmd=y --sprt elo0=5 elo1=0 alpha=0.05 beta=0.05",
		"--engine name=a cmd=x --engine name=b cmd=y --sprt elo0=0",
		"--engine name=a cmd=x --engine name=b cmd=y --engine name=c cmd=z --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05",
		"--engine name=a cmd=x --engine name=b cmd=y --openings /nonexistent/file",
		"--engine name=a cmd=x --engine name=b cmd=y --bogus",
		"--engine name=a --engine name=b cmd=y",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(cmd, sizeof cmd, "%s %s 2>&1", tool(), bad[i]);
		ck_assert_msg(run(cmd, out, sizeof out) == 2, "accepted: %s", bad[i]);
		ck_assert_msg(strstr(out, "emilia-match: "), "%s: no message", bad[i]);
	}
	/* A broken openings file: the line number and what is wrong. */
	char path[256];
	snprintf(path, sizeof path, "/tmp/emilia-test-openings-%d.txt", (int)getpid());
	FILE *f = fopen(path, "w");
	fprintf(f, "f5d6c3\n# comment\n\nf5d6c3d3c4z9\n");
	fclose(f);
	snprintf(cmd, sizeof cmd, "%s --engine name=a cmd=x --engine name=b cmd=y --openings %s 2>&1",
	         tool(), path);
	ck_assert_int_eq(run(cmd, out, sizeof out), 2);
	ck_assert_msg(strstr(out, ":4: invalid square 'z9' at move 6"), "%s", out);
	unlink(path);
}
END_TEST

/* ---- real engines ------------------------------------------------------ */

/* Every GGF line must replay legally from its moves to a final position
 * whose official margin is the RE field. */
static void check_ggf_file_variant(const char *path, int want_games, Variant v)
{
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	char line[8192];
	int games = 0;
	while (fgets(line, sizeof line, f)) {
		games++;
		Game g;
		game_init(&g, 8, v);
		ck_assert_ptr_nonnull(strstr(line, v == VARIANT_ANTI ? "TY[8a]" : "TY[8]"));
		for (char *p = line; (p = strpbrk(p, "BW")) != NULL; p++) {
			if (p[1] != '[' || (p > line && p[-1] != ']'))
				continue;
			char mv[8] = { 0 };
			memcpy(mv, p + 2, 2);
			int m = text_parse_move(mv, 8);
			ck_assert_msg(m >= 0, "bad move in %s", line);
			ck_assert_int_eq(game_play_colour(&g, p[0] == 'B' ? BLACK : WHITE, m), GAME_OK);
		}
		char *re = strstr(line, "RE[");
		ck_assert_ptr_nonnull(re);
		ck_assert_msg(game_is_over(&g), "unfinished game: %s", line);
		ck_assert_int_eq(atoi(re + 3), game_margin(&g, SCORING_OFFICIAL));
	}
	fclose(f);
	ck_assert_int_eq(games, want_games);
}

static void check_ggf_file(const char *path, int want_games)
{
	check_ggf_file_variant(path, want_games, VARIANT_NORMAL);
}

START_TEST(short_match_against_gtp_rhino)
{
	struct stat st;
	ck_assert_msg(stat(RHINO, &st) == 0, RHINO " is missing: install the Debian package grhino");
	char out[8192], cmd[16384], ggf[256];
	snprintf(ggf, sizeof ggf, "/tmp/emilia-test-rhino-%d.ggf", (int)getpid());
	unlink(ggf);
	snprintf(cmd, sizeof cmd,
	         "%s --engine name=rhino1 cmd='" RHINO " -l 1' --engine name=rhino2 cmd='" RHINO " -l 2' "
	         "--openings %s --order sequential --games 4 --tc 5 --concurrency 2 --reuse --quiet "
	         "--out %s 2>&1",
	         tool(), test_data("match-xot.txt"), ggf);
	ck_assert_int_eq(run(cmd, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "rhino1 vs rhino2: 4 games,"), "%s", out);
	ck_assert_msg(strstr(out, "forfeits: none"), "%s", out);
	ck_assert_msg(strstr(out, "over 4 games ended on the board"), "%s", out);
	check_ggf_file(ggf, 4);
	unlink(ggf);
}
END_TEST

/* Does this emilia speak GTP (plain `emilia` with GTP on stdin)? */
static bool emilia_has_gtp(const char *bin)
{
	char cmd[4096], out[256];
	snprintf(cmd, sizeof cmd, "printf 'protocol_version\\nquit\\n' | timeout 10 %s 2>/dev/null", bin);
	return run(cmd, out, sizeof out) == 0 && strstr(out, "= 2");
}

START_TEST(short_match_between_two_emilias)
{
	const char *bin = getenv("EMILIA_BIN");
	if (!bin)
		bin = "./emilia";
	if (!emilia_has_gtp(bin)) {
		fprintf(stderr, "SKIPPED short_match_between_two_emilias: %s does not speak GTP yet\n", bin);
		return;
	}
	char out[8192], cmd[16384], ggf[256];
	snprintf(ggf, sizeof ggf, "/tmp/emilia-test-emilia-%d.ggf", (int)getpid());
	unlink(ggf);
	snprintf(cmd, sizeof cmd,
	         "%s --engine name=emilia1 cmd='%s --level 1' --engine name=emilia2 cmd='%s --level 2' "
	         "--openings %s --order sequential --games 4 --tc 5 --concurrency 2 --quiet --out %s 2>&1",
	         tool(), bin, bin, test_data("match-xot.txt"), ggf);
	ck_assert_int_eq(run(cmd, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "emilia1 vs emilia2: 4 games,"), "%s", out);
	ck_assert_msg(strstr(out, "forfeits: none"), "%s", out);
	check_ggf_file(ggf, 4);
	unlink(ggf);
}
END_TEST

/* --variant anti: the games are played and scored by the Anti rules. */
START_TEST(short_anti_match_between_two_emilias)
{
	const char *bin = getenv("EMILIA_BIN");
	if (!bin)
		bin = "./emilia";
	if (!emilia_has_gtp(bin)) {
		fprintf(stderr, "SKIPPED short_anti_match_between_two_emilias: %s does not speak GTP yet\n", bin);
		return;
	}
	char out[8192], cmd[16384], ggf[256];
	snprintf(ggf, sizeof ggf, "/tmp/emilia-test-anti-%d.ggf", (int)getpid());
	unlink(ggf);
	snprintf(cmd, sizeof cmd,
	         "%s --engine name=anti1 cmd='%s --variant anti --level 1' --engine name=anti2 "
	         "cmd='%s --variant anti --level 2' --variant anti --openings %s --order sequential --games 2 "
	         "--tc 5 --concurrency 2 --quiet --out %s 2>&1",
	         tool(), bin, bin, test_data("match-xot.txt"), ggf);
	ck_assert_int_eq(run(cmd, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "anti1 vs anti2: 2 games,"), "%s", out);
	ck_assert_msg(strstr(out, "forfeits: none"), "%s", out);
	check_ggf_file_variant(ggf, 2, VARIANT_ANTI);
	unlink(ggf);
	snprintf(cmd, sizeof cmd, "%s --engine name=a cmd=x --engine name=b cmd=y --variant reversed 2>&1", tool());
	ck_assert_int_eq(run(cmd, out, sizeof out), 2);
	ck_assert_msg(strstr(out, "emilia-match: --variant normal|anti, not 'reversed'"), "%s", out);
}
END_TEST

static Suite *match_suite(void)
{
	Suite *s = suite_create("match");
	TCase *t = tcase_create("stats");
	tcase_add_test(t, elo_trinomial_hand_computed);
	tcase_add_test(t, elo_pentanomial_hand_computed);
	tcase_add_test(t, sprt_hand_computed);
	tcase_add_test(t, engine_words_parse);
	tcase_add_test(t, time_controls_parse);
	suite_add_tcase(s, t);
	t = tcase_create("games");
	tcase_add_test(t, scripted_game_plays_out_with_both_pass_conventions);
	tcase_add_test(t, clocks_and_time_commands);
	tcase_add_loop_test(t, fake_engines_forfeit, 0, (int)(sizeof forfeit_cases / sizeof forfeit_cases[0]));
	tcase_add_test(t, tool_gauntlet_with_misbehaving_engines);
	tcase_add_test(t, tool_round_robin_reusing_processes);
	tcase_add_test(t, tool_sprt_stops_the_match);
	tcase_add_test(t, tool_stops_cleanly_on_sigint);
	tcase_add_test(t, tool_rejects_bad_command_lines);
	tcase_add_test(t, short_match_against_gtp_rhino);
	tcase_add_test(t, short_match_between_two_emilias);
	tcase_add_test(t, short_anti_match_between_two_emilias);
	suite_add_tcase(s, t);
	return s;
}

TEST_MAIN(match_suite)
