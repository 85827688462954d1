#include <stdio.h>
#include <string.h>
#include "cli.h"

typedef struct Command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} Command;

static const Command commands[] = {
	{ "bench", cli_bench, "bench [--depth N]  deterministic search benchmark; last line: Nodes searched: N" },
	{ "perft", cli_perft, "perft DEPTH [--board 8|6|4] [--mode 1|2] [--divide] [--threads N]" },
	{ "solve", cli_solve, "solve FILE.obf|OBF|TRANSCRIPT [--threads N] [--hash MB] [--wld] [--board 8|6|4] [--variant normal|anti] [--json]" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: emilia [COMMAND [ARGS]]\n"
	           "  (no command)  speak GTP on stdin/stdout\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %s\n", commands[i].help);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
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
