/*
 * eval.h - static evaluation.
 *
 * Scores are in discs from the side to move's point of view (the final
 * disc difference the position is expected to end with under best play),
 * as int clamped to [-64, 64], so midgame and exact endgame scores mix in
 * one search.  An Evaluator holds the weights of one board size and
 * variant; eval_get() returns the built-in one (embedded in the binary).
 */
#ifndef EMILIA_EVAL_H
#define EMILIA_EVAL_H

#include <stdbool.h>
#include <stdint.h>
#include "game.h"

typedef struct Evaluator Evaluator;

/* Built-in evaluator for a board size (8, 6, 4) and variant; never NULL. */
const Evaluator *eval_get(int size, Variant v);

/* Static evaluation of (p to move, o). */
int eval_score(const Evaluator *e, uint64_t p, uint64_t o);

/* Finer-grained evaluation: the same score in 1/EVAL_FINE discs, clamped
 * to [-64 * EVAL_FINE, 64 * EVAL_FINE]; eval_score() is this rounded to
 * the nearest disc (halves away from zero). */
#define EVAL_FINE 64
int eval_score_fine(const Evaluator *e, uint64_t p, uint64_t o);

/* NULL when the embedded 8x8 weights are valid; else why they are not
 * (the evaluation then uses zero weights). */
const char *eval_builtin_error(void);

/* An 8x8 normal evaluator with its own copy of the weights w
 * (PATTERN_PHASES * PATTERN_WEIGHTS values, see patterns.h), as the
 * trainer makes from a fit; NULL when out of memory.  It belongs to the
 * caller, who frees it with eval_free() once nothing evaluates with it. */
Evaluator *eval_new(const int16_t *w);

/* The same from a weights file; NULL and a message in err (>= 160 bytes)
 * when the file is missing, corrupt or of another format. */
Evaluator *eval_load(const char *path, char *err);

/* Free an evaluator of eval_new() or eval_load() (NULL: nothing). */
void eval_free(Evaluator *e);

#endif
