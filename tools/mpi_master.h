/*
 * mpi_master.h - emilia-mpi's options and the master's scheduler: the work
 * queue (biggest items first), the chunks sent to each rank, the results
 * staged into the checkpoint and the progress report (mpi_master.c).  The
 * jobs (solve, label, book-expand, pingpong) and the worker are in
 * emilia-mpi.c.
 */
#ifndef EMILIA_MPI_MASTER_H
#define EMILIA_MPI_MASTER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "checkpoint.h"
#include "labels.h"
#include "mpiwork.h"

#define TAG_WORK 1
#define TAG_RESULT 2
#define TAG_STOP 3

typedef struct WorkHead {
	uint32_t seq, n;
} WorkHead;

typedef struct ResultHead {
	uint32_t seq, n;
	int32_t ok;
	char msg[MPIWORK_ERR];
} ResultHead;

typedef struct Options {
	const char *cmd;
	const char *pos[4];
	int npos;
	long threads, hash_mb, level, margin, max_ply, max_positions, rounds, items;
	bool wld, resume, quiet, has_level, has_margin, leaves, keep_ckpt;
	const char *checkpoint, *results;
	double progress_s, chunk_s;
	LabelJob lj;
	const char *data, *label_out;
} Options;

typedef struct Batch {
	const MpiItem *items;
	MpiResult *res;
	size_t n, left;
	pthread_cond_t done;
} Batch;

typedef struct Task {
	Batch *b;
	uint32_t i;
	int attempts;
	int bad_rank;     /* the rank that failed it, 0 = none */
	uint64_t seq;     /* submission order: ties in the biggest-first order */
	bool taken;
} Task;

typedef struct Rank {
	Task *chunk;
	size_t n, cap;
	bool busy;
	uint32_t seq;
	double sent_at, busy_s;
	long items, chunks, failures;
} Rank;

typedef struct Master {
	const Options *o;
	int job, nranks;
	Checkpoint *ck;
	pthread_mutex_t lock;          /* in[], batches' left and conds */
	Task *in;
	size_t nin, capin;
	uint64_t seq;
	Task *pend;
	size_t head, npend, cappend;
	bool unsorted;
	Rank *rank;
	CostModel cost;
	long done, cached, failed, submitted;
	double work_s, t0, last_report;
	atomic_bool producer_done;
	unsigned char *sendbuf;
	size_t sendcap;
	unsigned char *recvbuf;
	size_t recvcap;
	/* results received, not yet in the checkpoint (mpi_master_commit) */
	Task *stask;
	MpiResult *sres;
	CkptKey *skey;
	CkptValue *sval;
	size_t nstage, capstage;
	long commits;
	bool fatal;
	char fatal_msg[CKPT_ERR];
} Master;

/* emilia-mpi.c */
int job_of(const Options *o);
void idle_wait(double since);

/* mpi_master.c */
void mpi_master_submit(Master *m, Batch *b);
void mpi_master_complete(Master *m, const Task *t, const MpiResult *r);
bool mpi_master_absorb(Master *m);
size_t mpi_master_pending(const Master *m);
bool mpi_master_send_chunk(Master *m, int r);
void mpi_master_receive(Master *m, int r, int bytes);
void mpi_master_commit(Master *m);
void mpi_master_pump(Master *m, bool (*done)(Master *, void *), void *arg);
bool mpi_master_batch_done(Master *m, void *arg);
void mpi_master_batch_init(Batch *b, const MpiItem *items, MpiResult *res, size_t n);
void mpi_master_run_batch(Master *m, Batch *b);
bool mpi_master_init(Master *m, const Options *o, int nranks, const char *ckpt_path, const char *job_desc);
void mpi_master_stop_ranks(int nranks);
void mpi_master_stop_workers(Master *m);
void mpi_master_summary(Master *m);
void mpi_master_free(Master *m, bool remove_ckpt);

#endif
