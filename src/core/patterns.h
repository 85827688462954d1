/*
 * patterns.h - the feature set of the 8x8 evaluation: which squares form
 * each pattern, where each pattern's weights live in a phase's weight
 * vector, and fast computation of the ternary pattern indices.
 *
 * A pattern is an ordered list of n squares; its index on a position is
 * sum_k 3^k * state(square_k), state 0 empty, 1 side to move, 2 opponent.
 * Each pattern is placed on the board under the 8 symmetries; the distinct
 * placements ("instances", 62 in all) share one weight table, the order of
 * an instance's squares being the image of the base order under the
 * symmetry that produced it.  A pattern that maps onto itself under some
 * symmetry (an edge under the left-right mirror, say) has equivalent
 * indices; the trainer ties their weights (patterns_canonical), which is
 * what makes the evaluation exactly invariant under the 8 symmetries.
 *
 * Besides the patterns there are three global features, each a table:
 *   - joint mobility: min(moves of p, 19) * 20 + min(moves of o, 19);
 *   - joint potential mobility: min(P, 31) * 32 + min(O, 31), where P is
 *     the number of empty squares next to an opponent disc (where p may
 *     get moves later) and O the same for o;
 *   - the disc difference (discs of p - discs of o) + 64.
 *
 * Weight vector of one phase: PATTERN_WEIGHTS entries, pattern i at
 * patterns_offset(i), the mobility table at PATTERN_MOB_OFFSET.  Phase
 * by empties: (empties - 1) / PATTERN_PHASE_WIDTH.
 *
 * Fast indices: every instance is split into groups of squares lying in
 * distinct columns of either the board or its transpose; a group's bits
 * are gathered into one byte with a multiplication by 0x0101010101010101
 * (exact: the masked board has at most one bit per column, so no carries)
 * and a 256-entry table turns the byte into the group's share of the
 * ternary index.  Pure integer arithmetic: every build computes the same
 * indices, and tests compare them with the square-by-square reference.
 */
#ifndef EMILIA_PATTERNS_H
#define EMILIA_PATTERNS_H

#include <stdbool.h>
#include <stdint.h>

enum {
	PATTERN_COUNT = 15,       /* distinct patterns */
	PATTERN_INSTANCES = 62,   /* placements on the board */
	PATTERN_GLOBALS = 3,      /* mobility, potential mobility, disc difference */
	PATTERN_FEATURES = PATTERN_INSTANCES + PATTERN_GLOBALS,
	PATTERN_MAX_SQUARES = 10,
	PATTERN_MOB_SIDE = 20,
	PATTERN_MOB_SIZE = PATTERN_MOB_SIDE * PATTERN_MOB_SIDE,
	PATTERN_POT_SIDE = 32,
	PATTERN_POT_SIZE = PATTERN_POT_SIDE * PATTERN_POT_SIDE,
	PATTERN_DISC_SIZE = 129,
	PATTERN_MOB_OFFSET = 403461, /* sum of 3^n over the patterns */
	PATTERN_POT_OFFSET = PATTERN_MOB_OFFSET + PATTERN_MOB_SIZE,
	PATTERN_DISC_OFFSET = PATTERN_POT_OFFSET + PATTERN_POT_SIZE,
	PATTERN_WEIGHTS = PATTERN_DISC_OFFSET + PATTERN_DISC_SIZE,
	/* weight file version 2 (emilia-train --widen reads it): the first
	 * 11 patterns (46 instances) and the same globals */
	PATTERN_V2_COUNT = 11,
	PATTERN_V2_MOB_OFFSET = 167265,
	PATTERN_V2_WEIGHTS = PATTERN_V2_MOB_OFFSET + PATTERN_MOB_SIZE + PATTERN_POT_SIZE + PATTERN_DISC_SIZE,
};

#ifndef PATTERN_PHASE_WIDTH
#define PATTERN_PHASE_WIDTH 5
#endif
enum { PATTERN_PHASES = (60 + PATTERN_PHASE_WIDTH - 1) / PATTERN_PHASE_WIDTH };

/* Phase of a position with `empties` empty squares (0..60). */
static inline int patterns_phase(int empties)
{
	int ph = (empties - 1) / PATTERN_PHASE_WIDTH;
	return ph < 0 ? 0 : ph >= PATTERN_PHASES ? PATTERN_PHASES - 1 : ph;
}

/* The empties a phase covers: patterns_phase_lo(ph) .. patterns_phase_hi(ph). */
static inline int patterns_phase_lo(int ph)
{
	return ph * PATTERN_PHASE_WIDTH + 1;
}

static inline int patterns_phase_hi(int ph)
{
	int hi = (ph + 1) * PATTERN_PHASE_WIDTH;
	return hi > 60 ? 60 : hi;
}

int patterns_squares(int pattern);          /* n */
uint32_t patterns_size(int pattern);        /* 3^n */
uint32_t patterns_offset(int pattern);      /* in the phase's weight vector */
int patterns_instance_pattern(int inst);    /* pattern of an instance */
/* Square k of instance inst (0 <= k < n). */
int patterns_instance_square(int inst, int k);

/* Smallest index equivalent to idx under the pattern's self-symmetries. */
uint32_t patterns_canonical(int pattern, uint32_t idx);

/* A number that changes whenever the feature set changes (stored in
 * weight files so that a file for another feature set is refused). */
uint32_t patterns_set_id(void);
/* The feature set id of version 2 weight files (the first PATTERN_V2_COUNT
 * patterns and the globals, at PATTERN_V2_MOB_OFFSET). */
uint32_t patterns_v2_set_id(void);

/* Feature positions in the phase's weight vector: out[i] for instance i
 * is patterns_offset(pattern) + index; out[PATTERN_INSTANCES + 0..2] are
 * the mobility, potential mobility and disc difference entries.
 * Fast version (group tables) and the slow square-by-square reference. */
void patterns_features(uint64_t p, uint64_t o, uint32_t out[PATTERN_FEATURES]);
void patterns_features_ref(uint64_t p, uint64_t o, uint32_t out[PATTERN_FEATURES]);
/* The sum of w[] over the features of (p, o), as patterns_features gives them. */
int patterns_score(uint64_t p, uint64_t o, const int16_t *w);

/* Kernels of patterns_features: the multiply-gather groups (every build)
 * and, in the AVX2 build, BMI2's bit extract with one table per instance.
 * The default is chosen at start-up from the CPU; both give the same
 * indices.  patterns_set_kernel (for tests and benchmarks) returns false
 * when the build lacks the kernel. */
enum { PATTERNS_KERNEL_MULTIPLY = 0, PATTERNS_KERNEL_PEXT = 1 };
int patterns_kernel(void);
bool patterns_set_kernel(int kernel);

/* Mobility feature entry for (p to move, o). */
uint32_t patterns_mobility_index(uint64_t p, uint64_t o);

/* The three global entries (out[0..2]) for (p to move, o). */
void patterns_globals(uint64_t p, uint64_t o, uint32_t out[PATTERN_GLOBALS]);

/* Incremental pattern indices.  A PatternState holds every instance's
 * ternary index (without its pattern's offset) in two views: view 0 is
 * the side to move's (digit 1 its disc, 2 the opponent's), view 1 the
 * opponent's (the digits swapped).  A move by the side to move at sq
 * flipping `flips` turns (view 0, view 1) into the child's
 * (view 1 + 2 T[sq] + F, view 0 + T[sq] - F), where T[x] holds 3^k for
 * every instance that has x as its digit k and F is the sum of T over the
 * flipped squares; a pass swaps the views.  Plain 16-bit lane arithmetic
 * (3^10 < 2^16, and every intermediate wraps back into range), so the
 * compiler's vector code and the scalar code agree; the indices equal
 * patterns_features()'s, whichever kernel computes those. */
enum { PATTERN_INST_PAD = (PATTERN_INSTANCES + 15) / 16 * 16 };
typedef struct PatternState {
	uint16_t idx[2][PATTERN_INST_PAD];
} PatternState;

/* The state of (p to move, o), from scratch. */
void patterns_state_init(PatternState *s, uint64_t p, uint64_t o);
/* The state after the side to move plays sq flipping flips (out may be s). */
void patterns_state_play(const PatternState *s, int sq, uint64_t flips, PatternState *out);
/* The state before that move, from the state after it (out may be s). */
void patterns_state_undo(const PatternState *s, int sq, uint64_t flips, PatternState *out);
/* The state after a pass (its own inverse; out may be s). */
void patterns_state_pass(const PatternState *s, PatternState *out);
/* patterns_score of the position after the side to move of s's position
 * plays sq flipping flips, that is (p to move, o), from s: the same value
 * as patterns_score_state of the child's state, without making it. */
int patterns_score_play(const PatternState *s, int sq, uint64_t flips, uint64_t p, uint64_t o, const int16_t *w);
/* patterns_score(p, o, w) from the state of (p, o). */
int patterns_score_state(const PatternState *s, uint64_t p, uint64_t o, const int16_t *w);

#endif
