/*
 * pool.h - emilia-serve's engine threads: the moves Emilia plays for a
 * table (its own seat, a player whose clock ran out, a player who left)
 * are searched here, off the network thread.  Each thread holds one
 * engine per kind of game (8x8, 6x6, Anti Reversi), made when first
 * needed, through the public API (include/emilia.h).
 */
#ifndef EMILIA_SERVE_POOL_H
#define EMILIA_SERVE_POOL_H

#include <stdbool.h>
#include <stdint.h>

typedef struct PoolJob {
	/* in */
	uint64_t table_id;   /* which table asked (tables are never reused) */
	int ply;             /* the table's ply when it asked */
	int size;            /* 8 or 6 */
	bool anti;
	int level;           /* EMILIA_LEVEL_* */
	char moves[400];     /* the game so far, a transcript with explicit passes */
	/* out */
	int move;            /* a square (0..63), EMILIA_PASS, or -1 when the search failed */
	char error[160];
	struct PoolJob *next;
} PoolJob;

typedef struct Pool Pool;

/* Start `threads` engine threads; `wake(user)` is called from an engine
 * thread after each finished job (it must be thread-safe: emilia-serve
 * wakes its event loop). */
Pool *pool_new(int threads, int hash_mb, void (*wake)(void *), void *user);
/* Queue a job (the pool owns it until pool_done returns it). */
void pool_submit(Pool *p, PoolJob *job);
/* The finished jobs, oldest first (NULL: none); the caller frees them. */
PoolJob *pool_done(Pool *p);
/* Stop the threads (searches under way are stopped) and free the jobs. */
void pool_free(Pool *p);

#endif
