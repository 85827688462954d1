/*
 * board.h - bitboards, move generation and flips.
 *
 * A position is two bitboards seen from the side to move: p (player to move)
 * and o (opponent).  Bit i is square i = row * 8 + column, a1 = 0, h8 = 63.
 * The two sets are disjoint; squares in neither are empty.
 *
 * Smaller boards (6x6, 4x4) live in the top-left corner of the 8x8 bitboard
 * (a1..f6, a1..d4).  Squares outside are always empty and never legal:
 * callers AND the move set with board_geometry(size).  Flips never reach
 * outside squares because they are never occupied.
 *
 * Two kernels exist: a portable scalar one and an AVX2 one that runs the
 * four shift amounts (1, 8, 9, 7) side by side in one 256-bit register.
 * Both are always visible to the tests; board_moves / board_flips pick the
 * one the build was compiled for.  They must give bit-identical results
 * (tests/test_board.c checks both against a slow reference on 10^6
 * random positions).
 */
#ifndef EMILIA_BOARD_H
#define EMILIA_BOARD_H

#include <stdbool.h>
#include <stdint.h>
#include "bit.h"

typedef struct Board {
	uint64_t p; /* discs of the side to move */
	uint64_t o; /* discs of the opponent */
} Board;

enum { BOARD_PASS = 64, BOARD_NOMOVE = 65 };

/* Ray masks used by the flip kernels, indexed [square][direction]:
 * directions 0..3 go towards higher squares (+1, +8, +9, +7),
 * 4..7 towards lower squares (-1, -8, -9, -7).  Filled at load time. */
extern uint64_t board_ray[64][8];

/* One bit per square, repeated in four lanes (the AVX2 kernel's operand). */
extern uint64_t board_bit4[64][4];

/* Lane masks: the first k of four 64-bit lanes set, k = 0..4. */
extern const uint64_t board_lanes_valid[5][4];

/* Squares of the board of the given side (8, 6 or 4); 0 for other sizes. */
static inline uint64_t board_geometry(int size)
{
	switch (size) {
	case 8: return ~0ULL;
	case 6: return 0x00003F3F3F3F3F3FULL;
	case 4: return 0x000000000F0F0F0FULL;
	default: return 0;
	}
}

/* ---- portable kernel -------------------------------------------------- */

static inline uint64_t board_moves_dir_portable(uint64_t p, uint64_t om, int s)
{
	uint64_t fl = om & (p << s), fr = om & (p >> s);
	fl |= om & (fl << s);
	fr |= om & (fr >> s);
	uint64_t pl = om & (om << s), pr = pl >> s;
	fl |= pl & (fl << (2 * s));
	fr |= pr & (fr >> (2 * s));
	fl |= pl & (fl << (2 * s));
	fr |= pr & (fr >> (2 * s));
	return (fl << s) | (fr >> s);
}

static inline uint64_t board_moves_portable(uint64_t p, uint64_t o)
{
	const uint64_t inner = o & 0x7E7E7E7E7E7E7E7EULL;
	uint64_t m = board_moves_dir_portable(p, inner, 1)
	           | board_moves_dir_portable(p, o, 8)
	           | board_moves_dir_portable(p, inner, 9)
	           | board_moves_dir_portable(p, inner, 7);
	return m & ~(p | o);
}

static inline uint64_t board_flips_portable(uint64_t p, uint64_t o, int sq)
{
	const uint64_t *r = board_ray[sq];
	uint64_t f = 0;
	for (int d = 0; d < 4; d++) {
		uint64_t t = r[d] & ~o;
		uint64_t ob = t & (0 - t) & p;
		f |= ((ob - 1) & r[d]) & (0 - (uint64_t)(ob != 0));
	}
	for (int d = 4; d < 8; d++) {
		uint64_t t = r[d] & ~o;
		/* ob: the nearest non-opponent square if it is ours; the flips
		 * are the ray's squares above it (none when ob is 0) */
		uint64_t ob = (0x8000000000000000ULL >> __builtin_clzll(t | 1)) & t & p;
		f |= r[d] & (0 - (ob << 1));
	}
	return f;
}

/* ---- AVX2 kernel ------------------------------------------------------- */
#if EMILIA_HAVE_AVX2
static inline uint64_t board_or_lanes(__m256i v)
{
	__m128i x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
	x = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
	return (uint64_t)_mm_cvtsi128_si64(x);
}

/* Moves of pp over oo (both broadcast to all lanes), one shift amount per
 * lane, not yet ORed together nor masked with the empty squares. */
static inline __m256i board_moves_lanes_avx2(__m256i pp, __m256i oo)
{
	const __m256i sh = _mm256_set_epi64x(7, 9, 8, 1);
	const __m256i sh2 = _mm256_set_epi64x(14, 18, 16, 2);
	const __m256i mask = _mm256_set_epi64x(0x7E7E7E7E7E7E7E7ELL, 0x7E7E7E7E7E7E7E7ELL,
	                                       -1LL, 0x7E7E7E7E7E7E7E7ELL);
	const __m256i om = _mm256_and_si256(oo, mask);
	__m256i fl = _mm256_and_si256(om, _mm256_sllv_epi64(pp, sh));
	__m256i fr = _mm256_and_si256(om, _mm256_srlv_epi64(pp, sh));
	fl = _mm256_or_si256(fl, _mm256_and_si256(om, _mm256_sllv_epi64(fl, sh)));
	fr = _mm256_or_si256(fr, _mm256_and_si256(om, _mm256_srlv_epi64(fr, sh)));
	const __m256i pl = _mm256_and_si256(om, _mm256_sllv_epi64(om, sh));
	const __m256i pr = _mm256_srlv_epi64(pl, sh);
	fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, sh2)));
	fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, sh2)));
	fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, sh2)));
	fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, sh2)));
	return _mm256_or_si256(_mm256_sllv_epi64(fl, sh), _mm256_srlv_epi64(fr, sh));
}

static inline uint64_t board_moves_avx2(uint64_t p, uint64_t o)
{
	const __m256i m = board_moves_lanes_avx2(_mm256_set1_epi64x((long long)p),
	                                         _mm256_set1_epi64x((long long)o));
	return board_or_lanes(m) & ~(p | o);
}

/* Flips of the move sq, one direction pair per lane, not yet ORed. */
static inline __m256i board_flips_lanes_avx2(__m256i pp, __m256i oo, int sq)
{
	const __m256i zero = _mm256_setzero_si256();
	/* towards higher squares: the nearest non-opponent square on the ray
	 * is its lowest set bit; flips if it is ours. */
	const __m256i up = _mm256_loadu_si256((const __m256i *)&board_ray[sq][0]);
	__m256i t = _mm256_andnot_si256(oo, up);
	__m256i ob = _mm256_and_si256(_mm256_and_si256(t, _mm256_sub_epi64(zero, t)), pp);
	__m256i fu = _mm256_and_si256(_mm256_add_epi64(ob, _mm256_set1_epi64x(-1)), up);
	fu = _mm256_andnot_si256(_mm256_cmpeq_epi64(ob, zero), fu);
	/* towards lower squares: fill the run of opponent discs (at most 6). */
	const __m256i sh = _mm256_set_epi64x(7, 9, 8, 1);
	const __m256i sh2 = _mm256_set_epi64x(14, 18, 16, 2);
	const __m256i mask = _mm256_set_epi64x(0x7E7E7E7E7E7E7E7ELL, 0x7E7E7E7E7E7E7E7ELL,
	                                       -1LL, 0x7E7E7E7E7E7E7E7ELL);
	const __m256i om = _mm256_and_si256(oo, mask);
	const __m256i x = _mm256_loadu_si256((const __m256i *)board_bit4[sq]);
	__m256i fd = _mm256_and_si256(om, _mm256_srlv_epi64(x, sh));
	fd = _mm256_or_si256(fd, _mm256_and_si256(om, _mm256_srlv_epi64(fd, sh)));
	const __m256i pr = _mm256_and_si256(om, _mm256_srlv_epi64(om, sh));
	fd = _mm256_or_si256(fd, _mm256_and_si256(pr, _mm256_srlv_epi64(fd, sh2)));
	fd = _mm256_or_si256(fd, _mm256_and_si256(pr, _mm256_srlv_epi64(fd, sh2)));
	__m256i od = _mm256_and_si256(pp, _mm256_srlv_epi64(fd, sh));
	fd = _mm256_andnot_si256(_mm256_cmpeq_epi64(od, zero), fd);
	return _mm256_or_si256(fu, fd);
}

static inline uint64_t board_flips_avx2(uint64_t p, uint64_t o, int sq)
{
	return board_or_lanes(board_flips_lanes_avx2(_mm256_set1_epi64x((long long)p),
	                                             _mm256_set1_epi64x((long long)o), sq));
}

/* The flips of sq plus sq itself, one direction pair per lane. */
static inline __m256i board_flips_x_lanes_avx2(__m256i pp, __m256i oo, int sq)
{
	return _mm256_or_si256(board_flips_lanes_avx2(pp, oo, sq),
	                       _mm256_loadu_si256((const __m256i *)board_bit4[sq]));
}

/* OR of the four lanes, in every lane. */
static inline __m256i board_or_all_lanes(__m256i v)
{
	v = _mm256_or_si256(v, _mm256_permute4x64_epi64(v, 0x4E));
	return _mm256_or_si256(v, _mm256_shuffle_epi32(v, 0x4E));
}

/* Four 4-lane vectors in, the OR of each one's lanes out, as lanes 0..3. */
static inline __m256i board_or_transpose_avx2(__m256i a, __m256i b, __m256i c, __m256i d)
{
	const __m256i ab = _mm256_or_si256(_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b));
	const __m256i cd = _mm256_or_si256(_mm256_unpacklo_epi64(c, d), _mm256_unpackhi_epi64(c, d));
	return _mm256_or_si256(_mm256_permute2x128_si256(ab, cd, 0x20),
	                       _mm256_permute2x128_si256(ab, cd, 0x31));
}

/* Moves in one direction pair (shift s) for four independent positions,
 * one per lane; om is the opponent set masked for the direction. */
#define BOARD_MOVES_DIR_X4(P, om, s, out)                                                  \
	do {                                                                               \
		__m256i fl_ = _mm256_and_si256(om, _mm256_slli_epi64(P, s));               \
		__m256i fr_ = _mm256_and_si256(om, _mm256_srli_epi64(P, s));               \
		fl_ = _mm256_or_si256(fl_, _mm256_and_si256(om, _mm256_slli_epi64(fl_, s))); \
		fr_ = _mm256_or_si256(fr_, _mm256_and_si256(om, _mm256_srli_epi64(fr_, s))); \
		const __m256i pl_ = _mm256_and_si256(om, _mm256_slli_epi64(om, s));       \
		const __m256i pr_ = _mm256_srli_epi64(pl_, s);                             \
		fl_ = _mm256_or_si256(fl_, _mm256_and_si256(pl_, _mm256_slli_epi64(fl_, 2 * (s)))); \
		fr_ = _mm256_or_si256(fr_, _mm256_and_si256(pr_, _mm256_srli_epi64(fr_, 2 * (s)))); \
		fl_ = _mm256_or_si256(fl_, _mm256_and_si256(pl_, _mm256_slli_epi64(fl_, 2 * (s)))); \
		fr_ = _mm256_or_si256(fr_, _mm256_and_si256(pr_, _mm256_srli_epi64(fr_, 2 * (s)))); \
		out = _mm256_or_si256(_mm256_slli_epi64(fl_, s), _mm256_srli_epi64(fr_, s)); \
	} while (0)

/* Legal moves of four positions at once, one per lane (P to move). */
static inline __m256i board_moves_x4_avx2(__m256i P, __m256i O)
{
	const __m256i inner = _mm256_set1_epi64x(0x7E7E7E7E7E7E7E7ELL);
	const __m256i om = _mm256_and_si256(O, inner);
	__m256i m1, m8, m9, m7;
	/* shift 1: towards higher squares the carry of an addition runs
	 * through a row's opponent discs (om has no disc on columns a and h,
	 * so the carry stops inside the row); the other way, the fill. */
	{
		const __m256i t = _mm256_and_si256(om, _mm256_slli_epi64(P, 1));
		const __m256i up = _mm256_andnot_si256(om, _mm256_add_epi64(om, t));
		__m256i fr = _mm256_and_si256(om, _mm256_srli_epi64(P, 1));
		fr = _mm256_or_si256(fr, _mm256_and_si256(om, _mm256_srli_epi64(fr, 1)));
		const __m256i pr = _mm256_and_si256(om, _mm256_srli_epi64(om, 1));
		fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srli_epi64(fr, 2)));
		fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srli_epi64(fr, 2)));
		m1 = _mm256_or_si256(up, _mm256_srli_epi64(fr, 1));
	}
	BOARD_MOVES_DIR_X4(P, O, 8, m8);
	BOARD_MOVES_DIR_X4(P, om, 9, m9);
	BOARD_MOVES_DIR_X4(P, om, 7, m7);
	const __m256i m = _mm256_or_si256(_mm256_or_si256(m1, m8), _mm256_or_si256(m9, m7));
	return _mm256_andnot_si256(_mm256_or_si256(P, O), m);
}

/* Number of discs in each 64-bit lane, as 64-bit counts. */
static inline __m256i board_popcount_lanes_avx2(__m256i v)
{
	const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
	                                     0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
	const __m256i low = _mm256_set1_epi8(0x0F);
	const __m256i lo = _mm256_shuffle_epi8(lut, _mm256_and_si256(v, low));
	const __m256i hi = _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(v, 4), low));
	return _mm256_sad_epu8(_mm256_add_epi8(lo, hi), _mm256_setzero_si256());
}

/* Four children at once: g0..g3 are their flips plus the move square
 * (directions in lanes); adds their move counts (within gv) to *acc and
 * returns the lanes (bits 0..3) whose child has no move there.  Unused
 * lanes are cleared in gv and then count as having no move. */
static inline __attribute__((always_inline)) int board_children_x4_avx2(
	__m256i pp, __m256i oo, __m256i gv, __m256i g0, __m256i g1, __m256i g2, __m256i g3, __m256i *acc)
{
	const __m256i G = board_or_transpose_avx2(g0, g1, g2, g3);
	const __m256i P = _mm256_andnot_si256(G, oo);
	const __m256i O = _mm256_xor_si256(pp, G);
	const __m256i M = _mm256_and_si256(board_moves_x4_avx2(P, O), gv);
	*acc = _mm256_add_epi64(*acc, board_popcount_lanes_avx2(M));
	return _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(M, _mm256_setzero_si256())));
}

/* See board_mobility_sum(): children are taken four at a time, their
 * flips computed one by one (directions in lanes) and transposed so that
 * the children's move generation runs with one child per lane. */
static inline uint64_t board_mobility_sum_avx2(uint64_t p, uint64_t o, uint64_t moves, uint64_t geo,
                                               uint64_t *nomove)
{
	const __m256i pp = _mm256_set1_epi64x((long long)p);
	const __m256i oo = _mm256_set1_epi64x((long long)o);
	const __m256i gg = _mm256_set1_epi64x((long long)geo);
	__m256i acc = _mm256_setzero_si256();
	uint64_t none = 0;
	while (bit_pop(bit_pop(bit_pop(moves)))) {
		const int s0 = bit_first(moves);
		moves = bit_pop(moves);
		const int s1 = bit_first(moves);
		moves = bit_pop(moves);
		const int s2 = bit_first(moves);
		moves = bit_pop(moves);
		const int s3 = bit_first(moves);
		moves = bit_pop(moves);
		const int dead = board_children_x4_avx2(pp, oo, gg,
			board_flips_x_lanes_avx2(pp, oo, s0), board_flips_x_lanes_avx2(pp, oo, s1),
			board_flips_x_lanes_avx2(pp, oo, s2), board_flips_x_lanes_avx2(pp, oo, s3), &acc);
		if (__builtin_expect(dead != 0, 0))
			none |= (dead & 1 ? bit_of(s0) : 0) | (dead & 2 ? bit_of(s1) : 0) |
			        (dead & 4 ? bit_of(s2) : 0) | (dead & 8 ? bit_of(s3) : 0);
	}
	uint64_t n = 0;
	if (bit_pop(bit_pop(moves))) {
		/* three children left: the fourth lane repeats the first and is
		 * masked out */
		const int s0 = bit_first(moves);
		const uint64_t m1 = bit_pop(moves);
		const int s1 = bit_first(m1);
		const int s2 = bit_first(bit_pop(m1));
		const __m256i g0 = board_flips_x_lanes_avx2(pp, oo, s0);
		const __m256i gv = _mm256_and_si256(gg, _mm256_loadu_si256((const __m256i *)board_lanes_valid[3]));
		const int dead = board_children_x4_avx2(pp, oo, gv, g0, board_flips_x_lanes_avx2(pp, oo, s1),
			board_flips_x_lanes_avx2(pp, oo, s2), g0, &acc) & 7;
		if (__builtin_expect(dead != 0, 0))
			none |= (dead & 1 ? bit_of(s0) : 0) | (dead & 2 ? bit_of(s1) : 0) |
			        (dead & 4 ? bit_of(s2) : 0);
	} else {
		/* one or two: cheaper one at a time, directions in lanes */
		for (; moves; moves = bit_pop(moves)) {
			const int sq = bit_first(moves);
			const __m256i G = board_or_all_lanes(board_flips_x_lanes_avx2(pp, oo, sq));
			const uint64_t cm = board_or_lanes(board_moves_lanes_avx2(_mm256_andnot_si256(G, oo),
			                                                          _mm256_xor_si256(pp, G))) &
			                    ~(p | o | bit_of(sq)) & geo;
			n += (uint64_t)bit_count(cm);
			if (!cm)
				none |= bit_of(sq);
		}
	}
	*nomove = none;
	__m128i s = _mm_add_epi64(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
	s = _mm_add_epi64(s, _mm_unpackhi_epi64(s, s));
	return n + (uint64_t)_mm_cvtsi128_si64(s);
}

#endif

/* ---- the build's kernel ------------------------------------------------ */

/* Legal moves of the side to move on the 8x8 board (AND with
 * board_geometry() for smaller boards). */
static inline uint64_t board_moves(uint64_t p, uint64_t o)
{
#if EMILIA_HAVE_AVX2
	return board_moves_avx2(p, o);
#else
	return board_moves_portable(p, o);
#endif
}

/* Discs flipped when the side to move (p) plays on the empty square sq;
 * 0 when the move is illegal. */
static inline uint64_t board_flips(uint64_t p, uint64_t o, int sq)
{
#if EMILIA_HAVE_AVX2
	return board_flips_avx2(p, o, sq);
#else
	return board_flips_portable(p, o, sq);
#endif
}

/* Sum over the legal moves x in `moves` of the number of moves the
 * opponent has after x (within geo); the squares x after which the
 * opponent has no move are written to *nomove.  The hot loop of perft
 * (its last two plies) and of mobility-based move ordering. */
static inline uint64_t board_mobility_sum_portable(uint64_t p, uint64_t o, uint64_t moves, uint64_t geo,
                                                   uint64_t *nomove)
{
	uint64_t n = 0, none = 0;
	for (; moves; moves = bit_pop(moves)) {
		int sq = bit_first(moves);
		uint64_t f = board_flips_portable(p, o, sq);
		uint64_t m = board_moves_portable(o ^ f, p ^ f ^ bit_of(sq)) & geo;
		if (m)
			n += (uint64_t)bit_count(m);
		else
			none |= bit_of(sq);
	}
	*nomove = none;
	return n;
}

static inline uint64_t board_mobility_sum(uint64_t p, uint64_t o, uint64_t moves, uint64_t geo,
                                          uint64_t *nomove)
{
#if EMILIA_HAVE_AVX2
	return board_mobility_sum_avx2(p, o, moves, geo, nomove);
#else
	return board_mobility_sum_portable(p, o, moves, geo, nomove);
#endif
}

/* Play sq with its flips f (non-zero) and hand the move to the opponent. */
static inline Board board_apply(Board b, int sq, uint64_t f)
{
	Board n = { b.o ^ f, b.p ^ f ^ bit_of(sq) };
	return n;
}

static inline Board board_pass(Board b)
{
	Board n = { b.o, b.p };
	return n;
}

/* Number of the kernel this build uses: "avx2" or "portable". */
const char *board_kernel_name(void);

/* How this kernel was chosen: NULL in a build of one kernel (ARCH=portable,
 * avx2, native).  The default build holds a portable and an AVX2 copy of
 * the engine and its start-up dispatcher (src/core/dispatch.c) sets this in the
 * copy it runs, before main(): "dispatched", with the reason when the
 * choice is not the CPU's ("dispatched: EMILIA_KERNEL=portable"). */
extern const char *board_kernel_choice;

/* Start position of a board of the given size (8, 6 or 4), Black to move. */
Board board_start(int size);

/* Canonical form under the 8 symmetries (smallest (p, o) pair); writes the
 * symmetry used to *sym when sym is not NULL.  Only for 8x8 positions. */
Board board_canonical(Board b, int *sym);

#endif
