/*
 * splitpool.h - the waiting room of a Young-Brothers-Wait thread pool.
 *
 * Both parallel searches (search.c, endgame.c) keep their split points in
 * a list under one lock; threads without work wait here.  A waiting thread
 * counts as idle, which is what makes a working thread split its next node:
 * that holds for a split point's owner waiting for its helpers too, so
 * that a helper deep in the last move splits its own nodes for the owner.
 * Waiting first spins (split points come and go every few microseconds,
 * and a thread asleep on the condition variable takes tens of microseconds
 * to wake, more in a virtual machine), then sleeps.
 */
#ifndef EMILIA_SPLITPOOL_H
#define EMILIA_SPLITPOOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

/* Rounds a waiting thread spins before it sleeps. */
#ifndef SPLIT_POOL_SPIN
#define SPLIT_POOL_SPIN 20000
#endif

typedef struct SplitPool {
	pthread_mutex_t lock;    /* guards the owner's list of split points */
	pthread_cond_t cond;
	atomic_int idle;         /* threads waiting for work */
	atomic_uint gen;         /* bumped (under lock) at every change:
	                            a split point registered, a worker
	                            leaving one, quit */
	bool quit;               /* under lock: helpers leave */
} SplitPool;

void split_pool_init(SplitPool *pool);
void split_pool_destroy(SplitPool *pool);

/* Tell the waiting threads that the pool changed; lock held. */
void split_pool_changed(SplitPool *pool);

/* Wait, counted as idle, until the pool changes; called and returns with
 * the lock held; may return early. */
void split_pool_wait(SplitPool *pool);

/* Sets quit and wakes everyone (takes the lock). */
void split_pool_quit(SplitPool *pool);

static inline bool split_pool_has_idle(const SplitPool *pool)
{
	return atomic_load_explicit(&pool->idle, memory_order_relaxed) > 0;
}

#ifdef SEARCH_STATS
/* seconds the threads spent in split_pool_wait() */
extern double split_pool_stat_idle;
#endif

#endif
