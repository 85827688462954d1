/* test_book.c - the opening book: format, symmetry, passes, safety, tools. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "book.h"
#include "engine.h"
#include "testutil.h"
#include "text.h"

/* W. D. Smith's wipe-out with 23 passes (all by Black): final Black 0 -
 * White 59 with 5 empties, 64-0 with empties to the winner. */
static const char *WIPEOUT =
	"F5d6C4g5D7c7H5d8B8b7B6a7b5A6a5b4B3c6E8f8C8a8e7a4b2A2c2D2d1e2F2c5c3a1a3e6d3f6F7f1g2H2e3"
	"F4b1g1c1e1g8g7f3h1h3h4h6";
/* The shortest draw: 12-12 after 20 moves, 40 empties (a finished game). */
static const char *SHORT_DRAW = "f5f4c3f6g7f7f3h7f8b2h6e7h8e3d7g3f2f1a1c5";




/* A deterministic stand-in for the engine: a value in [-20, 20] that
 * depends on the position only (so results do not depend on threads). */
static bool fake_search(void *ctx, int thread, Board pos, int level, int *score, bool *exact)
{
	(void)ctx;
	(void)thread;
	(void)level;
	if (!board_moves(pos.p, pos.o))
		return false; /* the contract: positions handed out have a move */
	Board c = board_canonical(pos, NULL);
	uint64_t h = (c.p * 0x9E3779B97F4A7C15ULL) ^ (c.o * 0xC2B2AE3D27D4EB4FULL);
	h ^= h >> 29;
	*score = (int)(h % 41) - 20;
	*exact = false;
	return true;
}

static BookSearchOptions fake_options(int threads)
{
	BookSearchOptions o = { fake_search, NULL, threads, 7, NULL, NULL };
	return o;
}

/* A random legal game of at most `plies` moves. */
static void random_game(Game *g, uint64_t *rng, int plies)
{
	game_init(g, 8, VARIANT_NORMAL);
	for (int i = 0; i < plies && !game_is_over(g); i++) {
		if (game_must_pass(g)) {
			ck_assert_int_eq(game_play(g, BOARD_PASS), GAME_OK);
			continue;
		}
		uint64_t m = game_moves(g);
		int k = (int)(test_rand(rng) % (uint64_t)bit_count(m));
		while (k--)
			m = bit_pop(m);
		ck_assert_int_eq(game_play(g, bit_first(m)), GAME_OK);
	}
}

static Book *random_book(uint64_t seed, int ngames, int plies)
{
	Book *b = book_new();
	char err[BOOK_ERR];
	for (int i = 0; i < ngames; i++) {
		Game g;
		random_game(&g, &seed, plies);
		ck_assert_msg(book_add_game(b, &g, 0, err), "%s", err);
	}
	book_fix(b, NULL, NULL);
	return b;
}

static void line_game(Game *g, const char *moves)
{
	char err[TEXT_ERR];
	game_init(g, 8, VARIANT_NORMAL);
	ck_assert_msg(text_apply_transcript(g, moves, err), "%s", err);
}

static void assert_same_books(Book *a, Book *b)
{
	ck_assert_uint_eq(book_count(a), book_count(b));
	for (size_t i = 0; i < book_count(a); i++) {
		BookEntry x, y;
		ck_assert(book_entry(a, i, &x));
		ck_assert(book_entry(b, i, &y));
		ck_assert_msg(!memcmp(&x, &y, sizeof x), "entry %zu differs", i);
	}
}

/* the problems verify reported, one per line */
static char problems[1 << 14];
static void collect(void *user, const char *line)
{
	(void)user;
	size_t len = strlen(problems);
	snprintf(problems + len, sizeof problems - len, "%s\n", line);
}

static size_t verify(Book *b)
{
	problems[0] = 0;
	return book_verify(b, collect, NULL, 20);
}

static bool file_equal(const char *p1, const char *p2)
{
	FILE *f1 = fopen(p1, "rb"), *f2 = fopen(p2, "rb");
	ck_assert_ptr_nonnull(f1);
	ck_assert_ptr_nonnull(f2);
	int c1, c2;
	do {
		c1 = getc(f1);
		c2 = getc(f2);
	} while (c1 == c2 && c1 != EOF);
	fclose(f1);
	fclose(f2);
	return c1 == c2;
}

/* Whether two moves in pos lead to the same position up to symmetry. */
static bool same_child(Board pos, int m1, int m2)
{
	if (m1 == m2)
		return true;
	if (m1 < 0 || m1 >= 64 || m2 < 0 || m2 >= 64)
		return false;
	Board a = board_canonical(board_apply(pos, m1, board_flips(pos.p, pos.o, m1)), NULL);
	Board b = board_canonical(board_apply(pos, m2, board_flips(pos.p, pos.o, m2)), NULL);
	return a.p == b.p && a.o == b.o;
}

/* ---- symmetry ------------------------------------------------------------- */

START_TEST(test_symmetry_squares)
{
	for (int s = 0; s < 8; s++)
		for (int sq = 0; sq < 64; sq++) {
			int t = book_sym_square(sq, s);
			ck_assert(bit_symmetry(bit_of(sq), s) == bit_of(t));
			ck_assert_int_eq(book_sym_square_inverse(t, s), sq);
		}
	/* the 8 symmetries are distinct: they move b1 to 8 different squares */
	uint64_t seen = 0;
	for (int s = 0; s < 8; s++)
		seen |= bit_of(book_sym_square(1, s));
	ck_assert_int_eq(bit_count(seen), 8);
}
END_TEST

START_TEST(test_symmetry_probe)
{
	Book *b = random_book(12345, 300, 14);
	BookSearchOptions o = fake_options(2);
	char err[BOOK_ERR];
	ck_assert_int_ge(book_search_leaves(b, &o, err), 1);
	ck_assert_uint_eq(verify(b), 0);
	uint64_t rng = 99;
	int checked = 0;
	for (int t = 0; t < 40; t++) {
		Game g;
		random_game(&g, &rng, 1 + (int)(test_rand(&rng) % 10));
		if (game_must_pass(&g) || game_is_over(&g))
			continue;
		BookMove ref[64];
		int nref = book_list_moves(b, &g, ref, 64);
		if (!nref)
			continue;
		BookEntry e0;
		ck_assert(book_lookup(b, g.board, &e0));
		int best0 = book_move_from_canonical(g.board, e0.best);
		for (int s = 0; s < 8; s++) {
			Game h = g;
			Board tb = { bit_symmetry(g.board.p, s), bit_symmetry(g.board.o, s) };
			game_set(&h, tb, g.side);
			/* same entry */
			BookEntry e;
			ck_assert(book_lookup(b, tb, &e));
			ck_assert(!memcmp(&e, &e0, sizeof e));
			/* the best move comes back in the rotated frame (in a symmetric
			 * position as one of the equivalent moves) */
			ck_assert(same_child(tb, book_move_from_canonical(tb, e.best), book_sym_square(best0, s)));
			/* the same moves with the same values, rotated */
			BookMove mv[64];
			int n = book_list_moves(b, &h, mv, 64);
			ck_assert_int_eq(n, nref);
			for (int i = 0; i < nref; i++) {
				bool found = false;
				for (int j = 0; j < n && !found; j++)
					if (mv[j].leaf == ref[i].leaf &&
					    same_child(tb, mv[j].move, book_sym_square(ref[i].move, s))) {
						found = true;
						ck_assert_int_eq(mv[j].score, ref[i].score);
						ck_assert_int_eq(mv[j].lower, ref[i].lower);
						ck_assert_int_eq(mv[j].upper, ref[i].upper);
						ck_assert_int_eq(mv[j].leaf, ref[i].leaf);
						ck_assert_uint_eq(mv[j].games, ref[i].games);
					}
				ck_assert(found);
			}
			/* the engine probe plays a legal move of best value */
			int score, m = book_engine_probe(b, &h, &score);
			if (m >= 0) {
				ck_assert(game_moves(&h) & bit_of(m));
				ck_assert_int_eq(score, e.score);
				checked++;
			}
		}
	}
	ck_assert_int_gt(checked, 16);
	book_free(b);
}
END_TEST

/* ---- format round trip ------------------------------------------------------- */

START_TEST(test_roundtrip)
{
	Book *b = random_book(777, 200, 20);
	BookSearchOptions o = fake_options(3);
	char err[BOOK_ERR];
	ck_assert_int_gt(book_search_leaves(b, &o, err), 100);
	ck_assert_uint_eq(verify(b), 0);
	BookStats st;
	book_stats(b, &st);
	ck_assert_uint_eq(st.leaves_unknown, 0);
	ck_assert(st.has_root);
	ck_assert_msg(book_save(b, test_tmp_path("a.book"), NULL, NULL, err), "%s", err);
	Book *c = book_open(test_tmp_path("a.book"), err);
	ck_assert_msg(c != NULL, "%s", err);
	assert_same_books(b, c);
	ck_assert_uint_eq(verify(c), 0);
	/* the file is exactly header + 32 bytes per position */
	struct stat sb;
	ck_assert_int_eq(stat(test_tmp_path("a.book"), &sb), 0);
	ck_assert_int_eq(sb.st_size, BOOK_HEADER_SIZE + BOOK_ENTRY_SIZE * (off_t)book_count(b));
	/* saving what was read gives the same bytes */
	ck_assert(book_save(c, test_tmp_path("b.book"), NULL, NULL, err));
	ck_assert(file_equal(test_tmp_path("a.book"), test_tmp_path("b.book")));
	/* the same games in another order and thread count give the same book */
	Book *d = book_new();
	uint64_t seed = 777;
	Game games[200];
	for (int i = 0; i < 200; i++)
		random_game(&games[i], &seed, 20);
	for (int i = 199; i >= 0; i--)
		ck_assert(book_add_game(d, &games[i], 0, err));
	BookSearchOptions o1 = fake_options(1);
	ck_assert_int_gt(book_search_leaves(d, &o1, err), 100);
	assert_same_books(b, d);
	book_free(b);
	book_free(c);
	book_free(d);
}
END_TEST

START_TEST(test_values_negamax)
{
	/* Every stored value is the best of -child (or +child after a pass,
	 * or the final score) and the leaf, checked here with a separate
	 * loop over the list the protocols see. */
	Book *b = random_book(4242, 150, 16);
	BookSearchOptions o = fake_options(2);
	char err[BOOK_ERR];
	ck_assert_int_gt(book_search_leaves(b, &o, err), 0);
	int checked = 0;
	for (size_t i = 0; i < book_count(b); i++) {
		BookEntry e;
		ck_assert(book_entry(b, i, &e));
		Game g;
		game_init(&g, 8, VARIANT_NORMAL);
		game_set(&g, (Board){ e.p, e.o }, BLACK);
		BookMove mv[64];
		int n = book_list_moves(b, &g, mv, 64);
		ck_assert_int_gt(n, 0);
		int best = -100;
		for (int k = 0; k < n; k++) {
			if (mv[k].leaf) {
				ck_assert_int_eq(mv[k].move, e.leaf);
				ck_assert_int_eq(mv[k].score, e.leaf_score);
			} else {
				/* recompute the child's value directly */
				Board c = board_apply(g.board, mv[k].move,
				                      board_flips(g.board.p, g.board.o, mv[k].move));
				BookEntry ce;
				int v;
				if (board_moves(c.p, c.o)) {
					ck_assert(book_lookup(b, c, &ce));
					v = -ce.score;
				} else if (board_moves(c.o, c.p)) {
					ck_assert(book_lookup(b, board_pass(c), &ce));
					v = ce.score;
				} else {
					v = -board_final_score(c, 8, VARIANT_NORMAL);
				}
				ck_assert_int_eq(mv[k].score, v);
			}
			if (mv[k].score > best)
				best = mv[k].score;
			if (k)
				ck_assert_int_ge(mv[k - 1].score, mv[k].score);
		}
		ck_assert_int_eq(e.score, best);
		ck_assert_int_eq(mv[0].score, best);
		checked++;
	}
	ck_assert_int_gt(checked, 500);
	book_free(b);
}
END_TEST

/* ---- passes and finished games ---------------------------------------------------- */

START_TEST(test_pass_and_end)
{
	Book *b = book_new();
	Game full;
	line_game(&full, WIPEOUT);
	ck_assert(game_is_over(&full));
	ck_assert_int_eq(game_margin(&full, SCORING_OFFICIAL), -64);
	char err[BOOK_ERR];
	ck_assert_msg(book_learn(b, &full, err), "%s", err);
	ck_assert_uint_eq(verify(b), 0);
	/* from `tail` on, Black only passes: White's values there are proven
	 * (the last move ends the game at 64-0, the best possible result) */
	int tail = full.nply;
	while (tail > 0 && (full.hist[tail - 1].side == WHITE || full.hist[tail - 1].move == BOARD_PASS))
		tail--;
	ck_assert_int_lt(tail, full.nply - 10);
	/* replay: every position of the game is found, passes as passes */
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	int passes = 0, white_tail = 0;
	for (int i = 0; i < full.nply; i++) {
		int played = full.hist[i].move;
		BookMove mv[64];
		int n = book_list_moves(b, &g, mv, 64);
		BookEntry e;
		if (played == BOARD_PASS) {
			passes++;
			ck_assert(game_must_pass(&g));
			ck_assert(!book_lookup(b, g.board, &e));        /* never stored as such */
			ck_assert(book_lookup(b, board_pass(g.board), &e));
			ck_assert_int_eq(n, 1);
			ck_assert_int_eq(mv[0].move, BOARD_PASS);
			ck_assert_int_eq(mv[0].score, -64);            /* Black is wiped out */
			ck_assert_int_eq(mv[0].lower, -e.upper);
			ck_assert_int_eq(mv[0].upper, -e.lower);
			if (i >= tail) {
				ck_assert_int_eq(mv[0].lower, -64);
				ck_assert_int_eq(mv[0].upper, -64);
			}
		} else {
			ck_assert(book_lookup(b, g.board, &e));
			bool found = false;
			for (int k = 0; k < n; k++)
				if (mv[k].move == played) {
					found = true;
					/* the estimate of the game line is its result */
					ck_assert_int_eq(mv[k].score, g.side == WHITE ? 64 : -64);
					ck_assert_int_le(mv[k].lower, mv[k].score);
					ck_assert_int_ge(mv[k].upper, mv[k].score);
					if (i >= tail) {
						ck_assert_int_eq(mv[k].lower, 64);
						ck_assert_int_eq(mv[k].upper, 64);
						ck_assert_int_eq(mv[k].level, BOOK_LEVEL_EXACT);
					}
				}
			ck_assert(found);
			if (i >= tail) {
				ck_assert_int_eq(g.side, WHITE);
				ck_assert_int_eq(e.score, 64);
				ck_assert_int_eq(e.lower, 64);
				ck_assert_int_eq(e.upper, 64);
				white_tail++;
			} else if (e.leaf == BOOK_MOVE_UNKNOWN) {
				ck_assert_int_eq(e.upper, 64); /* other moves unknown */
			}
		}
		ck_assert_int_eq(game_play(&g, played), GAME_OK);
	}
	ck_assert_int_eq(passes, 23);
	ck_assert_int_gt(white_tail, 10);
	/* the finished position: nothing to play, not stored */
	ck_assert(game_is_over(&g));
	BookMove mv[4];
	int score;
	ck_assert_int_eq(book_list_moves(b, &g, mv, 4), 0);
	ck_assert_int_eq(book_engine_probe(b, &g, &score), -1);
	BookEntry e;
	ck_assert(!book_lookup(b, g.board, &e));
	ck_assert(!book_lookup(b, board_pass(g.board), &e));

	/* before the leaves are searched the probe does not trust the book */
	Game at;
	line_game(&at, "F5d6");
	ck_assert_int_eq(book_engine_probe(b, &at, &score), -1);
	BookSearchOptions o = fake_options(2);
	ck_assert_int_gt(book_search_leaves(b, &o, err), 0);
	ck_assert_uint_eq(verify(b), 0);
	/* now every pass is answered with BOARD_PASS and the value of the
	 * position after it; in the proven tail White's moves come from the
	 * book (+64, the fake search gives at most 20). */
	game_init(&g, 8, VARIANT_NORMAL);
	int probed_tail = 0, probed_pass = 0;
	book_set_randomness(b, 0, 1);
	for (int i = 0; i < full.nply; i++) {
		int m = book_engine_probe(b, &g, &score);
		if (full.hist[i].move == BOARD_PASS) {
			ck_assert_int_eq(m, BOARD_PASS);
			ck_assert(book_lookup(b, board_pass(g.board), &e));
			ck_assert_int_eq(score, -e.score);
			probed_pass++;
		} else if (i >= tail) {
			ck_assert_int_eq(m, full.hist[i].move);
			ck_assert_int_eq(score, 64);
			probed_tail++;
		} else if (m >= 0) {
			ck_assert(book_lookup(b, g.board, &e));
			ck_assert_int_eq(score, e.score);
		}
		ck_assert_int_eq(game_play(&g, full.hist[i].move), GAME_OK);
	}
	ck_assert_int_eq(probed_pass, 23);
	ck_assert_int_eq(probed_tail, white_tail);

	/* a finished draw with 40 empties: the last move is worth exactly 0 */
	Game draw;
	line_game(&draw, SHORT_DRAW);
	ck_assert(game_is_over(&draw));
	ck_assert(book_learn(b, &draw, err));
	Game before = draw;
	ck_assert(game_undo(&before));
	ck_assert(book_lookup(b, before.board, &e));
	ck_assert_int_eq(e.lower, 0);  /* at least the draw for the side to move */
	BookMove dm[64];
	int n = book_list_moves(b, &before, dm, 64);
	bool found = false;
	for (int k = 0; k < n; k++)
		if (dm[k].move == draw.hist[draw.nply - 1].move) {
			found = true;
			ck_assert_int_eq(dm[k].score, 0);
			ck_assert_int_eq(dm[k].lower, 0);
			ck_assert_int_eq(dm[k].upper, 0);
		}
	ck_assert(found);
	ck_assert_uint_eq(verify(b), 0);
	/* a game that is not 8x8 normal is refused */
	Game small;
	game_init(&small, 6, VARIANT_NORMAL);
	ck_assert(!book_learn(b, &small, err));
	ck_assert_ptr_nonnull(strstr(err, "8x8"));
	book_free(b);
}
END_TEST

/* ---- randomness ---------------------------------------------------------------------- */

START_TEST(test_randomness)
{
	Book *b = book_new();
	char err[BOOK_ERR];
	/* all four first moves and their replies are in the book */
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	for (uint64_t m = game_moves(&g); m; m = bit_pop(m)) {
		Game h = g;
		ck_assert_int_eq(game_play(&h, bit_first(m)), GAME_OK);
		for (uint64_t r = game_moves(&h); r; r = bit_pop(r)) {
			Game k = h;
			ck_assert_int_eq(game_play(&k, bit_first(r)), GAME_OK);
			ck_assert(book_add_game(b, &k, 0, err));
		}
	}
	BookSearchOptions o = fake_options(2);
	ck_assert_int_gt(book_search_leaves(b, &o, err), 0);
	ck_assert_uint_eq(verify(b), 0);
	/* the position after f5: its book moves and values */
	line_game(&g, "f5");
	BookMove mv[64];
	int n = book_list_moves(b, &g, mv, 64);
	int nbook = 0;
	for (int k = 0; k < n; k++)
		nbook += !mv[k].leaf;
	ck_assert_int_eq(nbook, 3); /* d6, f6, f4 */
	for (int margin = 0; margin <= 40; margin += 5) {
		book_set_randomness(b, margin, 7);
		uint64_t allowed = 0, seen = 0;
		for (int k = 0; k < n; k++)
			if (!mv[k].leaf && mv[k].score >= mv[0].score - margin)
				allowed |= bit_of(mv[k].move);
		int first[50], score;
		for (int t = 0; t < 200; t++) {
			int m = book_engine_probe(b, &g, &score);
			if (!allowed) {
				ck_assert_int_eq(m, -1);
				continue;
			}
			ck_assert(m >= 0 && (allowed & bit_of(m)));
			seen |= bit_of(m);
			if (t < 50)
				first[t] = m;
		}
		ck_assert(seen == allowed);
		/* the same seed gives the same choices */
		book_set_randomness(b, margin, 7);
		for (int t = 0; t < 50 && allowed; t++)
			ck_assert_int_eq(book_engine_probe(b, &g, &score), first[t]);
	}
	book_free(b);
}
END_TEST

/* ---- safety: refusing bad files --------------------------------------------------------- */


static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *d = malloc(*len + 1);
	ck_assert_uint_eq(fread(d, 1, *len, f), *len);
	fclose(f);
	return d;
}

static void expect_refused(const char *path, const char *word)
{
	char err[BOOK_ERR] = "";
	Book *b = book_open(path, err);
	ck_assert_msg(b == NULL, "%s was accepted", path);
	ck_assert_msg(strstr(err, word) != NULL, "message '%s' lacks '%s'", err, word);
	ck_assert_msg(strstr(err, path) != NULL, "message '%s' lacks the file name", err);
}

START_TEST(test_corrupt_refused)
{
	Book *b = random_book(31337, 50, 12);
	char err[BOOK_ERR];
	const char *good = test_tmp_path("good.book"), *bad = test_tmp_path("bad.book");
	ck_assert(book_save(b, good, NULL, NULL, err));
	size_t len;
	unsigned char *d = read_file(good, &len);
	ck_assert_uint_gt(len, 1000);

	test_write_file(bad, d, len - 10);
	expect_refused(bad, "truncated");
	test_write_file(bad, d, len - 32);
	expect_refused(bad, "truncated");
	test_write_file(bad, d, 40);
	expect_refused(bad, "truncated");
	test_write_file(bad, d, 0);
	expect_refused(bad, "empty");
	/* trailing garbage */
	unsigned char *big = malloc(len + 32);
	memcpy(big, d, len);
	memset(big + len, 0xAB, 32);
	test_write_file(bad, big, len + 32);
	expect_refused(bad, "corrupt");
	free(big);
	/* one flipped bit anywhere in the entries */
	for (size_t off = BOOK_HEADER_SIZE; off < len; off += 97) {
		d[off] ^= 0x10;
		test_write_file(bad, d, len);
		expect_refused(bad, "checksum");
		d[off] ^= 0x10;
	}
	/* a damaged header */
	d[25] ^= 1; /* count */
	test_write_file(bad, d, len);
	expect_refused(bad, "header");
	d[25] ^= 1;
	d[8] = 2;   /* a future version */
	test_write_file(bad, d, len);
	expect_refused(bad, "version 2");
	d[8] = 1;
	/* foreign files */
	const char text[] = "---------------------------OX------XO--------------------------- X\n";
	test_write_file(bad, text, sizeof text - 1);
	expect_refused(bad, "not an Emilia book");
	uint64_t rng = 5;
	unsigned char junk[4096];
	for (size_t i = 0; i < sizeof junk; i++)
		junk[i] = (unsigned char)test_rand(&rng);
	test_write_file(bad, junk, sizeof junk);
	expect_refused(bad, "not an Emilia book");
	memcpy(junk, "EMILBOOK", 8); /* right magic, garbage after it */
	test_write_file(bad, junk, sizeof junk);
	expect_refused(bad, "version");
	expect_refused(test_tmp_path("missing.book"), "No such file");
	expect_refused(test_tmpdir(), "not a regular file");
	/* the good file still opens */
	Book *c = book_open(good, err);
	ck_assert_msg(c != NULL, "%s", err);
	assert_same_books(b, c);
	book_free(c);
	free(d);
	book_free(b);
}
END_TEST

START_TEST(test_unsorted_refused)
{
	/* entries out of order under a valid checksum (a foreign or buggy
	 * writer) are refused, so bisection can trust the order */
	Book *b = random_book(8, 20, 10);
	char err[BOOK_ERR];
	const char *path = test_tmp_path("u.book");
	ck_assert(book_save(b, path, NULL, NULL, err));
	size_t len;
	unsigned char *d = read_file(path, &len);
	unsigned char tmp[BOOK_ENTRY_SIZE];
	unsigned char *e0 = d + BOOK_HEADER_SIZE, *e1 = e0 + BOOK_ENTRY_SIZE;
	memcpy(tmp, e0, BOOK_ENTRY_SIZE);
	memcpy(e0, e1, BOOK_ENTRY_SIZE);
	memcpy(e1, tmp, BOOK_ENTRY_SIZE);
	uint64_t h = book_checksum(d + BOOK_HEADER_SIZE, len - BOOK_HEADER_SIZE);
	memcpy(d + 32, &h, 8);
	h = book_checksum(d, 56);
	memcpy(d + 56, &h, 8);
	ck_assert_ptr_null(book_open_memory(d, len, "swapped", err));
	ck_assert_ptr_nonnull(strstr(err, "order"));
	/* swapped back, the same image is accepted */
	memcpy(e1, e0, BOOK_ENTRY_SIZE);
	memcpy(e0, tmp, BOOK_ENTRY_SIZE);
	h = book_checksum(d + BOOK_HEADER_SIZE, len - BOOK_HEADER_SIZE);
	memcpy(d + 32, &h, 8);
	h = book_checksum(d, 56);
	memcpy(d + 56, &h, 8);
	Book *m = book_open_memory(d, len, "fine", err);
	ck_assert_msg(m != NULL, "%s", err);
	assert_same_books(m, b);
	book_free(m);
	free(d);
	book_free(b);
}
END_TEST

/* ---- hardening: crafted entries, files rewritten in place, FIFOs --------------------------- */

/* Recompute both checksums of a book image: a crafted file that only the
 * entry checks can catch. */
static void fix_checksums(unsigned char *d, size_t len)
{
	uint64_t h = book_checksum(d + BOOK_HEADER_SIZE, len - BOOK_HEADER_SIZE);
	memcpy(d + 32, &h, 8);
	h = book_checksum(d, 56);
	memcpy(d + 56, &h, 8);
}

/* A saved random book with its last entry changed by `craft` (the last one,
 * so that changing o keeps the order); the image in *len bytes. */
static unsigned char *crafted_image(const char *path, void (*craft)(BookEntry *), size_t *len,
                                    size_t *count)
{
	Book *b = random_book(4242, 30, 12);
	char err[BOOK_ERR];
	ck_assert(book_save(b, path, NULL, NULL, err));
	*count = book_count(b);
	book_free(b);
	unsigned char *d = read_file(path, len);
	BookEntry e;
	unsigned char *last = d + BOOK_HEADER_SIZE + (*count - 1) * BOOK_ENTRY_SIZE;
	memcpy(&e, last, sizeof e);
	craft(&e);
	memcpy(last, &e, sizeof e);
	fix_checksums(d, *len);
	return d;
}

static void craft_two_discs(BookEntry *e) { e->o |= e->p & (0 - e->p); }
static void craft_score(BookEntry *e) { e->score = 127; }
static void craft_bounds(BookEntry *e) { e->lower = 10; e->upper = -10; }
static void craft_level(BookEntry *e) { e->level = 108; e->leaf_level = 0; }
static void craft_best(BookEntry *e) { e->best = 64; }
static void craft_leaf(BookEntry *e) { e->leaf = 70; }
static void craft_leaf_score(BookEntry *e) { e->leaf_score = -100; e->leaf_lower = -100; }
static void craft_reserved(BookEntry *e) { e->reserved = 1; }
static void craft_games(BookEntry *e) { e->games = UINT32_MAX; }
static void craft_noncanonical(BookEntry *e)
{
	/* an image under a symmetry that changes it: larger, so still last */
	for (int s = 1; s < 8; s++) {
		Board t = { bit_symmetry(e->p, s), bit_symmetry(e->o, s) };
		if (t.p != e->p || t.o != e->o) {
			e->p = t.p;
			e->o = t.o;
			return;
		}
	}
	ck_abort_msg("a position symmetric under every symmetry");
}

/* Entries with two discs on a square, values out of -64..64, bounds out of
 * order, impossible levels or moves: refused on open, under valid
 * checksums, with the position and the rule named (the rules verify
 * applies to each entry). */
START_TEST(test_crafted_entries_refused)
{
	static const struct {
		void (*craft)(BookEntry *);
		const char *what;   /* NULL: accepted */
	} cases[] = {
		{ craft_two_discs, "a square holds two discs" },
		{ craft_score, "score 127 out of range -64..64" },
		{ craft_bounds, "bounds [10, -10] out of order or range" },
		{ craft_level, "level 108 or leaf level 0 is neither 0..60 nor exact" },
		{ craft_best, "best move 64 is not legal" },
		{ craft_leaf, "leaf move 70 is not a move" },
		{ craft_leaf_score, "leaf score -100 outside its bounds [-100, 64]" },
		{ craft_reserved, "reserved fields are not zero" },
		{ craft_noncanonical, "not in canonical orientation" },
		{ craft_games, NULL }, /* a saturated games count is legal */
	};
	const char *path = test_tmp_path("crafted.book");
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		size_t len, n;
		unsigned char *d = crafted_image(path, cases[c].craft, &len, &n);
		test_write_file(path, d, len);
		char err[BOOK_ERR] = "", merr[BOOK_ERR] = "", want[BOOK_ERR];
		Book *b = book_open(path, err);
		Book *m = book_open_memory(d, len, "crafted", merr);
		if (!cases[c].what) {
			ck_assert_msg(b != NULL && m != NULL, "case %zu: %s %s", c, err, merr);
			book_free(b);
			book_free(m);
			free(d);
			continue;
		}
		ck_assert_msg(b == NULL, "case %zu accepted", c);
		ck_assert_ptr_null(m);
		snprintf(want, sizeof want, "%s: corrupt: position %zu of %zu: %s", path, n, n, cases[c].what);
		ck_assert_str_eq(err, want);
		snprintf(want, sizeof want, "crafted: corrupt: position %zu of %zu: %s", n, n, cases[c].what);
		ck_assert_str_eq(merr, want);
		free(d);
	}
	/* verify applies the same rule to a book changed in memory */
	Book *b = random_book(4242, 30, 12);
	BookEntry e;
	ck_assert(book_entry(b, book_count(b) - 1, &e));
	e.score = 127;
	ck_assert(book_replace(b, &e));
	ck_assert_uint_eq(verify(b), 1);
	ck_assert_ptr_nonnull(strstr(problems, " X: score 127 out of range -64..64\n"));
	book_free(b);
}
END_TEST

/* Import refuses what a reader would refuse: nothing unloadable is built. */
START_TEST(test_import_refuses_bad_entry)
{
	const char *txt = test_tmp_path("bad.txt");
	FILE *f = fopen(txt, "w");
	ck_assert_ptr_nonnull(f);
	/* the start position, bounds [5, -5] */
	fprintf(f, "# crafted\n---------------------------OX------XO--------------------------- X "
	           "0 5 -5 0 ? ? 0 -64 64 0 1\n");
	fclose(f);
	char err[BOOK_ERR], want[BOOK_ERR];
	ck_assert_ptr_null(book_import(txt, err));
	snprintf(want, sizeof want, "%s: line 2: bounds [5, -5] out of order or range", txt);
	ck_assert_str_eq(err, want);
}
END_TEST

/* `cp new.book cur.book` while a reader holds cur.book: the file is
 * truncated and rewritten in place.  The reader has its own copy (a mapped
 * file would fault with SIGBUS at the next look-up). */
START_TEST(test_reader_survives_rewrite_in_place)
{
	const char *path = test_tmp_path("cur.book");
	char err[BOOK_ERR];
	Book *a = random_book(77, 300, 20), *other = random_book(78, 10, 8);
	ck_assert(book_save(a, path, NULL, NULL, err));
	ck_assert(book_save(other, test_tmp_path("new.book"), NULL, NULL, err));
	size_t len, olen;
	unsigned char *img = read_file(test_tmp_path("new.book"), &olen);
	Book *reader = book_open(path, err);
	ck_assert_msg(reader != NULL, "%s", err);
	for (int i = 0; i < 20; i++) {
		int fd = open(path, O_WRONLY | O_TRUNC);
		ck_assert_int_ge(fd, 0);
		len = i % 2 ? olen : (size_t)(i * 7);
		ck_assert_int_eq(write(fd, img, len), (ssize_t)len);
		ck_assert_int_eq(close(fd), 0);
		assert_same_books(reader, a);
		Game g;
		line_game(&g, "f5d6c3");
		BookMove mv[64];
		book_list_moves(reader, &g, mv, 64);
	}
	free(img);
	book_free(reader);
	book_free(a);
	book_free(other);
}
END_TEST

/* A FIFO (or any non-regular file) is refused at once, never waited on. */
START_TEST(test_fifo_refused)
{
	const char *fifo = test_tmp_path("fifo.book");
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	alarm(20); /* a blocking open would hang here: fail instead */
	char err[BOOK_ERR], want[BOOK_ERR];
	ck_assert_ptr_null(book_open(fifo, err));
	alarm(0);
	snprintf(want, sizeof want, "%s: not a regular file", fifo);
	ck_assert_str_eq(err, want);
	ck_assert_ptr_null(book_open("/dev/zero", err));
	ck_assert_str_eq(err, "/dev/zero: not a regular file");
}
END_TEST

/* ---- verify ------------------------------------------------------------------------------- */

START_TEST(test_verify_catches)
{
	Book *b = random_book(2024, 100, 14);
	BookSearchOptions o = fake_options(2);
	char err[BOOK_ERR];
	ck_assert_int_gt(book_search_leaves(b, &o, err), 0);
	ck_assert_uint_eq(verify(b), 0);
	const char *path = test_tmp_path("v.book");
	ck_assert(book_save(b, path, NULL, NULL, err));

	/* a score one disc off */
	BookEntry e, orig;
	ck_assert(book_entry(b, book_count(b) / 2, &orig));
	e = orig;
	e.score = (int8_t)(e.score == e.upper ? e.score - 1 : e.score + 1);
	if (e.score < e.lower)
		e.lower = e.score;
	ck_assert(book_replace(b, &e));
	ck_assert_uint_ge(verify(b), 1);
	ck_assert_ptr_nonnull(strstr(problems, "inconsistent with its children"));
	/* saved with a valid checksum, the file opens but verify finds it */
	const char *path2 = test_tmp_path("v2.book");
	ck_assert(book_save(b, path2, NULL, NULL, err));
	Book *c = book_open(path2, err);
	ck_assert_msg(c != NULL, "%s", err);
	ck_assert_uint_ge(verify(c), 1);
	book_free(c);
	/* book_fix repairs it */
	ck_assert_uint_ge(book_fix(b, NULL, NULL), 1);
	ck_assert_uint_eq(verify(b), 0);

	/* an illegal best move */
	e = orig;
	e.best = (uint8_t)bit_first(e.p); /* an occupied square */
	ck_assert(book_replace(b, &e));
	ck_assert_uint_ge(verify(b), 1);
	book_fix(b, NULL, NULL);
	ck_assert_uint_eq(verify(b), 0);

	/* a leaf that is in the book */
	bool injected = false;
	for (size_t i = 0; i < book_count(b); i++) {
		ck_assert(book_entry(b, i, &e));
		Game g;
		game_init(&g, 8, VARIANT_NORMAL);
		game_set(&g, (Board){ e.p, e.o }, BLACK);
		BookMove mv[64];
		int n = book_list_moves(b, &g, mv, 64);
		int inbook = -1;
		for (int k = 0; k < n; k++)
			if (!mv[k].leaf && mv[k].move < 64)
				inbook = mv[k].move;
		if (inbook < 0 || e.leaf >= 64)
			continue;
		e.leaf = (uint8_t)inbook;
		ck_assert(book_replace(b, &e));
		ck_assert_uint_ge(verify(b), 1);
		ck_assert_ptr_nonnull(strstr(problems, "leaf move is in the book"));
		injected = true;
		break;
	}
	ck_assert(injected);
	book_fix(b, NULL, NULL);
	/* fix turned that leaf into "unknown"; searching it again makes the
	 * book whole and equal to the saved one */
	ck_assert_int_ge(book_search_leaves(b, &o, err), 1);
	ck_assert_uint_eq(verify(b), 0);
	Book *saved = book_open(path, err);
	assert_same_books(b, saved);
	book_free(saved);
	book_free(b);
}
END_TEST

/* ---- saving: interrupted saves and concurrent readers -------------------------------- */

static void kill_midway(void *user, const char *phase, uint64_t done, uint64_t total)
{
	(void)user;
	if (!strcmp(phase, "save") && done < total)
		raise(SIGKILL);
}

START_TEST(test_interrupted_save)
{
	const char *path = test_tmp_path("i.book");
	char err[BOOK_ERR];
	Book *old = random_book(1, 30, 12);
	ck_assert(book_save(old, path, NULL, NULL, err));
	/* a big book (several write chunks) saved over it by a child that is
	 * killed after its first chunk */
	Book *big = random_book(2, 2500, 60);
	ck_assert_uint_gt(book_count(big), 70000);
	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		book_save(big, path, kill_midway, NULL, err);
		_exit(3); /* not reached: the save is killed */
	}
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	/* the partial temporary file is there, the book is the old one */
	char tmpname[600];
	snprintf(tmpname, sizeof tmpname, "%s.tmp.%ld", path, (long)pid);
	struct stat st;
	ck_assert_int_eq(stat(tmpname, &st), 0);
	ck_assert_int_lt(st.st_size, BOOK_HEADER_SIZE + BOOK_ENTRY_SIZE * (off_t)book_count(big));
	Book *now = book_open(path, err);
	ck_assert_msg(now != NULL, "%s", err);
	assert_same_books(old, now);
	book_free(now);
	unlink(tmpname);

	/* a failure before the rename (the target is a directory): error,
	 * the temporary file is removed */
	const char *dir = test_tmp_path("adir");
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	ck_assert(!book_save(old, dir, NULL, NULL, err));
	snprintf(tmpname, sizeof tmpname, "%s.tmp.%ld", dir, (long)getpid());
	ck_assert_int_ne(stat(tmpname, &st), 0);
	/* a directory that does not exist */
	ck_assert(!book_save(old, test_tmp_path("nodir/x.book"), NULL, NULL, err));
	ck_assert_ptr_nonnull(strstr(err, "No such file"));
	book_free(old);
	book_free(big);
}
END_TEST

START_TEST(test_reader_undisturbed)
{
	const char *path = test_tmp_path("r.book");
	char err[BOOK_ERR];
	Book *a = random_book(11, 40, 14), *b = random_book(12, 60, 14);
	ck_assert(book_save(a, path, NULL, NULL, err));
	Book *reader = book_open(path, err);
	ck_assert_msg(reader != NULL, "%s", err);
	ck_assert(book_save(b, path, NULL, NULL, err)); /* writer replaces the file */
	assert_same_books(reader, a);                   /* the reader still sees a */
	Book *fresh = book_open(path, err);
	assert_same_books(fresh, b);                    /* a new reader sees b */
	/* learning in memory does not touch the file either */
	Game g;
	line_game(&g, SHORT_DRAW);
	ck_assert(book_learn(reader, &g, err));
	Book *again = book_open(path, err);
	assert_same_books(again, b);
	book_free(again);
	book_free(fresh);
	book_free(reader);
	book_free(a);
	book_free(b);
}
END_TEST

/* ---- text format --------------------------------------------------------------------------- */

START_TEST(test_export_import)
{
	Book *b = random_book(555, 120, 18);
	BookSearchOptions o = fake_options(2);
	char err[BOOK_ERR];
	ck_assert_int_gt(book_search_leaves(b, &o, err), 0);
	Game w;
	line_game(&w, WIPEOUT); /* exact values and passes too */
	ck_assert(book_learn(b, &w, err));
	const char *t1 = test_tmp_path("b1.txt"), *t2 = test_tmp_path("b2.txt");
	ck_assert_msg(book_export(b, t1, err), "%s", err);
	Book *c = book_import(t1, err);
	ck_assert_msg(c != NULL, "%s", err);
	assert_same_books(b, c);
	ck_assert(book_export(c, t2, err));
	ck_assert(file_equal(t1, t2));
	/* one line per position plus the header comment */
	size_t len;
	unsigned char *d = read_file(t1, &len);
	size_t lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += d[i] == '\n';
	ck_assert_uint_eq(lines, book_count(b) + 1);
	free(d);
	book_free(c);

	/* a line in another orientation is normalised, moves included */
	BookEntry e;
	ck_assert(book_entry(b, 3, &e));
	ck_assert(e.best < 64);
	char board[65], best[5], leaf[5];
	int s = 5;
	uint64_t p = bit_symmetry(e.p, s), q = bit_symmetry(e.o, s);
	for (int sq = 0; sq < 64; sq++)
		board[sq] = (p >> sq) & 1 ? 'X' : (q >> sq) & 1 ? 'O' : '-';
	board[64] = 0;
	text_square(book_sym_square(e.best, s), best);
	if (e.leaf < 64)
		text_square(book_sym_square(e.leaf, s), leaf);
	else
		snprintf(leaf, sizeof leaf, "%s", e.leaf == BOOK_MOVE_NONE ? "none" : "?");
	FILE *f = fopen(t2, "w");
	char lv[8], llv[8];
	snprintf(lv, sizeof lv, "%d", e.level);
	snprintf(llv, sizeof llv, "%d", e.leaf_level);
	if (e.level == BOOK_LEVEL_EXACT)
		snprintf(lv, sizeof lv, "exact");
	if (e.leaf_level == BOOK_LEVEL_EXACT)
		snprintf(llv, sizeof llv, "exact");
	fprintf(f, "# rotated\n%s X %d %d %d %s %s %s %d %d %d %s %u\n", board, e.score, e.lower, e.upper,
	        lv, best, leaf, e.leaf_score, e.leaf_lower, e.leaf_upper, llv, (unsigned)e.games);
	fclose(f);
	c = book_import(t2, err);
	ck_assert_msg(c != NULL, "%s", err);
	BookEntry r;
	ck_assert(book_entry(c, 0, &r));
	ck_assert(!memcmp(&r, &e, sizeof r));
	book_free(c);

	/* malformed files are refused with the line number; nothing is built */
	static const char *bad[] = {
		"---------------------------OX------XO--------------------------- X 0 -64 64 0 d3\n",
		"---------------------------OX------XO--------------------------- X 0 -64 64 0 a1 ? 0 -64 64 0 1\n",
		"---------------------------OX------XO--------------------------- X 99 -64 64 0 d3 ? 0 -64 64 0 1\n",
		"---------------------------OX------XO--------------------------Z X 0 -64 64 0 d3 ? 0 -64 64 0 1\n",
		"XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX X 0 -64 64 0 ? ? 0 -64 64 0 1\n",
		"---------------------------OX------XO--------------------------- X 0 -64 64 0 d3 ? 0 -64 64 0 1\n"
		"--------------------------------------------------------------------------------\n",
		"---------------------------OX------XO--------------------------- X 0 -64 64 0 d3 ? 0 -64 64 0 1\n"
		"---------------------------XO------OX--------------------------- X 0 -64 64 0 e6 ? 0 -64 64 0 1\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		test_write_file(t2, bad[i], strlen(bad[i]));
		c = book_import(t2, err);
		ck_assert_msg(c == NULL, "bad text %zu accepted", i);
		ck_assert_ptr_nonnull(strstr(err, "line "));
	}
	/* binary garbage */
	unsigned char junk[3000];
	uint64_t rng = 77;
	for (size_t i = 0; i < sizeof junk; i++)
		junk[i] = (unsigned char)test_rand(&rng);
	test_write_file(t2, junk, sizeof junk);
	ck_assert_ptr_null(book_import(t2, err));
	book_free(b);
}
END_TEST

/* ---- merge ------------------------------------------------------------------------------------ */

START_TEST(test_merge)
{
	/* books of two overlapping game sets, merged, equal the book of all
	 * the games once the stale leaves are searched again */
	uint64_t seed = 9090;
	enum { N = 120 };
	Game games[N];
	for (int i = 0; i < N; i++)
		random_game(&games[i], &seed, 16);
	Book *a = book_new(), *b = book_new(), *all = book_new();
	char err[BOOK_ERR];
	for (int i = 0; i < N; i++) {
		if (i < 80)
			ck_assert(book_add_game(a, &games[i], 0, err));
		if (i >= 50)
			ck_assert(book_add_game(b, &games[i], 0, err));
		ck_assert(book_add_game(all, &games[i], 0, err));
		if (i >= 50 && i < 80) /* the overlap counts twice in the merge */
			ck_assert(book_add_game(all, &games[i], 0, err));
	}
	BookSearchOptions o = fake_options(2);
	ck_assert_int_gt(book_search_leaves(a, &o, err), 0);
	ck_assert_int_gt(book_search_leaves(b, &o, err), 0);
	ck_assert_int_gt(book_search_leaves(all, &o, err), 0);
	size_t na = book_count(a), nb = book_count(b);
	ck_assert_msg(book_merge(a, b, err), "%s", err);
	ck_assert_uint_eq(book_count(a), book_count(all));
	ck_assert_uint_lt(book_count(a), na + nb);      /* they did overlap */
	ck_assert_uint_eq(book_count(b), nb);            /* the source is unchanged */
	ck_assert_uint_eq(verify(a), 0);
	ck_assert_int_ge(book_search_leaves(a, &o, err), 0);
	assert_same_books(a, all);
	/* merging a book into itself, or an empty one, changes nothing */
	Book *empty = book_new();
	ck_assert(book_merge(a, a, err));
	ck_assert(book_merge(a, empty, err));
	assert_same_books(a, all);
	book_free(empty);
	book_free(a);
	book_free(b);
	book_free(all);
}
END_TEST

/* ---- deviate ------------------------------------------------------------------------------------ */

START_TEST(test_deviate)
{
	Book *b = book_new();
	char err[BOOK_ERR];
	BookSearchOptions o = fake_options(2);
	long added = book_deviate(b, board_start(8), 3, 5, 0, &o, err);
	ck_assert_msg(added > 10, "%ld %s", added, err);
	ck_assert_uint_eq(verify(b), 0);
	BookStats st;
	book_stats(b, &st);
	ck_assert(st.has_root);
	ck_assert_uint_eq(st.leaves_unknown, 0);
	/* nothing deeper than 5 plies from the start */
	for (size_t i = 0; i < book_count(b); i++) {
		BookEntry e;
		ck_assert(book_entry(b, i, &e));
		ck_assert_int_le(bit_count(e.p | e.o), 4 + 5);
	}
	/* The stopping rule: in every position reached by moves within the
	 * margin, the leaf is outside the margin (or beyond the ply limit). */
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	Game *stack = malloc(4096 * sizeof *stack);
	ck_assert_ptr_nonnull(stack);
	int sp = 0;
	stack[sp++] = g;
	int visited = 0;
	while (sp) {
		Game h = stack[--sp];
		BookEntry e;
		ck_assert(book_lookup(b, h.board, &e));
		visited++;
		BookMove mv[64];
		int n = book_list_moves(b, &h, mv, 64);
		for (int k = 0; k < n; k++) {
			if (mv[k].score < e.score - 3)
				continue;
			if (mv[k].leaf) {
				ck_assert_int_ge(bit_count(h.board.p | h.board.o) + 1 - 4, 6);
				continue;
			}
			Game c = h;
			ck_assert_int_eq(game_play(&c, mv[k].move), GAME_OK);
			if (bit_count(c.board.p | c.board.o) - 4 <= 5 && sp < 4096)
				stack[sp++] = c;
		}
	}
	free(stack);
	ck_assert_int_gt(visited, 10);
	/* a position limit is honoured */
	Book *small = book_new();
	ck_assert_int_ge(book_deviate(small, board_start(8), 3, 10, 25, &o, err), 1);
	ck_assert_uint_le(book_count(small), 25);
	ck_assert_uint_eq(verify(small), 0);
	book_free(small);
	book_free(b);
}
END_TEST

/* ---- the engine hook ---------------------------------------------------------------------------- */

START_TEST(test_engine_hook)
{
	/* the engine plays the book's move through engine_set_book, and
	 * searches once the position is out of the book */
	Book *b = book_new();
	char err[BOOK_ERR];
	BookSearchOptions o = fake_options(1);
	ck_assert_int_gt(book_deviate(b, board_start(8), 2, 3, 0, &o, err), 0);
	Engine *e = engine_new();
	engine_set_level(e, 2);
	engine_set_book(e, book_engine_probe, b);
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	EngineLimits lim;
	memset(&lim, 0, sizeof lim);
	lim.time_left = -1;
	EngineInfo info = engine_search(e, &g, &lim, NULL, NULL);
	ck_assert(info.book);
	BookMove mv[64];
	int n = book_list_moves(b, &g, mv, 64);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(info.score, mv[0].score);
	bool best = false;
	for (int k = 0; k < n; k++)
		best |= mv[k].move == info.move && mv[k].score == mv[0].score && !mv[k].leaf;
	ck_assert(best);
	/* far from the book: a search */
	line_game(&g, "f5d6c3d3c4f4f6f3e6e7");
	info = engine_search(e, &g, &lim, NULL, NULL);
	ck_assert(!info.book);
	ck_assert(game_moves(&g) & bit_of(info.move));
	engine_set_book(e, NULL, NULL);
	engine_free(e);
	book_free(b);
}
END_TEST

/* ---- the default book and the tool ----------------------------------------------------------- */

START_TEST(test_default_book)
{
	char err[BOOK_ERR];
	Book *d = book_open_default(err);
	ck_assert_msg(d != NULL, "%s", err);
	Book *f = book_open(test_data("../../book/emilia.book"), err);
	ck_assert_msg(f != NULL, "%s", err);
	assert_same_books(d, f);
	ck_assert_uint_eq(verify(d), 0);
	book_free(d);
	book_free(f);
}
END_TEST

static int run_tool(const char *args, char *out, size_t outlen)
{
	const char *dir = getenv("EMILIA_TOOLS");
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "'%s/emilia-book' %s 2>&1", dir ? dir : ".", args);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	size_t n = fread(out, 1, outlen - 1, p);
	out[n] = 0;
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(test_tool)
{
	char out[8192], args[2048];
	const char *bk = test_tmp_path("t.book"), *txt = test_tmp_path("t.txt"), *bk2 = test_tmp_path("t2.book");
	const char *games = test_tmp_path("games.txt");
	FILE *f = fopen(games, "w");
	fprintf(f, "# two games\nf5d6c3d3c4f4f6f3e6e7\n+d3-c3+c4-c5\nf5f5\n%s\n", SHORT_DRAW);
	fclose(f);
	snprintf(args, sizeof args, "new '%s'", bk);
	ck_assert_int_eq(run_tool(args, out, sizeof out), 0);
	ck_assert_int_eq(run_tool(args, out, sizeof out), 1); /* exists */
	snprintf(args, sizeof args, "add --quiet '%s' '%s'", bk, games);
	ck_assert_int_eq(run_tool(args, out, sizeof out), 0);
	ck_assert_ptr_nonnull(strstr(out, "added 3 games (1 rejected)"));
	ck_assert_ptr_nonnull(strstr(out, "illegal move f5 at move 2"));
	snprintf(args, sizeof args, "verify '%s'", bk);
	ck_assert_int_eq(run_tool(args, out, sizeof out), 0);
	ck_assert_ptr_nonnull(strstr(out, "OK"));
	snprintf(args, sizeof args, "export '%s' '%s'", bk, txt);
	ck_assert_int_eq(run_tool(args, out, sizeof out), 0);
	snprintf(args, sizeof args, "import '%s' '%s'", txt, bk2);
	ck_assert_int_eq(run_tool(args, out, sizeof out), 0);
	ck_assert(file_equal(bk, bk2));
	snprintf(args, sizeof args, "probe '%s' f5f4c3f6g7f7f3h7f8b2h6e7h8e3d7g3f2f1a1", bk);
	ck_assert_int_eq(run_tool(args, out, sizeof out), 0);
	ck_assert_ptr_nonnull(strstr(out, "c5    +0 [+0, +0] level exact"));
	/* a corrupt book: a clear message and exit status 1 */
	f = fopen(bk2, "r+b");
	fseek(f, 70, SEEK_SET);
	fputc('!', f);
	fclose(f);
	snprintf(args, sizeof args, "verify '%s'", bk2);
	ck_assert_int_eq(run_tool(args, out, sizeof out), 1);
	ck_assert_ptr_nonnull(strstr(out, "checksum"));
	snprintf(args, sizeof args, "frobnicate '%s'", bk2);
	ck_assert_int_eq(run_tool(args, out, sizeof out), 2);
}
END_TEST

/* emilia-book refuses a crafted book (valid checksums, two discs on one
 * square) in every command that loads it: exit status 1, nothing written,
 * and the message names the book by its whole path, however long, even
 * when it is one of several (merge). */
START_TEST(test_tool_refuses_crafted)
{
	char longname[201], dir[1024], bad[1200], good[1200], merged[1200], args[4096], out[8192];
	char want[4096];
	memset(longname, 'd', 200);
	longname[200] = 0;
	snprintf(dir, sizeof dir, "%s/%s", test_tmpdir(), longname);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	snprintf(bad, sizeof bad, "%s/crafted.book", dir);
	snprintf(good, sizeof good, "%s/good.book", dir);
	snprintf(merged, sizeof merged, "%s/merged.book", dir);
	size_t len, n, len2;
	unsigned char *d = crafted_image(bad, craft_two_discs, &len, &n);
	test_write_file(bad, d, len);
	char err[BOOK_ERR];
	Book *g = random_book(5, 10, 10);
	ck_assert(book_save(g, good, NULL, NULL, err));
	book_free(g);
	snprintf(want, sizeof want,
	         "emilia-book: %s: corrupt: position %zu of %zu: a square holds two discs\n", bad, n, n);
	static const char *const cmds[] = { "fix", "stats", "verify", "probe" };
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		snprintf(args, sizeof args, "%s --quiet '%s'", cmds[i], bad);
		ck_assert_int_eq(run_tool(args, out, sizeof out), 1);
		ck_assert_str_eq(out, want);
	}
	snprintf(args, sizeof args, "merge --quiet '%s' '%s' '%s'", merged, good, bad);
	ck_assert_int_eq(run_tool(args, out, sizeof out), 1);
	ck_assert_str_eq(out, want);
	snprintf(args, sizeof args, "merge --quiet '%s' '%s' '%s'", merged, bad, good);
	ck_assert_int_eq(run_tool(args, out, sizeof out), 1);
	ck_assert_str_eq(out, want);
	struct stat st;
	ck_assert_int_ne(stat(merged, &st), 0);
	/* a file cut short: the whole name too */
	char cut[1200];
	snprintf(cut, sizeof cut, "%s/cut.book", dir);
	test_write_file(cut, d, 40);
	snprintf(args, sizeof args, "stats '%s'", cut);
	ck_assert_int_eq(run_tool(args, out, sizeof out), 1);
	snprintf(want, sizeof want,
	         "emilia-book: %s: truncated: 40 bytes, shorter than the 64-byte header\n", cut);
	ck_assert_str_eq(out, want);
	unsigned char *after = read_file(bad, &len2);   /* fix wrote nothing */
	ck_assert_uint_eq(len2, len);
	ck_assert_int_eq(memcmp(after, d, len), 0);
	free(after);
	free(d);
}
END_TEST

/* book_list_moves with a limit N gives the best N moves, best first, not
 * the first N in square order (after f5d6c3d3 that would be C2 -12, while
 * C4 +2 is the best book move). */
START_TEST(test_list_moves_best_first)
{
	char err[BOOK_ERR];
	Book *b = book_open_default(err);
	ck_assert_msg(b != NULL, "%s", err);
	static const char *const lines[] = { "f5d6c3d3", "f5d6", "f5f6", "f5d6c3", "f5d6c5f4e3", "f5f4e3", "" };
	int positions = 0;
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		Game g;
		game_init(&g, 8, VARIANT_NORMAL);
		char terr[TEXT_ERR];
		ck_assert(text_apply_transcript(&g, lines[i], terr));
		BookMove all[64];
		int n = book_list_moves(b, &g, all, 64);
		if (n < 2)
			continue;
		positions++;
		for (int k = 1; k < n; k++)
			ck_assert_int_ge(all[k - 1].score, all[k].score);
		for (int max = 1; max <= n; max++) {
			BookMove mv[64];
			ck_assert_int_eq(book_list_moves(b, &g, mv, max), max);
			for (int k = 0; k < max; k++) {
				ck_assert_int_eq(mv[k].move, all[k].move);
				ck_assert_int_eq(mv[k].score, all[k].score);
				ck_assert_int_eq(mv[k].leaf, all[k].leaf);
			}
		}
		if (!strcmp(lines[i], "f5d6c3d3")) {
			/* the case of the report: the best move is not the first in square order */
			int lowest = 64;
			for (int k = 0; k < n; k++)
				if (!all[k].leaf && all[k].move < lowest)
					lowest = all[k].move;
			ck_assert_int_ne(all[0].move, lowest);
		}
	}
	ck_assert_int_ge(positions, 4);
	book_free(b);
}
END_TEST

static Suite *book_suite(void)
{
	Suite *s = suite_create("book");
	TCase *tc = tcase_create("book");
	tcase_add_checked_fixture(tc, test_tmpdir_setup, test_tmpdir_teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_symmetry_squares);
	tcase_add_test(tc, test_symmetry_probe);
	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_values_negamax);
	tcase_add_test(tc, test_pass_and_end);
	tcase_add_test(tc, test_randomness);
	tcase_add_test(tc, test_corrupt_refused);
	tcase_add_test(tc, test_unsorted_refused);
	tcase_add_test(tc, test_crafted_entries_refused);
	tcase_add_test(tc, test_import_refuses_bad_entry);
	tcase_add_test(tc, test_reader_survives_rewrite_in_place);
	tcase_add_test(tc, test_fifo_refused);
	tcase_add_test(tc, test_verify_catches);
	tcase_add_test(tc, test_interrupted_save);
	tcase_add_test(tc, test_reader_undisturbed);
	tcase_add_test(tc, test_export_import);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_deviate);
	tcase_add_test(tc, test_engine_hook);
	tcase_add_test(tc, test_default_book);
	tcase_add_test(tc, test_list_moves_best_first);
	tcase_add_test(tc, test_tool);
	tcase_add_test(tc, test_tool_refuses_crafted);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(book_suite)
