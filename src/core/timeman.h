/*
 * timeman.h - how long to think: the one clock model of every protocol.
 *
 * The model (fields of EngineLimits, all in seconds, for the side to move).
 * A protocol only translates its commands into these fields; margins,
 * shares and reserves are decided here and nowhere else.
 *  - movetime > 0: a fixed time for this move, not banked (UGI movetime,
 *    `emilia play --time`, emilia-match's per-move clock).
 *  - time_left >= 0: the clock this move is taken from: the main time, or
 *    the current byo-yomi period once the main time is spent.  < 0: none.
 *  - moves_to_go: moves to make within time_left before the clock is
 *    refilled: the stones left of a Canadian period (GTP time_left's
 *    stones), UGI movestogo.  0: time_left must last the rest of the game.
 *    1 makes time_left a per-move budget (GTP `time_settings 0 S 1`,
 *    Japanese byo-yomi): like movetime.
 *  - increment: seconds added after each move (Fischer; NBoard's GGF
 *    clocks, UGI winc/binc).  With time_left exhausted (0) and no periods,
 *    it is the time of this move.
 *  - byo_time, byo_moves: the period that follows the main time (GTP
 *    time_settings with stones): byo_moves moves in byo_time seconds.
 *  - overhead: seconds the controller's clock loses per move outside the
 *    engine (pipes, GUI, network): the move-overhead option.
 *
 * The plan has two limits, in seconds from the start of the search:
 *  - soft: the target.  The engine starts no new iteration once the
 *    elapsed time times the iteration growth would pass soft * factor,
 *    where factor is 1, up to 2 while the best move keeps changing, 1.5
 *    more when the score dropped, down to 0.5 when the best move stayed
 *    put for three iterations.  With use_all set (a per-move budget that
 *    is not banked) there is no soft stop: the time is all used unless
 *    the move is forced or the result proven;
 *  - hard: an absolute bound checked inside the search (every 256 nodes;
 *    every 1024 nodes of a thread in the exact solver) that stops it at once.
 *    hard never exceeds what the clock holds minus the margin.
 *
 * The margin kept out of every clock: overhead + timeman_margin(avail),
 * where timeman_margin covers the engine's own stop latency (the clock
 * check interval, leaving the threads, the
 * reply) and a loaded machine: 1.5 ms + 1.5 % of the time, at most 0.5 s.
 *
 * Allocation of a whole-game clock (moves_to_go 0, or a period of several
 * moves).  The engine's own moves still to play are weighted by phase:
 *    more than 40 empties      1.0   (opening; the book often answers)
 *    25 to 40 empties          1.3   (midgame: the decisions that matter)
 *    19 to 24 empties          2.0   (the hand-over to the exact solver:
 *                                     a solve at 20-24 empties settles
 *                                     the rest of the game)
 *    18 empties or fewer       0.2   (solved already, or cheap to solve)
 * Of the usable time (time_left minus a final reserve of 2 % of the time
 * left, at most 1 s, minus one margin per move still to play, plus the
 * increments still to come), this move's target is its weight's share of
 * the weights of the moves to come (of the period's moves only, in a
 * period).  soft is 1.3 times the target, since a search stops between
 * iterations and so uses well under its soft limit; what a move leaves
 * goes to the moves after it.  hard allows up to 4 times the target for
 * an unstable search,
 * and never more than 40 % of the usable time while more moves follow.
 * A main time followed by byo-yomi periods also counts on the periods:
 * a move may use the main time left plus one period's share.
 */
#ifndef EMILIA_TIMEMAN_H
#define EMILIA_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>

/* What a protocol asks of one search: the clock model above plus the
 * limits that are not about time. */
typedef struct EngineLimits {
	int depth;          /* 0 = from level */
	uint64_t nodes;     /* 0 = none */
	double movetime;    /* seconds for this move, 0 = none */
	double time_left;   /* clock of the side to move in seconds, < 0 = no clock */
	double increment;   /* seconds added after each move (Fischer) */
	int moves_to_go;    /* moves until the clock is refilled, 0 = whole game */
	double byo_time;    /* a byo-yomi period after the main time: seconds ... */
	int byo_moves;      /* ... for this many moves (0 = no periods) */
	double overhead;    /* seconds lost per move outside the engine (move-overhead) */
	bool infinite;      /* until engine_stop() */
	int multipv;        /* 0/1 = best move only; N = the best N moves (analysis) */
} EngineLimits;

typedef struct TimePlan {
	double soft;   /* seconds; 0 = none */
	double hard;   /* seconds; 0 = none */
	bool use_all;  /* a budget for this move alone: no soft stop */
} TimePlan;

/* The engine's share of the safety margin kept out of `avail` seconds of
 * clock (the move-overhead option comes on top). */
double timeman_margin(double avail);

/* The weight of the engine's move at `empties` empty squares (above). */
double timeman_weight(int empties);

/* Plan for a move at `empties` empty squares. */
TimePlan timeman_plan(const EngineLimits *lim, int empties);

/* The most this move may take before the controller's clock runs out:
 * the protocols' last line of defence (a watchdog); 0 = no clock. */
double timeman_deadline(const EngineLimits *lim);

/* Stability factor of the soft limit after an iteration: d is the
 * iteration number, stable the iterations the best move stayed put,
 * drop the score lost since the previous iteration (discs, > 0 worse). */
double timeman_factor(int d, int stable, int drop);

#endif
