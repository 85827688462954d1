/*
 * bit.h - the one place where bit tricks and CPU features are chosen.
 *
 * Squares are numbered 0..63 as row * 8 + column, a1 = 0 (top-left), h1 = 7,
 * a8 = 56, h8 = 63.  EMILIA_AVX2 is defined by the Makefile for the AVX2
 * build (which also implies BMI1/BMI2/POPCNT/LZCNT); nothing else in the tree
 * tests compiler or CPU macros.
 */
#ifndef EMILIA_BIT_H
#define EMILIA_BIT_H

#include <stdint.h>

#if defined(EMILIA_AVX2)
#include <immintrin.h>
#define EMILIA_HAVE_AVX2 1
#else
#define EMILIA_HAVE_AVX2 0
#endif

/* Number of set bits.  Without the POPCNT instruction (ARCH=portable) the
 * builtin is a library call; the inline SWAR count is faster. */
static inline int bit_count(uint64_t b)
{
#if defined(__POPCNT__)
	return __builtin_popcountll(b);
#else
	b = b - ((b >> 1) & 0x5555555555555555ULL);
	b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
	b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
	return (int)((b * 0x0101010101010101ULL) >> 56);
#endif
}

/* Index of the lowest set bit; b must be non-zero. */
static inline int bit_first(uint64_t b) { return __builtin_ctzll(b); }

/* Clear the lowest set bit. */
static inline uint64_t bit_pop(uint64_t b) { return b & (b - 1); }

static inline uint64_t bit_of(int sq) { return 1ULL << sq; }

static inline uint64_t bit_bswap(uint64_t b) { return __builtin_bswap64(b); }

/* Mirror left-right (column c -> 7 - c). */
static inline uint64_t bit_mirror_h(uint64_t b)
{
	b = ((b >> 1) & 0x5555555555555555ULL) | ((b & 0x5555555555555555ULL) << 1);
	b = ((b >> 2) & 0x3333333333333333ULL) | ((b & 0x3333333333333333ULL) << 2);
	b = ((b >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((b & 0x0F0F0F0F0F0F0F0FULL) << 4);
	return b;
}

/* Mirror top-bottom (row r -> 7 - r). */
static inline uint64_t bit_mirror_v(uint64_t b) { return bit_bswap(b); }

/* Transpose along the a1-h8 diagonal (square r*8+c -> c*8+r). */
static inline uint64_t bit_transpose(uint64_t b)
{
	uint64_t t;
	t = (b ^ (b >> 7)) & 0x00AA00AA00AA00AAULL; b ^= t ^ (t << 7);
	t = (b ^ (b >> 14)) & 0x0000CCCC0000CCCCULL; b ^= t ^ (t << 14);
	t = (b ^ (b >> 28)) & 0x00000000F0F0F0F0ULL; b ^= t ^ (t << 28);
	return b;
}

/* Apply symmetry s (0..7) of the square: bit 0 mirror_h, bit 1 mirror_v, bit 2 transpose first. */
static inline uint64_t bit_symmetry(uint64_t b, int s)
{
	if (s & 4) b = bit_transpose(b);
	if (s & 1) b = bit_mirror_h(b);
	if (s & 2) b = bit_mirror_v(b);
	return b;
}

/* Iterate over set bits: for (uint64_t m = x; m; m = bit_pop(m)) { int sq = bit_first(m); } */

#endif
