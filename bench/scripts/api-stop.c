/*
 * api-stop.c - how soon emilia_stop() ends a search, through the public
 * API (make bench-api-stop; bench/results/api-results.md).
 *
 * Each trial starts a 1 s search (move_time 1), an analysis or a solve on
 * one thread; a second thread calls emilia_stop() after a pseudo-random
 * 100..900 ms, and the latency is the time from that call to the return
 * of the searching call.  The positions run from the opening to 30
 * empties, so the midgame search, the solver handed over inside it and
 * the exact solver are all stopped in turn, with 1 and 2 search threads.
 * Prints the median, the 90th percentile and the largest latency, and
 * exits with status 1 when one exceeds the target (50 ms by default, or
 * the first argument in milliseconds).
 *
 * usage: api-stop [TARGET_MS [TRIALS]]
 */
#include <emilia.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_s(double s)
{
	struct timespec t = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
	nanosleep(&t, NULL);
}

/* The positions: transcripts from the start, and OBF lines. */
static const char *const positions[] = {
	"f5d6c3d3c4f4f6f3e6e7",
	"f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6",
	"f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2",
	/* FFO #40, #44, #50, #59: only #40 solves within 1 s here */
	"O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
	"--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX-- O",
	"----X-----XXX----OOOXOOO-OOOXOOO-OXOXOXO-OOXXOOO--OOXO----O--O-- X",
	"-----------------------O--OOOOO---OOOOOXOOOOXXXX--XXOOXX--XX-O-X X",
};
#define NPOS (sizeof positions / sizeof positions[0])

typedef struct Trial {
	emilia_engine *e;
	double delay;       /* seconds before the stop */
	double t_stop;      /* when emilia_stop() was called */
	atomic_int searching;
} Trial;

static void *stopper(void *arg)
{
	Trial *t = arg;
	while (!atomic_load(&t->searching))
		sleep_s(0.0005);
	sleep_s(t->delay);
	t->t_stop = now();
	emilia_stop(t->e);
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	const double target = (argc > 1 ? atof(argv[1]) : 50.0) / 1000.0;
	const int trials = argc > 2 ? atoi(argv[2]) : 48;
	double *lat = calloc((size_t)trials, sizeof *lat);
	if (!lat || trials < 1)
		return 2;
	emilia_engine *eng[2];
	for (int k = 0; k < 2; k++) {
		emilia_options o;
		emilia_options_init(&o);
		o.threads = k + 1;
		o.hash_mb = 64;
		o.use_book = 0;
		char err[256];
		if (emilia_create(&o, &eng[k], err, sizeof err) != EMILIA_OK) {
			fprintf(stderr, "api-stop: %s\n", err);
			return 2;
		}
	}
	uint64_t rng = 88172645463325252ULL;
	int n = 0, early = 0;
	for (int i = 0; i < trials; i++) {
		const char *pos = positions[(size_t)i % NPOS];
		const int threads = 1 + (i / (int)NPOS) % 2, kind = (i / (2 * (int)NPOS)) % 3;
		emilia_engine *e = eng[threads - 1];
		emilia_status st = strchr(pos, ' ') ? emilia_set_obf(e, pos) : emilia_set_transcript(e, pos);
		if (st != EMILIA_OK) {
			fprintf(stderr, "api-stop: %s: %s\n", pos, emilia_last_error(e));
			return 2;
		}
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		Trial t = { .e = e, .delay = 0.1 + (double)(rng % 800) / 1000.0 };
		atomic_init(&t.searching, 0);
		pthread_t tid;
		if (pthread_create(&tid, NULL, stopper, &t) != 0)
			return 2;
		emilia_limits l;
		emilia_limits_init(&l);
		l.move_time = 1.0;
		emilia_info r, lines[3];
		int count = 0;
		atomic_store(&t.searching, 1);
		if (kind == 0)
			st = emilia_search(e, &l, NULL, NULL, &r);
		else if (kind == 1)
			st = emilia_analyze(e, &l, 3, NULL, NULL, lines, &count);
		else
			st = emilia_solve(e, 0, NULL, &r);
		const double done = now();
		pthread_join(tid, NULL);
		const char *what = kind == 0 ? "search" : kind == 1 ? "analyze 3" : "solve";
		if (done < t.t_stop) {
			early++; /* it ended before the stop (a solve that finished) */
			printf("%2d %-9s %d thread%s stop at %3.0f ms: finished first (%s)\n", i, what, threads,
			       threads > 1 ? "s" : " ", t.delay * 1000, emilia_strerror(st));
			continue;
		}
		lat[n++] = done - t.t_stop;
		printf("%2d %-9s %d thread%s stop at %3.0f ms: returned %6.2f ms later (%s)\n", i, what, threads,
		       threads > 1 ? "s" : " ", t.delay * 1000, (done - t.t_stop) * 1000, emilia_strerror(st));
		fflush(stdout);
	}
	for (int k = 0; k < 2; k++)
		emilia_destroy(eng[k]);
	if (!n) {
		printf("no search was stopped\n");
		return 1;
	}
	qsort(lat, (size_t)n, sizeof *lat, cmp_double);
	const double max = lat[n - 1];
	printf("stopped %d of %d (%d finished first): latency median %.2f ms, 90th percentile %.2f ms, max %.2f ms "
	       "(target %.0f ms): %s\n",
	       n, trials, early, lat[n / 2] * 1000, lat[(n * 9) / 10 < n ? (n * 9) / 10 : n - 1] * 1000, max * 1000,
	       target * 1000, max <= target ? "ok" : "TOO SLOW");
	free(lat);
	return max <= target ? 0 : 1;
}
