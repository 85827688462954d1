/*
 * game.h - the rules of a whole game: colours, passes, the end, the score,
 * undo.  Everything that referees a game (protocols, the match runner, the
 * terminal game) goes through this module, so there is one rules engine.
 *
 * Invariants of Game: board is seen from `side` (board.p are the discs of
 * the colour to move); hist[0..nply) holds the state before each ply, a
 * ply being a move or a pass; start/start_side is the position the game
 * began from (the standard start unless set otherwise).
 */
#ifndef EMILIA_GAME_H
#define EMILIA_GAME_H

#include <stdbool.h>
#include "board.h"

enum { BLACK = 0, WHITE = 1 };

typedef enum { VARIANT_NORMAL = 0, VARIANT_ANTI = 1 } Variant;
typedef enum { SCORING_PLAIN = 0, SCORING_OFFICIAL = 1 } Scoring;

#define GAME_MAX_PLY 128

typedef struct GamePly {
	Board board; /* position before the ply, from the mover's side */
	int side;    /* colour that made the ply */
	int move;    /* square or BOARD_PASS */
} GamePly;

typedef struct Game {
	int size;          /* 8, 6 or 4 */
	Variant variant;
	Board board;
	int side;          /* colour to move */
	Board start;
	int start_side;
	int nply;
	GamePly hist[GAME_MAX_PLY];
} Game;

typedef enum {
	GAME_OK = 0,
	GAME_ILLEGAL,      /* not a legal move here */
	GAME_NOT_PASS,     /* a pass while a move exists */
	GAME_OVER,         /* the game is finished */
	GAME_FULL          /* history full (cannot happen in a real game) */
} GameStatus;

void game_init(Game *g, int size, Variant v);
/* Start from an arbitrary position (history cleared). */
void game_set(Game *g, Board b, int side);

uint64_t game_moves(const Game *g);
bool game_must_pass(const Game *g);   /* side to move has no move, opponent has */
bool game_is_over(const Game *g);     /* neither side can move */
int game_empties(const Game *g);
int game_discs(const Game *g, int colour);
uint64_t game_colour_bits(const Game *g, int colour);

/* Play a square or BOARD_PASS for the side to move; the board is unchanged
 * unless GAME_OK is returned. */
GameStatus game_play(Game *g, int move);
/* Play a move for `colour`: if colour is not to move and the side to move
 * must pass, the pass is made first (implicit pass). */
GameStatus game_play_colour(Game *g, int colour, int move);
/* Take back one ply (a move or a pass); false at the start. */
bool game_undo(Game *g);

/* Final disc counts under a scoring rule; for VARIANT_ANTI the counts stand
 * as they are whatever the rule.  Valid for unfinished games too (counts
 * now). */
void game_counts(const Game *g, Scoring s, int *black, int *white);
/* Winner: BLACK, WHITE or -1 for a draw, by the variant's rule. */
int game_winner(const Game *g);
/* Black's margin in discs as the variant scores it: positive when Black
 * wins (for Anti, Black wins with fewer discs and the margin is
 * white - black). */
int game_margin(const Game *g, Scoring s);

/* Score of a finished position from the side to move's view, as the exact
 * solver and the FFO suite count it (empties to the winner), for the
 * normal game; for Anti, fewer discs is better: o - p. */
int board_final_score(Board b, int size, Variant v);

#endif
