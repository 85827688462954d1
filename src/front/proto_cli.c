/*
 * proto_cli.c - `emilia [OPTIONS] [--gtp|--nboard|--ugi]` and `emilia
 * [OPTIONS] play [OPTIONS]`: global options, then the protocol on
 * stdin/stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdflags.h"
#include "gtp.h"
#include "nboard.h"
#include "options.h"
#include "play.h"
#include "ugi.h"

typedef enum { MODE_GTP, MODE_NBOARD, MODE_UGI, MODE_PLAY } ProtoMode;

enum { P_COLOR, P_COLOUR, P_TIME, P_CLOCK, P_THINKING, P_NO_THINKING, P_NFLAGS };
static const CmdFlag play_flags[P_NFLAGS] = {
	[P_COLOR] = { "--color", CMDFLAG_STR, "SIDE", 0, 0, NULL, NULL,
	              "black, white, both or none: the side(s) you play (b, w too; default black)" },
	[P_COLOUR] = { "--colour", CMDFLAG_STR, "SIDE", 0, 0, NULL, NULL, "the same as --color" },
	[P_TIME] = { "--time", CMDFLAG_REAL, "SECONDS", 0, 86400, "--time", " seconds",
	             "the engine's time per move" },
	[P_CLOCK] = { "--clock", CMDFLAG_STR, "M+I", 0, 0, NULL, NULL,
	              "a clock: minutes per side, seconds added after each move (5+3)" },
	[P_THINKING] = { "--thinking", CMDFLAG_BOOL, NULL, 0, 0, NULL, NULL, "show the engine's search as it thinks" },
	[P_NO_THINKING] = { "--no-thinking", CMDFLAG_BOOL, NULL, 0, 0, NULL, NULL, "hide it (by default it shows on a terminal only)" },
};

static int usage(FILE *f, int status)
{
	fprintf(f, "usage: emilia [OPTIONS] [--gtp | --nboard | --ugi]   (GTP when no mode is given)\n");
	cmdflags_help(f, "[OPTIONS] play", "[FLAGS]", play_flags, P_NFLAGS);
	options_print_usage(f);
	return status;
}

/* --color's word into *human; false when it is none of them. */
static bool parse_color(const char *c, int *human)
{
	*human = !strcmp(c, "black") || !strcmp(c, "b") ? PLAY_HUMAN_BLACK
	       : !strcmp(c, "white") || !strcmp(c, "w") ? PLAY_HUMAN_WHITE
	       : !strcmp(c, "both") ? PLAY_HUMAN_BOTH : !strcmp(c, "none") ? PLAY_HUMAN_NONE : -1;
	return *human >= 0;
}

/* --clock M+I: minutes per side, seconds added after each move. */
static bool parse_clock(const char *c, PlayConfig *play)
{
	char *end;
	play->clock_minutes = strtod(c, &end);
	play->clock_increment = 0;
	if (*end == '+')
		play->clock_increment = strtod(end + 1, &end);
	return !(end == c || *end || !(play->clock_minutes > 0) || play->clock_minutes > 1440
	         || !(play->clock_increment >= 0) || play->clock_increment > 3600);
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
		CmdFlagValue v;
		const int f = cmdflags_next("emilia", play_flags, P_NFLAGS, argc, argv, &i, &v);
		if (f == CMDFLAG_ERROR)
			return 2;
		if (f == P_COLOR || f == P_COLOUR) {
			if (!parse_color(v.str, &play.human)) {
				fprintf(stderr, "emilia: --color must be black, white, both or none\n");
				return 2;
			}
		} else if (f == P_TIME) {
			play.move_time = v.real;
		} else if (f == P_CLOCK) {
			if (!parse_clock(v.str, &play)) {
				fprintf(stderr, "emilia: --clock must be MINUTES[+SECONDS], e.g. 5+3\n");
				return 2;
			}
		} else if (f == P_THINKING || f == P_NO_THINKING) {
			play.thinking = f == P_THINKING;
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
