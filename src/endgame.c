/*
 * endgame.c - exact and win/loss/draw endgame solver.
 *
 * First, simple version: negamax alpha-beta with a principal-variation
 * root (the first move with the full window, the others with a null window
 * and a re-search when they beat alpha).  Passes and the end of the game
 * follow the rules of game.h: a side without a move passes, the game ends
 * when neither side can move, and the final score is board_final_score().
 */
#include <stdlib.h>
#include "endgame.h"
#include "util.h"

typedef struct Search {
	uint64_t geo;
	int size;
	Variant variant;
	uint64_t nodes;
	atomic_bool *stop;
	bool aborted;
} Search;

EndgameOptions endgame_default_options(void)
{
	EndgameOptions o = { 0 };
	o.size = 8;
	o.variant = VARIANT_NORMAL;
	o.threads = 1;
	return o;
}

static int final_score(const Search *s, uint64_t p, uint64_t o)
{
	Board b = { p, o };
	return board_final_score(b, s->size, s->variant);
}

static int search(Search *s, uint64_t p, uint64_t o, int alpha, int beta, bool passed)
{
	s->nodes++;
	if ((s->nodes & 0xFFFF) == 0 && s->stop && atomic_load_explicit(s->stop, memory_order_relaxed))
		s->aborted = true;
	if (s->aborted)
		return alpha;
	uint64_t moves = board_moves(p, o) & s->geo;
	if (!moves) {
		if (passed)
			return -final_score(s, o, p);
		return -search(s, o, p, -beta, -alpha, true);
	}
	int best = -1000;
	for (; moves; moves = bit_pop(moves)) {
		int sq = bit_first(moves);
		uint64_t f = board_flips(p, o, sq);
		int v = -search(s, o ^ f, p ^ f ^ bit_of(sq), -beta, -alpha, false);
		if (v > best) {
			best = v;
			if (v > alpha) {
				alpha = v;
				if (alpha >= beta)
					break;
			}
		}
	}
	return best;
}

EndgameResult endgame_solve_window(Board b, const EndgameOptions *opt, int alpha, int beta)
{
	EndgameOptions def = endgame_default_options();
	if (!opt)
		opt = &def;
	Search s = { 0 };
	s.size = opt->size;
	s.variant = opt->variant;
	s.geo = board_geometry(opt->size);
	s.stop = opt->stop;
	EndgameResult r = { 0 };
	double t0 = util_now();
	uint64_t moves = board_moves(b.p, b.o) & s.geo;
	if (!moves) {
		if (!(board_moves(b.o, b.p) & s.geo)) {
			r.move = BOARD_NOMOVE;
			r.score = final_score(&s, b.p, b.o);
		} else {
			r.move = BOARD_PASS;
			r.score = -search(&s, b.o, b.p, -beta, -alpha, true);
		}
	} else {
		int best = -1000, bestmove = bit_first(moves);
		for (; moves; moves = bit_pop(moves)) {
			int sq = bit_first(moves);
			uint64_t f = board_flips(b.p, b.o, sq);
			uint64_t np = b.o ^ f, no = b.p ^ f ^ bit_of(sq);
			int v;
			if (best == -1000) {
				v = -search(&s, np, no, -beta, -alpha, false);
			} else {
				v = -search(&s, np, no, -alpha - 1, -alpha, false);
				if (v > alpha && v < beta)
					v = -search(&s, np, no, -beta, -alpha, false);
			}
			if (s.aborted)
				break;
			if (v > best) {
				best = v;
				bestmove = sq;
				if (v > alpha)
					alpha = v;
				if (alpha >= beta)
					break;
			}
		}
		r.score = best;
		r.move = bestmove;
	}
	if (opt->wld)
		r.score = r.score > 0 ? 1 : r.score < 0 ? -1 : 0;
	r.nodes = s.nodes + 1;
	r.aborted = s.aborted;
	r.seconds = util_now() - t0;
	return r;
}

EndgameResult endgame_solve(Board b, const EndgameOptions *opt)
{
	if (opt && opt->wld) {
		return endgame_solve_window(b, opt, -1, 1);
	}
	return endgame_solve_window(b, opt, -65, 65);
}
