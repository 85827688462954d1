/* splitpool.c - see splitpool.h. */
#include "splitpool.h"
#include "util.h"

#ifdef SEARCH_STATS
double split_pool_stat_idle;
#endif

void split_pool_init(SplitPool *pool, SplitWorkFn work)
{
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->cond, NULL);
	pool->work = work;
	split_pool_reset(pool);
}

void split_pool_reset(SplitPool *pool)
{
	atomic_store(&pool->idle, 0);
	atomic_store(&pool->gen, 0);
	pool->quit = false;
	pool->nactive = 0;
}

void split_pool_destroy(SplitPool *pool)
{
	pthread_mutex_destroy(&pool->lock);
	pthread_cond_destroy(&pool->cond);
}

/* Tell the waiting threads that the pool changed; lock held. */
static void split_pool_changed(SplitPool *pool)
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

/* Wait, counted as idle, until the pool changes; called and returns with
 * the lock held; may return early. */
static void split_pool_wait(SplitPool *pool)
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

void split_node_init(SplitNode *sp, SplitNode *parent, int next, int count)
{
	pthread_mutex_init(&sp->lock, NULL);
	sp->parent = parent;
	sp->next = next;
	sp->count = count;
	sp->workers = 0;
	atomic_init(&sp->cutoff, false);
}

void split_node_destroy(SplitNode *sp)
{
	pthread_mutex_destroy(&sp->lock);
}

/* A registered split point with moves left and not cut off; when `under`
 * is set, only one below it.  Lock held. */
static SplitNode *split_pool_find(SplitPool *pool, const SplitNode *under)
{
	for (int i = 0; i < pool->nactive; i++) {
		SplitNode *sp = pool->active[i];
		if (atomic_load_explicit(&sp->cutoff, memory_order_relaxed))
			continue;
		pthread_mutex_lock(&sp->lock);
		const bool open = sp->next < sp->count;
		pthread_mutex_unlock(&sp->lock);
		if (!open)
			continue;
		if (under) {
			const SplitNode *a = sp->parent;
			while (a && a != under)
				a = a->parent;
			if (!a)
				continue;
		}
		return sp;
	}
	return NULL;
}

/* Work for sp; called and returns with the lock held. */
static void split_pool_join(SplitPool *pool, SplitNode *sp, void *thread)
{
	sp->workers++;
	pthread_mutex_unlock(&pool->lock);
	pool->work(thread, sp);
	pthread_mutex_lock(&pool->lock);
	sp->workers--;
	split_pool_changed(pool);
}

void split_pool_helper(SplitPool *pool, void *thread)
{
	pthread_mutex_lock(&pool->lock);
	while (!pool->quit) {
		SplitNode *sp = split_pool_find(pool, NULL);
		if (sp)
			split_pool_join(pool, sp, thread);
		else
			split_pool_wait(pool);
	}
	pthread_mutex_unlock(&pool->lock);
}

void split_pool_run(SplitPool *pool, SplitNode *sp, void *thread)
{
	sp->workers = 1;
	pthread_mutex_lock(&pool->lock);
	const bool registered = pool->nactive < SPLIT_POOL_MAX_ACTIVE;
	if (registered) {
		pool->active[pool->nactive++] = sp;
		split_pool_changed(pool);
	}
	pthread_mutex_unlock(&pool->lock);
	pool->work(thread, sp);
	pthread_mutex_lock(&pool->lock);
	sp->workers--;
	if (registered) {
		for (int i = 0; i < pool->nactive; i++)
			if (pool->active[i] == sp) {
				pool->active[i] = pool->active[--pool->nactive];
				break;
			}
		/* wait for the helpers, working for those below this node;
		 * waiting counts as idle, so a helper under this node splits
		 * its own nodes for the owner */
		while (sp->workers > 0) {
			SplitNode *w = split_pool_find(pool, sp);
			if (w)
				split_pool_join(pool, w, thread);
			else
				split_pool_wait(pool);
		}
	}
	pthread_mutex_unlock(&pool->lock);
}
