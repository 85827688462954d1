/*
 * blobs.h - the data files built into the binary: the trained evaluation
 * weights (data/eval.bin, read through weights_builtin(), and those of the
 * other games, read by eval.c) and the default opening book
 * (book/emilia.book, opened by book_open_default()).
 *
 * blobs.c includes the files with .incbin (paths relative to the
 * repository root, where make runs; the Makefile rebuilds blobs.o when
 * one changes).  It is data and three accessors that call nothing, so the
 * default build (ARCH=dispatch, docs/build.md) compiles it once and both
 * copies of the engine share it instead of holding the 16.5 MB twice.
 */
#ifndef EMILIA_BLOBS_H
#define EMILIA_BLOBS_H

#include <stddef.h>

/* The contents of data/eval.bin, *len bytes, 16-byte aligned. */
const unsigned char *blob_eval_weights(size_t *len);

/* The trained weights of the other games, gunzipped by make from
 * data/eval-anti.bin.gz (game 0: 8x8 Anti), data/eval-6x6.bin.gz (1) and
 * data/eval-6x6-anti.bin.gz (2) into build/blobs/; 16-byte aligned. */
const unsigned char *blob_game_weights(int game, size_t *len);

/* The contents of book/emilia.book, *len bytes, 64-byte aligned (the book
 * is searched in place). */
const unsigned char *blob_default_book(size_t *len);

#endif
