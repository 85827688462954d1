#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "perft.h"
#include "text.h"
#include "util.h"

static int usage(void)
{
	fprintf(stderr, "usage: emilia perft DEPTH [--board 8|6|4] [--mode 1|2] [--divide] [--threads N]\n");
	return 2;
}

int cli_perft(int argc, char **argv)
{
	long depth = -1, size = 8, mode = 1, threads = 1;
	bool divide = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--board") && i + 1 < argc) {
			if (!util_parse_int(argv[++i], 4, 8, &size) || !board_geometry((int)size)) {
				fprintf(stderr, "perft: board size must be 8, 6 or 4, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(a, "--mode") && i + 1 < argc) {
			if (!util_parse_int(argv[++i], 1, 2, &mode)) {
				fprintf(stderr, "perft: mode must be 1 or 2, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(a, "--threads") && i + 1 < argc) {
			if (!util_parse_int(argv[++i], 1, 256, &threads)) {
				fprintf(stderr, "perft: threads must be 1..256, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(a, "--divide")) {
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
