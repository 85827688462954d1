/*
 * eval.c - PLACEHOLDER evaluation (mobility, corners, disc parity), to be
 * replaced by the trained pattern evaluation (issue 5).
 */
#include <stdio.h>
#include "eval.h"

struct Evaluator {
	int size;
	Variant variant;
};

static const Evaluator evaluators[2][3] = {
	{ { 8, VARIANT_NORMAL }, { 6, VARIANT_NORMAL }, { 4, VARIANT_NORMAL } },
	{ { 8, VARIANT_ANTI }, { 6, VARIANT_ANTI }, { 4, VARIANT_ANTI } },
};

const Evaluator *eval_get(int size, Variant v)
{
	int i = size == 8 ? 0 : size == 6 ? 1 : 2;
	return &evaluators[v == VARIANT_ANTI][i];
}

int eval_score(const Evaluator *e, uint64_t p, uint64_t o)
{
	const uint64_t geo = board_geometry(e->size);
	uint64_t corners = e->size == 8 ? 0x8100000000000081ULL
	                 : e->size == 6 ? 0x0000210000000021ULL : 0x0000000009000009ULL;
	int mob = bit_count(board_moves(p, o) & geo) - bit_count(board_moves(o, p) & geo);
	int cor = bit_count(p & corners) - bit_count(o & corners);
	int s = 2 * mob + 8 * cor;
	if (e->variant == VARIANT_ANTI)
		s = -8 * cor + 2 * mob + (bit_count(o) - bit_count(p));
	s /= 2;
	return s > 64 ? 64 : s < -64 ? -64 : s;
}

bool eval_load_file(const char *path, char *err)
{
	snprintf(err, 160, "%s: weight files are not supported by the placeholder evaluation", path);
	return false;
}
