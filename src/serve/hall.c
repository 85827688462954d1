/*
 * hall.c - emilia-serve's connections and tables: sending, the lists,
 * opening and closing tables, Emilia's moves (see hall.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "emilia.h"
#include "hall.h"

Config cfg = { 8080, "127.0.0.1", "emilia-data", "build/web", 30, 300, 1000, 4000, 1, 16, false };
struct lws_context *context;
Pool *pool;
Saver *saver;
Table *tables;
int ntables;
uint64_t next_table_id = 1;
Conn *conns;
int nconns;
bool lobby_dirty;
int64_t lobby_sent;
char tables_dir[4096], games_dir[4096];
int urandom_fd = -1;

int64_t serve_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void say(const char *fmt, va_list ap)
{
	fputs("emilia-serve: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void serve_note(const char *fmt, ...)
{
	if (cfg.quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

void serve_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

bool serve_random_bytes(unsigned char *p, size_t n)
{
	while (n) {
		const ssize_t k = read(urandom_fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

/* ---- sending ---- */

void serve_conn_close(Conn *c)
{
	lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
}

void serve_send_text(Conn *c, const char *text, size_t len)
{
	if (!c->ws)
		return;
	if (c->out_count >= OUT_MAX_MESSAGES) {
		/* a client that reads nothing: not kept at the others' expense */
		serve_conn_close(c);
		return;
	}
	Msg *m = malloc(sizeof *m + LWS_PRE + len);
	if (!m) {
		serve_conn_close(c);
		return;
	}
	m->next = NULL;
	m->len = len;
	memcpy(m->buf + LWS_PRE, text, len);
	if (c->out_tail)
		c->out_tail->next = m;
	else
		c->out = m;
	c->out_tail = m;
	c->out_count++;
	lws_callback_on_writable(c->wsi);
}

void serve_send_buf(Conn *c, const JsonBuf *b)
{
	if (!b->failed && b->s)
		serve_send_text(c, b->s, b->len);
}

void serve_send_error(Conn *c, const char *code, const char *message)
{
	JsonBuf b;
	jb_init(&b);
	jb_printf(&b, "{\"t\":\"error\",\"error\":\"%s\",\"message\":", code);
	jb_str(&b, message);
	jb_raw(&b, "}");
	serve_send_buf(c, &b);
	jb_free(&b);
}

void serve_table_message(JsonBuf *b, const Table *t, const char *type, const Conn *to)
{
	const int64_t now = serve_now_ms();
	jb_printf(b, "{\"t\":\"%s\"", type);
	if (to) {
		jb_printf(b, ",\"code\":\"%s\"", t->code);
		if (to->colour >= 0)
			jb_printf(b, ",\"color\":\"%s\",\"token\":\"%s\"", to->colour ? "white" : "black",
			          t->seat[to->colour].token);
	}
	jb_raw(b, ",\"table\":");
	table_json(t, b, now);
	jb_raw(b, "}");
}

/* `state` to every connection of the table. */
void serve_broadcast(Table *t, const Conn *skip)
{
	JsonBuf b;
	jb_init(&b);
	serve_table_message(&b, t, "state", NULL);
	for (Conn *c = t->conns; c; c = c->t_next)
		if (c != skip)
			serve_send_buf(c, &b);
	jb_free(&b);
	if (t->public)
		lobby_dirty = true;
}

static void lobby_message(JsonBuf *b)
{
	jb_raw(b, "{\"t\":\"lobby\",\"tables\":[");
	int n = 0;
	for (Table *t = tables; t && n < LOBBY_MAX; t = t->next) {
		if (!t->public || t->over)
			continue;
		const char *s[2];
		for (int k = 0; k < 2; k++)
			s[k] = t->seat[k].state == SEAT_FREE ? "free" : t->seat[k].state == SEAT_EMILIA ? "emilia" : "taken";
		jb_printf(b, "%s{\"code\":\"%s\",\"game\":\"%s\",\"seconds\":%d,\"seats\":{\"black\":\"%s\",\"white\":\"%s\"}}",
		          n ? "," : "", t->code, table_kind_name(t->kind), t->seconds, s[0], s[1]);
		n++;
	}
	jb_raw(b, "]}");
}

void serve_send_lobby(Conn *only)
{
	JsonBuf b;
	jb_init(&b);
	lobby_message(&b);
	for (Conn *c = conns; c; c = c->all_next)
		if (c->lobby && (!only || c == only))
			serve_send_buf(c, &b);
	jb_free(&b);
}

/* ---- tables ---- */

Table *serve_find_table(const char *code)
{
	for (Table *t = tables; t; t = t->next)
		if (!strcmp(t->code, code))
			return t;
	return NULL;
}

Table *serve_find_table_id(uint64_t id)
{
	for (Table *t = tables; t; t = t->next)
		if (t->id == id)
			return t;
	return NULL;
}

void serve_attach(Conn *c, Table *t, int colour)
{
	c->table = t;
	c->colour = colour;
	c->t_prev = NULL;
	c->t_next = t->conns;
	if (c->t_next)
		c->t_next->t_prev = c;
	t->conns = c;
	if (colour < 0)
		t->watchers++;
	else
		t->seat[colour].conn = c;
}

void serve_detach(Conn *c)
{
	Table *t = c->table;
	if (!t)
		return;
	if (c->t_prev)
		c->t_prev->t_next = c->t_next;
	else
		t->conns = c->t_next;
	if (c->t_next)
		c->t_next->t_prev = c->t_prev;
	if (c->colour < 0)
		t->watchers--;
	else if (t->seat[c->colour].conn == c)
		t->seat[c->colour].conn = NULL;
	c->table = NULL;
	c->colour = -1;
	c->t_prev = c->t_next = NULL;
}

void serve_save_table(Table *t, int64_t now)
{
	JsonBuf b;
	jb_init(&b);
	table_file_json(t, now, &b);
	char name[32];
	snprintf(name, sizeof name, "%s.json", t->code);
	if (!b.failed && saver_put(saver, name, b.s, b.len)) {
		t->dirty = false;
		t->saved_at = now;
	} else {
		serve_warn("table %s not saved: out of memory", t->code);
	}
	jb_free(&b);
}

void serve_close_table(Table *t, const char *why)
{
	while (t->conns) {
		Conn *c = t->conns;
		serve_detach(c);
		serve_send_error(c, "no-table", why);
	}
	char name[32];
	snprintf(name, sizeof name, "%s.json", t->code);
	saver_put(saver, name, NULL, 0);
	for (Table **p = &tables; *p; p = &(*p)->next)
		if (*p == t) {
			*p = t->next;
			break;
		}
	ntables--;
	if (t->public)
		lobby_dirty = true;
	serve_note("table %s closed: %s", t->code, why);
	free(t);
}

void serve_make_token(char out[TABLE_TOKEN_LEN + 1])
{
	unsigned char r[TABLE_TOKEN_LEN / 2];
	if (!serve_random_bytes(r, sizeof r)) {
		serve_warn("cannot read /dev/urandom");
		exit(1);
	}
	for (size_t i = 0; i < sizeof r; i++)
		snprintf(out + 2 * i, 3, "%02x", r[i]);
}

void serve_make_code(char out[TABLE_CODE_LEN + 1])
{
	static const char alphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
	do {
		unsigned char r[TABLE_CODE_LEN];
		if (!serve_random_bytes(r, sizeof r)) {
			serve_warn("cannot read /dev/urandom");
			exit(1);
		}
		for (int i = 0; i < TABLE_CODE_LEN; i++)
			out[i] = alphabet[r[i] % 32];
		out[TABLE_CODE_LEN] = 0;
	} while (serve_find_table(out));
}

/* Start Emilia's search when she is to move. */
/* Queue a search of the side to move at `level`; `timeout`: for a player
 * out of time.  false without memory: the callers' conditions still hold
 * at the next tick, which tries again. */
static bool search(Table *t, int level, bool timeout)
{
	PoolJob *j = calloc(1, sizeof *j);
	if (!j)
		return false;
	j->table_id = t->id;
	j->ply = t->game.nply;
	j->size = t->game.size;
	j->anti = t->game.variant == VARIANT_ANTI;
	j->level = level;
	table_transcript(t, j->moves, sizeof j->moves);
	t->thinking = true;
	t->think_timeout = timeout;
	pool_submit(pool, j);
	return true;
}

void serve_maybe_think(Table *t, int64_t now)
{
	if (!t->thinking && table_controller(t) == 2)
		search(t, table_engine_level(t), false);
}

void serve_move_for_player(Table *t)
{
	if (search(t, EMILIA_LEVEL_NORMAL, true))
		t->deadline = 0;
}

bool serve_seat_lost(Table *t, int k, int64_t now, bool left)
{
	if (!t->over && t->seat[!k].state == SEAT_FREE) {
		serve_close_table(t, left ? "the player who opened it left before anyone joined"
		                          : "the player who opened it did not come back");
		return false;
	}
	const bool running = !t->over;
	table_seat_lost(t, k, now);
	if (running)
		serve_note("table %s: %s %s and lost", t->code, k ? "white" : "black", left ? "left" : "did not come back");
	serve_table_changed(t, now, NULL);
	return true;
}

/* After a change: the end (saved game), Emilia's turn, the news. */
void serve_table_changed(Table *t, int64_t now, const Conn *skip)
{
	if (t->over && !t->review[0]) {
		char err[300];
		if (!table_save_game(t, games_dir, err, sizeof err))
			serve_warn("table %s: the game was not saved: %s", t->code, err);
		else
			serve_note("table %s: game over, saved as %s", t->code, t->review);
	}
	t->dirty = true;
	serve_maybe_think(t, now);
	serve_broadcast(t, skip);
}

void serve_engine_replies(void)
{
	const int64_t now = serve_now_ms();
	for (PoolJob *j = pool_done(pool); j;) {
		PoolJob *next = j->next;
		Table *t = serve_find_table_id(j->table_id);
		if (t && t->thinking && t->game.nply == j->ply) {
			const bool timeout = t->think_timeout;
			t->thinking = false;
			t->think_timeout = false;
			int mv = j->move;
			if (mv < 0) {
				/* cannot happen with a legal position; never stall a game */
				serve_warn("table %s: the engine failed (%s): playing the first legal move", t->code, j->error);
				const uint64_t moves = game_moves(&t->game);
				mv = moves ? __builtin_ctzll(moves) : BOARD_PASS;
			}
			if (mv == EMILIA_PASS)
				mv = BOARD_PASS;
			if (table_play(t, mv, timeout ? BY_TIMEOUT : BY_EMILIA, now) != GAME_OK)
				serve_warn("table %s: the engine's move %d was refused", t->code, mv);
			serve_table_changed(t, now, NULL);
		}
		free(j);
		j = next;
	}
}
