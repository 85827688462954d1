/*
 * nboard.h - the NBoard protocol (version 2) of the NBoard GUI, as
 * docs/protocols.md and NTest's Protocol.htm describe it: a translator on
 * the session base (session.h).
 *
 * The GUI merges the engine's stderr into its stdout, so this mode never
 * writes to stderr.  Searches (`go`, `hint`, `analyze`) run in a worker
 * thread; `ping` stops any of them and is answered by `pong` only after
 * the stopped search has gone quiet, so nothing about an old position
 * follows a pong.  Any other command that arrives during a search waits
 * for it.  Unknown or malformed commands are answered with a `status`
 * line naming the problem; the board never changes on an error.
 */
#ifndef EMILIA_NBOARD_H
#define EMILIA_NBOARD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "engine.h"
#include "options.h"

typedef struct NBoard NBoard;

NBoard *nboard_new(FILE *out, const Options *opts, char *err);
void nboard_free(NBoard *nb);
/* Stop any search; back to the state nboard_new() made. */
void nboard_reset(NBoard *nb);
/* Hard cap on the nodes of every search (fuzzing); 0 = none. */
void nboard_set_node_cap(NBoard *nb, uint64_t nodes);
/* Execute one line; false after quit. */
bool nboard_execute_line(NBoard *nb, const char *line);
/* Wait for the running search (if any) to finish. */
void nboard_wait(NBoard *nb);

/* The limits of a `go` now, in the terms of the clock model (timeman.h). */
EngineLimits nboard_limits(const NBoard *nb);

/* `emilia --nboard`. */
int nboard_main(FILE *in, FILE *out, const Options *opts);

#endif
