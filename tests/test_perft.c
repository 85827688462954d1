/*
 * perft against the reference tables in tests/data/perft-*.tsv (copied
 * from the shared oracle data: published series for 8x8, two independent
 * computations for 6x6 and 4x4), in both pass conventions, sequential and
 * threaded, through the library and through `emilia perft`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "testutil.h"
#include "perft.h"

#define MAX_DEPTH 20

typedef struct PerftTable {
	int ndepth;                  /* depths 1..ndepth have a row */
	uint64_t mode1[MAX_DEPTH + 1];
	uint64_t mode2[MAX_DEPTH + 1]; /* 0 where the table has none */
} PerftTable;

/* Columns: depth, mode1 leaves, [mode1 split columns, 8x8 only], mode2
 * leaves, ... ; '#' comments and the header line are skipped. */
static PerftTable load_table(const char *name, int mode2_column)
{
	PerftTable t;
	memset(&t, 0, sizeof t);
	FILE *f = fopen(test_data(name), "r");
	ck_assert_msg(f != NULL, "cannot open %s", test_data(name));
	char line[512];
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#' || !strncmp(line, "depth", 5))
			continue;
		char *cols[8] = { 0 };
		int nc = 0;
		for (char *s = line; nc < 8;) {
			cols[nc++] = s;
			char *tab = strchr(s, '\t');
			if (!tab)
				break;
			*tab = 0;
			s = tab + 1;
		}
		ck_assert_int_ge(nc, 2);
		int d = atoi(cols[0]);
		ck_assert_int_eq(d, t.ndepth + 1);
		ck_assert_int_le(d, MAX_DEPTH);
		t.mode1[d] = strtoull(cols[1], NULL, 10);
		if (mode2_column < nc)
			t.mode2[d] = strtoull(cols[mode2_column], NULL, 10);
		t.ndepth = d;
	}
	fclose(f);
	return t;
}

static void check_series(int size, const PerftTable *t, int mode, int max_depth)
{
	const Board b = board_start(size);
	const uint64_t geo = board_geometry(size);
	ck_assert_int_ge(t->ndepth, max_depth);
	ck_assert_uint_eq(perft(b, 0, mode, geo), 1);
	for (int d = 1; d <= max_depth; d++) {
		uint64_t want = mode == 1 ? t->mode1[d] : t->mode2[d];
		ck_assert_msg(want != 0, "no reference for %dx%d depth %d mode %d", size, size, d, mode);
		uint64_t got = perft(b, d, mode, geo);
		ck_assert_msg(got == want, "perft %dx%d mode %d depth %d: %llu, expected %llu", size, size, mode, d,
		              (unsigned long long)got, (unsigned long long)want);
	}
}

START_TEST(perft_8x8_mode1_to_depth_10)
{
	PerftTable t = load_table("perft-8x8.tsv", 4);
	ck_assert_uint_eq(t.mode1[11], 212258800); /* the fixture is the right file */
	check_series(8, &t, 1, 10);
}
END_TEST

START_TEST(perft_8x8_mode2_to_depth_10)
{
	PerftTable t = load_table("perft-8x8.tsv", 4);
	ck_assert_uint_eq(t.mode2[11], 212260880);
	check_series(8, &t, 2, 10);
}
END_TEST

START_TEST(perft_6x6_both_modes_to_depth_9)
{
	PerftTable t = load_table("perft-6x6.tsv", 2);
	check_series(6, &t, 1, 9);
	check_series(6, &t, 2, 9);
}
END_TEST

/* 4x4: the whole game tree.  Mode 2 reaches all 60060 games at depth 11
 * (at most 12 moves, and passes use no ply); mode 1 needs 15 plies. */
START_TEST(perft_4x4_complete)
{
	PerftTable t = load_table("perft-4x4.tsv", 2);
	ck_assert_int_eq(t.ndepth, 16);
	check_series(4, &t, 1, 16);
	check_series(4, &t, 2, 16);
	ck_assert_uint_eq(t.mode2[11], 60060);
	ck_assert_uint_eq(t.mode1[15], 60060);
	const Board b = board_start(4);
	const uint64_t geo = board_geometry(4);
	for (int d = 17; d <= 40; d += 7) {
		ck_assert_uint_eq(perft(b, d, 1, geo), 60060);
		ck_assert_uint_eq(perft(b, d, 2, geo), 60060);
	}
}
END_TEST

START_TEST(threaded_equals_sequential)
{
	static const struct { int size, depth, mode; } cases[] = {
		{ 8, 9, 1 }, { 8, 9, 2 }, { 6, 10, 2 }, { 6, 9, 1 }, { 4, 14, 1 }, { 4, 12, 2 }, { 8, 6, 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const Board b = board_start(cases[i].size);
		const uint64_t geo = board_geometry(cases[i].size);
		uint64_t seq = perft(b, cases[i].depth, cases[i].mode, geo);
		for (int th = 1; th <= 5; th += 2)
			ck_assert_uint_eq(perft_parallel(b, cases[i].depth, cases[i].mode, geo, th), seq);
	}
}
END_TEST

/* Every position along a few random games: perft 3 of the position equals
 * the count by an independent, deliberately simple recursion on the slow
 * reference move generator. */
static uint64_t ref_perft(uint64_t p, uint64_t o, int depth, int mode)
{
	if (depth == 0)
		return 1;
	uint64_t m = ref_moves(p, o);
	if (!m) {
		if (!ref_moves(o, p))
			return 1;
		return ref_perft(o, p, mode == 1 ? depth - 1 : depth, mode);
	}
	uint64_t n = 0;
	for (; m; m = bit_pop(m)) {
		int sq = bit_first(m);
		uint64_t f = ref_flips(p, o, sq);
		n += ref_perft(o ^ f, p ^ f ^ bit_of(sq), depth - 1, mode);
	}
	return n;
}

START_TEST(perft_of_random_positions_matches_reference_recursion)
{
	uint64_t rs = 2024;
	for (int game = 0; game < 6; game++) {
		Board b = board_start(8);
		for (int ply = 0; ply < 70; ply++) {
			for (int mode = 1; mode <= 2; mode++)
				ck_assert_uint_eq(perft(b, 3, mode, ~0ULL), ref_perft(b.p, b.o, 3, mode));
			uint64_t m = board_moves(b.p, b.o);
			if (!m) {
				if (!board_moves(b.o, b.p))
					break;
				b = board_pass(b);
				continue;
			}
			int k = (int)(test_rand(&rs) % (uint64_t)bit_count(m));
			while (k--)
				m = bit_pop(m);
			int sq = bit_first(m);
			b = board_apply(b, sq, board_flips(b.p, b.o, sq));
		}
	}
}
END_TEST

/* ---- the command line ------------------------------------------------- */

/* Runs `$EMILIA_BIN args`, returns its exit status; stdout goes to out. */
static int run_emilia(const char *args, char *out, size_t outlen)
{
	const char *bin = getenv("EMILIA_BIN");
	if (!bin)
		bin = "./emilia";
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "'%s' %s 2>/dev/null", bin, args);
	FILE *f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	size_t n = fread(out, 1, outlen - 1, f);
	out[n] = 0;
	int st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(cli_prints_count_time_and_speed)
{
	char out[4096];
	ck_assert_int_eq(run_emilia("perft 8", out, sizeof out), 0);
	ck_assert_msg(!strncmp(out, "390216\ntime ", 12), "output: %s", out);
	ck_assert_ptr_nonnull(strstr(out, "M leaves/s"));
	ck_assert_int_eq(run_emilia("perft 9 --board 6 --mode 2 --threads 2", out, sizeof out), 0);
	ck_assert_msg(!strncmp(out, "2115128\n", 8), "output: %s", out);
	ck_assert_int_eq(run_emilia("perft 11 --board 4 --mode 2", out, sizeof out), 0);
	ck_assert_msg(!strncmp(out, "60060\n", 6), "output: %s", out);
	ck_assert_int_eq(run_emilia("perft 0", out, sizeof out), 0);
	ck_assert_msg(!strncmp(out, "1\n", 2), "output: %s", out);
}
END_TEST

START_TEST(cli_divide_lists_root_moves_and_total)
{
	char out[4096];
	ck_assert_int_eq(run_emilia("perft 7 --divide", out, sizeof out), 0);
	/* the four first moves are symmetric: 55092 / 4 each */
	const char *want = "d3 13773\nc4 13773\nf5 13773\ne6 13773\n55092\ntime ";
	ck_assert_msg(!strncmp(out, want, strlen(want)), "output: %s", out);
}
END_TEST

START_TEST(cli_rejects_bad_arguments)
{
	static const char *const bad[] = {
		"perft", "perft x", "perft -1", "perft 61", "perft 5 --board 5", "perft 5 --board",
		"perft 5 --mode 3", "perft 5 --threads 0", "perft 5 --threads 1000", "perft 5 --bogus",
		"perft 5 6", "perft 5x",
	};
	char out[4096];
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_msg(run_emilia(bad[i], out, sizeof out) == 2, "'%s' accepted", bad[i]);
		ck_assert_msg(out[0] == 0, "'%s' printed a result: %s", bad[i], out);
	}
}
END_TEST

static Suite *perft_suite(void)
{
	Suite *s = suite_create("perft");
	TCase *tc = tcase_create("tables");
	tcase_add_test(tc, perft_8x8_mode1_to_depth_10);
	tcase_add_test(tc, perft_8x8_mode2_to_depth_10);
	tcase_add_test(tc, perft_6x6_both_modes_to_depth_9);
	tcase_add_test(tc, perft_4x4_complete);
	tcase_add_test(tc, threaded_equals_sequential);
	tcase_add_test(tc, perft_of_random_positions_matches_reference_recursion);
	suite_add_tcase(s, tc);
	TCase *cli = tcase_create("cli");
	tcase_add_test(cli, cli_prints_count_time_and_speed);
	tcase_add_test(cli, cli_divide_lists_root_moves_and_total);
	tcase_add_test(cli, cli_rejects_bad_arguments);
	suite_add_tcase(s, cli);
	return s;
}

TEST_MAIN(perft_suite)
