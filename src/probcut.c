/*
 * probcut.c - fitted multi-ProbCut constants (model in probcut.h).
 *
 * Fitted with tools/emilia-probcut.c (method in its header): 150 positions
 * sampled from the 2005, 2010 and 2015 WTHOR archives (20..54 empties),
 * searched at depths 1..12 without ProbCut; per deep depth d a least-
 * squares line v_d = a v_s + b on the shallow value v_s (s =
 * probcut_shallow_depth(d)), then sigma(d, e) fitted linearly on the
 * residual deviations of (depth, 6-empties buckets).  Deeper depths use
 * the deepest fitted line.  These belong to the evaluation they were
 * fitted with (the trained pattern evaluation of commit ce8179e; the
 * placeholder evaluation before it gave sigma of 1.2-1.6 discs, this one
 * 2.9-4.1): rerun
 *   ./emilia-probcut --positions 150 --max-depth 12 --seed 1 \
 *       DATA/wthor/WTH_2005.wtb DATA/wthor/WTH_2010.wtb DATA/wthor/WTH_2015.wtb
 * and paste its output here when the evaluation changes.
 */
#include "probcut.h"

/* fitted by: emilia-probcut --positions 150 --max-depth 12 --seed 1 WTH_2005.wtb WTH_2010.wtb WTH_2015.wtb */
/* depth shallow  a  b  sigma(all)  n */
/*  3  1  0.9226 +0.1376  3.761  150 */
/*  4  2  0.9556 +0.0327  3.584  150 */
/*  5  3  1.0165 +0.2403  3.172  150 */
/*  6  2  0.9515 -0.0315  4.140  150 */
/*  7  3  0.9678 +0.4765  2.928  150 */
/*  8  4  0.9326 +0.1467  3.159  150 */
/*  9  5  0.9378 +0.4643  2.857  150 */
/* 10  4  0.9323 +0.0535  3.856  150 */
/* 11  5  0.9160 +0.6139  3.132  150 */
/* 12  6  0.9052 +0.2699  3.264  150 */
static const ProbCutModel probcut_models[PROBCUT_MAX_FIT_DEPTH + 1] = {
	{ 1.0, 0.0 }, /* 0: unused */
	{ 1.0, 0.0 }, /* 1: unused */
	{ 1.0, 0.0 }, /* 2: unused */
	{ 0.9226, +0.1376 }, /* 3 */
	{ 0.9556, +0.0327 }, /* 4 */
	{ 1.0165, +0.2403 }, /* 5 */
	{ 0.9515, -0.0315 }, /* 6 */
	{ 0.9678, +0.4765 }, /* 7 */
	{ 0.9326, +0.1467 }, /* 8 */
	{ 0.9378, +0.4643 }, /* 9 */
	{ 0.9323, +0.0535 }, /* 10 */
	{ 0.9160, +0.6139 }, /* 11 */
	{ 0.9052, +0.2699 }, /* 12 */
	{ 0.9052, +0.2699 }, /* 13: = deepest fitted */
	{ 0.9052, +0.2699 }, /* 14: = deepest fitted */
};
#define PROBCUT_SIGMA_C0 5.3673
#define PROBCUT_SIGMA_DEPTH -0.0455
#define PROBCUT_SIGMA_EMPTIES -0.0455
/* 150 positions, 291 s */

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
