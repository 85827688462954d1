/* splitpool.c - see splitpool.h. */
#include "splitpool.h"
#include "util.h"

#ifdef SEARCH_STATS
double split_pool_stat_idle;
#endif

void split_pool_init(SplitPool *pool)
{
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->cond, NULL);
	atomic_init(&pool->idle, 0);
	atomic_init(&pool->gen, 0);
	pool->quit = false;
}

void split_pool_destroy(SplitPool *pool)
{
	pthread_mutex_destroy(&pool->lock);
	pthread_cond_destroy(&pool->cond);
}

void split_pool_changed(SplitPool *pool)
{
	atomic_fetch_add_explicit(&pool->gen, 1, memory_order_release);
	pthread_cond_broadcast(&pool->cond);
}

static inline void split_pool_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	atomic_signal_fence(memory_order_seq_cst);
#endif
}

void split_pool_wait(SplitPool *pool)
{
#ifdef SEARCH_STATS
	const double t0 = util_now();
#endif
	const unsigned gen = atomic_load_explicit(&pool->gen, memory_order_relaxed);
	atomic_fetch_add(&pool->idle, 1);
	pthread_mutex_unlock(&pool->lock);
	for (int i = 0; i < SPLIT_POOL_SPIN && atomic_load_explicit(&pool->gen, memory_order_acquire) == gen; i++)
		split_pool_relax();
	pthread_mutex_lock(&pool->lock);
	/* gen only changes under the lock: no wake-up is lost */
	if (atomic_load_explicit(&pool->gen, memory_order_relaxed) == gen)
		pthread_cond_wait(&pool->cond, &pool->lock);
	atomic_fetch_sub(&pool->idle, 1);
#ifdef SEARCH_STATS
	split_pool_stat_idle += util_now() - t0;
#endif
}

void split_pool_quit(SplitPool *pool)
{
	pthread_mutex_lock(&pool->lock);
	pool->quit = true;
	split_pool_changed(pool);
	pthread_mutex_unlock(&pool->lock);
}
