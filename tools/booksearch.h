/*
 * booksearch.h - the engine-backed value of a book leaf, shared by
 * emilia-book (one engine per thread) and emilia-mpi (one per worker
 * thread).
 *
 * A leaf's value depends on the position and the level only: every search
 * starts from an empty table (engine_new_game) with one search thread, so
 * a book grows the same whatever the thread count, the number of MPI
 * ranks or the order in which leaves finish.
 */
#ifndef EMILIA_TOOLS_BOOKSEARCH_H
#define EMILIA_TOOLS_BOOKSEARCH_H

#include <stdbool.h>
#include "board.h"
#include "engine.h"

#define BOOKSEARCH_MAX_THREADS 64

typedef struct BookEngines {
	Engine *engines[BOOKSEARCH_MAX_THREADS];
	int n;
} BookEngines;

/* `threads` engines (at most BOOKSEARCH_MAX_THREADS) of hash_mb MiB, 1
 * search thread each, no book.  false (and a message on stderr) when one
 * cannot be made; book_engines_free() is still due. */
bool book_engines_init(BookEngines *es, int threads, int hash_mb);
void book_engines_free(BookEngines *es);

/* A BookSearchFn (book.h) over a BookEngines: the value of pos (side to
 * move = pos.p) at `level` with engine `thread`. */
bool book_engine_value(void *ctx, int thread, Board pos, int level, int *score, bool *exact);

#endif
