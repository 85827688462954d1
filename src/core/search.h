/*
 * search.h - the midgame tree search: principal-variation search with a
 * shared transposition table, move ordering and multi-ProbCut.  The engine
 * facade (engine.c) drives it: iterative deepening, aspiration windows,
 * threads, time and levels live there; this module searches one iteration
 * of the root and never prints.
 *
 * Scores are in discs from the side to move's view, in [-64, 64]; a
 * search at depth >= empties is exact (it plays the game out) unless
 * ProbCut is active (sel < SEARCH_SEL_NONE).
 *
 * Threads (Young Brothers Wait): each search thread owns a SearchThread;
 * everything they share is in SearchShared (the table, the stop flag, the
 * limits, the split-point pool), read-only during a search except the
 * atomics and the pool.  Thread 0 searches the tree; once a node with
 * depth >= SEARCH_SPLIT_MIN_DEPTH has searched its first move without a
 * cutoff and a helper is idle, the node becomes a split point: its other
 * moves are handed out one at a time to whichever threads join it (the
 * owner included), with the node's current window, and a value >= beta
 * cuts the split point off (every thread under it unwinds).  The root
 * of a single-line search splits the same way (each move's value and PV
 * go to its slot), and so do a node's ordering searches (each move's
 * shallow search of SEARCH_SPLIT_ORDER_MIN plies or more; they are about
 * a fifth of the nodes).  An owner waiting for its helpers counts as idle
 * and works for split points below its own ("helpful master").  Helpers
 * run search_helper_loop() until search_pool_quit().
 * With one thread nothing is ever split, so 1-thread searches are
 * deterministic; with more the move is the same at most depths but the
 * node counts vary.
 */
#ifndef EMILIA_SEARCH_H
#define EMILIA_SEARCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "board.h"
#include "bounds.h"
#include "eval.h"
#include "game.h"
#include "splitpool.h"
#include "tt.h"

#define SEARCH_MAX_PLY 96
#define SEARCH_INF 127
#define SEARCH_MAX_MOVES 34
/* ProbCut confidence levels: index 0..SEARCH_SEL_NONE; NONE = no cut. */
#define SEARCH_SEL_NONE 5
#define SEARCH_MAX_THREADS BOUNDS_THREADS_MAX
/* Split points are made at nodes of at least this depth. */
#ifndef SEARCH_SPLIT_MIN_DEPTH
#define SEARCH_SPLIT_MIN_DEPTH 4
#endif
/* A node's ordering searches (search.c) are shared from this depth. */
#ifndef SEARCH_SPLIT_ORDER_MIN
#define SEARCH_SPLIT_ORDER_MIN 2
#endif

typedef struct SearchShared {
	TT *tt;                  /* with nthreads > 1 the caller sets tt->locking */
	const Evaluator *ev;
	uint64_t geo;            /* squares of the board */
	uint64_t corners;        /* its corners (for ordering) */
	int size;
	Variant variant;
	atomic_bool stop;        /* abort every thread now */
	double hard_deadline;    /* util_now() time to abort at; 0 = none */
	uint64_t node_limit;     /* abort when the threads' total reaches it; 0 = none */
	int nthreads;
	struct SearchThread *threads;
	SplitPool pool;          /* split points (search_pool_init) */
} SearchShared;

typedef struct SearchThread {
	SearchShared *sh;
	int id;
	uint64_t nodes;                 /* owned by the thread */
	_Atomic uint64_t nodes_pub;     /* nodes, published at each poll */
	uint64_t next_poll;
	int sel;                        /* ProbCut level of this search */
	bool aborted;                   /* stop, or a cutoff at a split point above */
	SplitNode *sp;                  /* innermost split point worked for */
	bool partial;                   /* search_root stopped but rm was updated */
	/* the solver of its exact subtrees (endgame.h), or NULL; set by the
	 * owner (search_thread_init leaves it) */
	struct EndgameSubtree *eg;
	int pv[SEARCH_MAX_PLY][SEARCH_MAX_PLY];
	int pvlen[SEARCH_MAX_PLY];
} SearchThread;

typedef struct SearchRootMove {
	int move;
	int score;        /* value, or a bound when it failed outside the window */
	bool searched;    /* searched in the last completed iteration */
	int pv[SEARCH_MAX_PLY];
	int pvlen;
} SearchRootMove;

/* Percent confidence of a selectivity level (73 .. 100). */
int search_sel_percent(int sel);

/* Fill shared constants for a board size / variant and reset the flags
 * (no thread may be searching); the pool's lock and condition are made
 * once by search_pool_init(). */
void search_shared_init(SearchShared *sh, TT *tt, int size, Variant v);

/* Create / destroy the pool's lock and condition variable (once per
 * SearchShared whose threads > 1 search in parallel). */
void search_pool_init(SearchShared *sh);
void search_pool_destroy(SearchShared *sh);

/* A helper thread's body: join split points until search_pool_quit(). */
void search_helper_loop(SearchThread *t);

/* Tell the helpers to leave search_helper_loop() (once they are done). */
void search_pool_quit(SearchShared *sh);

void search_thread_init(SearchThread *t, SearchShared *sh, int id);

/* Root moves of b (legal on the shared geometry), in a first order
 * (static evaluation); returns their number. */
int search_root_moves(SearchThread *t, Board b, SearchRootMove *rm);

/* One root iteration at `depth` with window (alpha, beta) and ProbCut
 * level t->sel.  With multipv <= 1 the best move's score is exact inside
 * the window; with multipv = N the best N moves' scores are.  Sorts rm
 * best first (stable).  Returns the best score; t->aborted when stopped,
 * in which case rm is unchanged unless t->partial: (single line only) the
 * first move had been searched with a value inside the window, and rm
 * holds the moves searched so far sorted by their deeper values, the
 * others after them (searched = false). */
int search_root(SearchThread *t, Board b, SearchRootMove *rm, int n, int depth,
                int alpha, int beta, int multipv);

/* Search b to `depth` with window (alpha, beta) (no PV); for the facade's
 * small needs (scores at a forced pass) and the tools. */
int search_value(SearchThread *t, Board b, int depth, int alpha, int beta);

/* Total nodes of all threads (approximate while they run). */
uint64_t search_total_nodes(const SearchShared *sh);

#endif
