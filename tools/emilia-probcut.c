/*
 * emilia-probcut - fit the multi-ProbCut parameters of src/core/probcut.c.
 *
 *   emilia-probcut [--positions N] [--max-depth D] [--seed S] FILE.wtb...
 *
 * Method: positions are sampled (seeded, reproducible) from the games of
 * WTHOR files, uniformly over 20..54 empties.  Each is searched with the
 * engine's own search (no ProbCut, 1 thread, a 16 MB table cleared per
 * position) at every depth 1..D, giving v_d.  For each deep depth d >= 3
 * with its shallow depth s = probcut_shallow_depth(d), a least-squares
 * line v_d = a * v_s + b is fitted over all positions; the residuals
 * r = v_d - (a v_s + b) are grouped by (d, empties bucket of 6) and their
 * standard deviations are fitted by least squares (weighted by the
 * bucket sizes) to sigma(d, e) = c0 + c1 * d + c2 * e.  The tool prints
 * the per-depth table and the sigma model as C initialisers for
 * src/core/probcut.c, with the statistics of the fit.
 *
 * The constants depend on the evaluation: rerun after it changes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "board.h"
#include "linsolve.h"
#include "probcut.h"
#include "search.h"
#include "tt.h"
#include "text.h"
#include "util.h"
#include "version.h"

#define MAXD 16

typedef struct Sample {
	int empties;
	int v[MAXD + 1];
} Sample;

static uint64_t rng_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Replay a WTHOR move list up to `plies` moves; false when illegal. */
static bool replay(const unsigned char *mv, int plies, Board *out)
{
	Board b = board_start(8);
	for (int i = 0; i < plies; i++) {
		int m = mv[i];
		if (!m)
			return false;
		int sq = (m / 10 - 1) * 8 + (m % 10 - 1);
		if (sq < 0 || sq > 63)
			return false;
		uint64_t legal = board_moves(b.p, b.o);
		if (!legal) {
			b = board_pass(b);
			legal = board_moves(b.p, b.o);
		}
		if (!(legal & bit_of(sq)))
			return false;
		b = board_apply(b, sq, board_flips(b.p, b.o, sq));
	}
	if (!board_moves(b.p, b.o))
		return false;
	*out = b;
	return true;
}

/* The command line; returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, long *npos, long *maxd, long *seed, const char **files,
                      int *nfiles)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--positions") && i + 1 < argc) {
			if (!util_parse_int(argv[++i], 10, 1000000, npos))
				return fprintf(stderr, "bad --positions\n"), 2;
		} else if (!strcmp(argv[i], "--max-depth") && i + 1 < argc) {
			if (!util_parse_int(argv[++i], 4, MAXD, maxd))
				return fprintf(stderr, "bad --max-depth (4..%d)\n", MAXD), 2;
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			if (!util_parse_int(argv[++i], 0, 1L << 30, seed))
				return fprintf(stderr, "bad --seed\n"), 2;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "usage: emilia-probcut [--positions N] [--max-depth D] [--seed S] FILE.wtb...\n");
			return 2;
		} else if (*nfiles < 64) {
			files[(*nfiles)++] = argv[i];
		}
	}
	if (!*nfiles) {
		fprintf(stderr, "emilia-probcut: no WTHOR file given\n");
		return 2;
	}
	return -1;
}

/* The move lists (60 bytes a game) of all the files' games; false on an
 * error (reported). */
static bool load_games(const char **files, int nfiles, unsigned char **games, size_t *ngames)
{
	for (int f = 0; f < nfiles; f++) {
		FILE *fp = fopen(files[f], "rb");
		if (!fp) {
			perror(files[f]);
			return false;
		}
		unsigned char hdr[16];
		if (fread(hdr, 1, 16, fp) != 16) {
			fprintf(stderr, "%s: short header\n", files[f]);
			fclose(fp);
			return false;
		}
		unsigned char rec[68];
		while (fread(rec, 1, 68, fp) == 68) {
			unsigned char *ng = realloc(*games, (*ngames + 1) * 60);
			if (!ng)
				return false;
			*games = ng;
			memcpy(*games + *ngames * 60, rec + 8, 60);
			(*ngames)++;
		}
		fclose(fp);
	}
	return true;
}

/* npos positions of the games, each searched at every depth 1..maxd. */
static void sample(SearchThread *t, TT *tt, const unsigned char *games, size_t ngames, Sample *smp,
                   long npos, long maxd)
{
	long ns = 0;
	double t0 = util_now();
	while (ns < npos) {
		size_t g = (size_t)(rnd() % ngames);
		int empties = 20 + (int)(rnd() % 35);
		Board b;
		if (!replay(games + g * 60, 60 - empties, &b))
			continue;
		tt_clear(tt);
		Sample *s = &smp[ns];
		s->empties = empties;
		for (int d = 1; d <= maxd; d++)
			s->v[d] = search_value(t, b, d, -SEARCH_INF, SEARCH_INF);
		ns++;
		if (ns % 20 == 0)
			fprintf(stderr, "%ld positions, %.0f s\n", ns, util_now() - t0);
	}
}

/* The per-depth regression v_d = A[d] v_s + B[d], printed. */
static void fit_depths(const Sample *smp, long ns, long maxd, double *A, double *B)
{
	printf("/* depth shallow  a  b  sigma(all)  n */\n");
	for (int d = PROBCUT_MIN_DEPTH; d <= maxd; d++) {
		int sd = probcut_shallow_depth(d);
		double sx = 0, sy = 0, sxx = 0, sxy = 0;
		for (long i = 0; i < ns; i++) {
			double x = smp[i].v[sd], y = smp[i].v[d];
			sx += x, sy += y, sxx += x * x, sxy += x * y;
		}
		double n = (double)ns;
		double den = n * sxx - sx * sx;
		A[d] = den > 0 ? (n * sxy - sx * sy) / den : 1.0;
		B[d] = (sy - A[d] * sx) / n;
		double ss = 0;
		for (long i = 0; i < ns; i++) {
			double r = smp[i].v[d] - (A[d] * smp[i].v[sd] + B[d]);
			ss += r * r;
		}
		printf("/* %2d %2d  %.4f %+.4f  %.3f  %ld */\n", d, sd, A[d], B[d], sqrt(ss / n), ns);
	}
}

/* Sigma by (depth, empties bucket), then the linear model C of it. */
static void fit_sigma(const Sample *smp, long ns, long maxd, const double *A, const double *B,
                      double C[3])
{
	double M[3][3] = { { 0 } }, V[3] = { 0 };
	for (int d = PROBCUT_MIN_DEPTH; d <= maxd; d++) {
		int sd = probcut_shallow_depth(d);
		for (int e0 = 20; e0 < 55; e0 += 6) {
			double ss = 0;
			int cnt = 0;
			for (long i = 0; i < ns; i++) {
				if (smp[i].empties < e0 || smp[i].empties >= e0 + 6)
					continue;
				double r = smp[i].v[d] - (A[d] * smp[i].v[sd] + B[d]);
				ss += r * r;
				cnt++;
			}
			if (cnt < 5)
				continue;
			double sig = sqrt(ss / cnt), x[3] = { 1.0, (double)d, e0 + 2.5 };
			for (int r = 0; r < 3; r++) {
				for (int c = 0; c < 3; c++)
					M[r][c] += cnt * x[r] * x[c];
				V[r] += cnt * x[r] * sig;
			}
		}
	}
	linsolve(3, &M[0][0], V, C);
}

/* The C initialisers for src/core/probcut.c. */
static void print_models(const double *A, const double *B, const double C[3], long maxd, long ns)
{
	printf("static const ProbCutModel probcut_models[PROBCUT_MAX_FIT_DEPTH + 1] = {\n");
	for (int d = 0; d <= PROBCUT_MAX_FIT_DEPTH; d++) {
		int dd = d < PROBCUT_MIN_DEPTH ? -1 : d > maxd ? (int)maxd : d;
		if (dd < 0)
			printf("\t{ 1.0, 0.0 }, /* %d: unused */\n", d);
		else
			printf("\t{ %.4f, %+.4f }, /* %d%s */\n", A[dd], B[dd], d, dd != d ? ": = deepest fitted" : "");
	}
	printf("};\n");
	printf("#define PROBCUT_SIGMA_C0 %.4f\n#define PROBCUT_SIGMA_DEPTH %.4f\n#define PROBCUT_SIGMA_EMPTIES %.4f\n",
	       C[0], C[1], C[2]);
	printf("/* fitted by emilia-probcut on %ld positions */\n", ns);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--version"))
		return version_print("emilia-probcut");
	long npos = 300, maxd = 12, seed = 1;
	const char *files[64];
	int nfiles = 0;
	int rc = parse_args(argc, argv, &npos, &maxd, &seed, files, &nfiles);
	if (rc >= 0)
		return rc;
	rng_state ^= (uint64_t)seed * 0x9E3779B97F4A7C15ULL;
	unsigned char *games = NULL;
	size_t ngames = 0;
	if (!load_games(files, nfiles, &games, &ngames))
		return 1;
	if (!ngames) {
		fprintf(stderr, "no games\n");
		return 1;
	}
	TT tt;
	if (!tt_init(&tt, 16))
		return 1;
	SearchShared sh;
	SearchThread *t = calloc(1, sizeof *t);
	search_shared_init(&sh, &tt, 8, VARIANT_NORMAL);
	sh.threads = t;
	sh.nthreads = 1;
	search_thread_init(t, &sh, 0);
	t->sel = SEARCH_SEL_NONE;
	Sample *smp = calloc((size_t)npos, sizeof *smp);
	sample(t, &tt, games, ngames, smp, npos, maxd);
	long ns = npos;
	double A[MAXD + 1], B[MAXD + 1], C[3];
	printf("/* fitted by: emilia-probcut --positions %ld --max-depth %ld --seed %ld", npos, maxd, seed);
	for (int f = 0; f < nfiles; f++)
		printf(" %s", strrchr(files[f], '/') ? strrchr(files[f], '/') + 1 : files[f]);
	printf(" */\n");
	fit_depths(smp, ns, maxd, A, B);
	fit_sigma(smp, ns, maxd, A, B, C);
	print_models(A, B, C, maxd, ns);
	free(smp);
	free(t);
	free(games);
	tt_free(&tt);
	return 0;
}
