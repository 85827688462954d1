/*
 * elo.h - match statistics: score, logistic Elo with a 95 % interval, and
 * the sequential probability ratio test (SPRT) used by emilia-match.
 *
 * Two sampling models:
 *  - trinomial: every game is one sample worth 0, 1/2 or 1 point;
 *  - pentanomial: every colour-swapped game pair (same opening, each engine
 *    Black once) is one sample, worth 0, 1/4, 1/2, 3/4 or 1 point per game
 *    (pair totals 0, 1/2, 1, 3/2, 2).  Pairs cancel most of the opening's
 *    bias, so the pentanomial variance is the honest one for paired
 *    matches; counts[k] holds the pairs whose two games scored k/2 points.
 *
 * Elo: elo(s) = -400 log10(1/s - 1), the logistic model.  The 95 %
 * interval is the normal interval s +- 1.959964 * sd / sqrt(N) on the
 * mean score, mapped through elo() (so it is not symmetric in Elo).
 *
 * SPRT: the normal approximation to the generalized SPRT (GSPRT) of
 * Michel Van den Bergh, as fishtest uses it with logistic Elo bounds.
 * With s0 = score(elo0), s1 = score(elo1), the sample mean s and the
 * per-sample variance v (both from the model's counts),
 *     LLR = N * (s1 - s0) * (2 s - s0 - s1) / (2 v).
 * H1 (elo >= elo1) is accepted when LLR >= ln((1 - beta) / alpha), H0
 * (elo <= elo0) when LLR <= ln(beta / (1 - alpha)).  As in fishtest, zero
 * counts are replaced by 1e-3 before the SPRT's mean and variance are
 * taken, so that a run of identical results still has a finite LLR; the
 * Elo and its interval use the raw counts.  The approximation is weak for
 * tiny samples (one decisive pair against a much weaker engine can already
 * cross the bound), which is the usual caveat of this test.
 */
#ifndef EMILIA_ELO_H
#define EMILIA_ELO_H

#include <stdbool.h>

#define ELO_Z95 1.959963984540054

typedef struct EloEstimate {
	double n;        /* samples: games (trinomial) or pairs (pentanomial) */
	double score;    /* mean score per game, 0..1 */
	double var;      /* variance of one sample's per-game score */
	double elo;      /* elo(score); +-INFINITY at 1 / 0 */
	double lo, hi;   /* 95 % interval in Elo (may be infinite) */
} EloEstimate;

typedef enum { ELO_SPRT_CONTINUE = 0, ELO_SPRT_H0 = 1, ELO_SPRT_H1 = 2 } EloSprtVerdict;

typedef struct EloSprt {
	double elo0, elo1, alpha, beta;
} EloSprt;

/* Logistic model: expected score of an Elo difference, and back. */
double elo_score_of(double elo);
double elo_of_score(double score);   /* +-INFINITY at 1 and 0 */

/* Estimates; false when there are no samples (the estimate is zeroed). */
bool elo_trinomial(int wins, int draws, int losses, EloEstimate *out);
bool elo_pentanomial(const int counts[5], EloEstimate *out);

/* Bounds of the test: lower = ln(beta/(1-alpha)), upper = ln((1-beta)/alpha). */
void elo_sprt_bounds(const EloSprt *t, double *lower, double *upper);
/* Log-likelihood ratio of the test from the counts (see above). */
double elo_sprt_llr_trinomial(const EloSprt *t, int wins, int draws, int losses);
double elo_sprt_llr_pentanomial(const EloSprt *t, const int counts[5]);
/* The verdict of an LLR over `samples` samples (games for the trinomial
 * model, game pairs for the pentanomial one): no verdict before
 * ELO_SPRT_MIN_SAMPLES, because the normal approximation's variance of a
 * few samples is no estimate (one pair won 2-0 has an LLR past the bounds). */
#define ELO_SPRT_MIN_SAMPLES 20
EloSprtVerdict elo_sprt_verdict(const EloSprt *t, double llr, int samples);
/* Checks 0 < alpha, beta and alpha + beta < 1 (so lower < 0 < upper) and
 * elo0 < elo1;
 * false with a message in err (>= 120 bytes). */
bool elo_sprt_valid(const EloSprt *t, char *err);

#endif
