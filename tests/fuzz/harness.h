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

/* File contents, fed to the loaders the way a file on disk would be (they
 * never see the disk here).  Each aborts when the loader breaks its own
 * promises, so the fuzzer reports it as a crash:
 *  - fuzz_sgf: the input is an SGF file given to GTP loadsgf (the first
 *    byte, mod 8, picks the move number argument: 0 = none); a refused
 *    file must leave the game as it was, and every reply must be
 *    printable ASCII;
 *  - fuzz_book: the input is a book file; when its first byte is odd the
 *    header's count and checksums are first made to match the data and the
 *    entries sorted, so that the checks behind them are reached; an
 *    accepted book is then probed, listed, verified and counted;
 *  - fuzz_weights: the input patches the embedded weight file (4-byte
 *    records: 3-byte offset, 1 byte value; a first byte with bit 0 set
 *    recomputes the checksum, bit 1 cuts the file at the last offset); an
 *    accepted file's weights score a few positions. */
int fuzz_sgf(const uint8_t *data, size_t size);
int fuzz_book(const uint8_t *data, size_t size);
int fuzz_weights(const uint8_t *data, size_t size);

#endif
