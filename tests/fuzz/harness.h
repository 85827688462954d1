/*
 * harness.h - the protocol fuzzing harness: one input is a whole session
 * (lines separated by newlines) fed to a fresh-state GTP, NBoard or UGI
 * session.  Used by the libFuzzer targets (fuzz_*.c, `make fuzz`) and by
 * the regression test that replays the saved corpus (test_fuzz_corpus.c).
 *
 * Sessions are created once per process and reset before every input
 * (state cannot leak from one input to the next).  They are sandboxed: no
 * file can be named by the input (loadsgf, book, eval, learn), and every
 * search is capped at a few thousand nodes, so no input can make a
 * session think for long; what remains is exactly the parsing and the
 * state handling being fuzzed.
 */
#ifndef EMILIA_FUZZ_HARNESS_H
#define EMILIA_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

enum { FUZZ_GTP, FUZZ_NBOARD, FUZZ_UGI };

/* Run one input through a protocol; returns 0. */
int fuzz_session(int protocol, const uint8_t *data, size_t size);

#endif
