/*
 * wthor.c - WTHOR and logbook.gam readers (see wthor.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "game.h"
#include "text.h"
#include "wthor.h"

static uint32_t get32(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

bool wthor_header(const unsigned char *buf, size_t len, WthorHeader *h, char *err)
{
	err[0] = 0;
	if (len < WTHOR_HEADER) {
		snprintf(err, WTHOR_ERR, "file too short for a WTHOR header (%zu bytes)", len);
		return false;
	}
	if (buf[12] != 0 && buf[12] != 8) {
		snprintf(err, WTHOR_ERR, "board size %d in the header; only 8x8 files are read", buf[12]);
		return false;
	}
	WthorHeader r;
	r.ngames = get32(buf + 4);
	r.year = buf[10] | buf[11] << 8;
	r.depth = buf[14];
	if (r.depth > 60) {
		snprintf(err, WTHOR_ERR, "theoretical score depth %d out of range", r.depth);
		return false;
	}
	size_t whole = (len - WTHOR_HEADER) / WTHOR_RECORD;
	r.nrecords = whole < r.ngames ? (uint32_t)whole : r.ngames;
	if ((uint64_t)WTHOR_HEADER + (uint64_t)r.ngames * WTHOR_RECORD != len)
		snprintf(err, WTHOR_ERR, "header announces %u games but the file holds %zu bytes "
		         "(%zu whole records); reading %u", r.ngames, len, whole, r.nrecords);
	*h = r;
	return true;
}

/* Play one move for the side to move, passing first when it must. */
static bool play(Game *g, int sq, int colour, char *err, int n)
{
	if (game_is_over(g)) {
		snprintf(err, WTHOR_ERR, "move %d after the end of the game", n + 1);
		return false;
	}
	if (game_must_pass(g))
		game_play(g, BOARD_PASS);
	if (colour >= 0 && colour != g->side) {
		snprintf(err, WTHOR_ERR, "move %d: marked for %s but %s is to move", n + 1,
		         colour == BLACK ? "Black" : "White", g->side == BLACK ? "Black" : "White");
		return false;
	}
	if (game_play(g, sq) != GAME_OK) {
		char name[5];
		text_square(sq, name);
		snprintf(err, WTHOR_ERR, "illegal move %s at move %d", name, n + 1);
		return false;
	}
	return true;
}

bool wthor_record(const unsigned char *buf, const WthorHeader *h, uint32_t i, WthorGame *out,
                  char *err)
{
	const unsigned char *r = buf + WTHOR_HEADER + (size_t)i * WTHOR_RECORD;
	WthorGame w;
	memset(&w, 0, sizeof w);
	w.year = h->year;
	if (r[6] > 64 || r[7] > 64) {
		snprintf(err, WTHOR_ERR, "game %u: disc count out of range (%d, %d)", i + 1, r[6], r[7]);
		return false;
	}
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	int n = 0;
	for (; n < 60 && r[8 + n]; n++) {
		int b = r[8 + n], row = b / 10, col = b % 10;
		if (row < 1 || row > 8 || col < 1 || col > 8) {
			snprintf(err, WTHOR_ERR, "game %u: invalid move byte %d at move %d", i + 1, b, n + 1);
			return false;
		}
		char msg[WTHOR_ERR];
		if (!play(&g, (row - 1) * 8 + col - 1, -1, msg, n)) {
			snprintf(err, WTHOR_ERR, "game %u: %.120s", i + 1, msg);
			return false;
		}
		w.moves[n] = (uint8_t)((row - 1) * 8 + col - 1);
	}
	for (int k = n; k < 60; k++)
		if (r[8 + k]) {
			snprintf(err, WTHOR_ERR, "game %u: move after the end-of-game marker", i + 1);
			return false;
		}
	w.nmoves = n;
	w.finished = game_is_over(&g);
	/* the replayed result is exact; the stored count covers unfinished games */
	w.black_final = w.finished ? game_margin(&g, SCORING_OFFICIAL) : 2 * r[6] - 64;
	w.has_theory = h->depth > 0;
	w.theory_depth = h->depth;
	w.black_theory = 2 * r[7] - 64;
	*out = w;
	return true;
}

bool wthor_logbook_line(const char *line, WthorGame *out, char *err)
{
	WthorGame w;
	memset(&w, 0, sizeof w);
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	size_t i = 0;
	int n = 0;
	while (line[i] == '+' || line[i] == '-') {
		int colour = line[i] == '+' ? BLACK : WHITE;
		char tok[3] = { line[i + 1], line[i + 1] ? line[i + 2] : 0, 0 };
		int sq = text_parse_square(tok, 8);
		if (sq < 0) {
			snprintf(err, WTHOR_ERR, "invalid move at column %zu", i + 2);
			return false;
		}
		if (n >= 60) {
			snprintf(err, WTHOR_ERR, "more than 60 moves");
			return false;
		}
		char msg[WTHOR_ERR];
		if (!play(&g, sq, colour, msg, n)) {
			snprintf(err, WTHOR_ERR, "%.150s", msg);
			return false;
		}
		w.moves[n++] = (uint8_t)sq;
		i += 3;
	}
	if (line[i] != ':') {
		snprintf(err, WTHOR_ERR, "expected ':' after the moves at column %zu", i + 1);
		return false;
	}
	i++;
	while (line[i] == ' ')
		i++;
	int sign = 1;
	if (line[i] == '+' || line[i] == '-')
		sign = line[i++] == '-' ? -1 : 1;
	if (!isdigit((unsigned char)line[i])) {
		snprintf(err, WTHOR_ERR, "missing score at column %zu", i + 1);
		return false;
	}
	int v = 0;
	while (isdigit((unsigned char)line[i]) && v <= 64)
		v = v * 10 + (line[i++] - '0');
	v *= sign;
	if (v < -64 || v > 64) {
		snprintf(err, WTHOR_ERR, "score out of range");
		return false;
	}
	if (!game_is_over(&g)) {
		snprintf(err, WTHOR_ERR, "game does not reach its end after %d moves", n);
		return false;
	}
	int b, wh;
	game_counts(&g, SCORING_PLAIN, &b, &wh);
	if (b - wh != v) {
		snprintf(err, WTHOR_ERR, "score %+d does not match the final board (%d-%d)", v, b, wh);
		return false;
	}
	w.nmoves = n;
	w.finished = true;
	w.black_final = game_margin(&g, SCORING_OFFICIAL);
	*out = w;
	return true;
}
