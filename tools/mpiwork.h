/*
 * mpiwork.h - the work of emilia-mpi without MPI: work items and their
 * results, the worker side (solve, label, book leaf) and the master's
 * chunk sizing.
 *
 * A work item is one position (side to move = p) with the job's parameter:
 * the WLD flag of a solve, the depth of a label (0 = exact) or the level of
 * a book leaf.  Its result depends on the item only (every solve, label
 * and book search starts from nothing that an earlier item left behind, or
 * from exact bounds that cannot change a result), which is what makes a
 * distributed job's output the same as the single-process command's
 * whatever the number of ranks and the order of completion.
 */
#ifndef EMILIA_TOOLS_MPIWORK_H
#define EMILIA_TOOLS_MPIWORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { MPIJOB_SOLVE = 1, MPIJOB_LABEL = 2, MPIJOB_BOOK = 3, MPIJOB_PING = 4 };

typedef struct MpiItem {
	uint64_t p, o;
	int32_t param;
	int32_t empties;
} MpiItem;

enum { MPIRES_EXACT = 1, MPIRES_FAILED = 2 };

typedef struct MpiResult {
	int32_t score;
	int32_t move;     /* solve: the best move (BOARD_PASS, BOARD_NOMOVE) */
	int32_t flags;    /* MPIRES_* */
	float seconds;    /* the item's time on its worker */
} MpiResult;

typedef struct WorkerConfig {
	int job;          /* MPIJOB_* */
	int rank;
	int threads;      /* solve: the solver's threads; label, book: items at once */
	int hash_mb;      /* solve and book: table size (0 = the default) */
	const char *eval; /* label: the search's weights file (NULL: built in) */
	int fail_rank;    /* tests: this rank fails its first chunk (0 = none) */
} WorkerConfig;

typedef struct Worker Worker;

#define MPIWORK_ERR 200

/* NULL and a message in err (MPIWORK_ERR bytes) when it cannot be set up. */
Worker *worker_new(const WorkerConfig *cfg, char *err);
/* Work out n items into out; false and a message when the chunk failed
 * (none of its results count). */
bool worker_run(Worker *w, const MpiItem *items, size_t n, MpiResult *out, char *err);
void worker_free(Worker *w);

/* The master's cost model: the mean time of an item by empties, from the
 * results so far. */
typedef struct CostModel {
	double sum[65];
	long count[65];
} CostModel;

void cost_add(CostModel *m, int empties, double seconds);
/* Estimated seconds for an item; from the nearest measured empties when
 * this one has none (twice the cost per empty more), 0 when nothing is
 * measured yet. */
double cost_estimate(const CostModel *m, int empties);
/* Items in the next chunk, whose first item has `empties`: about
 * target_s of work, at most a share of what is pending that leaves the
 * other workers as much (pending / (2 workers)), at least `min_items`
 * (the worker's threads) where that many are pending, 1 when nothing is
 * measured, never more than MPIWORK_CHUNK_MAX. */
#define MPIWORK_CHUNK_MAX 4096
size_t chunk_items(const CostModel *m, int empties, size_t pending, int workers, int min_items, double target_s);

#endif
