/*
 * checkpoint.h - emilia-mpi's record of finished work.
 *
 * A checkpoint is a file of fixed-size records, each a finished work item:
 * a position (p, o: side to move first), the job's parameter (WLD flag,
 * label depth or book level) and its result (score, move, flags).  The
 * master appends the records of each finished chunk with one write() and
 * fsync()s it before it counts the chunk as done, so a killed job loses at
 * most the chunks in flight.  A result depends on the position and the
 * parameter only, so a resumed job uses the records whatever order the
 * work is handed out in.
 *
 * Layout (little-endian, docs/mpi.md):
 *   header, 256 bytes: "emilia-mpi checkpoint 1\n", the job's description
 *     (NUL-padded), then the CRC-32 of the first 252 bytes in the last 4;
 *   records, CKPT_RECORD bytes each: magic "EMCR", p, o (8 bytes each),
 *     param, score, move, flags (4 bytes each), CRC-32 of the first 36
 *     bytes.
 * On --resume the whole file is checked: a bad header, a job description
 * that differs, or a complete record whose magic or CRC is wrong is
 * refused; an incomplete last record (the job was killed inside a write)
 * is cut off with a note.
 */
#ifndef EMILIA_TOOLS_CHECKPOINT_H
#define EMILIA_TOOLS_CHECKPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CKPT_HEADER 256
#define CKPT_RECORD 40
#define CKPT_JOB_MAX 200
#define CKPT_ERR 2048

typedef struct CkptKey {
	uint64_t p, o;
	int32_t param;
} CkptKey;

typedef struct CkptValue {
	int32_t score, move, flags;
} CkptValue;

typedef struct Checkpoint Checkpoint;

/* Open the checkpoint for job description `job`.  resume = false: the
 * file must not exist (it is created; an existing one is refused, so no
 * finished work is overwritten by mistake).  resume = true: it must exist
 * and be sound (see above); its records are loaded.  NULL and a message
 * in err on failure. */
Checkpoint *ckpt_open(const char *path, const char *job, bool resume, char *err);
/* The stored result of key; false when there is none. */
bool ckpt_find(const Checkpoint *c, const CkptKey *key, CkptValue *v);
/* Append n records with one write, then fsync.  false and err on failure. */
bool ckpt_append(Checkpoint *c, const CkptKey *keys, const CkptValue *vals, size_t n, char *err);
/* Records held (loaded and appended). */
size_t ckpt_count(const Checkpoint *c);
/* Close; remove the file when `remove_file` (the job's output is safe). */
void ckpt_close(Checkpoint *c, bool remove_file);

/* CRC-32 (IEEE) of a buffer. */
uint32_t ckpt_crc32(const void *buf, size_t len);

#endif
