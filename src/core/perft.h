/*
 * perft.h - counting the leaves of the game tree (move generator test and
 * benchmark).
 *
 * Mode 1: a forced pass is a ply.  Mode 2: a forced pass uses no ply.  In
 * both a finished game reached before the depth is one leaf.
 */
#ifndef EMILIA_PERFT_H
#define EMILIA_PERFT_H

#include <stdint.h>
#include "board.h"

/* Leaves at `depth` plies from b on a board with squares `geometry`. */
uint64_t perft(Board b, int depth, int mode, uint64_t geometry);

/* Same with `threads` threads (>= 1); identical result. */
uint64_t perft_parallel(Board b, int depth, int mode, uint64_t geometry, int threads);

#endif
