/*
 * workers.c - threads kept for the life of their owner (workers.h).
 *
 * Each worker has a slot: the job to run and its number.  A worker sleeps
 * until its slot's number changes (or the pool ends), runs the job, and
 * counts itself out; the last one out wakes the owner.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include "bounds.h"
#include "workers.h"

#define WORKERS_MAX BOUNDS_THREADS_MAX

typedef struct Slot {
	Workers *pool;
	int index;
	pthread_t tid;
	WorkerJob job;      /* under the pool's lock */
	void *arg;
	uint64_t seq;       /* number of the slot's last job */
} Slot;

struct Workers {
	pthread_mutex_t lock;
	pthread_cond_t wake;   /* a slot has a new job, or quit */
	pthread_cond_t done;   /* running fell to 0 */
	int nthreads;
	int running;           /* jobs started and not returned */
	bool quit;
	Slot slot[WORKERS_MAX];
};

static void *worker_main(void *arg)
{
	Slot *s = arg;
	Workers *w = s->pool;
	uint64_t seen = 0;
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->quit && s->seq == seen)
			pthread_cond_wait(&w->wake, &w->lock);
		if (s->seq == seen)
			break; /* quit, with no job left */
		seen = s->seq;
		WorkerJob job = s->job;
		void *jarg = s->arg;
		pthread_mutex_unlock(&w->lock);
		job(jarg);
		pthread_mutex_lock(&w->lock);
		if (--w->running == 0)
			pthread_cond_broadcast(&w->done);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

Workers *workers_new(void)
{
	Workers *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	pthread_cond_init(&w->done, NULL);
	for (int i = 0; i < WORKERS_MAX; i++) {
		w->slot[i].pool = w;
		w->slot[i].index = i;
	}
	return w;
}

/* Called with the lock held. */
static void wait_idle(Workers *w)
{
	while (w->running > 0)
		pthread_cond_wait(&w->done, &w->lock);
}

void workers_free(Workers *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	wait_idle(w);
	w->quit = true;
	pthread_cond_broadcast(&w->wake);
	pthread_mutex_unlock(&w->lock);
	for (int i = 0; i < w->nthreads; i++)
		pthread_join(w->slot[i].tid, NULL);
	pthread_cond_destroy(&w->done);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

int workers_start(Workers *w, int n, WorkerJob job, void *const *args)
{
	if (n > WORKERS_MAX)
		n = WORKERS_MAX;
	pthread_mutex_lock(&w->lock);
	wait_idle(w);
	while (w->nthreads < n) {
		Slot *s = &w->slot[w->nthreads];
		if (pthread_create(&s->tid, NULL, worker_main, s) != 0)
			break;
		w->nthreads++;
	}
	if (n > w->nthreads)
		n = w->nthreads;
	for (int i = 0; i < n; i++) {
		w->slot[i].job = job;
		w->slot[i].arg = args[i];
		w->slot[i].seq++;
		w->running++;
	}
	if (n > 0)
		pthread_cond_broadcast(&w->wake);
	pthread_mutex_unlock(&w->lock);
	return n;
}

void workers_wait(Workers *w)
{
	pthread_mutex_lock(&w->lock);
	wait_idle(w);
	pthread_mutex_unlock(&w->lock);
}

bool workers_idle(Workers *w)
{
	pthread_mutex_lock(&w->lock);
	const bool idle = w->running == 0;
	pthread_mutex_unlock(&w->lock);
	return idle;
}
