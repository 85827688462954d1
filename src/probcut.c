/*
 * probcut.c - fitted multi-ProbCut constants (model in probcut.h).
 *
 * PROVISIONAL: not fitted yet; the engine keeps ProbCut off (selectivity
 * 100 %) until tools/emilia-probcut.c has produced the table.
 */
#include "probcut.h"

static const ProbCutModel probcut_models[PROBCUT_MAX_FIT_DEPTH + 1] = {
	{ 0, 1.0, 0.0 }, { 0, 1.0, 0.0 }, { 0, 1.0, 0.0 }, { 1, 1.0, 0.0 },
	{ 2, 1.0, 0.0 }, { 3, 1.0, 0.0 }, { 2, 1.0, 0.0 }, { 3, 1.0, 0.0 },
	{ 4, 1.0, 0.0 }, { 5, 1.0, 0.0 }, { 4, 1.0, 0.0 }, { 5, 1.0, 0.0 },
	{ 6, 1.0, 0.0 }, { 7, 1.0, 0.0 }, { 6, 1.0, 0.0 },
};

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
	return 4.0 + 0.05 * empties + 0.1 * depth;
}
