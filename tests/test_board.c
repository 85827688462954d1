/* Move generation and flips: both kernels against the slow reference. */
#include "testutil.h"
#include "game.h"

/* Equality check for the hot loops: Check's ck_assert_* report every
 * passing assertion to the parent process (a system call each), which
 * made this suite spend most of its time in the kernel. */
#define EXPECT_EQ(got, want)                                                                     \
	do {                                                                                     \
		const uint64_t got_ = (got), want_ = (want);                                     \
		if (got_ != want_)                                                               \
			ck_abort_msg("%s == 0x%016llx, expected 0x%016llx (line %d)", #got,      \
			             (unsigned long long)got_, (unsigned long long)want_, __LINE__); \
	} while (0)

/* board_mobility_sum (both kernels) against the kernel checked above, with
 * the full board and with the smaller boards' masks. */
static void check_mobility_sum(Board b, uint64_t moves, long n)
{
	const uint64_t geo = board_geometry((n >> 2) % 3 == 0 ? 8 : (n >> 2) % 3 == 1 ? 6 : 4);
	const uint64_t m = moves & geo;
	uint64_t want = 0, want_none = 0;
	for (uint64_t r = m; r; r = bit_pop(r)) {
		int sq = bit_first(r);
		uint64_t f = board_flips_portable(b.p, b.o, sq);
		uint64_t cm = board_moves_portable(b.o ^ f, b.p ^ f ^ bit_of(sq)) & geo;
		want += (uint64_t)bit_count(cm);
		if (!cm)
			want_none |= bit_of(sq);
	}
	uint64_t none = 1;
	EXPECT_EQ(board_mobility_sum_portable(b.p, b.o, m, geo, &none), want);
	EXPECT_EQ(none, want_none);
#if EMILIA_HAVE_AVX2
	none = 1;
	EXPECT_EQ(board_mobility_sum_avx2(b.p, b.o, m, geo, &none), want);
	EXPECT_EQ(none, want_none);
#endif
	none = 1;
	EXPECT_EQ(board_mobility_sum(b.p, b.o, m, geo, &none), want);
	EXPECT_EQ(none, want_none);
}

/* Random reachable positions: random games from the start, every position
 * along the way is checked.  Returns the number of positions checked. */
static long check_random_games(long want, uint64_t seed)
{
	uint64_t rs = seed;
	long n = 0;
	while (n < want) {
		Board b = board_start(8);
		for (;;) {
			uint64_t ref = ref_moves(b.p, b.o);
			EXPECT_EQ(board_moves_portable(b.p, b.o), ref);
#if EMILIA_HAVE_AVX2
			EXPECT_EQ(board_moves_avx2(b.p, b.o), ref);
#endif
			EXPECT_EQ(board_moves(b.p, b.o), ref);
			for (uint64_t m = ref; m; m = bit_pop(m)) {
				int sq = bit_first(m);
				uint64_t f = ref_flips(b.p, b.o, sq);
				EXPECT_EQ(board_flips_portable(b.p, b.o, sq), f);
#if EMILIA_HAVE_AVX2
				EXPECT_EQ(board_flips_avx2(b.p, b.o, sq), f);
#endif
			}
			if ((n & 3) == 0)
				check_mobility_sum(b, ref, n);
			n++;
			if (!ref) {
				if (!ref_moves(b.o, b.p))
					break;
				b = board_pass(b);
				continue;
			}
			int k = (int)(test_rand(&rs) % (uint64_t)bit_count(ref));
			uint64_t m = ref;
			while (k--)
				m = bit_pop(m);
			int sq = bit_first(m);
			b = board_apply(b, sq, ref_flips(b.p, b.o, sq));
		}
	}
	return n;
}

START_TEST(kernels_match_reference_on_a_million_positions)
{
	long n = check_random_games(1000000, 0x9E3779B97F4A7C15ULL);
	ck_assert_int_ge(n, 1000000);
}
END_TEST

/* Arbitrary (not necessarily reachable) bit patterns exercise edges and
 * wrap-around more harshly than games do. */
START_TEST(kernels_match_reference_on_random_bitboards)
{
	uint64_t rs = 12345;
	for (int i = 0; i < 200000; i++) {
		uint64_t a = test_rand(&rs), c = test_rand(&rs), d = test_rand(&rs);
		uint64_t p = a & c, o = ~a & d;
		if (i & 1) { p &= test_rand(&rs); o |= test_rand(&rs) & ~p; }
		uint64_t ref = ref_moves(p, o);
		EXPECT_EQ(board_moves_portable(p, o), ref);
		EXPECT_EQ(board_moves(p, o), ref);
		for (int sq = 0; sq < 64; sq++) {
			if ((p | o) & bit_of(sq))
				continue;
			uint64_t f = ref_flips(p, o, sq);
			EXPECT_EQ(board_flips_portable(p, o, sq), f);
			EXPECT_EQ(board_flips(p, o, sq), f);
		}
	}
}
END_TEST

START_TEST(start_position_and_first_moves)
{
	Board b = board_start(8);
	ck_assert_int_eq(bit_count(b.p), 2);
	ck_assert_int_eq(bit_count(b.o), 2);
	/* d3 c4 f5 e6 = 19 26 37 44 */
	ck_assert_uint_eq(board_moves(b.p, b.o), bit_of(19) | bit_of(26) | bit_of(37) | bit_of(44));
	ck_assert_uint_eq(board_flips(b.p, b.o, 19), bit_of(27)); /* d3 flips d4 */
	Board s6 = board_start(6);
	ck_assert_uint_eq(board_moves(s6.p, s6.o) & board_geometry(6),
	                  bit_of(10) | bit_of(17) | bit_of(28) | bit_of(35)); /* c2 b3 e4 d5 */
	Board s4 = board_start(4);
	ck_assert_uint_eq(board_moves(s4.p, s4.o) & board_geometry(4),
	                  bit_of(1) | bit_of(8) | bit_of(23 - 4) | bit_of(26)); /* b1 a2 d3 c4 */
}
END_TEST

START_TEST(eighteen_flips_is_the_maximum_seen)
{
	/* d4 surrounded: all 8 rays full of opponent discs ending in ours. */
	uint64_t p = 0, o = 0;
	for (int sq = 0; sq < 64; sq++) {
		int r = sq / 8, c = sq % 8;
		if (r == 0 || r == 7 || c == 0 || c == 7)
			p |= bit_of(sq);
		else
			o |= bit_of(sq);
	}
	o &= ~bit_of(27);
	uint64_t f = board_flips(p, o, 27);
	ck_assert_uint_eq(f, ref_flips(p, o, 27));
	ck_assert_int_eq(bit_count(f), 19); /* reachable maximum is 18; this board is not reachable */
}
END_TEST

START_TEST(symmetries_are_a_group)
{
	uint64_t rs = 7;
	for (int i = 0; i < 1000; i++) {
		uint64_t x = test_rand(&rs);
		for (int s = 0; s < 8; s++) {
			uint64_t y = bit_symmetry(x, s);
			ck_assert_int_eq(bit_count(y), bit_count(x));
			int found = 0;
			for (int t = 0; t < 8; t++)
				found += bit_symmetry(y, t) == x;
			ck_assert_int_ge(found, 1);
		}
		Board b = { x & 0x00FF00FF00FF00FFULL, ~x & 0xFF00FF00FF00FF00ULL };
		Board c = board_canonical(b, NULL);
		for (int s = 0; s < 8; s++) {
			Board t = { bit_symmetry(b.p, s), bit_symmetry(b.o, s) };
			Board ct = board_canonical(t, NULL);
			ck_assert_uint_eq(ct.p, c.p);
			ck_assert_uint_eq(ct.o, c.o);
		}
	}
}
END_TEST

static Suite *board_suite(void)
{
	Suite *s = suite_create("board");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, start_position_and_first_moves);
	tcase_add_test(tc, eighteen_flips_is_the_maximum_seen);
	tcase_add_test(tc, symmetries_are_a_group);
	tcase_add_test(tc, kernels_match_reference_on_random_bitboards);
	tcase_add_test(tc, kernels_match_reference_on_a_million_positions);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(board_suite)
