#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "perft.h"

/* Leaves one ply below a position whose move set is m (bulk count). */
static inline uint64_t perft1_moves(uint64_t m, uint64_t p, uint64_t o, int mode, uint64_t geo)
{
	if (m)
		return (uint64_t)bit_count(m);
	if (mode == 2) {
		uint64_t mo = board_moves(o, p) & geo;
		return mo ? (uint64_t)bit_count(mo) : 1;
	}
	return 1; /* a pass, or a finished game: one leaf either way */
}

static inline uint64_t perft1(uint64_t p, uint64_t o, int mode, uint64_t geo)
{
	return perft1_moves(board_moves(p, o) & geo, p, o, mode, geo);
}

/* The last two plies, the hot loop of perft: for each move, the child's
 * move count comes from the fused flip + move generation kernel. */
static inline __attribute__((always_inline)) uint64_t perft2(uint64_t p, uint64_t o, int mode,
                                                            uint64_t geo)
{
	uint64_t m = board_moves(p, o) & geo;
	if (!m) {
		uint64_t mo = board_moves(o, p) & geo;
		if (!mo)
			return 1;
		if (mode == 1)
			return perft1_moves(mo, o, p, mode, geo);
		m = mo; /* mode 2: the pass uses no ply */
		uint64_t t = p;
		p = o;
		o = t;
	}
	uint64_t none;
	uint64_t n = board_mobility_sum(p, o, m, geo, &none);
	for (; none; none = bit_pop(none)) {
		/* the opponent must pass after this move (or the game is over) */
		int sq = bit_first(none);
		uint64_t f = board_flips(p, o, sq);
		n += perft1_moves(0, o ^ f, p ^ f ^ bit_of(sq), mode, geo);
	}
	return n;
}

static inline __attribute__((always_inline)) uint64_t perft_rec_mode(uint64_t p, uint64_t o, int depth,
                                                                    int mode, uint64_t geo);

static uint64_t perft_rec1(uint64_t p, uint64_t o, int depth, uint64_t geo)
{
	return perft_rec_mode(p, o, depth, 1, geo);
}

static uint64_t perft_rec2(uint64_t p, uint64_t o, int depth, uint64_t geo)
{
	return perft_rec_mode(p, o, depth, 2, geo);
}

/* mode is a constant in each instance (perft_rec1, perft_rec2). */
static inline __attribute__((always_inline)) uint64_t perft_rec_mode(uint64_t p, uint64_t o, int depth,
                                                                    int mode, uint64_t geo)
{
	if (depth <= 2)
		return depth == 2 ? perft2(p, o, mode, geo) : depth == 1 ? perft1(p, o, mode, geo) : 1;
	uint64_t m = board_moves(p, o) & geo;
	if (!m) {
		if (!(board_moves(o, p) & geo))
			return 1;
		if (mode == 1)
			return perft_rec1(o, p, depth - 1, geo);
		return perft_rec2(o, p, depth, geo);
	}
	uint64_t n = 0;
	do {
		int sq = bit_first(m);
		uint64_t f = board_flips(p, o, sq);
		if (mode == 1)
			n += perft_rec1(o ^ f, p ^ f ^ bit_of(sq), depth - 1, geo);
		else
			n += perft_rec2(o ^ f, p ^ f ^ bit_of(sq), depth - 1, geo);
		m = bit_pop(m);
	} while (m);
	return n;
}

static uint64_t perft_rec(uint64_t p, uint64_t o, int depth, int mode, uint64_t geo)
{
	return mode == 1 ? perft_rec1(p, o, depth, geo) : perft_rec2(p, o, depth, geo);
}

uint64_t perft(Board b, int depth, int mode, uint64_t geometry)
{
	if (depth <= 0)
		return 1;
	return perft_rec(b.p, b.o, depth, mode, geometry);
}

/* Parallel perft: the tree is split into tasks at a fixed shallow depth
 * (positions with the remaining depth, expanded in order), handed out by an
 * atomic counter.  Sum of task counts = sequential count. */
typedef struct PerftTask {
	Board b;
	int depth;
	uint64_t leaves; /* leaves already known (finished games above the split) */
} PerftTask;

typedef struct PerftJob {
	PerftTask *tasks;
	size_t ntasks;
	int mode;
	uint64_t geo;
	atomic_size_t next;
	atomic_uint_fast64_t total;
} PerftJob;

/* The positions split_depth plies (fewer at the end) below b into
 * *tasks; false when memory ran out (the caller counts alone). */
static bool split(Board b, int depth, int split_depth, int mode, uint64_t geo,
                  PerftTask **tasks, size_t *n, size_t *cap)
{
	if (split_depth == 0 || depth <= 3) {
		if (*n == *cap) {
			size_t ncap = *cap ? *cap * 2 : 256;
			PerftTask *t = realloc(*tasks, ncap * sizeof *t);
			if (!t)
				return false;
			*tasks = t;
			*cap = ncap;
		}
		(*tasks)[(*n)++] = (PerftTask){ b, depth, 0 };
		return true;
	}
	uint64_t m = board_moves(b.p, b.o) & geo;
	if (!m) {
		if (!(board_moves(b.o, b.p) & geo))
			return split(b, 0, 0, mode, geo, tasks, n, cap); /* depth 0: one leaf */
		return split(board_pass(b), mode == 1 ? depth - 1 : depth, split_depth - 1, mode, geo, tasks, n, cap);
	}
	for (; m; m = bit_pop(m)) {
		int sq = bit_first(m);
		if (!split(board_apply(b, sq, board_flips(b.p, b.o, sq)), depth - 1, split_depth - 1, mode, geo,
		           tasks, n, cap))
			return false;
	}
	return true;
}

static void *perft_worker(void *arg)
{
	PerftJob *job = arg;
	uint64_t sum = 0;
	for (;;) {
		size_t i = atomic_fetch_add(&job->next, 1);
		if (i >= job->ntasks)
			break;
		sum += perft(job->tasks[i].b, job->tasks[i].depth, job->mode, job->geo);
	}
	atomic_fetch_add(&job->total, sum);
	return NULL;
}

uint64_t perft_parallel(Board b, int depth, int mode, uint64_t geometry, int threads)
{
	if (threads <= 1 || depth <= 5)
		return perft(b, depth, mode, geometry);
	PerftJob job = { .mode = mode, .geo = geometry };
	size_t cap = 0;
	if (!split(b, depth, 3, mode, geometry, &job.tasks, &job.ntasks, &cap)) {
		/* no memory for the tasks: the same count on this thread */
		free(job.tasks);
		return perft(b, depth, mode, geometry);
	}
	atomic_init(&job.next, 0);
	atomic_init(&job.total, 0);
	pthread_t *tid = calloc((size_t)threads, sizeof *tid);
	int started = 0;
	for (int i = 0; tid && i < threads; i++)
		if (pthread_create(&tid[i], NULL, perft_worker, &job) == 0)
			started++;
		else
			break;
	if (started == 0)
		perft_worker(&job);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	free(job.tasks);
	return atomic_load(&job.total);
}
