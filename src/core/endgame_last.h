/*
 * endgame_last.h - the solver's last empties: the full-board flip tables,
 * stable discs, and the dedicated code for nodes of 1 to 4 empties (see
 * endgame.c's DESIGN).  Part of endgame.c, included by it alone: its
 * functions are static so that the search inlines them (endgame_int.h).
 */
#ifndef EMILIA_ENDGAME_LAST_H
#define EMILIA_ENDGAME_LAST_H

#include <pthread.h>
#include "endgame_int.h"

/* ---- tables ------------------------------------------------------------ */

/* eg_line_flips[pos][line]: discs flipped on one line of 8 when a disc is
 * played at `pos`, `line` being the player's discs on it and every other
 * square the opponent's (a full board).  Squares beyond the board's edge
 * behave as opponent discs with no player disc behind them, so the table
 * also serves diagonals and the smaller boards. */
static uint8_t eg_line_flips[8][256];
static uint64_t eg_diag9[64], eg_diag7[64]; /* diagonals through a square */
/* Position of a square on its diagonals counted from the diagonal's lowest
 * square (the index order of _pext_u64 in the AVX2 build). */
static uint8_t eg_diag9_pos[64], eg_diag7_pos[64];
/* eg_adjacent[sq]: the (up to 8) squares next to sq.  A move at sq flips
 * nothing unless an opponent disc is adjacent: the last-empties code tests
 * this before computing the flips. */
static uint64_t eg_adjacent[64];
static pthread_once_t eg_once = PTHREAD_ONCE_INIT;

/* Empty-or-not squares next to the set b, outside b. */
static inline uint64_t eg_neighbours(uint64_t b)
{
	const uint64_t notA = 0xFEFEFEFEFEFEFEFEULL, notH = 0x7F7F7F7F7F7F7F7FULL;
	uint64_t l = (b >> 1) & notH, r = (b << 1) & notA;
	uint64_t h = b | l | r;
	return (h | (h << 8) | (h >> 8) | l | r) & ~b;
}

static void eg_init_tables(void)
{
	for (int pos = 0; pos < 8; pos++)
		for (int line = 0; line < 256; line++) {
			int n = 0, k;
			for (k = pos - 1; k >= 0 && !(line & (1 << k)); k--)
				;
			if (k >= 0)
				n += pos - 1 - k;
			for (k = pos + 1; k < 8 && !(line & (1 << k)); k++)
				;
			if (k < 8)
				n += k - pos - 1;
			eg_line_flips[pos][line] = (uint8_t)n;
		}
	for (int sq = 0; sq < 64; sq++) {
		int r = sq >> 3, c = sq & 7;
		uint64_t d9 = 0, d7 = 0;
		for (int s = 0; s < 64; s++) {
			int rr = s >> 3, cc = s & 7;
			if (cc - rr == c - r)
				d9 |= bit_of(s);
			if (cc + rr == c + r)
				d7 |= bit_of(s);
		}
		eg_diag9[sq] = d9;
		eg_diag7[sq] = d7;
		eg_diag9_pos[sq] = (uint8_t)(r < c ? r : c);
		eg_diag7_pos[sq] = (uint8_t)(r + c > 7 ? 7 - c : r);
		eg_adjacent[sq] = eg_neighbours(bit_of(sq));
	}
}

/* Discs the side with discs `p` flips by playing `sq` on a full board.
 * Each line of sq is gathered into an 8-bit index: with BMI2's pext in the
 * AVX2 build (bits in square order, sq at its eg_diag*_pos), else by a
 * multiplication that moves each disc to its column's bit; bits past the
 * line's end are 0 either way, which the table reads as opponent discs with
 * no player disc behind, so both give the same counts. */
static inline int eg_count_last_flips(uint64_t p, int sq)
{
	const int r = sq >> 3, c = sq & 7;
	const uint64_t fileA = 0x0101010101010101ULL;
	int n = eg_line_flips[c][(p >> (r * 8)) & 0xFF];
#if EMILIA_HAVE_AVX2
	n += eg_line_flips[r][_pext_u64(p, fileA << c)];
	n += eg_line_flips[eg_diag9_pos[sq]][_pext_u64(p, eg_diag9[sq])];
	n += eg_line_flips[eg_diag7_pos[sq]][_pext_u64(p, eg_diag7[sq])];
#else
	n += eg_line_flips[r][(((p >> c) & fileA) * 0x0102040810204080ULL) >> 56];
	n += eg_line_flips[c][((p & eg_diag9[sq]) * fileA) >> 56];
	n += eg_line_flips[c][((p & eg_diag7[sq]) * fileA) >> 56];
#endif
	return n;
}


/* ---- stability ------------------------------------------------------ */


/* Squares whose line is full in each direction (outside squares count as
 * full).  out[0] horizontal, [1] vertical, [2] a1-h8 diagonals, [3] the
 * other diagonals.  Rows and columns AND their 8 bits together by halving
 * shifts; a diagonal is full when no empty square spreads onto it (the
 * empties are spread both ways along the diagonal by shifts of 1, 2 and 4
 * steps, masked so that nothing wraps around the board's edge). */
static inline void eg_full_lines(uint64_t occ, uint64_t out[4])
{
	const uint64_t nA = 0xFEFEFEFEFEFEFEFEULL, nAB = 0xFCFCFCFCFCFCFCFCULL, nAD = 0xF0F0F0F0F0F0F0F0ULL;
	const uint64_t nH = 0x7F7F7F7F7F7F7F7FULL, nGH = 0x3F3F3F3F3F3F3F3FULL, nEH = 0x0F0F0F0F0F0F0F0FULL;
	uint64_t h = occ & (occ >> 4);
	h &= h >> 2;
	h &= h >> 1;
	out[0] = (h & 0x0101010101010101ULL) * 0xFF;
	uint64_t v = occ & (occ >> 32);
	v &= v >> 16;
	v &= v >> 8;
	out[1] = (v & 0xFF) * 0x0101010101010101ULL;
	const uint64_t e = ~occ;
	uint64_t g = e;
	g |= (g << 9) & nA;
	g |= (g << 18) & nAB;
	g |= (g << 36) & nAD;
	g |= (g >> 9) & nH;
	g |= (g >> 18) & nGH;
	g |= (g >> 36) & nEH;
	out[2] = ~g;
	g = e;
	g |= (g << 7) & nH;
	g |= (g << 14) & nGH;
	g |= (g << 28) & nEH;
	g |= (g >> 7) & nA;
	g |= (g >> 14) & nAB;
	g |= (g >> 28) & nAD;
	out[3] = ~g;
}

/* Stable discs of p: a disc is stable when in each of the four directions
 * its line is full, or one neighbour along it is off the board or a stable
 * disc of the same colour.  Iterated to a fixed point from the edges. */
static uint64_t eg_stable(const Shared *sh, uint64_t p, uint64_t o)
{
	const uint64_t A = 0x0101010101010101ULL, H = 0x8080808080808080ULL;
	const uint64_t R1 = 0xFFULL, R8 = 0xFF00000000000000ULL;
	const uint64_t off = ~sh->geo;
	uint64_t full[4];
	eg_full_lines(p | o | off, full);
	uint64_t hz = full[0] | A | H, vt = full[1] | R1 | R8;
	uint64_t d9 = full[2] | A | H | R1 | R8, d7 = full[3] | A | H | R1 | R8;
	uint64_t st = 0, prev;
	do {
		prev = st;
		uint64_t s = st | off;
		uint64_t a = p & (hz | ((s << 1) & ~A) | ((s >> 1) & ~H));
		a &= vt | (s << 8) | (s >> 8);
		a &= d9 | ((s << 9) & ~A) | ((s >> 9) & ~H);
		a &= d7 | ((s << 7) & ~H) | ((s >> 7) & ~A);
		st = a;
	} while (st != prev);
	return st;
}

/* An upper bound of p's score from the opponent's stable discs (Anti: p's
 * own), worked out only when it could be at most alpha; else EG_INF. */
static inline int eg_stability_bound(const Shared *sh, uint64_t p, uint64_t o, int alpha)
{
	const uint64_t who = sh->variant == VARIANT_ANTI ? p : o;
	if (alpha < sh->area - 2 * bit_count(who))
		return EG_INF;
	return sh->area - 2 * bit_count(eg_stable(sh, who, who == p ? o : p));
}

/* ---- the last empties ---------------------------------------------- */

/* One empty square sq left, p to move. */
static inline int eg_last1(Searcher *s, uint64_t p, uint64_t o, int sq)
{
	const Shared *sh = s->sh;
	s->nodes++;
	int np = bit_count(p);
	int n = eg_count_last_flips(p, sq);
	int d; /* final discs of p minus discs of o */
	if (n) {
		d = 2 * (np + n + 1) - sh->area;
	} else if ((n = eg_count_last_flips(o, sq)) != 0) {
		d = 2 * (np - n) - sh->area;
	} else {
		d = 2 * np - sh->area + 1; /* the square stays empty */
		if (sh->variant == VARIANT_ANTI)
			return -d;
		return d > 0 ? d + 1 : d - 1;
	}
	return sh->variant == VARIANT_ANTI ? -d : d;
}

/* The quadrants of the board in which e (the empty squares) has exactly
 * one square: the parity order plays those squares first. */
static inline uint64_t eg_lone_quadrants(const Shared *sh, uint64_t e)
{
	uint64_t lone = 0;
	for (int q = 0; q < 4; q++)
		if (bit_count(e & sh->quadrant[q]) == 1)
			lone |= sh->quadrant[q];
	return lone;
}

static inline __attribute__((always_inline)) int eg_solve_2(Searcher *s, uint64_t p, uint64_t o, int alpha,
                                                             int beta, int x1, int x2)
{
	s->nodes++;
	int best = -EG_INF;
	uint64_t f;
	if ((o & eg_adjacent[x1]) && (f = board_flips(p, o, x1)) != 0) {
		best = -eg_last1(s, o ^ f, p ^ f ^ bit_of(x1), x2);
		if (best >= beta)
			return best;
	}
	if ((o & eg_adjacent[x2]) && (f = board_flips(p, o, x2)) != 0) {
		int v = -eg_last1(s, o ^ f, p ^ f ^ bit_of(x2), x1);
		if (v > best)
			best = v;
		return best;
	}
	if (best > -EG_INF)
		return best;
	/* p passes: the opponent plays, p's score is the minimum */
	int worst = EG_INF;
	if ((p & eg_adjacent[x1]) && (f = board_flips(o, p, x1)) != 0) {
		worst = eg_last1(s, p ^ f, o ^ f ^ bit_of(x1), x2);
		if (worst <= alpha)
			return worst;
	}
	if ((p & eg_adjacent[x2]) && (f = board_flips(o, p, x2)) != 0) {
		int v = eg_last1(s, p ^ f, o ^ f ^ bit_of(x2), x1);
		if (v < worst)
			worst = v;
	}
	if (worst < EG_INF)
		return worst;
	return eg_final(s->sh, p, o);
}

/* The side to move's best result over its moves at 3 empties (the order
 * of x), or EG_NO_MOVE when it has none. */
#define EG_NO_MOVE (-EG_INF - 1)
static inline __attribute__((always_inline)) int eg_solve_3_side(Searcher *s, uint64_t p, uint64_t o, int alpha,
                                                                  int beta, int x0, int x1, int x2)
{
	int best = EG_NO_MOVE;
	uint64_t f;
	if ((o & eg_adjacent[x0]) && (f = board_flips(p, o, x0)) != 0) {
		best = -eg_solve_2(s, o ^ f, p ^ f ^ bit_of(x0), -beta, -alpha, x1, x2);
		if (best >= beta)
			return best;
	}
	if ((o & eg_adjacent[x1]) && (f = board_flips(p, o, x1)) != 0) {
		const int v = -eg_solve_2(s, o ^ f, p ^ f ^ bit_of(x1), -beta, -(alpha > best ? alpha : best), x0, x2);
		if (v > best) {
			best = v;
			if (best >= beta)
				return best;
		}
	}
	if ((o & eg_adjacent[x2]) && (f = board_flips(p, o, x2)) != 0) {
		const int v = -eg_solve_2(s, o ^ f, p ^ f ^ bit_of(x2), -beta, -(alpha > best ? alpha : best), x0, x1);
		if (v > best)
			best = v;
	}
	return best;
}

static int eg_solve_3(Searcher *s, uint64_t p, uint64_t o, int alpha, int beta, uint64_t e)
{
	s->nodes++;
	int x0 = bit_first(e);
	e = bit_pop(e);
	int x1 = bit_first(e), x2 = bit_first(bit_pop(e));
	if (s->sh->features & ENDGAME_F_PARITY) {
		/* the square alone in its quadrant first */
		const uint64_t q0 = s->sh->quadrant_of[x0];
		const bool same01 = q0 >> x1 & 1, same02 = q0 >> x2 & 1;
		const bool same12 = s->sh->quadrant_of[x1] >> x2 & 1;
		if (same01 && !same12) {
			int t = x2; x2 = x1; x1 = x0; x0 = t;
		} else if (same02 && !same12) {
			int t = x1; x1 = x0; x0 = t;
		}
	}
	int v = eg_solve_3_side(s, p, o, alpha, beta, x0, x1, x2);
	if (v != EG_NO_MOVE)
		return v;
	v = eg_solve_3_side(s, o, p, -beta, -alpha, x0, x1, x2);
	if (v != EG_NO_MOVE)
		return -v;
	return eg_final(s->sh, p, o);
}

/* The same at 4 empties, the squares in x[] in the order to try. */
static inline __attribute__((always_inline)) int eg_solve_4_side(Searcher *s, uint64_t p, uint64_t o, int alpha,
                                                                  int beta, const int x[4], uint64_t e)
{
	int best = EG_NO_MOVE;
	for (int i = 0; i < 4; i++) {
		if (!(o & eg_adjacent[x[i]]))
			continue;
		const uint64_t f = board_flips(p, o, x[i]);
		if (!f)
			continue;
		/* keep the parity order for the three left: solve_3 reorders */
		const int v = -eg_solve_3(s, o ^ f, p ^ f ^ bit_of(x[i]), -beta, -(alpha > best ? alpha : best),
		                          e ^ bit_of(x[i]));
		if (v > best) {
			best = v;
			if (best >= beta)
				return best;
		}
	}
	return best;
}

static int eg_solve_4(Searcher *s, uint64_t p, uint64_t o, int alpha, int beta, uint64_t e)
{
	s->nodes++;
	int x[4], k = 0;
	if (s->sh->features & ENDGAME_F_PARITY) {
		/* squares alone in their quadrant first */
		const uint64_t lone = eg_lone_quadrants(s->sh, e);
		for (uint64_t m = e & lone; m; m = bit_pop(m))
			x[k++] = bit_first(m);
		for (uint64_t m = e & ~lone; m; m = bit_pop(m))
			x[k++] = bit_first(m);
	} else {
		for (uint64_t m = e; m; m = bit_pop(m))
			x[k++] = bit_first(m);
	}
	int v = eg_solve_4_side(s, p, o, alpha, beta, x, e);
	if (v != EG_NO_MOVE)
		return v;
	v = eg_solve_4_side(s, o, p, -beta, -alpha, x, e);
	if (v != EG_NO_MOVE)
		return -v;
	return eg_final(s->sh, p, o);
}

#endif
