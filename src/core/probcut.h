/*
 * probcut.h - the one model of multi-ProbCut: the midgame search's
 * (search.c) and the endgame solver's selective pre-searches (endgame.c).
 *
 * Model: the value v of a depth-d search is predicted from the value s of
 * a depth-`shallow` search of the same position as v ~ a * s + b, with a
 * residual standard deviation sigma(d, empties).  The constants are
 * produced by tools/emilia-probcut.c (see its header for the method and
 * probcut.c for the data the current ones came from); they belong to the
 * evaluation they were fitted with, so refit when the evaluation changes.
 */
#ifndef EMILIA_PROBCUT_H
#define EMILIA_PROBCUT_H

/* ProbCut is tried from this depth on. */
#define PROBCUT_MIN_DEPTH 3
/* Depths with their own fitted (a, b); deeper ones use the last. */
#define PROBCUT_MAX_FIT_DEPTH 14

typedef struct ProbCutModel {
	double a, b;   /* v ~ a * s + b */
} ProbCutModel;

/* Shallow depth used for a depth-d search (the fitting tool uses it too). */
int probcut_shallow_depth(int depth);

/* The model of depth d (>= PROBCUT_MIN_DEPTH). */
const ProbCutModel *probcut_model(int depth);

/* Residual deviation (discs) for depth d at `empties` empty squares. */
double probcut_sigma(int depth, int empties);

/* The endgame solver's probable cuts predict the exact score of a position
 * with n empties from an evaluation search of depth
 * probcut_endgame_depth(n): about n / 4, with the parity of n (even and
 * odd depths are biased differently). */
static inline int probcut_endgame_depth(int n)
{
	int d = (((n / 4) & ~1) | (n & 1)) - 2;
	return d < 0 ? 0 : d;
}

/* Standard deviation (discs) of exact score minus depth-d evaluation
 * search at n empties: a linear model tuned by node counts on FFO
 * #40-#49 (a smaller sigma cuts more in the pre-searches but orders the
 * exact search worse; a larger one cuts too little). */
static inline double probcut_endgame_sigma(int n, int d)
{
	return 3.0 + 0.15 * (n - d);
}

#endif
