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
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "eval.h"
#include "patterns.h"
#include "text.h"
#include "util.h"
#include "weights.h"
#include "train.h"
#include "version.h"

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
	        "       emilia-train --widen OLD NEW   (a version 2 weight file in this version's layout)\n"
	        "       emilia-train --write-placeholder FILE   (the previous evaluation as weights)\n"
	        "       emilia-train --fit-hand N   (fit and measure the hand-tuned 6x6 and Anti evaluations)\n"
	        "       emilia-train --game-train anti|6x6|6x6-anti --out FILE [--games N] [--game-exact E]\n"
	        "                    [--game-max-search N] [--seed S] [--threads N] [--epochs N] [--report FILE]\n"
	        "                    [--game-dump FILE (the labelled positions)]\n"
	        "                    (the pattern evaluation of another game, on generated games)\n"
	        "DIR holds wthor/WTH_*.wtb, Logistello_book_1999.wtb and logbook.gam.gz.\n");
	return 2;
}

/* The options that take a value, and where it goes: a string, or a number
 * in [lo, hi] (else "bad argument"). */
enum { ARG_STR, ARG_INT, ARG_LONG, ARG_DOUBLE, ARG_U64 };
typedef struct Arg {
	const char *name;
	int kind;
	void *to;
	long lo, hi;
	bool ordered;
} Arg;

/* The options that take a range LO-HI: LO >= lo, HI <= hi and, when
 * ordered, LO <= HI (else the usage). */
typedef struct Range {
	const char *name;
	int *lo_to, *hi_to;
	int lo, hi;
	bool ordered;
} Range;

/* The options without a value: the flag they set to `value`. */
typedef struct Flag {
	const char *name;
	bool *to, value;
} Flag;

/* Sets the option `name` from v: 1 done, 0 no such option, -1 a bad value
 * (reported with the usage). */
static int set_arg(const Arg *args, size_t n, const char *name, const char *v)
{
	for (size_t i = 0; i < n; i++) {
		const Arg *a = &args[i];
		if (strcmp(name, a->name))
			continue;
		long l;
		switch (a->kind) {
		case ARG_STR:
			*(const char **)a->to = v;
			return 1;
		case ARG_INT:
		case ARG_LONG:
			if (!util_parse_int(v, a->lo, a->hi, &l))
				return -1;
			if (a->kind == ARG_INT)
				*(int *)a->to = (int)l;
			else
				*(long *)a->to = l;
			return 1;
		case ARG_DOUBLE:
			*(double *)a->to = atof(v);
			return 1;
		default:
			*(uint64_t *)a->to = strtoull(v, NULL, 10);
			return 1;
		}
	}
	return 0;
}

/* Sets the range option `name` from v: 1 done, 0 no such option, -2 a bad
 * range (the usage alone). */
static int set_range(const Range *ranges, size_t n, const char *name, const char *v)
{
	for (size_t i = 0; i < n; i++) {
		const Range *r = &ranges[i];
		if (strcmp(name, r->name))
			continue;
		if (sscanf(v, "%d-%d", r->lo_to, r->hi_to) != 2 || *r->lo_to < r->lo || *r->hi_to > r->hi ||
		    (r->ordered && *r->lo_to > *r->hi_to))
			return -2;
		return 1;
	}
	return 0;
}

/* --check-depths D1,D2,...: at most 4 depths of 1 to 20. */
static bool set_check_depths(Options *o, const char *v)
{
	char *end;
	const char *q = v;
	o->ncheck = 0;
	while (o->ncheck < 4) {
		long d = strtol(q, &end, 10);
		if (end == q || d < 1 || d > 20)
			return false;
		o->check_depth[o->ncheck++] = (int)d;
		if (*end != ',')
			break;
		q = end + 1;
	}
	return true;
}

static void set_defaults(Options *o, LabelJob *lj)
{
	memset(o, 0, sizeof *o);
	o->out = "data/eval.bin";
	o->test_lo = 2015;
	o->test_hi = 2017;
	memset(lj, 0, sizeof *lj);
	lj->stride = 1;
	lj->threads = 2;
	o->threads = 2;
	o->epochs = 150;
	o->lr = 0.3;
	o->lambda = 1.0;
	o->fraction = 1.0;
	o->exact_weight = 5.0;
	o->selfplay_weight = 1.0;
	o->search_weight = 1.0;
	o->min_positions = 300000;
	o->mob_max_phase = 50 / PATTERN_PHASE_WIDTH - 1;
	o->theory_after = true;
	o->max_solve = 1000000;
	o->check_max = 1000;
	o->ph_hi = PATTERN_PHASES - 1;
}

/* --widen OLD NEW: a weight file of version 2 (11 patterns) of any game
 * in this version's layout, the new patterns' weights zero, so that it
 * evaluates every position as before. */
static int widen(const char *in, const char *out)
{
	static const struct { int size; Variant v; } games[] = {
		{ 8, VARIANT_NORMAL }, { 8, VARIANT_ANTI }, { 6, VARIANT_NORMAL }, { 6, VARIANT_ANTI },
	};
	char err[WEIGHTS_ERR];
	size_t len;
	unsigned char *img = weights_read_file(in, 64u << 20, &len, err);
	if (!img) {
		fprintf(stderr, "emilia-train: %s\n", err);
		return 1;
	}
	int16_t *old = xcalloc((size_t)PATTERN_PHASES * PATTERN_V2_WEIGHTS, sizeof *old);
	size_t g = 0;
	for (; g < sizeof games / sizeof games[0]; g++) {
		/* a game's id is the set's id with the game's tag */
		const uint32_t id = eval_set_id(games[g].size, games[g].v) ^ patterns_set_id() ^ patterns_v2_set_id();
		if (weights_decode_version(img, len, 2, id, PATTERN_PHASES, PATTERN_V2_WEIGHTS, old, err))
			break;
	}
	free(img);
	if (g == sizeof games / sizeof games[0]) {
		fprintf(stderr, "emilia-train: %s: %s\n", in, err);
		free(old);
		return 1;
	}
	int16_t *w = xcalloc((size_t)PATTERN_PHASES * PATTERN_WEIGHTS, sizeof *w);
	for (int ph = 0; ph < PATTERN_PHASES; ph++) {
		const int16_t *src = old + (size_t)ph * PATTERN_V2_WEIGHTS;
		int16_t *dst = w + (size_t)ph * PATTERN_WEIGHTS;
		memcpy(dst, src, sizeof *dst * PATTERN_V2_MOB_OFFSET);
		memcpy(dst + PATTERN_MOB_OFFSET, src + PATTERN_V2_MOB_OFFSET,
		       sizeof *dst * (PATTERN_WEIGHTS - PATTERN_MOB_OFFSET));
	}
	img = weights_encode(w, eval_set_id(games[g].size, games[g].v), PATTERN_PHASES, PATTERN_WEIGHTS, &len);
	const bool ok = img && weights_write_file(out, img, len, err);
	if (!ok)
		fprintf(stderr, "emilia-train: %s\n", img ? err : "out of memory");
	free(img);
	free(old);
	free(w);
	return ok ? 0 : 1;
}

/* The command line into o, lj and *labels_dir: -1 when the run goes on,
 * else the exit status (the usage, or a command that ran: --speed,
 * --write-placeholder, --fit-hand). */
static int parse_args(int argc, char **argv, Options *o, LabelJob *lj, const char **labels_dir)
{
	const Flag flags[] = {
		{ "--search-check", &o->search_check, true }, { "--expand-exact", &o->expand_exact, true },
		{ "--no-mobility", &o->no_mobility, true },   { "--no-logbook", &o->no_logbook, true },
		{ "--results-after", &o->theory_after, false }, { "--no-book", &o->no_book, true },
	};
	const Arg args[] = {
		{ "--data", ARG_STR, &o->data, 0, 0, false },
		{ "--out", ARG_STR, &o->out, 0, 0, false },
		{ "--cache", ARG_STR, &o->cache, 0, 0, false },
		{ "--report", ARG_STR, &o->report, 0, 0, false },
		{ "--check-max", ARG_LONG, &o->check_max, 1, 100000000, false },
		{ "--labels", ARG_STR, labels_dir, 0, 0, false },
		{ "--selfplay-weight", ARG_DOUBLE, &o->selfplay_weight, 0, 0, false },
		{ "--huber", ARG_DOUBLE, &o->huber, 0, 0, false },
		{ "--game-train", ARG_STR, &o->game_train, 0, 0, false },
		{ "--phase-overlap", ARG_INT, &o->phase_overlap, 0, 30, false },
		{ "--game-dump", ARG_STR, &o->game_dump, 0, 0, false },
		{ "--games", ARG_INT, &o->games, 8, 10000000, false },
		{ "--game-exact", ARG_INT, &o->game_exact, 0, 30, false },
		{ "--game-max-search", ARG_LONG, &o->game_max_search, 0, 100000000, false },
		{ "--make-labels", ARG_STR, &lj->out, 0, 0, false },
		{ "--time-limit", ARG_DOUBLE, &lj->time_limit, 0, 0, false },
		{ "--eval-only", ARG_STR, &o->eval_only, 0, 0, false },
		{ "--max-expand", ARG_INT, &o->max_expand, 0, 100000000, false },
		{ "--search-depth", ARG_INT, &o->search_depth, 0, 30, false },
		{ "--max-search", ARG_INT, &o->max_search, 0, 100000000, false },
		{ "--search-cache", ARG_STR, &o->search_cache, 0, 0, false },
		{ "--prior", ARG_STR, &o->prior_file, 0, 0, false },
		{ "--prior-lambda", ARG_DOUBLE, &o->prior_lambda, 0, 0, false },
		{ "--search-eval", ARG_STR, &o->search_eval, 0, 0, false },
		{ "--search-weight", ARG_DOUBLE, &o->search_weight, 0, 0, false },
		{ "--threads", ARG_INT, &o->threads, 1, 64, false },
		{ "--epochs", ARG_INT, &o->epochs, 1, 100000, false },
		{ "--solve", ARG_INT, &o->solve, 0, 30, false },
		{ "--mobility-phases", ARG_INT, &o->mob_max_phase, -1, PATTERN_PHASES - 1, false },
		{ "--init", ARG_STR, &o->init, 0, 0, false },
		{ "--min-positions", ARG_INT, &o->min_positions, 0, 100000000, false },
		{ "--max-solve-mid", ARG_INT, &o->max_mid, 0, 100000000, false },
		{ "--max-solve", ARG_INT, &o->max_solve, 0, 100000000, false },
		{ "--seed", ARG_U64, &o->seed, 0, 0, false },
		{ "--lr", ARG_DOUBLE, &o->lr, 0, 0, false },
		{ "--lambda", ARG_DOUBLE, &o->lambda, 0, 0, false },
		{ "--exact-weight", ARG_DOUBLE, &o->exact_weight, 0, 0, false },
		{ "--fraction", ARG_DOUBLE, &o->fraction, 0, 0, false },
	};
	const Range ranges[] = {
		{ "--drop-after", &o->drop_lo, &o->drop_hi, 0, INT_MAX, true },
		{ "--phases", &o->ph_lo, &o->ph_hi, 0, PATTERN_PHASES - 1, true },
		{ "--expand", &o->expand_lo, &o->expand_hi, 1, 59, true },
		{ "--search-mid", &o->search_lo, &o->search_hi, 1, 60, true },
		{ "--solve-mid", &o->mid_lo, &o->mid_hi, 1, 40, true },
		{ "--test", &o->test_lo, &o->test_hi, INT_MIN, INT_MAX, false },
	};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		long l;
		if (!strcmp(a, "--speed") && v && util_parse_int(v, 1, 1000000000, &l))
			return speed(l);
		if (!strcmp(a, "--widen") && v && i + 2 < argc)
			return widen(v, argv[i + 2]);
		if (!strcmp(a, "--write-placeholder") && v)
			return write_placeholder(v);
		if (!strcmp(a, "--fit-hand") && v && util_parse_int(v, 100, 10000000, &l)) {
			fit_hand((int)l, 6, VARIANT_NORMAL, 6, 18, 1);
			fit_hand((int)l, 6, VARIANT_ANTI, 6, 18, 2);
			fit_hand((int)l, 8, VARIANT_ANTI, 8, 14, 3);
			return 0;
		}
		size_t f = 0;
		while (f < sizeof flags / sizeof flags[0] && strcmp(a, flags[f].name))
			f++;
		if (f < sizeof flags / sizeof flags[0]) {
			*flags[f].to = flags[f].value;
			continue;
		}
		if (!v)
			return usage();
		i++;
		int r = set_arg(args, sizeof args / sizeof args[0], a, v);
		if (r == 0)
			r = set_range(ranges, sizeof ranges / sizeof ranges[0], a, v);
		if (r == 0 && !strcmp(a, "--check-depths"))
			r = set_check_depths(o, v) ? 1 : -2;
		else if (r == 0 && !strcmp(a, "--selfplay"))
			games_set_selfplay(v), r = 1;
		else if (r == 0 && (r = labels_job_option(lj, a, v)) < 0)
			r = -2;
		if (r == -2)
			return usage();
		if (r <= 0) {
			fprintf(stderr, "emilia-train: bad argument %s %s\n", a, v);
			return usage();
		}
	}
	return -1;
}

/* The 8x8 evaluation: read the games, label, fit (or --eval-only), report. */
static int train_8x8(Options *o, const char *labels_dir)
{
	Labels *labels = NULL;
	if (labels_dir) {
		if (!(labels = labels_load(labels_dir)))
			return 1;
		fprintf(stderr, "labels: %ld exact labels and %ld search labels (%s) from %s\n",
		        labels_count(labels, false), labels_count(labels, true),
		        labels_search_method(labels)[0] ? labels_search_method(labels) : "none", labels_dir);
		o->labels = labels;
	}
	if (o->prior_file) {
		char perr[WEIGHTS_ERR];
		size_t plen;
		unsigned char *img = weights_read_file(o->prior_file, 64u << 20, &plen, perr);
		o->prior = xcalloc((size_t)PATTERN_PHASES * PATTERN_WEIGHTS, sizeof *o->prior);
		if (!img || !weights_decode(img, plen, patterns_set_id(), PATTERN_PHASES, PATTERN_WEIGHTS,
		                            o->prior, perr))
			die(perr);
		free(img);
	}
	double t0 = util_now();
	build_canon_map();
	Set train_set = { 0, 0, 0 }, test_set = { 0, 0, 0 };
	set_grow(&train_set);
	set_grow(&test_set);
	read_all(o, &train_set, &test_set);
	fprintf(stderr, "read in %.0f s\n", util_now() - t0);
	char err[WEIGHTS_ERR];
	solve_labels(o, &test_set, 1, o->solve, (size_t)o->max_solve);
	if (o->eval_only) {
		Evaluator *ev = eval_load(o->eval_only, err);
		if (!ev)
			die(err);
		use_weights(ev);
	} else {
		solve_labels(o, &train_set, 1, o->solve, (size_t)o->max_solve);
		solve_labels(o, &train_set, o->mid_lo, o->mid_hi, (size_t)o->max_mid);
		search_labels(o, &train_set);
		expand(o, &train_set, &test_set);
		if (o->game_dump)
			dump_sets(o->game_dump, &train_set, &test_set);
		if (o->search_check)
			search_check(o, &test_set, 24, 24);
		int16_t *w = xcalloc((size_t)PATTERN_PHASES * PATTERN_WEIGHTS, sizeof *w);
		if (o->init) {
			size_t ilen;
			unsigned char *img = weights_read_file(o->init, 64u << 20, &ilen, err);
			if (!img || !weights_decode(img, ilen, patterns_set_id(), PATTERN_PHASES, PATTERN_WEIGHTS,
			                            w, err))
				die(err);
			free(img);
		}
		train(o, &train_set, w);
		size_t len;
		unsigned char *img = weights_encode(w, patterns_set_id(), PATTERN_PHASES, PATTERN_WEIGHTS, &len);
		if (!img)
			die("out of memory");
		if (!weights_write_file(o->out, img, len, err))
			die(err);
		fprintf(stderr, "wrote %s (%zu bytes) after %.0f s\n", o->out, len, util_now() - t0);
		free(img);
		use_weights(eval_new(w));
		free(w);
	}
	FILE *rep = o->report ? fopen(o->report, "w") : NULL;
	if (rep)
		fprintf(rep, "emilia-train: epochs %d lr %g lambda %g fraction %g seed %llu mobility %s "
		        "test years %d-%d\n", o->epochs, o->lr, o->lambda, o->fraction,
		        (unsigned long long)o->seed, o->no_mobility ? "off" : "on", o->test_lo, o->test_hi);
	report("train", &train_set, rep);
	report("test", &test_set, rep);
	report_empties(o, "test", &test_set, rep);
	if (rep)
		fclose(rep);
	fprintf(stderr, "total %.0f s\n", util_now() - t0);
	free(train_set.slot);
	free(test_set.slot);
	labels_free(labels);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--version"))
		return version_print("emilia-train");
	Options o;
	LabelJob lj;
	const char *labels_dir = NULL;
	set_defaults(&o, &lj);
	const int r = parse_args(argc, argv, &o, &lj, &labels_dir);
	if (r >= 0)
		return r;
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
	return train_8x8(&o, labels_dir);
}
