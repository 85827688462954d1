/*
 * endgame.h - the exact and win/loss/draw endgame solver.
 *
 * CONTRACT (other modules code against this; the solver's owner may add
 * fields and functions but not change these):
 *  - Scores are final disc differences from the side to move's view, empties
 *    to the winner (board_final_score), for VARIANT_NORMAL; for VARIANT_ANTI
 *    the value is (opponent discs - own discs) at the end, no empties added.
 *  - WLD mode returns -1/0/+1 (loss/draw/win) in `score`.
 *  - `stop` (may be NULL) is polled often; when it becomes true the solve
 *    returns promptly with result.aborted = true.
 *  - Same score for any thread count.
 */
#ifndef EMILIA_ENDGAME_H
#define EMILIA_ENDGAME_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "eval.h"
#include "tt.h"
#include "game.h"

/* The tables of a series of solves (see THE TABLES below). */
typedef struct EndgameTables EndgameTables;

typedef struct EndgameOptions {
	int size;              /* 8, 6 or 4 */
	Variant variant;
	bool wld;              /* win/loss/draw only */
	int threads;           /* >= 1 */
	int hash_mb;           /* transposition table size; 0 = default (128 MiB) */
	uint64_t hash_bytes;   /* the same in bytes, used instead when not 0 (an
	                        * engine's share of its --hash: engine.h) */
	atomic_bool *stop;     /* external stop request, or NULL */
	double deadline;       /* util_now() time at which the solve stops (and
	                        * raises *stop); 0: none */
	struct Workers *workers; /* threads for the helpers (workers.h), kept by
	                        * the caller; NULL: threads made for this solve */
	TT *table;             /* a table shared with other searches (an engine's):
	                        * used whole, its entries kept and used; NULL: the
	                        * main table of `tables` */
	EndgameTables *tables; /* the tables to solve with, kept between solves (an
	                        * engine's); NULL: tables made for this solve alone */
	const Evaluator *eval; /* evaluation for move ordering; NULL: the built-in
	                        * one of the size and variant */
	/* progress callback (may be NULL): called from the solving thread
	 * about once a second */
	void (*progress)(void *user, int depth_or_bound, uint64_t nodes, double elapsed);
	void *progress_user;
	/* optional richer progress (may be NULL; when set it is called instead
	 * of `progress`): also the index (from 0) of the root move being
	 * searched and the number of root moves, for time estimates */
	void (*progress_root)(void *user, int bound, uint64_t nodes, double elapsed, int move_index, int moves);
	/* techniques in use: 0 = all (the default); otherwise a mask of
	 * ENDGAME_F_* bits, for benchmarks that measure each one */
	unsigned features;
} EndgameOptions;

enum {
	ENDGAME_F_LASTN = 1 << 0,      /* dedicated code for the last 1-4 empties */
	ENDGAME_F_PARITY = 1 << 1,     /* parity ordering: lone squares of a quadrant first up to
	                                  5 empties, odd quadrants as a tie-break above */
	ENDGAME_F_TT = 1 << 2,         /* transposition table */
	ENDGAME_F_STABILITY = 1 << 3,  /* stability cutoffs */
	ENDGAME_F_ETC = 1 << 4,        /* enhanced transposition cutoff */
	ENDGAME_F_FASTEST = 1 << 5,    /* fastest-first ordering */
	ENDGAME_F_SORTSEARCH = 1 << 6, /* shallow evaluation searches for ordering */
	ENDGAME_F_ASPIRATION = 1 << 7, /* aspiration windows at the root */
	ENDGAME_F_PRESEARCH = 1 << 8,  /* selective (probable-cut) pre-searches */
	ENDGAME_F_LOCAL = 1 << 9,      /* null-window nodes near the leaves with small tables
	                                  of their own (eg_mid_nws) */
	ENDGAME_F_ALL = 0x3FF
};

typedef struct EndgameResult {
	int score;      /* exact score, or -1/0/+1 in WLD mode */
	int move;       /* best move (square), BOARD_PASS, or BOARD_NOMOVE at game end */
	uint64_t nodes;
	double seconds;
	bool aborted;   /* stopped before finishing: score/move not exact */
	/* the last selective pre-search level the root completed (an index
	 * into the probable-cut levels, 0 = the least sure), or -1: none; its
	 * move and score stand for the solve when it was stopped later */
	int sel_level;
	int sel_move;
	int sel_score;
} EndgameResult;

/* Default options: 8x8, normal, exact, 1 thread, default hash, no stop. */
EndgameOptions endgame_default_options(void);

/* Solve b (side to move = b.p) exactly within the window (alpha, beta);
 * use alpha = -65, beta = 65 for a full-window solve.  A score <= alpha or
 * >= beta is a bound, as in alpha-beta. */
EndgameResult endgame_solve_window(Board b, const EndgameOptions *opt, int alpha, int beta);

/* Full-window solve. */
EndgameResult endgame_solve(Board b, const EndgameOptions *opt);

/* THE TABLES.  A solve uses a main table and, for each of its threads, a
 * table for the nodes near the leaves: min(size, 8 MiB) when it solves
 * alone, min(size, 2 MiB) each with threads; all have tt.h's format.  An
 * engine's solves use the engine's table as the main one (`table`: its
 * whole --hash, shared with the midgame search, entries kept) and the
 * engine's EndgameTables for the near-leaf tables.  A solve without
 * `table` uses the main table of its EndgameTables, emptied for each
 * solve, so that its result and node count do not depend on earlier
 * solves.  An EndgameTables keeps its tables between solves so that their
 * pages fault in once (a solve without one makes its own and frees them
 * at its end).  One solve at a time uses an EndgameTables: a second
 * concurrent solve on the same one makes a private main table for its run
 * (and no near-leaf tables).  The main table is remade at the size a solve
 * asks for (hash_bytes, else hash_mb): the old one is freed first, and
 * when the new size cannot be mapped the largest smaller power of two
 * that can is used (kept for later solves asking the same size).  Its
 * pages are never written in advance (zero pages are empty entries), so a
 * big table costs no start-up time: they fault in as solves touch them,
 * or, for a table made by endgame_tables_reserve(), before that from a
 * background thread that works while no search runs
 * (util_prefault_start).  A solve of at most 24 empties uses only a part
 * of its own table sized to it (16 MiB at 20 empties, doubling every 2
 * empties), so that its run touches few new pages. */

/* New tables, empty (nothing is allocated before a solve or a reserve);
 * NULL when out of memory. */
EndgameTables *endgame_tables_new(void);
/* Free them (no solve may be using them); NULL: nothing. */
void endgame_tables_free(EndgameTables *t);
/* Make the main table `bytes` large (0: the default) now, without
 * touching it, so that a solve finds it ready; a smaller power of two
 * when that much cannot be mapped.  `prefault`: a new table is faulted in
 * in the background while no search runs (util_prefault_start).  False
 * when a solve is using them (nothing is done).  *got (may be NULL): the
 * bytes of the main table now, 0 when none could be made. */
bool endgame_tables_reserve(EndgameTables *t, uint64_t bytes, uint64_t *got, bool prefault);
/* Free the main and near-leaf tables (the next solve makes them again);
 * false when a solve is using them (nothing is done). */
bool endgame_tables_release(EndgameTables *t);
/* Bytes of the main table a solve asking for `bytes` (0: the default)
 * gets when memory allows. */
uint64_t endgame_table_size_for(uint64_t bytes);

/* SUBTREES.  A search that reaches the end of the game inside its tree
 * (the midgame search at depth >= empties) hands such nodes to the
 * solver: an EndgameSubtree per search thread, with a near-leaf table of
 * its own of `bytes` (mapped, not written) kept between calls, no threads
 * of its own.  endgame_subtree_begin() readies it for a new search: the
 * board, the evaluator that orders moves (NULL: the built-in one), the
 * search's stop flag and deadline (util_now() time, 0: none) and the
 * search's table (tt.h; its `locking` already set for the search's
 * threads), which the solves share with the midgame search; NULL: the
 * solves use only the subtree's own table.  The own table is emptied. */
typedef struct EndgameSubtree EndgameSubtree;
struct SplitNode;
EndgameSubtree *endgame_subtree_new(uint64_t bytes);   /* NULL: out of memory */
void endgame_subtree_free(EndgameSubtree *st);
void endgame_subtree_begin(EndgameSubtree *st, int size, Variant v, const Evaluator *ev, atomic_bool *stop,
                           double deadline, TT *table);
/* A new deadline for the solves (the search's clock is set). */
void endgame_subtree_set_deadline(EndgameSubtree *st, double deadline);
/* The exact value of (p, o) within (alpha, beta), as alpha-beta gives it
 * (a value <= alpha or >= beta is a bound); `sp`: the split point the
 * caller works under, whose cut stops the solve as the stop flag does.
 * Adds its nodes to *nodes; *aborted when stopped (the value is then
 * meaningless). */
int endgame_subtree_solve(EndgameSubtree *st, uint64_t p, uint64_t o, int alpha, int beta, struct SplitNode *sp,
                          uint64_t *nodes, bool *aborted);

#endif
