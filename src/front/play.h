/*
 * play.h - the terminal game: a person plays against Emilia, one command
 * per line (so it can be scripted), with the board redrawn after every
 * move, legal squares marked, passes made automatically with a message,
 * unlimited undo, hints at full strength, a thinking line while Emilia
 * searches, the last move marked, save/load (GGF, transcript), a game clock
 * with increment, and the score, transcript and a review at the end.
 */
#ifndef EMILIA_PLAY_H
#define EMILIA_PLAY_H

#include <stdio.h>
#include "options.h"

enum { PLAY_HUMAN_BLACK = 0, PLAY_HUMAN_WHITE = 1, PLAY_HUMAN_BOTH = 2, PLAY_HUMAN_NONE = 3 };

typedef struct PlayConfig {
	int human;          /* PLAY_HUMAN_* */
	double move_time;   /* engine's limit per move in seconds, 0 = by level */
	int thinking;       /* thinking line: 1 on, 0 off, -1 when the output is a terminal */
	double clock_minutes;   /* game clock per side (--clock M+I), 0 = none */
	double clock_increment; /* seconds added after each move */
} PlayConfig;

/* Play games reading commands from in and writing to out until `quit` or
 * end of input.  Returns the exit status. */
int play_main(FILE *in, FILE *out, const Options *opts, const PlayConfig *cfg);

#endif
