/*
 * bounds.h - the ranges of the engine's settings, the one place that the
 * engine, the public API (include/emilia.h), the option table of the front
 * ends (options.c) and the commands take them from.  A value outside is
 * refused with its range, never silently clamped.
 */
#ifndef EMILIA_BOUNDS_H
#define EMILIA_BOUNDS_H

#include <stdbool.h>

/* Threads of a search or a solve, the caller's included: the engine's
 * workers (workers.c), the search's split points and the solver's
 * per-thread tables are sized for this many, and each runs them all. */
#define BOUNDS_THREADS_MIN 1
#define BOUNDS_THREADS_MAX 256
/* MiB of an engine's transposition table (its --hash budget). */
#define BOUNDS_HASH_MB_MIN 1
#define BOUNDS_HASH_MB_MAX 65536
/* Search depth of a fixed level (the named levels are outside it). */
#define BOUNDS_LEVEL_MAX 60

/* The board sizes of a game (play, the protocols, the API): 8 and 6.  The
 * commands that count and solve (perft, solve, eval) take every size the
 * board has a geometry for, 4 too (board_geometry()). */
static inline bool bounds_game_size(long n)
{
	return n == 8 || n == 6;
}

#endif
