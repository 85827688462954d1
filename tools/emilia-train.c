/*
 * emilia-train - fit the 8x8 pattern evaluation (patterns.h) to game
 * archives and write a weight file (weights.h).
 *
 * Pipeline:
 *  1. Read WTHOR files (DATA/wthor/WTH_*.wtb), Logistello's book
 *     (DATA/Logistello_book_1999.wtb) and Logistello's self-play games
 *     (DATA/logbook.gam.gz, read with zlib).  Malformed records are
 *     reported on stderr and skipped.
 *  2. Every position of every game where the side to move has a move
 *     becomes a sample, labelled from the side to move's view with:
 *       - WTHOR records: Black's theoretical score (perfect play from the
 *         position at 24 empties), for every position of the game (with
 *         --results-after: the game result after 24 empties); the
 *         positions at 24 empties are exact and weigh --exact-weight
 *         times more in the fit (default 5);
 *       - Logistello book and self-play games: the game result;
 *       - with --labels DIR: the label files of --make-labels (labels.h),
 *         exact or backward-induction search labels, before all the above;
 *         --drop-after LO-HI leaves out the tournament positions with
 *         LO..HI empties past the theoretical score's depth that have
 *         neither;
 *       - optionally (--solve N) the exact score from the engine's solver
 *         for positions with <= N empties, and (--solve-mid LO-HI,
 *         --max-solve-mid M, training set only) for the first M positions
 *         with LO..HI empties, cached in --cache;
 *       - optionally (--search-mid LO-HI --search-depth D --max-search M)
 *         the score of the engine's depth-D search (weights of
 *         --search-eval, else the built-in ones) instead of the game result
 *         for the first M training positions with LO..HI empties, cached
 *         in --search-cache; --search-check reports that search's own
 *         error on the exactly labelled test positions at 24 empties.
 *     Engine-labelled new positions (--expand LO-HI --max-expand M): the
 *     children (every legal move) of training positions that are neither
 *     training nor test positions, the first M in table order labelled by
 *     the depth-D search.  Search labels weigh --search-weight (default 1).
 *     Positions are merged under the 8 symmetries (canonical form) and
 *     their labels averaged.  Games of the --test years (WTHOR only) form
 *     the test set (solved like the training set for few empties); test
 *     positions with fewer than 50 empties are removed from the training
 *     set.
 *  3. For each phase (5 empties wide; widened by 2 empties on each side
 *     until it holds --min-positions samples, for the sparse opening
 *     phases), the weights minimise
 *        sum_i (prediction_i - label_i)^2 + lambda * sum_j w_j^2
 *                          [+ prior_lambda * sum_j (w_j - prior_j)^2]
 *     by full-batch Adam (--epochs, --lr with cosine decay to 5%; the
 *     optional --prior weights file, --prior-lambda, shrinks each phase
 *     towards that file's weights of the phase and starts from them).
 *     The joint mobility table is used up to phase --mobility-phases
 *     (default 9): in the widened opening phases it skewed the start
 *     position by 9 discs.  The gradient is summed over a fixed number of
 *     chunks, each chunk's sum in a fixed order, and the chunk sums added
 *     in chunk order, so the result does not depend on the thread count.
 *     Self-symmetric patterns have tied weights (patterns_canonical).
 *  4. The weights are rounded to 1/64 disc, written to --out, installed in
 *     the engine's evaluator, and the per-phase mean absolute error of the
 *     engine's own eval_score() on the train and test sets is printed.
 *
 * --eval-only FILE skips training and reports the errors of a weight file.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#include "endgame.h"
#include "eval.h"
#include "game.h"
#include "patterns.h"
#include "search.h"
#include "tt.h"
#include "text.h"
#include "util.h"
#include "weights.h"
#include "wthor.h"
#include "labels.h"

#define NCHUNK 64
#define HOLDOUT_EMPTIES 50

typedef struct Sample {
	uint64_t p, o;   /* canonical board, side to move = p */
	int32_t sum;     /* sum of labels (discs, side to move's view) */
	uint16_t cnt;
	uint8_t empties;
	uint8_t exact;   /* LABEL_*: how the label was obtained */
	uint8_t selfplay; /* reached in one of Emilia's self-play games (--selfplay) */
} Sample;

/* Sample.exact: the label is the (averaged) game result / WTHOR
 * theoretical score, exact (a solve or the WTHOR score at its depth), a
 * dropped training position (a test position, kept as a tombstone), or the
 * score of an engine search (--search-mid). */
enum { LABEL_GAME = 0, LABEL_EXACT = 1, LABEL_DROPPED = 2, LABEL_SEARCH = 3 };

/* Open-addressing hash set of samples keyed by (p, o). */
typedef struct Set {
	Sample *slot;
	size_t cap, n;
} Set;

typedef struct Options {
	const char *data, *out, *cache, *eval_only, *report;
	int test_lo, test_hi;
	int threads, epochs, solve, max_solve, mid_lo, mid_hi, max_mid, ph_lo, ph_hi, min_positions, mob_max_phase;
	const char *init;
	double lambda, lr, fraction, exact_weight, search_weight, selfplay_weight;
	double huber;            /* --huber: residuals clipped to +-huber in the gradient (0: none) */
	const char *game_train;  /* --game-train: anti, 6x6 or 6x6-anti */
	int games, game_exact;   /* --games, --game-exact */
	long game_max_search;    /* --game-max-search: search labels per phase */
	const char *game_dump;   /* --game-dump: the labelled positions as text */
	int search_lo, search_hi, search_depth, max_search;
	const char *search_cache, *search_eval;
	uint64_t seed;
	bool search_check;
	int16_t *prior;          /* --prior weights, all phases */
	double prior_lambda;
	const char *prior_file;
	int expand_lo, expand_hi, max_expand;
	bool expand_exact;       /* --expand-exact: the solver labels the new positions */
	int phase_overlap;       /* --phase-overlap: a phase's fit also takes K empties beyond it */
	bool no_mobility, no_logbook, no_book, theory_after;
	const Labels *labels;    /* --labels: exact labels of game positions */
	int check_depth[4], ncheck;  /* --check-depths: searches in the per-empties report */
	int drop_lo, drop_hi;        /* --drop-after: tournament positions left out */
	long check_max;              /* --check-max: positions per empties searched */
} Options;

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xFF51AFD7ED558CCDULL;
	x ^= x >> 33;
	x *= 0xC4CEB9FE1A85EC53ULL;
	x ^= x >> 33;
	return x;
}

static void die(const char *msg)
{
	fprintf(stderr, "emilia-train: %s\n", msg);
	exit(1);
}

/* The weights the searches and reports of this run use: those of
 * --search-eval, then of the fit (or --eval-only); NULL: the built-in
 * ones. */
static Evaluator *run_weights;

static void use_weights(Evaluator *ev)
{
	if (!ev)
		die("out of memory");
	eval_free(run_weights);
	run_weights = ev;
}

static const Evaluator *weights_8x8(void)
{
	return run_weights ? run_weights : eval_get(8, VARIANT_NORMAL);
}

static void *xcalloc(size_t n, size_t s)
{
	void *p = calloc(n, s);
	if (!p)
		die("out of memory");
	return p;
}

static Sample *set_find(Set *s, uint64_t p, uint64_t o)
{
	size_t mask = s->cap - 1, i = mix(p ^ mix(o)) & mask;
	while (s->slot[i].cnt && (s->slot[i].p != p || s->slot[i].o != o))
		i = (i + 1) & mask;
	return &s->slot[i];
}

static void set_grow(Set *s)
{
	Set n = { xcalloc(s->cap ? s->cap * 2 : 1 << 16, sizeof(Sample)), s->cap ? s->cap * 2 : 1 << 16, s->n };
	for (size_t i = 0; i < s->cap; i++)
		if (s->slot[i].cnt)
			*set_find(&n, s->slot[i].p, s->slot[i].o) = s->slot[i];
	free(s->slot);
	*s = n;
}

/* Which label wins when a position has several: exact, then search, then
 * game results. */
static int label_rank(int kind)
{
	return kind == LABEL_EXACT ? 2 : kind == LABEL_SEARCH ? 1 : 0;
}

/* Adds a label to b's sample; returns the sample. */
static Sample *set_add_kind(Set *s, Board b, int empties, int label, int kind)
{
	if (s->n * 10 >= s->cap * 7)
		set_grow(s);
	Board c = board_canonical(b, NULL);
	Sample *x = set_find(s, c.p, c.o);
	if (!x->cnt) {
		x->p = c.p;
		x->o = c.o;
		x->empties = (uint8_t)empties;
		s->n++;
	}
	if (label_rank(x->exact) > label_rank(kind))
		return x;
	if (label_rank(kind) > label_rank(x->exact)) {
		x->sum = 0;
		x->cnt = 0;
		x->exact = (uint8_t)kind;
	}
	if (x->cnt < 65535) {
		x->sum += label;
		x->cnt++;
	}
	return x;
}

static Sample *set_add(Set *s, Board b, int empties, int label, bool exact)
{
	return set_add_kind(s, b, empties, label, exact ? LABEL_EXACT : LABEL_GAME);
}

static bool set_has(const Set *s, uint64_t p, uint64_t o)
{
	if (!s->cap)
		return false;
	size_t mask = s->cap - 1, i = mix(p ^ mix(o)) & mask;
	while (s->slot[i].cnt) {
		if (s->slot[i].p == p && s->slot[i].o == o)
			return true;
		i = (i + 1) & mask;
	}
	return false;
}

/* ---- reading games ---------------------------------------------------- */

typedef struct Stats {
	long games, rejected, positions, dropped;
	int kind;                   /* of the game being read: 0 WTHOR, 1 book, 2 logbook */
	double diff[3][61];         /* |exact label - the game's own label|, summed */
	long ndiff[3][61], nsame[3][61];
} Stats;

/* How far the games' own labels are from the exact ones, by source. */
static void report_agreement(const Stats *st)
{
	static const char *name[3] = { "WTHOR (theoretical score, then result)", "Logistello book (result)",
	                               "logbook (result)" };
	static const int lo[4] = { 1, 13, 16, 19 }, hi[4] = { 12, 15, 18, 24 };
	for (int k = 0; k < 3; k++) {
		bool any = false;
		for (int b = 0; b < 4; b++) {
			double d = 0;
			long n = 0, same = 0;
			for (int e = lo[b]; e <= hi[b]; e++) {
				d += st->diff[k][e];
				n += st->ndiff[k][e];
				same += st->nsame[k][e];
			}
			if (!n)
				continue;
			if (!any)
				fprintf(stderr, "game labels against exact labels, %s:\n", name[k]);
			any = true;
			fprintf(stderr, "  %2d-%2d empties: %ld positions, mean difference %.2f discs, %.1f%% equal\n",
			        lo[b], hi[b], n, d / (double)n, 100.0 * (double)same / (double)n);
		}
	}
}

/* The empties from which both players of tools/eval-selfplay.sh (levels 8
 * and 10) solve exactly: level L solves from 2L empties (docs/engine.md). */
#define SELFPLAY_EXACT 16

/* selfplay: one of Emilia's self-play games, whose result is exact from
 * SELFPLAY_EXACT empties on and whose positions are marked for
 * --selfplay-weight. */
static void add_game(const Options *o, const WthorGame *w, const int8_t *lab, const int8_t *slab,
                     bool selfplay, Set *set, Stats *st)
{
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	for (int n = 0; n < w->nmoves; n++) {
		if (game_must_pass(&g))
			game_play(&g, BOARD_PASS);
		int e = game_empties(&g);
		bool exact = w->has_theory && e == w->theory_depth;
		int black = w->has_theory && (e >= w->theory_depth || o->theory_after) ? w->black_theory
		                                                                      : w->black_final;
		int own = g.side == BLACK ? black : -black;
		Sample *x = NULL;
		if (lab && lab[e] != LABEL_NONE) {
			x = set_add(set, g.board, e, lab[e], true);
			st->diff[st->kind][e] += abs(lab[e] - own);
			st->ndiff[st->kind][e]++;
			st->nsame[st->kind][e] += lab[e] == own;
		} else if (slab && slab[e] != LABEL_NONE) {
			x = set_add_kind(set, g.board, e, slab[e], LABEL_SEARCH);
		} else if (w->has_theory && e < w->theory_depth && e >= o->drop_lo && e <= o->drop_hi) {
			/* --drop-after: a tournament game's position after its
			 * theoretical score's depth without an exact label; its
			 * label would be the players' result */
			st->dropped++;
		} else {
			x = set_add(set, g.board, e, own, exact || (selfplay && e <= SELFPLAY_EXACT));
		}
		if (x && selfplay)
			x->selfplay = 1;
		st->positions++;
		if (game_play(&g, w->moves[n]) != GAME_OK)
			die("internal error: replay of a checked game failed");
	}
	st->games++;
}

static bool keep_game(const Options *o, uint64_t id)
{
	if (o->fraction >= 1.0)
		return true;
	return (double)(mix(id ^ mix(o->seed)) >> 11) / 9007199254740992.0 < o->fraction;
}

typedef struct ReadCtx {
	const Options *o;
	Set *train, *test;
	Stats st;
	uint64_t gid;
	long wthor, book, logbook, selfplay;
} ReadCtx;

static void read_visit(void *user, const GameRef *r, const WthorGame *w)
{
	ReadCtx *c = user;
	const Options *o = c->o;
	bool is_test = r->wthor && r->year >= o->test_lo && r->year <= o->test_hi;
	if (!is_test && !keep_game(o, c->gid++))
		return;
	const unsigned kind = games_source_kind(r);
	c->st.kind = kind == LABEL_SRC_WTHOR ? 0 : kind == LABEL_SRC_BOOK ? 1 : 2;
	if (kind == LABEL_SRC_WTHOR)
		c->wthor++;
	else if (kind == LABEL_SRC_BOOK)
		c->book++;
	else if (kind == LABEL_SRC_LOGBOOK)
		c->logbook++;
	else
		c->selfplay++;
	/* test positions get exact labels only */
	add_game(o, w, labels_find(o->labels, r->source, r->index, false),
	         is_test ? NULL : labels_find(o->labels, r->source, r->index, true),
	         kind == LABEL_SRC_SELFPLAY, is_test ? c->test : c->train, &c->st);
}

static void read_all(const Options *o, Set *train, Set *test)
{
	static ReadCtx c;
	memset(&c, 0, sizeof c);
	c.o = o;
	c.train = train;
	c.test = test;
	games_for_each(o->data, (o->no_book ? GAMES_NO_BOOK : 0u) | (o->no_logbook ? GAMES_NO_LOGBOOK : 0u),
	               read_visit, &c);
	fprintf(stderr, "games: %ld WTHOR, %ld Logistello book, %ld logbook, %ld self-play; %ld tournament "
	        "positions without exact labels dropped\n", c.wthor, c.book, c.logbook, c.selfplay, c.st.dropped);
	report_agreement(&c.st);
	Stats st = c.st;
	/* hold-out: no test position (up to symmetry) with fewer than
	 * HOLDOUT_EMPTIES empties is trained on; the first moves of the
	 * opening are common to nearly every game (the start position among
	 * them), their labels are averages over thousands of games, and the
	 * opening phases would be left without them */
	size_t removed = 0;
	for (size_t i = 0; i < train->cap; i++)
		if (train->slot[i].cnt && train->slot[i].empties < HOLDOUT_EMPTIES
		    && set_has(test, train->slot[i].p, train->slot[i].o)) {
			train->slot[i].cnt = 0xFFFF; /* tombstone: kept in the probe chain */
			train->slot[i].exact = LABEL_DROPPED;
			removed++;
		}
	fprintf(stderr, "positions: %ld read, %zu unique training, %zu test, %zu training positions "
	        "dropped as test positions\n", st.positions, train->n - removed, test->n, removed);
}

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

/* Run fn(arg) on `threads` threads (at most 64, the --threads bound) and
 * wait for all of them. */
static void train_run_threads(void *(*fn)(void *), void *arg, int threads)
{
	pthread_t th[64];
	for (int t = 0; t < threads; t++)
		pthread_create(&th[t], NULL, fn, arg);
	for (int t = 0; t < threads; t++)
		pthread_join(th[t], NULL);
}

static void *solve_worker(void *arg)
{
	SolveJob *j = arg;
	EndgameOptions eo = endgame_default_options();
	/* each thread solves its own positions with its own small tables */
	eo.hash_mb = 16;
	if (!(eo.tables = endgame_tables_new()))
		die("out of memory");
	for (;;) {
		size_t i = atomic_fetch_add(&j->next, 1);
		if (i >= j->n)
			break;
		Board b = { j->todo[i]->p, j->todo[i]->o };
		EndgameResult r = endgame_solve(b, &eo);
		j->score[i] = (int8_t)r.score;
	}
	endgame_tables_free(eo.tables);
	return NULL;
}

/* Exact labels already computed (the --cache file), loaded once. */
static Set label_cache;

static void load_cache(const Options *o)
{
	if (label_cache.cap)
		return;
	set_grow(&label_cache);
	size_t loaded = 0;
	FILE *f = o->cache ? fopen(o->cache, "rb") : NULL;
	if (f) {
		unsigned char rec[17];
		while (fread(rec, 1, 17, f) == 17) {
			uint64_t p = 0, q = 0;
			for (int k = 7; k >= 0; k--) {
				p = p << 8 | rec[k];
				q = q << 8 | rec[8 + k];
			}
			int sc = (int8_t)rec[16];
			if ((p & q) || sc < -64 || sc > 64)
				continue;
			Board b = { p, q };
			set_add(&label_cache, b, 64 - bit_count(p | q), sc, true);
			loaded++;
		}
		fclose(f);
	}
	fprintf(stderr, "label cache: %zu records\n", loaded);
}

/* Exact labels for the first `max` samples with lo..hi empties that have
 * none yet, in table order (a fixed order for fixed inputs), whether
 * cached or not: a rerun with a warm cache labels exactly the same
 * positions.  New solves are appended to the cache. */
static void solve_labels(const Options *o, Set *s, int lo, int hi, size_t max)
{
	if (hi < lo || !max)
		return;
	load_cache(o);
	Sample **todo = xcalloc(s->n + 1, sizeof *todo);
	size_t n = 0, hit = 0, k = 0;
	for (size_t i = 0; i < s->cap; i++) {
		Sample *x = &s->slot[i];
		if (!x->cnt || x->exact || x->empties > hi || x->empties < lo)
			continue;
		if (k++ >= max)
			break;
		Sample *c = set_find(&label_cache, x->p, x->o);
		if (c->cnt) {
			x->sum = c->sum;
			x->cnt = 1;
			x->exact = 1;
			hit++;
		} else {
			todo[n++] = x;
		}
	}
	fprintf(stderr, "exact labels, %d-%d empties: %zu from the cache, solving %zu positions\n", lo,
	        hi, hit, n);
	double t0 = util_now();
	SolveJob job = { todo, n, 0, xcalloc(n + 1, 1) };
	train_run_threads(solve_worker, &job, o->threads);
	FILE *out = o->cache ? fopen(o->cache, "ab") : NULL;
	for (size_t i = 0; i < n; i++) {
		todo[i]->sum = job.score[i];
		todo[i]->cnt = 1;
		todo[i]->exact = 1;
		Board b = { todo[i]->p, todo[i]->o };
		set_add(&label_cache, b, todo[i]->empties, job.score[i], true);
		if (out) {
			unsigned char rec[17];
			for (int b8 = 0; b8 < 8; b8++) {
				rec[b8] = (unsigned char)(todo[i]->p >> (8 * b8));
				rec[8 + b8] = (unsigned char)(todo[i]->o >> (8 * b8));
			}
			rec[16] = (unsigned char)job.score[i];
			fwrite(rec, 1, 17, out);
		}
	}
	if (out)
		fclose(out);
	fprintf(stderr, "solved %zu positions in %.1f s\n", n, util_now() - t0);
	free(job.score);
	free(todo);
}

/* ---- labels from engine searches, cached -------------------------------- */

typedef struct SearchJob {
	Sample **todo;
	size_t n;
	_Atomic size_t next;
	int depth;
	int8_t *score;
} SearchJob;

/* Each thread searches with its own table, cleared before every position
 * and without ProbCut, iterative deepening 1..depth: the label depends on
 * the position, the depth and the weights only, not on the thread
 * schedule. */
static void *search_worker(void *arg)
{
	SearchJob *j = arg;
	LabelSearcher se;
	if (!label_searcher_init(&se, run_weights))
		die("out of memory");
	for (;;) {
		size_t i = atomic_fetch_add(&j->next, 1);
		if (i >= j->n)
			break;
		Board b = { j->todo[i]->p, j->todo[i]->o };
		j->score[i] = (int8_t)label_searcher_value(&se, b, j->depth);
	}
	label_searcher_free(&se);
	return NULL;
}

/* Search labels for the first --max-search samples with --search-mid
 * empties that have a game-result label, in table order.  The searches
 * use the weights of --search-eval (else the built-in ones); the cache
 * (--search-cache, records p, o, score, depth, weights checksum) only
 * answers for the same depth and weights. */
static void search_labels(const Options *o, Set *s)
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
	Set cache = { 0, 0, 0 };
	set_grow(&cache);
	size_t loaded = 0;
	FILE *f = o->search_cache ? fopen(o->search_cache, "rb") : NULL;
	if (f) {
		unsigned char rec[22];
		while (fread(rec, 1, 22, f) == 22) {
			uint64_t p = 0, q = 0;
			uint32_t rt = 0;
			for (int k = 7; k >= 0; k--) {
				p = p << 8 | rec[k];
				q = q << 8 | rec[8 + k];
			}
			for (int k = 3; k >= 0; k--)
				rt = rt << 8 | rec[18 + k];
			int sc = (int8_t)rec[16];
			if ((p & q) || sc < -64 || sc > 64 || rec[17] != o->search_depth || rt != tag)
				continue;
			Board b = { p, q };
			set_add(&cache, b, 64 - bit_count(p | q), sc, true);
			loaded++;
		}
		fclose(f);
	}
	Sample **todo = xcalloc(s->n + 1, sizeof *todo);
	size_t n = 0, hit = 0, k = 0;
	for (size_t i = 0; i < s->cap; i++) {
		Sample *x = &s->slot[i];
		if (!x->cnt || x->exact != LABEL_GAME || x->empties > o->search_hi || x->empties < o->search_lo)
			continue;
		if (k++ >= (size_t)o->max_search)
			break;
		Sample *c = set_find(&cache, x->p, x->o);
		if (c->cnt) {
			x->sum = c->sum;
			x->cnt = 1;
			x->exact = LABEL_SEARCH;
			hit++;
		} else {
			todo[n++] = x;
		}
	}
	fprintf(stderr, "search labels (depth %d), %d-%d empties: %zu from the cache (%zu records), "
	        "searching %zu positions\n", o->search_depth, o->search_lo, o->search_hi, hit, loaded, n);
	double t0 = util_now();
	SearchJob job = { todo, n, 0, o->search_depth, xcalloc(n + 1, 1) };
	train_run_threads(search_worker, &job, o->threads);
	FILE *out = o->search_cache ? fopen(o->search_cache, "ab") : NULL;
	for (size_t i = 0; i < n; i++) {
		todo[i]->sum = job.score[i];
		todo[i]->cnt = 1;
		todo[i]->exact = LABEL_SEARCH;
		if (out) {
			unsigned char rec[22];
			for (int b8 = 0; b8 < 8; b8++) {
				rec[b8] = (unsigned char)(todo[i]->p >> (8 * b8));
				rec[8 + b8] = (unsigned char)(todo[i]->o >> (8 * b8));
			}
			rec[16] = (unsigned char)job.score[i];
			rec[17] = (unsigned char)o->search_depth;
			for (int b8 = 0; b8 < 4; b8++)
				rec[18 + b8] = (unsigned char)(tag >> (8 * b8));
			fwrite(rec, 1, 22, out);
		}
	}
	if (out)
		fclose(out);
	fprintf(stderr, "searched %zu positions in %.1f s\n", n, util_now() - t0);
	free(job.score);
	free(todo);
	free(cache.slot);
}

/* Engine-labelled new positions (--expand LO-HI): the children of the
 * training positions (every legal move, not only the one played) that
 * have LO..HI empties and are neither training nor test positions; the
 * first --max-expand of them in table order (a fixed, hash-shuffled order
 * for fixed inputs, so a smaller count is a subset of a larger one) are
 * labelled by the --search-depth search and added to the training set. */
static void expand(const Options *o, Set *train_set, const Set *test_set)
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
static void search_check(const Options *o, Set *s, int lo, int hi)
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

/* ---- fitting ----------------------------------------------------------- */

typedef struct Fit {
	size_t n;
	uint32_t *feat;   /* n * PATTERN_FEATURES canonical weight positions */
	float *label;
	float *sw;        /* sample weights */
	float huber;      /* gradient clip of the residual; 0: squared error */
	float *w;         /* PATTERN_WEIGHTS */
	float *grad[NCHUNK];
	double sse[NCHUNK];
	int nthreads;
	int next_chunk;
	pthread_mutex_t lock;
} Fit;

static uint32_t *canon_map;   /* PATTERN_WEIGHTS: canonical position of each weight */

static void build_canon_map(void)
{
	canon_map = xcalloc(PATTERN_WEIGHTS, sizeof *canon_map);
	for (int pt = 0; pt < PATTERN_COUNT; pt++) {
		uint32_t off = patterns_offset(pt);
		for (uint32_t i = 0; i < patterns_size(pt); i++)
			canon_map[off + i] = off + patterns_canonical(pt, i);
	}
	for (uint32_t i = PATTERN_MOB_OFFSET; i < PATTERN_WEIGHTS; i++)
		canon_map[i] = i;
}

static void *grad_worker(void *arg)
{
	Fit *f = arg;
	for (;;) {
		pthread_mutex_lock(&f->lock);
		int c = f->next_chunk++;
		pthread_mutex_unlock(&f->lock);
		if (c >= NCHUNK)
			break;
		float *g = f->grad[c];
		memset(g, 0, PATTERN_WEIGHTS * sizeof *g);
		size_t lo = f->n * (size_t)c / NCHUNK, hi = f->n * (size_t)(c + 1) / NCHUNK;
		double sse = 0;
		for (size_t i = lo; i < hi; i++) {
			const uint32_t *x = f->feat + i * PATTERN_FEATURES;
			float s = 0;
			for (int k = 0; k < PATTERN_FEATURES; k++)
				s += f->w[x[k]];
			float r = s - f->label[i];
			sse += (double)r * r;
			if (f->huber > 0)
				r = r > f->huber ? f->huber : r < -f->huber ? -f->huber : r;
			r *= f->sw[i];
			for (int k = 0; k < PATTERN_FEATURES; k++)
				g[x[k]] += r;
		}
		f->sse[c] = sse;
	}
	return NULL;
}

static double gradient(Fit *f, float *g)
{
	f->next_chunk = 0;
	train_run_threads(grad_worker, f, f->nthreads);
	memset(g, 0, PATTERN_WEIGHTS * sizeof *g);
	double sse = 0;
	for (int c = 0; c < NCHUNK; c++) {
		for (size_t j = 0; j < PATTERN_WEIGHTS; j++)
			g[j] += f->grad[c][j];
		sse += f->sse[c];
	}
	return sse;
}

/* Fit one phase; w receives the weights in discs (every position, tied). */
static void fit_phase(const Options *o, Fit *f, int ph, const float *prior)
{
	float *g = xcalloc(PATTERN_WEIGHTS, sizeof *g);
	float *m = xcalloc(PATTERN_WEIGHTS, sizeof *m);
	float *v = xcalloc(PATTERN_WEIGHTS, sizeof *v);
	if (prior)
		memcpy(f->w, prior, PATTERN_WEIGHTS * sizeof *f->w);
	else
		memset(f->w, 0, PATTERN_WEIGHTS * sizeof *f->w);
	const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
	double t0 = util_now();
	for (int ep = 1; ep <= o->epochs; ep++) {
		double sse = gradient(f, g);
		/* learning rate: cosine decay to 5% */
		double lr = o->lr * (0.05 + 0.95 * 0.5 * (1 + cos(M_PI * (ep - 1) / o->epochs)));
		double c1 = 1 - pow(b1, ep), c2 = 1 - pow(b2, ep);
		for (size_t j = 0; j < PATTERN_WEIGHTS; j++) {
			if ((o->no_mobility || ph > o->mob_max_phase) && j >= PATTERN_MOB_OFFSET)
				continue;
			double gj = (double)g[j] + o->lambda * f->w[j];
			if (prior)
				gj += o->prior_lambda * (f->w[j] - prior[j]);
			if (gj == 0 && m[j] == 0)
				continue;
			m[j] = (float)(b1 * m[j] + (1 - b1) * gj);
			v[j] = (float)(b2 * v[j] + (1 - b2) * gj * gj);
			f->w[j] -= (float)(lr * (m[j] / c1) / (sqrt(v[j] / c2) + eps));
		}
		if (ep == 1 || ep % 50 == 0 || ep == o->epochs)
			fprintf(stderr, "  phase %2d epoch %4d: train rmse %.3f (%.0f s)\n", ph, ep,
			        sqrt(sse / (double)(f->n ? f->n : 1)), util_now() - t0);
	}
	free(g);
	free(m);
	free(v);
}

static void features(uint64_t p, uint64_t o, uint32_t *x)
{
	patterns_features(p, o, x);
	for (int k = 0; k < PATTERN_FEATURES; k++)
		x[k] = canon_map[x[k]];
}

/* The fitter's buffers (the phase's samples are the caller's). */
static void fit_init(Fit *f, const Options *o)
{
	memset(f, 0, sizeof *f);
	f->nthreads = o->threads;
	f->huber = (float)o->huber;
	pthread_mutex_init(&f->lock, NULL);
	f->w = xcalloc(PATTERN_WEIGHTS, sizeof *f->w);
	for (int c = 0; c < NCHUNK; c++)
		f->grad[c] = xcalloc(PATTERN_WEIGHTS, sizeof(float));
}

static void fit_free(Fit *f)
{
	for (int c = 0; c < NCHUNK; c++)
		free(f->grad[c]);
	free(f->w);
	pthread_mutex_destroy(&f->lock);
}

/* The fitted phase into w (every weight, tied ones equal), in weight
 * units, and the phase's samples freed. */
static void fit_store(Fit *f, int16_t *w)
{
	for (size_t j = 0; j < PATTERN_WEIGHTS; j++) {
		double q = floor(f->w[canon_map[j]] * WEIGHTS_SCALE + 0.5);
		w[j] = (int16_t)(q > 32767 ? 32767 : q < -32767 ? -32767 : q);
	}
	free(f->feat);
	free(f->label);
	free(f->sw);
}

/* --game-dump for the 8x8 game: one line per labelled position, the
 * canonical board (p to move, hex), empties, label (the mean of its labels,
 * side to move's view), g(ame), e(xact) or s(earch), t(est) or -, the number
 * of games that reached it, and 1 if a self-play game did (else 0). */
static void dump_sets(const char *path, const Set *train_set, const Set *test_set)
{
	FILE *d = fopen(path, "w");
	if (!d)
		die("cannot write the --game-dump file");
	const Set *sets[2] = { train_set, test_set };
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < sets[k]->cap; i++) {
			const Sample *x = &sets[k]->slot[i];
			if (!x->cnt || x->exact == LABEL_DROPPED)
				continue;
			fprintf(d, "%016llx %016llx %d %.2f %c %c %d %d\n", (unsigned long long)x->p,
			        (unsigned long long)x->o, x->empties, (double)x->sum / x->cnt,
			        x->exact == LABEL_EXACT ? 'e' : x->exact == LABEL_SEARCH ? 's' : 'g', k ? 't' : '-',
			        x->cnt, x->selfplay);
		}
	if (fclose(d))
		die("cannot write the --game-dump file");
}

static void train(const Options *o, Set *s, int16_t *out)
{
	Fit f;
	fit_init(&f, o);
	for (int ph = o->ph_lo; ph <= o->ph_hi; ph++) {
		/* the phase's empties, widened on both sides while there are fewer
		 * than --min-positions samples (the opening phases are sparse) */
		int lo = patterns_phase_lo(ph) - o->phase_overlap, hi = patterns_phase_hi(ph) + o->phase_overlap;
		lo = lo < 1 ? 1 : lo;
		hi = hi > 60 ? 60 : hi;
		size_t n;
		for (;;) {
			n = 0;
			for (size_t i = 0; i < s->cap; i++)
				n += s->slot[i].cnt && s->slot[i].exact != LABEL_DROPPED && s->slot[i].empties >= lo
				     && s->slot[i].empties <= hi;
			if (n >= (size_t)o->min_positions || (lo <= 1 && hi >= 60))
				break;
			lo = lo > 2 ? lo - 2 : 1;
			hi = hi < 58 ? hi + 2 : 60;
		}
		f.n = n;
		f.feat = xcalloc(n * PATTERN_FEATURES + 1, sizeof *f.feat);
		f.label = xcalloc(n + 1, sizeof *f.label);
		f.sw = xcalloc(n + 1, sizeof *f.sw);
		n = 0;
		for (size_t i = 0; i < s->cap; i++) {
			const Sample *x = &s->slot[i];
			if (!x->cnt || x->exact == LABEL_DROPPED || x->empties < lo || x->empties > hi)
				continue;
			features(x->p, x->o, f.feat + n * PATTERN_FEATURES);
			f.label[n] = (float)x->sum / x->cnt;
			/* positions reached in many games have reliable (averaged)
			 * labels: weight sqrt(count), at most 32 */
			f.sw[n] = (x->exact == LABEL_EXACT ? (float)o->exact_weight
			           : x->exact == LABEL_SEARCH ? (float)o->search_weight : 1.0f)
			        * (float)sqrt(x->cnt < 1024 ? x->cnt : 1024)
			        * (x->selfplay ? (float)o->selfplay_weight : 1.0f);
			n++;
		}
		fprintf(stderr, "phase %d (%d-%d empties): %zu positions with %d-%d empties\n", ph,
		        patterns_phase_lo(ph), patterns_phase_hi(ph), n, lo, hi);
		float *prior = NULL;
		if (o->prior) {
			prior = xcalloc(PATTERN_WEIGHTS, sizeof *prior);
			for (size_t j = 0; j < PATTERN_WEIGHTS; j++)
				prior[j] = (float)o->prior[(size_t)ph * PATTERN_WEIGHTS + j] / WEIGHTS_SCALE;
		}
		fit_phase(o, &f, ph, prior);
		free(prior);
		fit_store(&f, out + (size_t)ph * PATTERN_WEIGHTS);
	}
	fit_free(&f);
}

/* ---- reporting ---------------------------------------------------------- */

static void report(const char *name, const Set *s, FILE *rep)
{
	const Evaluator *ev = weights_8x8();
	double err[PATTERN_PHASES] = { 0 }, err24 = 0, ex[PATTERN_PHASES] = { 0 };
	long cnt[PATTERN_PHASES] = { 0 }, n24 = 0, nex[PATTERN_PHASES] = { 0 };
	for (size_t i = 0; i < s->cap; i++) {
		const Sample *x = &s->slot[i];
		if (!x->cnt || x->exact == LABEL_DROPPED)
			continue;
		double d = fabs(eval_score(ev, x->p, x->o) - (double)x->sum / x->cnt);
		int ph = patterns_phase(x->empties);
		err[ph] += d;
		cnt[ph]++;
		if (x->exact == LABEL_EXACT) {
			ex[ph] += d;
			nex[ph]++;
		}
		if (x->empties == 24 && x->exact == LABEL_EXACT) {
			err24 += d;
			n24++;
		}
	}
	FILE *fs[2] = { stdout, rep };
	for (int k = 0; k < 2; k++) {
		FILE *fo = fs[k];
		if (!fo)
			continue;
		fprintf(fo, "%s set: mean absolute error of eval_score per phase (discs)\n", name);
		fprintf(fo, "  %-9s %9s %7s %9s %7s\n", "empties", "positions", "MAE", "exact", "MAE");
		for (int ph = 0; ph < PATTERN_PHASES; ph++)
			fprintf(fo, "  %2d-%-6d %9ld %7.2f %9ld %7.2f\n", patterns_phase_lo(ph), patterns_phase_hi(ph), cnt[ph],
			        cnt[ph] ? err[ph] / cnt[ph] : 0.0, nex[ph], nex[ph] ? ex[ph] / nex[ph] : 0.0);
		fprintf(fo, "  %s positions at 24 empties with exact WTHOR scores: %ld, MAE %.3f\n",
		        name, n24, n24 ? err24 / n24 : 0.0);
	}
}

/* The error by empties (10..30) on the exactly labelled positions of a
 * set: the static evaluation, and with --check-depths the depth-D
 * searches of at most --check-max positions per empties (the first in
 * table order, a fixed choice). */
static void report_empties(const Options *o, const char *name, Set *s, FILE *rep)
{
	enum { LO = 10, HI = 30 };
	const Evaluator *ev = weights_8x8();
	/* buckets of |exact score| (below): the error by empties, also
	 * reweighted to the 24-empty positions' mix of margins */
	enum { NB = 5 };
	static const int blo[NB + 1] = { 0, 5, 10, 20, 30, 65 };
	double err[HI + 1] = { 0 }, serr[4][HI + 1] = { { 0 } }, amag[HI + 1] = { 0 }, eb[HI + 1][NB] = { { 0 } };
	long cnt[HI + 1] = { 0 }, scnt[HI + 1] = { 0 }, nb[HI + 1][NB] = { { 0 } };
	Sample **todo = xcalloc(s->n + 1, sizeof *todo);
	size_t n = 0;
	for (size_t i = 0; i < s->cap; i++) {
		Sample *x = &s->slot[i];
		if (!x->cnt || x->exact != LABEL_EXACT || x->empties < LO || x->empties > HI)
			continue;
		double y = (double)x->sum / x->cnt, d = fabs(eval_score(ev, x->p, x->o) - y);
		int b = 0;
		while (b < NB - 1 && fabs(y) >= blo[b + 1])
			b++;
		err[x->empties] += d;
		amag[x->empties] += fabs(y);
		eb[x->empties][b] += d;
		nb[x->empties][b]++;
		cnt[x->empties]++;
		if (scnt[x->empties] < o->check_max) {
			scnt[x->empties]++;
			todo[n++] = x;
		}
	}
	for (int d = 0; d < o->ncheck; d++) {
		SearchJob job = { todo, n, 0, o->check_depth[d], xcalloc(n + 1, 1) };
		train_run_threads(search_worker, &job, o->threads);
		for (size_t i = 0; i < n; i++)
			serr[d][todo[i]->empties] += fabs(job.score[i] - (double)todo[i]->sum / todo[i]->cnt);
		free(job.score);
	}
	free(todo);
	/* where the error at 20-24 empties comes from: by the size of the
	 * exact score, and the least-squares scale of the evaluation */
	double berr[NB] = { 0 }, bbias[NB] = { 0 }, sxy = 0, sxx = 0, verr[NB] = { 0 }, vbias[NB] = { 0 };
	long bcnt[NB] = { 0 }, vcnt[NB] = { 0 };
	for (size_t i = 0; i < s->cap; i++) {
		Sample *x = &s->slot[i];
		if (!x->cnt || x->exact != LABEL_EXACT || x->empties < 20 || x->empties > 24)
			continue;
		double y = (double)x->sum / x->cnt, v = eval_score(ev, x->p, x->o);
		int b = 0;
		while (b < NB - 1 && fabs(y) >= blo[b + 1])
			b++;
		berr[b] += fabs(v - y);
		bbias[b] += y < 0 ? y - v : v - y;
		bcnt[b]++;
		b = 0;
		while (b < NB - 1 && fabs(v) >= blo[b + 1])
			b++;
		verr[b] += fabs(v - y);
		vbias[b] += v < 0 ? v - y : y - v;
		vcnt[b]++;
		sxy += v * y;
		sxx += v * v;
	}
	double scale = sxx > 0 ? sxy / sxx : 1, serr_scaled = 0;
	long nsc = 0;
	for (size_t i = 0; i < s->cap; i++) {
		Sample *x = &s->slot[i];
		if (!x->cnt || x->exact != LABEL_EXACT || x->empties < 20 || x->empties > 24)
			continue;
		serr_scaled += fabs(scale * eval_score(ev, x->p, x->o) - (double)x->sum / x->cnt);
		nsc++;
	}
	FILE *fs[2] = { stdout, rep };
	for (int k = 0; k < 2; k++) {
		FILE *fo = fs[k];
		if (!fo)
			continue;
		fprintf(fo, "%s set, exact positions at 20-24 empties: static error by |exact score|\n", name);
		for (int b = 0; b < NB; b++)
			fprintf(fo, "  |score| %2d-%-2d %7ld positions  MAE %5.2f  bias %+5.2f\n", blo[b], blo[b + 1] - 1,
			        bcnt[b], bcnt[b] ? berr[b] / bcnt[b] : 0.0, bcnt[b] ? bbias[b] / bcnt[b] : 0.0);
		for (int b = 0; b < NB; b++)
			fprintf(fo, "  |eval|  %2d-%-2d %7ld positions  MAE %5.2f  score beyond eval %+5.2f\n", blo[b],
			        blo[b + 1] - 1, vcnt[b], vcnt[b] ? verr[b] / vcnt[b] : 0.0, vcnt[b] ? vbias[b] / vcnt[b] : 0.0);
		fprintf(fo, "  least-squares scale of the evaluation %.3f; scaled MAE %.2f\n", scale,
		        nsc ? serr_scaled / nsc : 0.0);
	}
	for (int k = 0; k < 2; k++) {
		FILE *fo = fs[k];
		if (!fo)
			continue;
		fprintf(fo, "%s set, exactly labelled positions: mean absolute error by empties (discs)\n", name);
		fprintf(fo, "  empties positions  |score|  static  as at 24");
		for (int d = 0; d < o->ncheck; d++)
			fprintf(fo, "  depth %-2d", o->check_depth[d]);
		fprintf(fo, "%s\n", o->ncheck ? "  (searched)" : "");
		for (int e = LO; e <= HI; e++) {
			if (!cnt[e])
				continue;
			/* the static error with the margins mixed as at 24 empties */
			double rw = 0;
			bool all = cnt[24] > 0;
			for (int b = 0; b < NB && all; b++) {
				all = nb[e][b] > 0 || !nb[24][b];
				if (nb[e][b])
					rw += (double)nb[24][b] / cnt[24] * eb[e][b] / nb[e][b];
			}
			fprintf(fo, "  %7d %9ld %8.1f %7.2f", e, cnt[e], amag[e] / cnt[e], err[e] / cnt[e]);
			if (all)
				fprintf(fo, " %9.2f", rw);
			else
				fprintf(fo, " %9s", "-");
			for (int d = 0; d < o->ncheck; d++)
				fprintf(fo, "  %8.2f", serr[d][e] / scnt[e]);
			fprintf(fo, o->ncheck ? "  %10ld\n" : "\n", scnt[e]);
		}
	}
}

/* ---- the hand-tuned evaluations: measure, and fit their parameters ------ */

/* Square class under the board's 8 symmetries: (min distance to an edge
 * row, to an edge column), sorted. */
static int square_class(int sq, int size)
{
	int r = sq / 8, c = sq % 8;
	int a = r < size - 1 - r ? r : size - 1 - r, b = c < size - 1 - c ? c : size - 1 - c;
	if (a > b) {
		int t = a;
		a = b;
		b = t;
	}
	return a * 4 + b; /* a <= b < 4 */
}

enum { HAND_NF = 17 }; /* 16 class slots + mobility */

static void hand_features(uint64_t p, uint64_t o, int size, double *x)
{
	const uint64_t geo = board_geometry(size);
	memset(x, 0, HAND_NF * sizeof *x);
	for (int sq = 0; sq < 64; sq++) {
		if (!(geo & bit_of(sq)))
			continue;
		int c = square_class(sq, size);
		x[c] += (double)((p >> sq) & 1) - (double)((o >> sq) & 1);
	}
	x[16] = bit_count(board_moves(p, o) & geo) - bit_count(board_moves(o, p) & geo);
}

/* Least squares with a small ridge by Gaussian elimination. */
static void solve_normal(double a[HAND_NF][HAND_NF], double *b, double *w)
{
	int n = HAND_NF;
	for (int i = 0; i < n; i++)
		a[i][i] += 1e-3;
	for (int i = 0; i < n; i++) {
		int piv = i;
		for (int k = i + 1; k < n; k++)
			if (fabs(a[k][i]) > fabs(a[piv][i]))
				piv = k;
		for (int j = 0; j < n; j++) {
			double t = a[i][j];
			a[i][j] = a[piv][j];
			a[piv][j] = t;
		}
		double t = b[i];
		b[i] = b[piv];
		b[piv] = t;
		for (int k = i + 1; k < n; k++) {
			double f = a[k][i] / a[i][i];
			for (int j = i; j < n; j++)
				a[k][j] -= f * a[i][j];
			b[k] -= f * b[i];
		}
	}
	for (int i = n - 1; i >= 0; i--) {
		double s = b[i];
		for (int j = i + 1; j < n; j++)
			s -= a[i][j] * w[j];
		w[i] = s / a[i][i];
	}
}

/* Random positions of random games with lo..hi empties, solved exactly;
 * fit the class values and the mobility weight on half of them, report
 * the mean absolute error of the current hand-tuned evaluation and of the
 * fit on the other half, and print the fitted values (1/8 discs). */
static int fit_hand(int npos, int size, Variant v, int lo, int hi, uint64_t seed)
{
	const uint64_t geo = board_geometry(size);
	const Evaluator *ev = eval_get(size, v);
	EndgameOptions eo = endgame_default_options();
	eo.size = size;
	eo.variant = v;
	if (!(eo.tables = endgame_tables_new()))
		die("out of memory");
	uint64_t rng = mix(seed + 1);
	double (*x)[HAND_NF] = xcalloc((size_t)npos, sizeof *x);
	int *y = xcalloc((size_t)npos, sizeof *y), *cur = xcalloc((size_t)npos, sizeof *cur);
	double t0 = util_now();
	for (int i = 0; i < npos;) {
		Board b = board_start(size);
		int target = lo + (int)((rng = mix(rng)) % (uint64_t)(hi - lo + 1));
		bool ok = true;
		while (bit_count(geo & ~(b.p | b.o)) > target) {
			uint64_t m = board_moves(b.p, b.o) & geo;
			if (!m) {
				if (!(board_moves(b.o, b.p) & geo)) {
					ok = false;
					break;
				}
				b = board_pass(b);
				continue;
			}
			for (int j = (int)((rng = mix(rng)) % (uint64_t)bit_count(m)); j > 0; j--)
				m = bit_pop(m);
			int sq = bit_first(m);
			b = board_apply(b, sq, board_flips(b.p, b.o, sq));
		}
		if (!ok || !(board_moves(b.p, b.o) & geo))
			continue;
		EndgameResult r = endgame_solve(b, &eo);
		y[i] = r.score;
		cur[i] = eval_score(ev, b.p, b.o);
		hand_features(b.p, b.o, size, x[i]);
		i++;
	}
	double a[HAND_NF][HAND_NF] = { { 0 } }, rhs[HAND_NF] = { 0 }, w[HAND_NF] = { 0 };
	int half = npos / 2;
	for (int i = 0; i < half; i++)
		for (int j = 0; j < HAND_NF; j++) {
			rhs[j] += x[i][j] * y[i];
			for (int k = 0; k < HAND_NF; k++)
				a[j][k] += x[i][j] * x[i][k];
		}
	solve_normal(a, rhs, w);
	double e_cur = 0, e_fit = 0, e_zero = 0;
	for (int i = half; i < npos; i++) {
		double s = 0;
		for (int j = 0; j < HAND_NF; j++)
			s += w[j] * x[i][j];
		e_fit += fabs(s - y[i]);
		e_cur += abs(cur[i] - y[i]);
		e_zero += fabs((double)y[i]);
	}
	int m = npos - half;
	printf("%dx%d %s, %d positions with %d-%d empties (solved in %.1f s): MAE on the held-out half: "
	       "built-in evaluation %.2f, fitted square values %.2f, constant 0 %.2f\n", size, size,
	       v == VARIANT_ANTI ? "anti" : "normal", npos, lo, hi, util_now() - t0, e_cur / m,
	       e_fit / m, e_zero / m);
	printf("  square values (1/8 discs), row by row:");
	for (int sq = 0; sq < 64; sq++) {
		if (sq % 8 == 0)
			printf("\n   ");
		int val = (geo & bit_of(sq)) ? (int)lround(8 * w[square_class(sq, size)]) : 0;
		printf(" %d,", val);
	}
	printf("\n  mobility weight (1/8 discs): %ld\n", lround(8 * w[16]));
	free(x);
	free(y);
	free(cur);
	endgame_tables_free(eo.tables);
	return 0;
}

/* The evaluation this one replaced (mobility difference + 4 discs per
 * corner, the pre-pattern placeholder) expressed as a weight file, for
 * strength matches against it: the corner is digit 0 of every corner 3x3
 * instance, the mobility table holds the difference (mobility counts
 * above 19 are clamped, the only deviation). */
static int write_placeholder(const char *path)
{
	size_t n = (size_t)PATTERN_PHASES * PATTERN_WEIGHTS;
	int16_t *w = xcalloc(n, sizeof *w);
	for (int ph = 0; ph < PATTERN_PHASES; ph++) {
		int16_t *x = w + (size_t)ph * PATTERN_WEIGHTS;
		for (uint32_t i = 0; i < patterns_size(1); i++)
			x[patterns_offset(1) + i] = (int16_t)(i % 3 == 1 ? 4 * WEIGHTS_SCALE
			                                      : i % 3 == 2 ? -4 * WEIGHTS_SCALE : 0);
		for (int mp = 0; mp < PATTERN_MOB_SIDE; mp++)
			for (int mo = 0; mo < PATTERN_MOB_SIDE; mo++)
				x[PATTERN_MOB_OFFSET + mp * PATTERN_MOB_SIDE + mo] = (int16_t)((mp - mo) * WEIGHTS_SCALE);
	}
	size_t len;
	char err[WEIGHTS_ERR];
	unsigned char *img = weights_encode(w, patterns_set_id(), PATTERN_PHASES, PATTERN_WEIGHTS, &len);
	if (!img || !weights_write_file(path, img, len, err))
		die(img ? err : "out of memory");
	free(img);
	free(w);
	printf("wrote %s\n", path);
	return 0;
}

/* Evaluations per second over positions of random games; the signature
 * (sum of scores) must be the same on every build. */
static int speed(long n)
{
	const Evaluator *ev = weights_8x8();
	enum { NPOS = 1 << 16 };
	Board *pos = xcalloc(NPOS, sizeof *pos);
	uint64_t rng = 42;
	for (int i = 0; i < NPOS; i++) {
		Board b = board_start(8);
		int plies = 4 + i % 52;
		for (int k = 0; k < plies; k++) {
			uint64_t m = board_moves(b.p, b.o);
			if (!m) {
				if (!board_moves(b.o, b.p))
					break;
				b = board_pass(b);
				continue;
			}
			rng = mix(rng + 1);
			for (int j = (int)(rng % (uint64_t)bit_count(m)); j > 0; j--)
				m = bit_pop(m);
			int sq = bit_first(m);
			b = board_apply(b, sq, board_flips(b.p, b.o, sq));
		}
		pos[i] = b;
	}
	double best = 0, best_cpu = 0;
	int64_t sig = 0;
	for (int rep = 0; rep < 5; rep++) {
		int64_t s = 0;
		double t0 = util_now(), c0 = (double)clock() / CLOCKS_PER_SEC;
		for (long i = 0; i < n; i++)
			s += eval_score_fine(ev, pos[i & (NPOS - 1)].p, pos[i & (NPOS - 1)].o) * (1 + (i & 7));
		double r = (double)n / (util_now() - t0);
		double rc = (double)n / ((double)clock() / CLOCKS_PER_SEC - c0 + 1e-9);
		if (r > best)
			best = r;
		if (rc > best_cpu)
			best_cpu = rc;
		sig = s;
	}
	printf("eval speed: %.2f M evaluations/s wall, %.2f M per CPU second (best of 5 x %ld, "
	       "kernel %s), signature %lld\n", best / 1e6, best_cpu / 1e6, n, board_kernel_name(),
	       (long long)sig);
	free(pos);
	return 0;
}

/* ---- the other games: 8x8 Anti, 6x6, 6x6 Anti ------------------------------
 *
 * The same pipeline as the 8x8 evaluation's on generated games: there
 * are no archives of these games.  --game-train G --games N plays N games
 * (a few random moves, then a shallow search with the hand-tuned
 * evaluation and one random move in eight), keeps every position once
 * under the 8 symmetries (6x6 boards centred on the 8x8 patterns), holds
 * out every eighth game, solves the positions with at most --game-exact
 * empties and labels the later phases by backward induction: the phases
 * are fitted from the end, and a position of phase k is labelled by a
 * search of depth PATTERN_PHASE_WIDTH whose leaves lie in phase k - 1,
 * already fitted.  Deterministic for a seed, whatever the thread count. */

typedef struct GamePos {
	uint64_t p, o;   /* canonical, centred: (p, o) << shift, least of the 8 symmetries */
	int8_t empties, label;
	uint8_t kind;    /* 0: no label yet, LABEL_EXACT, LABEL_SEARCH */
	uint8_t test;
} GamePos;

typedef struct GameJob {
	int size, shift;
	Variant v;
	uint64_t seed;
	int ngames, depth;
	Board **pos;     /* per game: its positions (side to move has a move) */
	int *npos;
	atomic_int next;
	/* labelling */
	GamePos **todo;
	size_t ntodo;
	atomic_size_t next_todo;
	const Evaluator *ev;
} GameJob;

static void *game_play_worker(void *arg)
{
	GameJob *j = arg;
	const uint64_t geo = board_geometry(j->size);
	LabelSearcher se;
	if (!label_searcher_init_game(&se, eval_hand(j->size, j->v), j->size, j->v))
		die("out of memory");
	for (;;) {
		int g = atomic_fetch_add(&j->next, 1);
		if (g >= j->ngames)
			break;
		uint64_t rng = mix(j->seed * 0x9E3779B97F4A7C15ULL + (uint64_t)g + 1);
		int nrandom = 2 + (int)((rng = mix(rng)) % 9), ply = 0, n = 0;
		Board *out = xcalloc(64, sizeof *out);
		Board b = board_start(j->size);
		for (;;) {
			uint64_t m = board_moves(b.p, b.o) & geo;
			if (!m) {
				if (!(board_moves(b.o, b.p) & geo))
					break;
				b = board_pass(b);
				continue;
			}
			out[n++] = b;
			int nm = bit_count(m), pick = (int)((rng = mix(rng)) % (uint64_t)nm);
			if (ply >= nrandom && (rng = mix(rng)) % 8 != 0) {
				/* the best move by a depth-(depth) search, ties to the
				 * first from a random starting point */
				int best = -SEARCH_INF, first = pick;
				for (int k = 0; k < nm; k++) {
					uint64_t mm = m;
					for (int s = (first + k) % nm; s > 0; s--)
						mm = bit_pop(mm);
					int sq = bit_first(mm);
					Board c = board_apply(b, sq, board_flips(b.p, b.o, sq));
					int val = -label_searcher_value(&se, c, j->depth);
					if (val > best) {
						best = val;
						pick = (first + k) % nm;
					}
				}
			}
			for (; pick > 0; pick--)
				m = bit_pop(m);
			int sq = bit_first(m);
			b = board_apply(b, sq, board_flips(b.p, b.o, sq));
			ply++;
		}
		j->pos[g] = out;
		j->npos[g] = n;
	}
	label_searcher_free(&se);
	return NULL;
}

static void *game_label_worker(void *arg)
{
	GameJob *j = arg;
	LabelSearcher se;
	if (!label_searcher_init_game(&se, j->ev, j->size, j->v))
		die("out of memory");
	for (;;) {
		size_t i = atomic_fetch_add(&j->next_todo, 1);
		if (i >= j->ntodo)
			break;
		GamePos *x = j->todo[i];
		Board b = { x->p >> j->shift, x->o >> j->shift };
		x->label = (int8_t)label_value(&se, b, x->kind == LABEL_EXACT ? 0 : j->depth);
	}
	label_searcher_free(&se);
	return NULL;
}

static void game_label(GameJob *j, GamePos **todo, size_t n, int depth, const Evaluator *ev, int threads)
{
	j->todo = todo;
	j->ntodo = n;
	j->next_todo = 0;
	j->depth = depth;
	j->ev = ev;
	train_run_threads(game_label_worker, j, threads);
}

static int game_cmp(const void *a, const void *b)
{
	const GamePos *x = a, *y = b;
	return x->p != y->p ? (x->p < y->p ? -1 : 1) : x->o != y->o ? (x->o < y->o ? -1 : 1) : 0;
}

static int game_train(const Options *o, const char *game, int ngames, int exact_max, long max_search,
                      const char *out)
{
	GameJob j;
	memset(&j, 0, sizeof j);
	if (!strcmp(game, "anti")) {
		j.size = 8;
		j.v = VARIANT_ANTI;
	} else if (!strcmp(game, "6x6") || !strcmp(game, "6x6-anti")) {
		j.size = 6;
		j.v = strcmp(game, "6x6") ? VARIANT_ANTI : VARIANT_NORMAL;
		j.shift = 9;
	} else {
		fprintf(stderr, "emilia-train: --game-train takes anti, 6x6 or 6x6-anti\n");
		return 2;
	}
	const int cells = j.size * j.size, threads = o->threads;
	j.seed = o->seed;
	j.ngames = ngames;
	j.depth = 2;
	j.pos = xcalloc((size_t)ngames, sizeof *j.pos);
	j.npos = xcalloc((size_t)ngames, sizeof *j.npos);
	double t0 = util_now();
	train_run_threads(game_play_worker, &j, threads);
	/* every position, centred and canonical; every 8th game held out */
	size_t total = 0;
	for (int g = 0; g < ngames; g++)
		total += (size_t)j.npos[g];
	GamePos *all = xcalloc(total + 1, sizeof *all);
	size_t n = 0;
	for (int g = 0; g < ngames; g++)
		for (int k = 0; k < j.npos[g]; k++) {
			const Board b = j.pos[g][k];
			const Board c = board_canonical((Board){ b.p << j.shift, b.o << j.shift }, NULL);
			GamePos *x = &all[n++];
			x->p = c.p;
			x->o = c.o;
			x->empties = (int8_t)(cells - bit_count(b.p | b.o));
			x->test = g % 8 == 7;
		}
	/* once each: a board held out only when every game that reaches it is */
	qsort(all, n, sizeof *all, game_cmp);
	size_t u = 0;
	for (size_t i = 0; i < n;) {
		size_t k = i;
		uint8_t test = 1;
		while (k < n && all[k].p == all[i].p && all[k].o == all[i].o)
			test &= all[k++].test;
		all[u] = all[i];
		all[u++].test = test;
		i = k;
	}
	n = u;
	size_t ntest = 0;
	for (size_t i = 0; i < n; i++)
		ntest += all[i].test;
	fprintf(stderr, "%s: %d games, %zu positions (%zu unique, %zu in the held-out games) in %.0f s\n", game,
	        ngames, total, n, ntest, util_now() - t0);
	/* a fixed shuffled order: the first max_search of a phase are searched */
	for (size_t i = n; i > 1; i--) {
		size_t k = (size_t)(mix(o->seed + i) % i);
		GamePos t = all[i - 1];
		all[i - 1] = all[k];
		all[k] = t;
	}
	/* exact labels */
	GamePos **todo = xcalloc(n + 1, sizeof *todo);
	size_t nt = 0;
	for (size_t i = 0; i < n; i++)
		if (all[i].empties <= exact_max) {
			all[i].kind = LABEL_EXACT;
			todo[nt++] = &all[i];
		}
	t0 = util_now();
	game_label(&j, todo, nt, 0, NULL, threads);
	fprintf(stderr, "solved %zu positions with at most %d empties in %.0f s\n", nt, exact_max, util_now() - t0);
	/* the phases from the end, each labelled with the phases before it */
	int16_t *w = xcalloc((size_t)PATTERN_PHASES * PATTERN_WEIGHTS, sizeof *w);
	Fit f;
	fit_init(&f, o);
	for (int ph = 0; ph < PATTERN_PHASES && patterns_phase_lo(ph) <= cells - 4; ph++) {
		const int lo = patterns_phase_lo(ph), hi = patterns_phase_hi(ph);
		Evaluator *ev = eval_new_game(w, j.size, j.v);
		if (!ev)
			die("out of memory");
		long searched[2] = { 0, 0 };
		nt = 0;
		for (size_t i = 0; i < n; i++) {
			GamePos *x = &all[i];
			if (x->empties < lo || x->empties > hi || x->kind)
				continue;
			if (searched[x->test] >= (x->test ? max_search / 8 : max_search))
				continue;
			searched[x->test]++;
			x->kind = LABEL_SEARCH;
			todo[nt++] = x;
		}
		t0 = util_now();
		game_label(&j, todo, nt, PATTERN_PHASE_WIDTH, ev, threads);
		eval_free(ev);
		size_t m = 0;
		for (size_t i = 0; i < n; i++)
			m += all[i].kind && !all[i].test && all[i].empties >= lo && all[i].empties <= hi;
		f.n = m;
		f.feat = xcalloc(m * PATTERN_FEATURES + 1, sizeof *f.feat);
		f.label = xcalloc(m + 1, sizeof *f.label);
		f.sw = xcalloc(m + 1, sizeof *f.sw);
		m = 0;
		for (size_t i = 0; i < n; i++) {
			const GamePos *x = &all[i];
			if (!x->kind || x->test || x->empties < lo || x->empties > hi)
				continue;
			features(x->p, x->o, f.feat + m * PATTERN_FEATURES);
			f.label[m] = x->label;
			f.sw[m++] = 1.0f;
		}
		fprintf(stderr, "phase %d (%d-%d empties): %zu positions, %zu searched in %.0f s\n", ph, lo, hi, m, nt,
		        util_now() - t0);
		fit_phase(o, &f, ph, NULL);
		fit_store(&f, w + (size_t)ph * PATTERN_WEIGHTS);
	}
	if (o->game_dump) {
		/* one line per labelled position: the board as the labels saw it
		 * (p to move, hex), empties, label, e(xact) or s(earch), t(est) or
		 * -; in the fixed shuffled order */
		FILE *d = fopen(o->game_dump, "w");
		if (!d)
			die("cannot write the --game-dump file");
		for (size_t i = 0; i < n; i++)
			if (all[i].kind)
				fprintf(d, "%016llx %016llx %d %d %c %c\n", (unsigned long long)(all[i].p >> j.shift),
				        (unsigned long long)(all[i].o >> j.shift), all[i].empties, all[i].label,
				        all[i].kind == LABEL_EXACT ? 'e' : 's', all[i].test ? 't' : '-');
		if (fclose(d))
			die("cannot write the --game-dump file");
	}
	/* the report: held-out error by empties */
	Evaluator *ev = eval_new_game(w, j.size, j.v);
	if (!ev)
		die("out of memory");
	const Evaluator *hand = eval_hand(j.size, j.v);
	double err[65][2] = { { 0 } }, herr[65][2] = { { 0 } };
	long cnt[65][2] = { { 0 } };
	for (size_t i = 0; i < n; i++) {
		const GamePos *x = &all[i];
		if (!x->test || !x->kind)
			continue;
		int k = x->kind == LABEL_EXACT ? 0 : 1;
		uint64_t p = x->p >> j.shift, q = x->o >> j.shift;
		err[x->empties][k] += fabs((double)eval_score(ev, p, q) - x->label);
		herr[x->empties][k] += fabs((double)eval_score(hand, p, q) - x->label);
		cnt[x->empties][k]++;
	}
	FILE *rep = o->report ? fopen(o->report, "w") : NULL;
	FILE *fs[2] = { stdout, rep };
	for (int k = 0; k < 2; k++) {
		FILE *fo = fs[k];
		if (!fo)
			continue;
		fprintf(fo, "emilia-train --game-train %s: %d games (seed %llu), exact labels up to %d empties, "
		        "backward induction (depth %d) above; every 8th game held out\n", game, ngames,
		        (unsigned long long)o->seed, exact_max, PATTERN_PHASE_WIDTH);
		fprintf(fo, "held-out positions: mean absolute error of the static evaluation (discs)\n");
		fprintf(fo, "  empties  label   positions  trained  hand-tuned\n");
		for (int e = 1; e <= cells - 4; e++)
			for (int kk = 0; kk < 2; kk++)
				if (cnt[e][kk])
					fprintf(fo, "  %7d  %-6s %9ld  %7.2f  %10.2f\n", e, kk ? "search" : "exact", cnt[e][kk],
					        err[e][kk] / cnt[e][kk], herr[e][kk] / cnt[e][kk]);
	}
	if (rep)
		fclose(rep);
	size_t len;
	char msg[WEIGHTS_ERR];
	unsigned char *img = weights_encode(w, eval_set_id(j.size, j.v), PATTERN_PHASES, PATTERN_WEIGHTS, &len);
	if (!img || !weights_write_file(out, img, len, msg))
		die(img ? msg : "out of memory");
	fprintf(stderr, "wrote %s\n", out);
	free(img);
	eval_free(ev);
	fit_free(&f);
	free(w);
	free(todo);
	free(all);
	for (int g = 0; g < ngames; g++)
		free(j.pos[g]);
	free(j.pos);
	free(j.npos);
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
	        "usage: emilia-train --data DIR [--out FILE] [--test Y1-Y2] [--threads N]\n"
	        "                    [--epochs N] [--lr X] [--lambda X] [--seed S] [--fraction F]\n"
	        "                    [--solve EMPTIES] [--max-solve N] [--cache FILE] [--report FILE]\n"
	        "                    [--phases A-B] [--no-mobility] [--no-logbook] [--no-book] [--eval-only WEIGHTS]\n"
	        "                    [--exact-weight W] [--results-after] [--min-positions N]\n"
	        "                    [--mobility-phases LAST] [--init WEIGHTS (phases not in --phases)]\n"
	        "                    [--solve-mid LO-HI --max-solve-mid N]\n"
	        "                    [--search-mid LO-HI --max-search N] [--expand LO-HI --max-expand N]\n"
	        "                    [--expand-exact (the solver labels them)]\n"
	        "                    [--phase-overlap K (each phase also fitted on K empties on each side)]\n"
	        "                    [--search-depth D] [--search-cache FILE] [--search-eval WEIGHTS]\n"
	        "                    [--search-weight W] [--search-check] [--prior WEIGHTS --prior-lambda X]\n"
	        "                    [--labels DIR (exact labels from --make-labels)] [--drop-after LO-HI]\n"
	        "                    [--selfplay DIR (sp-KKK.gam.gz games of tools/eval-selfplay.sh)]\n"
	        "                    [--selfplay-weight W (their positions' weight, default 1)]\n"
	        "                    [--huber D (Huber loss: residuals beyond D discs count linearly)]\n"
	        "                    [--check-depths D1,D2 [--check-max N]] (searched error by empties)\n"
	        "                    [--game-dump FILE (the labelled positions, before the fit)]\n"
	        "       emilia-train --data DIR --make-labels OUTDIR --label-empties LO-HI [--threads N]\n"
	        "                    [--label-years Y1-Y2] [--label-except Y1-Y2] [--label-stride K]\n"
	        "                    [--label-sources wthor,book,logbook,selfplay] [--time-limit SECONDS]\n"
	        "                    [--label-depth D [--label-eval WEIGHTS]] (search labels)\n"
	        "                    (solve the game positions with LO-HI empties; resumable)\n"
	        "       emilia-train --speed N   (evaluations per second)\n"
	        "       emilia-train --write-placeholder FILE   (the previous evaluation as weights)\n"
	        "       emilia-train --fit-hand N   (fit and measure the hand-tuned 6x6 and Anti evaluations)\n"
	        "       emilia-train --game-train anti|6x6|6x6-anti --out FILE [--games N] [--game-exact E]\n"
	        "                    [--game-max-search N] [--seed S] [--threads N] [--epochs N] [--report FILE]\n"
	        "                    [--game-dump FILE (the labelled positions)]\n"
	        "                    (the pattern evaluation of another game, on generated games)\n"
	        "DIR holds wthor/WTH_*.wtb, Logistello_book_1999.wtb and logbook.gam.gz.\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--version"))
		return text_print_version("emilia-train");
	Options o = { 0 };
	o.out = "data/eval.bin";
	o.test_lo = 2015;
	o.test_hi = 2017;
	LabelJob lj = { 0 };
	lj.stride = 1;
	lj.threads = 2;
	const char *labels_dir = NULL;
	o.threads = 2;
	o.epochs = 150;
	o.lr = 0.3;
	o.lambda = 1.0;
	o.fraction = 1.0;
	o.exact_weight = 5.0;
	o.selfplay_weight = 1.0;
	o.search_weight = 1.0;
	o.min_positions = 300000;
	o.mob_max_phase = 50 / PATTERN_PHASE_WIDTH - 1;
	o.theory_after = true;
	o.max_solve = 1000000;
	o.check_max = 1000;
	o.ph_hi = PATTERN_PHASES - 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		long l;
		int lr;
		if (!strcmp(a, "--speed") && v && util_parse_int(v, 1, 1000000000, &l))
			return speed(l);
		if (!strcmp(a, "--write-placeholder") && v)
			return write_placeholder(v);
		if (!strcmp(a, "--fit-hand") && v && util_parse_int(v, 100, 10000000, &l)) {
			fit_hand((int)l, 6, VARIANT_NORMAL, 6, 18, 1);
			fit_hand((int)l, 6, VARIANT_ANTI, 6, 18, 2);
			fit_hand((int)l, 8, VARIANT_ANTI, 8, 14, 3);
			return 0;
		}
		if (!strcmp(a, "--search-check"))
			o.search_check = true;
		else if (!strcmp(a, "--expand-exact"))
			o.expand_exact = true;
		else if (!strcmp(a, "--no-mobility"))
			o.no_mobility = true;
		else if (!strcmp(a, "--no-logbook"))
			o.no_logbook = true;
		else if (!strcmp(a, "--results-after"))
			o.theory_after = false;
		else if (!strcmp(a, "--no-book"))
			o.no_book = true;
		else if (!v)
			return usage();
		else if (i++, !strcmp(a, "--data"))
			o.data = v;
		else if (!strcmp(a, "--out"))
			o.out = v;
		else if (!strcmp(a, "--cache"))
			o.cache = v;
		else if (!strcmp(a, "--report"))
			o.report = v;
		else if (!strcmp(a, "--check-depths")) {
			char *end;
			const char *q = v;
			o.ncheck = 0;
			while (o.ncheck < 4) {
				long d = strtol(q, &end, 10);
				if (end == q || d < 1 || d > 20)
					return usage();
				o.check_depth[o.ncheck++] = (int)d;
				if (*end != ',')
					break;
				q = end + 1;
			}
		} else if (!strcmp(a, "--check-max") && util_parse_int(v, 1, 100000000, &l))
			o.check_max = l;
		else if (!strcmp(a, "--drop-after")) {
			if (sscanf(v, "%d-%d", &o.drop_lo, &o.drop_hi) != 2 || o.drop_lo < 0 || o.drop_lo > o.drop_hi)
				return usage();
		} else if (!strcmp(a, "--labels"))
			labels_dir = v;
		else if (!strcmp(a, "--selfplay"))
			games_set_selfplay(v);
		else if (!strcmp(a, "--selfplay-weight"))
			o.selfplay_weight = atof(v);
		else if (!strcmp(a, "--huber"))
			o.huber = atof(v);
		else if (!strcmp(a, "--game-train"))
			o.game_train = v;
		else if (!strcmp(a, "--phase-overlap") && util_parse_int(v, 0, 30, &l))
			o.phase_overlap = (int)l;
		else if (!strcmp(a, "--game-dump"))
			o.game_dump = v;
		else if (!strcmp(a, "--games") && util_parse_int(v, 8, 10000000, &l))
			o.games = (int)l;
		else if (!strcmp(a, "--game-exact") && util_parse_int(v, 0, 30, &l))
			o.game_exact = (int)l;
		else if (!strcmp(a, "--game-max-search") && util_parse_int(v, 0, 100000000, &l))
			o.game_max_search = l;
		else if (!strcmp(a, "--make-labels"))
			lj.out = v;
		else if ((lr = labels_job_option(&lj, a, v)) != 0) {
			if (lr < 0)
				return usage();
		}
		else if (!strcmp(a, "--time-limit"))
			lj.time_limit = atof(v);
		else if (!strcmp(a, "--eval-only"))
			o.eval_only = v;
		else if (!strcmp(a, "--phases")) {
			if (sscanf(v, "%d-%d", &o.ph_lo, &o.ph_hi) != 2 || o.ph_lo < 0 || o.ph_hi >= PATTERN_PHASES
			    || o.ph_lo > o.ph_hi)
				return usage();
		} else if (!strcmp(a, "--expand")) {
			if (sscanf(v, "%d-%d", &o.expand_lo, &o.expand_hi) != 2 || o.expand_lo < 1
			    || o.expand_hi > 59 || o.expand_lo > o.expand_hi)
				return usage();
		} else if (!strcmp(a, "--max-expand") && util_parse_int(v, 0, 100000000, &l))
			o.max_expand = (int)l;
		else if (!strcmp(a, "--search-mid")) {
			if (sscanf(v, "%d-%d", &o.search_lo, &o.search_hi) != 2 || o.search_lo < 1
			    || o.search_hi > 60 || o.search_lo > o.search_hi)
				return usage();
		} else if (!strcmp(a, "--search-depth") && util_parse_int(v, 0, 30, &l))
			o.search_depth = (int)l;
		else if (!strcmp(a, "--max-search") && util_parse_int(v, 0, 100000000, &l))
			o.max_search = (int)l;
		else if (!strcmp(a, "--search-cache"))
			o.search_cache = v;
		else if (!strcmp(a, "--prior"))
			o.prior_file = v;
		else if (!strcmp(a, "--prior-lambda"))
			o.prior_lambda = atof(v);
		else if (!strcmp(a, "--search-eval"))
			o.search_eval = v;
		else if (!strcmp(a, "--search-weight"))
			o.search_weight = atof(v);
		else if (!strcmp(a, "--solve-mid")) {
			if (sscanf(v, "%d-%d", &o.mid_lo, &o.mid_hi) != 2 || o.mid_lo < 1 || o.mid_hi > 40
			    || o.mid_lo > o.mid_hi)
				return usage();
		} else if (!strcmp(a, "--test")) {
			if (sscanf(v, "%d-%d", &o.test_lo, &o.test_hi) != 2)
				return usage();
		} else if (!strcmp(a, "--threads") && util_parse_int(v, 1, 64, &l))
			o.threads = (int)l;
		else if (!strcmp(a, "--epochs") && util_parse_int(v, 1, 100000, &l))
			o.epochs = (int)l;
		else if (!strcmp(a, "--solve") && util_parse_int(v, 0, 30, &l))
			o.solve = (int)l;
		else if (!strcmp(a, "--mobility-phases") && util_parse_int(v, -1, PATTERN_PHASES - 1, &l))
			o.mob_max_phase = (int)l;
		else if (!strcmp(a, "--init"))
			o.init = v;
		else if (!strcmp(a, "--min-positions") && util_parse_int(v, 0, 100000000, &l))
			o.min_positions = (int)l;
		else if (!strcmp(a, "--max-solve-mid") && util_parse_int(v, 0, 100000000, &l))
			o.max_mid = (int)l;
		else if (!strcmp(a, "--max-solve") && util_parse_int(v, 0, 100000000, &l))
			o.max_solve = (int)l;
		else if (!strcmp(a, "--seed"))
			o.seed = strtoull(v, NULL, 10);
		else if (!strcmp(a, "--lr"))
			o.lr = atof(v);
		else if (!strcmp(a, "--lambda"))
			o.lambda = atof(v);
		else if (!strcmp(a, "--exact-weight"))
			o.exact_weight = atof(v);
		else if (!strcmp(a, "--fraction"))
			o.fraction = atof(v);
		else {
			fprintf(stderr, "emilia-train: bad argument %s %s\n", a, v);
			return usage();
		}
	}
	if (o.game_train) {
		build_canon_map();
		return game_train(&o, o.game_train, o.games ? o.games : 20000, o.game_exact ? o.game_exact : 16,
		                  o.game_max_search ? o.game_max_search : 60000, o.out);
	}
	if (!o.data)
		return usage();
	if (lj.out) {
		if (!lj.lo)
			return usage();
		lj.data = o.data;
		lj.threads = o.threads;
		return labels_make(&lj);
	}
	Labels *labels = NULL;
	if (labels_dir) {
		if (!(labels = labels_load(labels_dir)))
			return 1;
		fprintf(stderr, "labels: %ld exact labels and %ld search labels (%s) from %s\n",
		        labels_count(labels, false), labels_count(labels, true),
		        labels_search_method(labels)[0] ? labels_search_method(labels) : "none", labels_dir);
		o.labels = labels;
	}
	if (o.prior_file) {
		char perr[WEIGHTS_ERR];
		size_t plen;
		unsigned char *img = weights_read_file(o.prior_file, 64u << 20, &plen, perr);
		o.prior = xcalloc((size_t)PATTERN_PHASES * PATTERN_WEIGHTS, sizeof *o.prior);
		if (!img || !weights_decode(img, plen, patterns_set_id(), PATTERN_PHASES, PATTERN_WEIGHTS,
		                            o.prior, perr))
			die(perr);
		free(img);
	}
	double t0 = util_now();
	build_canon_map();
	Set train_set = { 0, 0, 0 }, test_set = { 0, 0, 0 };
	set_grow(&train_set);
	set_grow(&test_set);
	read_all(&o, &train_set, &test_set);
	fprintf(stderr, "read in %.0f s\n", util_now() - t0);
	char err[WEIGHTS_ERR];
	solve_labels(&o, &test_set, 1, o.solve, (size_t)o.max_solve);
	if (o.eval_only) {
		Evaluator *ev = eval_load(o.eval_only, err);
		if (!ev)
			die(err);
		use_weights(ev);
	} else {
		solve_labels(&o, &train_set, 1, o.solve, (size_t)o.max_solve);
		solve_labels(&o, &train_set, o.mid_lo, o.mid_hi, (size_t)o.max_mid);
		search_labels(&o, &train_set);
		expand(&o, &train_set, &test_set);
		if (o.game_dump)
			dump_sets(o.game_dump, &train_set, &test_set);
		if (o.search_check)
			search_check(&o, &test_set, 24, 24);
		int16_t *w = xcalloc((size_t)PATTERN_PHASES * PATTERN_WEIGHTS, sizeof *w);
		if (o.init) {
			size_t ilen;
			unsigned char *img = weights_read_file(o.init, 64u << 20, &ilen, err);
			if (!img || !weights_decode(img, ilen, patterns_set_id(), PATTERN_PHASES, PATTERN_WEIGHTS,
			                            w, err))
				die(err);
			free(img);
		}
		train(&o, &train_set, w);
		size_t len;
		unsigned char *img = weights_encode(w, patterns_set_id(), PATTERN_PHASES, PATTERN_WEIGHTS, &len);
		if (!img)
			die("out of memory");
		if (!weights_write_file(o.out, img, len, err))
			die(err);
		fprintf(stderr, "wrote %s (%zu bytes) after %.0f s\n", o.out, len, util_now() - t0);
		free(img);
		use_weights(eval_new(w));
		free(w);
	}
	FILE *rep = o.report ? fopen(o.report, "w") : NULL;
	if (rep)
		fprintf(rep, "emilia-train: epochs %d lr %g lambda %g fraction %g seed %llu mobility %s "
		        "test years %d-%d\n", o.epochs, o.lr, o.lambda, o.fraction,
		        (unsigned long long)o.seed, o.no_mobility ? "off" : "on", o.test_lo, o.test_hi);
	report("train", &train_set, rep);
	report("test", &test_set, rep);
	report_empties(&o, "test", &test_set, rep);
	if (rep)
		fclose(rep);
	fprintf(stderr, "total %.0f s\n", util_now() - t0);
	free(train_set.slot);
	free(test_set.slot);
	labels_free(labels);
	return 0;
}
