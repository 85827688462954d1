/*
 * probcut.c - fitted multi-ProbCut constants (model in probcut.h).
 *
 * PROVISIONAL until the fit below is filled by tools/emilia-probcut.c.
 */
#include "probcut.h"

static const ProbCutModel probcut_models[PROBCUT_MAX_FIT_DEPTH + 1] = {
	{ 1.0, 0.0 }, { 1.0, 0.0 }, { 1.0, 0.0 }, { 1.0, 0.0 }, { 1.0, 0.0 },
	{ 1.0, 0.0 }, { 1.0, 0.0 }, { 1.0, 0.0 }, { 1.0, 0.0 }, { 1.0, 0.0 },
	{ 1.0, 0.0 }, { 1.0, 0.0 }, { 1.0, 0.0 }, { 1.0, 0.0 }, { 1.0, 0.0 },
};
#define PROBCUT_SIGMA_C0 4.0
#define PROBCUT_SIGMA_DEPTH 0.1
#define PROBCUT_SIGMA_EMPTIES 0.05

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
