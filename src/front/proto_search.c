#include <errno.h>
#include <string.h>
#include <time.h>
#include "proto_search.h"
#include "util.h"

void proto_search_init(ProtoSearch *s)
{
	memset(s, 0, sizeof *s);
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	s->workers = workers_new();
	s->role[0] = (ProtoSearchRole){ s, false };
	s->role[1] = (ProtoSearchRole){ s, true };
}

void proto_search_destroy(ProtoSearch *s)
{
	proto_search_stop(s);
	workers_free(s->workers);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
}

static void worker(ProtoSearch *s)
{
	EngineInfo r;
	memset(&r, 0, sizeof r);
	if (s->job) {
		s->job(s->user, s);
	} else {
		r = engine_search(s->engine, &s->game, &s->limits, s->info, s->user);
		r.move = proto_search_legal_move(&s->game, r.move);
	}
	pthread_mutex_lock(&s->lock);
	atomic_store(&s->finished, true);
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (s->done && !s->job)
		s->done(s->user, &s->game, &r, atomic_load(&s->stopped));
}

/* With s->lock held: request a stop every 5 ms until the worker reports
 * that the search has finished (a stop sent before the worker entered
 * engine_search() could otherwise be forgotten). */
static void stop_until_finished(ProtoSearch *s)
{
	while (!atomic_load(&s->finished)) {
		engine_stop(s->engine);
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 5000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&s->cond, &s->lock, &ts);
	}
}

static void watchdog(ProtoSearch *s)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	double whole = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 + s->hard_limit;
	ts.tv_sec = (time_t)whole;
	ts.tv_nsec = (long)((whole - (double)ts.tv_sec) * 1e9);
	pthread_mutex_lock(&s->lock);
	int rc = 0;
	while (!atomic_load(&s->finished) && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&s->cond, &s->lock, &ts);
	stop_until_finished(s);
	pthread_mutex_unlock(&s->lock);
}

static void role_main(void *arg)
{
	ProtoSearchRole *r = arg;
	if (r->watchdog)
		watchdog(r->s);
	else
		worker(r->s);
}

/* The worker, and the watchdog when there is a hard limit, on the kept
 * threads. */
static bool start(ProtoSearch *s)
{
	if (!s->workers)
		return false;
	void *args[2] = { &s->role[0], &s->role[1] };
	if (workers_start(s->workers, s->hard_limit > 0 ? 2 : 1, role_main, args) < 1)
		return false;
	s->running = true;
	return true;
}

bool proto_search_start(ProtoSearch *s, Engine *e, const Game *g, const EngineLimits *lim,
                        double hard_limit, EngineInfoFn info, ProtoSearchDone done, void *user)
{
	if (s->running)
		return false;
	s->engine = e;
	s->game = *g;
	s->limits = *lim;
	s->hard_limit = hard_limit;
	s->info = info;
	s->done = done;
	s->job = NULL;
	s->user = user;
	atomic_store(&s->stopped, false);
	atomic_store(&s->finished, false);
	return start(s);
}

bool proto_search_start_job(ProtoSearch *s, Engine *e, void (*job)(void *user, ProtoSearch *s),
                            void *user)
{
	if (s->running)
		return false;
	s->engine = e;
	memset(&s->limits, 0, sizeof s->limits);
	s->hard_limit = 0;
	s->info = NULL;
	s->done = NULL;
	s->job = job;
	s->user = user;
	atomic_store(&s->stopped, false);
	atomic_store(&s->finished, false);
	return start(s);
}

void proto_search_wait(ProtoSearch *s)
{
	if (!s->running)
		return;
	workers_wait(s->workers);
	s->running = false;
}

void proto_search_stop(ProtoSearch *s)
{
	if (!s->running)
		return;
	atomic_store(&s->stopped, true);
	/* A stop that arrives before the worker entered engine_search() could
	 * be forgotten if the engine clears its flag on entry: repeat it until
	 * the search has really finished. */
	pthread_mutex_lock(&s->lock);
	stop_until_finished(s);
	pthread_mutex_unlock(&s->lock);
	proto_search_wait(s);
}

bool proto_search_infinite(const ProtoSearch *s)
{
	return s->running && s->limits.infinite;
}

int proto_search_legal_move(const Game *g, int move)
{
	uint64_t legal = game_moves(g);
	if (legal) {
		if (move >= 0 && move < 64 && (legal & bit_of(move)))
			return move;
		return bit_first(legal);
	}
	return game_must_pass(g) ? BOARD_PASS : BOARD_NOMOVE;
}
