/*
 * timeman.h - how long to think (time management).
 *
 * A plan has two limits, in seconds from the start of the search:
 *  - soft: the target; the engine starts no new iteration once the elapsed
 *    time times the iteration's growth would exceed soft * stability, where
 *    stability is 1.0 normally, up to 2.0 after the best move changed and
 *    down to 0.5 when the best move stayed put for several iterations;
 *  - hard: an absolute bound checked inside the search (every 1024 nodes),
 *    which stops it at once.  hard never exceeds what the clock allows
 *    minus a safety margin (timeman_margin: 25 ms + 2 % of the time, at
 *    most 1 s) covering the stop latency, thread joins, a loaded machine
 *    and the protocol's reply.
 * Clock modes (EngineLimits):
 *  - movetime > 0: fixed time per move; soft = hard = movetime - margin
 *    (the time is not banked, so it is all used unless the result is
 *    proven or the move forced: the engine applies no soft stop then, and
 *    uses what the interrupted last iteration found);
 *  - time_left >= 0: whole-game clock (moves_to_go = 0, sudden death) or
 *    periods (moves_to_go moves until the clock is refilled, e.g. Canadian
 *    byo-yomi); increment is added after each move (Fischer) or, when
 *    time_left is exhausted, is the byo-yomi time of each move.
 *    The clock is divided over the moves still to play by the engine,
 *    (empties - 8) / 2, since the last moves are solved fast.
 * When both are given the smaller limits win.  0 means no limit.
 */
#ifndef EMILIA_TIMEMAN_H
#define EMILIA_TIMEMAN_H

#include "engine.h"

typedef struct TimePlan {
	double soft;   /* seconds; 0 = none */
	double hard;   /* seconds; 0 = none */
} TimePlan;

/* Safety margin kept out of `avail` seconds of clock. */
double timeman_margin(double avail);

/* Plan for a move at `empties` empty squares. */
TimePlan timeman_plan(const EngineLimits *lim, int empties);

#endif
