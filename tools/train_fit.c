/*
 * train_fit.c - emilia-train's fit of the pattern weights: full-batch Adam
 * over the phases (train.h lists the trainer's files).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "patterns.h"
#include "util.h"
#include "weights.h"
#include "train.h"

static uint32_t *canon_map;   /* PATTERN_WEIGHTS: canonical position of each weight */

void build_canon_map(void)
{
	canon_map = xcalloc(PATTERN_WEIGHTS, sizeof *canon_map);
	for (int pt = 0; pt < PATTERN_COUNT; pt++) {
		uint32_t off = patterns_offset(pt);
		for (uint32_t i = 0; i < patterns_size(pt); i++)
			canon_map[off + i] = off + patterns_canonical(pt, i);
	}
	for (uint32_t i = PATTERN_MOB_OFFSET; i < PATTERN_WEIGHTS; i++)
		canon_map[i] = i;
}

static void *grad_worker(void *arg)
{
	Fit *f = arg;
	for (;;) {
		pthread_mutex_lock(&f->lock);
		int c = f->next_chunk++;
		pthread_mutex_unlock(&f->lock);
		if (c >= NCHUNK)
			break;
		float *g = f->grad[c];
		memset(g, 0, PATTERN_WEIGHTS * sizeof *g);
		size_t lo = f->n * (size_t)c / NCHUNK, hi = f->n * (size_t)(c + 1) / NCHUNK;
		double sse = 0;
		for (size_t i = lo; i < hi; i++) {
			const uint32_t *x = f->feat + i * PATTERN_FEATURES;
			float s = 0;
			for (int k = 0; k < PATTERN_FEATURES; k++)
				s += f->w[x[k]];
			float r = s - f->label[i];
			sse += (double)r * r;
			if (f->huber > 0)
				r = r > f->huber ? f->huber : r < -f->huber ? -f->huber : r;
			r *= f->sw[i];
			for (int k = 0; k < PATTERN_FEATURES; k++)
				g[x[k]] += r;
		}
		f->sse[c] = sse;
	}
	return NULL;
}

static double gradient(Fit *f, float *g)
{
	f->next_chunk = 0;
	train_run_threads(grad_worker, f, f->nthreads);
	memset(g, 0, PATTERN_WEIGHTS * sizeof *g);
	double sse = 0;
	for (int c = 0; c < NCHUNK; c++) {
		for (size_t j = 0; j < PATTERN_WEIGHTS; j++)
			g[j] += f->grad[c][j];
		sse += f->sse[c];
	}
	return sse;
}

/* Fit one phase; w receives the weights in discs (every position, tied). */
void fit_phase(const Options *o, Fit *f, int ph, const float *prior)
{
	float *g = xcalloc(PATTERN_WEIGHTS, sizeof *g);
	float *m = xcalloc(PATTERN_WEIGHTS, sizeof *m);
	float *v = xcalloc(PATTERN_WEIGHTS, sizeof *v);
	if (prior)
		memcpy(f->w, prior, PATTERN_WEIGHTS * sizeof *f->w);
	else
		memset(f->w, 0, PATTERN_WEIGHTS * sizeof *f->w);
	const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
	double t0 = util_now();
	for (int ep = 1; ep <= o->epochs; ep++) {
		double sse = gradient(f, g);
		/* learning rate: cosine decay to 5% */
		double lr = o->lr * (0.05 + 0.95 * 0.5 * (1 + cos(M_PI * (ep - 1) / o->epochs)));
		double c1 = 1 - pow(b1, ep), c2 = 1 - pow(b2, ep);
		for (size_t j = 0; j < PATTERN_WEIGHTS; j++) {
			if ((o->no_mobility || ph > o->mob_max_phase) && j >= PATTERN_MOB_OFFSET)
				continue;
			double gj = (double)g[j] + o->lambda * f->w[j];
			if (prior)
				gj += o->prior_lambda * (f->w[j] - prior[j]);
			if (gj == 0 && m[j] == 0)
				continue;
			m[j] = (float)(b1 * m[j] + (1 - b1) * gj);
			v[j] = (float)(b2 * v[j] + (1 - b2) * gj * gj);
			f->w[j] -= (float)(lr * (m[j] / c1) / (sqrt(v[j] / c2) + eps));
		}
		if (ep == 1 || ep % 50 == 0 || ep == o->epochs)
			fprintf(stderr, "  phase %2d epoch %4d: train rmse %.3f (%.0f s)\n", ph, ep,
			        sqrt(sse / (double)(f->n ? f->n : 1)), util_now() - t0);
	}
	free(g);
	free(m);
	free(v);
}

void features(uint64_t p, uint64_t o, uint32_t *x)
{
	patterns_features(p, o, x);
	for (int k = 0; k < PATTERN_FEATURES; k++)
		x[k] = canon_map[x[k]];
}

/* The fitter's buffers (the phase's samples are the caller's). */
void fit_init(Fit *f, const Options *o)
{
	memset(f, 0, sizeof *f);
	f->nthreads = o->threads;
	f->huber = (float)o->huber;
	pthread_mutex_init(&f->lock, NULL);
	f->w = xcalloc(PATTERN_WEIGHTS, sizeof *f->w);
	for (int c = 0; c < NCHUNK; c++)
		f->grad[c] = xcalloc(PATTERN_WEIGHTS, sizeof(float));
}

void fit_free(Fit *f)
{
	for (int c = 0; c < NCHUNK; c++)
		free(f->grad[c]);
	free(f->w);
	pthread_mutex_destroy(&f->lock);
}

/* The fitted phase into w (every weight, tied ones equal), in weight
 * units, and the phase's samples freed. */
void fit_store(Fit *f, int16_t *w)
{
	for (size_t j = 0; j < PATTERN_WEIGHTS; j++) {
		double q = floor(f->w[canon_map[j]] * WEIGHTS_SCALE + 0.5);
		w[j] = (int16_t)(q > 32767 ? 32767 : q < -32767 ? -32767 : q);
	}
	free(f->feat);
	free(f->label);
	free(f->sw);
}

/* --game-dump for the 8x8 game: one line per labelled position, the
 * canonical board (p to move, hex), empties, label (the mean of its labels,
 * side to move's view), g(ame), e(xact) or s(earch), t(est) or -, the number
 * of games that reached it, and 1 if a self-play game did (else 0). */
void dump_sets(const char *path, const Set *train_set, const Set *test_set)
{
	FILE *d = fopen(path, "w");
	if (!d)
		die("cannot write the --game-dump file");
	const Set *sets[2] = { train_set, test_set };
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < sets[k]->cap; i++) {
			const Sample *x = &sets[k]->slot[i];
			if (!x->cnt || x->exact == LABEL_DROPPED)
				continue;
			fprintf(d, "%016llx %016llx %d %.2f %c %c %d %d\n", (unsigned long long)x->p,
			        (unsigned long long)x->o, x->empties, (double)x->sum / x->cnt,
			        x->exact == LABEL_EXACT ? 'e' : x->exact == LABEL_SEARCH ? 's' : 'g', k ? 't' : '-',
			        x->cnt, x->selfplay);
		}
	if (fclose(d))
		die("cannot write the --game-dump file");
}

void train(const Options *o, Set *s, int16_t *out)
{
	Fit f;
	fit_init(&f, o);
	for (int ph = o->ph_lo; ph <= o->ph_hi; ph++) {
		/* the phase's empties, widened on both sides while there are fewer
		 * than --min-positions samples (the opening phases are sparse) */
		int lo = patterns_phase_lo(ph) - o->phase_overlap, hi = patterns_phase_hi(ph) + o->phase_overlap;
		lo = lo < 1 ? 1 : lo;
		hi = hi > 60 ? 60 : hi;
		size_t n;
		for (;;) {
			n = 0;
			for (size_t i = 0; i < s->cap; i++)
				n += s->slot[i].cnt && s->slot[i].exact != LABEL_DROPPED && s->slot[i].empties >= lo
				     && s->slot[i].empties <= hi;
			if (n >= (size_t)o->min_positions || (lo <= 1 && hi >= 60))
				break;
			lo = lo > 2 ? lo - 2 : 1;
			hi = hi < 58 ? hi + 2 : 60;
		}
		f.n = n;
		f.feat = xcalloc(n * PATTERN_FEATURES + 1, sizeof *f.feat);
		f.label = xcalloc(n + 1, sizeof *f.label);
		f.sw = xcalloc(n + 1, sizeof *f.sw);
		n = 0;
		for (size_t i = 0; i < s->cap; i++) {
			const Sample *x = &s->slot[i];
			if (!x->cnt || x->exact == LABEL_DROPPED || x->empties < lo || x->empties > hi)
				continue;
			features(x->p, x->o, f.feat + n * PATTERN_FEATURES);
			f.label[n] = (float)x->sum / x->cnt;
			/* positions reached in many games have reliable (averaged)
			 * labels: weight sqrt(count), at most 32 */
			f.sw[n] = (x->exact == LABEL_EXACT ? (float)o->exact_weight
			           : x->exact == LABEL_SEARCH ? (float)o->search_weight : 1.0f)
			        * (float)sqrt(x->cnt < 1024 ? x->cnt : 1024)
			        * (x->selfplay ? (float)o->selfplay_weight : 1.0f);
			n++;
		}
		fprintf(stderr, "phase %d (%d-%d empties): %zu positions with %d-%d empties\n", ph,
		        patterns_phase_lo(ph), patterns_phase_hi(ph), n, lo, hi);
		float *prior = NULL;
		if (o->prior) {
			prior = xcalloc(PATTERN_WEIGHTS, sizeof *prior);
			for (size_t j = 0; j < PATTERN_WEIGHTS; j++)
				prior[j] = (float)o->prior[(size_t)ph * PATTERN_WEIGHTS + j] / WEIGHTS_SCALE;
		}
		fit_phase(o, &f, ph, prior);
		free(prior);
		fit_store(&f, out + (size_t)ph * PATTERN_WEIGHTS);
	}
	fit_free(&f);
}
