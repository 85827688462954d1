/*
 * workers.h - threads kept for the life of their owner.
 *
 * An engine owns one Workers: the helpers of its searches and of its
 * solves are these threads, which wait between jobs, so that no thread is
 * created per move (a thread is created the first time a job needs that
 * many and reused after).  A job runs job(arg[i]) on worker i; the owner
 * starts a job, does its own share on its own thread, and waits for the
 * workers before it starts the next one or touches what they use.
 *
 * One thread at a time starts and waits (the owner); the job functions
 * run on the workers.
 */
#ifndef EMILIA_WORKERS_H
#define EMILIA_WORKERS_H

#include <stdbool.h>

typedef struct Workers Workers;
typedef void (*WorkerJob)(void *arg);

/* No threads yet; NULL when out of memory. */
Workers *workers_new(void);
/* Wait for a running job, end the threads and free them (NULL: nothing). */
void workers_free(Workers *w);

/* Run job(args[i]) on workers 0..n-1 (creating the threads missing),
 * after waiting for the previous job; returns how many run (fewer than n
 * when the system refuses a new thread: the caller does without). */
int workers_start(Workers *w, int n, WorkerJob job, void *const *args);
/* Wait until the job's functions have returned on every worker. */
void workers_wait(Workers *w);
/* Whether the last job's functions have all returned (does not wait). */
bool workers_idle(Workers *w);

#endif
