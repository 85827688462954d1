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
#include <stdlib.h>
#include <string.h>
#include "patterns.h"
#include "text.h"
#include "util.h"
#include "weights.h"
#include "train.h"

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
