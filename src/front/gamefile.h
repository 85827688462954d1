/*
 * gamefile.h - game records for people: read a game from a transcript, a
 * GGF or SGF record, or a game of a WTHOR archive; write one as GGF or as
 * a transcript.  Used by `emilia review`, `emilia show`, the terminal
 * game's save/load and GTP loadsgf.
 *
 * Every reader is all or nothing: on failure the output is untouched and
 * err (GAMEFILE_ERR bytes) says what is wrong and where, e.g.
 * "game.ggf: GGF: illegal move d3 for black".
 */
#ifndef EMILIA_GAMEFILE_H
#define EMILIA_GAMEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "game.h"

#define GAMEFILE_ERR 256
#define GAMEFILE_NAME 64
/* Largest record file read (a game is a few hundred bytes). */
#define GAMEFILE_MAX_BYTES (1 << 20)

typedef enum { GAMEFILE_TRANSCRIPT, GAMEFILE_GGF, GAMEFILE_SGF, GAMEFILE_WTHOR } GameFormat;

typedef struct GameRecord {
	Game game;                    /* start position and every ply, passes included */
	char black[GAMEFILE_NAME];    /* players' names (UTF-8), "" when unknown */
	char white[GAMEFILE_NAME];
	GameFormat format;            /* what it was read from */
} GameRecord;

/* Parse the text of a record: GGF when it starts with "(;" and has a BO[
 * property, other "(;" records as SGF, anything else as a transcript (the
 * first line that is not blank and not a '#' comment).  `size` and `v`
 * are the board size and variant of transcripts and SGF without SZ. */
bool gamefile_parse(const char *text, int size, Variant v, GameRecord *r, char *err);

/* Read a record file (at most GAMEFILE_MAX_BYTES; regular files only). */
bool gamefile_load(const char *path, int size, Variant v, GameRecord *r, char *err);

/* Game `index` (1-based) of a WTHOR archive; the players' names come from
 * WTHOR.JOU in the same folder when it is there. */
bool gamefile_load_wthor(const char *path, long index, GameRecord *r, char *err);

/* The main line of an SGF record up to before move `upto` (1-based; 0 =
 * all) into g (size and variant from g unless SZ says otherwise);
 * explicit[i] is set for passes written in the record.  All or nothing. */
bool gamefile_parse_sgf(const char *text, long upto, Game *g, bool explicit_pass[GAME_MAX_PLY],
                        char *err, size_t errlen);

/* One GGF line "(;GM[Othello]PC[Emilia]...;)" with a newline: names, the
 * start board, every move (passes as PA), the result when the game is
 * over. */
void gamefile_write_ggf(FILE *f, const GameRecord *r);

/* Save: GGF when the path ends in .ggf (any case), else the transcript
 * on one line.  Written to a temporary file and renamed. */
bool gamefile_save(const char *path, const GameRecord *r, char *err);

/* A name from a file, made printable UTF-8 (Latin-1 bytes converted,
 * control characters dropped), at most GAMEFILE_NAME - 1 bytes. */
void gamefile_set_name(char *dst, const char *src, size_t len);

#endif
