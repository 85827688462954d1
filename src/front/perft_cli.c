#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdflags.h"
#include "options.h"
#include "perft.h"
#include "text.h"
#include "util.h"

enum { F_BOARD, F_MODE, F_DIVIDE, F_THREADS, NFLAGS };
static const CmdFlag flags[NFLAGS] = {
	[F_BOARD] = { "--board", CMDFLAG_CHOICE, CMDFLAG_ANY_BOARD, 0, 0, "board size", NULL, "board size (default 8)" },
	[F_MODE] = { "--mode", CMDFLAG_CHOICE, "1|2", 0, 0, "mode", NULL,
	             "1: a forced pass is a ply; 2: it uses none (default 1)" },
	[F_DIVIDE] = { "--divide", CMDFLAG_BOOL, NULL, 0, 0, NULL, NULL, "the count under each first move" },
	[F_THREADS] = { "--threads", CMDFLAG_OPTION, "N", 0, 0, "threads", "", "counting threads", OPT_THREADS },
};
#define SYNOPSIS "DEPTH [FLAGS]"

static int usage(void)
{
	cmdflags_help(stderr, "perft", SYNOPSIS, flags, NFLAGS);
	return 2;
}

int cli_perft(int argc, char **argv)
{
	long depth = -1, size = 8, mode = 1, threads = 1;
	bool divide = false;
	if (cmdflags_wants_help(argc, argv)) {
		cmdflags_help(stdout, "perft", SYNOPSIS, flags, NFLAGS);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		CmdFlagValue v;
		const int f = cmdflags_next("perft", flags, NFLAGS, argc, argv, &i, &v);
		if (f == CMDFLAG_ERROR)
			return 2;
		if (f == F_BOARD) {
			size = atol(v.str);
		} else if (f == F_MODE) {
			mode = v.num + 1;
		} else if (f == F_THREADS) {
			threads = v.num;
		} else if (f == F_DIVIDE) {
			divide = true;
		} else if (a[0] != '-' && depth < 0) {
			if (!util_parse_int(a, 0, 60, &depth)) {
				fprintf(stderr, "perft: depth must be 0..60, not '%s'\n", a);
				return 2;
			}
		} else {
			fprintf(stderr, "perft: unknown argument '%s'\n", a);
			return usage();
		}
	}
	if (depth < 0)
		return usage();
	const uint64_t geo = board_geometry((int)size);
	Board b = board_start((int)size);
	double t0 = util_now();
	uint64_t total = 0;
	if (divide && depth > 0) {
		uint64_t m = board_moves(b.p, b.o) & geo;
		for (; m; m = bit_pop(m)) {
			int sq = bit_first(m);
			Board c = board_apply(b, sq, board_flips(b.p, b.o, sq));
			uint64_t n = perft_parallel(c, (int)depth - 1, (int)mode, geo, (int)threads);
			char name[5];
			text_square(sq, name);
			printf("%s %llu\n", name, (unsigned long long)n);
			total += n;
		}
	} else {
		total = perft_parallel(b, (int)depth, (int)mode, geo, (int)threads);
	}
	double dt = util_now() - t0;
	printf("%llu\n", (unsigned long long)total);
	printf("time %.3f s, %.1f M leaves/s (board %ldx%ld, mode %ld, %ld thread%s, %s kernel)\n", dt,
	       dt > 0 ? (double)total / dt / 1e6 : 0.0, size, size, mode, threads, threads > 1 ? "s" : "",
	       board_kernel_name());
	return 0;
}
