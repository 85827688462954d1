#include "game.h"

void game_init(Game *g, int size, Variant v)
{
	g->size = size;
	g->variant = v;
	game_set(g, board_start(size), BLACK);
}

void game_set(Game *g, Board b, int side)
{
	g->board = b;
	g->side = side;
	g->start = b;
	g->start_side = side;
	g->nply = 0;
}

uint64_t game_moves(const Game *g)
{
	return board_moves(g->board.p, g->board.o) & board_geometry(g->size);
}

bool game_must_pass(const Game *g)
{
	if (game_moves(g))
		return false;
	return (board_moves(g->board.o, g->board.p) & board_geometry(g->size)) != 0;
}

bool game_is_over(const Game *g)
{
	const uint64_t geo = board_geometry(g->size);
	return !(board_moves(g->board.p, g->board.o) & geo) &&
	       !(board_moves(g->board.o, g->board.p) & geo);
}

int game_empties(const Game *g)
{
	return bit_count(board_geometry(g->size) & ~(g->board.p | g->board.o));
}

uint64_t game_colour_bits(const Game *g, int colour)
{
	return colour == g->side ? g->board.p : g->board.o;
}

int game_discs(const Game *g, int colour)
{
	return bit_count(game_colour_bits(g, colour));
}

GameStatus game_play(Game *g, int move)
{
	if (g->nply >= GAME_MAX_PLY)
		return GAME_FULL;
	if (move == BOARD_PASS) {
		if (game_moves(g))
			return GAME_NOT_PASS;
		if (game_is_over(g))
			return GAME_OVER;
		g->hist[g->nply++] = (GamePly){ g->board, g->side, BOARD_PASS };
		g->board = board_pass(g->board);
		g->side ^= 1;
		return GAME_OK;
	}
	if (move < 0 || move >= 64 || !(game_moves(g) & bit_of(move)))
		return game_is_over(g) ? GAME_OVER : GAME_ILLEGAL;
	uint64_t f = board_flips(g->board.p, g->board.o, move);
	g->hist[g->nply++] = (GamePly){ g->board, g->side, move };
	g->board = board_apply(g->board, move, f);
	g->side ^= 1;
	return GAME_OK;
}

GameStatus game_play_colour(Game *g, int colour, int move)
{
	if (colour != g->side) {
		if (!game_must_pass(g))
			return game_is_over(g) ? GAME_OVER : GAME_ILLEGAL;
		Game save = *g;
		GameStatus st = game_play(g, BOARD_PASS);
		if (st == GAME_OK)
			st = game_play(g, move);
		if (st != GAME_OK)
			*g = save;
		return st;
	}
	return game_play(g, move);
}

bool game_undo(Game *g)
{
	if (g->nply == 0)
		return false;
	const GamePly *h = &g->hist[--g->nply];
	g->board = h->board;
	g->side = h->side;
	return true;
}

void game_counts(const Game *g, Scoring s, int *black, int *white)
{
	int b = game_discs(g, BLACK), w = game_discs(g, WHITE);
	if (g->variant == VARIANT_NORMAL && s == SCORING_OFFICIAL) {
		int e = game_empties(g);
		if (b > w)
			b += e;
		else if (w > b)
			w += e;
		else {
			b += e / 2;
			w += e - e / 2;
		}
	}
	*black = b;
	*white = w;
}

int game_winner(const Game *g)
{
	int b = game_discs(g, BLACK), w = game_discs(g, WHITE);
	if (b == w)
		return -1;
	if (g->variant == VARIANT_ANTI)
		return b < w ? BLACK : WHITE;
	return b > w ? BLACK : WHITE;
}

int game_margin(const Game *g, Scoring s)
{
	int b, w;
	game_counts(g, s, &b, &w);
	return g->variant == VARIANT_ANTI ? w - b : b - w;
}

int board_final_score(Board b, int size, Variant v)
{
	int np = bit_count(b.p), no = bit_count(b.o);
	if (v == VARIANT_ANTI)
		return no - np;
	int e = bit_count(board_geometry(size) & ~(b.p | b.o));
	int d = np - no;
	if (d > 0)
		d += e;
	else if (d < 0)
		d -= e;
	return d;
}
