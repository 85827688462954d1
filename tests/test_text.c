/*
 * Text formats (text.h): squares, moves, transcripts, OBF lines, board
 * pictures.  Good input gives the exact value; bad input gives the exact
 * message and leaves the output untouched (transcripts: all or nothing);
 * huge and binary inputs neither crash nor overflow (run under ASan by
 * `make test-debug`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "text.h"

/* The perfect-play line of lines.txt (a 60-move draw). */
static const char perfect[] = "F5D6C3D3C4F4F6F3E6E7D7C5B6D8C6C7D2B5A5A6A7G5E3B4C8G6G4C2E8D1"
                              "F7E2G3H4F1E1F2G1B1F8G8B3H3B2H5B7A3A4A1A2C1H2H1G2B8A8G7H8H7H6";

/* ---- squares and moves ----------------------------------------------------- */

START_TEST(squares_parse_and_print)
{
	for (int size = 4; size <= 8; size += 2)
		for (int sq = 0; sq < 64; sq++) {
			char lo[5], up[5];
			text_square(sq, lo);
			text_square_upper(sq, up);
			ck_assert_int_eq(lo[0], 'a' + sq % 8);
			ck_assert_int_eq(lo[1], '1' + sq / 8);
			ck_assert_int_eq(lo[2], 0);
			ck_assert_int_eq(up[0], 'A' + sq % 8);
			bool inside = sq % 8 < size && sq / 8 < size;
			ck_assert_int_eq(text_parse_square(lo, size), inside ? sq : -1);
			ck_assert_int_eq(text_parse_square(up, size), inside ? sq : -1);
			ck_assert_int_eq(text_parse_move(up, size), inside ? sq : -1);
		}
	ck_assert_int_eq(text_parse_square("f5", 8), 4 * 8 + 5);
	ck_assert_int_eq(text_parse_square("a1", 8), 0);
	ck_assert_int_eq(text_parse_square("H8", 8), 63);
	char p[5];
	text_square(BOARD_PASS, p);
	ck_assert_str_eq(p, "pass");
	text_square_upper(BOARD_PASS, p);
	ck_assert_str_eq(p, "PASS");
}
END_TEST

START_TEST(bad_squares_and_moves_are_rejected)
{
	static const char *const bad[] = {
		"", "a", "5", "a0", "a9", "i1", "z9", "a10", "aa", "11", "f5 ", " f5", "f-5", "@1", "`1",
		"\xff\xfe", "f\xb5", "pas", "passs", "p", "-", "---", "@", "0", "h0", "\t",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_msg(text_parse_square(bad[i], 8) == -1, "square '%s' accepted", bad[i]);
		ck_assert_msg(text_parse_move(bad[i], 8) == -1, "move '%s' accepted", bad[i]);
	}
	ck_assert_int_eq(text_parse_square(NULL, 8), -1);
	ck_assert_int_eq(text_parse_move(NULL, 8), -1);
	ck_assert_int_eq(text_parse_square("g1", 6), -1);
	ck_assert_int_eq(text_parse_square("a7", 6), -1);
	ck_assert_int_eq(text_parse_square("f6", 6), 5 * 8 + 5);
	ck_assert_int_eq(text_parse_square("e1", 4), -1);
	ck_assert_int_eq(text_parse_square("d4", 4), 3 * 8 + 3);
	static const char *const passes[] = { "pass", "PASS", "Pass", "pa", "PA", "--", "@@", "ps" };
	for (size_t i = 0; i < sizeof passes / sizeof passes[0]; i++)
		ck_assert_int_eq(text_parse_move(passes[i], 8), BOARD_PASS);
}
END_TEST

/* ---- transcripts ---------------------------------------------------------- */


/* Applies s to a copy of *g expecting failure with message msg; the game
 * must come back byte for byte unchanged. */
static void expect_transcript_error(const Game *g, const char *s, const char *msg)
{
	Game t = *g;
	char err[TEXT_ERR] = "";
	ck_assert_msg(!text_apply_transcript(&t, s, err), "accepted: %.60s", s);
	ck_assert_str_eq(err, msg);
	assert_same_game(&t, g);
}

START_TEST(transcripts_apply_in_any_case_and_spacing)
{
	Game a, b, c;
	char err[TEXT_ERR];
	game_init(&a, 8, VARIANT_NORMAL);
	game_init(&b, 8, VARIANT_NORMAL);
	game_init(&c, 8, VARIANT_NORMAL);
	ck_assert_msg(text_apply_transcript(&a, perfect, err), "%s", err);
	ck_assert_int_eq(a.nply, 60);
	ck_assert(game_is_over(&a));
	char lower[sizeof perfect], spaced[3 * sizeof perfect];
	size_t k = 0;
	for (size_t i = 0; perfect[i]; i++) {
		lower[i] = (char)(perfect[i] >= 'A' && perfect[i] <= 'Z' ? perfect[i] + 32 : perfect[i]);
		lower[i + 1] = 0;
		spaced[k++] = (i & 1) ? perfect[i] : lower[i];
		if (i & 1)
			spaced[k++] = i % 4 == 1 ? ' ' : i % 4 == 3 ? ',' : ' ';
	}
	spaced[k] = 0;
	ck_assert(text_apply_transcript(&b, lower, err));
	ck_assert(text_apply_transcript(&c, spaced, err));
	assert_same_game(&a, &b);
	assert_same_game(&a, &c);
	char out[2 * GAME_MAX_PLY + 1];
	text_transcript(&a, out);
	ck_assert_str_eq(out, lower);

	/* in pieces: the same as all at once */
	Game d;
	game_init(&d, 8, VARIANT_NORMAL);
	ck_assert(text_apply_transcript(&d, "f5d6c3", err));
	ck_assert(text_apply_transcript(&d, "", err));
	ck_assert(text_apply_transcript(&d, "   ", err));
	ck_assert(text_apply_transcript(&d, lower + 6, err));
	assert_same_game(&a, &d);
}
END_TEST

START_TEST(explicit_passes_are_accepted_only_when_forced)
{
	/* wipe-out line: Black passes after White's a7 */
	Game a, b;
	char err[TEXT_ERR];
	game_init(&a, 8, VARIANT_NORMAL);
	game_init(&b, 8, VARIANT_NORMAL);
	ck_assert(text_apply_transcript(&a, "F5d6C4g5D7c7H5d8B8b7B6a7b5A6", err));
	ck_assert_msg(text_apply_transcript(&b, "F5d6C4g5D7c7H5d8B8b7B6a7 pass b5A6", err), "%s", err);
	assert_same_game(&a, &b);
	game_init(&b, 8, VARIANT_NORMAL);
	ck_assert_msg(text_apply_transcript(&b, "F5d6C4g5D7c7H5d8B8b7B6a7--b5A6", err), "%s", err);
	assert_same_game(&a, &b);
	game_init(&b, 8, VARIANT_NORMAL);
	ck_assert_msg(text_apply_transcript(&b, "F5d6C4g5D7c7H5d8B8b7B6a7PAb5A6", err), "%s", err);
	assert_same_game(&a, &b);

	game_init(&b, 8, VARIANT_NORMAL);
	expect_transcript_error(&b, "f5 pass", "illegal pass at move 2: a move is available");
	expect_transcript_error(&b, "pass", "illegal pass at move 1: a move is available");
	expect_transcript_error(&b, "F5d6C4g5D7c7H5d8B8b7B6 pass", "illegal pass at move 12: a move is available");
}
END_TEST

START_TEST(transcript_errors_say_what_and_where)
{
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	expect_transcript_error(&g, "f5d6c3d3c4f4z9", "invalid square 'z9' at move 7");
	expect_transcript_error(&g, "F5D6C3D3C4F4F6F3E6E7D7d3", "illegal move d3 at move 12");
	expect_transcript_error(&g, "d3d3", "illegal move d3 at move 2");
	expect_transcript_error(&g, "a1", "illegal move a1 at move 1");
	expect_transcript_error(&g, "f5d", "invalid square 'd' at move 2");
	expect_transcript_error(&g, "f5 d 6", "invalid square 'd ' at move 2");
	expect_transcript_error(&g, "f5i9", "invalid square 'i9' at move 2");
	expect_transcript_error(&g, "f5\xff\x01", "invalid square '\\xff\\x01' at move 2");
	expect_transcript_error(&g, "f5;d6;c3;zz", "invalid square 'zz' at move 4");
	/* the game is over after the 60th move */
	char buf[256];
	snprintf(buf, sizeof buf, "%sa1", perfect);
	expect_transcript_error(&g, buf, "illegal move a1 at move 61: the game is over");
	snprintf(buf, sizeof buf, "%spass", perfect);
	expect_transcript_error(&g, buf, "illegal pass at move 61: the game is over");
	/* 6x6: squares outside the board are invalid */
	Game s;
	game_init(&s, 6, VARIANT_NORMAL);
	expect_transcript_error(&s, "c2g1", "invalid square 'g1' at move 2");
	expect_transcript_error(&s, "c2b4c5d2e4e3d1c1b1d5d6f4b3b2f3f2e2b6a4c6a6a2b5a5e6e5a3a1f5f6e1f1a1",
	                        "illegal move a1 at move 33: the game is over");
	/* on a game in progress: untouched, and the count starts afresh */
	char err[TEXT_ERR];
	ck_assert(text_apply_transcript(&g, "f5d6", err));
	expect_transcript_error(&g, "c3 c3", "illegal move c3 at move 2");
	expect_transcript_error(&g, NULL, "no transcript");
}
END_TEST

START_TEST(huge_and_binary_transcripts)
{
	const size_t n = 1 << 20;
	char *s = malloc(n + 1);
	ck_assert_ptr_nonnull(s);
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	char err[TEXT_ERR];

	memset(s, ' ', n);
	s[n] = 0;
	Game before = g;
	ck_assert(text_apply_transcript(&g, s, err)); /* only spaces: no move, no change */
	assert_same_game(&g, &before);

	for (size_t i = 0; i < n; i += 2)
		memcpy(s + i, "f5", 2);
	expect_transcript_error(&g, s, "illegal move f5 at move 2");

	/* the whole perfect game, then a megabyte of padding, then one move */
	memset(s, ' ', n);
	memcpy(s, perfect, strlen(perfect));
	memcpy(s + n - 2, "a1", 2);
	expect_transcript_error(&g, s, "illegal move a1 at move 61: the game is over");

	/* binary garbage (no NUL inside): an error, never a crash */
	uint64_t rs = 99;
	for (int round = 0; round < 200; round++) {
		size_t len = 1 + test_rand(&rs) % 4000;
		for (size_t i = 0; i < len; i++) {
			s[i] = (char)(test_rand(&rs) & 0xFF);
			if (!s[i])
				s[i] = '\x80';
		}
		s[len] = 0;
		Game t = g;
		if (!text_apply_transcript(&t, s, err)) {
			assert_same_game(&t, &g);
			ck_assert(strlen(err) > 0 && strlen(err) < TEXT_ERR);
		}
	}
	free(s);
}
END_TEST

/* ---- OBF -------------------------------------------------------------------- */

START_TEST(obf_parses_ffo_lines)
{
	/* FFO #40 and #41 as distributed (side to move, then MOVE:score) */
	const char *l40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36; "
	                  "D8:+34; C1:+30; B1:+30; G7:+28; D7:+28; C6:+28; F7:+26; A6:+24;";
	ObfPosition pos;
	char err[TEXT_ERR] = "";
	ck_assert_msg(text_parse_obf(l40, 8, &pos, err), "%s", err);
	ck_assert_int_eq(pos.side, BLACK);
	ck_assert_int_eq(bit_count(pos.board.p), 12);  /* X */
	ck_assert_int_eq(bit_count(pos.board.o), 32);  /* O: 20 empties */
	ck_assert_uint_eq(pos.board.p & bit_of(7), bit_of(7)); /* h1 is X */
	ck_assert_uint_eq(pos.board.o & 1, 1);                 /* a1 is O */
	ck_assert_int_eq(pos.nexpected, 10);
	ck_assert_int_eq(pos.expected_move[0], text_parse_square("a2", 8));
	ck_assert_int_eq(pos.expected_score[0], 38);
	ck_assert_int_eq(pos.expected_move[9], text_parse_square("a6", 8));
	ck_assert_int_eq(pos.expected_score[9], 24);

	const char *l41 = "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X; H4:+0; H3:-2;";
	ck_assert(text_parse_obf(l41, 8, &pos, err));
	ck_assert_int_eq(pos.nexpected, 2);
	ck_assert_int_eq(pos.expected_score[0], 0);
	ck_assert_int_eq(pos.expected_score[1], -2);
	/* white to move, '.' empties, comment */
	ck_assert(text_parse_obf("...........................OX......XO........................... O % c", 8, &pos,
	                         err));
	ck_assert_int_eq(pos.side, WHITE);
	ck_assert_uint_eq(pos.board.p, bit_of(27) | bit_of(36));
	ck_assert_uint_eq(pos.board.o, bit_of(28) | bit_of(35));
	ck_assert_int_eq(pos.nexpected, 0);
	/* 6x6 and 4x4: 36 and 16 squares */
	ck_assert(text_parse_obf("--------------OX----XO-------------- X", 6, &pos, err));
	Board s6 = board_start(6);
	ck_assert_uint_eq(pos.board.p, s6.p);
	ck_assert_uint_eq(pos.board.o, s6.o);
	ck_assert(text_parse_obf("-----OX--XO----- X", 4, &pos, err));
	Board s4 = board_start(4);
	ck_assert_uint_eq(pos.board.p, s4.p);
	ck_assert_uint_eq(pos.board.o, s4.o);
}
END_TEST

START_TEST(obf_round_trips_random_positions)
{
	uint64_t rs = 5;
	for (int size = 4; size <= 8; size += 2) {
		const uint64_t geo = board_geometry(size);
		for (int game = 0; game < 50; game++) {
			Board b = board_start(size);
			int side = BLACK;
			for (;;) {
				char line[80];
				ObfPosition pos;
				char err[TEXT_ERR];
				text_write_obf(b, side, size, line);
				ck_assert_int_eq((int)strlen(line), size * size + 2);
				ck_assert_msg(text_parse_obf(line, size, &pos, err), "%s: %s", line, err);
				ck_assert_uint_eq(pos.board.p, b.p);
				ck_assert_uint_eq(pos.board.o, b.o);
				ck_assert_int_eq(pos.side, side);
				uint64_t m = board_moves(b.p, b.o) & geo;
				if (!m) {
					if (!(board_moves(b.o, b.p) & geo))
						break;
					b = board_pass(b);
					side ^= 1;
					continue;
				}
				int k = (int)(test_rand(&rs) % (uint64_t)bit_count(m));
				while (k--)
					m = bit_pop(m);
				int sq = bit_first(m);
				b = board_apply(b, sq, board_flips(b.p, b.o, sq));
				side ^= 1;
			}
		}
	}
}
END_TEST

static void expect_obf_error(const char *line, int size, const char *msg)
{
	ObfPosition pos, before;
	memset(&pos, 0x5A, sizeof pos);
	before = pos;
	char err[TEXT_ERR] = "";
	ck_assert_msg(!text_parse_obf(line, size, &pos, err), "accepted: %.70s", line ? line : "(null)");
	ck_assert_str_eq(err, msg);
	ck_assert_mem_eq(&pos, &before, sizeof pos);
}

START_TEST(obf_errors_say_what_and_where)
{
	const char *b64 = "---------------------------OX------XO---------------------------";
	char line[256];
	snprintf(line, sizeof line, "%.63s X", b64);
	expect_obf_error(line, 8, "board has 63 squares, expected 64");
	snprintf(line, sizeof line, "%s- X", b64);
	expect_obf_error(line, 8, "board has 65 squares, expected 64");
	expect_obf_error("", 8, "board has 0 squares, expected 64");
	expect_obf_error(b64, 8, "missing side to move (X or O) at column 65");
	snprintf(line, sizeof line, "%s Q", b64);
	expect_obf_error(line, 8, "missing side to move (X or O) at column 66");
	snprintf(line, sizeof line, "%s XO", b64);
	expect_obf_error(line, 8, "unexpected character after side to move at column 67");
	snprintf(line, sizeof line, "%.10sZ%s X", b64, b64 + 11);
	expect_obf_error(line, 8, "invalid square character 'Z' at column 11");
	snprintf(line, sizeof line, "%.10s\x01%s X", b64, b64 + 11);
	expect_obf_error(line, 8, "invalid square character '\\x01' at column 11");
	snprintf(line, sizeof line, "%s X; A2+38;", b64);
	expect_obf_error(line, 8, "malformed move:score pair at column 69");
	snprintf(line, sizeof line, "%s X; Z9:+38;", b64);
	expect_obf_error(line, 8, "malformed move:score pair at column 69");
	snprintf(line, sizeof line, "%s X; A2:;", b64);
	expect_obf_error(line, 8, "malformed move:score pair at column 69");
	snprintf(line, sizeof line, "%s X; A2:+99;", b64);
	expect_obf_error(line, 8, "malformed move:score pair at column 69");
	expect_obf_error(b64, 6, "board has 64 squares, expected 36");
	expect_obf_error(NULL, 8, "no OBF line");
}
END_TEST

/* The one diagram reader behind OBF, UGI positions and GGF's BO. */
START_TEST(diagram_reader_counts_squares_and_stops_where_it_should)
{
	uint64_t black, white;
	size_t end;
	/* every alphabet, row by row from a1: a1 X, b1 *, c1 B, a2 O, b2 W,
	 * and one character past the 64 squares that is not read */
	char d[80];
	snprintf(d, sizeof d, "X*B-----OW%s-----Q", "-------------------------------------------------");
	ck_assert_int_eq(strlen(d), 65);
	ck_assert_int_eq(text_read_diagram(d, 8, false, &black, &white, &end), 64);
	ck_assert_int_eq(end, 64);
	ck_assert_uint_eq(black, 0x7ULL);
	ck_assert_uint_eq(white, (1ULL << 8) | (1ULL << 9));
	ck_assert_int_eq(text_read_diagram("x.b_ow", 2, false, &black, &white, &end), 4);
	ck_assert_int_eq(end, 4);  /* 2x2: a1 b1 (bits 0, 1), then a2 b2 (bits 8, 9) */
	ck_assert_uint_eq(black, 0x1ULL | (1ULL << 8));
	ck_assert_uint_eq(white, 0);
	/* blanks between squares only where asked for */
	ck_assert_int_eq(text_read_diagram("XO OX *", 2, true, &black, &white, &end), 4);
	ck_assert_int_eq(end, 5);
	ck_assert_uint_eq(black, 0x1ULL | (1ULL << 9));
	ck_assert_uint_eq(white, 0x2ULL | (1ULL << 8));
	ck_assert_int_eq(text_read_diagram("XO OX", 2, false, &black, &white, &end), 2);
	ck_assert_int_eq(end, 2);
	/* a bad character: the count so far and where it is */
	ck_assert_int_eq(text_read_diagram("--Z-", 2, false, &black, &white, &end), 2);
	ck_assert_int_eq(end, 2);
	ck_assert_int_eq(text_read_diagram("", 8, true, &black, &white, &end), 0);
	ck_assert_int_eq(end, 0);
	/* sides: discs only, never an empty */
	ck_assert_int_eq(text_side_char('*'), BLACK);
	ck_assert_int_eq(text_side_char('w'), WHITE);
	ck_assert_int_eq(text_side_char('-'), TEXT_NOT_SQUARE);
	ck_assert_int_eq(text_square_char('_'), TEXT_EMPTY);
	ck_assert_int_eq(text_square_char('Z'), TEXT_NOT_SQUARE);
}
END_TEST

START_TEST(obf_huge_and_binary_lines)
{
	const size_t n = 1 << 20;
	char *s = malloc(n + 1);
	ck_assert_ptr_nonnull(s);
	memset(s, '-', n);
	s[n] = 0;
	expect_obf_error(s, 8, "board has 1048576 squares, expected 64");
	uint64_t rs = 3;
	ObfPosition pos;
	char err[TEXT_ERR];
	for (int round = 0; round < 500; round++) {
		size_t len = 1 + test_rand(&rs) % 300;
		for (size_t i = 0; i < len; i++) {
			s[i] = (char)(test_rand(&rs) & 0xFF);
			if (!s[i])
				s[i] = 'X';
		}
		s[len] = 0;
		if (!text_parse_obf(s, 8, &pos, err))
			ck_assert(strlen(err) > 0 && strlen(err) < TEXT_ERR);
	}
	/* a valid board followed by a megabyte of score pairs: only the first
	 * TEXT_OBF_MAX_MOVES are kept */
	const char *b64 = "---------------------------OX------XO---------------------------";
	size_t k = (size_t)sprintf(s, "%s X;", b64);
	while (k + 8 < n)
		k += (size_t)sprintf(s + k, " D3:+2;");
	ck_assert_msg(text_parse_obf(s, 8, &pos, err), "%s", err);
	ck_assert_int_eq(pos.nexpected, TEXT_OBF_MAX_MOVES);
	free(s);
}
END_TEST

/* ---- pictures ----------------------------------------------------------------- */

START_TEST(board_picture_is_exact)
{
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	char buf[2048];
	size_t n = text_board_picture(&g, true, buf, sizeof buf);
	const char *want = "   A B C D E F G H\n"
	                   " 1 - - - - - - - - 1   Black (X) to move\n"
	                   " 2 - - - - - - - - 2   Black 2  White 2\n"
	                   " 3 - - - . - - - - 3\n"
	                   " 4 - - . O X - - - 4\n"
	                   " 5 - - - X O . - - 5\n"
	                   " 6 - - - - . - - - 6\n"
	                   " 7 - - - - - - - - 7\n"
	                   " 8 - - - - - - - - 8\n"
	                   "   A B C D E F G H\n";
	ck_assert_str_eq(buf, want);
	ck_assert_uint_eq(n, strlen(want));
	game_init(&g, 4, VARIANT_NORMAL);
	n = text_board_picture(&g, false, buf, sizeof buf);
	ck_assert_str_eq(buf, "   A B C D\n"
	                      " 1 - - - - 1   Black (X) to move\n"
	                      " 2 - O X - 2   Black 2  White 2\n"
	                      " 3 - X O - 3\n"
	                      " 4 - - - - 4\n"
	                      "   A B C D\n");
	/* a finished game: nobody to move */
	char err[TEXT_ERR];
	game_init(&g, 8, VARIANT_NORMAL);
	ck_assert(text_apply_transcript(&g, "d3c3b3d2e1d6d7e3f4", err));
	text_board_picture(&g, true, buf, sizeof buf);
	ck_assert_ptr_nonnull(strstr(buf, " 1 - - - - X - - - 1   nobody to move\n"));
	ck_assert_ptr_nonnull(strstr(buf, "Black 13  White 0\n"));
	/* small buffers: truncated, terminated, never overrun */
	for (size_t len = 1; len < 64; len++) {
		char small[80];
		memset(small, '#', sizeof small);
		size_t w = text_board_picture(&g, true, small, len);
		ck_assert_uint_eq(w, len - 1);
		ck_assert_uint_eq(strlen(small), len - 1);
		for (size_t i = len; i < sizeof small; i++)
			ck_assert_int_eq(small[i], '#');
	}
}
END_TEST

static Suite *text_suite(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("text");
	tcase_add_test(tc, squares_parse_and_print);
	tcase_add_test(tc, bad_squares_and_moves_are_rejected);
	tcase_add_test(tc, transcripts_apply_in_any_case_and_spacing);
	tcase_add_test(tc, explicit_passes_are_accepted_only_when_forced);
	tcase_add_test(tc, transcript_errors_say_what_and_where);
	tcase_add_test(tc, huge_and_binary_transcripts);
	tcase_add_test(tc, obf_parses_ffo_lines);
	tcase_add_test(tc, obf_round_trips_random_positions);
	tcase_add_test(tc, obf_errors_say_what_and_where);
	tcase_add_test(tc, diagram_reader_counts_squares_and_stops_where_it_should);
	tcase_add_test(tc, obf_huge_and_binary_lines);
	tcase_add_test(tc, board_picture_is_exact);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(text_suite)
