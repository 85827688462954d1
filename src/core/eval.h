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
#include "patterns.h"

typedef struct Evaluator Evaluator;

/* Built-in evaluator for a board size (8, 6, 4) and variant; never NULL.
 * 8x8 (both variants) and 6x6 (both) use trained pattern weights; 4x4,
 * and any game whose built-in weights fail to load, the hand-tuned
 * evaluation that eval_hand() returns. */
const Evaluator *eval_get(int size, Variant v);
const Evaluator *eval_hand(int size, Variant v);

/* The board size and variant an evaluator is for. */
int eval_size(const Evaluator *e);
Variant eval_variant(const Evaluator *e);

/* The feature set id of the weight files of a game (weights.h): the 8x8
 * normal game's is patterns_set_id(), the others' differ from it, so a
 * file of one game is refused for another. */
uint32_t eval_set_id(int size, Variant v);

/* Static evaluation of (p to move, o). */
int eval_score(const Evaluator *e, uint64_t p, uint64_t o);

/* Incremental evaluation for a search that walks a game tree: the
 * pattern indices of a position kept in an EvalState (patterns.h's
 * PatternState, on the evaluator's board: a 6x6 board shifted), updated
 * on every move instead of computed from scratch at every leaf.
 * eval_score_state(e, p, o, s) == eval_score(e, p, o) whenever s is the
 * state of (p, o): eval_state_init's, or reached from one by
 * eval_state_play / eval_state_pass along the moves that lead to (p, o).
 * For an evaluator without patterns (4x4, the hand-tuned ones) the state
 * is not used and the functions do nothing. */
typedef PatternState EvalState;
void eval_state_init(const Evaluator *e, uint64_t p, uint64_t o, EvalState *s);
/* The state after the side to move plays sq, flipping flips. */
void eval_state_play(const Evaluator *e, const EvalState *s, int sq, uint64_t flips, EvalState *out);
/* The state after a pass. */
void eval_state_pass(const Evaluator *e, const EvalState *s, EvalState *out);
int eval_score_state(const Evaluator *e, uint64_t p, uint64_t o, const EvalState *s);
/* eval_score(e, p, o) of the child (p to move, o) reached from the
 * position of s by the move sq flipping flips, without making its state. */
int eval_score_play(const Evaluator *e, const EvalState *s, int sq, uint64_t flips, uint64_t p, uint64_t o);

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
/* The same for any game with pattern weights (8x8 or 6x6, either
 * variant); NULL for 4x4 or when out of memory. */
Evaluator *eval_new_game(const int16_t *w, int size, Variant v);

/* The same from a weights file of any of those games (its feature set id
 * tells which: eval_size() and eval_variant() of the result); NULL and a
 * message in err (>= 160 bytes) when the file is missing, corrupt or of
 * another format. */
Evaluator *eval_load(const char *path, char *err);

/* Free an evaluator of eval_new() or eval_load() (NULL: nothing). */
void eval_free(Evaluator *e);

#endif
