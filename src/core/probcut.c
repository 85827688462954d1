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
/*  3  1  0.9221 -0.3051  3.505  150 */
/*  4  2  0.9273 -0.1736  2.852  150 */
/*  5  3  0.9499 -0.2720  2.276  150 */
/*  6  2  0.9162 -0.1183  3.309  150 */
/*  7  3  0.9339 -0.0180  3.128  150 */
/*  8  4  0.9767 +0.3265  3.203  150 */
/*  9  5  1.0028 +0.3939  2.838  150 */
/* 10  4  0.9770 +0.2732  3.355  150 */
/* 11  5  0.9825 +0.4643  2.774  150 */
/* 12  6  0.9946 +0.1736  2.876  150 */
static const ProbCutModel probcut_models[PROBCUT_MAX_FIT_DEPTH + 1] = {
	{ 1.0, 0.0 }, /* 0: unused */
	{ 1.0, 0.0 }, /* 1: unused */
	{ 1.0, 0.0 }, /* 2: unused */
	{ 0.9221, -0.3051 }, /* 3 */
	{ 0.9273, -0.1736 }, /* 4 */
	{ 0.9499, -0.2720 }, /* 5 */
	{ 0.9162, -0.1183 }, /* 6 */
	{ 0.9339, -0.0180 }, /* 7 */
	{ 0.9767, +0.3265 }, /* 8 */
	{ 1.0028, +0.3939 }, /* 9 */
	{ 0.9770, +0.2732 }, /* 10 */
	{ 0.9825, +0.4643 }, /* 11 */
	{ 0.9946, +0.1736 }, /* 12 */
	{ 0.9946, +0.1736 }, /* 13: = deepest fitted */
	{ 0.9946, +0.1736 }, /* 14: = deepest fitted */
};
#define PROBCUT_SIGMA_C0 5.6616
#define PROBCUT_SIGMA_DEPTH -0.0322
#define PROBCUT_SIGMA_EMPTIES -0.0663
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
