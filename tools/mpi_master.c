/*
 * mpi_master.c - emilia-mpi's master (rank 0): hands out work items in
 * chunks sized from the measured cost per item, collects the results,
 * commits them to the checkpoint and reports progress (mpi_master.h).
 */
#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "book.h"
#include "checkpoint.h"
#include "endgame.h"
#include "labels.h"
#include "mpiwork.h"
#include "text.h"
#include "util.h"
#include "weights.h"
#include "version.h"
#include "mpi_master.h"

static void out_of_memory(void)
{
	fprintf(stderr, "emilia-mpi: out of memory\n");
	MPI_Abort(MPI_COMM_WORLD, 1);
}

/* p reallocated to n items of size bytes; out of memory ends the run. */
static void *grow(void *p, size_t n, size_t size)
{
	void *q = realloc(p, n * size);
	if (!q)
		out_of_memory();
	return q;
}

/* A capacity for `need` items: cap (1024 when 0) doubled until it holds them. */
static size_t doubled(size_t cap, size_t need)
{
	size_t c = cap ? cap : 1024;
	while (c < need)
		c *= 2;
	return c;
}

/* Room for `need` tasks in *a (capacity *cap). */
static void grow_tasks(Task **a, size_t *cap, size_t need)
{
	if (need <= *cap)
		return;
	size_t c = doubled(*cap, need);
	*a = grow(*a, c, sizeof **a);
	*cap = c;
}

void mpi_master_submit(Master *m, Batch *b)
{
	pthread_mutex_lock(&m->lock);
	grow_tasks(&m->in, &m->capin, m->nin + b->n);
	for (size_t i = 0; i < b->n; i++)
		m->in[m->nin++] = (Task){ b, (uint32_t)i, 0, 0, m->seq++, false };
	m->submitted += (long)b->n;
	pthread_mutex_unlock(&m->lock);
}

void mpi_master_complete(Master *m, const Task *t, const MpiResult *r)
{
	t->b->res[t->i] = *r;
	pthread_mutex_lock(&m->lock);
	if (--t->b->left == 0)
		pthread_cond_broadcast(&t->b->done);
	pthread_mutex_unlock(&m->lock);
}

/* Drop the tasks handed out from the pending list. */
static void compact_pend(Master *m)
{
	size_t k = 0;
	for (size_t i = m->head; i < m->npend; i++)
		if (!m->pend[i].taken)
			m->pend[k++] = m->pend[i];
	m->npend = k;
	m->head = 0;
}

static void pend_push(Master *m, const Task *t)
{
	if (m->npend == m->cappend) {
		if (m->head > m->npend / 2)
			compact_pend(m);
		grow_tasks(&m->pend, &m->cappend, m->npend + 1);
	}
	m->pend[m->npend++] = *t;
	m->pend[m->npend - 1].taken = false;
	m->unsorted = true;
}

/* New submissions: from the checkpoint when it has them, else pending. */
bool mpi_master_absorb(Master *m)
{
	pthread_mutex_lock(&m->lock);
	size_t n = m->nin;
	Task *in = NULL;
	if (n) {
		in = malloc(n * sizeof *in);
		if (in)
			memcpy(in, m->in, n * sizeof *in);
		m->nin = 0;
	}
	pthread_mutex_unlock(&m->lock);
	if (n && !in)
		out_of_memory();
	for (size_t k = 0; k < n; k++) {
		const MpiItem *it = &in[k].b->items[in[k].i];
		CkptKey key = { it->p, it->o, it->param };
		CkptValue v;
		if (m->ck && ckpt_find(m->ck, &key, &v)) {
			MpiResult r = { v.score, v.move, v.flags, 0 };
			m->cached++;
			m->done++;
			mpi_master_complete(m, &in[k], &r);
		} else {
			pend_push(m, &in[k]);
		}
	}
	free(in);
	return n > 0;
}

static int cmp_task(const void *a, const void *b)
{
	const Task *x = a, *y = b;
	int ex = x->b->items[x->i].empties, ey = y->b->items[y->i].empties;
	if (ex != ey)
		return ey - ex;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

size_t mpi_master_pending(const Master *m)
{
	size_t n = 0;
	for (size_t i = m->head; i < m->npend; i++)
		n += !m->pend[i].taken;
	return n;
}

/* Seconds of work in a chunk: --chunk-seconds, but at least workers / 4000
 * so that the master handles at most about 4000 chunks a second however
 * many workers there are (docs/mpi.md, "Scaling"). */
static double chunk_target(double chunk_s, int workers)
{
	double floor_s = (double)workers / 4000.0;
	return chunk_s > floor_s ? chunk_s : floor_s;
}

/* Give rank r its next chunk; false when there is nothing for it. */
bool mpi_master_send_chunk(Master *m, int r)
{
	while (m->head < m->npend && m->pend[m->head].taken)
		m->head++;
	if (m->head >= m->npend)
		return false;
	if (m->unsorted) {
		compact_pend(m);
		qsort(m->pend, m->npend, sizeof *m->pend, cmp_task);
		m->unsorted = false;
	}
	const int workers = m->nranks - 1;
	const Task *first = &m->pend[m->head];
	int min_items = m->job == MPIJOB_SOLVE ? 1 : (int)m->o->threads;
	size_t want = m->job == MPIJOB_PING ? (size_t)m->o->items
	                                    : chunk_items(&m->cost, first->b->items[first->i].empties,
	                                                  m->npend - m->head, workers, min_items,
	                                                  chunk_target(m->o->chunk_s, workers));
	Rank *rk = &m->rank[r];
	grow_tasks(&rk->chunk, &rk->cap, want);
	rk->n = 0;
	for (size_t i = m->head; i < m->npend && rk->n < want; i++) {
		Task *t = &m->pend[i];
		if (t->taken || (t->bad_rank == r && workers > 1))
			continue;
		t->taken = true;
		rk->chunk[rk->n++] = *t;
	}
	if (!rk->n)
		return false;
	size_t bytes = sizeof(WorkHead) + rk->n * sizeof(MpiItem);
	if (bytes > m->sendcap) {
		m->sendbuf = grow(m->sendbuf, bytes, 1);
		m->sendcap = bytes;
	}
	WorkHead h = { ++rk->seq, (uint32_t)rk->n };
	memcpy(m->sendbuf, &h, sizeof h);
	for (size_t k = 0; k < rk->n; k++)
		memcpy(m->sendbuf + sizeof h + k * sizeof(MpiItem), &rk->chunk[k].b->items[rk->chunk[k].i],
		       sizeof(MpiItem));
	MPI_Send(m->sendbuf, (int)bytes, MPI_BYTE, r, TAG_WORK, MPI_COMM_WORLD);
	rk->busy = true;
	rk->sent_at = util_now();
	return true;
}

void mpi_master_receive(Master *m, int r, int bytes)
{
	if ((size_t)bytes > m->recvcap) {
		m->recvbuf = grow(m->recvbuf, (size_t)bytes, 1);
		m->recvcap = (size_t)bytes;
	}
	MPI_Recv(m->recvbuf, bytes, MPI_BYTE, r, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	ResultHead h;
	memcpy(&h, m->recvbuf, sizeof h);
	h.msg[sizeof h.msg - 1] = 0;
	Rank *rk = &m->rank[r];
	rk->busy = false;
	rk->busy_s += util_now() - rk->sent_at;
	rk->chunks++;
	if (!h.ok || h.n != rk->n || h.seq != rk->seq) {
		rk->failures++;
		if (h.ok)
			snprintf(h.msg, sizeof h.msg, "a reply that does not match its chunk");
		size_t again = 0, lost = 0;
		for (size_t k = 0; k < rk->n; k++) {
			Task t = rk->chunk[k];
			if (t.attempts == 0) {
				t.attempts = 1;
				t.bad_rank = r;
				pend_push(m, &t);
				again++;
			} else {
				MpiResult fr = { 0, BOARD_NOMOVE, MPIRES_FAILED, 0 };
				m->failed++;
				m->done++;
				mpi_master_complete(m, &t, &fr);
				lost++;
			}
		}
		fprintf(stderr, "emilia-mpi: rank %d failed a chunk of %zu items (%s)", r, rk->n, h.msg);
		if (again)
			fprintf(stderr, "; retrying %zu on %s", again, m->nranks > 2 ? "another rank" : "the same rank");
		if (lost)
			fprintf(stderr, "; %zu failed twice and are given up", lost);
		fprintf(stderr, "\n");
		rk->n = 0;
		return;
	}
	const MpiResult *res = (const MpiResult *)(m->recvbuf + sizeof h);
	size_t need = m->nstage + rk->n;
	if (need > m->capstage) {
		size_t cap = doubled(m->capstage, need);
		m->stask = grow(m->stask, cap, sizeof *m->stask);
		m->sres = grow(m->sres, cap, sizeof *m->sres);
		m->skey = grow(m->skey, cap, sizeof *m->skey);
		m->sval = grow(m->sval, cap, sizeof *m->sval);
		m->capstage = cap;
	}
	for (size_t k = 0; k < rk->n; k++) {
		const Task *t = &rk->chunk[k];
		const MpiItem *it = &t->b->items[t->i];
		MpiResult r1;
		memcpy(&r1, &res[k], sizeof r1);
		cost_add(&m->cost, it->empties, r1.seconds);
		m->work_s += r1.seconds;
		size_t j = m->nstage++;
		m->stask[j] = *t;
		m->sres[j] = r1;
		m->skey[j] = (CkptKey){ it->p, it->o, it->param };
		m->sval[j] = (CkptValue){ r1.score, r1.move, r1.flags };
	}
	rk->items += (long)rk->n;
	rk->n = 0;
}

/* Group commit: the results received since the last commit go to the
 * checkpoint with one write and one fsync, and only then count as done. */
void mpi_master_commit(Master *m)
{
	if (!m->nstage)
		return;
	char err[CKPT_ERR];
	if (m->ck && !ckpt_append(m->ck, m->skey, m->sval, m->nstage, err) && !m->fatal) {
		m->fatal = true;
		snprintf(m->fatal_msg, sizeof m->fatal_msg, "%s", err);
	}
	for (size_t k = 0; k < m->nstage; k++) {
		m->done++;
		mpi_master_complete(m, &m->stask[k], &m->sres[k]);
	}
	m->commits++;
	m->nstage = 0;
}

static void report(Master *m, bool last)
{
	double now = util_now();
	if (m->o->quiet || (!last && now - m->last_report < m->o->progress_s))
		return;
	m->last_report = now;
	double el = now - m->t0;
	long total = m->submitted;
	double left_work = 0;
	for (size_t i = m->head; i < m->npend; i++)
		if (!m->pend[i].taken)
			left_work += cost_estimate(&m->cost, m->pend[i].b->items[m->pend[i].i].empties);
	for (int r = 1; r < m->nranks; r++)
		for (size_t k = 0; k < m->rank[r].n; k++)
			left_work += cost_estimate(&m->cost, m->rank[r].chunk[k].b->items[m->rank[r].chunk[k].i].empties);
	double rate = el > 0 ? m->work_s / el : 0;
	char eta[48] = "";
	if (m->job == MPIJOB_BOOK)
		snprintf(eta, sizeof eta, ", more as the book grows");
	else if (rate > 0 && m->done < total)
		snprintf(eta, sizeof eta, ", ETA %.0f s", left_work / rate);
	fprintf(stderr, "emilia-mpi: %s %ld/%ld done (%.1f %%), %ld from the checkpoint, %.1f/s%s |", m->o->cmd,
	        m->done, total, total ? 100.0 * (double)m->done / (double)total : 100.0, m->cached,
	        el > 0 ? (double)(m->done - m->cached) / el : 0.0, eta);
	for (int r = 1; r < m->nranks; r++)
		fprintf(stderr, " rank %d: %ld items, %.0f %% busy%s", r, m->rank[r].items,
		        el > 0 ? 100.0 * m->rank[r].busy_s / el : 0.0, r + 1 < m->nranks ? ";" : "\n");
}

/* Hand out and collect until done(arg) holds and nothing is in flight. */
void mpi_master_pump(Master *m, bool (*done)(Master *, void *), void *arg)
{
	double since = util_now();
	for (;;) {
		bool event = mpi_master_absorb(m);
		for (int r = 1; r < m->nranks && !m->fatal; r++)
			if (!m->rank[r].busy && mpi_master_send_chunk(m, r))
				event = true;
		MPI_Status st;
		int flag = 1;
		while (flag) {
			MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, &st);
			if (flag) {
				int bytes = 0;
				MPI_Get_count(&st, MPI_BYTE, &bytes);
				mpi_master_receive(m, st.MPI_SOURCE, bytes);
				event = true;
			}
		}
		mpi_master_commit(m);
		report(m, false);
		bool busy = false;
		for (int r = 1; r < m->nranks; r++)
			busy |= m->rank[r].busy;
		if (!busy && (m->fatal || done(m, arg)))
			return;
		if (event)
			since = util_now();
		else if (m->job != MPIJOB_PING)
			idle_wait(since);
	}
}

bool mpi_master_batch_done(Master *m, void *arg)
{
	Batch *b = arg;
	pthread_mutex_lock(&m->lock);
	bool d = b->left == 0;
	pthread_mutex_unlock(&m->lock);
	return d;
}

void mpi_master_batch_init(Batch *b, const MpiItem *items, MpiResult *res, size_t n)
{
	b->items = items;
	b->res = res;
	b->n = b->left = n;
	pthread_cond_init(&b->done, NULL);
}

/* Run a batch to the end from the master's main thread. */
void mpi_master_run_batch(Master *m, Batch *b)
{
	mpi_master_submit(m, b);
	mpi_master_pump(m, mpi_master_batch_done, b);
}

bool mpi_master_init(Master *m, const Options *o, int nranks, const char *ckpt_path, const char *job_desc)
{
	memset(m, 0, sizeof *m);
	m->o = o;
	m->job = job_of(o);
	m->nranks = nranks;
	pthread_mutex_init(&m->lock, NULL);
	m->rank = calloc((size_t)nranks, sizeof *m->rank);
	m->t0 = m->last_report = util_now();
	if (!m->rank)
		return false;
	if (m->job == MPIJOB_PING)
		return true;
	char err[CKPT_ERR];
	m->ck = ckpt_open(ckpt_path, job_desc, o->resume, err);
	if (!m->ck) {
		fprintf(stderr, "emilia-mpi: %s\n", err);
		return false;
	}
	if (o->resume)
		fprintf(stderr, "emilia-mpi: resuming from %s: %zu finished items\n", ckpt_path, ckpt_count(m->ck));
	return true;
}

static bool workers_stopped;

void mpi_master_stop_ranks(int nranks)
{
	if (workers_stopped)
		return;
	workers_stopped = true;
	for (int r = 1; r < nranks; r++)
		MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
}

void mpi_master_stop_workers(Master *m)
{
	mpi_master_stop_ranks(m->nranks);
}

void mpi_master_summary(Master *m)
{
	if (m->o->quiet)
		return;
	report(m, true);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec
	             + (double)ru.ru_stime.tv_usec / 1e6;
	double el = util_now() - m->t0;
	fprintf(stderr, "emilia-mpi: %ld items in %.2f s by %d workers (%.1f items/s; %.1f s of work, %.0f %% of the "
	        "workers' time); master %.2f s CPU (%.1f %% of the wall time), %ld checkpoint commits\n",
	        m->done, el, m->nranks - 1, el > 0 ? (double)m->done / el : 0.0, m->work_s,
	        el > 0 ? 100.0 * m->work_s / (el * (m->nranks - 1)) : 0.0, cpu, el > 0 ? 100.0 * cpu / el : 0.0,
	        m->commits);
}

void mpi_master_free(Master *m, bool remove_ckpt)
{
	ckpt_close(m->ck, remove_ckpt && !m->o->keep_ckpt);
	for (int r = 0; r < m->nranks; r++)
		free(m->rank[r].chunk);
	free(m->rank);
	free(m->in);
	free(m->pend);
	free(m->sendbuf);
	free(m->recvbuf);
	free(m->stask);
	free(m->sres);
	free(m->skey);
	free(m->sval);
	pthread_mutex_destroy(&m->lock);
}
