/*
 * saver.h - emilia-serve's writer of the table files, a thread of its own:
 * the event thread hands it a table's text (or its removal) and goes on;
 * the saver writes each file through a temporary and a rename.  A table
 * changed again before its file was written is written once, as it is
 * last.  Creating and renaming files costs the file system far more than
 * serving a move (bench/results/serve-results.md), so it is kept off the
 * thread that serves the sockets.
 */
#ifndef EMILIA_SERVE_SAVER_H
#define EMILIA_SERVE_SAVER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Saver Saver;

/* Files go into dir; NULL when the thread cannot start. */
Saver *saver_new(const char *dir);
/* Write text[0..len) as dir/name (it is copied), or remove the file
 * (text NULL).  False when out of memory (nothing queued). */
bool saver_put(Saver *s, const char *name, const char *text, size_t len);
/* Write everything queued, then stop the thread and free it. */
void saver_free(Saver *s);

#endif
