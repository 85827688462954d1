/*
 * train_report.c - emilia-train's reports: the errors of the weights by phase and
 * by empties (train.h lists the trainer's files).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include "patterns.h"
#include "train.h"

/* ---- reporting ---------------------------------------------------------- */

void report(const char *name, const Set *s, FILE *rep)
{
	const Evaluator *ev = weights_8x8();
	double err[PATTERN_PHASES] = { 0 }, err24 = 0, ex[PATTERN_PHASES] = { 0 };
	long cnt[PATTERN_PHASES] = { 0 }, n24 = 0, nex[PATTERN_PHASES] = { 0 };
	for (size_t i = 0; i < s->cap; i++) {
		const Sample *x = &s->slot[i];
		if (!x->cnt || x->exact == LABEL_DROPPED)
			continue;
		double d = fabs(eval_score(ev, x->p, x->o) - (double)x->sum / x->cnt);
		int ph = patterns_phase(x->empties);
		err[ph] += d;
		cnt[ph]++;
		if (x->exact == LABEL_EXACT) {
			ex[ph] += d;
			nex[ph]++;
		}
		if (x->empties == 24 && x->exact == LABEL_EXACT) {
			err24 += d;
			n24++;
		}
	}
	say(rep, "%s set: mean absolute error of eval_score per phase (discs)\n", name);
	say(rep, "  %-9s %9s %7s %9s %7s\n", "empties", "positions", "MAE", "exact", "MAE");
	for (int ph = 0; ph < PATTERN_PHASES; ph++)
		say(rep, "  %2d-%-6d %9ld %7.2f %9ld %7.2f\n", patterns_phase_lo(ph), patterns_phase_hi(ph), cnt[ph],
		     cnt[ph] ? err[ph] / cnt[ph] : 0.0, nex[ph], nex[ph] ? ex[ph] / nex[ph] : 0.0);
	say(rep, "  %s positions at 24 empties with exact WTHOR scores: %ld, MAE %.3f\n",
	     name, n24, n24 ? err24 / n24 : 0.0);
}

/* The error by empties (10..30) on the exactly labelled positions of a
 * set: the static evaluation, and with --check-depths the depth-D
 * searches of at most --check-max positions per empties (the first in
 * table order, a fixed choice). */
void report_empties(const Options *o, const char *name, Set *s, FILE *rep)
{
	enum { LO = 10, HI = 30 };
	const Evaluator *ev = weights_8x8();
	/* buckets of |exact score| (below): the error by empties, also
	 * reweighted to the 24-empty positions' mix of margins */
	enum { NB = 5 };
	static const int blo[NB + 1] = { 0, 5, 10, 20, 30, 65 };
	double err[HI + 1] = { 0 }, serr[4][HI + 1] = { { 0 } }, amag[HI + 1] = { 0 }, eb[HI + 1][NB] = { { 0 } };
	long cnt[HI + 1] = { 0 }, scnt[HI + 1] = { 0 }, nb[HI + 1][NB] = { { 0 } };
	Sample **todo = xcalloc(s->n + 1, sizeof *todo);
	size_t n = 0;
	for (size_t i = 0; i < s->cap; i++) {
		Sample *x = &s->slot[i];
		if (!x->cnt || x->exact != LABEL_EXACT || x->empties < LO || x->empties > HI)
			continue;
		double y = (double)x->sum / x->cnt, d = fabs(eval_score(ev, x->p, x->o) - y);
		int b = 0;
		while (b < NB - 1 && fabs(y) >= blo[b + 1])
			b++;
		err[x->empties] += d;
		amag[x->empties] += fabs(y);
		eb[x->empties][b] += d;
		nb[x->empties][b]++;
		cnt[x->empties]++;
		if (scnt[x->empties] < o->check_max) {
			scnt[x->empties]++;
			todo[n++] = x;
		}
	}
	for (int d = 0; d < o->ncheck; d++) {
		SearchJob job = { todo, n, 0, o->check_depth[d], xcalloc(n + 1, 1) };
		train_run_threads(search_worker, &job, o->threads);
		for (size_t i = 0; i < n; i++)
			serr[d][todo[i]->empties] += fabs(job.score[i] - (double)todo[i]->sum / todo[i]->cnt);
		free(job.score);
	}
	free(todo);
	/* where the error at 20-24 empties comes from: by the size of the
	 * exact score, and the least-squares scale of the evaluation */
	double berr[NB] = { 0 }, bbias[NB] = { 0 }, sxy = 0, sxx = 0, verr[NB] = { 0 }, vbias[NB] = { 0 };
	long bcnt[NB] = { 0 }, vcnt[NB] = { 0 };
	for (size_t i = 0; i < s->cap; i++) {
		Sample *x = &s->slot[i];
		if (!x->cnt || x->exact != LABEL_EXACT || x->empties < 20 || x->empties > 24)
			continue;
		double y = (double)x->sum / x->cnt, v = eval_score(ev, x->p, x->o);
		int b = 0;
		while (b < NB - 1 && fabs(y) >= blo[b + 1])
			b++;
		berr[b] += fabs(v - y);
		bbias[b] += y < 0 ? y - v : v - y;
		bcnt[b]++;
		b = 0;
		while (b < NB - 1 && fabs(v) >= blo[b + 1])
			b++;
		verr[b] += fabs(v - y);
		vbias[b] += v < 0 ? v - y : y - v;
		vcnt[b]++;
		sxy += v * y;
		sxx += v * v;
	}
	double scale = sxx > 0 ? sxy / sxx : 1, serr_scaled = 0;
	long nsc = 0;
	for (size_t i = 0; i < s->cap; i++) {
		Sample *x = &s->slot[i];
		if (!x->cnt || x->exact != LABEL_EXACT || x->empties < 20 || x->empties > 24)
			continue;
		serr_scaled += fabs(scale * eval_score(ev, x->p, x->o) - (double)x->sum / x->cnt);
		nsc++;
	}
	say(rep, "%s set, exact positions at 20-24 empties: static error by |exact score|\n", name);
	for (int b = 0; b < NB; b++)
		say(rep, "  |score| %2d-%-2d %7ld positions  MAE %5.2f  bias %+5.2f\n", blo[b], blo[b + 1] - 1,
		     bcnt[b], bcnt[b] ? berr[b] / bcnt[b] : 0.0, bcnt[b] ? bbias[b] / bcnt[b] : 0.0);
	for (int b = 0; b < NB; b++)
		say(rep, "  |eval|  %2d-%-2d %7ld positions  MAE %5.2f  score beyond eval %+5.2f\n", blo[b],
		     blo[b + 1] - 1, vcnt[b], vcnt[b] ? verr[b] / vcnt[b] : 0.0, vcnt[b] ? vbias[b] / vcnt[b] : 0.0);
	say(rep, "  least-squares scale of the evaluation %.3f; scaled MAE %.2f\n", scale,
	     nsc ? serr_scaled / nsc : 0.0);
	say(rep, "%s set, exactly labelled positions: mean absolute error by empties (discs)\n", name);
	say(rep, "  empties positions  |score|  static  as at 24");
	for (int d = 0; d < o->ncheck; d++)
		say(rep, "  depth %-2d", o->check_depth[d]);
	say(rep, "%s\n", o->ncheck ? "  (searched)" : "");
	for (int e = LO; e <= HI; e++) {
		if (!cnt[e])
			continue;
		/* the static error with the margins mixed as at 24 empties */
		double rw = 0;
		bool all = cnt[24] > 0;
		for (int b = 0; b < NB && all; b++) {
			all = nb[e][b] > 0 || !nb[24][b];
			if (nb[e][b])
				rw += (double)nb[24][b] / cnt[24] * eb[e][b] / nb[e][b];
		}
		say(rep, "  %7d %9ld %8.1f %7.2f", e, cnt[e], amag[e] / cnt[e], err[e] / cnt[e]);
		if (all)
			say(rep, " %9.2f", rw);
		else
			say(rep, " %9s", "-");
		for (int d = 0; d < o->ncheck; d++)
			say(rep, "  %8.2f", serr[d][e] / scnt[e]);
		say(rep, o->ncheck ? "  %10ld\n" : "\n", scnt[e]);
	}
}

void say(FILE *rep, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (rep) {
		va_start(ap, fmt);
		vfprintf(rep, fmt, ap);
		va_end(ap);
	}
}
