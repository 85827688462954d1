/*
 * engine.h - the engine facade the protocols (GTP, NBoard, UGI, the
 * terminal game) use: set a position, search with limits, stop, results
 * through callbacks.  Search code never prints.
 *
 * CONTRACT (the protocols code against this; the search's owner may add
 * fields and functions but not change these):
 *  - engine_search() blocks until the search ends and returns the result.
 *    It may be called from any thread; engine_stop() may be called from
 *    another thread at any time and makes engine_search() return within a
 *    few milliseconds with the best move found so far (always a legal move
 *    when one exists).
 *  - The game passed to engine_search() is not modified.  When the side to
 *    move must pass, the result's move is BOARD_PASS; at game end
 *    BOARD_NOMOVE.
 *  - Scores are in discs from the side to move's view.
 *  - The info callback is called from the searching thread after each
 *    completed iteration (and for each PV line in multi-PV mode).
 */
#ifndef EMILIA_ENGINE_H
#define EMILIA_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include "eval.h"
#include "game.h"
#include "timeman.h"

typedef struct Engine Engine;

/* Named levels; numeric levels are 0..60 (search depth, and exact solve at
 * about 2x that many empties as in Edax). */
enum { ENGINE_LEVEL_EASY = -1, ENGINE_LEVEL_NORMAL = -2, ENGINE_LEVEL_HARD = -3 };

/* The limits of a search, EngineLimits, are defined with the clock model
 * in timeman.h. */

#define ENGINE_MAX_PV 64

typedef struct EngineInfo {
	int move;           /* best (or this PV line's) move */
	int score;          /* discs, side to move's view */
	int depth;          /* completed depth (plies) */
	int selectivity;    /* percent confidence of ProbCut (100 = none) */
	bool exact;         /* score proven by the solver */
	bool wld;           /* proven win/loss/draw only */
	bool book;          /* from the opening book */
	int pv[ENGINE_MAX_PV];
	int pvlen;
	int multipv_index;  /* 1-based line number in multi-PV mode */
	uint64_t nodes;
	double seconds;
} EngineInfo;

typedef void (*EngineInfoFn)(const EngineInfo *info, void *user);

/* Book hook: return a book move (square) for the game's position with its
 * score in *score, or -1 when the book has none. */
typedef int (*EngineBookFn)(void *ctx, const Game *g, int *score);

Engine *engine_new(void);
void engine_free(Engine *e);

/* Options (take effect at the next search).  Threads: BOUNDS_THREADS_MIN..
 * BOUNDS_THREADS_MAX (bounds.h; the callers refuse others, the engine
 * clamps), engine_threads() the count the next search runs. */
void engine_set_threads(Engine *e, int threads);
int engine_threads(Engine *e);
bool engine_set_hash_mb(Engine *e, int mb);        /* false when it cannot allocate */
void engine_set_level(Engine *e, int level);       /* 0..60 or ENGINE_LEVEL_* */
void engine_set_seed(Engine *e, uint64_t seed);    /* randomness of Easy/Normal */
void engine_set_book(Engine *e, EngineBookFn fn, void *ctx); /* fn NULL = no book */
void engine_new_game(Engine *e);                   /* clear tables */
/* The weights of the 8x8 normal game: ev (from eval_new() or eval_load()),
 * which the engine takes and frees, or NULL for the built-in ones; other
 * boards and variants keep their built-in evaluations.  Each engine has
 * its own: another engine of the process is not affected.  Stops a
 * running search first and waits for it. */
void engine_set_evaluator(Engine *e, Evaluator *ev);
/* The evaluator the engine uses for a board size and variant; valid until
 * the next engine_set_evaluator() on e. */
const Evaluator *engine_evaluator(Engine *e, int size, Variant v);

/* Search the game's current position.  Returns the final info (move,
 * score, pv ...).  `info` may be NULL. */
EngineInfo engine_search(Engine *e, const Game *g, const EngineLimits *lim,
                         EngineInfoFn info, void *user);

/* Solve the game's current position exactly (wld: win/loss/draw only)
 * with the engine's threads and its share of the table, whatever the
 * empties.  lim's clock (time_left, movetime) bounds it as a move's time
 * would, and engine_stop() stops it.  A complete solve gives move, score
 * and exact (or wld); a stopped one gives exact = wld = false and move
 * BOARD_NOMOVE.  At the end of the game: the final score, exact. */
EngineInfo engine_solve_game(Engine *e, const Game *g, bool wld, const EngineLimits *lim);

/* Request the running search (if any) to stop; thread-safe.  A request
 * made while no search runs is ignored (it does not cancel a later one). */
void engine_stop(Engine *e);

/* ---- extensions (search owner) ---------------------------------------- */

/* Thread safety: every function may be called from any thread.  The
 * option setters take effect at the next search.  engine_set_hash_mb(),
 * engine_new_game() and engine_free() first stop a running search and
 * wait for it to return; two engine_search() calls on one engine run one
 * after the other. */

/* What a level means for a search: the deepest midgame iteration, the
 * number of empties from which the engine solves exactly, and for Easy and
 * Normal the margin in discs within which a move is picked at random
 * (< 0: always the best).  `timed`: the search has a clock, in which case
 * Hard is limited by the clock only.  The table is in docs/engine.md
 * ("Levels"). */
void engine_level_plan(int level, bool timed, int *depth, int *exact_empties, int *random_margin);

/* Exact solves of single-line searches by the endgame solver (endgame.h,
 * default) or by the midgame search run to the end (false).  A node limit
 * (EngineLimits.nodes) bounds the midgame search only; a solve handed to
 * the endgame solver is bounded by the clock and engine_stop(). */
void engine_set_solver(Engine *e, bool on);

/* Confidence of the midgame ProbCut cuts in percent: 73, 87 (default), 95,
 * 98, 99 or 100 (no cuts); other values take the next level up. */
void engine_set_selectivity(Engine *e, int percent);

/* THE HASH BUDGET.  engine_set_hash_mb(e, N): the engine has one table
 * (tt.h) of the largest power of two of bytes that fits in N MiB (N = 64:
 * 64 MiB; 100: 64; 1: 1), shared by the midgame search and the endgame
 * solver.  It is mapped, not written, so any size starts at once: its
 * pages fault in when searches touch them, or before, from a background
 * thread that works while no search runs (util_prefault_start).  Peak
 * memory stays about N plus the program, plus the solver's near-leaf
 * tables: 8 MiB for a lone solving thread, 2 MiB a thread with several
 * (endgame.c), and each search thread's near-leaf table for the exact
 * subtrees of the midgame search (32 MiB in all at most, 4 MiB each).
 * engine_set_hash_mb() frees the old tables before making the new ones.
 * It refuses (false) an N above the memory available now
 * (util_mem_available(): MemAvailable of /proc/meminfo) and keeps the old
 * size (emptied); when the new table cannot be mapped it falls back to
 * the old size, else to the largest half of it that can be had, and
 * returns false.  Either way engine_hash_error() says why, e.g. "30000
 * MiB of hash is more than the memory available (23780 MiB)" or "cannot
 * allocate 8192 MiB of hash (using 2048 MiB)"; engine_hash_mb() is the
 * budget in use.  (engine_set_hash_mb() and engine_hash_error() are
 * called from one thread at a time.) */
int engine_hash_mb(Engine *e);
/* Bytes of the engine's table. */
uint64_t engine_table_bytes(Engine *e);
/* Why the last engine_set_hash_mb() failed ("" after a success); valid
 * until the next call. */
const char *engine_hash_error(const Engine *e);

#endif
