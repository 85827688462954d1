/*
 * train_hand.c - emilia-train's hand-tuned evaluations: their fit and measure
 * (--fit-hand), --speed and --write-placeholder (train.h lists the
 * trainer's files).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "patterns.h"
#include "endgame.h"
#include "linsolve.h"
#include "util.h"
#include "weights.h"
#include "train.h"

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

/* Least squares with a small ridge: the normal equations a w = b. */
static void solve_normal(double a[HAND_NF][HAND_NF], double *b, double *w)
{
	for (int i = 0; i < HAND_NF; i++)
		a[i][i] += 1e-3;
	linsolve(HAND_NF, &a[0][0], b, w);
}

/* Random positions of random games with lo..hi empties, solved exactly;
 * fit the class values and the mobility weight on half of them, report
 * the mean absolute error of the current hand-tuned evaluation and of the
 * fit on the other half, and print the fitted values (1/8 discs). */
int fit_hand(int npos, int size, Variant v, int lo, int hi, uint64_t seed)
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
int write_placeholder(const char *path)
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
int speed(long n)
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
