/*
 * weights.h - the evaluation weight file: format, checks, the built-in copy.
 *
 * Layout (all integers little-endian):
 *   0  char[8]  magic "EMILIAEV"
 *   8  u32      format version (WEIGHTS_VERSION: 3 since the feature set
 *               has 15 patterns; 2 had 11 patterns with potential mobility
 *               and the disc difference, and emilia-train --widen turns
 *               such a file into version 3 with zero weights for the 4 new
 *               patterns; older versions are refused as "from an older
 *               Emilia")
 *  12  u32      feature set id (patterns_set_id())
 *  16  u32      number of phases
 *  20  u32      weights per phase
 *  24  u32      scale: weight units per disc (WEIGHTS_SCALE)
 *  28  u32      reserved, 0
 *  32  u64      FNV-1a 64 checksum of bytes [0, 32) and [40, end)
 *  40  u8[24]   reserved, 0
 *  64  i16      weights[phases][weights per phase], each within
 *               -WEIGHTS_MAX..WEIGHTS_MAX
 * The file size must be exactly 64 + 2 * phases * weights.
 *
 * The trained 8x8 weights (data/eval.bin) are embedded in the binary at
 * build time (blobs.c includes the file with .incbin; the Makefile
 * rebuilds blobs.o when the file changes).
 */
#ifndef EMILIA_WEIGHTS_H
#define EMILIA_WEIGHTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WEIGHTS_MAGIC "EMILIAEV"
#define WEIGHTS_VERSION 3u
#define WEIGHTS_SCALE 64
#define WEIGHTS_HEADER 64
#define WEIGHTS_ERR 160
/* The largest weight magnitude, in 1/WEIGHTS_SCALE discs: 64 discs, the
 * largest score the evaluation returns (it clamps its sum there).  The
 * trained weights stay far below (data/eval.bin: |w| <= 1429, 22 discs);
 * weights_encode clamps to it, so every file the trainer writes loads, and
 * weights_decode refuses a file with a weight beyond it. */
#define WEIGHTS_MAX (64 * WEIGHTS_SCALE)

/* The embedded file: its bytes and length. */
const unsigned char *weights_builtin(size_t *len);

/* Check a weight file image and decode its weights into out
 * (phases * nweights int16 values) when it matches the expected shape and
 * every weight is within -WEIGHTS_MAX..WEIGHTS_MAX.  false and a message in
 * err (>= WEIGHTS_ERR bytes) otherwise; out is then untouched. */
bool weights_decode(const unsigned char *buf, size_t len, uint32_t set_id, uint32_t phases,
                    uint32_t nweights, int16_t *out, char *err);

/* The same for a file of format version `version` (weights_decode: the
 * current one); emilia-train --widen reads version 2 files with it. */
bool weights_decode_version(const unsigned char *buf, size_t len, uint32_t version, uint32_t set_id,
                            uint32_t phases, uint32_t nweights, int16_t *out, char *err);

/* Encode weights into a freshly allocated image (free() it), each clamped
 * to -WEIGHTS_MAX..WEIGHTS_MAX; NULL when out of memory. */
unsigned char *weights_encode(const int16_t *w, uint32_t set_id, uint32_t phases,
                              uint32_t nweights, size_t *len);

/* Read a whole regular file (at most max bytes) into a malloc'ed buffer;
 * NULL and a message in err on failure ("PATH: not a regular file" for a
 * FIFO, a device or a directory, refused without blocking). */
unsigned char *weights_read_file(const char *path, size_t max, size_t *len, char *err);

/* Write an image to a file atomically (temporary file + rename). */
bool weights_write_file(const char *path, const unsigned char *buf, size_t len, char *err);

/* The FNV-1a 64 checksum the header stores, computed over an image. */
uint64_t weights_checksum(const unsigned char *buf, size_t len);

#endif
