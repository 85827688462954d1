/*
 * emilia-mpi - batch solving, book expansion and training labels spread
 * over MPI ranks (docs/mpi.md).
 *
 * Rank 0 is the master: it reads the input, hands out work items (one
 * position each, mpiwork.h) in chunks, biggest (most empties) first,
 * sized from the measured cost per item so that a chunk is about
 * --chunk-seconds of work, writes every finished chunk to the checkpoint
 * (checkpoint.h) and writes the output.  Ranks 1..N-1 are workers: each is
 * a normal engine with --threads threads.  Only the main thread of each
 * process calls MPI.
 *
 * The output (the results file of `solve`, the label files of `label`,
 * the book of `book-expand`) is byte-identical to the single-process
 * command's (`emilia solve --results`, `emilia-train --make-labels`,
 * `emilia-book deviate|leaves`) for the same input, whatever the number
 * of ranks and the order in which chunks finish: a result depends on its
 * item only, and the master assembles them in input order.
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

static int usage(int rank)
{
	if (rank == 0)
		fprintf(stderr,
		        "usage: mpirun -np N emilia-mpi COMMAND ARGS   (N >= 2: rank 0 is the master)\n"
		        "  solve FILE.obf --results OUT [--wld] [--threads T] [--hash MB]\n"
		        "        exact (or WLD) solves; OUT = `emilia solve FILE.obf --results OUT`\n"
		        "  label --data DIR --make-labels OUT --label-empties LO-HI [--label-years Y1-Y2]\n"
		        "        [--label-except Y1-Y2] [--label-sources LIST] [--label-stride K]\n"
		        "        [--label-depth D] [--label-eval FILE] [--threads T]\n"
		        "        training labels; OUT = `emilia-train --data DIR --make-labels OUT ...`\n"
		        "  book-expand BOOK --level L --margin M [--max-ply P] [--max-positions N]\n"
		        "        [--threads T] [--hash MB]   = `emilia-book deviate BOOK ...`\n"
		        "  book-expand BOOK --leaves --level L [--threads T] [--hash MB]\n"
		        "        = `emilia-book leaves BOOK ...`\n"
		        "  pingpong [--rounds N] [--items K]   message costs between the master and the workers\n"
		        "Every job: [--checkpoint FILE] [--resume] [--keep-checkpoint] [--progress SECONDS]\n"
		        "           [--chunk-seconds S] [--quiet].  The checkpoint defaults to OUT.ckpt (label:\n"
		        "           OUT/mpi.ckpt; book: BOOK.ckpt) and is removed after a complete run.\n");
	return 2;
}

/* ---- options (every rank parses the same argv) ---------------------------- */

static bool parse_options(int argc, char **argv, Options *o)
{
	memset(o, 0, sizeof *o);
	o->threads = 1;
	o->hash_mb = 0;
	o->progress_s = 10;
	o->chunk_s = 0.25;
	o->rounds = 2000;
	o->items = 16;
	o->lj.stride = 1;
	if (argc < 2)
		return false;
	o->cmd = argv[1];
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		long l;
		int lr;
		if (!strcmp(a, "--wld"))
			o->wld = true;
		else if (!strcmp(a, "--resume"))
			o->resume = true;
		else if (!strcmp(a, "--quiet"))
			o->quiet = true;
		else if (!strcmp(a, "--leaves"))
			o->leaves = true;
		else if (!strcmp(a, "--keep-checkpoint"))
			o->keep_ckpt = true;
		else if (a[0] == '-' && a[1] == '-' && !v)
			return false;
		else if (!strcmp(a, "--threads") && util_parse_int(v, 1, 64, &l))
			o->threads = l, i++;
		else if (!strcmp(a, "--hash") && util_parse_int(v, 1, 65536, &l))
			o->hash_mb = l, i++;
		else if (!strcmp(a, "--level") && util_parse_int(v, 0, 60, &l))
			o->level = l, o->has_level = true, i++;
		else if (!strcmp(a, "--margin") && util_parse_int(v, 0, 64, &l))
			o->margin = l, o->has_margin = true, i++;
		else if (!strcmp(a, "--max-ply") && util_parse_int(v, 0, 60, &l))
			o->max_ply = l, i++;
		else if (!strcmp(a, "--max-positions") && util_parse_int(v, 0, 2000000000, &l))
			o->max_positions = l, i++;
		else if (!strcmp(a, "--rounds") && util_parse_int(v, 1, 100000000, &l))
			o->rounds = l, i++;
		else if (!strcmp(a, "--items") && util_parse_int(v, 1, MPIWORK_CHUNK_MAX, &l))
			o->items = l, i++;
		else if (!strcmp(a, "--checkpoint"))
			o->checkpoint = v, i++;
		else if (!strcmp(a, "--results"))
			o->results = v, i++;
		else if (!strcmp(a, "--data"))
			o->data = v, i++;
		else if (!strcmp(a, "--make-labels"))
			o->label_out = v, i++;
		else if (!strcmp(a, "--progress"))
			o->progress_s = atof(v), i++;
		else if (!strcmp(a, "--chunk-seconds") && atof(v) > 0)
			o->chunk_s = atof(v), i++;
		else if ((lr = labels_job_option(&o->lj, a, v)) != 0) {
			if (lr < 0)
				return false;
			i++;
		} else if (a[0] == '-' && a[1] == '-')
			return false;
		else if (o->npos < 4)
			o->pos[o->npos++] = a;
		else
			return false;
	}
	if (!strcmp(o->cmd, "solve"))
		return o->npos == 1 && o->results;
	if (!strcmp(o->cmd, "label"))
		return o->npos == 0 && o->data && o->label_out && o->lj.lo > 0;
	if (!strcmp(o->cmd, "book-expand"))
		return o->npos == 1 && o->has_level && (o->leaves || o->has_margin);
	if (!strcmp(o->cmd, "pingpong"))
		return o->npos == 0;
	return false;
}

int job_of(const Options *o)
{
	return !strcmp(o->cmd, "solve") ? MPIJOB_SOLVE : !strcmp(o->cmd, "label") ? MPIJOB_LABEL
	       : !strcmp(o->cmd, "book-expand")                                   ? MPIJOB_BOOK
	                                                                          : MPIJOB_PING;
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
	nanosleep(&ts, NULL);
}

/* Waiting for a message: yield the core for the first 0.2 ms (a reply to
 * a short chunk comes quickly), then sleep a tenth of the time waited so
 * far, from 50 us up to 10 ms: a message is seen at most 10 % (and 10 ms)
 * late, and a long wait costs a few hundred wake-ups, so that a waiting
 * rank uses next to no CPU, even on an oversubscribed node. */
void idle_wait(double since)
{
	double w = util_now() - since;
	if (w < 0.0002) {
		sched_yield();
		return;
	}
	long us = (long)(w * 1e5);
	sleep_us(us < 50 ? 50 : us > 10000 ? 10000 : us);
}

/* ---- worker ------------------------------------------------------------------- */

static int worker_main(const Options *o, int rank)
{
	WorkerConfig cfg = { .job = job_of(o), .rank = rank, .threads = (int)o->threads, .hash_mb = (int)o->hash_mb,
		             .eval = o->lj.eval };
	const char *fail = getenv("EMILIA_MPI_FAIL_RANK");
	cfg.fail_rank = fail ? atoi(fail) : 0;
	if (cfg.job == MPIJOB_BOOK && !cfg.hash_mb)
		cfg.hash_mb = 16; /* emilia-book's default */
	char err[MPIWORK_ERR] = "";
	Worker *w = worker_new(&cfg, err);
	if (!w)
		fprintf(stderr, "emilia-mpi: rank %d: %s (it answers every chunk with this error)\n", rank, err);
	unsigned char *buf = NULL;
	MpiResult *res = NULL;
	size_t cap = 0, rcap = 0;
	for (;;) {
		MPI_Status st;
		int flag = 0;
		double since = util_now();
		while (!flag) {
			MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
			if (!flag && cfg.job != MPIJOB_PING)
				idle_wait(since);
		}
		if (st.MPI_TAG == TAG_STOP) {
			MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			break;
		}
		int bytes = 0;
		MPI_Get_count(&st, MPI_BYTE, &bytes);
		if ((size_t)bytes > cap) {
			cap = (size_t)bytes;
			buf = realloc(buf, cap);
		}
		MPI_Recv(buf, bytes, MPI_BYTE, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		WorkHead h;
		memcpy(&h, buf, sizeof h);
		size_t n = h.n;
		size_t need = sizeof(ResultHead) + n * sizeof(MpiResult);
		if (need > rcap) {
			rcap = need;
			res = realloc(res, rcap);
		}
		ResultHead rh = { h.seq, h.n, 1, "" };
		MpiItem *items = malloc((n ? n : 1) * sizeof *items);
		MpiResult *out = (MpiResult *)((unsigned char *)res + sizeof rh);
		if (!buf || !res || !items) {
			rh.ok = 0;
			snprintf(rh.msg, sizeof rh.msg, "out of memory");
		} else {
			memcpy(items, buf + sizeof h, n * sizeof *items);
			if (!w) {
				rh.ok = 0;
				snprintf(rh.msg, sizeof rh.msg, "%s", err);
			} else if (!worker_run(w, items, n, out, rh.msg)) {
				rh.ok = 0;
			}
		}
		free(items);
		if (!rh.ok)
			n = 0;
		rh.n = (uint32_t)n;
		memcpy(res, &rh, sizeof rh);
		MPI_Send(res, (int)(sizeof rh + n * sizeof(MpiResult)), MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
	}
	free(buf);
	free(res);
	worker_free(w);
	return 0;
}

/* ---- solve ------------------------------------------------------------------------- */

typedef struct SolveInput {
	const char *source;
	ObfPosition *pos;
	int *number;
	size_t n, cap;
	int count, malformed;
	bool oom;
} SolveInput;

static void solve_line(void *user, char *line, long lineno)
{
	SolveInput *in = user;
	ObfPosition p;
	char err[TEXT_ERR];
	int k = text_obf_file_line(line, 8, &p, err);
	if (!k)
		return;
	in->count++;
	if (k < 0) {
		fprintf(stderr, "%s:%ld: %s (line skipped)\n", in->source, lineno, err);
		in->malformed++;
		return;
	}
	if (in->n == in->cap) {
		size_t cap = in->cap ? 2 * in->cap : 256;
		ObfPosition *np = realloc(in->pos, cap * sizeof *np);
		int *nn = np ? realloc(in->number, cap * sizeof *nn) : NULL;
		if (np)
			in->pos = np;
		if (!np || !nn) {
			in->oom = true;
			return;
		}
		in->number = nn;
		in->cap = cap;
	}
	in->pos[in->n] = p;
	in->number[in->n++] = in->count;
}

static int master_solve(const Options *o, int nranks)
{
	SolveInput in = { .source = o->pos[0] };
	FILE *f = fopen(o->pos[0], "r");
	if (!f) {
		fprintf(stderr, "emilia-mpi: cannot read %s: %s\n", o->pos[0], strerror(errno));
		return 2;
	}
	bool read_ok = util_for_each_line(f, solve_line, &in) && !ferror(f) && !in.oom;
	fclose(f);
	if (!read_ok) {
		fprintf(stderr, "emilia-mpi: %s: read error or out of memory\n", o->pos[0]);
		return 1;
	}
	char ckpt[4200], desc[64];
	snprintf(ckpt, sizeof ckpt, "%s.ckpt", o->results);
	snprintf(desc, sizeof desc, "solve 8x8 normal %s", o->wld ? "wld" : "exact");
	Master m;
	if (!mpi_master_init(&m, o, nranks, o->checkpoint ? o->checkpoint : ckpt, desc))
		return 1;
	MpiItem *items = calloc(in.n + 1, sizeof *items);
	MpiResult *res = calloc(in.n + 1, sizeof *res);
	if (!items || !res) {
		fprintf(stderr, "emilia-mpi: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < in.n; i++) {
		Board b = in.pos[i].board;
		items[i] = (MpiItem){ b.p, b.o, o->wld, bit_count(~(b.p | b.o)) };
	}
	Batch batch;
	mpi_master_batch_init(&batch, items, res, in.n);
	mpi_master_run_batch(&m, &batch);
	int rc = 0;
	if (m.fatal) {
		fprintf(stderr, "emilia-mpi: %s\n", m.fatal_msg);
		rc = 1;
	}
	/* the results file, in input order, as `emilia solve --results` writes it */
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp", o->results);
	FILE *out = rc ? NULL : fopen(tmp, "w");
	if (!rc && !out) {
		fprintf(stderr, "emilia-mpi: cannot write %s: %s\n", tmp, strerror(errno));
		rc = 1;
	}
	int wrong = 0, failed = 0;
	if (!o->quiet)
		printf("%4s %7s %5s %9s %9s  %s\n", "n", "empties", "move", "score", "seconds", "result");
	for (size_t i = 0; out && i < in.n; i++) {
		const MpiResult *r = &res[i];
		const ObfPosition *p = &in.pos[i];
		if (r->flags & MPIRES_FAILED) {
			failed++;
			if (!o->quiet)
				printf("%4d %7d %5s %9s %9s  FAILED\n", in.number[i], items[i].empties, "--", "", "");
			continue;
		}
		char line[128], mv[8], sc[16];
		text_write_obf_result(p->board, p->side, 8, r->move, r->score, o->wld, line);
		fprintf(out, "%s\n", line);
		const char *verdict = "-";
		bool listed;
		int exp;
		if (text_obf_expected(p, r->move, &exp, &listed)) {
			bool ok = o->wld ? r->score == (exp > 0) - (exp < 0) : r->score == exp && listed;
			verdict = ok ? "ok" : "WRONG";
			wrong += !ok;
		}
		if (r->move == BOARD_NOMOVE)
			strcpy(mv, "--");
		else
			text_square(r->move, mv);
		snprintf(sc, sizeof sc, "%+d", r->score);
		if (!o->quiet)
			printf("%4d %7d %5s %9s %9.3f  %s\n", in.number[i], items[i].empties, mv, sc, r->seconds, verdict);
	}
	if (out && (fflush(out) || ferror(out) || fsync(fileno(out)) || fclose(out) || rename(tmp, o->results))) {
		fprintf(stderr, "emilia-mpi: cannot write %s: %s\n", o->results, strerror(errno));
		remove(tmp);
		rc = 1;
	}
	mpi_master_stop_workers(&m);
	printf("totals: positions %zu, wrong %d, malformed %d, failed %d, seconds %.3f\n", in.n - (size_t)failed, wrong,
	       in.malformed, failed, util_now() - m.t0);
	mpi_master_summary(&m);
	if (failed)
		fprintf(stderr, "emilia-mpi: %d positions failed; the same command with --resume solves them again\n",
		        failed);
	mpi_master_free(&m, !rc && !failed);
	free(items);
	free(res);
	free(in.pos);
	free(in.number);
	return rc ? rc : wrong || failed || in.malformed ? 1 : 0;
}

/* ---- label --------------------------------------------------------------------------- */

static bool label_batch(void *user, const Board *b, size_t n, int8_t *out)
{
	Master *m = user;
	MpiItem *items = calloc(n + 1, sizeof *items);
	MpiResult *res = calloc(n + 1, sizeof *res);
	bool ok = items && res;
	for (size_t i = 0; ok && i < n; i++)
		items[i] = (MpiItem){ b[i].p, b[i].o, m->o->lj.depth, bit_count(~(b[i].p | b[i].o)) };
	if (ok) {
		Batch batch;
		mpi_master_batch_init(&batch, items, res, n);
		mpi_master_run_batch(m, &batch);
		pthread_cond_destroy(&batch.done);
		ok = !m->fatal;
		for (size_t i = 0; ok && i < n; i++) {
			if (res[i].flags & MPIRES_FAILED)
				ok = false;
			out[i] = (int8_t)res[i].score;
		}
	}
	free(items);
	free(res);
	return ok;
}

static int master_label(Options *o, int nranks)
{
	if (mkdir(o->label_out, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "emilia-mpi: cannot create %s: %s\n", o->label_out, strerror(errno));
		return 1;
	}
	char desc[96] = "label exact";
	if (o->lj.depth) {
		char err[WEIGHTS_ERR];
		size_t len;
		unsigned char *img = NULL;
		const unsigned char *w = o->lj.eval ? (img = weights_read_file(o->lj.eval, 64u << 20, &len, err))
		                                    : weights_builtin(&len);
		if (!w) {
			fprintf(stderr, "emilia-mpi: %s\n", err);
			return 1;
		}
		snprintf(desc, sizeof desc, "label d%d-%08x", o->lj.depth, (unsigned)(weights_checksum(w, len) >> 32));
		free(img);
	}
	char ckpt[4200];
	snprintf(ckpt, sizeof ckpt, "%s/mpi.ckpt", o->label_out);
	Master m;
	if (!mpi_master_init(&m, o, nranks, o->checkpoint ? o->checkpoint : ckpt, desc))
		return 1;
	o->lj.data = o->data;
	o->lj.out = o->label_out;
	o->lj.threads = (nranks - 1) * (int)o->threads;
	o->lj.value_batch = label_batch;
	o->lj.user = &m;
	int rc = labels_make(&o->lj);
	if (m.fatal) {
		fprintf(stderr, "emilia-mpi: %s\n", m.fatal_msg);
		rc = 1;
	}
	mpi_master_stop_workers(&m);
	mpi_master_summary(&m);
	mpi_master_free(&m, rc == 0 && m.failed == 0);
	return rc;
}

/* ---- book-expand ------------------------------------------------------------------------ */

typedef struct BookJob {
	Master *m;
	Book *book;
	BookSearchOptions so;
	long result;
	char err[BOOK_ERR];
} BookJob;

static bool book_value(void *ctx, int thread, Board pos, int level, int *score, bool *exact)
{
	Master *m = ctx;
	MpiItem it = { pos.p, pos.o, level, bit_count(~(pos.p | pos.o)) };
	MpiResult r;
	Batch b;
	mpi_master_batch_init(&b, &it, &r, 1);
	mpi_master_submit(m, &b);
	pthread_mutex_lock(&m->lock);
	while (b.left)
		pthread_cond_wait(&b.done, &m->lock);
	pthread_mutex_unlock(&m->lock);
	pthread_cond_destroy(&b.done);
	if (r.flags & MPIRES_FAILED)
		return false;
	*score = r.score;
	*exact = (r.flags & MPIRES_EXACT) != 0;
	return true;
}

static void *book_thread(void *arg)
{
	BookJob *j = arg;
	const Options *o = j->m->o;
	j->result = o->leaves ? book_search_leaves(j->book, &j->so, j->err)
	                      : book_deviate(j->book, board_start(8), (int)o->margin, (int)o->max_ply,
	                                     (size_t)o->max_positions, &j->so, j->err);
	atomic_store(&j->m->producer_done, true);
	return NULL;
}

static bool book_finished(Master *m, void *arg)
{
	(void)arg;
	if (!atomic_load(&m->producer_done))
		return false;
	pthread_mutex_lock(&m->lock);
	bool empty = m->nin == 0;
	pthread_mutex_unlock(&m->lock);
	return empty && mpi_master_pending(m) == 0;
}

static int master_book(const Options *o, int nranks)
{
	char err[BOOK_ERR];
	Book *book = book_open(o->pos[0], err);
	if (!book) {
		fprintf(stderr, "emilia-mpi: %s\n", err);
		return 1;
	}
	char ckpt[4200], desc[96];
	snprintf(ckpt, sizeof ckpt, "%s.ckpt", o->pos[0]);
	snprintf(desc, sizeof desc, "book level %ld hash %ld", o->level, o->hash_mb ? o->hash_mb : 16);
	Master m;
	if (!mpi_master_init(&m, o, nranks, o->checkpoint ? o->checkpoint : ckpt, desc)) {
		book_free(book);
		return 1;
	}
	BookJob j = { .m = &m, .book = book };
	int requesters = (nranks - 1) * (int)o->threads * 2;
	j.so = (BookSearchOptions){ book_value, &m, requesters > 256 ? 256 : requesters, (int)o->level, NULL, NULL };
	pthread_t tid;
	if (pthread_create(&tid, NULL, book_thread, &j) != 0) {
		fprintf(stderr, "emilia-mpi: cannot start a thread\n");
		return 1;
	}
	mpi_master_pump(&m, book_finished, NULL);
	if (m.fatal) {
		/* no more work will be handed out: fail what is waiting so the book's threads end */
		fprintf(stderr, "emilia-mpi: %s\n", m.fatal_msg);
		while (!atomic_load(&m.producer_done)) {
			mpi_master_absorb(&m);
			for (size_t i = m.head; i < m.npend; i++)
				if (!m.pend[i].taken) {
					MpiResult fr = { 0, BOARD_NOMOVE, MPIRES_FAILED, 0 };
					m.pend[i].taken = true;
					mpi_master_complete(&m, &m.pend[i], &fr);
				}
			sleep_us(1000);
		}
	}
	pthread_join(tid, NULL);
	int rc = 0;
	if (j.result < 0) {
		fprintf(stderr, "emilia-mpi: %s\n", j.err);
		rc = 1;
	} else if (!m.fatal) {
		printf("%s: %ld positions %s at level %ld by %d workers in %.1f s; %zu in the book\n",
		       o->leaves ? "leaves" : "deviate", j.result, o->leaves ? "searched" : "added", o->level, nranks - 1,
		       util_now() - m.t0, book_count(book));
		if (!book_save(book, o->pos[0], NULL, NULL, err)) {
			fprintf(stderr, "emilia-mpi: %s\n", err);
			rc = 1;
		}
	} else {
		rc = 1;
	}
	mpi_master_stop_workers(&m);
	mpi_master_summary(&m);
	mpi_master_free(&m, rc == 0 && m.failed == 0);
	book_free(book);
	return rc;
}

/* ---- pingpong: the cost of a chunk's round trip ------------------------------------------ */

static bool ping_done(Master *m, void *arg)
{
	return mpi_master_batch_done(m, arg);
}

static int master_ping(const Options *o, int nranks)
{
	Master m;
	if (!mpi_master_init(&m, o, nranks, NULL, NULL))
		return 1;
	const int workers = nranks - 1;
	/* one worker at a time: the latency of a chunk's round trip */
	size_t n = (size_t)o->rounds * (size_t)o->items;
	MpiItem *items = calloc(n, sizeof *items);
	MpiResult *res = calloc(n, sizeof *res);
	if (!items || !res)
		return 1;
	double t0 = util_now();
	for (long k = 0; k < o->rounds; k++) {
		Batch b;
		mpi_master_batch_init(&b, items + k * o->items, res + k * o->items, (size_t)o->items);
		mpi_master_submit(&m, &b);
		mpi_master_absorb(&m);
		mpi_master_send_chunk(&m, 1);
		MPI_Status st;
		MPI_Probe(1, TAG_RESULT, MPI_COMM_WORLD, &st);
		int bytes;
		MPI_Get_count(&st, MPI_BYTE, &bytes);
		mpi_master_receive(&m, 1, bytes);
		mpi_master_commit(&m);
		pthread_cond_destroy(&b.done);
	}
	double lat = (util_now() - t0) / (double)o->rounds;
	/* all workers at once: the chunks per second the master keeps up with */
	Batch all;
	mpi_master_batch_init(&all, items, res, n);
	double t1 = util_now();
	mpi_master_submit(&m, &all);
	mpi_master_pump(&m, ping_done, &all);
	double el = util_now() - t1;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("pingpong: %d workers, chunks of %ld items (%zu bytes out, %zu back)\n", workers, o->items,
	       sizeof(WorkHead) + (size_t)o->items * sizeof(MpiItem),
	       sizeof(ResultHead) + (size_t)o->items * sizeof(MpiResult));
	printf("round trip to one worker: %.1f us\n", lat * 1e6);
	printf("all workers at once: %ld chunks in %.3f s = %.0f chunks/s through the master\n", o->rounds, el,
	       (double)o->rounds / el);
	mpi_master_stop_workers(&m);
	mpi_master_free(&m, false);
	free(items);
	free(res);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--version"))
		return version_print("emilia-mpi");
	int provided = 0, rank = 0, nranks = 1;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	Options o;
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(rank);
		MPI_Finalize();
		return 0;
	}
	if (!parse_options(argc, argv, &o)) {
		usage(rank);
		MPI_Finalize();
		return 2;
	}
	if (nranks < 2) {
		fprintf(stderr, "emilia-mpi: needs at least 2 ranks (a master and a worker): mpirun -np 3 emilia-mpi ...\n");
		MPI_Finalize();
		return 2;
	}
	if (provided < MPI_THREAD_FUNNELED && o.cmd && !strcmp(o.cmd, "book-expand") && rank == 0)
		fprintf(stderr, "emilia-mpi: warning: the MPI library gives no thread support\n");
	int rc;
	if (rank != 0)
		rc = worker_main(&o, rank);
	else {
		switch (job_of(&o)) {
		case MPIJOB_SOLVE:
			rc = master_solve(&o, nranks);
			break;
		case MPIJOB_LABEL:
			rc = master_label(&o, nranks);
			break;
		case MPIJOB_BOOK:
			rc = master_book(&o, nranks);
			break;
		default:
			rc = master_ping(&o, nranks);
			break;
		}
	}
	if (rank == 0)
		mpi_master_stop_ranks(nranks); /* a job that failed before it began still releases its workers */
	MPI_Finalize();
	return rc;
}
