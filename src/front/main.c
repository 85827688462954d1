#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "text.h"
#include "version.h"

typedef struct Command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} Command;

static const Command commands[] = {
	{ "eval", cli_eval, "eval FILE.obf [--depth N] [--json] [--board 8|6|4] [--anti] [--eval WEIGHTS]" },
	{ "play", cli_play, "play [--color black|white|both|none] [--time SECONDS] [OPTIONS]  a game in the terminal" },
	{ "bench", cli_bench, "bench [--depth N] [--threads N]  deterministic search benchmark; last line: Nodes searched: N" },
	{ "perft", cli_perft, "perft DEPTH [--board 8|6|4] [--mode 1|2] [--divide] [--threads N]" },
	{ "review", cli_review, "review GAME|--wthor FILE --game N [--level L] [--exact-from N] [--json] [--html FILE]  review a game's moves" },
	{ "serve", cli_serve, "serve [--port N] [--bind ADDR] [--data DIR] [--web DIR]  online tables and the page (make serve)" },
	{ "show", cli_show, "show POSITION [--svg FILE] [--numbers] [--no-legal]  draw a board (OBF, transcript or game file)" },
	{ "solve", cli_solve, "solve FILE.obf|OBF|TRANSCRIPT [--threads N] [--hash MB] [--wld] [--board 8|6|4] [--variant normal|anti] [--json]" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: emilia [COMMAND [ARGS]]\n"
	           "  [OPTIONS] [--gtp|--nboard|--ugi]  speak GTP (default), NBoard or UGI on stdin/stdout\n"
	           "                (OPTIONS: emilia --help-options)\n"
	           "  --version        the version and the CPU kernel of this build\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %s\n", commands[i].help);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--version"))
		return version_print("emilia");
	if (!strcmp(argc < 2 ? "" : argv[1], "--help-options"))
		return cli_protocol_usage();
	if (argc < 2 || (argv[1][0] == '-' && strcmp(argv[1], "--help") && strcmp(argv[1], "-h")))
		return cli_protocol(argc, argv);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "emilia: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
