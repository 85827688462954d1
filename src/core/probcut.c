/*
 * probcut.c - fitted multi-ProbCut constants (model in probcut.h).
 *
 * Fitted with tools/emilia-probcut.c (method in its header): 150 positions
 * sampled from the 2005, 2010 and 2014 WTHOR archives (20..54 empties; not
 * the evaluation's hold-out years 2015-2017),
 * searched at depths 1..12 without ProbCut; per deep depth d a least-
 * squares line v_d = a v_s + b on the shallow value v_s (s =
 * probcut_shallow_depth(d)), then sigma(d, e) fitted linearly on the
 * residual deviations of (depth, 6-empties buckets).  Deeper depths use
 * the deepest fitted line.  These belong to the evaluation they were
 * fitted with (data/eval.bin, weight file version 3): rerun
 *   ./emilia-probcut --positions 150 --max-depth 12 --seed 1 \
 *       DATA/wthor/WTH_2005.wtb DATA/wthor/WTH_2010.wtb DATA/wthor/WTH_2014.wtb
 * and paste its output here when the evaluation changes.
 */
#include "probcut.h"

/* fitted by: emilia-probcut --positions 150 --max-depth 12 --seed 1 WTH_2005.wtb WTH_2010.wtb WTH_2014.wtb */
/* depth shallow  a  b  sigma(all)  n */
/*  3  1  0.9116 -0.2194  3.510  150 */
/*  4  2  0.9435 -0.3993  2.963  150 */
/*  5  3  0.9608 -0.2499  2.313  150 */
/*  6  2  0.9286 -0.3005  3.271  150 */
/*  7  3  0.9524 +0.0240  2.891  150 */
/*  8  4  0.9566 +0.2977  3.246  150 */
/*  9  5  0.9897 +0.3152  2.606  150 */
/* 10  4  0.9668 +0.2649  3.328  150 */
/* 11  5  0.9757 +0.4515  2.795  150 */
/* 12  6  0.9958 +0.1468  2.931  150 */
static const ProbCutModel probcut_models[PROBCUT_MAX_FIT_DEPTH + 1] = {
	{ 1.0, 0.0 }, /* 0: unused */
	{ 1.0, 0.0 }, /* 1: unused */
	{ 1.0, 0.0 }, /* 2: unused */
	{ 0.9116, -0.2194 }, /* 3 */
	{ 0.9435, -0.3993 }, /* 4 */
	{ 0.9608, -0.2499 }, /* 5 */
	{ 0.9286, -0.3005 }, /* 6 */
	{ 0.9524, +0.0240 }, /* 7 */
	{ 0.9566, +0.2977 }, /* 8 */
	{ 0.9897, +0.3152 }, /* 9 */
	{ 0.9668, +0.2649 }, /* 10 */
	{ 0.9757, +0.4515 }, /* 11 */
	{ 0.9958, +0.1468 }, /* 12 */
	{ 0.9958, +0.1468 }, /* 13: = deepest fitted */
	{ 0.9958, +0.1468 }, /* 14: = deepest fitted */
};
#define PROBCUT_SIGMA_C0 5.3814
#define PROBCUT_SIGMA_DEPTH -0.0333
#define PROBCUT_SIGMA_EMPTIES -0.0589
/* fitted by emilia-probcut on 150 positions */

int probcut_shallow_depth(int depth)
{
	int s = 2 * (depth / 4) + (depth & 1);
	return s < 1 ? 1 : s;
}

const ProbCutModel *probcut_model(int depth)
{
	return &probcut_models[depth > PROBCUT_MAX_FIT_DEPTH ? PROBCUT_MAX_FIT_DEPTH : depth];
}

double probcut_sigma(int depth, int empties)
{
	double s = PROBCUT_SIGMA_C0 + PROBCUT_SIGMA_DEPTH * depth + PROBCUT_SIGMA_EMPTIES * empties;
	return s < 1.0 ? 1.0 : s;
}
