/*
 * pool.c - see pool.h.
 */
#include "pool.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emilia.h"

enum { KINDS = 3 }; /* 8x8, 6x6, anti */

typedef struct Worker {
	struct Pool *pool;
	pthread_t thread;
	emilia_engine *engine[KINDS];
	emilia_engine *busy; /* the engine searching now, under the pool's lock */
} Worker;

struct Pool {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	PoolJob *queue, *queue_tail;
	PoolJob *done, *done_tail;
	bool stopping;
	int nworkers;
	int hash_mb;
	void (*wake)(void *);
	void *user;
	Worker *workers;
};

static void append(PoolJob **head, PoolJob **tail, PoolJob *j)
{
	j->next = NULL;
	if (*tail)
		(*tail)->next = j;
	else
		*head = j;
	*tail = j;
}

static emilia_engine *engine_for(Worker *w, const PoolJob *j, char *err, size_t errlen)
{
	const int kind = j->size == 6 ? 1 : j->anti ? 2 : 0;
	if (!w->engine[kind]) {
		emilia_options o;
		emilia_options_init(&o);
		o.board_size = j->size;
		o.anti = j->anti;
		o.hash_mb = w->pool->hash_mb;
		o.threads = 1;
		o.seed = (uint64_t)(uintptr_t)w ^ 0x9e3779b97f4a7c15u;
		if (emilia_create(&o, &w->engine[kind], err, errlen) != EMILIA_OK)
			return NULL;
	}
	return w->engine[kind];
}

static void run_job(Worker *w, PoolJob *j)
{
	j->move = -1;
	j->error[0] = 0;
	emilia_engine *e = engine_for(w, j, j->error, sizeof j->error);
	if (!e)
		return;
	emilia_info info;
	if (emilia_new_game(e) != EMILIA_OK || emilia_set_transcript(e, j->moves) != EMILIA_OK ||
	    emilia_set_level(e, j->level) != EMILIA_OK) {
		snprintf(j->error, sizeof j->error, "%s", emilia_last_error(e));
		return;
	}
	pthread_mutex_lock(&w->pool->lock);
	const bool stopping = w->pool->stopping;
	if (!stopping)
		w->busy = e;
	pthread_mutex_unlock(&w->pool->lock);
	if (stopping)
		return;
	const emilia_status s = emilia_search(e, NULL, NULL, NULL, &info);
	pthread_mutex_lock(&w->pool->lock);
	w->busy = NULL;
	pthread_mutex_unlock(&w->pool->lock);
	if (s != EMILIA_OK) {
		snprintf(j->error, sizeof j->error, "%s", emilia_last_error(e));
		return;
	}
	j->move = info.move == EMILIA_PASS ? EMILIA_PASS : info.move;
}

static void *worker_main(void *arg)
{
	Worker *w = arg;
	Pool *p = w->pool;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		while (!p->queue && !p->stopping)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->stopping) {
			pthread_mutex_unlock(&p->lock);
			break;
		}
		PoolJob *j = p->queue;
		p->queue = j->next;
		if (!p->queue)
			p->queue_tail = NULL;
		pthread_mutex_unlock(&p->lock);
		run_job(w, j);
		pthread_mutex_lock(&p->lock);
		append(&p->done, &p->done_tail, j);
		pthread_mutex_unlock(&p->lock);
		p->wake(p->user);
	}
	return NULL;
}

Pool *pool_new(int threads, int hash_mb, void (*wake)(void *), void *user)
{
	Pool *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->workers = calloc((size_t)threads, sizeof *p->workers);
	if (!p->workers) {
		free(p);
		return NULL;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	p->hash_mb = hash_mb;
	p->wake = wake;
	p->user = user;
	for (int i = 0; i < threads; i++) {
		p->workers[i].pool = p;
		if (pthread_create(&p->workers[i].thread, NULL, worker_main, &p->workers[i]) != 0)
			break;
		p->nworkers++;
	}
	if (!p->nworkers) {
		pool_free(p);
		return NULL;
	}
	return p;
}

void pool_submit(Pool *p, PoolJob *job)
{
	pthread_mutex_lock(&p->lock);
	append(&p->queue, &p->queue_tail, job);
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

PoolJob *pool_done(Pool *p)
{
	pthread_mutex_lock(&p->lock);
	PoolJob *j = p->done;
	p->done = p->done_tail = NULL;
	pthread_mutex_unlock(&p->lock);
	return j;
}

static void free_list(PoolJob *j)
{
	while (j) {
		PoolJob *next = j->next;
		free(j);
		j = next;
	}
}

void pool_free(Pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stopping = true;
	for (int i = 0; i < p->nworkers; i++)
		if (p->workers[i].busy)
			emilia_stop(p->workers[i].busy);
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	for (int i = 0; i < p->nworkers; i++) {
		pthread_join(p->workers[i].thread, NULL);
		for (int k = 0; k < KINDS; k++)
			emilia_destroy(p->workers[i].engine[k]);
	}
	free_list(p->queue);
	free_list(p->done);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p->workers);
	free(p);
}
