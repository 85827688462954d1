/*
 * gtp.h - the Go Text Protocol (version 2) with the Othello conventions
 * (docs/protocols.md): what Quarry, GoGui-style controllers and script
 * runners speak.  The default mode of `emilia`.
 *
 * Design: a translator on the session base (session.h).  One command
 * table (name, handler, argument synopsis, help) produces list_commands,
 * known_command and help; the `emilia-NAME` commands of the options come
 * from the option registry (options.h).  Handlers fill a reply object that
 * carries the request id, so no handler formats ids or framing: the
 * session's frame and done hooks read the id and write `=id text` or
 * `?id text` and the blank line.
 *
 * Passes: the board follows whatever convention the controller uses.
 * Passes the controller never sent (a move by the colour not to move when
 * the side to move must pass, genmove for the other colour) are recorded
 * as implicit; `undo` skips implicit passes, so it takes back exactly what
 * the controller thinks of as one move.
 */
#ifndef EMILIA_GTP_H
#define EMILIA_GTP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "engine.h"
#include "options.h"

typedef struct Gtp Gtp;

/* A session writing its replies to out, configured from opts (copied).
 * NULL with err (OPTIONS_ERR bytes) set when the engine cannot be made. */
Gtp *gtp_new(FILE *out, const Options *opts, char *err);
void gtp_free(Gtp *g);

/* Back to the state gtp_new() made: options, board, clocks. */
void gtp_reset(Gtp *g);

/* Hard cap on every search of the session, whatever the options say (the
 * fuzzing harness uses it so no input can make it search for long);
 * 0 = none. */
void gtp_set_node_cap(Gtp *g, uint64_t nodes);

/* Execute one input line (framing included); false once `quit` ran. */
bool gtp_execute_line(Gtp *g, const char *line);

/* Join the background search: GTP searches in the foreground, so at once
 * (the same forwarder as the other protocols'). */
void gtp_wait(Gtp *g);

/* The limits of a genmove now, in the terms of the clock model
 * (timeman.h). */
EngineLimits gtp_limits(const Gtp *g);

/* Load the main line of an SGF game record (the text of a file, as
 * loadsgf reads it) up to before move `upto` (1-based; 0 = all).  All or
 * nothing: false leaves the game unchanged, with a printable reason in
 * err.  For the fuzzing harness and tests. */
bool gtp_load_sgf(Gtp *g, const char *text, long upto, char *err, size_t errlen);

/* `emilia` (GTP on in and out until quit or the end of input); returns the
 * exit status. */
int gtp_main(FILE *in, FILE *out, const Options *opts);

#endif
