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
		uint64_t ob = (0x8000000000000000ULL >> __builtin_clzll(t | 1)) & t & p;
		f |= (r[d] & (0 - (ob << 1))) & (0 - (uint64_t)(ob != 0));
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

static inline uint64_t board_moves_avx2(uint64_t p, uint64_t o)
{
	const __m256i sh = _mm256_set_epi64x(7, 9, 8, 1);
	const __m256i sh2 = _mm256_set_epi64x(14, 18, 16, 2);
	const __m256i mask = _mm256_set_epi64x(0x7E7E7E7E7E7E7E7ELL, 0x7E7E7E7E7E7E7E7ELL,
	                                       -1LL, 0x7E7E7E7E7E7E7E7ELL);
	const __m256i pp = _mm256_set1_epi64x((long long)p);
	const __m256i om = _mm256_and_si256(_mm256_set1_epi64x((long long)o), mask);
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
	__m256i m = _mm256_or_si256(_mm256_sllv_epi64(fl, sh), _mm256_srlv_epi64(fr, sh));
	return board_or_lanes(m) & ~(p | o);
}

static inline uint64_t board_flips_avx2(uint64_t p, uint64_t o, int sq)
{
	const __m256i zero = _mm256_setzero_si256();
	const __m256i pp = _mm256_set1_epi64x((long long)p);
	const __m256i oo = _mm256_set1_epi64x((long long)o);
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
	const __m256i x = _mm256_set1_epi64x((long long)bit_of(sq));
	__m256i fd = _mm256_and_si256(om, _mm256_srlv_epi64(x, sh));
	fd = _mm256_or_si256(fd, _mm256_and_si256(om, _mm256_srlv_epi64(fd, sh)));
	const __m256i pr = _mm256_and_si256(om, _mm256_srlv_epi64(om, sh));
	fd = _mm256_or_si256(fd, _mm256_and_si256(pr, _mm256_srlv_epi64(fd, sh2)));
	fd = _mm256_or_si256(fd, _mm256_and_si256(pr, _mm256_srlv_epi64(fd, sh2)));
	__m256i od = _mm256_and_si256(pp, _mm256_srlv_epi64(fd, sh));
	fd = _mm256_andnot_si256(_mm256_cmpeq_epi64(od, zero), fd);
	return board_or_lanes(_mm256_or_si256(fu, fd));
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

/* Start position of a board of the given size (8, 6 or 4), Black to move. */
Board board_start(int size);

/* Canonical form under the 8 symmetries (smallest (p, o) pair); writes the
 * symmetry used to *sym when sym is not NULL.  Only for 8x8 positions. */
Board board_canonical(Board b, int *sym);

#endif
