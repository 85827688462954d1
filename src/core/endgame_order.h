/*
 * endgame_order.h - the solver's move ordering: the shallow evaluation
 * search, fastest-first values and the table probe of a node's children.
 * Part of endgame.c, included by it alone: its functions are static so that
 * the search inlines them (endgame_int.h).
 */
#ifndef EMILIA_ENDGAME_ORDER_H
#define EMILIA_ENDGAME_ORDER_H

#include "endgame_int.h"
#include "endgame_last.h"
#include "eval.h"

/* ---- move ordering -------------------------------------------------- */

/* Shallow evaluation search (alpha-beta, depth plies) for move ordering. */
static int eg_eval_search(Searcher *s, uint64_t p, uint64_t o, int alpha, int beta, int depth, bool passed)
{
	const Shared *sh = s->sh;
	s->nodes++;
	if (depth == 0)
		return eval_score(sh->ev, p, o);
	/* deep ones (a probable cut at many empties) take long: watch the stop,
	 * and poll the clock about as often as the other nodes do (a node of
	 * depth 3 or more stands for hundreds of leaves) */
	if (depth >= 3) {
		if ((s->polls += 64) >= 1024) {
			s->polls = 0;
			eg_poll(s);
		}
		if (eg_aborted(s))
			return 0;
	}
	uint64_t moves = board_moves(p, o) & sh->geo;
	if (!moves) {
		if (passed)
			return eg_final(sh, p, o);
		return -eg_eval_search(s, o, p, -beta, -alpha, depth, true);
	}
	int best = -EG_INF;
	for (; moves; moves = bit_pop(moves)) {
		int sq = bit_first(moves);
		uint64_t f = board_flips(p, o, sq);
		int v = -eg_eval_search(s, o ^ f, p ^ f ^ bit_of(sq), -beta, -(alpha > best ? alpha : best), depth - 1, false);
		if (v > best) {
			best = v;
			if (best >= beta)
				break;
		}
	}
	return best;
}

/* Plies of the evaluation search that orders the moves of an n-empties
 * node (0: fastest-first and static evaluation only); deeper ordering
 * pays for itself from 24 empties on. */
static int eg_sort_depth(int n)
{
	return n < EG_SORT_SEARCH_MIN ? 0 : n < 24 ? 2 : 3;
}

/* Own discs near corners that can never be flipped: corners, and edge
 * squares next to an own corner when owned. */
static inline int eg_corner_stability(const Shared *sh, uint64_t me)
{
	uint64_t c = me & sh->corners;
	uint64_t near = ((c << 1) & 0xFEFEFEFEFEFEFEFEULL) | ((c >> 1) & 0x7F7F7F7F7F7F7F7FULL) | (c << 8) | (c >> 8);
	return bit_count(c | (near & me));
}

/* The table for a node with n empties. */
static inline TT *eg_table_for(const Searcher *s, int n)
{
	return n <= s->near_max && s->near ? s->near : s->sh->tt;
}

/* Look (p, o) up: true with its bounds and move when present; bounds of
 * a search that did not reach the end of the game or was less exact than
 * the solve read as (-127, 127).  need = tt_depth_sel_key(n, sel) for a
 * position of n empties: an entry's depth never exceeds its empties
 * (tt.h), so one compare tells both. */
static inline bool eg_probe(const TT *t, uint64_t p, uint64_t o, unsigned need, int *lower, int *upper, int *move)
{
	uint64_t w;
	if (!tt_probe_word(t, p, o, &w))
		return false;
	const TTData d = tt_unpack(w);
	if (tt_depth_sel(w) >= need) {
		*lower = d.lower;
		*upper = d.upper;
	} else {
		*lower = -127;
		*upper = 127;
	}
	*move = d.move;
	return true;
}

/* Fill the move list of (p, o) with flips and ordering values; a disc of
 * the evaluation search of sort_depth plies weighs search_weight. */
static int eg_order(Searcher *s, uint64_t p, uint64_t o, uint64_t moves, int n, int ttmove, EgMove *list,
                    int sort_depth, int search_weight)
{
	const Shared *sh = s->sh;
	const bool prefetch = n - 1 > EG_SHALLOW_MAX && (sh->features & ENDGAME_F_TT) && sh->tt->entries;
	const TT *ct = eg_table_for(s, n - 1);
	int k = 0;
	uint64_t e = sh->geo & ~(p | o), odd = 0;
	for (int q = 0; q < 4; q++)
		if (bit_count(e & sh->quadrant[q]) & 1)
			odd |= sh->quadrant[q];
	for (; moves; moves = bit_pop(moves)) {
		const int sq = bit_first(moves);
		EgMove *m = &list[k++];
		m->sq = sq;
		m->f = board_flips(p, o, sq);
		m->om = EG_MOVES_UNKNOWN;
		uint64_t cp = o ^ m->f, co = p ^ m->f ^ bit_of(sq);
		if (prefetch)
			tt_prefetch(ct, cp, co);
		int v = 0;
		if (sort_depth > 0) {
			v = -eg_eval_search(s, cp, co, -EG_INF, EG_INF, sort_depth - 1, false) * search_weight;
		} else if (n >= EG_STATIC_SORT_MIN && (sh->features & ENDGAME_F_SORTSEARCH)) {
			v = -eval_score(sh->ev, cp, co) * EG_W_STATIC;
		}
		if (sh->features & ENDGAME_F_FASTEST) {
			/* the child's move set, passed down so that it is not generated twice */
			const uint64_t om = board_moves(cp, co) & sh->geo;
			m->om = om;
			int mob = bit_count(om) + bit_count(om & sh->corners);
			int pot = bit_count(eg_neighbours(co) & e & ~bit_of(sq));
			v += -mob * EG_W_MOBILITY - pot * (n >= EG_STATIC_SORT_MIN ? EG_W_POTENTIAL_DEEP : EG_W_POTENTIAL) +
			     eg_corner_stability(sh, co) * EG_W_CORNER;
			if (sh->features & ENDGAME_F_PARITY)
				v += (int)(odd >> sq & 1) << 3;
		}
		if (sq == ttmove)
			v = 1 << 30;
		m->value = v;
	}
	return k;
}

/* Bring the best remaining move to position i. */
static inline void eg_pick(EgMove *list, int i, int k)
{
	int b = i;
	for (int j = i + 1; j < k; j++)
		if (list[j].value > list[b].value)
			b = j;
	if (b != i) {
		EgMove t = list[b];
		list[b] = list[i];
		list[i] = t;
	}
}

#endif
