/*
 * bench.c - `emilia bench`: a deterministic benchmark of the search.
 *
 * A fixed, compiled-in set of positions goes through the real engine
 * facade (engine_search) with one thread, a fixed table size, the table
 * cleared before each position and no clock: midgame positions at a fixed
 * depth, then endgame positions solved exactly.  The total node count (the
 * last line, "Nodes searched: N") is the signature of the search: any
 * functional change of the search, the move ordering or the evaluation
 * changes it, and every build (portable, AVX2, debug) must print the same
 * number.  Commits quote it as "Bench: N".  `--depth` and `--threads`
 * change the run (for experiments, e.g. the time-to-depth speedup of
 * threads measured by bench/scripts/search-smp.sh); `--file F` searches the
 * positions of F instead (one per line: an OBF position or a transcript
 * from the start, '#' comments), all at the midgame depth.  Only the
 * default run is the signature.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bounds.h"
#include "cli.h"
#include "cmdflags.h"
#include "engine.h"
#include "options.h"
#include "splitpool.h"
#include "text.h"
#include "util.h"

#ifndef BENCH_HASH_MB
#define BENCH_HASH_MB 16
#endif
#define BENCH_MIDGAME_DEPTH 13

typedef struct BenchPosition {
	const char *moves;   /* transcript from the start, or NULL */
	const char *obf;     /* or a position */
	int depth;           /* 0 = the midgame depth; 60 = exact solve */
} BenchPosition;

/* Midgame: prefixes of the perfect-play line (Takizawa 2023) and of four
 * games of the 2010 WTHOR archive, 50 to 28 empties; endgame: FFO #1, #2
 * and #3 (14 empties). */
static const BenchPosition bench_positions[] = {
	{ "f5d6c3d3c4f4f6f3e6e7", NULL, 0 },
	{ "f5d6c3d3c4f4f6f3e6e7d7c5b6d8", NULL, 0 },
	{ "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6", NULL, 0 },
	{ "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6", NULL, 0 },
	{ "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2", NULL, 0 },
	{ "f5f6e6f4e3c5c4e7c6e2f3d3c3d2", NULL, 0 },
	{ "f5d6c3f4f6d3f3b3c5g4g3c6c4e6f7e2d2e3b4g5", NULL, 0 },
	{ "f5d6c3d3c4f4c5b3c2e3d2c6b4b5f2f6d7e7a3e2g3c1c7d1a5a4", NULL, 0 },
	{ "f5f6e6f4e3d6c4f3g3b4g5h5f7g6c5c6d7g4b3e7a4c8d8g8h3h4d3c3e8f8", NULL, 0 },
	{ NULL, "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X", 60 },
	{ NULL, "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X", 60 },
	{ NULL, "----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX X", 60 },
};

/* CPU time of the calling thread (the engine's thread 0), seconds. */
static double bench_thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The positions of a --file (an OBF position when a line has a side to
 * move after a space, else a transcript); *text keeps the lines.  NULL
 * with a message when it cannot be read or holds none. */
static BenchPosition *bench_read_file(const char *path, int *n, char **text)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "bench: cannot open '%s'\n", path);
		return NULL;
	}
	size_t cap = 0, len = 0;
	char *buf = NULL;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			char *nb = cap <= (64u << 20) ? realloc(buf, cap) : NULL;
			if (!nb) {
				fprintf(stderr, "bench: '%s' is too large\n", path);
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		size_t got = fread(buf + len, 1, 4096, f);
		len += got;
		if (got < 4096)
			break;
	}
	fclose(f);
	buf[len] = 0;
	int cnt = 0, max = 1;
	for (size_t i = 0; i < len; i++)
		max += buf[i] == '\n';
	BenchPosition *list = calloc((size_t)max, sizeof *list);
	if (!list) {
		free(buf);
		fprintf(stderr, "bench: out of memory\n");
		return NULL;
	}
	for (char *line = buf, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		size_t l = strlen(line);
		while (l && (line[l - 1] == '\r' || line[l - 1] == ' ' || line[l - 1] == '\t'))
			line[--l] = 0;
		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line || *line == '#')
			continue;
		if (strchr(line, ' '))
			list[cnt].obf = line;
		else
			list[cnt].moves = line;
		cnt++;
	}
	if (!cnt) {
		fprintf(stderr, "bench: no positions in '%s'\n", path);
		free(list);
		free(buf);
		return NULL;
	}
	*n = cnt;
	*text = buf;
	return list;
}

/* Sums of a --smp run. */
typedef struct BenchSmp {
	double t1, tn;          /* seconds: 1 thread (mean of two runs), N threads */
	uint64_t n1, nn;        /* nodes */
	double idle;
} BenchSmp;

static EngineInfo bench_run(Engine *e, const Game *g, const EngineLimits *lim, int threads)
{
	engine_set_threads(e, threads);
	engine_new_game(e);
	return engine_search(e, g, lim, NULL, NULL);
}

/* --smp N: position k searched with 1 thread, N threads and 1 thread
 * again, back to back, so that the speed drifts of a shared machine
 * (slower than one position) cancel out of the comparison. */
static void bench_smp(Engine *e, const Game *g, const EngineLimits *lim, int n, int k, BenchSmp *sum)
{
	const EngineInfo a = bench_run(e, g, lim, 1);
#ifdef SEARCH_STATS
	split_pool_stat_idle = 0;
#endif
	const EngineInfo m = bench_run(e, g, lim, n);
#ifdef SEARCH_STATS
	sum->idle += split_pool_stat_idle;
#endif
	const EngineInfo b = bench_run(e, g, lim, 1);
	const double t1 = (a.seconds + b.seconds) / 2;
	printf("%2d %2d empties  depth %2d  1 thread %7.3f s / %7.3f s  %d threads %7.3f s  nodes %10llu / %10llu  %5.2fx\n",
	       k, game_empties(g), a.depth, a.seconds, b.seconds, n, m.seconds, (unsigned long long)a.nodes,
	       (unsigned long long)m.nodes, m.seconds > 0 ? t1 / m.seconds : 0.0);
	fflush(stdout);
	sum->t1 += t1;
	sum->tn += m.seconds;
	sum->n1 += a.nodes;
	sum->nn += m.nodes;
}

enum { F_DEPTH, F_THREADS, F_FILE, F_SMP, NFLAGS };
static const CmdFlag bench_flags[NFLAGS] = {
	[F_DEPTH] = { "--depth", CMDFLAG_INT, "N", 1, 30, "depth", "", "midgame depth, 13 by default" },
	[F_THREADS] = { "--threads", CMDFLAG_OPTION, "N", 0, 0, "threads", "", "search threads, 1 by default",
	                OPT_THREADS },
	[F_FILE] = { "--file", CMDFLAG_STR, "POSITIONS", 0, 0, NULL, NULL,
	             "these positions instead (OBF or transcript, one a line)" },
	[F_SMP] = { "--smp", CMDFLAG_INT, "N", 2, BOUNDS_THREADS_MAX, "--smp", " threads",
	            "time to depth of 1 thread against N, position by position" },
};
#define BENCH_SYNOPSIS "[FLAGS]  (the default run's last line is the signature)"

static int bench_usage(void)
{
	cmdflags_help(stderr, "bench", BENCH_SYNOPSIS, bench_flags, NFLAGS);
	return 2;
}

int cli_bench(int argc, char **argv)
{
	long mid_depth = BENCH_MIDGAME_DEPTH, threads = 1, smp = 0;
	const char *file = NULL;
	if (cmdflags_wants_help(argc, argv)) {
		cmdflags_help(stdout, "bench", BENCH_SYNOPSIS, bench_flags, NFLAGS);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		CmdFlagValue v;
		const int f = cmdflags_next("bench", bench_flags, NFLAGS, argc, argv, &i, &v);
		if (f == CMDFLAG_ERROR)
			return 2;
		if (f == F_THREADS)
			threads = v.num;
		else if (f == F_SMP)
			smp = v.num;
		else if (f == F_FILE)
			file = v.str;
		else if (f == F_DEPTH)
			mid_depth = v.num;
		else
			return bench_usage();
	}
	Engine *e = engine_new();
	if (!e || !engine_set_hash_mb(e, BENCH_HASH_MB)) {
		fprintf(stderr, "bench: out of memory\n");
		engine_free(e);
		return 1;
	}
	engine_set_threads(e, (int)threads);
	engine_set_level(e, 60);
	const BenchPosition *list = bench_positions;
	int n = (int)(sizeof bench_positions / sizeof bench_positions[0]);
	char *text = NULL;
	BenchPosition *owned = NULL;
	if (file) {
		if (!(owned = bench_read_file(file, &n, &text))) {
			engine_free(e);
			return 1;
		}
		list = owned;
	}
	uint64_t total = 0, mid_nodes = 0;
	double total_time = 0, mid_time = 0, mid_cpu = 0;
	BenchSmp smp_sum = { 0, 0, 0, 0, 0 };
	int rc = 0;
	for (int i = 0; i < n; i++) {
		const BenchPosition *bp = &list[i];
		Game g;
		char err[TEXT_ERR];
		game_init(&g, 8, VARIANT_NORMAL);
		ObfPosition pos;
		if ((bp->moves && !text_apply_transcript(&g, bp->moves, err)) ||
		    (bp->obf && !text_parse_obf(bp->obf, 8, &pos, err))) {
			fprintf(stderr, "bench: position %d: %s\n", i + 1, err);
			rc = 1;
			break;
		}
		if (bp->obf)
			game_set(&g, pos.board, pos.side);
		engine_new_game(e);
		EngineLimits lim;
		memset(&lim, 0, sizeof lim);
		lim.time_left = -1;
		lim.depth = bp->depth ? bp->depth : (int)mid_depth;
		if (smp) {
			if (bp->depth)
				continue;
			bench_smp(e, &g, &lim, (int)smp, i + 1, &smp_sum);
			continue;
		}
		double cpu0 = bench_thread_cpu();
		EngineInfo r = engine_search(e, &g, &lim, NULL, NULL);
		double cpu = bench_thread_cpu() - cpu0;
		char sq[8];
		text_square(r.move, sq);
		printf("%2d %-6s %2d empties  depth %2d%s  move %-4s score %+3d  nodes %10llu  %7.3f s  %6.0f kN/s\n",
		       i + 1, bp->depth == 60 ? "solve" : "mid", game_empties(&g), r.depth, r.exact ? "x" : " ",
		       sq, r.score, (unsigned long long)r.nodes, r.seconds,
		       r.seconds > 0 ? r.nodes / r.seconds / 1e3 : 0.0);
		total += r.nodes;
		total_time += r.seconds;
		if (!bp->depth) {
			mid_nodes += r.nodes;
			mid_time += r.seconds;
			mid_cpu += cpu;
		}
	}
	engine_free(e);
	free(owned);
	free(text);
	if (rc)
		return rc;
	if (smp) {
		printf("Time to depth, 1 thread: %.3f s (mean of the runs before and after), %ld threads: %.3f s\n",
		       smp_sum.t1, smp, smp_sum.tn);
		printf("Nodes, 1 thread: %llu, %ld threads: %llu (%.3f times)\n", (unsigned long long)smp_sum.n1, smp,
		       (unsigned long long)smp_sum.nn, smp_sum.n1 ? (double)smp_sum.nn / (double)smp_sum.n1 : 0.0);
		printf("Time-to-depth speedup of %ld threads: %.3f\n", smp, smp_sum.tn > 0 ? smp_sum.t1 / smp_sum.tn : 0.0);
#ifdef SEARCH_STATS
		printf("Idle: %.3f s of %.3f s (%.1f%%); efficiency (threads - idle) / nodes ratio: %.3f\n", smp_sum.idle,
		       smp * smp_sum.tn, 100 * smp_sum.idle / (smp * smp_sum.tn),
		       (smp - smp_sum.idle / smp_sum.tn) / ((double)smp_sum.nn / (double)smp_sum.n1));
#endif
		return 0;
	}
	printf("Midgame time: %.3f s\n", mid_time);
	printf("Midgame CPU time of thread 0: %.3f s\n", mid_cpu);
	printf("Midgame nodes/second: %.0f\n", mid_time > 0 ? mid_nodes / mid_time : 0.0);
	printf("Total time: %.3f s\n", total_time);
	printf("Nodes/second: %.0f\n", total_time > 0 ? total / total_time : 0.0);
	printf("Nodes searched: %llu\n", (unsigned long long)total);
	return 0;
}
