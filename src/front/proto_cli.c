/*
 * proto_cli.c - `emilia [OPTIONS] [--gtp|--nboard|--ugi]` and `emilia
 * [OPTIONS] play [OPTIONS]`: global options, then the protocol on
 * stdin/stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "gtp.h"
#include "nboard.h"
#include "options.h"
#include "play.h"
#include "ugi.h"

typedef enum { MODE_GTP, MODE_NBOARD, MODE_UGI, MODE_PLAY } ProtoMode;

static int usage(FILE *f, int status)
{
	fprintf(f, "usage: emilia [OPTIONS] [--gtp | --nboard | --ugi]   (GTP when no mode is given)\n"
	           "       emilia [OPTIONS] play [--color black|white|both|none] [--time SECONDS] [--clock M+I]\n"
	           "                             [--thinking | --no-thinking]\n");
	options_print_usage(f);
	return status;
}

/* Parse the global options and the mode; argv[0] is the program or
 * command name. */
static int run(int argc, char **argv, ProtoMode mode)
{
	Options opts;
	options_init(&opts);
	char err[OPTIONS_ERR];
	PlayConfig play = { PLAY_HUMAN_BLACK, 0, -1, 0, 0 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if ((!strcmp(a, "--color") || !strcmp(a, "--colour")) && i + 1 < argc) {
			const char *c = argv[++i];
			play.human = !strcmp(c, "black") || !strcmp(c, "b") ? PLAY_HUMAN_BLACK
			           : !strcmp(c, "white") || !strcmp(c, "w") ? PLAY_HUMAN_WHITE
			           : !strcmp(c, "both") ? PLAY_HUMAN_BOTH : !strcmp(c, "none") ? PLAY_HUMAN_NONE : -1;
			if (play.human < 0) {
				fprintf(stderr, "emilia: --color must be black, white, both or none\n");
				return 2;
			}
		} else if (!strcmp(a, "--time") && i + 1 < argc) {
			char *end;
			play.move_time = strtod(argv[++i], &end);
			if (*end || play.move_time < 0 || play.move_time > 86400) {
				fprintf(stderr, "emilia: --time must be seconds per move\n");
				return 2;
			}
		} else if (!strcmp(a, "--clock") && i + 1 < argc) {
			/* M+I: minutes per side, seconds added after each move */
			char *end;
			const char *c = argv[++i];
			play.clock_minutes = strtod(c, &end);
			play.clock_increment = 0;
			if (*end == '+')
				play.clock_increment = strtod(end + 1, &end);
			if (end == c || *end || !(play.clock_minutes > 0) || play.clock_minutes > 1440 ||
			    !(play.clock_increment >= 0) || play.clock_increment > 3600) {
				fprintf(stderr, "emilia: --clock must be MINUTES[+SECONDS], e.g. 5+3\n");
				return 2;
			}
		} else if (!strcmp(a, "--thinking") || !strcmp(a, "--no-thinking")) {
			play.thinking = a[2] == 't';
		} else if (!strcmp(a, "--gtp"))
			mode = MODE_GTP;
		else if (!strcmp(a, "--nboard"))
			mode = MODE_NBOARD;
		else if (!strcmp(a, "--ugi"))
			mode = MODE_UGI;
		else if (!strcmp(a, "play"))
			mode = MODE_PLAY;
		else if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return usage(stdout, 0);
		else {
			int r = options_parse_arg(&opts, argc, argv, &i, err);
			if (r < 0) {
				fprintf(stderr, "emilia: %s\n", err);
				return 2;
			}
			if (r == 0) {
				fprintf(stderr, "emilia: unknown argument '%s'\n", a);
				return usage(stderr, 2);
			}
		}
	}
	switch (mode) {
	case MODE_NBOARD:
		return nboard_main(stdin, stdout, &opts);
	case MODE_UGI:
		return ugi_main(stdin, stdout, &opts);
	case MODE_PLAY:
		return play_main(stdin, stdout, &opts, &play);
	case MODE_GTP:
	default:
		return gtp_main(stdin, stdout, &opts);
	}
}

int cli_protocol(int argc, char **argv)
{
	return run(argc, argv, MODE_GTP);
}

int cli_protocol_usage(void)
{
	return usage(stdout, 0);
}

int cli_play(int argc, char **argv)
{
	return run(argc, argv, MODE_PLAY);
}
