/*
 * proto_search.h - a search running in a worker thread, for the protocols
 * that must keep reading commands while the engine thinks (NBoard's ping,
 * UGI's stop and isready).  The worker and the watchdog are two threads
 * made by the first search and kept (workers.h): no thread per move.
 *
 * One search at a time per ProtoSearch.  The worker calls `done` (from its
 * own thread) with the result once engine_search() returns; `stopped` tells
 * whether proto_search_stop() was called, so a protocol can drop a result
 * nobody waits for.  A watchdog enforces an optional hard time
 * limit by calling engine_stop(), whatever the engine's own time
 * management decides: a protocol clock is never overrun because of it.
 *
 * Invariant: between proto_search_start() and the wait in _wait/_stop the
 * worker owns its copy of the game; the caller may change its own game
 * freely.
 */
#ifndef EMILIA_PROTO_SEARCH_H
#define EMILIA_PROTO_SEARCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include "engine.h"
#include "workers.h"

typedef void (*ProtoSearchDone)(void *user, const Game *g, const EngineInfo *result, bool stopped);

struct ProtoSearch;
/* What one of the two kept threads does during a search. */
typedef struct ProtoSearchRole {
	struct ProtoSearch *s;
	bool watchdog;
} ProtoSearchRole;

typedef struct ProtoSearch {
	Workers *workers;       /* the worker and the watchdog (NULL: out of memory) */
	ProtoSearchRole role[2];
	bool running;           /* a worker was started and not waited for yet */
	atomic_bool stopped;    /* stop requested by the protocol */
	atomic_bool finished;   /* engine_search() returned */
	pthread_mutex_t lock;
	pthread_cond_t cond;    /* signalled when the search finishes */
	Engine *engine;
	Game game;
	EngineLimits limits;
	double hard_limit;      /* seconds, 0 = none */
	EngineInfoFn info;
	ProtoSearchDone done;
	void (*job)(void *user, struct ProtoSearch *s); /* custom worker body */
	void *user;
} ProtoSearch;

void proto_search_init(ProtoSearch *s);
void proto_search_destroy(ProtoSearch *s);
/* Start searching g (copied).  The previous search must have been
 * waited for (proto_search_wait or _stop). */
bool proto_search_start(ProtoSearch *s, Engine *e, const Game *g, const EngineLimits *lim,
                        double hard_limit, EngineInfoFn info, ProtoSearchDone done, void *user);
/* Run job(user, s) in the worker instead of one search (a sequence of
 * searches, as NBoard's analyze): it calls engine_search() as it likes and
 * must return soon after s->stopped becomes true. */
bool proto_search_start_job(ProtoSearch *s, Engine *e, void (*job)(void *user, ProtoSearch *s),
                            void *user);
/* Wait for the running search to end (returns at once when none). */
void proto_search_wait(ProtoSearch *s);
/* Stop the running search and wait for it. */
void proto_search_stop(ProtoSearch *s);
/* Whether the running search has no end of its own (infinite). */
bool proto_search_infinite(const ProtoSearch *s);

/* The engine's result made safe for a protocol: when the game is not over
 * and the move is not legal here (an engine bug), the first legal move, or
 * a pass when the side to move must pass. */
int proto_search_legal_move(const Game *g, int move);

#endif
