/*
 * Endgame solver: exact scores against a brute-force minimax (normal and
 * Anti, 8x8/6x6/4x4, with windows), the FFO suite, perfect-play oracles,
 * WLD, threads, stop, and the `emilia solve` command line.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "endgame.h"
#include "tt.h"
#include "game.h"
#include "text.h"

/* ---- brute force reference ------------------------------------------- */

/* Plain minimax over every line of play, with the slow reference move
 * generator: the value of (p to move) for the variant, empties to the
 * winner in the normal game. */
static int ref_solve(uint64_t p, uint64_t o, uint64_t geo, int size, Variant v, bool passed)
{
	uint64_t moves = ref_moves(p, o) & geo;
	if (!moves) {
		if (passed) {
			Board b = { p, o };
			return board_final_score(b, size, v);
		}
		return -ref_solve(o, p, geo, size, v, true);
	}
	int best = -1000;
	for (; moves; moves = bit_pop(moves)) {
		int sq = bit_first(moves);
		uint64_t f = ref_flips(p, o, sq);
		int s = -ref_solve(o ^ f, p ^ f ^ bit_of(sq), geo, size, v, false);
		if (s > best)
			best = s;
	}
	return best;
}

/* A position with `empties` empty squares reached by random play (passes
 * included); false when the game ended earlier. */
static bool random_position(int size, int empties, uint64_t *rs, Board *out)
{
	const uint64_t geo = board_geometry(size);
	Board b = board_start(size);
	while (bit_count(geo & ~(b.p | b.o)) > empties) {
		uint64_t m = ref_moves(b.p, b.o) & geo;
		if (!m) {
			if (!(ref_moves(b.o, b.p) & geo))
				return false;
			b = board_pass(b);
			continue;
		}
		int k = (int)(test_rand(rs) % (uint64_t)bit_count(m));
		while (k--)
			m = bit_pop(m);
		int sq = bit_first(m);
		b = board_apply(b, sq, ref_flips(b.p, b.o, sq));
	}
	*out = b;
	return true;
}

static void check_against_reference(int size, Variant v, int max_empties, int count, uint64_t seed)
{
	uint64_t rs = seed;
	const uint64_t geo = board_geometry(size);
	EndgameOptions opt = endgame_default_options();
	opt.size = size;
	opt.variant = v;
	int done = 0;
	while (done < count) {
		Board b;
		int e = 1 + (int)(test_rand(&rs) % (uint64_t)max_empties);
		if (!random_position(size, e, &rs, &b))
			continue;
		int want = ref_solve(b.p, b.o, geo, size, v, false);
		EndgameResult r = endgame_solve(b, &opt);
		ck_assert_msg(r.score == want, "size %d variant %d empties %d: solver %d, reference %d", size, v, e,
		              r.score, want);
		/* the move reaches the score */
		if (r.move < 64) {
			uint64_t f = ref_flips(b.p, b.o, r.move);
			ck_assert(f != 0);
			ck_assert_int_eq(-ref_solve(b.o ^ f, b.p ^ f ^ bit_of(r.move), geo, size, v, false), want);
		} else if (r.move == BOARD_PASS) {
			ck_assert(!(ref_moves(b.p, b.o) & geo));
		} else {
			ck_assert_int_eq(r.move, BOARD_NOMOVE);
		}
		/* windows: fail-soft bounds on the right side */
		int alpha = (int)(test_rand(&rs) % 40) - 20, beta = alpha + 1 + (int)(test_rand(&rs) % 8);
		EndgameResult w = endgame_solve_window(b, &opt, alpha, beta);
		if (w.score <= alpha)
			ck_assert_int_le(want, alpha);
		else if (w.score >= beta)
			ck_assert_int_ge(want, beta);
		else
			ck_assert_int_eq(w.score, want);
		/* WLD: the sign */
		opt.wld = true;
		EndgameResult d = endgame_solve(b, &opt);
		opt.wld = false;
		ck_assert_int_eq(d.score, (want > 0) - (want < 0));
		done++;
	}
}

START_TEST(normal_8x8_matches_brute_force)
{
	check_against_reference(8, VARIANT_NORMAL, 7, 150, 1);
}
END_TEST

START_TEST(anti_8x8_matches_brute_force)
{
	check_against_reference(8, VARIANT_ANTI, 7, 150, 2);
}
END_TEST

START_TEST(small_boards_match_brute_force)
{
	check_against_reference(6, VARIANT_NORMAL, 7, 100, 3);
	check_against_reference(6, VARIANT_ANTI, 7, 100, 4);
	check_against_reference(4, VARIANT_NORMAL, 9, 100, 5);
	check_against_reference(4, VARIANT_ANTI, 9, 100, 6);
}
END_TEST

/* ---- FFO ------------------------------------------------------------- */

/* Reads the n-th position (1-based line) of an OBF file. */
static ObfPosition read_obf(const char *file, int n)
{
	FILE *f = fopen(test_data(file), "r");
	ck_assert_msg(f != NULL, "cannot open %s", test_data(file));
	char line[512];
	int k = 0;
	ObfPosition pos;
	char err[TEXT_ERR];
	while (fgets(line, sizeof line, f)) {
		if (++k == n) {
			ck_assert_msg(text_parse_obf(line, 8, &pos, err), "%s:%d: %s", file, n, err);
			fclose(f);
			return pos;
		}
	}
	fclose(f);
	ck_abort_msg("%s has no position %d", file, n);
	return pos;
}

static EndgameResult check_ffo(const char *file, int n, int threads, bool wld)
{
	ObfPosition pos = read_obf(file, n);
	EndgameOptions opt = endgame_default_options();
	opt.threads = threads;
	opt.wld = wld;
	EndgameResult r = endgame_solve(pos.board, &opt);
	ck_assert(!r.aborted);
	int want = pos.expected_score[0];
	if (wld) {
		ck_assert_int_eq(r.score, (want > 0) - (want < 0));
		return r;
	}
	ck_assert_msg(r.score == want, "%s line %d: score %d, expected %d", file, n, r.score, want);
	bool listed = false;
	for (int i = 0; i < pos.nexpected; i++)
		if (pos.expected_move[i] == r.move && pos.expected_score[i] == want)
			listed = true;
	ck_assert_msg(listed, "%s line %d: move %d is not a best move", file, n, r.move);
	return r;
}

START_TEST(ffo_1_to_19)
{
	for (int n = 1; n <= 19; n++)
		check_ffo("fforum-1-19.obf", n, 1, false);
}
END_TEST

/* #20-#29 (6-20 empties): the fast part of #20-#39 */
/* ThreadSanitizer has nothing to check in a lone thread's solves, and runs
 * them several times slower: the single-threaded exactness checks take a
 * few positions there (all of them in the other builds). */
#ifdef __SANITIZE_THREAD__
#define EG_LONE_MAX 2
#else
#define EG_LONE_MAX 99
#endif
#define EG_MIN(a, b) ((a) < (b) ? (a) : (b))

START_TEST(ffo_20_to_29)
{
	for (int n = 1; n <= EG_MIN(10, EG_LONE_MAX); n++)
		check_ffo("fforum-20-39.obf", n, 1, false);
}
END_TEST

START_TEST(wld_agrees_with_exact_on_ffo)
{
	for (int n = 1; n <= EG_MIN(19, EG_LONE_MAX); n++)
		check_ffo("fforum-1-19.obf", n, 1, true);
	for (int n = 1; n <= EG_MIN(10, EG_LONE_MAX); n++)
		check_ffo("fforum-20-39.obf", n, 1, true);
}
END_TEST

/* Threads share the work from 18 empties on: FFO #27, #29, #30 (20
 * empties): the same score and the same move with 1, 2 and 3 threads. */
START_TEST(threads_give_identical_results)
{
	static const int lines[] = { 8, 10, 11 };
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		EndgameResult one = check_ffo("fforum-20-39.obf", lines[i], 1, false);
		EndgameResult two = check_ffo("fforum-20-39.obf", lines[i], 2, false);
		ck_assert_int_eq(one.score, two.score);
		ck_assert_int_eq(one.move, two.move);
		if (i == 1) {
			EndgameResult three = check_ffo("fforum-20-39.obf", lines[i], 3, false);
			ck_assert_int_eq(one.score, three.score);
			ck_assert_int_eq(one.move, three.move);
		}
	}
}
END_TEST

/* ---- oracles ----------------------------------------------------------- */

/* The move sequence following the line that contains `title` in the
 * oracle file (the first line after it that is not a comment). */
static void oracle_line(const char *title, char *out, size_t outlen)
{
	FILE *f = fopen(test_data("endgame-lines.txt"), "r");
	ck_assert(f != NULL);
	char line[1024];
	bool found = false;
	while (fgets(line, sizeof line, f)) {
		if (strstr(line, title)) {
			found = true;
			continue;
		}
		if (found && line[0] != '#') {
			line[strcspn(line, "\r\n")] = 0;
			ck_assert(strlen(line) < outlen);
			memcpy(out, line, strlen(line) + 1);
			fclose(f);
			return;
		}
	}
	fclose(f);
	ck_abort_msg("no oracle line %s", title);
}

/* Replays `moves` on a `size` board and solves every position with at
 * most max_empties empties: each must be worth `black_margin` for Black. */
static void check_perfect_line(int size, const char *title, int min_empties, int max_empties, int black_margin)
{
	char moves[1024], err[TEXT_ERR];
	oracle_line(title, moves, sizeof moves);
	Game g;
	game_init(&g, size, VARIANT_NORMAL);
	EndgameOptions opt = endgame_default_options();
	opt.size = size;
	int checked = 0;
	for (size_t i = 0; moves[i] && moves[i + 1]; i += 2) {
		char mv[3] = { moves[i], moves[i + 1], 0 };
		ck_assert_msg(text_apply_transcript(&g, mv, err), "%s: %s", mv, err);
		int e = game_empties(&g);
		if (e < min_empties || e > max_empties)
			continue;
		EndgameResult r = endgame_solve(g.board, &opt);
		int want = g.side == BLACK ? black_margin : -black_margin;
		ck_assert_msg(r.score == want, "%s after %s: %d empties, score %d, expected %d", title, mv, e, r.score,
		              want);
		checked++;
	}
	ck_assert_int_gt(checked, 0);
}

START_TEST(perfect_8x8_line_is_a_draw_at_18_to_22_empties)
{
	check_perfect_line(8, "[8x8 perfect play", 18, 22, 0);
}
END_TEST

START_TEST(perfect_6x6_line_is_white_plus_4)
{
	check_perfect_line(6, "[6x6 perfect play", 0, 22, -4);
}
END_TEST

START_TEST(start_4x4_is_white_plus_10_official_8_plain)
{
	EndgameOptions opt = endgame_default_options();
	opt.size = 4;
	EndgameResult r = endgame_solve(board_start(4), &opt);
	ck_assert_int_eq(r.score, -10);
	/* the oracle's perfect line, through the game module */
	char moves[1024], err[TEXT_ERR];
	oracle_line("[4x4 perfect play", moves, sizeof moves);
	Game g;
	game_init(&g, 4, VARIANT_NORMAL);
	ck_assert_msg(text_apply_transcript(&g, moves, err), "%s", err);
	ck_assert(game_is_over(&g));
	ck_assert_int_eq(game_margin(&g, SCORING_OFFICIAL), r.score);
	ck_assert_int_eq(game_margin(&g, SCORING_PLAIN), -8);
	check_perfect_line(4, "[4x4 perfect play", 0, 12, -10);
}
END_TEST

/* ---- stop ---------------------------------------------------------------- */

START_TEST(stop_flag_aborts)
{
	ObfPosition pos = read_obf("fforum-40-59.obf", 10); /* #49, 26 empties */
	atomic_bool stop;
	atomic_init(&stop, true);
	EndgameOptions opt = endgame_default_options();
	opt.stop = &stop;
	opt.threads = 2;
	EndgameResult r = endgame_solve(pos.board, &opt);
	ck_assert(r.aborted);
	ck_assert_int_eq(r.sel_level, -1); /* no pre-search finished */
	ck_assert_double_lt(r.seconds, 5.0);
}
END_TEST

/* The root's selective pre-searches (18 empties and more) report the last
 * level they finished, whose move a stopped solve may play: after a whole
 * solve of FFO #27 and #29 (20 empties) that is the surest level, its move
 * is legal and its score within a few discs of the exact one; below 18
 * empties (#20, 6 empties) there is none. */
START_TEST(presearch_level_is_reported)
{
	static const int lines[] = { 8, 10 };
	for (int i = 0; i < 2; i++) {
		EndgameResult r = check_ffo("fforum-20-39.obf", lines[i], 1, false);
		ck_assert_int_eq(r.sel_level, 3);
		ObfPosition pos = read_obf("fforum-20-39.obf", lines[i]);
		ck_assert(r.sel_move >= 0 && r.sel_move < 64);
		ck_assert(board_moves(pos.board.p, pos.board.o) & bit_of(r.sel_move));
		ck_assert_msg(abs(r.sel_score - r.score) <= 6, "line %d: pre-search %d, exact %d", lines[i],
		              r.sel_score, r.score);
	}
	EndgameResult r = check_ffo("fforum-20-39.obf", 1, 1, false);
	ck_assert_int_eq(r.sel_level, -1);
}
END_TEST

/* A position of a 2015 tournament game (WTHOR) at 18 empties.  Its
 * selective pre-searches failed high and low in turn for ever (more than
 * 2.7 billion nodes before it was stopped); the exact solve takes about
 * 250,000 nodes. */
static void *stop_after(void *arg)
{
	atomic_bool *stop = arg;
	for (int i = 0; i < 600 && !atomic_load(stop); i++)
		usleep(50000);
	atomic_store(stop, true);
	return NULL;
}

START_TEST(unstable_presearch_terminates)
{
	ObfPosition pos;
	char err[160];
	ck_assert_msg(text_parse_obf("-XXXXX--XOOOXO--XOOXOOOXXOXOOOO-XOOOOOOOXOOOOOOOO----O-O-----O-- X;", 8,
	                             &pos, err), "%s", err);
	Board b = pos.board;
	atomic_bool stop;
	atomic_init(&stop, false);
	pthread_t watchdog;
	ck_assert_int_eq(pthread_create(&watchdog, NULL, stop_after, &stop), 0);
	for (int threads = 1; threads <= 2; threads++) {
		EndgameOptions opt = endgame_default_options();
		opt.stop = &stop;
		opt.threads = threads;
		EndgameResult r = endgame_solve(b, &opt);
		ck_assert_msg(!r.aborted, "still searching after 30 s (%llu nodes)", (unsigned long long)r.nodes);
		ck_assert_int_eq(r.score, 58);
		ck_assert_uint_lt(r.nodes, 20000000);
	}
	atomic_store(&stop, true);
	pthread_join(watchdog, NULL);
}
END_TEST

/* ---- command line ---------------------------------------------------- */

static char *run_cli(const char *args, int *status)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "solve %s", args);
	return test_run_emilia(cmd, status);
}

/* Positions #1-#3 of the FFO file with a malformed line in between and a
 * wrong expected score on the last. */
static void write_input(char *path)
{
	strcpy(path, "/tmp/emilia-test-solve-XXXXXX");
	int fd = mkstemp(path);
	ck_assert(fd >= 0);
	FILE *f = fdopen(fd, "w");
	FILE *src = fopen(test_data("fforum-1-19.obf"), "r");
	char line[512];
	ck_assert(fgets(line, sizeof line, src));
	fputs("% a comment\n", f);
	fputs(line, f);                                   /* line 2: #1 */
	fputs("XXXX---- X; this is not a board\n", f);    /* line 3: malformed */
	ck_assert(fgets(line, sizeof line, src));
	fputs(line, f);                                   /* line 4: #2 */
	ck_assert(fgets(line, sizeof line, src));
	line[strcspn(line, ";")] = 0;
	fprintf(f, "%s; D1:+4;\n", line);                /* line 5: #3, wrong expectation (true +2) */
	fclose(src);
	fclose(f);
}

START_TEST(cli_reports_bad_lines_and_wrong_scores)
{
	char path[64];
	write_input(path);
	char args[256];
	snprintf(args, sizeof args, "%s", path);
	int st;
	char *out = run_cli(args, &st);
	ck_assert_int_eq(st, 1);
	char want[128];
	snprintf(want, sizeof want, "%s:3: board has", path);
	ck_assert_msg(strstr(out, want) != NULL, "no line number in:\n%s", out);
	ck_assert_msg(strstr(out, "g8") && strstr(out, "+18") && strstr(out, "ok"), "%s", out);
	ck_assert_msg(strstr(out, "a4") && strstr(out, "+10"), "%s", out);
	ck_assert_msg(strstr(out, "d1") && strstr(out, "+2") && strstr(out, "WRONG"), "%s", out);
	ck_assert_msg(strstr(out, "totals: positions 3, wrong 1, malformed 1") != NULL, "%s", out);
	free(out);
	unlink(path);
}
END_TEST

/* JSON Lines: one object per position with the documented fields. */
START_TEST(cli_json_output)
{
	char path[] = "/tmp/emilia-test-solve-XXXXXX";
	int fd = mkstemp(path);
	ck_assert(fd >= 0);
	FILE *f = fdopen(fd, "w");
	FILE *src = fopen(test_data("fforum-1-19.obf"), "r");
	char line[512];
	for (int i = 0; i < 2; i++) {
		ck_assert(fgets(line, sizeof line, src));
		fputs(line, f);
	}
	fclose(src);
	fclose(f);
	char args[256];
	snprintf(args, sizeof args, "%s --json --threads 2", path);
	int st;
	char *out = run_cli(args, &st);
	ck_assert_int_eq(st, 0);
	/* first object */
	int n, empties, score, expected;
	char board[80], move[8], ok[8];
	unsigned long long nodes;
	double seconds;
	int got = sscanf(out,
	                 "{\"n\":%d,\"board\":\"%79[^\"]\",\"empties\":%d,\"move\":\"%7[^\"]\",\"score\":%d,"
	                 "\"nodes\":%llu,\"seconds\":%lf,\"nps\":%*f,\"expected\":%d,\"ok\":%7[a-z]}",
	                 &n, board, &empties, move, &score, &nodes, &seconds, &expected, ok);
	ck_assert_msg(got == 9, "parsed %d fields of:\n%s", got, out);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(empties, 14);
	ck_assert_str_eq(move, "g8");
	ck_assert_int_eq(score, 18);
	ck_assert_int_eq(expected, 18);
	ck_assert_str_eq(ok, "true");
	ck_assert_uint_gt(nodes, 0);
	ck_assert_int_eq((int)strlen(board), 66);
	const char *second = strchr(out, '\n');
	ck_assert(second != NULL);
	ck_assert(strncmp(second + 1, "{\"n\":2,", 7) == 0);
	ck_assert_msg(strstr(second, "\"score\":10,") != NULL, "%s", out);
	const char *tot = strstr(out, "{\"totals\":true,\"positions\":2,\"wrong\":0,");
	ck_assert_msg(tot != NULL, "%s", out);
	free(out);
	unlink(path);
}
END_TEST

/* A transcript or an OBF line instead of a file. */
START_TEST(cli_accepts_a_line_or_a_transcript)
{
	int st;
	char *out = run_cli("--board 4 --json ''", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(out, "\"score\":-10,") != NULL, "%s", out);
	free(out);
	out = run_cli("--board 4 b1a1a2c1d4a3d1b4a4c4", &st);
	ck_assert_int_eq(st, 0);
	/* the game is over: 2 empties, no move, White +10 from Black's view */
	ck_assert_msg(strstr(out, "   1       2    --       -10") != NULL, "%s", out);
	free(out);
	out = run_cli("'--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X'", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(out, "g8") && strstr(out, "+18"), "%s", out);
	free(out);
	out = run_cli("zz9", &st);
	ck_assert_int_eq(st, 2);
	ck_assert_msg(strstr(out, "not a readable file") != NULL, "%s", out);
	free(out);
}
END_TEST

/* Bounds of a selective (pre-)search are tagged with its level: a probe
 * asking for more exactness gets them only as a move; a more exact store
 * replaces them; a less exact store never overwrites exact bounds.  The
 * solver and the midgame search share the format (tt.h): a midgame entry
 * that did not reach the end of the game gives the solver only its move,
 * and the solver's exact entries answer the midgame's probes. */
START_TEST(table_keeps_selective_bounds_apart)
{
	TT t;
	ck_assert(tt_init(&t, 1));
	const uint64_t p = 0x0000001008000000ULL, o = 0x0000000810000000ULL;
	TTData d;
	/* level 2 search of window (0, 10) at 60 empties failed high with 12, best move 19 */
	tt_store(&t, p, o, 60, 2, 0, 10, 12, 19);
	ck_assert(tt_probe(&t, p, o, &d));
	ck_assert_int_eq(d.lower, 12);
	ck_assert_int_eq(d.upper, 127);
	ck_assert_int_eq(d.move, 19);
	ck_assert_int_eq(d.depth, 60);
	ck_assert_int_eq(d.sel, 2);
	/* exact: score <= 4 (contradicts the selective bound: replaces it) */
	tt_store(&t, p, o, 60, TT_SEL_EXACT, 4, 10, 4, 26);
	ck_assert(tt_probe(&t, p, o, &d));
	ck_assert_int_eq(d.lower, -127);
	ck_assert_int_eq(d.upper, 4);
	ck_assert_int_eq(d.move, 26);
	ck_assert_int_eq(d.sel, TT_SEL_EXACT);
	/* a later selective result does not touch the exact entry */
	tt_store(&t, p, o, 60, 3, 20, 30, 40, 37);
	ck_assert(tt_probe(&t, p, o, &d));
	ck_assert_int_eq(d.upper, 4);
	ck_assert_int_eq(d.move, 26);
	ck_assert_int_eq(d.sel, TT_SEL_EXACT);
	/* nor does a shallower (midgame) one */
	tt_store(&t, p, o, 12, TT_SEL_EXACT, -64, 64, 30, 37);
	ck_assert(tt_probe(&t, p, o, &d));
	ck_assert_int_eq(d.upper, 4);
	ck_assert_int_eq(d.depth, 60);
	/* an exact lower bound intersects; a store without a move keeps the old one */
	tt_store(&t, p, o, 60, TT_SEL_EXACT, -10, -2, -2, TT_NO_MOVE);
	ck_assert(tt_probe(&t, p, o, &d));
	ck_assert_int_eq(d.lower, -2);
	ck_assert_int_eq(d.upper, 4);
	ck_assert_int_eq(d.move, 26);
	/* another position: a depth-6 midgame result, then the solver's exact one replaces it */
	const uint64_t q = 0x0000000018000000ULL, r = 0x0000240000240000ULL;
	tt_store(&t, q, r, 6, 1, -64, 64, 8, 44);
	ck_assert(tt_probe(&t, q, r, &d));
	ck_assert_int_eq(d.depth, 6);
	tt_store(&t, q, r, 58, TT_SEL_EXACT, -64, 64, -6, TT_NO_MOVE);
	ck_assert(tt_probe(&t, q, r, &d));
	ck_assert_int_eq(d.depth, 58);
	ck_assert_int_eq(d.lower, -6);
	ck_assert_int_eq(d.upper, -6);
	ck_assert_int_eq(d.move, 44);
	tt_free(&t);
}
END_TEST

/* Every technique can be switched off alone (emilia solve --disable) and
 * the scores stay exact: FFO #1-#3 and two positions of 18 and 19 empties
 * (fforum-20-39.obf lines 4 and 5: the pre-searches start at 18). */
START_TEST(each_feature_off_keeps_exact_scores)
{
	for (unsigned bit = ENDGAME_F_LASTN; bit & ENDGAME_F_ALL; bit <<= 1) {
		for (int n = 1; n <= EG_MIN(5, EG_LONE_MAX); n++) {
			const char *file = n <= 3 ? "fforum-1-19.obf" : "fforum-20-39.obf";
			const int line = n;
			ObfPosition pos = read_obf(file, line);
			EndgameOptions opt = endgame_default_options();
			opt.features = ENDGAME_F_ALL & ~bit;
			EndgameResult r = endgame_solve(pos.board, &opt);
			ck_assert_msg(r.score == pos.expected_score[0], "feature %#x off, %s line %d: %d, expected %d",
			              bit, file, line, r.score, pos.expected_score[0]);
		}
	}
}
END_TEST

static Suite *endgame_suite(void)
{
	Suite *s = suite_create("endgame");
	/* one case per test so that CK_RUN_CASE can pick one */
#define EG_ADD(t) do { TCase *tc = tcase_create(#t); tcase_add_test(tc, t); suite_add_tcase(s, tc); } while (0)
	EG_ADD(normal_8x8_matches_brute_force);
	EG_ADD(anti_8x8_matches_brute_force);
	EG_ADD(small_boards_match_brute_force);
	EG_ADD(ffo_1_to_19);
	EG_ADD(ffo_20_to_29);
	EG_ADD(wld_agrees_with_exact_on_ffo);
	EG_ADD(threads_give_identical_results);
	EG_ADD(perfect_8x8_line_is_a_draw_at_18_to_22_empties);
	EG_ADD(perfect_6x6_line_is_white_plus_4);
	EG_ADD(start_4x4_is_white_plus_10_official_8_plain);
	EG_ADD(stop_flag_aborts);
	EG_ADD(presearch_level_is_reported);
	EG_ADD(unstable_presearch_terminates);
	EG_ADD(cli_reports_bad_lines_and_wrong_scores);
	EG_ADD(cli_json_output);
	EG_ADD(cli_accepts_a_line_or_a_transcript);
	EG_ADD(table_keeps_selective_bounds_apart);
	EG_ADD(each_feature_off_keeps_exact_scores);
#undef EG_ADD
	return s;
}

TEST_MAIN(endgame_suite)
