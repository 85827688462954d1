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
#include "cmdflags.h"
#include "engine.h"
#include "eval.h"
#include "options.h"
#include "text.h"
#include "util.h"

enum { F_DEPTH, F_JSON, F_BOARD, F_ANTI, F_EVAL, NFLAGS };
static const CmdFlag flags[NFLAGS] = {
	[F_DEPTH] = { "--depth", CMDFLAG_INT, "N", 0, 30, "depth", "",
	              "score with a search of depth N (0: the evaluation alone)" },
	[F_JSON] = { "--json", CMDFLAG_BOOL, NULL, 0, 0, NULL, NULL, "one JSON object per position" },
	[F_BOARD] = { "--board", CMDFLAG_CHOICE, CMDFLAG_ANY_BOARD, 0, 0, "board size", NULL, "board size (default 8)" },
	[F_ANTI] = { "--anti", CMDFLAG_BOOL, NULL, 0, 0, NULL, NULL, "Anti Reversi (fewest discs wins)" },
	[F_EVAL] = { "--eval", CMDFLAG_OPTION, "WEIGHTS", 0, 0, NULL, NULL, NULL, OPT_EVAL },
};
#define SYNOPSIS "FILE.obf [FLAGS]"

static int usage(void)
{
	cmdflags_help(stderr, "eval", SYNOPSIS, flags, NFLAGS);
	return 2;
}

typedef struct EvalCli {
	const char *path, *weights;
	long depth, size;
	bool json;
	Variant variant;
	/* the run */
	Evaluator *own;      /* --eval's weights (the engine's once it has them) */
	const Evaluator *ev; /* what scores a position at depth 0 */
	Engine *eng;         /* --depth > 0 */
	uint64_t nodes;
	long n, scored, bad;
	double abserr;
} EvalCli;

/* Parses the command line into c.  Returns -1, or the exit status of a
 * usage error. */
static int parse_args(EvalCli *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		CmdFlagValue v;
		const int f = cmdflags_next("eval", flags, NFLAGS, argc, argv, &i, &v);
		if (f == CMDFLAG_ERROR)
			return 2;
		if (f == F_JSON)
			c->json = true;
		else if (f == F_ANTI)
			c->variant = VARIANT_ANTI;
		else if (f == F_DEPTH)
			c->depth = v.num;
		else if (f == F_BOARD)
			c->size = atol(v.str);
		else if (f == F_EVAL)
			c->weights = v.str;
		else if (a[0] != '-' && !c->path)
			c->path = a;
		else {
			fprintf(stderr, "eval: unknown argument '%s'\n", a);
			return usage();
		}
	}
	return c->path ? -1 : usage();
}

static void json_board(const char *s, FILE *f)
{
	fputc('"', f);
	for (; *s; s++)
		if (*s != '"' && *s != '\\')
			fputc(*s, f);
	fputc('"', f);
}

/* The weights of --eval, and the engine of --depth.  False with a
 * message (c->own freed). */
static bool eval_setup(EvalCli *c)
{
	char err[TEXT_ERR];
	if (c->weights && !(c->own = eval_load(c->weights, err))) {
		fprintf(stderr, "eval: %s\n", err);
		return false;
	}
	if (c->own && (eval_size(c->own) != (int)c->size || eval_variant(c->own) != c->variant)) {
		fprintf(stderr, "eval: %s holds the weights of %dx%d %s, not of this board and variant\n", c->weights,
		        eval_size(c->own), eval_size(c->own), eval_variant(c->own) == VARIANT_ANTI ? "Anti" : "Reversi");
		eval_free(c->own);
		return false;
	}
	c->ev = c->own ? c->own : eval_get((int)c->size, c->variant);
	return true;
}

static bool engine_setup(EvalCli *c)
{
	if (c->depth <= 0)
		return true;
	c->eng = engine_new();
	if (!c->eng) {
		fprintf(stderr, "eval: cannot create the search engine\n");
		return false;
	}
	engine_set_threads(c->eng, 1);
	engine_set_level(c->eng, (int)c->depth);
	engine_set_book(c->eng, NULL, NULL);
	engine_set_evaluator(c->eng, c->own); /* the engine frees it */
	c->own = NULL;
	return true;
}

/* The score of a position: the evaluation, or the search's. */
static int eval_position(EvalCli *c, const ObfPosition *pos)
{
	if (!c->eng)
		return eval_score(c->ev, pos->board.p, pos->board.o);
	Game g;
	game_init(&g, (int)c->size, c->variant);
	game_set(&g, pos->board, pos->side);
	EngineLimits lim;
	memset(&lim, 0, sizeof lim);
	lim.depth = (int)c->depth;
	lim.time_left = -1;
	engine_new_game(c->eng);
	EngineInfo info = engine_search(c->eng, &g, &lim, NULL, NULL);
	c->nodes += info.nodes;
	return info.score;
}

/* One line of the file: skipped when blank or a comment, counted as an
 * error when malformed, else scored and printed. */
static void eval_line(EvalCli *c, const char *line, long lineno)
{
	char err[TEXT_ERR];
	const char *s = line;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '\n' || *s == '\r' || *s == '%' || *s == '#')
		return;
	ObfPosition pos;
	if (!text_parse_obf(s, (int)c->size, &pos, err)) {
		fprintf(stderr, "eval: %s:%ld: %s (skipped)\n", c->path, lineno, err);
		c->bad++;
		return;
	}
	long n = ++c->n;
	int v = eval_position(c, &pos);
	char board[80];
	text_write_obf(pos.board, pos.side, (int)c->size, board);
	bool has = pos.nexpected > 0;
	int exp = has ? pos.expected_score[0] : 0;
	if (has) {
		c->scored++;
		c->abserr += abs(v - exp);
	}
	if (c->json) {
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

static void eval_totals(const EvalCli *c, double secs)
{
	double mae = c->scored ? c->abserr / (double)c->scored : 0;
	if (c->json) {
		printf("{\"totals\":{\"positions\":%ld,\"scored\":%ld,\"mae\":", c->n, c->scored);
		if (c->scored)
			printf("%.3f", mae);
		else
			printf("null");
		printf(",\"depth\":%ld,\"nodes\":%llu,\"seconds\":%.3f,\"errors\":%ld}}\n", c->depth,
		       (unsigned long long)c->nodes, secs, c->bad);
	} else {
		printf("positions %ld, with expected scores %ld", c->n, c->scored);
		if (c->scored)
			printf(", mean absolute error %.3f", mae);
		printf(" (depth %ld, %llu nodes, %.2f s)\n", c->depth, (unsigned long long)c->nodes, secs);
	}
}

int cli_eval(int argc, char **argv)
{
	EvalCli c;
	memset(&c, 0, sizeof c);
	c.size = 8;
	c.variant = VARIANT_NORMAL;
	if (cmdflags_wants_help(argc, argv)) {
		cmdflags_help(stdout, "eval", SYNOPSIS, flags, NFLAGS);
		return 0;
	}
	int rc = parse_args(&c, argc, argv);
	if (rc >= 0)
		return rc;
	if (!eval_setup(&c))
		return 1;
	FILE *f = fopen(c.path, "r");
	if (!f) {
		fprintf(stderr, "eval: cannot open %s\n", c.path);
		eval_free(c.own);
		return 1;
	}
	if (!engine_setup(&c)) {
		fclose(f);
		eval_free(c.own);
		return 1;
	}
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	double t0 = util_now();
	while (getline(&line, &cap, f) >= 0)
		eval_line(&c, line, ++lineno);
	free(line);
	fclose(f);
	if (c.eng)
		engine_free(c.eng);
	eval_free(c.own);
	eval_totals(&c, util_now() - t0);
	return c.bad ? 1 : 0;
}
