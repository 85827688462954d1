/*
 * text.h - text formats: squares, moves, transcripts, OBF lines, board
 * pictures.  Every parser reports what is wrong and where in `err` (a
 * caller-supplied buffer) and never changes its output on failure.
 */
#ifndef EMILIA_TEXT_H
#define EMILIA_TEXT_H

#include <stddef.h>
#include "game.h"

#define TEXT_ERR 160
#define TEXT_OBF_MAX_MOVES 64

/* Square name of sq, lower case ("f5") or upper case ("F5"); "pass"/"PASS"
 * for BOARD_PASS.  out must hold 5 bytes. */
void text_square(int sq, char *out);
void text_square_upper(int sq, char *out);

/* Parse a square on a board of `size` ("f5", "F5").  Returns the square or
 * -1. */
int text_parse_square(const char *s, int size);
/* Parse a move: a square, or a pass written pass/PASS/pa/PA/--/@@ (any case)
 * -> BOARD_PASS.  Returns -1 when it is neither. */
int text_parse_move(const char *s, int size);

/* Apply a transcript ("f5d6c3...", any case, passes implied; spaces and
 * explicit pass tokens allowed) to g.  All or nothing: on error g is
 * untouched and err says e.g. "illegal move d3 at move 12". */
bool text_apply_transcript(Game *g, const char *s, char *err);

/* Board diagrams, the one reader of every format that writes a board as
 * square characters (OBF lines, UGI positions, GGF's BO property).  A
 * square character is X x * B b (black), O o W w (white) or - . _ (empty).
 * text_square_char() gives BLACK, WHITE, TEXT_EMPTY or TEXT_NOT_SQUARE;
 * text_side_char() BLACK, WHITE or TEXT_NOT_SQUARE (an empty is no side). */
enum { TEXT_EMPTY = -1, TEXT_NOT_SQUARE = -2 };
int text_square_char(int ch);
int text_side_char(int ch);

/* Read the squares of a size x size diagram from s, row by row from a1
 * (discs as bits row * 8 + column in *black and *white).  Reading stops
 * after size * size squares or at the first character that is not a
 * square character; with `blanks`, spaces between squares are skipped.
 * Returns the number of squares read and in *end the offset of the first
 * character not read, so the caller names what is wrong in its own terms:
 * a bad character (s[*end] is not NUL or a separator) or too few
 * squares. */
int text_read_diagram(const char *s, int size, bool blanks, uint64_t *black, uint64_t *white, size_t *end);

/* A position as UGI writes it (`position fen SQUARES SIDE`): the squares
 * a1.. as a diagram of 64 (or 36) square characters, or as rows separated
 * by '/' with digits for runs of empties ("8/8/8/3OX3/3XO3/8/8/8", 8 or 6
 * rows), and the side to move (one character X or O).  Gives the size,
 * the board from the side to move and that side; false with err
 * (TEXT_ERR bytes, "fen: ...") on bad input. */
bool text_parse_fen(const char *squares, const char *side, int *size, Board *board, int *to_move, char *err);

/* An OBF line: squares a1.. (X black, O white, - or . empty), side to move,
 * then optional ";" and "MOVE:score" pairs, "%" comment. */
typedef struct ObfPosition {
	Board board;      /* from the side to move */
	int side;         /* colour to move */
	int nexpected;    /* number of MOVE:score pairs */
	int expected_move[TEXT_OBF_MAX_MOVES];
	int expected_score[TEXT_OBF_MAX_MOVES];
} ObfPosition;

/* size 8/6/4: number of squares expected is size*size.  Returns false and
 * explains in err ("board has 63 squares") on bad input. */
bool text_parse_obf(const char *line, int size, ObfPosition *pos, char *err);
/* The result an OBF line lists: false when it lists none; else *score is
 * the best listed score and *move_listed whether `move` is one of the
 * moves listed with that score. */
bool text_obf_expected(const ObfPosition *pos, int move, int *score, bool *move_listed);
/* One line of an OBF file (its '\n' already removed): 0 when it is blank
 * or a comment ('#' or '%' first), 1 with the position in *pos, -1 when it
 * is malformed (why in err).  A trailing '\r' is ignored. */
int text_obf_file_line(char *line, int size, ObfPosition *pos, char *err);
/* Write an OBF line (squares + space + side), no newline.  out >= 70. */
void text_write_obf(Board b, int side, int size, char *out);
/* A solved position as an OBF line with its result, no newline: the board
 * and side, then "MOVE:+score;" (the best move, upper case; PA for a
 * pass), or "% final +score" when the game is over; in WLD mode the score
 * is -1, +0 or +1 and the line ends with "% wld".  out >= 96. */
void text_write_obf_result(Board b, int side, int size, int move, int score, bool wld, char *out);

/* A human-readable board (legal moves of the side to move marked '.'),
 * several lines, each ending with '\n'.  Returns the length written. */
size_t text_board_picture(const Game *g, bool mark_moves, char *out, size_t outlen);

/* Transcript of g's moves (passes omitted), lower case.  out >= 2*nply+1. */
void text_transcript(const Game *g, char *out);

/* The release, also GTP's `version`. */
#define EMILIA_VERSION "0.1"
/* The line of `PROGRAM --version` into out (len bytes), without a newline:
 * "emilia 0.1 (avx2 kernel)" for every binary of the project, "emilia 0.1
 * (avx2 kernel, dispatched)" in the default build that chooses its kernel
 * at start-up (board_kernel_choice).  The front ends print it
 * (version.h). */
void text_version(const char *program, char *out, size_t len);

/* Skip leading blanks; strip trailing blanks in place. */
char *text_trim(char *s);

/* A printable, bounded copy of an untrusted word for error messages:
 * non-printable bytes become \xHH and a backslash \\, at most 40 input
 * bytes.  out holds TEXT_QUOTE_MAX bytes. */
#define TEXT_QUOTE_MAX 170
const char *text_quote(const char *s, char *out);

/* GGF (one line, "(;GM[Othello]...;)", docs/protocols.md).  text_parse_ggf
 * reads a game into g: start board (BO), moves (passes included) and the
 * players' clocks.  time_left[c] is the seconds left for colour c (clock
 * minus that player's move times, plus increments) or -1 when the game
 * has no clock.  All or nothing; err (160 bytes) says what is wrong.  The
 * one GGF reader: NBoard's `set game` and the game-record files
 * (gamefile.h) use it. */
bool text_parse_ggf(const char *ggf, Variant v, Game *g, double time_left[2], double increment[2], char *err);
/* A move as NBoard sends it and as a GGF B[]/W[] value holds it:
 * "square[/eval[/time]]".  value is cut in place; *mv gets the square
 * (BOARD_PASS for PA), *seconds the time (0 when none); false and err (160
 * bytes) when a field is malformed. */
bool text_ggf_move(char *value, int size, int *mv, double *seconds, char *err);

#endif
