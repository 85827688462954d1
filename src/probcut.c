/*
 * probcut.c - fitted multi-ProbCut constants (model in probcut.h).
 *
 * Fitted with tools/emilia-probcut.c (method in its header): 200 positions
 * sampled from the 2005, 2010 and 2015 WTHOR archives (20..54 empties),
 * searched at depths 1..12 without ProbCut; per deep depth d a least-
 * squares line v_d = a v_s + b on the shallow value v_s (s =
 * probcut_shallow_depth(d)), then sigma(d, e) fitted linearly on the
 * residual deviations of (depth, 6-empties buckets).  Deeper depths use
 * the deepest fitted line.  These belong to the evaluation they were
 * fitted with (the placeholder evaluation of commit e1b89a4): rerun
 *   ./emilia-probcut --positions 200 --max-depth 12 --seed 1 \
 *       DATA/wthor/WTH_2005.wtb DATA/wthor/WTH_2010.wtb DATA/wthor/WTH_2015.wtb
 * and paste its output here when the evaluation changes.
 */
#include "probcut.h"

/* fitted by: emilia-probcut --positions 200 --max-depth 12 --seed 1 WTH_2005.wtb WTH_2010.wtb WTH_2015.wtb */
/* depth shallow  a  b  sigma(all)  n */
/*  3  1  0.8864 +0.0009  1.291  200 */
/*  4  2  0.9382 -0.1680  1.235  200 */
/*  5  3  0.9737 -0.1995  1.276  200 */
/*  6  2  0.9435 -0.0940  1.582  200 */
/*  7  3  0.9698 -0.3020  1.509  200 */
/*  8  4  0.9815 +0.1103  1.285  200 */
/*  9  5  0.9923 -0.2071  1.221  200 */
/* 10  4  0.9599 +0.1506  1.622  200 */
/* 11  5  0.9903 -0.2538  1.444  200 */
/* 12  6  1.0076 +0.1793  1.438  200 */
static const ProbCutModel probcut_models[PROBCUT_MAX_FIT_DEPTH + 1] = {
	{ 1.0, 0.0 }, /* 0: unused */
	{ 1.0, 0.0 }, /* 1: unused */
	{ 1.0, 0.0 }, /* 2: unused */
	{ 0.8864, +0.0009 }, /* 3 */
	{ 0.9382, -0.1680 }, /* 4 */
	{ 0.9737, -0.1995 }, /* 5 */
	{ 0.9435, -0.0940 }, /* 6 */
	{ 0.9698, -0.3020 }, /* 7 */
	{ 0.9815, +0.1103 }, /* 8 */
	{ 0.9923, -0.2071 }, /* 9 */
	{ 0.9599, +0.1506 }, /* 10 */
	{ 0.9903, -0.2538 }, /* 11 */
	{ 1.0076, +0.1793 }, /* 12 */
	{ 1.0076, +0.1793 }, /* 13: = deepest fitted */
	{ 1.0076, +0.1793 }, /* 14: = deepest fitted */
};
#define PROBCUT_SIGMA_C0 2.1115
#define PROBCUT_SIGMA_DEPTH 0.0158
#define PROBCUT_SIGMA_EMPTIES -0.0229
/* 200 positions, 292 s */

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
