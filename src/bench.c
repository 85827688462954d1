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
 * threads measured by bench/search-smp.sh); only the default run is the
 * signature.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "engine.h"
#include "text.h"
#include "util.h"

#define BENCH_HASH_MB 16
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

static int bench_usage(void)
{
	fprintf(stderr, "usage: emilia bench [--depth N] [--threads N]\n");
	return 2;
}

int cli_bench(int argc, char **argv)
{
	long mid_depth = BENCH_MIDGAME_DEPTH, threads = 1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
			if (!util_parse_int(argv[++i], 1, 64, &threads)) {
				fprintf(stderr, "bench: threads must be 1..64, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--depth") && i + 1 < argc) {
			if (!util_parse_int(argv[++i], 1, 30, &mid_depth)) {
				fprintf(stderr, "bench: depth must be 1..30, not '%s'\n", argv[i]);
				return 2;
			}
		} else {
			return bench_usage();
		}
	}
	Engine *e = engine_new();
	if (!e || !engine_set_hash_mb(e, BENCH_HASH_MB)) {
		fprintf(stderr, "bench: out of memory\n");
		engine_free(e);
		return 1;
	}
	engine_set_threads(e, (int)threads);
	engine_set_level(e, 60);
	uint64_t total = 0, mid_nodes = 0;
	double total_time = 0, mid_time = 0, mid_cpu = 0;
	const int n = (int)(sizeof bench_positions / sizeof bench_positions[0]);
	for (int i = 0; i < n; i++) {
		const BenchPosition *bp = &bench_positions[i];
		Game g;
		char err[TEXT_ERR];
		game_init(&g, 8, VARIANT_NORMAL);
		if (bp->moves && !text_apply_transcript(&g, bp->moves, err)) {
			fprintf(stderr, "bench: position %d: %s\n", i + 1, err);
			engine_free(e);
			return 1;
		}
		if (bp->obf) {
			ObfPosition pos;
			if (!text_parse_obf(bp->obf, 8, &pos, err)) {
				fprintf(stderr, "bench: position %d: %s\n", i + 1, err);
				engine_free(e);
				return 1;
			}
			game_set(&g, pos.board, pos.side);
		}
		engine_new_game(e);
		EngineLimits lim;
		memset(&lim, 0, sizeof lim);
		lim.time_left = -1;
		lim.depth = bp->depth ? bp->depth : (int)mid_depth;
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
	printf("Midgame time: %.3f s\n", mid_time);
	printf("Midgame CPU time of thread 0: %.3f s\n", mid_cpu);
	printf("Midgame nodes/second: %.0f\n", mid_time > 0 ? mid_nodes / mid_time : 0.0);
	printf("Total time: %.3f s\n", total_time);
	printf("Nodes/second: %.0f\n", total_time > 0 ? total / total_time : 0.0);
	printf("Nodes searched: %llu\n", (unsigned long long)total);
	return 0;
}
