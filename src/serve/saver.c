/*
 * saver.c - see saver.h.
 */
#include "saver.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "table.h"

typedef struct Job {
	struct Job *next;
	char name[64];
	char *text; /* NULL: remove */
	size_t len;
} Job;

struct Saver {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	Job *head, *tail;
	bool stopping;
	char dir[4096];
};

static void run(Saver *s, Job *j)
{
	char err[600];
	if (j->text) {
		if (!table_write_file(s->dir, j->name, j->text, j->len, err, sizeof err))
			fprintf(stderr, "emilia-serve: table not saved: %s\n", err);
	} else {
		char path[4200];
		snprintf(path, sizeof path, "%s/%s", s->dir, j->name);
		if (unlink(path) != 0 && errno != ENOENT)
			fprintf(stderr, "emilia-serve: %s: %s\n", path, strerror(errno));
	}
	free(j->text);
	free(j);
}

static void *saver_main(void *arg)
{
	Saver *s = arg;
	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!s->head && !s->stopping)
			pthread_cond_wait(&s->cond, &s->lock);
		if (!s->head)
			break; /* stopping, and nothing left */
		Job *j = s->head;
		s->head = j->next;
		if (!s->head)
			s->tail = NULL;
		pthread_mutex_unlock(&s->lock);
		run(s, j);
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

Saver *saver_new(const char *dir)
{
	Saver *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	snprintf(s->dir, sizeof s->dir, "%s", dir);
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	if (pthread_create(&s->thread, NULL, saver_main, s) != 0) {
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->cond);
		free(s);
		return NULL;
	}
	return s;
}

bool saver_put(Saver *s, const char *name, const char *text, size_t len)
{
	char *copy = NULL;
	if (text) {
		if (!(copy = malloc(len ? len : 1)))
			return false;
		memcpy(copy, text, len);
	}
	pthread_mutex_lock(&s->lock);
	/* the file is still queued: its newest text replaces the older one */
	for (Job *j = s->head; j; j = j->next)
		if (!strcmp(j->name, name)) {
			free(j->text);
			j->text = copy;
			j->len = len;
			pthread_mutex_unlock(&s->lock);
			return true;
		}
	pthread_mutex_unlock(&s->lock);
	Job *j = calloc(1, sizeof *j);
	if (!j) {
		free(copy);
		return false;
	}
	snprintf(j->name, sizeof j->name, "%s", name);
	j->text = copy;
	j->len = len;
	pthread_mutex_lock(&s->lock);
	if (s->tail)
		s->tail->next = j;
	else
		s->head = j;
	s->tail = j;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return true;
}

void saver_free(Saver *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stopping = true;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
}
