/*
 * wthor.h - readers of game archives: WTHOR .wtb files (the French
 * federation's format, also used by Logistello's book) and Logistello's
 * self-play transcripts (logbook.gam lines).
 *
 * Every game is replayed with the rules of game.h while it is read; a
 * record with an impossible move, a colour marker that does not match the
 * side to move, or a result that contradicts the final board is rejected
 * with a message (the caller reports it and goes on with the next record).
 *
 * WTHOR: 16-byte header (bytes 4-7 number of games, 10-11 year, 12 board
 * size (0 or 8), 14 depth of the theoretical score), then 68-byte records:
 * tournament, black, white (u16 each), Black's final disc count (u8,
 * empties to the winner), Black's theoretical disc count (u8: Black's
 * discs after perfect play from the position with `depth` empties), 60
 * move bytes 10 * row + column (1-based; 0 = no more moves; passes are not
 * stored).
 *
 * logbook.gam: "+d3-c3+c4...: -04 10": moves each preceded by the colour
 * that plays it (+ Black, - White; passes implied), ':', Black's disc
 * count minus White's as they stand at the end, and a number we ignore.
 */
#ifndef EMILIA_WTHOR_H
#define EMILIA_WTHOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WTHOR_HEADER 16
#define WTHOR_RECORD 68
#define WTHOR_ERR 160

typedef struct WthorHeader {
	uint32_t ngames;   /* as announced by the header */
	int year;
	int depth;         /* empties at which the theoretical score applies; 0 = none */
	uint32_t nrecords; /* complete records actually present in the buffer */
} WthorHeader;

typedef struct WthorGame {
	int year;          /* 0 when unknown (logbook) */
	int nmoves;
	uint8_t moves[60]; /* squares, in order, passes omitted */
	int black_final;   /* Black's final disc difference, empties to the winner */
	bool has_theory;
	int theory_depth;  /* empties at which black_theory applies */
	int black_theory;  /* Black's disc difference after perfect play from there */
	bool finished;     /* the moves reach the end of the game */
} WthorGame;

/* Parse the header of a .wtb image; false and a message when the buffer is
 * not a usable 8x8 WTHOR file.  A size that disagrees with the announced
 * game count is reported in err but not fatal (nrecords says how many whole
 * records are present): err[0] != 0 then. */
bool wthor_header(const unsigned char *buf, size_t len, WthorHeader *h, char *err);

/* Decode and replay record i (0-based, < h->nrecords). */
bool wthor_record(const unsigned char *buf, const WthorHeader *h, uint32_t i, WthorGame *g,
                  char *err);

/* Decode and replay one logbook.gam line (trailing newline allowed). */
bool wthor_logbook_line(const char *line, WthorGame *g, char *err);

#endif
