/*
 * The rules of a whole game (game.h): the oracle lines of
 * tests/data/lines.txt replayed to their stated results under every
 * scoring convention and in the Anti variant, the exact set of games that
 * end within 10 moves (tests/data/short-games.tsv), and the semantics of
 * play, pass, implicit pass and undo.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "game.h"
#include "text.h"


/* ---- lines.txt ---------------------------------------------------------- */

typedef struct Expect {
	const char *title;  /* start of the [title] in lines.txt */
	int size;
	int moves;          /* moves in the line (passes not counted) */
	int passes;         /* -1: not stated */
	bool over;
	int black, white;   /* plain counts */
	int black_off, white_off; /* winner takes the empties; -1 if not applicable */
	int empties;
} Expect;

/* The results as lines.txt states them in words. */
static const Expect expects[] = {
	{ "8x8 perfect play", 8, 60, 0, true, 32, 32, 32, 32, 0 },
	{ "6x6 perfect play", 6, 32, 1, true, 16, 20, 16, 20, 0 },
	{ "4x4 perfect play", 4, 10, -1, true, 3, 11, 3, 13, 2 },
	{ "Shortest draw", 8, 20, 0, true, 12, 12, 32, 32, 40 },
	{ "Shortest Stoner trap", 8, 13, -1, false, 9, 8, -1, -1, 47 },
	{ "Shortest games", 8, 9, 0, true, 13, 0, 64, 0, 51 },
	{ "Wipe-out with 23 passes", 8, 55, 23, true, 0, 59, 0, 64, 5 },
};
enum { NEXPECT = sizeof expects / sizeof expects[0] };

typedef struct Line {
	char title[256];
	char moves[512];
} Line;

/* Each "[title] ..." line is followed (after '#' comments) by one line of
 * moves. */
static int load_lines(Line *out, int max)
{
	FILE *f = fopen(test_data("lines.txt"), "r");
	ck_assert_msg(f != NULL, "cannot open %s", test_data("lines.txt"));
	char buf[1024];
	int n = 0;
	bool want_moves = false;
	while (fgets(buf, sizeof buf, f)) {
		buf[strcspn(buf, "\r\n")] = 0;
		if (buf[0] == '#' || buf[0] == 0)
			continue;
		if (buf[0] == '[') {
			ck_assert_int_lt(n, max);
			ck_assert_int_lt((int)strlen(buf), (int)sizeof out[n].title);
			memcpy(out[n].title, buf + 1, strlen(buf));
			want_moves = true;
			continue;
		}
		ck_assert_msg(want_moves, "moves without a title: %s", buf);
		ck_assert_int_lt((int)strlen(buf), (int)sizeof out[n].moves);
		memcpy(out[n].moves, buf, strlen(buf) + 1);
		n++;
		want_moves = false;
	}
	fclose(f);
	return n;
}

static const Expect *expect_for(const char *title)
{
	for (int i = 0; i < NEXPECT; i++)
		if (!strncmp(title, expects[i].title, strlen(expects[i].title)))
			return &expects[i];
	return NULL;
}

static int count_passes(const Game *g)
{
	int n = 0;
	for (int i = 0; i < g->nply; i++)
		n += g->hist[i].move == BOARD_PASS;
	return n;
}

/* Replays a line move by move with game_play, passing explicitly when
 * the side to move has no move. */
static void replay_by_hand(Game *g, const char *moves)
{
	for (size_t i = 0; moves[i]; i += 2) {
		char sq[3] = { moves[i], moves[i + 1], 0 };
		int mv = text_parse_square(sq, g->size);
		ck_assert_int_ge(mv, 0);
		if (game_must_pass(g))
			ck_assert_int_eq(game_play(g, BOARD_PASS), GAME_OK);
		ck_assert_int_eq(game_play(g, mv), GAME_OK);
	}
	if (game_must_pass(g))
		ck_assert_int_eq(game_play(g, BOARD_PASS), GAME_OK);
}

static void check_result(const Game *g, const Expect *e)
{
	int b, w;
	ck_assert_int_eq(game_is_over(g), e->over);
	ck_assert_int_eq(game_empties(g), e->empties);
	game_counts(g, SCORING_PLAIN, &b, &w);
	ck_assert_int_eq(b, e->black);
	ck_assert_int_eq(w, e->white);
	ck_assert_int_eq(game_discs(g, BLACK), e->black);
	ck_assert_int_eq(game_discs(g, WHITE), e->white);
	ck_assert_int_eq(game_margin(g, SCORING_PLAIN), e->black - e->white);
	int winner = e->black > e->white ? BLACK : e->black < e->white ? WHITE : -1;
	ck_assert_int_eq(game_winner(g), winner);
	if (e->black_off >= 0) {
		game_counts(g, SCORING_OFFICIAL, &b, &w);
		ck_assert_int_eq(b, e->black_off);
		ck_assert_int_eq(w, e->white_off);
		ck_assert_int_eq(b + w, e->size * e->size);
		ck_assert_int_eq(game_margin(g, SCORING_OFFICIAL), e->black_off - e->white_off);
	}
	/* Anti: the same moves and the same end; fewer discs wins and the
	 * counts stand as they are under either convention. */
	Game a = *g;
	a.variant = VARIANT_ANTI;
	for (int s = SCORING_PLAIN; s <= SCORING_OFFICIAL; s++) {
		game_counts(&a, (Scoring)s, &b, &w);
		ck_assert_int_eq(b, e->black);
		ck_assert_int_eq(w, e->white);
		ck_assert_int_eq(game_margin(&a, (Scoring)s), e->white - e->black);
	}
	ck_assert_int_eq(game_winner(&a), winner < 0 ? -1 : winner ^ 1);
	if (e->over) {
		/* the solver's view: side to move's final score */
		int me = g->side == BLACK ? e->black : e->white, you = g->side == BLACK ? e->white : e->black;
		int d = me - you;
		ck_assert_int_eq(board_final_score(g->board, g->size, VARIANT_ANTI), you - me);
		ck_assert_int_eq(board_final_score(g->board, g->size, VARIANT_NORMAL),
		                 d > 0 ? d + e->empties : d < 0 ? d - e->empties : 0);
	}
}

START_TEST(oracle_lines_replay_to_their_results)
{
	Line lines[16];
	int n = load_lines(lines, 16);
	ck_assert_int_eq(n, NEXPECT);
	bool seen[NEXPECT] = { false };
	for (int i = 0; i < n; i++) {
		const Expect *e = expect_for(lines[i].title);
		ck_assert_msg(e != NULL, "no expectation for [%s", lines[i].title);
		seen[e - expects] = true;
		ck_assert_int_eq((int)strlen(lines[i].moves), 2 * e->moves);

		Game g, h;
		char err[TEXT_ERR] = "";
		game_init(&g, e->size, VARIANT_NORMAL);
		ck_assert_msg(text_apply_transcript(&g, lines[i].moves, err), "%s: %s", e->title, err);
		check_result(&g, e);
		ck_assert_int_eq(g.nply - count_passes(&g), e->moves);
		if (e->passes >= 0)
			ck_assert_int_eq(count_passes(&g), e->passes);

		/* the same game played move by move */
		game_init(&h, e->size, VARIANT_NORMAL);
		replay_by_hand(&h, lines[i].moves);
		ck_assert_uint_eq(h.board.p, g.board.p);
		ck_assert_uint_eq(h.board.o, g.board.o);
		ck_assert_int_eq(h.side, g.side);
		ck_assert_int_eq(h.nply, g.nply);

		/* the transcript printed back is the line, lower case */
		char tr[2 * GAME_MAX_PLY + 1], low[512];
		text_transcript(&g, tr);
		for (size_t k = 0; k <= strlen(lines[i].moves); k++)
			low[k] = (char)(lines[i].moves[k] >= 'A' && lines[i].moves[k] <= 'Z' ? lines[i].moves[k] + 32
			                                                                        : lines[i].moves[k]);
		ck_assert_str_eq(tr, low);

		/* undo everything: back at the start, exactly */
		int plies = g.nply;
		for (int k = 0; k < plies; k++)
			ck_assert(game_undo(&g));
		ck_assert(!game_undo(&g));
		Board s = board_start(e->size);
		ck_assert_uint_eq(g.board.p, s.p);
		ck_assert_uint_eq(g.board.o, s.o);
		ck_assert_int_eq(g.side, BLACK);
	}
	for (int i = 0; i < NEXPECT; i++)
		ck_assert_msg(seen[i], "line [%s missing from lines.txt", expects[i].title);
}
END_TEST

/* The wipe-out line writes Black's moves in upper case and White's in
 * lower case: playing each move for its colour with game_play_colour makes
 * every one of the 23 passes implicit. */
START_TEST(wipe_out_by_colour_with_implicit_passes)
{
	Line lines[16];
	int n = load_lines(lines, 16);
	const char *mv = NULL;
	for (int i = 0; i < n; i++)
		if (!strncmp(lines[i].title, "Wipe-out", 8))
			mv = lines[i].moves;
	ck_assert_ptr_nonnull(mv);
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	int black_passes = 0, white_passes = 0;
	for (size_t i = 0; mv[i]; i += 2) {
		int colour = mv[i] >= 'A' && mv[i] <= 'Z' ? BLACK : WHITE;
		char sq[3] = { mv[i], mv[i + 1], 0 };
		int s = text_parse_square(sq, 8);
		if (g.side != colour) {
			ck_assert(game_must_pass(&g));
			*(g.side == BLACK ? &black_passes : &white_passes) += 1;
		}
		ck_assert_int_eq(game_play_colour(&g, colour, s), GAME_OK);
	}
	ck_assert_int_eq(black_passes, 23);
	ck_assert_int_eq(white_passes, 0);
	ck_assert(game_is_over(&g));
	ck_assert_int_eq(game_discs(&g, BLACK), 0);
	ck_assert_int_eq(game_discs(&g, WHITE), 59);
	int b, w;
	game_counts(&g, SCORING_OFFICIAL, &b, &w);
	ck_assert_int_eq(b, 0);
	ck_assert_int_eq(w, 64);
	/* after the end nothing can be played, not even a pass */
	Game before = g;
	for (int sq = 0; sq < 64; sq++)
		ck_assert_int_eq(game_play(&g, sq), GAME_OVER);
	ck_assert_int_eq(game_play(&g, BOARD_PASS), GAME_OVER);
	ck_assert_int_eq(game_play_colour(&g, BLACK, 63), GAME_OVER);
	ck_assert_int_eq(game_play_colour(&g, WHITE, 63), GAME_OVER);
	assert_same_game(&g, &before);
}
END_TEST

/* ---- short-games.tsv ------------------------------------------------------- */

typedef struct GameSet {
	char (*rows)[64];
	int n, cap;
} GameSet;

static void set_add(GameSet *s, const char *row)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->rows = realloc(s->rows, (size_t)s->cap * sizeof *s->rows);
		ck_assert_ptr_nonnull(s->rows);
	}
	ck_assert_int_lt((int)strlen(row), 64);
	strcpy(s->rows[s->n++], row);
}

static int cmp_rows(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Every game from the start that is over after at most max_moves moves
 * (passes are not moves), as "n<TAB>moves<TAB>mover's discs<TAB>other's". */
static void enumerate_short(Board b, int moves, int max_moves, char *line, GameSet *out)
{
	uint64_t m = board_moves(b.p, b.o);
	if (!m) {
		if (!board_moves(b.o, b.p)) {
			char row[64];
			snprintf(row, sizeof row, "%d\t%s\t%d\t%d", moves, line, bit_count(b.p), bit_count(b.o));
			set_add(out, row);
			return;
		}
		b = board_pass(b);
		m = board_moves(b.p, b.o);
	}
	if (moves == max_moves)
		return;
	for (; m; m = bit_pop(m)) {
		int sq = bit_first(m);
		text_square(sq, line + 2 * moves);
		enumerate_short(board_apply(b, sq, board_flips(b.p, b.o, sq)), moves + 1, max_moves, line, out);
	}
	line[2 * moves] = 0;
}

START_TEST(short_games_are_exactly_the_games_ending_within_ten_moves)
{
	GameSet mine = { 0 }, file = { 0 };
	char line[64] = "";
	enumerate_short(board_start(8), 0, 10, line, &mine);

	FILE *f = fopen(test_data("short-games.tsv"), "r");
	ck_assert_ptr_nonnull(f);
	char buf[256];
	while (fgets(buf, sizeof buf, f)) {
		buf[strcspn(buf, "\r\n")] = 0;
		if (buf[0] != '#' && buf[0])
			set_add(&file, buf);
	}
	fclose(f);
	ck_assert_int_eq(file.n, 584);
	ck_assert_int_eq(mine.n, 584);
	qsort(mine.rows, (size_t)mine.n, sizeof *mine.rows, cmp_rows);
	qsort(file.rows, (size_t)file.n, sizeof *file.rows, cmp_rows);
	for (int i = 0; i < 584; i++)
		ck_assert_str_eq(mine.rows[i], file.rows[i]);
	int nine = 0;
	for (int i = 0; i < 584; i++)
		nine += mine.rows[i][0] == '9';
	ck_assert_int_eq(nine, 228);

	/* each one replays through the rules module to a finished wipe-out */
	for (int i = 0; i < file.n; i++) {
		char mv[32];
		int n, a, b;
		ck_assert_int_eq(sscanf(file.rows[i], "%d\t%31s\t%d\t%d", &n, mv, &a, &b), 4);
		Game g;
		char err[TEXT_ERR];
		game_init(&g, 8, VARIANT_NORMAL);
		ck_assert_msg(text_apply_transcript(&g, mv, err), "%s: %s", mv, err);
		ck_assert(game_is_over(&g));
		ck_assert_int_eq(game_discs(&g, g.side), a);
		ck_assert_int_eq(game_discs(&g, g.side ^ 1), b);
		ck_assert_int_eq(a, 0);
		ck_assert_int_eq(game_margin(&g, SCORING_OFFICIAL), g.side == WHITE ? 64 : -64);
	}
	free(mine.rows);
	free(file.rows);
}
END_TEST

/* ---- play, pass, undo ------------------------------------------------------ */

START_TEST(illegal_moves_and_passes_change_nothing)
{
	Game g, before;
	game_init(&g, 8, VARIANT_NORMAL);
	before = g;
	/* d3 c4 f5 e6 are the only legal first moves */
	for (int sq = -3; sq < 70; sq++) {
		if (sq == 19 || sq == 26 || sq == 37 || sq == 44 || sq == BOARD_PASS)
			continue;
		ck_assert_int_eq(game_play(&g, sq), GAME_ILLEGAL);
		assert_same_game(&g, &before);
	}
	ck_assert_int_eq(game_play(&g, BOARD_PASS), GAME_NOT_PASS);
	ck_assert_int_eq(game_play_colour(&g, WHITE, 19), GAME_ILLEGAL); /* not White's turn */
	assert_same_game(&g, &before);
	ck_assert_uint_eq(game_moves(&g), bit_of(19) | bit_of(26) | bit_of(37) | bit_of(44));

	/* a legal move: d3 flips d4 */
	ck_assert_int_eq(game_play_colour(&g, BLACK, 19), GAME_OK);
	ck_assert_int_eq(g.side, WHITE);
	ck_assert_uint_eq(game_colour_bits(&g, BLACK), bit_of(19) | bit_of(27) | bit_of(28) | bit_of(35));
	ck_assert_uint_eq(game_colour_bits(&g, WHITE), bit_of(36));
	ck_assert(game_undo(&g));
	ck_assert_mem_eq(&g.board, &before.board, sizeof g.board);
	ck_assert_int_eq(g.nply, 0);

	/* squares outside a small board are never legal */
	game_init(&g, 6, VARIANT_NORMAL);
	before = g;
	for (int sq = 0; sq < 64; sq++)
		if (sq % 8 >= 6 || sq / 8 >= 6)
			ck_assert_int_eq(game_play(&g, sq), GAME_ILLEGAL);
	assert_same_game(&g, &before);
}
END_TEST

/* A position where Black must pass (from the wipe-out line: after White's
 * a7, Black has no move): Black's implicit and explicit passes give the
 * same game, and the pass is one ply that undo takes back alone. */
START_TEST(forced_pass_explicit_implicit_and_undo)
{
	Game g;
	char err[TEXT_ERR];
	game_init(&g, 8, VARIANT_NORMAL);
	ck_assert_msg(text_apply_transcript(&g, "F5d6C4g5D7c7H5d8B8b7B6", err), "%s", err);
	ck_assert_int_eq(g.side, WHITE);
	ck_assert(!game_must_pass(&g));
	ck_assert_int_eq(game_play(&g, text_parse_square("a7", 8)), GAME_OK);
	ck_assert_int_eq(g.side, BLACK);
	ck_assert(game_must_pass(&g));
	ck_assert(!game_is_over(&g));
	ck_assert_uint_eq(game_moves(&g), 0);
	Game at_pass = g;

	/* a move while a pass is forced is illegal */
	for (int sq = 0; sq < 64; sq++)
		ck_assert_int_eq(game_play(&g, sq), GAME_ILLEGAL);
	assert_same_game(&g, &at_pass);

	/* explicit pass then White's move ... */
	const int b5 = text_parse_square("b5", 8);
	Game ex = g;
	ck_assert_int_eq(game_play(&ex, BOARD_PASS), GAME_OK);
	ck_assert_int_eq(ex.side, WHITE);
	ck_assert_int_eq(ex.hist[ex.nply - 1].move, BOARD_PASS);
	ck_assert_int_eq(ex.hist[ex.nply - 1].side, BLACK);
	ck_assert_int_eq(game_play(&ex, BOARD_PASS), GAME_NOT_PASS); /* White has moves */
	ck_assert_int_eq(game_play(&ex, b5), GAME_OK);
	/* ... equals White's move with the pass implied */
	Game im = g;
	ck_assert_int_eq(game_play_colour(&im, WHITE, text_parse_square("f5", 8)), GAME_ILLEGAL);
	assert_same_game(&im, &at_pass); /* the implied pass is not kept either */
	ck_assert_int_eq(game_play_colour(&im, WHITE, b5), GAME_OK);
	ck_assert_int_eq(im.nply, ex.nply);
	ck_assert_int_eq(im.nply, at_pass.nply + 2);
	ck_assert_mem_eq(&im.board, &ex.board, sizeof im.board);
	ck_assert_int_eq(im.side, ex.side);
	ck_assert_int_eq(im.side, BLACK);

	/* undo takes back the move, then the pass, one ply each */
	ck_assert(game_undo(&im));
	ck_assert_int_eq(im.side, WHITE);
	ck_assert(game_undo(&im));
	ck_assert_int_eq(im.side, BLACK);
	ck_assert_mem_eq(&im.board, &at_pass.board, sizeof im.board);
	ck_assert_int_eq(im.nply, at_pass.nply);

	/* a transcript that ends where a pass is forced includes the pass */
	Game t;
	game_init(&t, 8, VARIANT_NORMAL);
	ck_assert(text_apply_transcript(&t, "F5d6C4g5D7c7H5d8B8b7B6a7", err));
	ck_assert_int_eq(t.side, WHITE);
	ck_assert_int_eq(t.hist[t.nply - 1].move, BOARD_PASS);
	ck_assert_mem_eq(&t.board, &ex.hist[ex.nply - 1].board, sizeof t.board);
}
END_TEST

START_TEST(draw_splits_the_empties)
{
	Game g;
	char err[TEXT_ERR];
	game_init(&g, 8, VARIANT_NORMAL);
	ck_assert(text_apply_transcript(&g, "f5f4c3f6g7f7f3h7f8b2h6e7h8e3d7g3f2f1a1c5", err));
	ck_assert(game_is_over(&g));
	int b, w;
	game_counts(&g, SCORING_OFFICIAL, &b, &w);
	ck_assert_int_eq(b, 32);
	ck_assert_int_eq(w, 32);
	ck_assert_int_eq(game_winner(&g), -1);
	ck_assert_int_eq(game_margin(&g, SCORING_OFFICIAL), 0);
	g.variant = VARIANT_ANTI;
	ck_assert_int_eq(game_winner(&g), -1);
	/* 6x6: 18-18 when a 6x6 draw leaves empties */
	Game s;
	game_set(&s, (Board){ 0x7, 0x38 }, BLACK); /* a1 b1 c1 vs d1 e1 f1, nobody can move */
	s.size = 6;
	s.variant = VARIANT_NORMAL;
	ck_assert(game_is_over(&s));
	game_counts(&s, SCORING_OFFICIAL, &b, &w);
	ck_assert_int_eq(b, 18);
	ck_assert_int_eq(w, 18);
}
END_TEST

START_TEST(anti_fewer_discs_wins)
{
	Game g;
	char err[TEXT_ERR];
	game_init(&g, 8, VARIANT_ANTI);
	ck_assert(text_apply_transcript(&g, "d3c3b3d2e1d6d7e3f4", err)); /* Black wipes White out, 13-0 */
	ck_assert(game_is_over(&g));
	ck_assert_int_eq(game_winner(&g), WHITE);
	int b, w;
	game_counts(&g, SCORING_OFFICIAL, &b, &w);
	ck_assert_int_eq(b, 13);
	ck_assert_int_eq(w, 0);
	ck_assert_int_eq(game_margin(&g, SCORING_OFFICIAL), -13);
	ck_assert_int_eq(game_margin(&g, SCORING_PLAIN), -13);
	/* White (to move, no discs) is the Anti winner: +13 from its side */
	ck_assert_int_eq(g.side, WHITE);
	ck_assert_int_eq(board_final_score(g.board, 8, VARIANT_ANTI), 13);
	ck_assert_int_eq(board_final_score(g.board, 8, VARIANT_NORMAL), -64);
}
END_TEST

static Suite *rules_suite(void)
{
	Suite *s = suite_create("rules");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, oracle_lines_replay_to_their_results);
	tcase_add_test(tc, wipe_out_by_colour_with_implicit_passes);
	tcase_add_test(tc, short_games_are_exactly_the_games_ending_within_ten_moves);
	tcase_add_test(tc, illegal_moves_and_passes_change_nothing);
	tcase_add_test(tc, forced_pass_explicit_implicit_and_undo);
	tcase_add_test(tc, draw_splits_the_empties);
	tcase_add_test(tc, anti_fewer_discs_wins);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(rules_suite)
