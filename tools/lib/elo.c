#include <math.h>
#include <stdio.h>
#include <string.h>
#include "elo.h"

double elo_score_of(double elo)
{
	return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

double elo_of_score(double score)
{
	if (score <= 0.0)
		return -INFINITY;
	if (score >= 1.0)
		return INFINITY;
	return -400.0 * log10(1.0 / score - 1.0);
}

/* Mean and variance of a discrete sample: values x[k] seen w[k] times. */
static double sample_stats(const double *x, const double *w, int k, double *mean, double *var)
{
	double n = 0, s = 0, v = 0;
	for (int i = 0; i < k; i++) {
		n += w[i];
		s += w[i] * x[i];
	}
	if (n <= 0) {
		*mean = *var = 0;
		return 0;
	}
	s /= n;
	for (int i = 0; i < k; i++)
		v += w[i] * (x[i] - s) * (x[i] - s);
	*mean = s;
	*var = v / n;
	return n;
}

static bool estimate(const double *x, const double *w, int k, EloEstimate *out)
{
	memset(out, 0, sizeof *out);
	double mean, var;
	double n = sample_stats(x, w, k, &mean, &var);
	if (n <= 0)
		return false;
	double half = ELO_Z95 * sqrt(var / n);
	out->n = n;
	out->score = mean;
	out->var = var;
	out->elo = elo_of_score(mean);
	out->lo = elo_of_score(mean - half);
	out->hi = elo_of_score(mean + half);
	return true;
}

static const double tri_x[3] = { 1.0, 0.5, 0.0 };
static const double penta_x[5] = { 0.0, 0.25, 0.5, 0.75, 1.0 };

bool elo_trinomial(int wins, int draws, int losses, EloEstimate *out)
{
	const double w[3] = { wins, draws, losses };
	return estimate(tri_x, w, 3, out);
}

bool elo_pentanomial(const int counts[5], EloEstimate *out)
{
	double w[5];
	for (int i = 0; i < 5; i++)
		w[i] = counts[i];
	return estimate(penta_x, w, 5, out);
}

void elo_sprt_bounds(const EloSprt *t, double *lower, double *upper)
{
	*lower = log(t->beta / (1.0 - t->alpha));
	*upper = log((1.0 - t->beta) / t->alpha);
}

static double llr(const EloSprt *t, const double *x, const double *counts, int k)
{
	double w[5];
	for (int i = 0; i < k; i++)
		w[i] = counts[i] > 0 ? counts[i] : 1e-3;
	double mean, var;
	double n = sample_stats(x, w, k, &mean, &var);
	double s0 = elo_score_of(t->elo0), s1 = elo_score_of(t->elo1);
	if (n <= 0 || var <= 0)
		return 0;
	return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
}

double elo_sprt_llr_trinomial(const EloSprt *t, int wins, int draws, int losses)
{
	if (wins + draws + losses == 0)
		return 0;
	const double c[3] = { wins, draws, losses };
	return llr(t, tri_x, c, 3);
}

double elo_sprt_llr_pentanomial(const EloSprt *t, const int counts[5])
{
	double c[5];
	int n = 0;
	for (int i = 0; i < 5; i++) {
		c[i] = counts[i];
		n += counts[i];
	}
	return n ? llr(t, penta_x, c, 5) : 0;
}

EloSprtVerdict elo_sprt_verdict(const EloSprt *t, double v, int samples)
{
	if (samples < ELO_SPRT_MIN_SAMPLES)
		return ELO_SPRT_CONTINUE;
	double lo, hi;
	elo_sprt_bounds(t, &lo, &hi);
	if (v >= hi)
		return ELO_SPRT_H1;
	if (v <= lo)
		return ELO_SPRT_H0;
	return ELO_SPRT_CONTINUE;
}

bool elo_sprt_valid(const EloSprt *t, char *err)
{
	if (!(t->alpha > 0 && t->alpha < 1 && t->beta > 0 && t->beta < 1 && t->alpha + t->beta < 1)) {
		snprintf(err, 120, "SPRT needs 0 < alpha, beta < 1 and alpha + beta < 1");
		return false;
	}
	if (!(t->elo0 < t->elo1) || !isfinite(t->elo0) || !isfinite(t->elo1)) {
		snprintf(err, 120, "SPRT needs finite elo0 < elo1");
		return false;
	}
	return true;
}
