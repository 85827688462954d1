/*
 * train.h - what the files of emilia-train share (its pipeline is described
 * at the top of emilia-train.c): the samples and their sets, the options,
 * the fit, and each file's functions.
 *   train_samples.c  the sample sets, the games read into them, helpers
 *   train_label.c    labels from the solver and from engine searches
 *   train_fit.c      the fit of the pattern weights
 *   train_report.c   the error reports
 *   train_hand.c     the hand-tuned evaluations, --speed, --write-placeholder
 *   train_games.c    the other games' evaluations from generated games
 *   emilia-train.c   the command line
 */
#ifndef EMILIA_TRAIN_H
#define EMILIA_TRAIN_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "eval.h"
#include "game.h"
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

/* A search-labelling job (train_label.c's search_worker). */
typedef struct SearchJob {
	Sample **todo;
	size_t n;
	_Atomic size_t next;
	int depth;
	int8_t *score;
} SearchJob;

static inline uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xFF51AFD7ED558CCDULL;
	x ^= x >> 33;
	x *= 0xC4CEB9FE1A85EC53ULL;
	x ^= x >> 33;
	return x;
}

/* train_samples.c */
extern Evaluator *run_weights;   /* the weights of this run's searches and reports (use_weights) */
_Noreturn void die(const char *msg);
void use_weights(Evaluator *ev);
const Evaluator *weights_8x8(void);
void *xcalloc(size_t n, size_t s);
Sample *set_find(Set *s, uint64_t p, uint64_t o);
void set_grow(Set *s);
Sample *set_add_kind(Set *s, Board b, int empties, int label, int kind);
Sample *set_add(Set *s, Board b, int empties, int label, bool exact);
bool set_has(const Set *s, uint64_t p, uint64_t o);
/* Run fn(arg) on `threads` threads (at most 64, the --threads bound) and
 * wait for all of them. */
void train_run_threads(void *(*fn)(void *), void *arg, int threads);
void read_all(const Options *o, Set *train, Set *test);

/* train_label.c */
void solve_labels(const Options *o, Set *s, int lo, int hi, size_t max);
void *search_worker(void *arg);
void search_labels(const Options *o, Set *s);
void expand(const Options *o, Set *train_set, const Set *test_set);
void search_check(const Options *o, Set *s, int lo, int hi);

/* train_fit.c */
void build_canon_map(void);
void fit_phase(const Options *o, Fit *f, int ph, const float *prior);
void features(uint64_t p, uint64_t o, uint32_t *x);
void fit_init(Fit *f, const Options *o);
void fit_free(Fit *f);
void fit_store(Fit *f, int16_t *w);
void dump_sets(const char *path, const Set *train_set, const Set *test_set);
void train(const Options *o, Set *s, int16_t *out);

/* train_report.c */
/* Prints to stdout and, when rep is not NULL, to rep too: the reports. */
void say(FILE *rep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void report(const char *name, const Set *s, FILE *rep);
void report_empties(const Options *o, const char *name, Set *s, FILE *rep);

/* train_hand.c */
int fit_hand(int npos, int size, Variant v, int lo, int hi, uint64_t seed);
int write_placeholder(const char *path);
int speed(long n);

/* train_games.c */
int game_train(const Options *o, const char *game, int ngames, int exact_max, long max_search, const char *out);

#endif
