/*
 * book_probe.c - the opening book's values of moves and its probing: the move an
 * engine plays from the book, the listed moves and lines (book.c lists the
 * book's files).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "book_int.h"

/* ---- values of moves ---------------------------------------------------- */


/* The node a move leads to: the child itself (sign -1), the child after a
 * forced pass (sign +1), or nothing when the game is over (sign 0, *final =
 * exact value for the mover). */
int bk_move_child(Board pos, int sq, Board *node, int *final)
{
	Board c = board_apply(pos, sq, board_flips(pos.p, pos.o, sq));
	if (board_moves(c.p, c.o)) {
		*node = c;
		return -1;
	}
	Board q = board_pass(c);
	if (board_moves(q.p, q.o)) {
		*node = q;
		return 1;
	}
	*final = -board_final_score(c, 8, VARIANT_NORMAL);
	return 0;
}

void bk_move_value(const Book *b, Board pos, int sq, MoveValue *v)
{
	Board node;
	int fin = 0;
	int sign = bk_move_child(pos, sq, &node, &fin);
	memset(v, 0, sizeof *v);
	if (sign == 0) {
		v->in_book = v->has_est = true;
		v->score = v->lower = v->upper = fin;
		v->level = BOOK_LEVEL_EXACT;
		return;
	}
	const BookEntry *e = bk_find(b, node);
	if (!e)
		return;
	v->in_book = true;
	v->has_est = e->best != BOOK_MOVE_UNKNOWN;
	v->games = e->games;
	v->level = e->level;
	if (sign > 0) {
		v->score = e->score;
		v->lower = e->lower;
		v->upper = e->upper;
	} else {
		v->score = -e->score;
		v->lower = -e->upper;
		v->upper = -e->lower;
	}
}

/* The values an entry must hold given its children and its leaf (what fix
 * writes and verify checks).  Leaf fields are reset to unknown when the
 * leaf move is now in the book; the leaf becomes BOOK_MOVE_NONE when every
 * move is in the book. */
BookEntry bk_recompute(const Book *b, const BookEntry *e)
{
	BookEntry r = *e;
	Board pos = { e->p, e->o };
	uint64_t moves = board_moves(pos.p, pos.o);
	bool has_est = false;
	int best = BOOK_MOVE_UNKNOWN, score = 0, level = 0;
	int lower = -64, upper = -64;
	uint64_t outside = 0;
	for (uint64_t m = moves; m; m = bit_pop(m)) {
		int sq = bit_first(m);
		MoveValue v;
		bk_move_value(b, pos, sq, &v);
		if (!v.in_book) {
			outside |= bit_of(sq);
			continue;
		}
		if (v.lower > lower)
			lower = v.lower;
		if (v.upper > upper)
			upper = v.upper;
		if (v.has_est && (!has_est || v.score > score)) {
			has_est = true;
			score = v.score;
			best = sq;
			level = v.level;
		}
	}
	if (!outside) {
		r.leaf = BOOK_MOVE_NONE;
		r.leaf_score = 0;
		r.leaf_lower = -64;
		r.leaf_upper = 64;
		r.leaf_level = 0;
	} else {
		bool leaf_ok = r.leaf < 64 && (outside & bit_of(r.leaf));
		if (!leaf_ok) {
			r.leaf = BOOK_MOVE_UNKNOWN;
			r.leaf_score = 0;
			r.leaf_lower = -64;
			r.leaf_upper = 64;
			r.leaf_level = 0;
		}
		if (r.leaf_lower > lower)
			lower = r.leaf_lower;
		if (r.leaf_upper > upper)
			upper = r.leaf_upper;
		if (leaf_ok && (!has_est || r.leaf_score > score)) {
			has_est = true;
			score = r.leaf_score;
			best = r.leaf;
			level = r.leaf_level;
		}
	}
	if (!has_est) {
		score = 0;
		level = 0;
	} else {
		if (score < lower)
			score = lower;
		if (score > upper)
			score = upper;
	}
	if (has_est && lower == upper)
		level = BOOK_LEVEL_EXACT;
	r.score = (int8_t)score;
	r.lower = (int8_t)lower;
	r.upper = (int8_t)upper;
	r.level = (uint8_t)level;
	r.best = (uint8_t)best;
	return r;
}

bool bk_entry_values_equal(const BookEntry *a, const BookEntry *b)
{
	return a->score == b->score && a->lower == b->lower && a->upper == b->upper &&
	       a->level == b->level && a->best == b->best && a->leaf == b->leaf &&
	       a->leaf_score == b->leaf_score && a->leaf_lower == b->leaf_lower &&
	       a->leaf_upper == b->leaf_upper && a->leaf_level == b->leaf_level;
}
/* ---- probing ---------------------------------------------------------------- */

void book_set_randomness(Book *b, int discs_margin, uint64_t seed)
{
	pthread_mutex_lock(&b->rng_lock);
	b->randomness = discs_margin < 0 ? 0 : discs_margin;
	b->rng = mix64(seed ^ 0x6A09E667F3BCC909ULL) | 1;
	pthread_mutex_unlock(&b->rng_lock);
}

static uint64_t next_random(Book *b, int *randomness)
{
	pthread_mutex_lock(&b->rng_lock);
	b->rng ^= b->rng >> 12;
	b->rng ^= b->rng << 25;
	b->rng ^= b->rng >> 27;
	uint64_t r = b->rng * 2685821657736338717ULL;
	*randomness = b->randomness;
	pthread_mutex_unlock(&b->rng_lock);
	return r;
}

bool bk_game_ok(const Game *g)
{
	return g && g->size == 8 && g->variant == VARIANT_NORMAL;
}

int book_engine_probe(void *ctx, const Game *g, int *score)
{
	Book *b = ctx;
	if (!b || !bk_game_ok(g))
		return -1;
	Board pos = g->board;
	bool pass = false;
	if (!board_moves(pos.p, pos.o)) {
		pos = board_pass(pos);
		if (!board_moves(pos.p, pos.o))
			return -1;
		pass = true;
	}
	int randomness;
	uint64_t r = next_random(b, &randomness);
	pthread_rwlock_rdlock(&b->lock);
	int result = -1;
	const BookEntry *e = bk_find(b, pos);
	/* An entry is trusted only when its non-book moves were searched
	 * (leaf known or none left) and it has an estimate. */
	if (!e || e->best == BOOK_MOVE_UNKNOWN || e->leaf == BOOK_MOVE_UNKNOWN)
		goto done;
	if (pass) {
		*score = -e->score;
		result = BOARD_PASS;
		goto done;
	}
	int cand[64], cscore[64], nc = 0;
	for (uint64_t m = board_moves(pos.p, pos.o); m; m = bit_pop(m)) {
		int sq = bit_first(m);
		MoveValue v;
		bk_move_value(b, pos, sq, &v);
		if (v.in_book && v.has_est && v.score >= e->score - randomness) {
			cand[nc] = sq;
			cscore[nc++] = v.score;
		}
	}
	if (nc) {
		int k = (int)(r % (uint64_t)nc);
		result = cand[k];
		*score = cscore[k];
	}
done:
	pthread_rwlock_unlock(&b->lock);
	return result;
}

static int cmp_bookmove(const void *a, const void *b)
{
	const BookMove *x = a, *y = b;
	if (x->score != y->score)
		return y->score - x->score;
	if (x->leaf != y->leaf)
		return x->leaf ? 1 : -1;
	return x->move - y->move;
}

int book_list_moves(Book *b, const Game *g, BookMove *out, int max)
{
	if (!bk_game_ok(g) || max <= 0)
		return 0;
	Board pos = g->board;
	pthread_rwlock_rdlock(&b->lock);
	int n = 0;
	if (!board_moves(pos.p, pos.o)) {
		Board q = board_pass(pos);
		const BookEntry *e = board_moves(q.p, q.o) ? bk_find(b, q) : NULL;
		if (e && e->best != BOOK_MOVE_UNKNOWN) {
			out[0] = (BookMove){ BOARD_PASS, -e->score, -e->upper, -e->lower, e->level, e->games,
			                     false };
			n = 1;
		}
		pthread_rwlock_unlock(&b->lock);
		return n;
	}
	const BookEntry *e = bk_find(b, pos);
	if (!e) {
		pthread_rwlock_unlock(&b->lock);
		return 0;
	}
	/* Every move first, then the best `max`: taking the first `max` in
	 * square order and sorting those would drop better moves. */
	BookMove all[65];
	for (uint64_t m = board_moves(pos.p, pos.o); m; m = bit_pop(m)) {
		int sq = bit_first(m);
		MoveValue v;
		bk_move_value(b, pos, sq, &v);
		if (v.in_book && v.has_est)
			all[n++] = (BookMove){ sq, v.score, v.lower, v.upper, v.level, v.games, false };
	}
	if (e->leaf < 64) {
		all[n++] = (BookMove){ book_move_from_canonical(pos, e->leaf), e->leaf_score, e->leaf_lower,
		                       e->leaf_upper, e->leaf_level, 0, true };
	}
	pthread_rwlock_unlock(&b->lock);
	qsort(all, (size_t)n, sizeof *all, cmp_bookmove);
	if (n > max)
		n = max;
	memcpy(out, all, (size_t)n * sizeof *out);
	return n;
}

int book_line(Book *b, const Game *g, int move, int *line, int max)
{
	if (!bk_game_ok(g) || max <= 0)
		return 0;
	Board pos = g->board;
	uint64_t moves = board_moves(pos.p, pos.o);
	if (move == BOARD_PASS ? moves != 0 || !board_moves(pos.o, pos.p)
	                       : move < 0 || move >= 64 || !(moves & bit_of(move)))
		return 0;
	pthread_rwlock_rdlock(&b->lock);
	int n = 0;
	for (;;) {
		line[n++] = move;
		if (move == BOARD_PASS)
			pos = board_pass(pos);
		else
			pos = board_apply(pos, move, board_flips(pos.p, pos.o, move));
		if (n >= max)
			break;
		if (!board_moves(pos.p, pos.o)) {
			Board q = board_pass(pos);
			if (!board_moves(q.p, q.o) || !bk_find(b, q))
				break;
			move = BOARD_PASS;
			continue;
		}
		const BookEntry *e = bk_find(b, pos);
		if (!e || e->best >= 64)
			break;
		int sq = book_move_from_canonical(pos, e->best);
		MoveValue v;
		bk_move_value(b, pos, sq, &v);
		if (!v.in_book)
			break;       /* the best move is the leaf: the line leaves the book */
		move = sq;
	}
	pthread_rwlock_unlock(&b->lock);
	return n;
}

bool book_lookup(Book *b, Board pos, BookEntry *out)
{
	pthread_rwlock_rdlock(&b->lock);
	const BookEntry *e = bk_find(b, pos);
	if (e)
		*out = *e;
	pthread_rwlock_unlock(&b->lock);
	return e != NULL;
}
