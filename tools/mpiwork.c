/*
 * mpiwork.c - emilia-mpi's work without MPI (mpiwork.h).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "board.h"
#include "booksearch.h"
#include "endgame.h"
#include "eval.h"
#include "labels.h"
#include "mpiwork.h"
#include "util.h"

struct Worker {
	WorkerConfig cfg;
	BookEngines book;
	Evaluator *ev;         /* label: the search's weights (NULL: built in) */
	EndgameTables *eg;     /* solve: the solver's tables */
	bool failed_once;
	/* the chunk in progress (label, book: threads take items in turn) */
	const MpiItem *items;
	MpiResult *out;
	size_t n;
	_Atomic size_t next;
	atomic_bool bad;
};

Worker *worker_new(const WorkerConfig *cfg, char *err)
{
	Worker *w = calloc(1, sizeof *w);
	if (!w) {
		snprintf(err, MPIWORK_ERR, "out of memory");
		return NULL;
	}
	w->cfg = *cfg;
	if (w->cfg.threads < 1)
		w->cfg.threads = 1;
	if (w->cfg.threads > BOOKSEARCH_MAX_THREADS)
		w->cfg.threads = BOOKSEARCH_MAX_THREADS;
	char e[256] = "";
	switch (cfg->job) {
	case MPIJOB_SOLVE:
		if (!(w->eg = endgame_tables_new())) {
			snprintf(err, MPIWORK_ERR, "out of memory");
			free(w);
			return NULL;
		}
		endgame_tables_reserve(w->eg, cfg->hash_mb > 0 ? (uint64_t)cfg->hash_mb << 20 : 0, NULL, true);
		break;
	case MPIJOB_LABEL:
		if (cfg->eval && !(w->ev = eval_load(cfg->eval, e))) {
			snprintf(err, MPIWORK_ERR, "%.190s", e);
			free(w);
			return NULL;
		}
		break;
	case MPIJOB_BOOK:
		if (!book_engines_init(&w->book, w->cfg.threads, cfg->hash_mb > 0 ? cfg->hash_mb : 16)) {
			book_engines_free(&w->book);
			snprintf(err, MPIWORK_ERR, "cannot create %d search engines", w->cfg.threads);
			free(w);
			return NULL;
		}
		break;
	default:
		break;
	}
	return w;
}

void worker_free(Worker *w)
{
	if (!w)
		return;
	if (w->cfg.job == MPIJOB_BOOK)
		book_engines_free(&w->book);
	eval_free(w->ev);
	endgame_tables_free(w->eg);
	free(w);
}

typedef struct ThreadArg {
	Worker *w;
	int index;
} ThreadArg;

static void *item_thread(void *arg)
{
	ThreadArg *a = arg;
	Worker *w = a->w;
	LabelSearcher se;
	bool searcher = w->cfg.job == MPIJOB_LABEL;
	if (searcher && !label_searcher_init(&se, w->ev)) {
		atomic_store(&w->bad, true);
		return NULL;
	}
	for (;;) {
		size_t i = atomic_fetch_add(&w->next, 1);
		if (i >= w->n)
			break;
		const MpiItem *it = &w->items[i];
		Board b = { it->p, it->o };
		MpiResult *r = &w->out[i];
		double t0 = util_now();
		memset(r, 0, sizeof *r);
		r->move = BOARD_NOMOVE;
		if (w->cfg.job == MPIJOB_LABEL) {
			r->score = label_value(&se, b, it->param);
			r->flags = it->param ? 0 : MPIRES_EXACT;
		} else {
			int score;
			bool exact;
			if (!book_engine_value(&w->book, a->index, b, it->param, &score, &exact)) {
				atomic_store(&w->bad, true);
				break;
			}
			r->score = score;
			r->flags = exact ? MPIRES_EXACT : 0;
		}
		r->seconds = (float)(util_now() - t0);
	}
	if (searcher)
		label_searcher_free(&se);
	return NULL;
}

static bool run_parallel(Worker *w, char *err)
{
	int nt = w->cfg.threads < (int)w->n ? w->cfg.threads : (int)w->n;
	pthread_t tid[BOOKSEARCH_MAX_THREADS];
	ThreadArg args[BOOKSEARCH_MAX_THREADS];
	atomic_store(&w->next, 0);
	atomic_store(&w->bad, false);
	int started = 0;
	for (int t = 0; t < nt; t++) {
		args[t] = (ThreadArg){ w, t };
		if (t > 0 && pthread_create(&tid[t], NULL, item_thread, &args[t]) != 0)
			break;
		started++;
	}
	item_thread(&args[0]);
	for (int t = 1; t < started; t++)
		pthread_join(tid[t], NULL);
	if (atomic_load(&w->bad)) {
		snprintf(err, MPIWORK_ERR, "a search failed (out of memory?)");
		return false;
	}
	return true;
}

bool worker_run(Worker *w, const MpiItem *items, size_t n, MpiResult *out, char *err)
{
	if (w->cfg.fail_rank && w->cfg.fail_rank == w->cfg.rank && !w->failed_once) {
		w->failed_once = true;
		snprintf(err, MPIWORK_ERR, "failure injected by EMILIA_MPI_FAIL_RANK=%d", w->cfg.fail_rank);
		return false;
	}
	if (!n)
		return true;
	switch (w->cfg.job) {
	case MPIJOB_SOLVE:
		for (size_t i = 0; i < n; i++) {
			EndgameOptions eo = endgame_default_options();
			eo.threads = w->cfg.threads;
			eo.hash_mb = w->cfg.hash_mb;
			eo.tables = w->eg;
			eo.wld = items[i].param != 0;
			Board b = { items[i].p, items[i].o };
			EndgameResult r = endgame_solve(b, &eo);
			if (r.aborted) {
				snprintf(err, MPIWORK_ERR, "the solve of item %zu was aborted", i);
				return false;
			}
			out[i] = (MpiResult){ r.score, r.move, MPIRES_EXACT, (float)r.seconds };
		}
		return true;
	case MPIJOB_LABEL:
	case MPIJOB_BOOK:
		w->items = items;
		w->out = out;
		w->n = n;
		return run_parallel(w, err);
	case MPIJOB_PING:
		memset(out, 0, n * sizeof *out);
		return true;
	default:
		snprintf(err, MPIWORK_ERR, "unknown job %d", w->cfg.job);
		return false;
	}
}

void cost_add(CostModel *m, int empties, double seconds)
{
	if (empties < 0 || empties > 64)
		return;
	m->sum[empties] += seconds;
	m->count[empties]++;
}

double cost_estimate(const CostModel *m, int empties)
{
	if (empties < 0)
		empties = 0;
	if (empties > 64)
		empties = 64;
	for (int d = 0; d <= 64; d++) {
		int e = empties - d;
		if (e >= 0 && m->count[e])
			return m->sum[e] / (double)m->count[e] * (double)(1ull << (d > 30 ? 30 : d));
		e = empties + d;
		if (e <= 64 && m->count[e])
			return m->sum[e] / (double)m->count[e] / (double)(1ull << (d > 30 ? 30 : d));
	}
	return 0;
}

size_t chunk_items(const CostModel *m, int empties, size_t pending, int workers, int min_items, double target_s)
{
	if (!pending)
		return 0;
	double est = cost_estimate(m, empties);
	size_t k = 1;
	if (est > 0) {
		double want = target_s / est;
		k = want >= MPIWORK_CHUNK_MAX ? MPIWORK_CHUNK_MAX : want < 1 ? 1 : (size_t)want;
	}
	size_t share = (pending + 2 * (size_t)workers - 1) / (2 * (size_t)(workers > 0 ? workers : 1));
	if (k > share)
		k = share;
	if (min_items > 0 && k < (size_t)min_items)
		k = (size_t)min_items;
	if (k > pending)
		k = pending;
	if (k > MPIWORK_CHUNK_MAX)
		k = MPIWORK_CHUNK_MAX;
	return k ? k : 1;
}
