/*
 * eval.c - static evaluation.
 *
 * 8x8 normal game: the trained pattern evaluation (patterns.h).  The score
 * is the sum of one int16 weight per pattern instance plus the mobility
 * entry, in 1/WEIGHTS_SCALE discs, from the phase's weight vector.  Integer
 * arithmetic only, so every build gives the same scores.  The weights are
 * the embedded data/eval.bin (decoded once, then read-only) or those of an
 * evaluator made by eval_new() / eval_load(), which belongs to its maker:
 * nothing here changes after start-up, so engines with different weights
 * share a process without seeing each other's.
 *
 * 8x8 Anti, 6x6 and 6x6 Anti: the same pattern evaluation with their own
 * weights (blob_game_weights(), decoded on first use; a 6x6 board is
 * shifted to b2-g7 for its features).  4x4, and a game whose weights do
 * not load: hand-tuned square values plus mobility (see docs/engine.md,
 * "Evaluation").
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "eval.h"
#include "patterns.h"
#include "weights.h"
#include "blobs.h"
#include "board.h"

enum { KIND_PATTERN, KIND_HAND };

struct Evaluator {
	int size;
	Variant variant;
	int kind;
	int8_t sqv[64];     /* hand-tuned: square values in 1/8 discs */
	int mob;            /* hand-tuned: mobility weight in 1/8 discs */
	int disc;           /* hand-tuned: weight of the disc difference in 1/8 discs */
	const int16_t *w;   /* pattern: PATTERN_PHASES x PATTERN_WEIGHTS weights */
	int16_t *own;       /* pattern weights owned by this evaluator (eval_new), or NULL */
	int shift;          /* pattern: 6x6 boards are moved to b2-g7 (shift 9), the
	                     * centre of the 8x8 patterns, so that their symmetries hold */
};

_Static_assert(WEIGHTS_SCALE == EVAL_FINE, "weight units must be the fine score units");

#define NW ((size_t)PATTERN_PHASES * PATTERN_WEIGHTS)

/* written once, by load_builtin() under `once` */
static int16_t builtin_w[NW];
static char builtin_err[WEIGHTS_ERR];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The pattern evaluators of the other games (8x8 Anti, 6x6, 6x6 Anti), in
 * the order of eval_game_index().  load_game sets .w, under the game's
 * once, when the built-in weights decode; a game whose weights do not
 * (w stays NULL) keeps its hand-tuned evaluation. */
enum { NGAMES = 3 };
static Evaluator game_ev[NGAMES] = {
	{ 8, VARIANT_ANTI, KIND_PATTERN, { 0 }, 0, 0, NULL, NULL, 0 },
	{ 6, VARIANT_NORMAL, KIND_PATTERN, { 0 }, 0, 0, NULL, NULL, 9 },
	{ 6, VARIANT_ANTI, KIND_PATTERN, { 0 }, 0, 0, NULL, NULL, 9 },
};

static int eval_game_index(int size, Variant v)
{
	return size == 8 && v == VARIANT_ANTI ? 0 : size == 6 ? (v == VARIANT_ANTI ? 2 : 1) : -1;
}

uint32_t eval_set_id(int size, Variant v)
{
	static const uint32_t tag[NGAMES] = { 0x41000000u, 0x06000000u, 0x47000000u };
	int g = eval_game_index(size, v);
	return g < 0 ? patterns_set_id() : patterns_set_id() ^ tag[g];
}

static void load_builtin(void)
{
	size_t len;
	const unsigned char *b = weights_builtin(&len);
	if (!weights_decode(b, len, patterns_set_id(), PATTERN_PHASES, PATTERN_WEIGHTS, builtin_w,
	                    builtin_err))
		memset(builtin_w, 0, sizeof builtin_w);
	else
		builtin_err[0] = 0;
}

/* A game's weights are decoded on its first use (each costs 4 MB). */
static void load_game(int g)
{
	size_t len;
	const unsigned char *img = blob_game_weights(g, &len);
	int16_t *w = malloc(NW * sizeof *w);
	char err[WEIGHTS_ERR];
	if (w && weights_decode(img, len, eval_set_id(game_ev[g].size, game_ev[g].variant), PATTERN_PHASES,
	                        PATTERN_WEIGHTS, w, err))
		game_ev[g].w = w;
	else
		free(w);
}

static void load_game0(void)
{
	load_game(0);
}

static void load_game1(void)
{
	load_game(1);
}

static void load_game2(void)
{
	load_game(2);
}

static pthread_once_t game_once[NGAMES] = { PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT };
static void (*const game_loader[NGAMES])(void) = { load_game0, load_game1, load_game2 };

/* Square values of the hand-tuned evaluations, in 1/8 discs, row by row
 * from a1, and the mobility weight: least-squares fits to exactly solved
 * positions of random games (`emilia-train --fit-hand`, docs/engine.md).  4x4 is
 * solved outright by the engine; its values only order moves. */
#define HAND6                                                                       \
	{ 63, -8, 1, 1, -8, 63, 0, 0, -8, -9, -5, -5, -9, -8, 0, 0,                     \
	  1, -5, -4, -4, -5, 1, 0, 0, 1, -5, -4, -4, -5, 1, 0, 0,                       \
	  -8, -9, -5, -5, -9, -8, 0, 0, 63, -8, 1, 1, -8, 63 }
#define HAND4                                                                       \
	{ 24, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,                             \
	  0, 0, 0, 0, 0, 0, 0, 0, 0, 24, 0, 0, 24 }

/* Anti: corners and edges are bad for their owner (stable discs that
 * cannot be given away), every own disc costs, mobility still helps. */
#define ANTI8                                                                       \
	{ -40, -7, -8, -4, -4, -8, -7, -40, -7, -7, -5, -6, -6, -5, -7, -7,             \
	  -8, -5, -2, -3, -3, -2, -5, -8, -4, -6, -3, 0, 0, -3, -6, -4,                 \
	  -4, -6, -3, 0, 0, -3, -6, -4, -8, -5, -2, -3, -3, -2, -5, -8,                 \
	  -7, -7, -5, -6, -6, -5, -7, -7, -40, -7, -8, -4, -4, -8, -7, -40 }
#define ANTI6                                                                       \
	{ -34, -4, -7, -7, -4, -34, 0, 0, -4, -3, -3, -3, -3, -4, 0, 0,                 \
	  -7, -3, -2, -2, -3, -7, 0, 0, -7, -3, -2, -2, -3, -7, 0, 0,                   \
	  -4, -3, -3, -3, -3, -4, 0, 0, -34, -4, -7, -7, -4, -34 }
#define ANTI4                                                                       \
	{ -24, 0, 0, -24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,                           \
	  0, 0, 0, 0, 0, 0, 0, 0, 0, -24, 0, 0, -24 }

static const Evaluator evaluators[2][3] = {
	{ { 8, VARIANT_NORMAL, KIND_PATTERN, { 0 }, 0, 0, builtin_w, NULL, 0 },
	  { 6, VARIANT_NORMAL, KIND_HAND, HAND6, 18, 0, NULL, NULL, 0 },
	  { 4, VARIANT_NORMAL, KIND_HAND, HAND4, 8, 4, NULL, NULL, 0 } },
	{ { 8, VARIANT_ANTI, KIND_HAND, ANTI8, 8, 0, NULL, NULL, 0 },
	  { 6, VARIANT_ANTI, KIND_HAND, ANTI6, 8, 0, NULL, NULL, 0 },
	  { 4, VARIANT_ANTI, KIND_HAND, ANTI4, 8, -4, NULL, NULL, 0 } },
};

const Evaluator *eval_hand(int size, Variant v)
{
	int i = size == 8 ? 0 : size == 6 ? 1 : 2;
	return &evaluators[v == VARIANT_ANTI][i];
}

const Evaluator *eval_get(int size, Variant v)
{
	pthread_once(&once, load_builtin);
	int g = eval_game_index(size, v);
	if (g >= 0)
		pthread_once(&game_once[g], game_loader[g]);
	if (g >= 0 && game_ev[g].w)
		return &game_ev[g];
	return eval_hand(size, v);
}

int eval_size(const Evaluator *e)
{
	return e->size;
}

Variant eval_variant(const Evaluator *e)
{
	return e->variant;
}

const char *eval_builtin_error(void)
{
	pthread_once(&once, load_builtin);
	return builtin_err[0] ? builtin_err : NULL;
}

static int clamp_fine(int s)
{
	const int lim = 64 * EVAL_FINE;
	return s > lim ? lim : s < -lim ? -lim : s;
}

static int hand_score(const Evaluator *e, uint64_t p, uint64_t o)
{
	const uint64_t geo = board_geometry(e->size);
	int s = 0;
	for (uint64_t m = p; m; m = bit_pop(m))
		s += e->sqv[bit_first(m)];
	for (uint64_t m = o; m; m = bit_pop(m))
		s -= e->sqv[bit_first(m)];
	int mob = bit_count(board_moves(p, o) & geo) - bit_count(board_moves(o, p) & geo);
	s += e->mob * mob + e->disc * (bit_count(p) - bit_count(o));
	/* 1/8 discs -> 1/EVAL_FINE discs */
	return s * (EVAL_FINE / 8);
}

int eval_score_fine(const Evaluator *e, uint64_t p, uint64_t o)
{
	if (e->kind == KIND_HAND)
		return clamp_fine(hand_score(e, p, o));
	const int empties = e->size * e->size - bit_count(p | o);
	if (empties == 0)
		return board_final_score((Board){ p, o }, e->size, e->variant) * EVAL_FINE;
	const int16_t *w = e->w + (size_t)patterns_phase(empties) * PATTERN_WEIGHTS;
	return clamp_fine(patterns_score(p << e->shift, o << e->shift, w));
}

void eval_state_init(const Evaluator *e, uint64_t p, uint64_t o, EvalState *s)
{
	if (e->kind == KIND_PATTERN)
		patterns_state_init(s, p << e->shift, o << e->shift);
}

void eval_state_play(const Evaluator *e, const EvalState *s, int sq, uint64_t flips, EvalState *out)
{
	if (e->kind == KIND_PATTERN)
		patterns_state_play(s, sq + e->shift, flips << e->shift, out);
}

void eval_state_pass(const Evaluator *e, const EvalState *s, EvalState *out)
{
	if (e->kind == KIND_PATTERN)
		patterns_state_pass(s, out);
}

/* Round 1/EVAL_FINE discs to discs, halves away from zero: symmetric for
 * both sides. */
static int round_fine(int s)
{
	return s >= 0 ? (s + EVAL_FINE / 2) / EVAL_FINE : -((-s + EVAL_FINE / 2) / EVAL_FINE);
}

/* The score of (p, o) from the pattern state s of that position (play
 * false) or of the one before the move at sq that flips flips and leads to
 * it (play true). */
static inline __attribute__((always_inline)) int score_from_state(const Evaluator *e, const EvalState *s,
                                                                   bool play, int sq, uint64_t flips,
                                                                   uint64_t p, uint64_t o)
{
	if (e->kind == KIND_HAND)
		return round_fine(clamp_fine(hand_score(e, p, o)));
	const int empties = e->size * e->size - bit_count(p | o);
	if (empties == 0)
		return board_final_score((Board){ p, o }, e->size, e->variant);
	const int16_t *w = e->w + (size_t)patterns_phase(empties) * PATTERN_WEIGHTS;
	const uint64_t sp = p << e->shift, so = o << e->shift;
	return round_fine(clamp_fine(play ? patterns_score_play(s, sq + e->shift, flips << e->shift, sp, so, w)
	                                  : patterns_score_state(s, sp, so, w)));
}

int eval_score_state(const Evaluator *e, uint64_t p, uint64_t o, const EvalState *s)
{
	return score_from_state(e, s, false, 0, 0, p, o);
}

int eval_score_play(const Evaluator *e, const EvalState *s, int sq, uint64_t flips, uint64_t p, uint64_t o)
{
	return score_from_state(e, s, true, sq, flips, p, o);
}

int eval_score(const Evaluator *e, uint64_t p, uint64_t o)
{
	return round_fine(eval_score_fine(e, p, o));
}

Evaluator *eval_new(const int16_t *w)
{
	return eval_new_game(w, 8, VARIANT_NORMAL);
}

Evaluator *eval_new_game(const int16_t *w, int size, Variant v)
{
	pthread_once(&once, load_builtin);
	int g = eval_game_index(size, v);
	if (g < 0 && (size != 8 || v != VARIANT_NORMAL))
		return NULL;
	Evaluator *e = malloc(sizeof *e);
	int16_t *own = malloc(NW * sizeof *own);
	if (!e || !own) {
		free(e);
		free(own);
		return NULL;
	}
	*e = evaluators[0][0];
	if (g >= 0) {
		/* the game's fields but .w, which load_game may be writing */
		e->size = game_ev[g].size;
		e->variant = game_ev[g].variant;
		e->shift = game_ev[g].shift;
	}
	memcpy(own, w, NW * sizeof *own);
	e->w = e->own = own;
	return e;
}

Evaluator *eval_load(const char *path, char *err)
{
	size_t len;
	char msg[WEIGHTS_ERR];
	unsigned char *buf = weights_read_file(path, 64u << 20, &len, msg);
	if (!buf) {
		snprintf(err, 160, "%.150s", msg);
		return NULL;
	}
	int16_t *w = malloc(NW * sizeof *w);
	if (!w) {
		free(buf);
		snprintf(err, 160, "%s: out of memory", path);
		return NULL;
	}
	/* the weights of any game: the feature set id tells which (the 8x8
	 * normal game's first, whose message is kept) */
	const Evaluator *const games[NGAMES + 1] = { &evaluators[0][0], &game_ev[0], &game_ev[1], &game_ev[2] };
	Evaluator *e = NULL;
	int g = 0;
	while (g <= NGAMES && !weights_decode(buf, len, eval_set_id(games[g]->size, games[g]->variant),
	                                      PATTERN_PHASES, PATTERN_WEIGHTS, w, g ? err : msg))
		g++;
	if (g > NGAMES)
		snprintf(err, 160, "%.60s: %.90s", path, msg);
	else if (!(e = eval_new_game(w, games[g]->size, games[g]->variant)))
		snprintf(err, 160, "%s: out of memory", path);
	free(buf);
	free(w);
	return e;
}

void eval_free(Evaluator *e)
{
	if (!e)
		return;
	free(e->own);
	free(e);
}
