/*
 * eval_cli.c - `emilia eval FILE.obf [--depth N] [--json] [--board 8|6|4]
 * [--anti] [--eval WEIGHTS]`: the evaluation of each OBF position from the
 * side to move's view, its error against the file's best expected score,
 * and the mean absolute error.
 *
 * --depth N scores each position with the engine's search (engine.h) at
 * level N limited to depth N, one thread, no book, tables cleared between
 * positions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "engine.h"
#include "eval.h"
#include "text.h"
#include "util.h"

static int usage(void)
{
	fprintf(stderr, "usage: emilia eval FILE.obf [--depth N] [--json] [--board 8|6|4] [--anti] "
	                "[--eval WEIGHTS]\n");
	return 2;
}

static void json_board(const char *s, FILE *f)
{
	fputc('"', f);
	for (; *s; s++)
		if (*s != '"' && *s != '\\')
			fputc(*s, f);
	fputc('"', f);
}

int cli_eval(int argc, char **argv)
{
	const char *path = NULL, *weights = NULL;
	long depth = 0, size = 8;
	bool json = false;
	Variant variant = VARIANT_NORMAL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--json"))
			json = true;
		else if (!strcmp(a, "--anti"))
			variant = VARIANT_ANTI;
		else if (!strcmp(a, "--depth") && i + 1 < argc) {
			if (!util_parse_int(argv[++i], 0, 30, &depth)) {
				fprintf(stderr, "eval: depth must be 0..30, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(a, "--board") && i + 1 < argc) {
			if (!util_parse_int(argv[++i], 4, 8, &size) || !board_geometry((int)size)) {
				fprintf(stderr, "eval: board size must be 8, 6 or 4, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(a, "--eval") && i + 1 < argc) {
			weights = argv[++i];
		} else if (a[0] != '-' && !path) {
			path = a;
		} else {
			fprintf(stderr, "eval: unknown argument '%s'\n", a);
			return usage();
		}
	}
	if (!path)
		return usage();
	char err[TEXT_ERR];
	Evaluator *own = NULL;
	if (weights && !(own = eval_load(weights, err))) {
		fprintf(stderr, "eval: %s\n", err);
		return 1;
	}
	if (own && (eval_size(own) != (int)size || eval_variant(own) != variant)) {
		fprintf(stderr, "eval: %s holds the weights of %dx%d %s, not of this board and variant\n", weights,
		        eval_size(own), eval_size(own), eval_variant(own) == VARIANT_ANTI ? "Anti" : "Reversi");
		eval_free(own);
		return 1;
	}
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "eval: cannot open %s\n", path);
		eval_free(own);
		return 1;
	}
	const Evaluator *ev = own ? own : eval_get((int)size, variant);
	Engine *eng = NULL;
	if (depth > 0) {
		eng = engine_new();
		if (!eng) {
			fclose(f);
			eval_free(own);
			fprintf(stderr, "eval: cannot create the search engine\n");
			return 1;
		}
		engine_set_threads(eng, 1);
		engine_set_level(eng, (int)depth);
		engine_set_book(eng, NULL, NULL);
		engine_set_evaluator(eng, own); /* the engine frees it */
		own = NULL;
	}
	uint64_t nodes = 0;
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0, n = 0, scored = 0, bad = 0;
	double abserr = 0, t0 = util_now();
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '\n' || *s == '\r' || *s == '%' || *s == '#')
			continue;
		ObfPosition pos;
		if (!text_parse_obf(s, (int)size, &pos, err)) {
			fprintf(stderr, "eval: %s:%ld: %s (skipped)\n", path, lineno, err);
			bad++;
			continue;
		}
		n++;
		int v;
		if (eng) {
			Game g;
			game_init(&g, (int)size, variant);
			game_set(&g, pos.board, pos.side);
			EngineLimits lim;
			memset(&lim, 0, sizeof lim);
			lim.depth = (int)depth;
			lim.time_left = -1;
			engine_new_game(eng);
			EngineInfo info = engine_search(eng, &g, &lim, NULL, NULL);
			v = info.score;
			nodes += info.nodes;
		} else {
			v = eval_score(ev, pos.board.p, pos.board.o);
		}
		char board[80];
		text_write_obf(pos.board, pos.side, (int)size, board);
		bool has = pos.nexpected > 0;
		int exp = has ? pos.expected_score[0] : 0;
		if (has) {
			scored++;
			abserr += abs(v - exp);
		}
		if (json) {
			printf("{\"n\":%ld,\"board\":", n);
			json_board(board, stdout);
			if (has)
				printf(",\"eval\":%d,\"expected\":%d,\"error\":%d}\n", v, exp, v - exp);
			else
				printf(",\"eval\":%d,\"expected\":null,\"error\":null}\n", v);
		} else if (has) {
			printf("%4ld %s  eval %+3d  expected %+3d  error %+3d\n", n, board, v, exp, v - exp);
		} else {
			printf("%4ld %s  eval %+3d\n", n, board, v);
		}
	}
	free(line);
	fclose(f);
	if (eng)
		engine_free(eng);
	eval_free(own);
	double mae = scored ? abserr / (double)scored : 0;
	double secs = util_now() - t0;
	if (json) {
		printf("{\"totals\":{\"positions\":%ld,\"scored\":%ld,\"mae\":", n, scored);
		if (scored)
			printf("%.3f", mae);
		else
			printf("null");
		printf(",\"depth\":%ld,\"nodes\":%llu,\"seconds\":%.3f,\"errors\":%ld}}\n", depth,
		       (unsigned long long)nodes, secs, bad);
	} else {
		printf("positions %ld, with expected scores %ld", n, scored);
		if (scored)
			printf(", mean absolute error %.3f", mae);
		printf(" (depth %ld, %llu nodes, %.2f s)\n", depth, (unsigned long long)nodes, secs);
	}
	return bad ? 1 : 0;
}
