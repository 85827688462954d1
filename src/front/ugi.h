/*
 * ugi.h - the Universal Game Interface (UCI-like) of the cutegames match
 * runner, for Othello.  The runner knows nothing about the game and trusts
 * the engine completely: moves, whose turn it is, whether the game is over
 * and its result all come from here.
 *
 * Conventions: positions `startpos` or `fen <64 squares X/O/-> <side>` (or
 * the digit-and-slash form `8/8/8/3OX3/3XO3/8/8/8 X`; 36 squares or 6 rows
 * for 6x6), moves in lower case, a pass is `pass` (also read: 0000, PA, --,
 * and a move by the other side when the side to move must pass);
 * `bestmove` lines are exactly two tokens; errors are `info string error:
 * ...` lines and leave the position unchanged.
 *
 * A translator on the session base (session.h).  Searches run in the
 * session's worker thread (proto_search.h) so `stop`, `isready` and
 * `quit` are served at once.  Other commands that arrive during a
 * finite search wait for it; during `go infinite` they stop it first.
 */
#ifndef EMILIA_UGI_H
#define EMILIA_UGI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "engine.h"
#include "options.h"

typedef struct Ugi Ugi;

Ugi *ugi_new(FILE *out, const Options *opts, char *err);
void ugi_free(Ugi *u);
/* Stop any search; back to the state ugi_new() made. */
void ugi_reset(Ugi *u);
/* Hard cap on the nodes of every search (fuzzing); 0 = none. */
void ugi_set_node_cap(Ugi *u, uint64_t nodes);
/* Execute one line; false after quit. */
bool ugi_execute_line(Ugi *u, const char *line);
/* Wait for the running search, if any, to finish and print its move. */
void ugi_wait(Ugi *u);

/* `emilia --ugi`: returns the exit status. */
int ugi_main(FILE *in, FILE *out, const Options *opts);

/* The limits of `go ARGS` for the side to move, in the terms of the clock
 * model (timeman.h); false with a message in err for arguments that mean
 * nothing. */
bool ugi_go_limits(const Ugi *u, int argc, char **argv, EngineLimits *lim, char *err, size_t errlen);

#endif
