/*
 * transcript.h - whole-session protocol tests: feed a file of commands to
 * the emilia binary and compare everything it writes with an expected
 * transcript.
 *
 * Expected files are compared line by line, exactly, except for two
 * markers used where the output depends on the clock or on the evaluation
 * weights (never on the protocol): `{*}` inside a line matches one or more
 * characters other than spaces (one token or part of one), `{**}` matches
 * any characters (zero or more; used for the tail of a principal variation
 * when several lines tie), and a line that is exactly `{...}` matches any
 * number of lines (zero or more).
 */
#ifndef EMILIA_TRANSCRIPT_H
#define EMILIA_TRANSCRIPT_H

#include <stdbool.h>
#include <stddef.h>

/* Does actual match expected?  On a mismatch, why (>= 512 bytes) names
 * the first line that differs. */
bool transcript_match(const char *expected, const char *actual, char *why, size_t whylen);

/* Run "$EMILIA_BIN ARGS < input" and return its stdout (malloc'd); stderr
 * is kept in *err_out when not NULL (malloc'd).  NULL if it cannot run. */
char *transcript_run(const char *args, const char *input_path, char **err_out);

/* Read a whole file (malloc'd, NUL-terminated), NULL if missing. */
char *transcript_read_file(const char *path);

/* Run the session tests/data/proto/NAME.in ("$TESTDATA" in it is replaced
 * by the test data directory) through "$EMILIA_BIN ARGS" and compare its
 * stdout with NAME.out.  On a mismatch why says where, and the actual
 * output is left in /tmp/emilia-NAME.actual for inspection.  Also fails
 * when the binary wrote anything to stderr. */
bool transcript_session(const char *name, const char *args, char *why, size_t whylen);

#endif
