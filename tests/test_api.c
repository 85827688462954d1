/*
 * The public API (include/emilia.h, src/core/api.c): every function, its
 * argument checks and error codes, the all-or-nothing position setters,
 * search, multi-PV, solve, evaluate, perft, stop from another thread and
 * two engines in two threads.  Searches are kept small so that the suite
 * runs under the sanitizers too.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "testutil.h"
#include "emilia.h"
#include "text.h"

#define FFO1 "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
#define START_OBF "---------------------------OX------XO--------------------------- X"

enum { SQ_D3 = 19, SQ_C4 = 26, SQ_F5 = 37, SQ_E6 = 44, SQ_G8 = 62, SQ_A1 = 0 };

static emilia_engine *make_engine(int threads, int use_book)
{
	emilia_options o;
	emilia_options_init(&o);
	o.threads = threads;
	o.hash_mb = 8;
	o.use_book = use_book;
	emilia_engine *e = NULL;
	char err[256];
	ck_assert_int_eq(emilia_create(&o, &e, err, sizeof err), EMILIA_OK);
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(err, "");
	return e;
}

static void get_obf(emilia_engine *e, char *buf)
{
	ck_assert_int_eq(emilia_get_obf(e, buf, 80), EMILIA_OK);
}

static emilia_limits depth_limit(int depth)
{
	emilia_limits l;
	emilia_limits_init(&l);
	l.depth = depth;
	return l;
}

static bool is_legal(emilia_engine *e, int move)
{
	int moves[EMILIA_MAX_MOVES], n = 0;
	ck_assert_int_eq(emilia_legal_moves(e, moves, &n), EMILIA_OK);
	for (int i = 0; i < n; i++)
		if (moves[i] == move)
			return true;
	return false;
}

/* ---- version, messages, options ---------------------------------------------- */

START_TEST(api_version)
{
	/* the header's version is the release of text.h ("0.1" = 0.1.0) */
	char v[32];
	snprintf(v, sizeof v, "%d.%d", EMILIA_VERSION_MAJOR, EMILIA_VERSION_MINOR);
	if (EMILIA_VERSION_PATCH)
		snprintf(v + strlen(v), sizeof v - strlen(v), ".%d", EMILIA_VERSION_PATCH);
	ck_assert_str_eq(v, EMILIA_VERSION);
	snprintf(v, sizeof v, "%d.%d.%d", EMILIA_VERSION_MAJOR, EMILIA_VERSION_MINOR, EMILIA_VERSION_PATCH);
	ck_assert_str_eq(v, EMILIA_VERSION_STRING);
	ck_assert_str_eq(emilia_version(), EMILIA_VERSION_STRING);
	ck_assert(!strcmp(emilia_kernel(), "avx2") || !strcmp(emilia_kernel(), "portable"));
	ck_assert_int_eq(EMILIA_VERSION_NUMBER, EMILIA_VERSION_MAJOR * 10000 + EMILIA_VERSION_MINOR * 100 +
	                                            EMILIA_VERSION_PATCH);
}
END_TEST

START_TEST(api_strerror)
{
	const char *seen[EMILIA_ERR_BUFFER + 1];
	for (int s = EMILIA_OK; s <= EMILIA_ERR_BUFFER; s++) {
		seen[s] = emilia_strerror((emilia_status)s);
		ck_assert_ptr_nonnull(seen[s]);
		ck_assert_int_gt(strlen(seen[s]), 3);
		for (int t = 0; t < s; t++)
			ck_assert_str_ne(seen[s], seen[t]);
	}
	ck_assert_str_eq(emilia_strerror((emilia_status)999), "unknown status");
	ck_assert_str_eq(emilia_strerror(EMILIA_ERR_ILLEGAL), "illegal move");
}
END_TEST

static emilia_status create_with(const emilia_options *o, char *err)
{
	emilia_engine *e = (emilia_engine *)&err; /* must be reset to NULL */
	emilia_status s = emilia_create(o, &e, err, 256);
	if (s == EMILIA_OK) {
		ck_assert_ptr_nonnull(e);
		emilia_destroy(e);
	} else {
		ck_assert_ptr_null(e);
		ck_assert_int_gt(strlen(err), 0);
	}
	return s;
}

START_TEST(api_create_options)
{
	char err[256];
	emilia_options o;
	/* defaults, and NULL options */
	ck_assert_int_eq(create_with(NULL, err), EMILIA_OK);
	emilia_options_init(&o);
	ck_assert_uint_eq(o.struct_size, sizeof o);
	ck_assert_int_eq(o.threads, 1);
	ck_assert_int_eq(o.hash_mb, 64);
	ck_assert_int_eq(o.level, EMILIA_LEVEL_HARD);
	ck_assert_int_eq(o.board_size, 8);
	ck_assert_int_eq(o.use_book, 1);
	ck_assert_ptr_null(o.weights_file);
	ck_assert_ptr_null(o.book_file);
	o.hash_mb = 4;
	ck_assert_int_eq(create_with(&o, err), EMILIA_OK);
	/* out of range */
	static const struct {
		int threads, hash, level, size;
		const char *word;
	} bad[] = {
		{ 0, 4, 5, 8, "threads" }, { 257, 4, 5, 8, "threads" }, { 1, 0, 5, 8, "hash" },
		{ 1, 70000, 5, 8, "hash" }, { 1, 4, 61, 8, "level" },   { 1, 4, -4, 8, "level" },
		{ 1, 4, 5, 7, "board size" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		emilia_options_init(&o);
		o.threads = bad[i].threads;
		o.hash_mb = bad[i].hash;
		o.level = bad[i].level;
		o.board_size = bad[i].size;
		ck_assert_int_eq(create_with(&o, err), EMILIA_ERR_ARGUMENT);
		ck_assert_msg(strstr(err, bad[i].word), "'%s' does not name %s", err, bad[i].word);
	}
	/* options not initialised */
	memset(&o, 0, sizeof o);
	ck_assert_int_eq(create_with(&o, err), EMILIA_ERR_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(err, "emilia_options_init"));
	/* NULL out */
	ck_assert_int_eq(emilia_create(NULL, NULL, err, sizeof err), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_create(NULL, NULL, NULL, 0), EMILIA_ERR_NULL);
}
END_TEST

START_TEST(api_create_files)
{
	char err[256];
	emilia_options o;
	emilia_options_init(&o);
	o.hash_mb = 4;
	o.weights_file = "/nonexistent/eval.bin";
	ck_assert_int_eq(create_with(&o, err), EMILIA_ERR_FILE);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/eval.bin"));
	o.weights_file = NULL;
	o.book_file = "/nonexistent/my.book";
	ck_assert_int_eq(create_with(&o, err), EMILIA_ERR_FILE);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/my.book"));
	/* a file that is no book */
	o.book_file = test_data("fforum-1-19.obf");
	ck_assert_int_eq(create_with(&o, err), EMILIA_ERR_FILE);
	ck_assert_ptr_nonnull(strstr(err, "book"));
	/* the built-in weights as a file load (process-wide, the same values) */
	o.book_file = NULL;
	o.use_book = 0;
	o.weights_file = test_data("../../data/eval.bin");
	ck_assert_int_eq(create_with(&o, err), EMILIA_OK);
}
END_TEST

/* ---- NULL handles and pointers --------------------------------------------------- */

START_TEST(api_null_handles)
{
	char buf[80];
	int moves[EMILIA_MAX_MOVES], n = 0, s = 0, b = 0, w = 0;
	uint64_t count = 0;
	emilia_info info;
	emilia_limits l;
	emilia_limits_init(&l);
	emilia_destroy(NULL);
	emilia_stop(NULL);
	emilia_options_init(NULL);
	emilia_limits_init(NULL);
	ck_assert_int_gt(strlen(emilia_last_error(NULL)), 0);
	ck_assert_int_eq(emilia_set_level(NULL, 3), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_set_threads(NULL, 1), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_set_hash(NULL, 1), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_new_game(NULL), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_set_transcript(NULL, "f5"), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_set_obf(NULL, START_OBF), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_get_obf(NULL, buf, sizeof buf), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_get_transcript(NULL, buf, sizeof buf), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_side_to_move(NULL), -1);
	ck_assert_int_eq(emilia_is_game_over(NULL), -1);
	ck_assert_int_eq(emilia_discs(NULL, &b, &w), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_legal_moves(NULL, moves, &n), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_play(NULL, SQ_F5), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_play_text(NULL, "f5"), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_undo(NULL), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_search(NULL, &l, NULL, NULL, &info), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_analyze(NULL, &l, 2, NULL, NULL, &info, &n), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_solve(NULL, 0, &l, &info), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_evaluate(NULL, &s), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_perft(NULL, 2, &count), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_move_name(SQ_F5, NULL), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_parse_move(NULL), -1);

	/* NULL pointers with a real handle: an error, the message, no change */
	emilia_engine *e = make_engine(1, 0);
	char before[80], after[80];
	get_obf(e, before);
	ck_assert_int_eq(emilia_set_transcript(e, NULL), EMILIA_ERR_NULL);
	ck_assert_int_gt(strlen(emilia_last_error(e)), 0);
	ck_assert_int_eq(emilia_set_obf(e, NULL), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_get_obf(e, NULL, 80), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_get_transcript(e, NULL, 80), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_discs(e, NULL, &w), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_legal_moves(e, NULL, &n), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_legal_moves(e, moves, NULL), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_play_text(e, NULL), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_analyze(e, &l, 2, NULL, NULL, NULL, &n), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_analyze(e, &l, 2, NULL, NULL, &info, NULL), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_evaluate(e, NULL), EMILIA_ERR_NULL);
	ck_assert_int_eq(emilia_perft(e, 2, NULL), EMILIA_ERR_NULL);
	get_obf(e, after);
	ck_assert_str_eq(before, after);
	/* a success clears the message */
	ck_assert_int_eq(emilia_new_game(e), EMILIA_OK);
	ck_assert_str_eq(emilia_last_error(e), "");
	emilia_destroy(e);
}
END_TEST

/* ---- options after creation -------------------------------------------------------- */

START_TEST(api_setters)
{
	emilia_engine *e = make_engine(1, 0);
	ck_assert_int_eq(emilia_set_level(e, 4), EMILIA_OK);
	ck_assert_int_eq(emilia_set_level(e, EMILIA_LEVEL_EASY), EMILIA_OK);
	ck_assert_int_eq(emilia_set_level(e, 61), EMILIA_ERR_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(emilia_last_error(e), "61"));
	ck_assert_int_eq(emilia_set_level(e, -4), EMILIA_ERR_ARGUMENT);
	ck_assert_int_eq(emilia_set_threads(e, 2), EMILIA_OK);
	ck_assert_int_eq(emilia_set_threads(e, 0), EMILIA_ERR_ARGUMENT);
	ck_assert_int_eq(emilia_set_threads(e, 257), EMILIA_ERR_ARGUMENT);
	ck_assert_int_eq(emilia_set_hash(e, 2), EMILIA_OK);
	ck_assert_int_eq(emilia_set_hash(e, 0), EMILIA_ERR_ARGUMENT);
	ck_assert_int_eq(emilia_set_hash(e, 65537), EMILIA_ERR_ARGUMENT);
	/* the level set last (easy, random) is what the next search uses:
	 * any legal move */
	ck_assert_int_eq(emilia_set_level(e, 2), EMILIA_OK);
	emilia_info r;
	ck_assert_int_eq(emilia_search(e, NULL, NULL, NULL, &r), EMILIA_OK);
	ck_assert_int_eq(r.depth, 2);
	ck_assert(is_legal(e, r.move));
	emilia_destroy(e);
}
END_TEST

/* ---- the position ---------------------------------------------------------------------- */

START_TEST(api_transcript)
{
	emilia_engine *e = make_engine(1, 0);
	char buf[300], obf[80], obf2[80];
	ck_assert_int_eq(emilia_get_transcript(e, buf, sizeof buf), EMILIA_OK);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(emilia_side_to_move(e), EMILIA_BLACK);
	ck_assert_int_eq(emilia_set_transcript(e, "F5 d6 c3"), EMILIA_OK);
	ck_assert_int_eq(emilia_get_transcript(e, buf, sizeof buf), EMILIA_OK);
	ck_assert_str_eq(buf, "f5d6c3");
	ck_assert_int_eq(emilia_side_to_move(e), EMILIA_WHITE);
	int b, w;
	ck_assert_int_eq(emilia_discs(e, &b, &w), EMILIA_OK);
	ck_assert_int_eq(b + w, 7);
	get_obf(e, obf);
	/* malformed and illegal transcripts change nothing */
	ck_assert_int_eq(emilia_set_transcript(e, "f5zz"), EMILIA_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(emilia_last_error(e), "invalid square"));
	ck_assert_int_eq(emilia_set_transcript(e, "f5d6c3d3c4f4f6f3e6e7a1"), EMILIA_ERR_ILLEGAL);
	ck_assert_ptr_nonnull(strstr(emilia_last_error(e), "illegal move a1 at move 11"));
	ck_assert_int_eq(emilia_set_transcript(e, "f5f5"), EMILIA_ERR_ILLEGAL);
	get_obf(e, obf2);
	ck_assert_str_eq(obf, obf2);
	ck_assert_int_eq(emilia_get_transcript(e, buf, sizeof buf), EMILIA_OK);
	ck_assert_str_eq(buf, "f5d6c3");
	/* a buffer too small */
	ck_assert_int_eq(emilia_get_transcript(e, buf, 6), EMILIA_ERR_BUFFER);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(emilia_get_transcript(e, buf, 7), EMILIA_OK);
	/* the empty transcript is the start */
	ck_assert_int_eq(emilia_set_transcript(e, "  "), EMILIA_OK);
	get_obf(e, obf);
	ck_assert_str_eq(obf, START_OBF);
	/* a whole game, played by depth-1 searches (passes included) */
	emilia_limits l = depth_limit(1);
	emilia_info r;
	int plies = 0;
	while (!emilia_is_game_over(e)) {
		ck_assert_int_eq(emilia_search(e, &l, NULL, NULL, &r), EMILIA_OK);
		ck_assert_int_eq(emilia_play(e, r.move), EMILIA_OK);
		ck_assert_int_lt(++plies, 128);
	}
	ck_assert_int_eq(emilia_get_transcript(e, buf, sizeof buf), EMILIA_OK);
	ck_assert_int_eq(emilia_set_transcript(e, buf), EMILIA_OK); /* passes implied */
	ck_assert_int_eq(emilia_is_game_over(e), 1);
	ck_assert_int_eq(emilia_discs(e, &b, &w), EMILIA_OK);
	ck_assert_int_le(b + w, 64);
	ck_assert_int_gt(b + w, 10);
	emilia_destroy(e);
}
END_TEST

START_TEST(api_obf)
{
	emilia_engine *e = make_engine(1, 0);
	char obf[80], before[80];
	ck_assert_int_eq(emilia_set_obf(e, FFO1), EMILIA_OK);
	get_obf(e, obf);
	ck_assert_str_eq(obf, FFO1);
	ck_assert_int_eq(emilia_set_obf(e, FFO1 "; G8:+18;"), EMILIA_OK);
	ck_assert_int_eq(emilia_is_game_over(e), 0);
	ck_assert_int_eq(emilia_undo(e), EMILIA_ERR_NO_UNDO);
	get_obf(e, before);
	static const char *const bad[] = {
		"",
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO- X",    /* 63 squares */
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-Z X",   /* bad square */
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--",     /* no side */
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- Q",   /* bad side */
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X junk",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_msg(emilia_set_obf(e, bad[i]) == EMILIA_ERR_PARSE, "accepted '%s'", bad[i]);
		ck_assert_ptr_nonnull(strstr(emilia_last_error(e), "OBF"));
		get_obf(e, obf);
		ck_assert_str_eq(obf, before);
	}
	ck_assert_int_eq(emilia_get_obf(e, obf, 66), EMILIA_ERR_BUFFER);
	ck_assert_int_eq(emilia_get_obf(e, obf, 0), EMILIA_ERR_BUFFER);
	ck_assert_int_eq(emilia_get_obf(e, obf, 67), EMILIA_OK);
	ck_assert_str_eq(obf, FFO1);
	/* new game: the start again */
	ck_assert_int_eq(emilia_new_game(e), EMILIA_OK);
	get_obf(e, obf);
	ck_assert_str_eq(obf, START_OBF);
	emilia_destroy(e);
}
END_TEST

START_TEST(api_moves_play_undo)
{
	emilia_engine *e = make_engine(1, 0);
	int moves[EMILIA_MAX_MOVES], n = 0;
	ck_assert_int_eq(emilia_legal_moves(e, moves, &n), EMILIA_OK);
	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(moves[0], SQ_D3);
	ck_assert_int_eq(moves[1], SQ_C4);
	ck_assert_int_eq(moves[2], SQ_F5);
	ck_assert_int_eq(moves[3], SQ_E6);
	char before[80], after[80];
	get_obf(e, before);
	/* illegal moves leave the state unchanged */
	ck_assert_int_eq(emilia_play(e, SQ_A1), EMILIA_ERR_ILLEGAL);
	ck_assert_ptr_nonnull(strstr(emilia_last_error(e), "illegal move a1"));
	ck_assert_int_eq(emilia_play(e, EMILIA_PASS), EMILIA_ERR_ILLEGAL);
	ck_assert_ptr_nonnull(strstr(emilia_last_error(e), "pass"));
	ck_assert_int_eq(emilia_play(e, -1), EMILIA_ERR_ILLEGAL);
	ck_assert_int_eq(emilia_play(e, 99), EMILIA_ERR_ILLEGAL);
	ck_assert_int_eq(emilia_play(e, EMILIA_NO_MOVE), EMILIA_ERR_ILLEGAL);
	ck_assert_int_eq(emilia_play_text(e, "z9"), EMILIA_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(emilia_last_error(e), "z9"));
	ck_assert_int_eq(emilia_play_text(e, "a1"), EMILIA_ERR_ILLEGAL);
	get_obf(e, after);
	ck_assert_str_eq(before, after);
	/* play and undo */
	ck_assert_int_eq(emilia_play(e, SQ_F5), EMILIA_OK);
	ck_assert_int_eq(emilia_side_to_move(e), EMILIA_WHITE);
	ck_assert_int_eq(emilia_play_text(e, "D6"), EMILIA_OK);
	char t[300];
	ck_assert_int_eq(emilia_get_transcript(e, t, sizeof t), EMILIA_OK);
	ck_assert_str_eq(t, "f5d6");
	ck_assert_int_eq(emilia_undo(e), EMILIA_OK);
	ck_assert_int_eq(emilia_undo(e), EMILIA_OK);
	get_obf(e, after);
	ck_assert_str_eq(before, after);
	ck_assert_int_eq(emilia_undo(e), EMILIA_ERR_NO_UNDO);
	ck_assert_ptr_nonnull(strstr(emilia_last_error(e), "undo"));

	/* white to move cannot move (only an a1-b1 pair on the board, O to
	 * move): it must pass, and the pass is undone like a move */
	ck_assert_int_eq(emilia_set_obf(e, "XO-------------------------------------------------------------- O"), EMILIA_OK);
	ck_assert_int_eq(emilia_legal_moves(e, moves, &n), EMILIA_OK);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(moves[0], EMILIA_PASS);
	ck_assert_int_eq(emilia_play(e, 2), EMILIA_ERR_ILLEGAL);
	ck_assert_int_eq(emilia_play_text(e, "pass"), EMILIA_OK);
	ck_assert_int_eq(emilia_side_to_move(e), EMILIA_BLACK);
	ck_assert(is_legal(e, 2)); /* c1 */
	ck_assert_int_eq(emilia_undo(e), EMILIA_OK);
	ck_assert_int_eq(emilia_side_to_move(e), EMILIA_WHITE);

	/* a finished game: no moves, nothing to play */
	ck_assert_int_eq(emilia_set_obf(e, "X--------------------------------------------------------------- X"), EMILIA_OK);
	ck_assert_int_eq(emilia_is_game_over(e), 1);
	ck_assert_int_eq(emilia_legal_moves(e, moves, &n), EMILIA_OK);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(emilia_play(e, 1), EMILIA_ERR_GAME_OVER);
	ck_assert_int_eq(emilia_play(e, EMILIA_PASS), EMILIA_ERR_GAME_OVER);
	emilia_destroy(e);
}
END_TEST

START_TEST(api_move_names)
{
	char out[5];
	ck_assert_int_eq(emilia_move_name(SQ_F5, out), EMILIA_OK);
	ck_assert_str_eq(out, "f5");
	ck_assert_int_eq(emilia_move_name(63, out), EMILIA_OK);
	ck_assert_str_eq(out, "h8");
	ck_assert_int_eq(emilia_move_name(EMILIA_PASS, out), EMILIA_OK);
	ck_assert_str_eq(out, "pass");
	ck_assert_int_eq(emilia_move_name(EMILIA_NO_MOVE, out), EMILIA_OK);
	ck_assert_str_eq(out, "none");
	ck_assert_int_eq(emilia_move_name(-1, out), EMILIA_ERR_ARGUMENT);
	ck_assert_int_eq(emilia_move_name(66, out), EMILIA_ERR_ARGUMENT);
	ck_assert_int_eq(emilia_parse_move("F5"), SQ_F5);
	ck_assert_int_eq(emilia_parse_move("g8"), SQ_G8);
	ck_assert_int_eq(emilia_parse_move("PA"), EMILIA_PASS);
	ck_assert_int_eq(emilia_parse_move("pass"), EMILIA_PASS);
	ck_assert_int_eq(emilia_parse_move("i1"), -1);
	ck_assert_int_eq(emilia_parse_move(""), -1);
	for (int sq = 0; sq <= EMILIA_PASS; sq++) {
		ck_assert_int_eq(emilia_move_name(sq, out), EMILIA_OK);
		ck_assert_int_eq(emilia_parse_move(out), sq);
	}
}
END_TEST

START_TEST(api_board_6x6_and_anti)
{
	emilia_options o;
	emilia_options_init(&o);
	o.board_size = 6;
	o.hash_mb = 2;
	emilia_engine *e = NULL;
	ck_assert_int_eq(emilia_create(&o, &e, NULL, 0), EMILIA_OK);
	char obf[80];
	get_obf(e, obf);
	ck_assert_int_eq(strlen(obf), 36 + 2);
	uint64_t n = 0;
	ck_assert_int_eq(emilia_perft(e, 4, &n), EMILIA_OK);
	ck_assert_uint_eq(n, 244); /* tests/data/perft-6x6.tsv */
	ck_assert_int_eq(emilia_play_text(e, "g1"), EMILIA_ERR_PARSE);
	emilia_destroy(e);
	o.board_size = 8;
	o.anti = 1;
	ck_assert_int_eq(emilia_create(&o, &e, NULL, 0), EMILIA_OK);
	/* Anti: the final score counts fewer discs as better */
	ck_assert_int_eq(emilia_set_obf(e, "X--------------------------------------------------------------- X"), EMILIA_OK);
	int s = 0;
	ck_assert_int_eq(emilia_evaluate(e, &s), EMILIA_OK);
	ck_assert_int_lt(s, 0);
	emilia_destroy(e);
}
END_TEST

/* ---- search, analysis, solve, evaluate, perft ------------------------------------------ */

typedef struct Seen {
	int calls, last_depth, bad_order;
	int last_move;
} Seen;

static void count_info(const emilia_info *info, void *user)
{
	Seen *s = user;
	if (info->depth < s->last_depth)
		s->bad_order++;
	s->last_depth = info->depth;
	s->last_move = info->move;
	s->calls++;
}

START_TEST(api_search)
{
	emilia_engine *e = make_engine(1, 0);
	ck_assert_int_eq(emilia_set_transcript(e, "f5d6c3d3c4"), EMILIA_OK);
	char before[80], after[80];
	get_obf(e, before);
	emilia_limits l = depth_limit(5);
	Seen seen = { 0 };
	emilia_info r;
	ck_assert_int_eq(emilia_search(e, &l, count_info, &seen, &r), EMILIA_OK);
	ck_assert_int_eq(r.depth, 5);
	ck_assert(is_legal(e, r.move));
	ck_assert_int_eq(r.move, r.pv[0]);
	ck_assert_int_ge(r.pvlen, 1);
	ck_assert_int_le(r.pvlen, EMILIA_MAX_PV);
	ck_assert_uint_gt(r.nodes, 0);
	ck_assert_int_eq(r.book, 0);
	ck_assert_int_eq(r.exact, 0);
	ck_assert_int_le(abs(r.score), 64);
	ck_assert_int_eq(seen.calls, 5);
	ck_assert_int_eq(seen.bad_order, 0);
	ck_assert_int_eq(seen.last_move, r.move);
	/* the game is not changed; a NULL result and callback are fine */
	get_obf(e, after);
	ck_assert_str_eq(before, after);
	ck_assert_int_eq(emilia_search(e, &l, NULL, NULL, NULL), EMILIA_OK);
	/* a node limit, a time limit */
	emilia_limits_init(&l);
	l.nodes = 2000;
	ck_assert_int_eq(emilia_search(e, &l, NULL, NULL, &r), EMILIA_OK);
	ck_assert(is_legal(e, r.move));
	emilia_limits_init(&l);
	l.move_time = 0.05;
	ck_assert_int_eq(emilia_search(e, &l, NULL, NULL, &r), EMILIA_OK);
	ck_assert(is_legal(e, r.move));
	ck_assert_double_lt(r.seconds, 2.0);
	/* bad limits */
	l.struct_size = 0;
	ck_assert_int_eq(emilia_search(e, &l, NULL, NULL, &r), EMILIA_ERR_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(emilia_last_error(e), "emilia_limits_init"));
	l = depth_limit(61);
	ck_assert_int_eq(emilia_search(e, &l, NULL, NULL, &r), EMILIA_ERR_ARGUMENT);
	l = depth_limit(-1);
	ck_assert_int_eq(emilia_search(e, &l, NULL, NULL, &r), EMILIA_ERR_ARGUMENT);
	/* a forced pass, the end of the game */
	ck_assert_int_eq(emilia_set_obf(e, "XO-------------------------------------------------------------- O"), EMILIA_OK);
	ck_assert_int_eq(emilia_search(e, NULL, NULL, NULL, &r), EMILIA_OK);
	ck_assert_int_eq(r.move, EMILIA_PASS);
	ck_assert_int_eq(emilia_set_obf(e, "X--------------------------------------------------------------- X"), EMILIA_OK);
	ck_assert_int_eq(emilia_search(e, NULL, NULL, NULL, &r), EMILIA_ERR_GAME_OVER);
	ck_assert_int_eq(emilia_analyze(e, NULL, 2, NULL, NULL, &r, &seen.calls), EMILIA_ERR_GAME_OVER);
	emilia_destroy(e);
}
END_TEST

START_TEST(api_search_book)
{
	emilia_engine *e = make_engine(1, 1);
	emilia_info r;
	ck_assert_int_eq(emilia_search(e, NULL, NULL, NULL, &r), EMILIA_OK);
	ck_assert_int_eq(r.book, 1);
	ck_assert(is_legal(e, r.move));
	emilia_destroy(e);
	e = make_engine(1, 0);
	emilia_limits l = depth_limit(2);
	ck_assert_int_eq(emilia_search(e, &l, NULL, NULL, &r), EMILIA_OK);
	ck_assert_int_eq(r.book, 0);
	emilia_destroy(e);
}
END_TEST

START_TEST(api_analyze)
{
	emilia_engine *e = make_engine(1, 1); /* the book is not used */
	ck_assert_int_eq(emilia_set_transcript(e, "f5d6c3"), EMILIA_OK);
	int moves[EMILIA_MAX_MOVES], nlegal = 0;
	ck_assert_int_eq(emilia_legal_moves(e, moves, &nlegal), EMILIA_OK);
	emilia_limits l = depth_limit(4);
	emilia_info lines[EMILIA_MAX_MOVES];
	int n = 0;
	Seen seen = { 0 };
	ck_assert_int_eq(emilia_analyze(e, &l, 3, count_info, &seen, lines, &n), EMILIA_OK);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(seen.calls, 4 * 3); /* every iteration, every line */
	for (int i = 0; i < n; i++) {
		ck_assert_int_eq(lines[i].multipv_index, i + 1);
		ck_assert_int_eq(lines[i].depth, 4);
		ck_assert_int_eq(lines[i].book, 0);
		ck_assert(is_legal(e, lines[i].move));
		ck_assert_int_eq(lines[i].pv[0], lines[i].move);
		for (int j = 0; j < i; j++) {
			ck_assert_int_ne(lines[i].move, lines[j].move);
			ck_assert_int_ge(lines[j].score, lines[i].score);
		}
	}
	/* one line from the start, where a search would answer from the book:
	 * searched */
	emilia_info r;
	ck_assert_int_eq(emilia_new_game(e), EMILIA_OK);
	ck_assert_int_eq(emilia_analyze(e, &l, 1, NULL, NULL, lines, &n), EMILIA_OK);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(lines[0].book, 0);
	ck_assert_int_eq(lines[0].depth, 4);
	ck_assert_int_eq(emilia_search(e, &l, NULL, NULL, &r), EMILIA_OK);
	ck_assert_int_eq(r.book, 1);
	ck_assert_int_eq(emilia_set_transcript(e, "f5d6c3"), EMILIA_OK);
	/* more lines than moves: every move */
	ck_assert_int_eq(emilia_analyze(e, &l, EMILIA_MAX_MOVES, NULL, NULL, lines, &n), EMILIA_OK);
	ck_assert_int_eq(n, nlegal);
	/* bad line counts */
	ck_assert_int_eq(emilia_analyze(e, &l, 0, NULL, NULL, lines, &n), EMILIA_ERR_ARGUMENT);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(emilia_analyze(e, &l, EMILIA_MAX_MOVES + 1, NULL, NULL, lines, &n), EMILIA_ERR_ARGUMENT);
	/* multi-PV through emilia_search's limits */
	l.multipv = 2;
	seen = (Seen){ 0 };
	ck_assert_int_eq(emilia_search(e, &l, count_info, &seen, &r), EMILIA_OK);
	ck_assert_int_eq(seen.calls, 4 * 2);
	emilia_destroy(e);
}
END_TEST

START_TEST(api_solve)
{
	emilia_engine *e = make_engine(2, 0);
	ck_assert_int_eq(emilia_set_obf(e, FFO1), EMILIA_OK);
	emilia_info r;
	ck_assert_int_eq(emilia_solve(e, 0, NULL, &r), EMILIA_OK);
	ck_assert_int_eq(r.move, SQ_G8);
	ck_assert_int_eq(r.score, 18);
	ck_assert_int_eq(r.exact, 1);
	ck_assert_int_eq(r.wld, 0);
	ck_assert_uint_gt(r.nodes, 0);
	ck_assert_int_eq(emilia_solve(e, 1, NULL, &r), EMILIA_OK);
	ck_assert_int_eq(r.score, 1);
	ck_assert_int_eq(r.wld, 1);
	ck_assert_int_eq(r.exact, 0);
	ck_assert(is_legal(e, r.move));
	/* the game is not changed */
	char obf[80];
	get_obf(e, obf);
	ck_assert_str_eq(obf, FFO1);
	/* a forced pass: the solve says so, with the score after it */
	ck_assert_int_eq(emilia_set_obf(e, "XXXXXXXOXXXOXXOOXXOXOOXOXXOOOOXOXOXOOXXOXXXOXXOO-XXOXOOO-XOOOOOO X"), EMILIA_OK);
	ck_assert_int_eq(emilia_solve(e, 0, NULL, &r), EMILIA_OK);
	ck_assert_int_eq(r.move, EMILIA_PASS);
	ck_assert_int_eq(r.score, -2);
	ck_assert_int_eq(r.exact, 1);
	/* a finished game: its final score (one disc and 63 empties to the winner) */
	ck_assert_int_eq(emilia_set_obf(e, "X--------------------------------------------------------------- X"), EMILIA_OK);
	ck_assert_int_eq(emilia_solve(e, 0, NULL, &r), EMILIA_OK);
	ck_assert_int_eq(r.move, EMILIA_NO_MOVE);
	ck_assert_int_eq(r.score, 64);
	/* the clock ends a solve that cannot finish */
	ck_assert_int_eq(emilia_new_game(e), EMILIA_OK);
	emilia_limits l;
	emilia_limits_init(&l);
	l.move_time = 0.05;
	ck_assert_int_eq(emilia_solve(e, 0, &l, &r), EMILIA_ERR_STOPPED);
	ck_assert_int_eq(r.exact, 0);
	ck_assert_int_gt(strlen(emilia_last_error(e)), 0);
	l.struct_size = 0;
	ck_assert_int_eq(emilia_solve(e, 0, &l, &r), EMILIA_ERR_ARGUMENT);
	emilia_destroy(e);
}
END_TEST

START_TEST(api_evaluate)
{
	emilia_engine *e = make_engine(1, 0);
	int s = 99;
	ck_assert_int_eq(emilia_evaluate(e, &s), EMILIA_OK);
	ck_assert_int_le(abs(s), 6);
	/* FFO #1: Black is winning by 18 */
	ck_assert_int_eq(emilia_set_obf(e, FFO1), EMILIA_OK);
	ck_assert_int_eq(emilia_evaluate(e, &s), EMILIA_OK);
	ck_assert_int_gt(s, 0);
	ck_assert_int_eq(emilia_set_obf(e, "X--------------------------------------------------------------- O"), EMILIA_OK);
	ck_assert_int_eq(emilia_evaluate(e, &s), EMILIA_OK);
	ck_assert_int_eq(s, -64);
	emilia_destroy(e);
}
END_TEST

START_TEST(api_perft)
{
	emilia_engine *e = make_engine(2, 0);
	uint64_t n = 0;
	static const uint64_t want[] = { 1, 4, 12, 56, 244, 1396, 8200, 55092, 390216 };
	for (int d = 0; d <= 8; d++) {
		ck_assert_int_eq(emilia_perft(e, d, &n), EMILIA_OK);
		ck_assert_uint_eq(n, want[d]);
	}
	ck_assert_int_eq(emilia_perft(e, 61, &n), EMILIA_ERR_ARGUMENT);
	ck_assert_int_eq(emilia_perft(e, -1, &n), EMILIA_ERR_ARGUMENT);
	/* from the current position */
	ck_assert_int_eq(emilia_play(e, SQ_F5), EMILIA_OK);
	ck_assert_int_eq(emilia_perft(e, 2, &n), EMILIA_OK);
	ck_assert_uint_eq(n, 56 / 4); /* the four first moves are symmetric: perft 3 / 4 */
	emilia_destroy(e);
}
END_TEST

/* ---- threads -------------------------------------------------------------------------- */

typedef struct Searcher {
	emilia_engine *e;
	emilia_limits l;
	int solve;
	emilia_status status;
	emilia_info r;
	atomic_int started, done;
} Searcher;

static void started_info(const emilia_info *info, void *user)
{
	Searcher *s = user;
	atomic_store(&s->started, 1);
}

static void *searcher_main(void *arg)
{
	Searcher *s = arg;
	if (s->solve)
		s->status = emilia_solve(s->e, 0, &s->l, &s->r);
	else
		s->status = emilia_search(s->e, &s->l, started_info, s, &s->r);
	atomic_store(&s->done, 1);
	return NULL;
}

static void sleep_ms(int ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&t, NULL);
}

START_TEST(api_stop_from_another_thread)
{
	emilia_engine *e = make_engine(2, 0);
	/* a stop while nothing runs does nothing, and does not cancel the
	 * next search */
	emilia_stop(e);
	emilia_limits l = depth_limit(3);
	emilia_info r;
	ck_assert_int_eq(emilia_search(e, &l, NULL, NULL, &r), EMILIA_OK);
	ck_assert_int_eq(r.depth, 3);

	/* an infinite search returns with a legal move once stopped; the stop
	 * returns after the search did */
	Searcher s = { .e = e };
	emilia_limits_init(&s.l);
	s.l.infinite = 1;
	atomic_init(&s.started, 0);
	atomic_init(&s.done, 0);
	pthread_t tid;
	ck_assert_int_eq(pthread_create(&tid, NULL, searcher_main, &s), 0);
	sleep_ms(50);
	emilia_stop(e);
	/* the stop may come before the search began: then it did nothing */
	while (!atomic_load(&s.done)) {
		sleep_ms(20);
		emilia_stop(e);
	}
	pthread_join(tid, NULL);
	ck_assert_int_eq(s.status, EMILIA_OK);
	ck_assert(is_legal(e, s.r.move));

	/* a solve that cannot finish, stopped */
	Searcher v = { .e = e, .solve = 1 };
	emilia_limits_init(&v.l);
	atomic_init(&v.started, 0);
	atomic_init(&v.done, 0);
	ck_assert_int_eq(pthread_create(&tid, NULL, searcher_main, &v), 0);
	while (!atomic_load(&v.done)) {
		sleep_ms(30);
		emilia_stop(e);
	}
	pthread_join(tid, NULL);
	ck_assert_int_eq(v.status, EMILIA_ERR_STOPPED);
	emilia_destroy(e);
}
END_TEST

static void stop_in_callback(const emilia_info *info, void *user)
{
	if (info->depth >= 2)
		emilia_stop(user);
}

START_TEST(api_stop_from_callback)
{
	emilia_engine *e = make_engine(1, 0);
	emilia_limits l;
	emilia_limits_init(&l);
	l.infinite = 1;
	emilia_info r;
	ck_assert_int_eq(emilia_search(e, &l, stop_in_callback, e, &r), EMILIA_OK);
	ck_assert(is_legal(e, r.move));
	ck_assert_int_ge(r.depth, 2);
	emilia_destroy(e);
}
END_TEST

/* Two engines searching at once in two threads give what each gives
 * alone. */
START_TEST(api_two_engines_two_threads)
{
	static const char *const games[2] = { "f5d6c3d3c4f4", "f5f6e6f4e3" };
	emilia_info alone[2];
	for (int i = 0; i < 2; i++) {
		emilia_engine *e = make_engine(1, 0);
		ck_assert_int_eq(emilia_set_transcript(e, games[i]), EMILIA_OK);
		emilia_limits l = depth_limit(6);
		ck_assert_int_eq(emilia_search(e, &l, NULL, NULL, &alone[i]), EMILIA_OK);
		emilia_destroy(e);
	}
	Searcher s[2];
	pthread_t tid[2];
	for (int i = 0; i < 2; i++) {
		memset(&s[i], 0, sizeof s[i]);
		s[i].e = make_engine(1, 0);
		ck_assert_int_eq(emilia_set_transcript(s[i].e, games[i]), EMILIA_OK);
		s[i].l = depth_limit(6);
		atomic_init(&s[i].started, 0);
		atomic_init(&s[i].done, 0);
	}
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&tid[i], NULL, searcher_main, &s[i]), 0);
	for (int i = 0; i < 2; i++) {
		pthread_join(tid[i], NULL);
		ck_assert_int_eq(s[i].status, EMILIA_OK);
		ck_assert_int_eq(s[i].r.move, alone[i].move);
		ck_assert_int_eq(s[i].r.score, alone[i].score);
		emilia_destroy(s[i].e);
	}
}
END_TEST

static Suite *api_suite(void)
{
	Suite *s = suite_create("api");
	TCase *tc = tcase_create("api");
	tcase_add_test(tc, api_version);
	tcase_add_test(tc, api_strerror);
	tcase_add_test(tc, api_create_options);
	tcase_add_test(tc, api_create_files);
	tcase_add_test(tc, api_null_handles);
	tcase_add_test(tc, api_setters);
	tcase_add_test(tc, api_transcript);
	tcase_add_test(tc, api_obf);
	tcase_add_test(tc, api_moves_play_undo);
	tcase_add_test(tc, api_move_names);
	tcase_add_test(tc, api_board_6x6_and_anti);
	tcase_add_test(tc, api_search);
	tcase_add_test(tc, api_search_book);
	tcase_add_test(tc, api_analyze);
	tcase_add_test(tc, api_solve);
	tcase_add_test(tc, api_evaluate);
	tcase_add_test(tc, api_perft);
	tcase_add_test(tc, api_stop_from_another_thread);
	tcase_add_test(tc, api_stop_from_callback);
	tcase_add_test(tc, api_two_engines_two_threads);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(api_suite)
