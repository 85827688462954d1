/*
 * splitpool.h - Young-Brothers-Wait split points and the thread pool that
 * shares them, for both parallel searches (search.c, endgame.c).
 *
 * A split point is a node whose first move is searched and whose other
 * moves are handed out, one at a time, to the threads that join it.  Each
 * search embeds a SplitNode as the FIRST member of its own split-point
 * record (the node's position, window and result) and gives the pool a
 * work function that takes moves of such a record and searches them.
 *
 * The pool keeps the registered split points in a list under one lock.
 * Helper threads join one with moves left; a split point's owner, once its
 * moves are handed out, waits for its helpers and meanwhile joins only the
 * split points below its own (those of its helpers), so it is back as soon
 * as they are done.  A thread without work waits here and counts as idle,
 * which is what makes a working thread split its next node: that holds for
 * a waiting owner too, so a helper deep in the last move splits its own
 * nodes for the owner.  Waiting first spins (split points come and go every
 * few microseconds, and a thread asleep on the condition variable takes
 * tens of microseconds to wake, more in a virtual machine), then sleeps.
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

/* Split points registered at once at most (further ones are searched by
 * their owner alone). */
#define SPLIT_POOL_MAX_ACTIVE 256

typedef struct SplitNode SplitNode;
struct SplitNode {
	pthread_mutex_t lock;    /* guards next and the search's own result fields */
	SplitNode *parent;       /* the owner's enclosing split point, or NULL */
	int next, count;         /* next move to hand out, moves (under lock) */
	int workers;             /* threads working for it (under the pool lock) */
	atomic_bool cutoff;      /* a move reached beta: everyone below unwinds */
};

/* Search moves of the split point `sp` (the first member of the search's
 * record) until none are left or it is cut off; `thread` is the search's
 * per-thread record. */
typedef void (*SplitWorkFn)(void *thread, SplitNode *sp);

typedef struct SplitPool {
	pthread_mutex_t lock;    /* guards active[], nactive, workers counts, quit */
	pthread_cond_t cond;
	atomic_int idle;         /* threads waiting for work */
	atomic_uint gen;         /* bumped (under lock) at every change:
	                            a split point registered, a worker
	                            leaving one, quit */
	bool quit;               /* helpers leave */
	SplitWorkFn work;
	SplitNode *active[SPLIT_POOL_MAX_ACTIVE];
	int nactive;
} SplitPool;

void split_pool_init(SplitPool *pool, SplitWorkFn work);
void split_pool_destroy(SplitPool *pool);
/* Back to the state after init (no thread may be using the pool). */
void split_pool_reset(SplitPool *pool);

/* A helper thread's body: join split points until split_pool_quit(). */
void split_pool_helper(SplitPool *pool, void *thread);

/* Sets quit and wakes everyone (takes the lock). */
void split_pool_quit(SplitPool *pool);

/* Set up sp (not yet registered): moves next..count-1 to hand out, under
 * `parent` (the calling thread's innermost split point). */
void split_node_init(SplitNode *sp, SplitNode *parent, int next, int count);
void split_node_destroy(SplitNode *sp);

/* The owner's part: register sp, work for it, wait for its helpers
 * (working for split points below it meanwhile) and unregister it.  On
 * return no other thread touches sp. */
void split_pool_run(SplitPool *pool, SplitNode *sp, void *thread);

/* True when sp or a split point above it is cut off. */
static inline bool split_node_cut(const SplitNode *sp)
{
	for (; sp; sp = sp->parent)
		if (atomic_load_explicit(&sp->cutoff, memory_order_relaxed))
			return true;
	return false;
}

static inline bool split_pool_has_idle(const SplitPool *pool)
{
	return atomic_load_explicit(&pool->idle, memory_order_relaxed) > 0;
}

#ifdef SEARCH_STATS
/* seconds the threads spent waiting for work */
extern double split_pool_stat_idle;
#endif

#endif
