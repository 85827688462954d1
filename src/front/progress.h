/*
 * progress.h - progress reports on stderr for long commands (`emilia
 * solve`, `emilia review`): a time-left estimate that only counts down,
 * and a text progress bar.
 *
 * The estimate: each report brings a raw estimate of the time left
 * (from the share of the work done, which can be far off while one root
 * move of a solve takes most of the time).  What is shown is the smaller
 * of that raw estimate and the last shown value less the time since it
 * was shown, so it never grows: it converges on zero and reaches it no
 * later than the work ends, unless the work runs past every estimate,
 * in which case it stays at zero ("finishing").
 */
#ifndef EMILIA_PROGRESS_H
#define EMILIA_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ProgressEta {
	bool have;        /* an estimate has been shown */
	double shown;     /* the last time left shown, seconds */
	double at;        /* the elapsed time when it was shown */
} ProgressEta;

void progress_eta_init(ProgressEta *e);
/* A report at `elapsed` seconds with a raw estimate `raw` of the seconds
 * left (< 0: none).  Returns the seconds left to show (>= 0), or -1 while
 * there has been no estimate. */
double progress_eta_update(ProgressEta *e, double elapsed, double raw);

/* A solve's raw estimate from its root moves: move_index (from 0) of
 * `moves` is being searched; the first move (full window) is counted as
 * three of the others (null windows). */
double progress_solve_raw(double elapsed, int move_index, int moves);

/* "[#########-----------]  12/60 moves  0:41  ~1:02 left" (no newline):
 * `width` characters of bar; eta < 0 leaves the estimate out, 0 says
 * "finishing". */
void progress_bar(char *out, size_t len, int done, int total, const char *unit, double elapsed,
                  double eta, int width);

/* Seconds as "41 s", "3:05" or "1:02:03". */
void progress_time(char *out, size_t len, double seconds);

#endif
