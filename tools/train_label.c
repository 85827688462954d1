/*
 * train_label.c - emilia-train's labels from the engine: exact scores from the
 * solver and scores of engine searches, both cached, and the expanded
 * positions (train.h lists the trainer's files).
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "endgame.h"
#include "util.h"
#include "weights.h"
#include "train.h"

/* ---- exact labels from the solver, cached ------------------------------ */

typedef struct CacheRec {
	uint64_t p, o;
	int8_t score;
} CacheRec;

typedef struct SolveJob {
	Sample **todo;
	size_t n;
	_Atomic size_t next;
	int8_t *score;
} SolveJob;

/* A worker's next position of a labelling job's todo[0..n): the board and
 * its index *i; false when none is left. */
static bool job_next(Sample **todo, size_t n, _Atomic size_t *next, size_t *i, Board *b)
{
	*i = atomic_fetch_add(next, 1);
	if (*i >= n)
		return false;
	*b = (Board){ todo[*i]->p, todo[*i]->o };
	return true;
}

static void *solve_worker(void *arg)
{
	SolveJob *j = arg;
	EndgameOptions eo = endgame_default_options();
	/* each thread solves its own positions with its own small tables */
	eo.hash_mb = 16;
	if (!(eo.tables = endgame_tables_new()))
		die("out of memory");
	size_t i;
	Board b;
	while (job_next(j->todo, j->n, &j->next, &i, &b))
		j->score[i] = (int8_t)endgame_solve(b, &eo).score;
	endgame_tables_free(eo.tables);
	return NULL;
}

/* The records of both caches start with the board, p then o, 8 bytes each
 * little-endian, and the score: 17 bytes (the search cache adds its depth
 * and the weights' tag). */
static void rec_put(unsigned char *rec, const Sample *x, int score)
{
	for (int b8 = 0; b8 < 8; b8++) {
		rec[b8] = (unsigned char)(x->p >> (8 * b8));
		rec[8 + b8] = (unsigned char)(x->o >> (8 * b8));
	}
	rec[16] = (unsigned char)score;
}

/* The board and score of a record; false when they cannot be a position's. */
static bool rec_get(const unsigned char *rec, Board *b, int *score)
{
	uint64_t p = 0, q = 0;
	for (int k = 7; k >= 0; k--) {
		p = p << 8 | rec[k];
		q = q << 8 | rec[8 + k];
	}
	*b = (Board){ p, q };
	*score = (int8_t)rec[16];
	return !(p & q) && *score >= -64 && *score <= 64;
}

/* Read the records of a cache file (path NULL: none), len bytes each:
 * those with a position's board and score that go on with the bytes tail
 * (len - 17 of them) go into set as exact labels.  The count read. */
static size_t cache_read(Set *set, const char *path, size_t len, const unsigned char *tail)
{
	FILE *f = path ? fopen(path, "rb") : NULL;
	if (!f)
		return 0;
	size_t loaded = 0;
	unsigned char rec[22];
	while (fread(rec, 1, len, f) == len) {
		Board b;
		int sc;
		if (!rec_get(rec, &b, &sc) || (len > 17 && memcmp(rec + 17, tail, len - 17)))
			continue;
		set_add(set, b, 64 - bit_count(b.p | b.o), sc, true);
		loaded++;
	}
	fclose(f);
	return loaded;
}

/* Exact labels already computed (the --cache file), loaded once. */
static Set label_cache;

static void load_cache(const Options *o)
{
	if (label_cache.cap)
		return;
	set_grow(&label_cache);
	size_t loaded = cache_read(&label_cache, o->cache, 17, NULL);
	fprintf(stderr, "label cache: %zu records\n", loaded);
}

/* A label of kind (LABEL_EXACT, LABEL_SEARCH) for x: the one score. */
static void label_set(Sample *x, int score, int kind)
{
	x->sum = score;
	x->cnt = 1;
	x->exact = (uint8_t)kind;
}

/* The first max samples of s with a game-result label and lo..hi empties,
 * in table order: those that cache holds get its label of kind (*hit
 * counts them), the others are the returned todo[0..*n). */
static Sample **labels_todo(Set *s, Set *cache, int lo, int hi, size_t max, int kind, size_t *n,
                            size_t *hit)
{
	Sample **todo = xcalloc(s->n + 1, sizeof *todo);
	size_t k = 0;
	*n = *hit = 0;
	for (size_t i = 0; i < s->cap; i++) {
		Sample *x = &s->slot[i];
		if (!x->cnt || x->exact != LABEL_GAME || x->empties > hi || x->empties < lo)
			continue;
		if (k++ >= max)
			break;
		Sample *c = set_find(cache, x->p, x->o);
		if (c->cnt) {
			label_set(x, c->sum, kind);
			(*hit)++;
		} else {
			todo[(*n)++] = x;
		}
	}
	return todo;
}

/* The end of a labelling pass of n positions begun at t0: close the cache
 * it appended to (out, NULL for none), say what it did (done: "solved",
 * "searched") and free its scores and todo list. */
static void labels_done(FILE *out, const char *done, size_t n, double t0, int8_t *score, Sample **todo)
{
	if (out)
		fclose(out);
	fprintf(stderr, "%s %zu positions in %.1f s\n", done, n, util_now() - t0);
	free(score);
	free(todo);
}

/* Exact labels for the first `max` samples with lo..hi empties that have
 * none yet, in table order (a fixed order for fixed inputs), whether
 * cached or not: a rerun with a warm cache labels exactly the same
 * positions.  New solves are appended to the cache. */
void solve_labels(const Options *o, Set *s, int lo, int hi, size_t max)
{
	if (hi < lo || !max)
		return;
	load_cache(o);
	size_t n, hit;
	Sample **todo = labels_todo(s, &label_cache, lo, hi, max, LABEL_EXACT, &n, &hit);
	fprintf(stderr, "exact labels, %d-%d empties: %zu from the cache, solving %zu positions\n", lo,
	        hi, hit, n);
	double t0 = util_now();
	SolveJob job = { todo, n, 0, xcalloc(n + 1, 1) };
	train_run_threads(solve_worker, &job, o->threads);
	FILE *out = o->cache ? fopen(o->cache, "ab") : NULL;
	for (size_t i = 0; i < n; i++) {
		label_set(todo[i], job.score[i], LABEL_EXACT);
		Board b = { todo[i]->p, todo[i]->o };
		set_add(&label_cache, b, todo[i]->empties, job.score[i], true);
		if (out) {
			unsigned char rec[17];
			rec_put(rec, todo[i], job.score[i]);
			fwrite(rec, 1, 17, out);
		}
	}
	labels_done(out, "solved", n, t0, job.score, todo);
}

/* ---- labels from engine searches, cached -------------------------------- */

/* Each thread searches with its own table, cleared before every position
 * and without ProbCut, iterative deepening 1..depth: the label depends on
 * the position, the depth and the weights only, not on the thread
 * schedule. */
void *search_worker(void *arg)
{
	SearchJob *j = arg;
	LabelSearcher se;
	if (!label_searcher_init(&se, run_weights))
		die("out of memory");
	size_t i;
	Board b;
	while (job_next(j->todo, j->n, &j->next, &i, &b))
		j->score[i] = (int8_t)label_searcher_value(&se, b, j->depth);
	label_searcher_free(&se);
	return NULL;
}

/* Search labels for the first --max-search samples with --search-mid
 * empties that have a game-result label, in table order.  The searches
 * use the weights of --search-eval (else the built-in ones); the cache
 * (--search-cache, records p, o, score, depth, weights checksum) only
 * answers for the same depth and weights. */
void search_labels(const Options *o, Set *s)
{
	if (o->search_depth <= 0 || !o->max_search)
		return;
	char err[WEIGHTS_ERR];
	size_t len;
	uint32_t tag;
	if (o->search_eval) {
		unsigned char *img = weights_read_file(o->search_eval, 64u << 20, &len, err);
		if (!img)
			die(err);
		tag = (uint32_t)weights_checksum(img, len);
		free(img);
		Evaluator *ev = eval_load(o->search_eval, err);
		if (!ev)
			die(err);
		use_weights(ev);
	} else {
		const unsigned char *img = weights_builtin(&len);
		tag = (uint32_t)weights_checksum(img, len);
	}
	/* what the search cache's records hold after the score: the depth,
	 * then the weights' tag (little-endian) */
	unsigned char tail[5] = { (unsigned char)o->search_depth };
	for (int b8 = 0; b8 < 4; b8++)
		tail[1 + b8] = (unsigned char)(tag >> (8 * b8));
	Set cache = { 0, 0, 0 };
	set_grow(&cache);
	size_t loaded = cache_read(&cache, o->search_cache, 22, tail);
	size_t n, hit;
	Sample **todo = labels_todo(s, &cache, o->search_lo, o->search_hi, (size_t)o->max_search, LABEL_SEARCH,
	                            &n, &hit);
	fprintf(stderr, "search labels (depth %d), %d-%d empties: %zu from the cache (%zu records), "
	        "searching %zu positions\n", o->search_depth, o->search_lo, o->search_hi, hit, loaded, n);
	double t0 = util_now();
	SearchJob job = { todo, n, 0, o->search_depth, xcalloc(n + 1, 1) };
	train_run_threads(search_worker, &job, o->threads);
	FILE *out = o->search_cache ? fopen(o->search_cache, "ab") : NULL;
	for (size_t i = 0; i < n; i++) {
		label_set(todo[i], job.score[i], LABEL_SEARCH);
		if (out) {
			unsigned char rec[22];
			rec_put(rec, todo[i], job.score[i]);
			memcpy(rec + 17, tail, sizeof tail);
			fwrite(rec, 1, 22, out);
		}
	}
	labels_done(out, "searched", n, t0, job.score, todo);
	free(cache.slot);
}

/* Engine-labelled new positions (--expand LO-HI): the children of the
 * training positions (every legal move, not only the one played) that
 * have LO..HI empties and are neither training nor test positions; the
 * first --max-expand of them in table order (a fixed, hash-shuffled order
 * for fixed inputs, so a smaller count is a subset of a larger one) are
 * labelled by the --search-depth search and added to the training set. */
void expand(const Options *o, Set *train_set, const Set *test_set)
{
	if (o->expand_hi < o->expand_lo || !o->max_expand || (o->search_depth <= 0 && !o->expand_exact))
		return;
	Set extra = { 0, 0, 0 };
	set_grow(&extra);
	for (size_t i = 0; i < train_set->cap; i++) {
		const Sample *x = &train_set->slot[i];
		if (!x->cnt || x->exact == LABEL_DROPPED || x->empties < o->expand_lo + 1
		    || x->empties > o->expand_hi + 1)
			continue;
		for (uint64_t m = board_moves(x->p, x->o); m; m = bit_pop(m)) {
			int sq = bit_first(m);
			Board c = board_apply((Board){ x->p, x->o }, sq, board_flips(x->p, x->o, sq));
			if (!board_moves(c.p, c.o))
				continue;   /* samples are positions with a move */
			Board k = board_canonical(c, NULL);
			if (set_has(train_set, k.p, k.o) || set_has(test_set, k.p, k.o))
				continue;
			set_add(&extra, c, x->empties - 1, 0, false);
		}
	}
	/* the first max_expand in table order become training samples */
	size_t k = 0;
	for (size_t i = 0; i < extra.cap && k < (size_t)o->max_expand; i++) {
		Sample *x = &extra.slot[i];
		if (!x->cnt)
			continue;
		x->cnt = 1;
		x->sum = 0;
		k++;
	}
	fprintf(stderr, "expansion: %zu new positions with %d-%d empties, %zu used\n", extra.n,
	        o->expand_lo, o->expand_hi, k);
	Options so = *o;
	so.search_lo = o->expand_lo;
	so.search_hi = o->expand_hi;
	so.max_search = (int)k;
	if (o->expand_exact)
		solve_labels(o, &extra, o->expand_lo, o->expand_hi, k);
	else
		search_labels(&so, &extra);
	const int kind = o->expand_exact ? LABEL_EXACT : LABEL_SEARCH;
	for (size_t i = 0; i < extra.cap; i++) {
		const Sample *x = &extra.slot[i];
		if (!x->cnt || x->exact != kind)
			continue;
		Board b = { x->p, x->o };
		set_add(train_set, b, x->empties, x->sum, false);
		set_find(train_set, x->p, x->o)->exact = (uint8_t)kind;
	}
	free(extra.slot);
}

/* The error of the labelling search itself: the --search-depth search
 * of the test positions with exact labels at lo..hi empties. */
void search_check(const Options *o, Set *s, int lo, int hi)
{
	Sample **todo = xcalloc(s->n + 1, sizeof *todo);
	size_t n = 0;
	for (size_t i = 0; i < s->cap; i++) {
		Sample *x = &s->slot[i];
		if (x->cnt && x->exact == LABEL_EXACT && x->empties >= lo && x->empties <= hi)
			todo[n++] = x;
	}
	double t0 = util_now();
	SearchJob job = { todo, n, 0, o->search_depth, xcalloc(n + 1, 1) };
	train_run_threads(search_worker, &job, o->threads);
	double err = 0;
	for (size_t i = 0; i < n; i++)
		err += fabs(job.score[i] - (double)todo[i]->sum / todo[i]->cnt);
	printf("depth-%d search of the %zu test positions with exact labels at %d-%d empties: MAE %.3f "
	       "(%.1f s)\n", o->search_depth, n, lo, hi, n ? err / (double)n : 0.0, util_now() - t0);
	free(job.score);
	free(todo);
}
