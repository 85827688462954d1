/* Endgame solver: exact scores on FFO positions, oracles, WLD, threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "endgame.h"
#include "text.h"

/* Reads the n-th position (1-based) of an OBF file. */
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

static void check_ffo(const char *file, int n, int threads)
{
	ObfPosition pos = read_obf(file, n);
	EndgameOptions opt = endgame_default_options();
	opt.threads = threads;
	EndgameResult r = endgame_solve(pos.board, &opt);
	ck_assert(!r.aborted);
	ck_assert_int_eq(r.score, pos.expected_score[0]);
	bool listed = false;
	for (int i = 0; i < pos.nexpected; i++)
		if (pos.expected_move[i] == r.move && pos.expected_score[i] == pos.expected_score[0])
			listed = true;
	ck_assert_msg(listed, "%s #%d: move %d is not a best move", file, n, r.move);
}

START_TEST(ffo_1_to_5)
{
	for (int n = 1; n <= 5; n++)
		check_ffo("fforum-1-19.obf", n, 1);
}
END_TEST

START_TEST(start_4x4_is_white_plus_10)
{
	EndgameOptions opt = endgame_default_options();
	opt.size = 4;
	EndgameResult r = endgame_solve(board_start(4), &opt);
	ck_assert_int_eq(r.score, -10);
}
END_TEST

static Suite *endgame_suite(void)
{
	Suite *s = suite_create("endgame");
	TCase *tc = tcase_create("endgame");
	tcase_add_test(tc, ffo_1_to_5);
	tcase_add_test(tc, start_4x4_is_white_plus_10);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(endgame_suite)
