/*
 * table.c - see table.h.
 */
#include "table.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bit.h"
#include "emilia.h"
#include "gamefile.h"
#include "text.h"

static const char *const kind_names[] = { "reversi", "6x6", "anti" };
static const char *const seat_names[] = { "free", "here", "away", "gone", "emilia" };
static const char *const by_names[] = { "player", "timeout", "emilia", "auto" };
static const char by_letters[] = "PTEA";
static const char *const colour_names[] = { "black", "white" };

static const char *level_name(int level)
{
	return level == EMILIA_LEVEL_EASY ? "easy" : level == EMILIA_LEVEL_NORMAL ? "normal" : "hard";
}

const char *table_kind_name(TableKind k)
{
	return kind_names[k];
}

bool table_kind_parse(const char *s, TableKind *k)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, kind_names[i])) {
			*k = (TableKind)i;
			return true;
		}
	return false;
}

const char *table_seat_name(SeatState s)
{
	return seat_names[s];
}

void table_init(Table *t, uint64_t id, const char *code, TableKind kind, int seconds, bool public, int vs_level,
                int64_t now)
{
	memset(t, 0, sizeof *t);
	t->id = id;
	snprintf(t->code, sizeof t->code, "%s", code);
	t->kind = kind;
	t->seconds = seconds;
	t->public = public;
	t->vs_level = vs_level;
	game_init(&t->game, kind == KIND_6X6 ? 6 : 8, kind == KIND_ANTI ? VARIANT_ANTI : VARIANT_NORMAL);
	t->undo_by = -1;
	t->left = -1;
	t->created = now;
	t->dirty = true;
}

int table_controller(const Table *t)
{
	if (t->over || t->seat[0].state == SEAT_FREE || t->seat[1].state == SEAT_FREE)
		return 0;
	const SeatState s = t->seat[t->game.side].state;
	return s == SEAT_HERE || s == SEAT_AWAY ? 1 : 2;
}

int table_engine_level(const Table *t)
{
	return t->seat[t->game.side].state == SEAT_EMILIA && t->vs_level ? t->vs_level : EMILIA_LEVEL_NORMAL;
}

void table_restart_clock(Table *t, int64_t now)
{
	t->deadline = table_controller(t) == 1 ? now + (int64_t)t->seconds * 1000 : 0;
}

GameStatus table_play(Table *t, int move, MoveBy by, int64_t now)
{
	if (t->over)
		return GAME_OVER;
	const int n0 = t->game.nply;
	const GameStatus s = game_play(&t->game, move);
	if (s != GAME_OK)
		return s;
	t->by[n0] = (unsigned char)by;
	while (game_must_pass(&t->game)) {
		const int n = t->game.nply;
		if (game_play(&t->game, BOARD_PASS) != GAME_OK)
			break;
		t->by[n] = BY_AUTO;
	}
	t->over = game_is_over(&t->game);
	t->undo_by = -1;
	t->dirty = true;
	table_restart_clock(t, now);
	return GAME_OK;
}

/* The ply of colour c's last own move (not a server's pass), or -1. */
static int last_own_move(const Table *t, int c)
{
	for (int i = t->game.nply - 1; i >= 0; i--)
		if (t->game.hist[i].side == c && t->by[i] != BY_AUTO)
			return i;
	return -1;
}

const char *table_undo_refusal(const Table *t, int c)
{
	if (t->over)
		return "the game is over";
	if (t->vs_level)
		return "against Emilia there is no one to agree to an undo";
	const SeatState o = t->seat[!c].state;
	if (o == SEAT_FREE)
		return "the game has not begun";
	if (o == SEAT_GONE || o == SEAT_EMILIA)
		return "the other seat is played by Emilia: no one can agree";
	if (last_own_move(t, c) < 0)
		return "you have no move to take back";
	return NULL;
}

void table_undo(Table *t, int c, int64_t now)
{
	const int to = last_own_move(t, c);
	while (to >= 0 && t->game.nply > to)
		game_undo(&t->game);
	t->over = false;
	t->undo_by = -1;
	t->dirty = true;
	table_restart_clock(t, now);
}

void table_seat_lost(Table *t, int c, int64_t now)
{
	Seat *s = &t->seat[c];
	s->state = SEAT_GONE;
	s->conn = NULL;
	s->away_until = 0;
	if (!t->over && t->left < 0)
		t->left = c;
	t->undo_by = -1;
	t->dirty = true;
	table_restart_clock(t, now);
}

void table_transcript(const Table *t, char *out, size_t len)
{
	size_t n = 0;
	out[0] = 0;
	for (int i = 0; i < t->game.nply && n + 5 < len; i++) {
		char sq[8];
		text_square(t->game.hist[i].move, sq);
		n += (size_t)snprintf(out + n, len - n, "%s", sq);
	}
}

void table_result(const Table *t, int *black, int *white, int *winner)
{
	game_counts(&t->game, SCORING_PLAIN, black, white);
	*winner = t->left >= 0 ? !t->left : game_winner(&t->game);
}

static void json_seat(const Table *t, JsonBuf *b, int c, int64_t now)
{
	const Seat *s = &t->seat[c];
	const bool emilia = s->state == SEAT_EMILIA || s->state == SEAT_GONE;
	jb_printf(b, "\"%s\":{\"state\":\"%s\",\"by\":\"%s\"", colour_names[c], seat_names[s->state],
	          emilia ? "emilia" : "player");
	if (s->state == SEAT_AWAY)
		jb_printf(b, ",\"grace_ms\":%lld", (long long)(s->away_until > now ? s->away_until - now : 0));
	jb_raw(b, "}");
}

void table_json(const Table *t, JsonBuf *b, int64_t now)
{
	const Game *g = &t->game;
	jb_printf(b, "{\"code\":\"%s\",\"game\":\"%s\",\"seconds\":%d,\"public\":%s,\"vs\":", t->code,
	          kind_names[t->kind], t->seconds, t->public ? "true" : "false");
	if (t->vs_level > 0)
		jb_printf(b, "%d", t->vs_level);
	else if (t->vs_level)
		jb_printf(b, "\"%s\"", level_name(t->vs_level));
	else
		jb_raw(b, "null");
	jb_raw(b, ",\"moves\":[");
	for (int i = 0; i < g->nply; i++) {
		char sq[8];
		text_square(g->hist[i].move, sq);
		jb_printf(b, "%s\"%s\"", i ? "," : "", sq);
	}
	jb_printf(b, "],\"ply\":%d,\"last\":", g->nply);
	if (g->nply) {
		char sq[8];
		const int i = g->nply - 1;
		text_square(g->hist[i].move, sq);
		jb_printf(b, "{\"move\":\"%s\",\"color\":\"%s\",\"by\":\"%s\"}", sq, colour_names[g->hist[i].side],
		          by_names[t->by[i]]);
	} else {
		jb_raw(b, "null");
	}
	jb_printf(b, ",\"to_move\":\"%s\",\"size\":%d,\"board\":\"", t->over ? "none" : colour_names[g->side], g->size);
	const uint64_t black = game_colour_bits(g, BLACK), white = game_colour_bits(g, WHITE);
	char row[9];
	for (int r = 0; r < g->size; r++) {
		for (int c = 0; c < g->size; c++) {
			const uint64_t m = bit_of(r * 8 + c);
			row[c] = (black & m) ? 'X' : (white & m) ? 'O' : '-';
		}
		row[g->size] = 0;
		jb_raw(b, row);
	}
	int nb, nw;
	game_counts(g, SCORING_PLAIN, &nb, &nw);
	jb_printf(b, "\",\"discs\":{\"black\":%d,\"white\":%d},\"legal\":[", nb, nw);
	if (!t->over) {
		uint64_t moves = game_moves(g);
		for (int k = 0; moves; k++) {
			char sq[8];
			text_square(bit_first(moves), sq);
			moves &= moves - 1;
			jb_printf(b, "%s\"%s\"", k ? "," : "", sq);
		}
	}
	jb_raw(b, "],\"deadline_ms\":");
	if (t->deadline)
		jb_printf(b, "%lld", (long long)(t->deadline > now ? t->deadline - now : 0));
	else
		jb_raw(b, "null");
	jb_raw(b, ",\"seats\":{");
	json_seat(t, b, BLACK, now);
	jb_raw(b, ",");
	json_seat(t, b, WHITE, now);
	jb_printf(b, "},\"watchers\":%d,\"undo_offer\":", t->watchers);
	if (t->undo_by >= 0)
		jb_printf(b, "{\"by\":\"%s\",\"ply\":%d}", colour_names[t->undo_by], t->undo_ply);
	else
		jb_raw(b, "null");
	jb_raw(b, ",\"result\":");
	if (t->over) {
		int bl, wh, w;
		table_result(t, &bl, &wh, &w);
		jb_printf(b, "{\"black\":%d,\"white\":%d,\"winner\":\"%s\",\"reason\":\"%s\",\"loser\":", bl, wh,
		          w < 0 ? "draw" : colour_names[w], t->left >= 0 ? "left" : "end");
		if (t->left >= 0)
			jb_printf(b, "\"%s\"", colour_names[t->left]);
		else if (w >= 0)
			jb_printf(b, "\"%s\"", colour_names[!w]);
		else
			jb_raw(b, "null");
		jb_raw(b, ",\"review\":");
		if (t->review[0])
			jb_str(b, t->review);
		else
			jb_raw(b, "null");
		jb_raw(b, "}");
	} else {
		jb_raw(b, "null");
	}
	jb_raw(b, "}");
}

/* ---- files ---- */

bool table_write_file(const char *dir, const char *name, const char *text, size_t len, char *err, size_t errlen)
{
	char path[4096], tmp[4096 + 8];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	const int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return false;
	}
	size_t done = 0;
	while (done < len) {
		const ssize_t k = write(fd, text + done, len - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
			close(fd);
			unlink(tmp);
			return false;
		}
		done += (size_t)k;
	}
	if (close(fd) != 0 || rename(tmp, path) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return false;
	}
	return true;
}

void table_file_json(const Table *t, int64_t now, JsonBuf *b)
{
	char moves[600], by[GAME_MAX_PLY + 1];
	table_transcript(t, moves, sizeof moves);
	for (int i = 0; i < t->game.nply; i++)
		by[i] = by_letters[t->by[i]];
	by[t->game.nply] = 0;
	jb_printf(b, "{\"v\":1,\"code\":\"%s\",\"game\":\"%s\",\"seconds\":%d,\"public\":%s,\"vs\":%d,", t->code,
	          kind_names[t->kind], t->seconds, t->public ? "true" : "false", t->vs_level);
	jb_printf(b, "\"moves\":\"%s\",\"by\":\"%s\",\"left\":%d,\"undo_by\":%d,\"undo_ply\":%d,\"age_ms\":%lld", moves,
	          by, t->left, t->undo_by, t->undo_ply, (long long)(now - t->created));
	for (int c = 0; c < 2; c++)
		jb_printf(b, ",\"%s\":\"%s\",\"%s_token\":\"%s\"", colour_names[c], seat_names[t->seat[c].state],
		          colour_names[c], t->seat[c].token);
	jb_raw(b, ",\"review\":");
	jb_str(b, t->review);
	jb_raw(b, "}\n");
}

static bool valid_code(const char *s)
{
	if (strlen(s) != TABLE_CODE_LEN)
		return false;
	for (; *s; s++)
		if (!strchr("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", *s))
			return false;
	return true;
}

static bool valid_token(const char *s)
{
	if (!*s)
		return true;
	if (strlen(s) != TABLE_TOKEN_LEN)
		return false;
	for (; *s; s++)
		if (!strchr("0123456789abcdef", *s))
			return false;
	return true;
}

#define LOAD_FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return false; } while (0)

static const JsonMember *member(const JsonObject *o, const char *name, JsonType type)
{
	const JsonMember *m = json_get(o, name);
	return m && m->type == type ? m : NULL;
}

bool table_load(Table *t, uint64_t id, const char *path, int64_t now, int64_t grace_ms, char *err, size_t errlen)
{
	char text[8192];
	FILE *f = fopen(path, "r");
	if (!f)
		LOAD_FAIL("%s: %s", path, strerror(errno));
	const size_t len = fread(text, 1, sizeof text, f);
	fclose(f);
	if (len == sizeof text)
		LOAD_FAIL("%s: too long for a table", path);
	JsonObject o;
	char why[128];
	if (!json_parse(text, len, &o, why, sizeof why))
		LOAD_FAIL("%s: %s", path, why);
	const JsonMember *v = member(&o, "v", JSON_NUMBER), *code = member(&o, "code", JSON_STRING),
	                 *game = member(&o, "game", JSON_STRING), *secs = member(&o, "seconds", JSON_NUMBER),
	                 *pub = member(&o, "public", JSON_BOOL), *vs = member(&o, "vs", JSON_NUMBER),
	                 *moves = member(&o, "moves", JSON_STRING), *by = member(&o, "by", JSON_STRING),
	                 *left = member(&o, "left", JSON_NUMBER), *age = member(&o, "age_ms", JSON_NUMBER),
	                 *ub = member(&o, "undo_by", JSON_NUMBER), *up = member(&o, "undo_ply", JSON_NUMBER),
	                 *review = member(&o, "review", JSON_STRING);
	if (!v || v->num != 1 || !code || !game || !secs || !pub || !vs || !moves || !by || !left || !age || !ub ||
	    !up || !review)
		LOAD_FAIL("%s: not a table file of this version", path);
	TableKind kind;
	if (!valid_code(code->str) || !table_kind_parse(game->str, &kind) || secs->num < 1 || secs->num > 3600 ||
	    (vs->num != EMILIA_LEVEL_EASY && vs->num != EMILIA_LEVEL_NORMAL && vs->num != EMILIA_LEVEL_HARD &&
	     (vs->num < 0 || vs->num > 60 || vs->num != (int)vs->num)) ||
	    (left->num != -1 && left->num != 0 && left->num != 1))
		LOAD_FAIL("%s: a value out of range", path);
	table_init(t, id, code->str, kind, (int)secs->num, pub->b, (int)vs->num, now - (int64_t)age->num);
	char why2[TEXT_ERR];
	if (!text_apply_transcript(&t->game, moves->str, why2))
		LOAD_FAIL("%s: moves: %s", path, why2);
	if (strlen(by->str) != (size_t)t->game.nply)
		LOAD_FAIL("%s: the moves and their makers differ in number", path);
	for (int i = 0; i < t->game.nply; i++) {
		const char *p = strchr(by_letters, by->str[i]);
		if (!p || !*p)
			LOAD_FAIL("%s: a bad maker of a move", path);
		t->by[i] = (unsigned char)(p - by_letters);
	}
	for (int c = 0; c < 2; c++) {
		char key[32];
		snprintf(key, sizeof key, "%s", colour_names[c]);
		const JsonMember *st = member(&o, key, JSON_STRING);
		snprintf(key, sizeof key, "%s_token", colour_names[c]);
		const JsonMember *tok = member(&o, key, JSON_STRING);
		int k = -1;
		for (int i = 0; st && i < 5; i++)
			if (!strcmp(st->str, seat_names[i]))
				k = i;
		if (k < 0 || !tok || !valid_token(tok->str))
			LOAD_FAIL("%s: a bad seat", path);
		Seat *s = &t->seat[c];
		s->state = (SeatState)k;
		memcpy(s->token, tok->str, strlen(tok->str) + 1); /* valid_token: at most 32 */
		if (s->state == SEAT_HERE || s->state == SEAT_AWAY) {
			if (!s->token[0])
				LOAD_FAIL("%s: a player's seat without its token", path);
			s->state = SEAT_AWAY;
			s->away_until = now + grace_ms;
		}
	}
	t->left = (int)left->num;
	t->over = game_is_over(&t->game);
	if (ub->num == 0 || ub->num == 1) {
		t->undo_by = (int)ub->num;
		t->undo_ply = (int)up->num;
	}
	if (t->undo_ply != t->game.nply)
		t->undo_by = -1;
	if (strlen(review->str) >= sizeof t->review)
		LOAD_FAIL("%s: the review's address is too long", path);
	memcpy(t->review, review->str, strlen(review->str) + 1);
	t->dirty = false;
	t->saved_at = now;
	table_restart_clock(t, now);
	return true;
}

bool table_save_game(Table *t, const char *dir, char *err, size_t errlen)
{
	GameRecord r;
	memset(&r, 0, sizeof r);
	r.game = t->game;
	for (int c = 0; c < 2; c++) {
		char *name = c == BLACK ? r.black : r.white;
		if (t->seat[c].state == SEAT_EMILIA && t->vs_level > 0)
			snprintf(name, GAMEFILE_NAME, "Emilia (level %d)", t->vs_level);
		else if (t->seat[c].state == SEAT_EMILIA)
			snprintf(name, GAMEFILE_NAME, "Emilia (%s)", level_name(t->vs_level));
		else
			snprintf(name, GAMEFILE_NAME, "%s player%s", c == BLACK ? "Black" : "White",
			         t->left == c ? " (left: lost)" : "");
	}
	const time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	char name[64];
	snprintf(name, sizeof name, "%04d%02d%02d-%02d%02d%02d-%s.ggf", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
	         tm.tm_hour, tm.tm_min, tm.tm_sec, t->code);
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	char gerr[GAMEFILE_ERR];
	if (!gamefile_save(path, &r, gerr)) {
		snprintf(err, errlen, "%s", gerr);
		return false;
	}
	snprintf(t->review, sizeof t->review, "/games/%s", name);
	t->dirty = true;
	return true;
}
