/*
 * svg.h - pictures written by hand as SVG (no library): board diagrams and
 * the score graph of a game review.  The output is well-formed XML, so a
 * diagram can stand alone as a .svg file or sit inside an HTML page.
 */
#ifndef EMILIA_SVG_H
#define EMILIA_SVG_H

#include <stdbool.h>
#include <stdio.h>
#include "game.h"

typedef struct SvgBoard {
	int cell;             /* pixels per square (default 40 when 0) */
	bool legal;           /* dots on the legal moves of the side to move */
	int last;             /* square of the last move (a red mark), -1 none */
	const int *numbers;   /* 64 move numbers drawn on the discs (0 = none), or NULL */
	int good;             /* a green ring on this square (the best move), -1 none */
	int bad;              /* a red ring on this square (the move played), -1 none */
	const char *caption;  /* a line of text under the board, or NULL */
} SvgBoard;

void svg_board_defaults(SvgBoard *o);

/* The diagram of g's current position: an <svg> element (with the XML
 * namespace, so it can be a file of its own). */
void svg_board(FILE *f, const Game *g, const SvgBoard *o);

/* Move numbers of the discs of g's game: numbers[sq] = the number of the
 * move (passes not counted) that put a disc on sq, 0 for the discs of the
 * start position and the empty squares. */
void svg_move_numbers(const Game *g, int numbers[64]);

/* The score graph of a game: scores[0..n) are Black's expected final disc
 * difference before each move (positive: Black ahead), drawn as a line
 * over the moves, with a dot (red) on each move in `marks` (n flags, may
 * be NULL).  width x height pixels. */
void svg_score_graph(FILE *f, const int *scores, int n, const bool *marks, int width, int height);

/* Text with &, <, >, " escaped for XML. */
void svg_escape(FILE *f, const char *s);

#endif
