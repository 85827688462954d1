/*
 * messages.c - what a client sends (docs/serve.md's table of messages):
 * each message checked, then applied to the tables, or refused with an
 * error to its sender and nothing changed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emilia.h"
#include "hall.h"
#include "text.h"

static const JsonMember *get_typed(Conn *c, const JsonObject *o, const char *name, JsonType type, bool required)
{
	const JsonMember *m = json_get(o, name);
	if (m && m->type == JSON_NULL && !required)
		return NULL;
	if ((!m && required) || (m && m->type != type)) {
		char msg[128];
		snprintf(msg, sizeof msg, "'%s' must be %s", name,
		         type == JSON_STRING ? "a string" : type == JSON_NUMBER ? "a number" : "true or false");
		serve_send_error(c, "bad", msg);
		return (const JsonMember *)-1;
	}
	return m;
}
#define BAD_MEMBER ((const JsonMember *)-1)

static void send_seated(Conn *c, Table *t, const char *type)
{
	JsonBuf b;
	jb_init(&b);
	serve_table_message(&b, t, type, c);
	serve_send_buf(c, &b);
	jb_free(&b);
}

/* A connection's own table, left before it takes another: false (with
 * an error sent) when it holds a seat in a game still running. */
static bool free_for_table(Conn *c)
{
	Table *t = c->table;
	if (!t)
		return true;
	if (c->colour >= 0 && !t->over) {
		serve_send_error(c, "bad", "you hold a seat at a game in progress: send leave first");
		return false;
	}
	if (c->colour >= 0 && t->seat[c->colour].state == SEAT_HERE) {
		t->seat[c->colour].state = SEAT_GONE;
		t->dirty = true;
	}
	serve_detach(c);
	serve_broadcast(t, NULL);
	return true;
}

static void on_open(Conn *c, const JsonObject *o, int64_t now)
{
	const JsonMember *game = get_typed(c, o, "game", JSON_STRING, true);
	const JsonMember *secs = get_typed(c, o, "seconds", JSON_NUMBER, false);
	const JsonMember *pub = get_typed(c, o, "public", JSON_BOOL, false);
	const JsonMember *vs = json_get(o, "vs");
	if (vs && vs->type == JSON_NULL)
		vs = NULL;
	const JsonMember *col = get_typed(c, o, "color", JSON_STRING, false);
	if (game == BAD_MEMBER || secs == BAD_MEMBER || pub == BAD_MEMBER || col == BAD_MEMBER)
		return;
	TableKind kind;
	if (!table_kind_parse(game->str, &kind))
		return serve_send_error(c, "bad", "'game' must be \"reversi\", \"6x6\" or \"anti\"");
	const double s = secs ? secs->num : 60;
	if (s < 1 || s > 3600 || s != (int)s)
		return serve_send_error(c, "bad", "'seconds' must be a whole number 1..3600");
	int level = 0;
	if (vs && vs->type == JSON_NUMBER) {
		if (vs->num < 1 || vs->num > 60 || vs->num != (int)vs->num)
			return serve_send_error(c, "bad", "a level 'vs' must be a whole number 1..60");
		level = (int)vs->num;
	} else if (vs && vs->type == JSON_STRING && !strcmp(vs->str, "easy")) {
		level = EMILIA_LEVEL_EASY;
	} else if (vs && vs->type == JSON_STRING && !strcmp(vs->str, "normal")) {
		level = EMILIA_LEVEL_NORMAL;
	} else if (vs && vs->type == JSON_STRING && !strcmp(vs->str, "hard")) {
		level = EMILIA_LEVEL_HARD;
	} else if (vs) {
		return serve_send_error(c, "bad", "'vs' must be null, \"easy\", \"normal\", \"hard\" or a level 1..60");
	}
	int colour;
	if (!col || !strcmp(col->str, "random")) {
		unsigned char r;
		if (!serve_random_bytes(&r, 1))
			r = 0;
		colour = r & 1;
	} else if (!strcmp(col->str, "black") || !strcmp(col->str, "white")) {
		colour = col->str[0] == 'w';
	} else {
		return serve_send_error(c, "bad", "'color' must be \"black\", \"white\" or \"random\"");
	}
	if (ntables >= cfg.max_tables)
		return serve_send_error(c, "limit", "the server has as many tables as it may hold: try again later");
	if (!free_for_table(c))
		return;
	Table *t = malloc(sizeof *t);
	if (!t)
		return serve_send_error(c, "limit", "the server is out of memory");
	char code[TABLE_CODE_LEN + 1];
	serve_make_code(code);
	table_init(t, next_table_id++, code, kind, (int)s, pub ? pub->b : true, level, now);
	t->seat[colour].state = SEAT_HERE;
	serve_make_token(t->seat[colour].token);
	if (level)
		t->seat[!colour].state = SEAT_EMILIA;
	t->next = tables;
	tables = t;
	ntables++;
	serve_attach(c, t, colour);
	table_restart_clock(t, now);
	serve_note("table %s opened: %s, %d s a move%s", code, game->str, t->seconds, level ? ", against Emilia" : "");
	send_seated(c, t, "seated");
	serve_table_changed(t, now, c);
}

static bool table_arg(Conn *c, const JsonObject *o, Table **t)
{
	const JsonMember *code = get_typed(c, o, "code", JSON_STRING, true);
	if (code == BAD_MEMBER)
		return false;
	char up[TABLE_CODE_LEN + 1] = { 0 };
	memcpy(up, code->str, strnlen(code->str, TABLE_CODE_LEN));
	for (char *p = up; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	*t = strlen(code->str) == TABLE_CODE_LEN ? serve_find_table(up) : NULL;
	if (!*t) {
		serve_send_error(c, "no-table", "no table has that code");
		return false;
	}
	return true;
}

static void watch(Conn *c, Table *t)
{
	if (t->watchers >= WATCHERS_MAX)
		return serve_send_error(c, "full", "this table has as many watchers as it may hold");
	if (c->table == t && c->colour < 0)
		return send_seated(c, t, "watching");
	if (!free_for_table(c))
		return;
	serve_attach(c, t, -1);
	send_seated(c, t, "watching");
	serve_broadcast(t, c);
}

static void on_join(Conn *c, const JsonObject *o, int64_t now, bool watch_only)
{
	Table *t;
	if (!table_arg(c, o, &t))
		return;
	int free_seat = -1;
	for (int k = 0; k < 2; k++)
		if (t->seat[k].state == SEAT_FREE)
			free_seat = k;
	if (c->table == t && c->colour >= 0)
		return send_seated(c, t, "seated");
	if (watch_only || free_seat < 0 || t->over || c->table == t)
		return watch(c, t);
	if (!free_for_table(c))
		return;
	t->seat[free_seat].state = SEAT_HERE;
	serve_make_token(t->seat[free_seat].token);
	serve_attach(c, t, free_seat);
	table_restart_clock(t, now); /* the game begins */
	serve_note("table %s: both seats taken", t->code);
	send_seated(c, t, "seated");
	serve_table_changed(t, now, c);
}

static bool same_token(const char *a, const char *b)
{
	/* every byte compared, whatever the first difference */
	unsigned char d = 0;
	const size_t n = strlen(a);
	if (n != TABLE_TOKEN_LEN || strlen(b) != TABLE_TOKEN_LEN)
		return false;
	for (size_t i = 0; i < n; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}

static void on_resume(Conn *c, const JsonObject *o, int64_t now)
{
	Table *t;
	if (!table_arg(c, o, &t))
		return;
	const JsonMember *tok = get_typed(c, o, "token", JSON_STRING, true);
	if (tok == BAD_MEMBER)
		return;
	int k = -1;
	for (int i = 0; i < 2; i++)
		if ((t->seat[i].state == SEAT_HERE || t->seat[i].state == SEAT_AWAY) && same_token(tok->str, t->seat[i].token))
			k = i;
	if (k < 0)
		return serve_send_error(c, "token", "that token holds no seat at this table (or the seat was lost)");
	if (c->table == t && c->colour == k)
		return send_seated(c, t, "seated");
	if (!free_for_table(c))
		return;
	Conn *old = t->seat[k].conn;
	if (old) {
		/* the same player from a new page: the old one watches */
		serve_detach(old);
		serve_attach(old, t, -1);
		serve_send_error(old, "token", "your seat was taken over by another connection with its token");
	}
	t->seat[k].state = SEAT_HERE;
	t->seat[k].away_until = 0;
	serve_attach(c, t, k);
	send_seated(c, t, "seated");
	serve_table_changed(t, now, c);
}

static void on_move(Conn *c, const JsonObject *o, int64_t now)
{
	const JsonMember *mv = get_typed(c, o, "move", JSON_STRING, true);
	if (mv == BAD_MEMBER)
		return;
	const JsonMember *ply = get_typed(c, o, "ply", JSON_NUMBER, true);
	if (ply == BAD_MEMBER)
		return;
	Table *t = c->table;
	if (!t)
		return serve_send_error(c, "no-table", "you are at no table");
	if (c->colour < 0)
		return serve_send_error(c, "turn", "you are watching this table");
	if (t->over)
		return serve_send_error(c, "over", "the game is over");
	if (table_controller(t) == 0)
		return serve_send_error(c, "turn", "the game begins when the other seat is taken");
	if (t->game.side != c->colour)
		return serve_send_error(c, "turn", "it is not your turn");
	if (t->thinking)
		return serve_send_error(c, "turn", "your time ran out: Emilia is moving for you");
	if (ply->num != t->game.nply)
		return serve_send_error(c, "ply", "that move is for another position (the table's ply differs)");
	const int m = text_parse_move(mv->str, t->game.size);
	if (m < 0)
		return serve_send_error(c, "illegal", "not a square of this board");
	const GameStatus s = table_play(t, m, BY_PLAYER, now);
	if (s == GAME_NOT_PASS)
		return serve_send_error(c, "illegal", "you have a move: you cannot pass");
	if (s != GAME_OK)
		return serve_send_error(c, "illegal", "that move is not legal here");
	serve_table_changed(t, now, NULL);
}

static void on_undo(Conn *c, const JsonObject *o, int64_t now)
{
	const JsonMember *ply = get_typed(c, o, "ply", JSON_NUMBER, true);
	if (ply == BAD_MEMBER)
		return;
	Table *t = c->table;
	if (!t || c->colour < 0)
		return serve_send_error(c, "undo", "only a player at a table can ask for an undo");
	if (ply->num != t->game.nply)
		return serve_send_error(c, "ply", "that undo is for another position (the table's ply differs)");
	if (t->undo_by >= 0 && t->undo_by != c->colour) {
		/* the other player agrees */
		const int by = t->undo_by;
		if (t->thinking)
			return serve_send_error(c, "undo", "Emilia is moving: try again after her move");
		table_undo(t, by, now);
		serve_note("table %s: undo agreed, back to ply %d", t->code, t->game.nply);
		return serve_table_changed(t, now, NULL);
	}
	if (t->undo_by == c->colour)
		return serve_send_error(c, "undo", "you have asked already: the other player must agree");
	const char *why = table_undo_refusal(t, c->colour);
	if (why)
		return serve_send_error(c, "undo", why);
	t->undo_by = c->colour;
	t->undo_ply = t->game.nply;
	serve_broadcast(t, NULL);
}

static void on_decline(Conn *c)
{
	Table *t = c->table;
	if (!t || c->colour < 0 || t->undo_by < 0 || t->undo_by == c->colour)
		return serve_send_error(c, "undo", "there is no undo offer for you to decline");
	t->undo_by = -1;
	t->dirty = true;
	serve_broadcast(t, NULL);
}

static void on_leave(Conn *c, int64_t now)
{
	Table *t = c->table;
	if (!t)
		return;
	const int k = c->colour;
	serve_detach(c);
	if (k < 0) {
		serve_broadcast(t, NULL);
		return;
	}
	serve_seat_lost(t, k, now, true);
}

void serve_handle_message(Conn *c, const char *text, size_t len)
{
	const int64_t now = serve_now_ms();
	JsonObject o;
	char why[128];
	if (!json_parse(text, len, &o, why, sizeof why)) {
		char msg[200];
		snprintf(msg, sizeof msg, "not a message: %s", why);
		return serve_send_error(c, "bad", msg);
	}
	const JsonMember *t = json_get(&o, "t");
	if (!t || t->type != JSON_STRING)
		return serve_send_error(c, "bad", "a message needs a string member 't'");
	const char *type = t->str;
	if (!strcmp(type, "open"))
		on_open(c, &o, now);
	else if (!strcmp(type, "join"))
		on_join(c, &o, now, false);
	else if (!strcmp(type, "watch"))
		on_join(c, &o, now, true);
	else if (!strcmp(type, "resume"))
		on_resume(c, &o, now);
	else if (!strcmp(type, "move"))
		on_move(c, &o, now);
	else if (!strcmp(type, "undo"))
		on_undo(c, &o, now);
	else if (!strcmp(type, "decline"))
		on_decline(c);
	else if (!strcmp(type, "leave"))
		on_leave(c, now);
	else if (!strcmp(type, "lobby")) {
		const JsonMember *on = get_typed(c, &o, "on", JSON_BOOL, false);
		if (on == BAD_MEMBER)
			return;
		c->lobby = on ? on->b : true;
		if (c->lobby)
			serve_send_lobby(c);
	} else if (!strcmp(type, "ping"))
		serve_send_text(c, "{\"t\":\"pong\"}", 12);
	else
		serve_send_error(c, "unknown", "unknown message type");
}
