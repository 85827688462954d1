#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "text.h"

void text_square(int sq, char *out)
{
	if (sq == BOARD_PASS) {
		strcpy(out, "pass");
		return;
	}
	out[0] = (char)('a' + sq % 8);
	out[1] = (char)('1' + sq / 8);
	out[2] = 0;
}

void text_square_upper(int sq, char *out)
{
	if (sq == BOARD_PASS) {
		strcpy(out, "PASS");
		return;
	}
	out[0] = (char)('A' + sq % 8);
	out[1] = (char)('1' + sq / 8);
	out[2] = 0;
}

int text_parse_square(const char *s, int size)
{
	if (!s || !s[0] || !s[1] || s[2])
		return -1;
	int c = tolower((unsigned char)s[0]) - 'a';
	int r = s[1] - '1';
	if (c < 0 || c >= size || r < 0 || r >= size)
		return -1;
	return r * 8 + c;
}

static bool is_pass_word(const char *s)
{
	static const char *const words[] = { "pass", "pa", "--", "@@", "ps", NULL };
	for (int i = 0; words[i]; i++)
		if (strcasecmp(s, words[i]) == 0)
			return true;
	return false;
}

int text_parse_move(const char *s, int size)
{
	if (!s)
		return -1;
	if (is_pass_word(s))
		return BOARD_PASS;
	return text_parse_square(s, size);
}

static void quote_token(const char *s, size_t n, char *out, size_t outlen)
{
	size_t j = 0;
	for (size_t i = 0; i < n && j + 5 < outlen && i < 12; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (isprint(ch))
			out[j++] = (char)ch;
		else
			j += (size_t)snprintf(out + j, outlen - j, "\\x%02x", ch);
	}
	out[j] = 0;
}

bool text_apply_transcript(Game *g, const char *s, char *err)
{
	if (!s) {
		snprintf(err, TEXT_ERR, "no transcript");
		return false;
	}
	Game t = *g;
	int n = 0; /* moves read so far */
	size_t i = 0;
	while (s[i]) {
		unsigned char ch = (unsigned char)s[i];
		if (isspace(ch) || ch == ',' || ch == ';') {
			i++;
			continue;
		}
		char tok[5] = { 0 };
		size_t len = 2;
		if (strncasecmp(s + i, "pass", 4) == 0)
			len = 4;
		if (!s[i + 1])
			len = 1;
		memcpy(tok, s + i, len);
		n++;
		int mv = text_parse_move(tok, t.size);
		if (mv < 0) {
			char q[64];
			quote_token(s + i, len, q, sizeof q);
			snprintf(err, TEXT_ERR, "invalid square '%s' at move %d", q, n);
			return false;
		}
		if (mv == BOARD_PASS) {
			if (!game_must_pass(&t)) {
				snprintf(err, TEXT_ERR, "illegal pass at move %d%s", n,
				         game_is_over(&t) ? ": the game is over" : ": a move is available");
				return false;
			}
			game_play(&t, BOARD_PASS);
			n--; /* explicit passes do not count as moves */
			i += len;
			continue;
		}
		if (game_must_pass(&t))
			game_play(&t, BOARD_PASS);
		GameStatus st = game_play(&t, mv);
		if (st != GAME_OK) {
			char q[5];
			text_square(mv, q);
			snprintf(err, TEXT_ERR, "illegal move %s at move %d%s", q, n,
			         st == GAME_OVER ? ": the game is over" : "");
			return false;
		}
		i += len;
	}
	/* a forced pass after the last move is part of the game's state */
	if (game_must_pass(&t))
		game_play(&t, BOARD_PASS);
	*g = t;
	return true;
}

int text_square_char(int ch)
{
	switch (ch) {
	case 'X': case 'x': case '*': case 'B': case 'b': return BLACK;
	case 'O': case 'o': case 'W': case 'w': return WHITE;
	case '-': case '.': case '_': return TEXT_EMPTY;
	default: return TEXT_NOT_SQUARE;
	}
}

int text_side_char(int ch)
{
	int c = text_square_char(ch);
	return c == TEXT_EMPTY ? TEXT_NOT_SQUARE : c;
}

int text_read_diagram(const char *s, int size, bool blanks, uint64_t *black, uint64_t *white, size_t *end)
{
	const int nsq = size * size;
	uint64_t b = 0, w = 0;
	size_t i = 0;
	int k = 0;
	while (k < nsq) {
		if (blanks)
			while (s[i] == ' ')
				i++;
		int c = text_square_char((unsigned char)s[i]);
		if (c == TEXT_NOT_SQUARE)
			break;
		uint64_t bit = bit_of((k / size) * 8 + k % size);
		if (c == BLACK)
			b |= bit;
		else if (c == WHITE)
			w |= bit;
		i++;
		k++;
	}
	*black = b;
	*white = w;
	*end = i;
	return k;
}

/* The rows form of a diagram: rows separated by '/', digits for runs of
 * empty squares; 8 or 6 rows. */
static int read_rows(const char *s, uint64_t *black, uint64_t *white, char *err)
{
	int rows = 1;
	for (const char *p = s; *p; p++)
		rows += *p == '/';
	if (rows != 8 && rows != 6) {
		snprintf(err, TEXT_ERR, "fen: %d rows, expected 8 or 6", rows);
		return 0;
	}
	const int size = rows;
	uint64_t b = 0, w = 0;
	int r = 0, c = 0;
	for (const char *p = s; *p; p++) {
		const char ch = *p;
		if (ch == '/') {
			if (c != size) {
				snprintf(err, TEXT_ERR, "fen: row %d has %d squares", r + 1, c);
				return 0;
			}
			r++;
			c = 0;
		} else if (ch >= '1' && ch <= '8') {
			c += ch - '0';
		} else if (c < size && text_square_char((unsigned char)ch) != TEXT_NOT_SQUARE) {
			int disc = text_square_char((unsigned char)ch);
			if (disc == BLACK)
				b |= bit_of(r * 8 + c);
			else if (disc == WHITE)
				w |= bit_of(r * 8 + c);
			c++;
		} else {
			snprintf(err, TEXT_ERR, "fen: bad character '%c' in row %d", isprint((unsigned char)ch) ? ch : '?', r + 1);
			return 0;
		}
		if (c > size) {
			snprintf(err, TEXT_ERR, "fen: row %d has too many squares", r + 1);
			return 0;
		}
	}
	if (c != size) {
		snprintf(err, TEXT_ERR, "fen: row %d has %d squares", r + 1, c);
		return 0;
	}
	*black = b;
	*white = w;
	return size;
}

bool text_parse_fen(const char *squares, const char *side, int *size, Board *board, int *to_move, char *err)
{
	int c = side && side[0] && !side[1] ? text_side_char((unsigned char)side[0]) : TEXT_NOT_SQUARE;
	if (c == TEXT_NOT_SQUARE) {
		snprintf(err, TEXT_ERR, "fen: side to move must be X or O");
		return false;
	}
	uint64_t black, white;
	int n;
	if (strchr(squares, '/')) {
		n = read_rows(squares, &black, &white, err);
		if (!n)
			return false;
	} else {
		size_t len = strlen(squares);
		if (len != 64 && len != 36) {
			snprintf(err, TEXT_ERR, "fen: %zu squares, expected 64 (or 36)", len);
			return false;
		}
		n = len == 64 ? 8 : 6;
		size_t k;
		if (text_read_diagram(squares, n, false, &black, &white, &k) != (int)len) {
			const char ch = squares[k];
			snprintf(err, TEXT_ERR, "fen: bad character '%c' at square %zu", isprint((unsigned char)ch) ? ch : '?', k + 1);
			return false;
		}
	}
	*size = n;
	board->p = c == BLACK ? black : white;
	board->o = c == BLACK ? white : black;
	*to_move = c;
	return true;
}

bool text_parse_obf(const char *line, int size, ObfPosition *pos, char *err)
{
	if (!line) {
		snprintf(err, TEXT_ERR, "no OBF line");
		return false;
	}
	ObfPosition r;
	memset(&r, 0, sizeof r);
	const int nsq = size * size;
	size_t i = 0;
	while (line[i] == ' ' || line[i] == '\t')
		i++;
	uint64_t black, white;
	size_t used;
	int k = text_read_diagram(line + i, size, false, &black, &white, &used);
	i += used;
	/* the board is the word up to a blank or ';' */
	const bool sep = !line[i] || isspace((unsigned char)line[i]) || line[i] == ';';
	if (k < nsq && !sep) {
		char q[16];
		quote_token(&line[i], 1, q, sizeof q);
		snprintf(err, TEXT_ERR, "invalid square character '%s' at column %zu", q, i + 1);
		return false;
	}
	for (; line[i] && !isspace((unsigned char)line[i]) && line[i] != ';'; i++)
		k++; /* characters past the board, counted for the message */
	if (k != nsq) {
		snprintf(err, TEXT_ERR, "board has %d squares, expected %d", k, nsq);
		return false;
	}
	while (line[i] == ' ' || line[i] == '\t')
		i++;
	r.side = text_side_char((unsigned char)line[i]);
	if (r.side == TEXT_NOT_SQUARE) {
		snprintf(err, TEXT_ERR, "missing side to move (X or O) at column %zu", i + 1);
		return false;
	}
	i++;
	if (line[i] && !isspace((unsigned char)line[i]) && line[i] != ';') {
		snprintf(err, TEXT_ERR, "unexpected character after side to move at column %zu", i + 1);
		return false;
	}
	r.board.p = r.side == BLACK ? black : white;
	r.board.o = r.side == BLACK ? white : black;
	/* optional expected moves: ";" then "MOVE:score" pairs separated by ";" */
	while (line[i] && line[i] != '%') {
		while (line[i] && (isspace((unsigned char)line[i]) || line[i] == ';'))
			i++;
		if (!line[i] || line[i] == '%')
			break;
		const size_t start = i; /* reported in errors */
		char tok[8] = { 0 };
		int t = 0;
		while (line[i] && line[i] != ':' && !isspace((unsigned char)line[i]) && line[i] != ';' && t < 6)
			tok[t++] = line[i++];
		if (line[i] != ':') {
			snprintf(err, TEXT_ERR, "malformed move:score pair at column %zu", start + 1);
			return false;
		}
		i++;
		int mv = text_parse_move(tok, size);
		char *end;
		long v = strtol(line + i, &end, 10);
		if (mv < 0 || end == line + i || v < -64 || v > 64) {
			snprintf(err, TEXT_ERR, "malformed move:score pair at column %zu", start + 1);
			return false;
		}
		i = (size_t)(end - line);
		if (r.nexpected < TEXT_OBF_MAX_MOVES) {
			r.expected_move[r.nexpected] = mv;
			r.expected_score[r.nexpected] = (int)v;
			r.nexpected++;
		}
	}
	*pos = r;
	return true;
}

void text_write_obf(Board b, int side, int size, char *out)
{
	uint64_t black = side == BLACK ? b.p : b.o;
	uint64_t white = side == BLACK ? b.o : b.p;
	int k = 0;
	for (int r = 0; r < size; r++)
		for (int c = 0; c < size; c++) {
			uint64_t m = bit_of(r * 8 + c);
			out[k++] = (black & m) ? 'X' : (white & m) ? 'O' : '-';
		}
	out[k++] = ' ';
	out[k++] = side == BLACK ? 'X' : 'O';
	out[k] = 0;
}

bool text_obf_expected(const ObfPosition *pos, int move, int *score, bool *move_listed)
{
	if (pos->nexpected == 0)
		return false;
	int best = pos->expected_score[0];
	for (int i = 1; i < pos->nexpected; i++)
		if (pos->expected_score[i] > best)
			best = pos->expected_score[i];
	*move_listed = false;
	for (int i = 0; i < pos->nexpected; i++)
		if (pos->expected_score[i] == best && pos->expected_move[i] == move)
			*move_listed = true;
	*score = best;
	return true;
}

int text_obf_file_line(char *line, int size, ObfPosition *pos, char *err)
{
	size_t len = strlen(line);
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = 0;
	const char *s = line;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '#' || *s == '%')
		return 0;
	return text_parse_obf(s, size, pos, err) ? 1 : -1;
}

void text_write_obf_result(Board b, int side, int size, int move, int score, bool wld, char *out)
{
	text_write_obf(b, side, size, out);
	size_t n = strlen(out);
	char mv[8];
	if (move == BOARD_NOMOVE) {
		snprintf(out + n, 96 - n, "; %% final %+d", score);
		return;
	}
	if (move == BOARD_PASS)
		strcpy(mv, "PA");
	else
		text_square_upper(move, mv);
	snprintf(out + n, 96 - n, "; %s:%+d;%s", mv, score, wld ? " % wld" : "");
}

size_t text_board_picture(const Game *g, bool mark_moves, char *out, size_t outlen)
{
	size_t n = 0;
	uint64_t black = game_colour_bits(g, BLACK), white = game_colour_bits(g, WHITE);
	uint64_t moves = mark_moves ? game_moves(g) : 0;
#define PUT(...) do { int w_ = snprintf(out + n, n < outlen ? outlen - n : 0, __VA_ARGS__); \
		if (w_ > 0) n += (size_t)w_; } while (0)
	PUT("  ");
	for (int c = 0; c < g->size; c++)
		PUT(" %c", 'A' + c);
	PUT("\n");
	for (int r = 0; r < g->size; r++) {
		PUT("%2d", r + 1);
		for (int c = 0; c < g->size; c++) {
			uint64_t m = bit_of(r * 8 + c);
			PUT(" %c", (black & m) ? 'X' : (white & m) ? 'O' : (moves & m) ? '.' : '-');
		}
		PUT(" %d", r + 1);
		if (r == 0)
			PUT("   %s to move", game_is_over(g) ? "nobody" : g->side == BLACK ? "Black (X)" : "White (O)");
		if (r == 1)
			PUT("   Black %d  White %d", bit_count(black), bit_count(white));
		PUT("\n");
	}
	PUT("  ");
	for (int c = 0; c < g->size; c++)
		PUT(" %c", 'A' + c);
	PUT("\n");
#undef PUT
	if (n >= outlen && outlen)
		out[outlen - 1] = 0;
	return n < outlen ? n : outlen ? outlen - 1 : 0;
}

void text_transcript(const Game *g, char *out)
{
	size_t k = 0;
	for (int i = 0; i < g->nply; i++) {
		if (g->hist[i].move == BOARD_PASS)
			continue;
		text_square(g->hist[i].move, out + k);
		k += 2;
	}
	out[k] = 0;
}

void text_version(const char *program, char *out, size_t len)
{
	snprintf(out, len, "%s %s (%s kernel%s%s)", program, EMILIA_VERSION, board_kernel_name(),
	         board_kernel_choice ? ", " : "", board_kernel_choice ? board_kernel_choice : "");
}

/* ---- trimming, quoting, GGF ------------------------------------------------ */

char *text_trim(char *s)
{
	while (*s == ' ')
		s++;
	size_t n = strlen(s);
	while (n && s[n - 1] == ' ')
		s[--n] = 0;
	return s;
}

const char *text_quote(const char *s, char *out)
{
	size_t k = 0;
	for (size_t i = 0; s[i] && i < 40; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\\') {
			out[k++] = '\\';
			out[k++] = '\\';
		} else if (c >= 32 && c < 127)
			out[k++] = (char)c;
		else
			k += (size_t)sprintf(out + k, "\\x%02x", c);
	}
	if (strlen(s) > 40) {
		memcpy(out + k, "...", 3);
		k += 3;
	}
	out[k] = 0;
	return out;
}

/* "[[d.]h:]m:s" -> seconds; false on anything else. */
static bool ggf_time(const char *s, size_t len, double *out)
{
	double field[4];
	int n = 0;
	double days = 0;
	size_t i = 0;
	while (i < len) {
		char *end;
		char buf[32];
		size_t k = 0;
		while (i < len && s[i] != ':' && k + 1 < sizeof buf)
			buf[k++] = s[i++];
		buf[k] = 0;
		if (i < len && s[i] != ':')
			return false;
		i++;
		char *dot = n == 0 ? strchr(buf, '.') : NULL;
		if (dot && strchr(s, ':')) {
			*dot = 0;
			days = strtod(buf, &end);
			if (*end || days < 0)
				return false;
			memmove(buf, dot + 1, strlen(dot + 1) + 1);
		}
		if (n == 3 || !buf[0])
			return false;
		field[n] = strtod(buf, &end);
		if (*end || field[n] < 0 || field[n] > 1e7)
			return false;
		n++;
	}
	if (n == 0)
		return false;
	double t = 0;
	for (int k = 0; k < n; k++)
		t = t * 60 + field[k];
	*out = t + days * 86400;
	return true;
}

/* A move as NBoard sends it, in `move` and in a GGF B[]/W[] value:
 * "square[/eval[/time]]".  The same rule for both: the square must be one,
 * an eval, when given, a number, a time, when given, a GGF time.  value is
 * cut in place; *mv gets the square, *seconds the time (0 when none). */
bool text_ggf_move(char *value, int size, int *mv, double *seconds, char *err)
{
	char *f[3] = { value, NULL, NULL };
	char *s1 = strchr(value, '/');
	if (s1) {
		*s1 = 0;
		f[1] = s1 + 1;
		char *s2 = strchr(f[1], '/');
		if (s2) {
			*s2 = 0;
			f[2] = s2 + 1;
		}
	}
	char q[TEXT_QUOTE_MAX];
	*mv = text_parse_move(text_trim(f[0]), size);
	if (*mv < 0) {
		snprintf(err, 160, "bad move '%.20s'", text_quote(f[0], q));
		return false;
	}
	if (f[1] && *text_trim(f[1])) {
		char *end;
		double ev = strtod(text_trim(f[1]), &end);
		if (*end || !(ev >= -1e6 && ev <= 1e6)) {
			snprintf(err, 160, "bad move eval '%.20s'", text_quote(f[1], q));
			return false;
		}
	}
	*seconds = 0;
	if (f[2] && *text_trim(f[2])) {
		char *tv = text_trim(f[2]);
		if (!ggf_time(tv, strlen(tv), seconds)) {
			snprintf(err, 160, "bad move time '%.20s'", text_quote(tv, q));
			return false;
		}
	}
	return true;
}

/* "clock[/increment[/grace]]" */
static bool ggf_clock(const char *v, double *clock, double *inc)
{
	const char *slash = strchr(v, '/');
	size_t len = slash ? (size_t)(slash - v) : strlen(v);
	if (!ggf_time(v, len, clock))
		return false;
	*inc = 0;
	if (slash) {
		const char *s2 = strchr(slash + 1, '/');
		size_t l2 = s2 ? (size_t)(s2 - slash - 1) : strlen(slash + 1);
		if (l2 && !ggf_time(slash + 1, l2, inc))
			return false;
	}
	return true;
}

/* BO[size diagram side]: the start position into g (rules v). */
static bool ggf_board(char *value, Variant v, Game *g, char *err)
{
	char *s = text_trim(value);
	char *end;
	long size = strtol(s, &end, 10);
	if (end == s || (size != 8 && size != 6)) {
		snprintf(err, 160, "GGF: board size must be 8 or 6");
		return false;
	}
	uint64_t black, white;
	size_t nread;
	int n = text_read_diagram(end, (int)size, true, &black, &white, &nread);
	s = end + nread;
	if (n < size * size && *s) {
		snprintf(err, 160, "GGF: bad square '%c' in BO", isprint((unsigned char)*s) ? *s : '?');
		return false;
	}
	while (*s == ' ')
		s++;
	int side = -1;
	if (*s) {
		side = text_side_char((unsigned char)*s++);
		if (side == TEXT_NOT_SQUARE) {
			snprintf(err, 160, "GGF: BO side to move must be * or O");
			return false;
		}
		while (*s == ' ')
			s++;
		if (*s) {
			snprintf(err, 160, "GGF: extra characters in BO");
			return false;
		}
	}
	if (n != size * size || side < 0) {
		snprintf(err, 160, "GGF: BO has %d squares%s", n, side < 0 ? " and no side to move" : "");
		return false;
	}
	game_init(g, (int)size, v);
	Board b = { side == BLACK ? black : white, side == BLACK ? white : black };
	game_set(g, b, side);
	return true;
}

/* B[move/time] or W[...]: colour c's move played on g; its time added to
 * used[c]. */
static bool ggf_play(char *value, int c, Game *g, int nmoves[2], double used[2], char *err)
{
	int mv;
	double t;
	char merr[160];
	if (!text_ggf_move(value, g->size, &mv, &t, merr)) {
		snprintf(err, 160, "GGF: %.150s", merr);
		return false;
	}
	GameStatus st;
	if (mv == BOARD_PASS)
		st = c == g->side && game_must_pass(g) ? game_play(g, BOARD_PASS) : GAME_ILLEGAL;
	else
		st = game_play_colour(g, c, mv);
	if (st != GAME_OK) {
		char sq[8];
		text_square(mv, sq);
		snprintf(err, 160, "GGF: illegal move %s%s for %s", sq, "", c == BLACK ? "black" : "white");
		return false;
	}
	nmoves[c]++;
	used[c] += t;
	return true;
}

/* The next property ident[value] at *p, which moves past it; returns 1
 * with value set, 0 for one skipped (a long value of a property that is
 * not read), -1 on an error. */
static int ggf_property(const char *ggf, const char **p, char ident[8], char value[256], char *err)
{
	const char *q = *p;
	int k = 0;
	while (isupper((unsigned char)*q) && k < 7)
		ident[k++] = *q++;
	ident[k] = 0;
	if (!k || *q != '[') {
		snprintf(err, 160, "GGF: property expected at column %d", (int)(q - ggf) + 1);
		return -1;
	}
	const char *val = ++q;
	while (*q && *q != ']')
		q++;
	if (!*q) {
		snprintf(err, 160, "GGF: unterminated %s[...]", ident);
		return -1;
	}
	size_t vlen = (size_t)(q - val);
	*p = ++q;
	if (vlen >= 256) {
		if (!strcmp(ident, "BO") || !strcmp(ident, "B") || !strcmp(ident, "W") ||
		    !strcmp(ident, "TI") || !strcmp(ident, "TB") || !strcmp(ident, "TW")) {
			snprintf(err, 160, "GGF: %s value too long", ident);
			return -1;
		}
		return 0; /* long comments and the like are skipped */
	}
	memcpy(value, val, vlen);
	value[vlen] = 0;
	return 1;
}

bool text_parse_ggf(const char *ggf, Variant v, Game *out, double time_left[2],
                      double increment[2], char *err)
{
	const char *p = ggf;
	while (*p == ' ')
		p++;
	if (strncmp(p, "(;", 2) != 0) {
		snprintf(err, 160, "GGF must start with '(;'");
		return false;
	}
	p += 2;
	Game g;
	game_init(&g, 8, v);
	bool have_board = false, moved = false;
	double clock[2] = { -1, -1 }, inc[2] = { 0, 0 }, used[2] = { 0, 0 };
	int nmoves[2] = { 0, 0 };
	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p) {
			snprintf(err, 160, "GGF ends without ';)'");
			return false;
		}
		if (p[0] == ';' && p[1] == ')')
			break;
		char ident[8], value[256];
		int got = ggf_property(ggf, &p, ident, value, err);
		if (got < 0)
			return false;
		if (!got)
			continue;
		if (!strcmp(ident, "GM")) {
			if (strcasecmp(text_trim(value), "Othello") != 0) {
				snprintf(err, 160, "GGF: game '%.40s' is not Othello", value);
				return false;
			}
		} else if (!strcmp(ident, "BO")) {
			if (moved) {
				snprintf(err, 160, "GGF: BO after the moves");
				return false;
			}
			if (!ggf_board(value, v, &g, err))
				return false;
			have_board = true;
		} else if (!strcmp(ident, "B") || !strcmp(ident, "W")) {
			if (!have_board) {
				snprintf(err, 160, "GGF: moves before BO");
				return false;
			}
			moved = true;
			if (!ggf_play(value, ident[0] == 'B' ? BLACK : WHITE, &g, nmoves, used, err))
				return false;
		} else if (!strcmp(ident, "TI") || !strcmp(ident, "TB") || !strcmp(ident, "TW")) {
			double cl, in;
			if (!ggf_clock(text_trim(value), &cl, &in)) {
				snprintf(err, 160, "GGF: bad clock '%.40s'", value);
				return false;
			}
			for (int c = 0; c < 2; c++)
				if (ident[1] == 'I' || (ident[1] == 'B') == (c == BLACK)) {
					clock[c] = cl;
					inc[c] = in;
				}
		}
		/* other properties (PC, DT, PB, PW, RE, TY, KO, ...) are ignored */
	}
	if (!have_board) {
		snprintf(err, 160, "GGF: no BO (board) property");
		return false;
	}
	for (int c = 0; c < 2; c++) {
		time_left[c] = clock[c] < 0 ? -1 : clock[c] + inc[c] * nmoves[c] - used[c];
		if (clock[c] >= 0 && time_left[c] < 0)
			time_left[c] = 0;
		increment[c] = inc[c];
	}
	*out = g;
	return true;
}

