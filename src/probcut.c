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
 * fitted with (data/eval.bin, weight file version 2): rerun
 *   ./emilia-probcut --positions 150 --max-depth 12 --seed 1 \
 *       DATA/wthor/WTH_2005.wtb DATA/wthor/WTH_2010.wtb DATA/wthor/WTH_2014.wtb
 * and paste its output here when the evaluation changes.
 */
#include "probcut.h"

/* fitted by: emilia-probcut --positions 150 --max-depth 12 --seed 1 WTH_2005.wtb WTH_2010.wtb WTH_2014.wtb */
/* depth shallow  a  b  sigma(all)  n */
/*  3  1  0.9330 -0.3699  3.885  150 */
/*  4  2  0.9471 -0.3294  3.246  150 */
/*  5  3  0.9388 -0.1134  2.675  150 */
/*  6  2  0.8985 -0.3330  3.605  150 */
/*  7  3  0.9270 +0.2535  3.313  150 */
/*  8  4  0.9393 +0.2382  3.386  150 */
/*  9  5  0.9626 +0.5353  3.352  150 */
/* 10  4  0.9259 +0.1230  3.621  150 */
/* 11  5  0.9407 +0.5644  3.137  150 */
/* 12  6  0.9674 +0.0750  3.057  150 */
static const ProbCutModel probcut_models[PROBCUT_MAX_FIT_DEPTH + 1] = {
	{ 1.0, 0.0 }, /* 0: unused */
	{ 1.0, 0.0 }, /* 1: unused */
	{ 1.0, 0.0 }, /* 2: unused */
	{ 0.9330, -0.3699 }, /* 3 */
	{ 0.9471, -0.3294 }, /* 4 */
	{ 0.9388, -0.1134 }, /* 5 */
	{ 0.8985, -0.3330 }, /* 6 */
	{ 0.9270, +0.2535 }, /* 7 */
	{ 0.9393, +0.2382 }, /* 8 */
	{ 0.9626, +0.5353 }, /* 9 */
	{ 0.9259, +0.1230 }, /* 10 */
	{ 0.9407, +0.5644 }, /* 11 */
	{ 0.9674, +0.0750 }, /* 12 */
	{ 0.9674, +0.0750 }, /* 13: = deepest fitted */
	{ 0.9674, +0.0750 }, /* 14: = deepest fitted */
};
#define PROBCUT_SIGMA_C0 5.2408
#define PROBCUT_SIGMA_DEPTH -0.0265
#define PROBCUT_SIGMA_EMPTIES -0.0466
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
