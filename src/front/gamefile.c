/*
 * gamefile.c - game records: transcripts, GGF, SGF, WTHOR (gamefile.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "gamefile.h"
#include "proto_io.h"
#include "text.h"
#include "util.h"
#include "wthor.h"

void gamefile_set_name(char *dst, const char *src, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len && src[i]; i++) {
		unsigned char c = (unsigned char)src[i];
		if (c < 0x20 || c == 0x7f)
			continue;
		if (c < 0x80) {
			if (n + 1 >= GAMEFILE_NAME)
				break;
			dst[n++] = (char)c;
		} else {
			/* Latin-1 (WTHOR, most GGF files) to UTF-8 */
			if (n + 2 >= GAMEFILE_NAME)
				break;
			dst[n++] = (char)(0xc0 | c >> 6);
			dst[n++] = (char)(0x80 | (c & 0x3f));
		}
	}
	while (n && dst[n - 1] == ' ')
		n--;
	dst[n] = 0;
}

/* The value of property `id` ("PB") in a GGF or SGF text, "" when absent. */
static void property(const char *text, const char *id, char *out)
{
	out[0] = 0;
	size_t idlen = strlen(id);
	for (const char *p = text; (p = strstr(p, id)) != NULL; p += idlen) {
		if (p > text && isupper((unsigned char)p[-1]))
			continue;
		if (p[idlen] != '[')
			continue;
		const char *v = p + idlen + 1;
		size_t n = 0;
		while (v[n] && v[n] != ']')
			n++;
		gamefile_set_name(out, v, n);
		return;
	}
}

/* ---- SGF ---------------------------------------------------------------- */

/* An SGF point: "f5" (Othello style) or "fe" (SGF letters); "", "tt",
 * "pass" and the other pass words are passes. */
static int sgf_point(const char *v, int size)
{
	if (!v[0] || !strcasecmp(v, "tt"))
		return BOARD_PASS;
	int m = text_parse_move(v, size);
	if (m >= 0)
		return m;
	if (strlen(v) == 2 && islower((unsigned char)v[0]) && islower((unsigned char)v[1])) {
		int c = v[0] - 'a', r = v[1] - 'a';
		if (c < size && r < size)
			return r * 8 + c;
	}
	return -1;
}

/* The game read so far from an SGF record. */
typedef struct SgfRead {
	Game t;
	int size;
	Variant variant;
	uint64_t black, white;     /* the setup (AB, AW, AE) */
	bool setup, moved;
	int side;                  /* PL */
	long moves;
	bool expl[GAME_MAX_PLY];   /* the passes written as moves */
} SgfRead;

/* The game's position from the setup, once, before the first move or at
 * the end. */
static void sgf_set_position(SgfRead *s)
{
	Board b = { s->side == BLACK ? s->black : s->white, s->side == BLACK ? s->white : s->black };
	game_set(&s->t, b, s->side);
}

/* B[v] or W[v]: colour c's move; returns 1 to go on, 0 at move upto, -1
 * on an error. */
static int sgf_move(SgfRead *s, int c, const char *v, long upto, char *err, size_t errlen)
{
	char q[TEXT_QUOTE_MAX];
	if (!s->moved) {
		if (s->setup)
			sgf_set_position(s);
		s->moved = true;
	}
	int mv = sgf_point(v, s->size);
	s->moves++;
	if (upto > 0 && s->moves >= upto)
		return 0;
	if (mv < 0) {
		snprintf(err, errlen, "bad move '%s' at move %ld", text_quote(v, q), s->moves);
		return -1;
	}
	if (mv == BOARD_PASS) {
		if (c != s->t.side || !game_must_pass(&s->t)) {
			snprintf(err, errlen, "illegal pass at move %ld", s->moves);
			return -1;
		}
		s->expl[s->t.nply] = true;
		game_play(&s->t, BOARD_PASS);
	} else if (game_play_colour(&s->t, c, mv) != GAME_OK) {
		snprintf(err, errlen, "illegal move '%s' at move %ld", text_quote(v, q), s->moves);
		return -1;
	}
	return 1;
}

/* One property ident[v]; returns 1 to go on, 0 at move upto, -1 on an
 * error. */
static int sgf_property(SgfRead *s, const char *ident, const char *v, long upto, char *err,
                        size_t errlen)
{
	char q[TEXT_QUOTE_MAX];
	if (!strcmp(ident, "SZ")) {
		long sz;
		if (!util_parse_int(v, 1, 64, &sz) || (sz != 8 && sz != 6)) {
			snprintf(err, errlen, "unsupported board size '%s'", text_quote(v, q));
			return -1;
		}
		if (s->moved || s->setup) {
			snprintf(err, errlen, "SZ after the game started");
			return -1;
		}
		s->size = (int)sz;
		game_init(&s->t, s->size, s->variant);
	} else if (!strcmp(ident, "AB") || !strcmp(ident, "AW") || !strcmp(ident, "AE")) {
		int sq = sgf_point(v, s->size);
		if (sq < 0 || sq == BOARD_PASS || s->moved) {
			snprintf(err, errlen, "bad setup point '%s'", text_quote(v, q));
			return -1;
		}
		if (!s->setup) {
			Board b = board_start(s->size);
			s->black = b.p;
			s->white = b.o;
			s->setup = true;
		}
		s->black &= ~bit_of(sq);
		s->white &= ~bit_of(sq);
		if (ident[1] == 'B')
			s->black |= bit_of(sq);
		else if (ident[1] == 'W')
			s->white |= bit_of(sq);
	} else if (!strcmp(ident, "PL")) {
		s->side = (v[0] == 'W' || v[0] == 'w') ? WHITE : BLACK;
	} else if (!strcmp(ident, "B") || !strcmp(ident, "W")) {
		return sgf_move(s, ident[0] == 'B' ? BLACK : WHITE, v, upto, err, errlen);
	}
	return 1;
}

bool gamefile_parse_sgf(const char *text, long upto, Game *out, bool explicit_pass[GAME_MAX_PLY],
                        char *err, size_t errlen)
{
	SgfRead s;
	memset(&s, 0, sizeof s);
	s.size = out->size;
	s.variant = out->variant;
	s.side = BLACK;
	game_init(&s.t, s.size, out->variant);
	const char *p = strchr(text, '(');
	if (!p) {
		snprintf(err, errlen, "not an SGF file");
		return false;
	}
	int depth = 0;
	char ident[16] = { 0 };
	bool after_value = false; /* a new identifier replaces the last one */
	for (; *p; p++) {
		char ch = *p;
		if (ch == '(') {
			if (++depth > 1)
				break; /* variations: the main line ends here */
			continue;
		}
		if (ch == ')')
			break;
		if (isupper((unsigned char)ch)) {
			if (after_value) {
				ident[0] = 0;
				after_value = false;
			}
			size_t k = strlen(ident);
			if (k + 1 < sizeof ident) {
				ident[k] = ch;
				ident[k + 1] = 0;
			}
			continue;
		}
		if (ch == ';') {
			ident[0] = 0;
			continue;
		}
		if (ch != '[')
			continue;
		/* a property value */
		char val[64];
		size_t n = 0;
		for (p++; *p && *p != ']'; p++) {
			if (*p == '\\' && p[1])
				p++;
			if (n + 1 < sizeof val)
				val[n++] = *p;
		}
		val[n] = 0;
		if (!*p)
			break;
		after_value = true;
		int go = sgf_property(&s, ident, text_trim(val), upto, err, errlen);
		if (go < 0)
			return false;
		if (!go)
			break;
	}
	if (!s.moved && s.setup)
		sgf_set_position(&s);
	*out = s.t;
	if (explicit_pass)
		memcpy(explicit_pass, s.expl, sizeof s.expl);
	return true;
}

/* ---- any text record ---------------------------------------------------- */

bool gamefile_parse(const char *text, int size, Variant v, GameRecord *r, char *err)
{
	GameRecord t;
	memset(&t, 0, sizeof t);
	const char *p = text;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (!strncmp(p, "(;", 2)) {
		/* one GGF line; newlines inside a file's record become spaces */
		size_t len = strlen(p);
		char *flat = malloc(len + 1);
		if (!flat) {
			snprintf(err, GAMEFILE_ERR, "out of memory");
			return false;
		}
		for (size_t i = 0; i <= len; i++)
			flat[i] = (p[i] == '\n' || p[i] == '\r' || p[i] == '\t') ? ' ' : p[i];
		bool ok;
		char e[160];
		if (strstr(flat, "BO[")) {
			/* the first record only */
			char *end = strstr(flat, ";)");
			if (end)
				end[2] = 0;
			double tl[2], inc[2];
			ok = text_parse_ggf(flat, v, &t.game, tl, inc, e);
			t.format = GAMEFILE_GGF;
		} else {
			game_init(&t.game, size, v);
			ok = gamefile_parse_sgf(flat, 0, &t.game, NULL, e, sizeof e);
			if (!ok) {
				char e2[160];
				snprintf(e2, sizeof e2, "SGF: %.150s", e);
				strcpy(e, e2);
			}
			t.format = GAMEFILE_SGF;
		}
		if (ok) {
			property(flat, "PB", t.black);
			property(flat, "PW", t.white);
		}
		free(flat);
		if (!ok) {
			snprintf(err, GAMEFILE_ERR, "%s", e);
			return false;
		}
		*r = t;
		return true;
	}
	/* a transcript: the first line that is not blank or a comment */
	const char *line = p;
	while (*line == '#') {
		line = strchr(line, '\n');
		if (!line)
			break;
		while (*line == '\n' || *line == '\r' || *line == ' ' || *line == '\t')
			line++;
	}
	if (!line || !*line) {
		snprintf(err, GAMEFILE_ERR, "no game in it (empty)");
		return false;
	}
	size_t n = strcspn(line, "\r\n");
	if (n > 4 * GAME_MAX_PLY) {
		snprintf(err, GAMEFILE_ERR, "transcript line too long (%zu characters)", n);
		return false;
	}
	char buf[4 * GAME_MAX_PLY + 1];
	memcpy(buf, line, n);
	buf[n] = 0;
	game_init(&t.game, size, v);
	char e[TEXT_ERR];
	if (!text_apply_transcript(&t.game, buf, e)) {
		snprintf(err, GAMEFILE_ERR, "not a GGF, SGF or transcript: %s", e);
		return false;
	}
	t.format = GAMEFILE_TRANSCRIPT;
	*r = t;
	return true;
}

/* The whole of a regular file, NUL-terminated (malloc'd). */
static char *read_file(const char *path, size_t max, size_t *len, char *err)
{
	char why[160];
	FILE *f = proto_open_regular(path, why, sizeof why);
	if (!f) {
		snprintf(err, GAMEFILE_ERR, "%s: %s", path, why);
		return NULL;
	}
	char *buf = malloc(max + 1);
	if (!buf) {
		fclose(f);
		snprintf(err, GAMEFILE_ERR, "%s: out of memory", path);
		return NULL;
	}
	size_t n = fread(buf, 1, max + 1, f);
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		snprintf(err, GAMEFILE_ERR, "%s: read error", path);
		return NULL;
	}
	if (n > max) {
		free(buf);
		snprintf(err, GAMEFILE_ERR, "%s: larger than %zu bytes", path, max);
		return NULL;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

bool gamefile_load(const char *path, int size, Variant v, GameRecord *r, char *err)
{
	size_t len;
	char *text = read_file(path, GAMEFILE_MAX_BYTES, &len, err);
	if (!text)
		return false;
	if (strlen(text) != len) {
		free(text);
		snprintf(err, GAMEFILE_ERR, "%s: not a text file (NUL byte)", path);
		return false;
	}
	char e[GAMEFILE_ERR];
	bool ok = gamefile_parse(text, size, v, r, e);
	free(text);
	if (!ok)
		snprintf(err, GAMEFILE_ERR, "%s: %.200s", path, e);
	return ok;
}

/* ---- WTHOR -------------------------------------------------------------- */

/* Name `id` from WTHOR.JOU beside the archive (16-byte header, 20-byte
 * names); "" when there is no such file or name. */
static void wthor_player(const char *path, int id, char *out)
{
	out[0] = 0;
	char jou[4096];
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path + 1) : 0;
	if (dir + 16 > sizeof jou)
		return;
	memcpy(jou, path, dir);
	strcpy(jou + dir, "WTHOR.JOU");
	char why[160];
	FILE *f = proto_open_regular(jou, why, sizeof why);
	if (!f)
		return;
	unsigned char rec[20];
	if (fseek(f, 16 + 20L * id, SEEK_SET) == 0 && fread(rec, 1, 20, f) == 20)
		gamefile_set_name(out, (const char *)rec, 20);
	fclose(f);
}

bool gamefile_load_wthor(const char *path, long index, GameRecord *r, char *err)
{
	size_t len;
	char *buf = read_file(path, 64u << 20, &len, err);
	if (!buf)
		return false;
	WthorHeader h;
	char e[WTHOR_ERR];
	bool ok = wthor_header((const unsigned char *)buf, len, &h, e);
	if (!ok)
		snprintf(err, GAMEFILE_ERR, "%s: %s", path, e);
	else if (index < 1 || index > (long)h.nrecords) {
		snprintf(err, GAMEFILE_ERR, "%s: no game %ld (the file holds %u)", path, index, h.nrecords);
		ok = false;
	}
	WthorGame w;
	if (ok && !wthor_record((const unsigned char *)buf, &h, (uint32_t)(index - 1), &w, e)) {
		snprintf(err, GAMEFILE_ERR, "%s: %s", path, e);
		ok = false;
	}
	if (ok) {
		GameRecord t;
		memset(&t, 0, sizeof t);
		game_init(&t.game, 8, VARIANT_NORMAL);
		for (int i = 0; i < w.nmoves; i++) {
			if (game_must_pass(&t.game))
				game_play(&t.game, BOARD_PASS);
			game_play(&t.game, w.moves[i]); /* replayed by wthor_record already */
		}
		const unsigned char *rec = (const unsigned char *)buf + WTHOR_HEADER + (size_t)(index - 1) * WTHOR_RECORD;
		wthor_player(path, rec[2] | rec[3] << 8, t.black);
		wthor_player(path, rec[4] | rec[5] << 8, t.white);
		t.format = GAMEFILE_WTHOR;
		*r = t;
	}
	free(buf);
	return ok;
}

/* ---- writing -------------------------------------------------------------- */

static void put_name(FILE *f, const char *id, const char *name)
{
	fprintf(f, "%s[", id);
	for (const char *s = name; *s; s++)
		if (*s != ']' && *s != '[' && *s != '\\')
			fputc(*s, f);
	fputc(']', f);
}

void gamefile_write_ggf(FILE *f, const GameRecord *r)
{
	const Game *g = &r->game;
	fputs("(;GM[Othello]PC[Emilia]", f);
	put_name(f, "PB", r->black[0] ? r->black : "Black");
	put_name(f, "PW", r->white[0] ? r->white : "White");
	fprintf(f, "TY[%d%s]", g->size, g->variant == VARIANT_ANTI ? "a" : "");
	if (game_is_over(g)) {
		int m = game_margin(g, SCORING_OFFICIAL);
		fprintf(f, "RE[%+d.000]", m);
	}
	fprintf(f, "BO[%d ", g->size);
	uint64_t black = g->start_side == BLACK ? g->start.p : g->start.o;
	uint64_t white = g->start_side == BLACK ? g->start.o : g->start.p;
	for (int r8 = 0; r8 < g->size; r8++)
		for (int c = 0; c < g->size; c++) {
			uint64_t m = bit_of(r8 * 8 + c);
			fputc((black & m) ? '*' : (white & m) ? 'O' : '-', f);
		}
	fprintf(f, " %c]", g->start_side == BLACK ? '*' : 'O');
	for (int i = 0; i < g->nply; i++) {
		char sq[8];
		if (g->hist[i].move == BOARD_PASS)
			strcpy(sq, "PA");
		else
			text_square_upper(g->hist[i].move, sq);
		fprintf(f, "%s[%s]", g->hist[i].side == BLACK ? "B" : "W", sq);
	}
	fputs(";)\n", f);
}

bool gamefile_save(const char *path, const GameRecord *r, char *err)
{
	size_t len = strlen(path);
	bool ggf = len >= 4 && !strcasecmp(path + len - 4, ".ggf");
	const Game *g = &r->game;
	if (!ggf) {
		Board s = board_start(g->size);
		if (g->start_side != BLACK || g->start.p != s.p || g->start.o != s.o) {
			snprintf(err, GAMEFILE_ERR, "%s: this game does not begin at the start position: save it as .ggf", path);
			return false;
		}
	}
	if (len == 0 || len > 3000) {
		snprintf(err, GAMEFILE_ERR, "bad file name");
		return false;
	}
	char tmp[3100];
	snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, GAMEFILE_ERR, "%s: %s", path, strerror(errno));
		return false;
	}
	if (ggf)
		gamefile_write_ggf(f, r);
	else {
		char t[2 * GAME_MAX_PLY + 1];
		text_transcript(g, t);
		fprintf(f, "%s\n", t);
	}
	bool ok = !ferror(f);
	ok = (fclose(f) == 0) && ok;
	if (!ok || rename(tmp, path) != 0) {
		snprintf(err, GAMEFILE_ERR, "%s: %s", path, strerror(errno ? errno : EIO));
		remove(tmp);
		return false;
	}
	return true;
}
