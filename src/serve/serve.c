/*
 * serve.c - emilia-serve: the browser page over HTTP and online tables
 * over WebSocket, with libwebsockets (docs/serve.md).  One event thread
 * runs the network, the tables and a 100 ms tick (clocks, grace periods,
 * idle connections, saving); Emilia's moves are searched by the engine
 * threads of pool.c, which wake the event loop when one is found.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libwebsockets.h>

#include "cmdflags.h"
#include "emilia.h"
#include "json.h"
#include "pool.h"
#include "table.h"
#include "text.h"

#define MAX_FRAME 4096
#define RATE_PER_SECOND 40
#define OUT_MAX_MESSAGES 256
#define WATCHERS_MAX 200
#define LOBBY_MAX 200
#define TICK_MS 100

/* ---- options ---- */

typedef struct Config {
	int port;
	const char *bind;
	const char *data;
	const char *web;
	int grace;
	int idle;
	int max_tables;
	int max_connections;
	int engine_threads;
	int hash_mb;
	bool quiet;
} Config;

enum { F_PORT, F_BIND, F_DATA, F_WEB, F_GRACE, F_IDLE, F_TABLES, F_CONNS, F_THREADS, F_HASH, F_QUIET, F_COUNT };
static const CmdFlag serve_flags[F_COUNT] = {
	[F_PORT] = { "--port", CMDFLAG_INT, "N", 0, 65535, "the port", "", "TCP port (8080; 0: any free one, printed)", 0 },
	[F_BIND] = { "--bind", CMDFLAG_STR, "ADDR", 0, 0, NULL, NULL, "address to listen on (127.0.0.1; 0.0.0.0: every interface)", 0 },
	[F_DATA] = { "--data", CMDFLAG_STR, "DIR", 0, 0, NULL, NULL, "tables and finished games are kept here (emilia-data)", 0 },
	[F_WEB] = { "--web", CMDFLAG_STR, "DIR", 0, 0, NULL, NULL, "the page to serve, as `make web` builds it (build/web)", 0 },
	[F_GRACE] = { "--grace", CMDFLAG_INT, "S", 1, 3600, "the grace period", " s", "seconds a player who lost the connection has to come back (30)", 0 },
	[F_IDLE] = { "--idle", CMDFLAG_INT, "S", 1, 86400, "the idle timeout", " s", "close a silent connection, or a table nobody joined, after S seconds (300)", 0 },
	[F_TABLES] = { "--max-tables", CMDFLAG_INT, "N", 1, 100000, "the number of tables", "", "tables at most (1000)", 0 },
	[F_CONNS] = { "--max-connections", CMDFLAG_INT, "N", 1, 100000, "the number of connections", "", "WebSocket connections at most (4000)", 0 },
	[F_THREADS] = { "--engine-threads", CMDFLAG_INT, "N", 1, 64, "the engine threads", "", "threads searching Emilia's moves (1)", 0 },
	[F_HASH] = { "--hash", CMDFLAG_INT, "MB", 1, 4096, "the hash", " MB", "each engine's table (16)", 0 },
	[F_QUIET] = { "--quiet", CMDFLAG_BOOL, NULL, 0, 0, NULL, NULL, "print errors only", 0 },
};

/* ---- the state of the server (the event thread's) ---- */

typedef struct Msg {
	struct Msg *next;
	size_t len;
	unsigned char buf[]; /* LWS_PRE bytes, then the text */
} Msg;

typedef struct Conn {
	struct lws *wsi;
	bool ws;                 /* an established WebSocket (not an HTTP request) */
	Table *table;
	int colour;              /* the seat at table, or -1 (watching) */
	bool lobby;
	Msg *out, *out_tail;
	int out_count;
	char *rx;
	size_t rx_len;
	bool rx_oversize;
	int64_t last_msg;
	int64_t rate_window;
	int rate_count;
	struct Conn *all_prev, *all_next;   /* every connection */
	struct Conn *t_prev, *t_next;       /* the connections of its table */
} Conn;

static Config cfg = { 8080, "127.0.0.1", "emilia-data", "build/web", 30, 300, 1000, 4000, 1, 16, false };
static struct lws_context *context;
static Pool *pool;
static Table *tables;
static int ntables;
static uint64_t next_table_id = 1;
static Conn *conns;
static int nconns;
static bool lobby_dirty;
static int64_t lobby_sent;
static lws_sorted_usec_list_t tick_sul;
static volatile sig_atomic_t stopping;
static char tables_dir[4096], games_dir[4096];
static int urandom_fd = -1;

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	if (cfg.quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("emilia-serve: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("emilia-serve: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static bool random_bytes(unsigned char *p, size_t n)
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

static void conn_close(Conn *c)
{
	lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
}

static void send_text(Conn *c, const char *text, size_t len)
{
	if (!c->ws)
		return;
	if (c->out_count >= OUT_MAX_MESSAGES) {
		/* a client that reads nothing: not kept at the others' expense */
		conn_close(c);
		return;
	}
	Msg *m = malloc(sizeof *m + LWS_PRE + len);
	if (!m) {
		conn_close(c);
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

static void send_buf(Conn *c, const JsonBuf *b)
{
	if (!b->failed && b->s)
		send_text(c, b->s, b->len);
}

static void send_error(Conn *c, const char *code, const char *message)
{
	JsonBuf b;
	jb_init(&b);
	jb_printf(&b, "{\"t\":\"error\",\"error\":\"%s\",\"message\":", code);
	jb_str(&b, message);
	jb_raw(&b, "}");
	send_buf(c, &b);
	jb_free(&b);
}

static void table_message(JsonBuf *b, const Table *t, const char *type, const Conn *to)
{
	const int64_t now = now_ms();
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
static void broadcast(Table *t)
{
	JsonBuf b;
	jb_init(&b);
	table_message(&b, t, "state", NULL);
	for (Conn *c = t->conns; c; c = c->t_next)
		send_buf(c, &b);
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

static void send_lobby(Conn *only)
{
	JsonBuf b;
	jb_init(&b);
	lobby_message(&b);
	for (Conn *c = conns; c; c = c->all_next)
		if (c->lobby && (!only || c == only))
			send_buf(c, &b);
	jb_free(&b);
}

/* ---- tables ---- */

static Table *find_table(const char *code)
{
	for (Table *t = tables; t; t = t->next)
		if (!strcmp(t->code, code))
			return t;
	return NULL;
}

static Table *find_table_id(uint64_t id)
{
	for (Table *t = tables; t; t = t->next)
		if (t->id == id)
			return t;
	return NULL;
}

static void attach(Conn *c, Table *t, int colour)
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

static void detach(Conn *c)
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

static void table_file_path(const Table *t, char *path, size_t len)
{
	snprintf(path, len, "%s/%s.json", tables_dir, t->code);
}

static void close_table(Table *t, const char *why)
{
	while (t->conns) {
		Conn *c = t->conns;
		detach(c);
		send_error(c, "no-table", why);
	}
	char path[4200];
	table_file_path(t, path, sizeof path);
	unlink(path);
	for (Table **p = &tables; *p; p = &(*p)->next)
		if (*p == t) {
			*p = t->next;
			break;
		}
	ntables--;
	if (t->public)
		lobby_dirty = true;
	note("table %s closed: %s", t->code, why);
	free(t);
}

static void make_token(char out[TABLE_TOKEN_LEN + 1])
{
	unsigned char r[TABLE_TOKEN_LEN / 2];
	if (!random_bytes(r, sizeof r)) {
		warn("cannot read /dev/urandom");
		exit(1);
	}
	for (size_t i = 0; i < sizeof r; i++)
		snprintf(out + 2 * i, 3, "%02x", r[i]);
}

static void make_code(char out[TABLE_CODE_LEN + 1])
{
	static const char alphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
	do {
		unsigned char r[TABLE_CODE_LEN];
		if (!random_bytes(r, sizeof r)) {
			warn("cannot read /dev/urandom");
			exit(1);
		}
		for (int i = 0; i < TABLE_CODE_LEN; i++)
			out[i] = alphabet[r[i] % 32];
		out[TABLE_CODE_LEN] = 0;
	} while (find_table(out));
}

/* Start Emilia's search when she is to move. */
static void maybe_think(Table *t, int64_t now)
{
	if (t->thinking || table_controller(t) != 2)
		return;
	PoolJob *j = calloc(1, sizeof *j);
	if (!j)
		return; /* tried again at the next tick */
	j->table_id = t->id;
	j->ply = t->game.nply;
	j->size = t->game.size;
	j->anti = t->game.variant == VARIANT_ANTI;
	j->level = table_engine_level(t);
	table_transcript(t, j->moves, sizeof j->moves);
	t->thinking = true;
	t->think_timeout = false;
	pool_submit(pool, j);
}

/* After a change: the end (saved game), Emilia's turn, the news. */
static void table_changed(Table *t, int64_t now)
{
	if (t->over && !t->review[0]) {
		char err[300];
		if (!table_save_game(t, games_dir, err, sizeof err))
			warn("table %s: the game was not saved: %s", t->code, err);
		else
			note("table %s: game over, saved as %s", t->code, t->review);
	}
	t->dirty = true;
	maybe_think(t, now);
	broadcast(t);
}

static void engine_replies(void)
{
	const int64_t now = now_ms();
	for (PoolJob *j = pool_done(pool); j;) {
		PoolJob *next = j->next;
		Table *t = find_table_id(j->table_id);
		if (t && t->thinking && t->game.nply == j->ply) {
			const bool timeout = t->think_timeout;
			t->thinking = false;
			t->think_timeout = false;
			int mv = j->move;
			if (mv < 0) {
				/* cannot happen with a legal position; never stall a game */
				warn("table %s: the engine failed (%s): playing the first legal move", t->code, j->error);
				const uint64_t moves = game_moves(&t->game);
				mv = moves ? __builtin_ctzll(moves) : BOARD_PASS;
			}
			if (mv == EMILIA_PASS)
				mv = BOARD_PASS;
			if (table_play(t, mv, timeout ? BY_TIMEOUT : BY_EMILIA, now) != GAME_OK)
				warn("table %s: the engine's move %d was refused", t->code, mv);
			table_changed(t, now);
		}
		free(j);
		j = next;
	}
}

/* ---- the messages ---- */

static const JsonMember *get_typed(Conn *c, const JsonObject *o, const char *name, JsonType type, bool required)
{
	const JsonMember *m = json_get(o, name);
	if (m && m->type == JSON_NULL && !required)
		return NULL;
	if ((!m && required) || (m && m->type != type)) {
		char msg[128];
		snprintf(msg, sizeof msg, "'%s' must be %s", name,
		         type == JSON_STRING ? "a string" : type == JSON_NUMBER ? "a number" : "true or false");
		send_error(c, "bad", msg);
		return (const JsonMember *)-1;
	}
	return m;
}
#define BAD_MEMBER ((const JsonMember *)-1)

static void send_seated(Conn *c, Table *t, const char *type)
{
	JsonBuf b;
	jb_init(&b);
	table_message(&b, t, type, c);
	send_buf(c, &b);
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
		send_error(c, "bad", "you hold a seat at a game in progress: send leave first");
		return false;
	}
	if (c->colour >= 0 && t->seat[c->colour].state == SEAT_HERE) {
		t->seat[c->colour].state = SEAT_GONE;
		t->dirty = true;
	}
	detach(c);
	broadcast(t);
	return true;
}

static void on_open(Conn *c, const JsonObject *o, int64_t now)
{
	const JsonMember *game = get_typed(c, o, "game", JSON_STRING, true);
	const JsonMember *secs = get_typed(c, o, "seconds", JSON_NUMBER, false);
	const JsonMember *pub = get_typed(c, o, "public", JSON_BOOL, false);
	const JsonMember *vs = get_typed(c, o, "vs", JSON_STRING, false);
	const JsonMember *col = get_typed(c, o, "color", JSON_STRING, false);
	if (game == BAD_MEMBER || secs == BAD_MEMBER || pub == BAD_MEMBER || vs == BAD_MEMBER || col == BAD_MEMBER)
		return;
	TableKind kind;
	if (!table_kind_parse(game->str, &kind))
		return send_error(c, "bad", "'game' must be \"reversi\", \"6x6\" or \"anti\"");
	const double s = secs ? secs->num : 60;
	if (s < 1 || s > 3600 || s != (int)s)
		return send_error(c, "bad", "'seconds' must be a whole number 1..3600");
	int level = 0;
	if (vs) {
		if (!strcmp(vs->str, "easy"))
			level = EMILIA_LEVEL_EASY;
		else if (!strcmp(vs->str, "normal"))
			level = EMILIA_LEVEL_NORMAL;
		else if (!strcmp(vs->str, "hard"))
			level = EMILIA_LEVEL_HARD;
		else
			return send_error(c, "bad", "'vs' must be null, \"easy\", \"normal\" or \"hard\"");
	}
	int colour;
	if (!col || !strcmp(col->str, "random")) {
		unsigned char r;
		if (!random_bytes(&r, 1))
			r = 0;
		colour = r & 1;
	} else if (!strcmp(col->str, "black") || !strcmp(col->str, "white")) {
		colour = col->str[0] == 'w';
	} else {
		return send_error(c, "bad", "'color' must be \"black\", \"white\" or \"random\"");
	}
	if (ntables >= cfg.max_tables)
		return send_error(c, "limit", "the server has as many tables as it may hold: try again later");
	if (!free_for_table(c))
		return;
	Table *t = malloc(sizeof *t);
	if (!t)
		return send_error(c, "limit", "the server is out of memory");
	char code[TABLE_CODE_LEN + 1];
	make_code(code);
	table_init(t, next_table_id++, code, kind, (int)s, pub ? pub->b : true, level, now);
	t->seat[colour].state = SEAT_HERE;
	make_token(t->seat[colour].token);
	if (level)
		t->seat[!colour].state = SEAT_EMILIA;
	t->next = tables;
	tables = t;
	ntables++;
	attach(c, t, colour);
	table_restart_clock(t, now);
	note("table %s opened: %s, %d s a move%s", code, game->str, t->seconds, level ? ", against Emilia" : "");
	send_seated(c, t, "seated");
	table_changed(t, now);
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
	*t = strlen(code->str) == TABLE_CODE_LEN ? find_table(up) : NULL;
	if (!*t) {
		send_error(c, "no-table", "no table has that code");
		return false;
	}
	return true;
}

static void watch(Conn *c, Table *t)
{
	if (t->watchers >= WATCHERS_MAX)
		return send_error(c, "full", "this table has as many watchers as it may hold");
	if (c->table == t && c->colour < 0)
		return send_seated(c, t, "watching");
	if (!free_for_table(c))
		return;
	attach(c, t, -1);
	send_seated(c, t, "watching");
	broadcast(t);
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
	make_token(t->seat[free_seat].token);
	attach(c, t, free_seat);
	table_restart_clock(t, now); /* the game begins */
	note("table %s: both seats taken", t->code);
	send_seated(c, t, "seated");
	table_changed(t, now);
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
		return send_error(c, "token", "that token holds no seat at this table (or the seat was lost)");
	if (c->table == t && c->colour == k)
		return send_seated(c, t, "seated");
	if (!free_for_table(c))
		return;
	Conn *old = t->seat[k].conn;
	if (old) {
		/* the same player from a new page: the old one watches */
		detach(old);
		attach(old, t, -1);
		send_error(old, "token", "your seat was taken over by another connection with its token");
	}
	t->seat[k].state = SEAT_HERE;
	t->seat[k].away_until = 0;
	attach(c, t, k);
	send_seated(c, t, "seated");
	table_changed(t, now);
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
		return send_error(c, "no-table", "you are at no table");
	if (c->colour < 0)
		return send_error(c, "turn", "you are watching this table");
	if (t->over)
		return send_error(c, "over", "the game is over");
	if (table_controller(t) == 0)
		return send_error(c, "turn", "the game begins when the other seat is taken");
	if (t->game.side != c->colour)
		return send_error(c, "turn", "it is not your turn");
	if (t->thinking)
		return send_error(c, "turn", "your time ran out: Emilia is moving for you");
	if (ply->num != t->game.nply)
		return send_error(c, "ply", "that move is for another position (the table's ply differs)");
	const int m = text_parse_move(mv->str, t->game.size);
	if (m < 0)
		return send_error(c, "illegal", "not a square of this board");
	const GameStatus s = table_play(t, m, BY_PLAYER, now);
	if (s == GAME_NOT_PASS)
		return send_error(c, "illegal", "you have a move: you cannot pass");
	if (s != GAME_OK)
		return send_error(c, "illegal", "that move is not legal here");
	table_changed(t, now);
}

static void on_undo(Conn *c, const JsonObject *o, int64_t now)
{
	const JsonMember *ply = get_typed(c, o, "ply", JSON_NUMBER, true);
	if (ply == BAD_MEMBER)
		return;
	Table *t = c->table;
	if (!t || c->colour < 0)
		return send_error(c, "undo", "only a player at a table can ask for an undo");
	if (ply->num != t->game.nply)
		return send_error(c, "ply", "that undo is for another position (the table's ply differs)");
	if (t->undo_by >= 0 && t->undo_by != c->colour) {
		/* the other player agrees */
		const int by = t->undo_by;
		if (t->thinking)
			return send_error(c, "undo", "Emilia is moving: try again after her move");
		table_undo(t, by, now);
		note("table %s: undo agreed, back to ply %d", t->code, t->game.nply);
		return table_changed(t, now);
	}
	if (t->undo_by == c->colour)
		return send_error(c, "undo", "you have asked already: the other player must agree");
	const char *why = table_undo_refusal(t, c->colour);
	if (why)
		return send_error(c, "undo", why);
	t->undo_by = c->colour;
	t->undo_ply = t->game.nply;
	broadcast(t);
}

static void on_decline(Conn *c)
{
	Table *t = c->table;
	if (!t || c->colour < 0 || t->undo_by < 0 || t->undo_by == c->colour)
		return send_error(c, "undo", "there is no undo offer for you to decline");
	t->undo_by = -1;
	t->dirty = true;
	broadcast(t);
}

static void on_leave(Conn *c, int64_t now)
{
	Table *t = c->table;
	if (!t)
		return;
	const int k = c->colour;
	detach(c);
	if (k < 0) {
		broadcast(t);
		return;
	}
	if (!t->over && (t->seat[!k].state == SEAT_FREE)) {
		close_table(t, "the player who opened it left before anyone joined");
		return;
	}
	const bool running = !t->over;
	table_seat_lost(t, k, now);
	if (running)
		note("table %s: %s left and lost", t->code, k ? "white" : "black");
	table_changed(t, now);
}

static void handle_message(Conn *c, const char *text, size_t len)
{
	const int64_t now = now_ms();
	JsonObject o;
	char why[128];
	if (!json_parse(text, len, &o, why, sizeof why)) {
		char msg[200];
		snprintf(msg, sizeof msg, "not a message: %s", why);
		return send_error(c, "bad", msg);
	}
	const JsonMember *t = json_get(&o, "t");
	if (!t || t->type != JSON_STRING)
		return send_error(c, "bad", "a message needs a string member 't'");
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
			send_lobby(c);
	} else if (!strcmp(type, "ping"))
		send_text(c, "{\"t\":\"pong\"}", 12);
	else
		send_error(c, "unknown", "unknown message type");
}

/* ---- the tick: clocks, grace periods, idle connections, files ---- */

static void save_table(Table *t, int64_t now)
{
	char err[300];
	if (table_save(t, tables_dir, now, err, sizeof err)) {
		t->dirty = false;
		t->saved_at = now;
	} else {
		warn("table %s not saved: %s", t->code, err);
	}
}

static void tick_table(Table *t, int64_t now)
{
	for (int k = 0; k < 2; k++) {
		Seat *s = &t->seat[k];
		if (s->state != SEAT_AWAY || now < s->away_until)
			continue;
		if (!t->over && t->seat[!k].state == SEAT_FREE) {
			close_table(t, "the player who opened it did not come back");
			return;
		}
		const bool running = !t->over;
		table_seat_lost(t, k, now);
		if (running)
			note("table %s: %s did not come back and lost", t->code, k ? "white" : "black");
		table_changed(t, now);
	}
	if (t->deadline && now >= t->deadline && !t->thinking && table_controller(t) == 1) {
		/* out of time: Emilia moves for the player, who keeps the seat */
		t->deadline = 0;
		maybe_think(t, now);
		if (!t->thinking) { /* maybe_think only searches for Emilia's seats */
			PoolJob *j = calloc(1, sizeof *j);
			if (j) {
				j->table_id = t->id;
				j->ply = t->game.nply;
				j->size = t->game.size;
				j->anti = t->game.variant == VARIANT_ANTI;
				j->level = EMILIA_LEVEL_NORMAL;
				table_transcript(t, j->moves, sizeof j->moves);
				t->thinking = true;
				t->think_timeout = true;
				pool_submit(pool, j);
			}
		}
		broadcast(t);
	}
	if (t->over && !t->conns && t->review[0]) {
		close_table(t, "the game is over and everyone has left");
		return;
	}
	if (!t->over && table_controller(t) == 0 && !t->conns &&
	    (t->seat[0].state != SEAT_AWAY && t->seat[1].state != SEAT_AWAY)) {
		close_table(t, "nobody is at it");
		return;
	}
	if ((t->seat[0].state == SEAT_FREE || t->seat[1].state == SEAT_FREE) && now - t->created >= cfg.idle * 1000LL) {
		close_table(t, "nobody took the other seat in time");
		return;
	}
	if (t->dirty && now - t->saved_at >= 1000)
		save_table(t, now);
	maybe_think(t, now);
}

static void tick(lws_sorted_usec_list_t *sul)
{
	const int64_t now = now_ms();
	for (Table *t = tables, *next; t; t = next) {
		next = t->next;
		tick_table(t, now);
	}
	for (Conn *c = conns; c; c = c->all_next)
		if (c->ws && now - c->last_msg >= cfg.idle * 1000LL)
			conn_close(c);
	if (lobby_dirty && now - lobby_sent >= 250) {
		lobby_dirty = false;
		lobby_sent = now;
		send_lobby(NULL);
	}
	if (!stopping)
		lws_sul_schedule(context, 0, &tick_sul, tick, TICK_MS * LWS_US_PER_MS);
}

/* ---- libwebsockets ---- */

static bool rate_ok(Conn *c, int64_t now)
{
	if (now - c->rate_window >= 1000) {
		c->rate_window = now;
		c->rate_count = 0;
	}
	c->rate_count++;
	if (c->rate_count <= RATE_PER_SECOND)
		return true;
	if (c->rate_count > 2 * RATE_PER_SECOND)
		conn_close(c); /* it keeps sending */
	else
		send_error(c, "rate", "more than 40 messages in a second: this one was dropped");
	return false;
}

static void on_receive(Conn *c, const char *in, size_t len)
{
	struct lws *wsi = c->wsi;
	if (lws_is_first_fragment(wsi)) {
		c->rx_len = 0;
		c->rx_oversize = false;
	}
	if (!c->rx && !(c->rx = malloc(MAX_FRAME)))
		c->rx_oversize = true;
	if (!c->rx_oversize && c->rx_len + len <= MAX_FRAME) {
		memcpy(c->rx + c->rx_len, in, len);
		c->rx_len += len;
	} else {
		c->rx_oversize = true;
	}
	if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi))
		return;
	const int64_t now = now_ms();
	c->last_msg = now;
	if (!rate_ok(c, now))
		return;
	if (c->rx_oversize)
		return send_error(c, "size", "a message over 4096 bytes: refused");
	if (lws_frame_is_binary(wsi))
		return send_error(c, "bad", "a binary frame: messages are JSON text");
	handle_message(c, c->rx, c->rx_len);
}

static void on_closed(Conn *c)
{
	const int64_t now = now_ms();
	Table *t = c->table;
	const int k = c->colour;
	detach(c);
	if (t) {
		if (k >= 0 && t->seat[k].state == SEAT_HERE && t->seat[k].conn == NULL) {
			t->seat[k].state = SEAT_AWAY;
			t->seat[k].away_until = now + cfg.grace * 1000LL;
			t->dirty = true;
		}
		broadcast(t);
	}
	while (c->out) {
		Msg *m = c->out;
		c->out = m->next;
		free(m);
	}
	c->out_tail = NULL;
	free(c->rx);
	c->rx = NULL;
	if (c->all_prev)
		c->all_prev->all_next = c->all_next;
	else
		conns = c->all_next;
	if (c->all_next)
		c->all_next->all_prev = c->all_prev;
	nconns--;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	Conn *c = user;
	switch (reason) {
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: {
		char uri[64];
		if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0 || strcmp(uri, "/ws") != 0)
			return 1;
		if (nconns >= cfg.max_connections)
			return 1;
		return 0;
	}
	case LWS_CALLBACK_ESTABLISHED:
		memset(c, 0, sizeof *c);
		c->wsi = wsi;
		c->ws = true;
		c->colour = -1;
		c->last_msg = now_ms();
		c->all_next = conns;
		if (conns)
			conns->all_prev = c;
		conns = c;
		nconns++;
		return 0;
	case LWS_CALLBACK_RECEIVE:
		on_receive(c, in, len);
		return 0;
	case LWS_CALLBACK_SERVER_WRITEABLE: {
		Msg *m = c->out;
		if (!m)
			return 0;
		if (lws_write(wsi, m->buf + LWS_PRE, m->len, LWS_WRITE_TEXT) < (int)m->len)
			return -1;
		c->out = m->next;
		if (!c->out)
			c->out_tail = NULL;
		c->out_count--;
		free(m);
		if (c->out)
			lws_callback_on_writable(wsi);
		return 0;
	}
	case LWS_CALLBACK_CLOSED:
		if (c->ws)
			on_closed(c);
		return 0;
	case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
		if (pool)
			engine_replies();
		return 0;
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

static void wake_loop(void *user)
{
	lws_cancel_service(context);
}

static void on_signal(int sig)
{
	stopping = 1;
	if (context)
		lws_cancel_service(context);
}

/* ---- start-up ---- */

static bool make_dir(const char *path)
{
	if (mkdir(path, 0755) == 0 || errno == EEXIST)
		return true;
	warn("%s: %s", path, strerror(errno));
	return false;
}

static void restore_tables(int64_t now)
{
	DIR *d = opendir(tables_dir);
	if (!d)
		return;
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		const size_t k = strlen(e->d_name);
		if (k < 6 || strcmp(e->d_name + k - 5, ".json") != 0)
			continue;
		char path[4400], err[512];
		snprintf(path, sizeof path, "%s/%s", tables_dir, e->d_name);
		Table *t = malloc(sizeof *t);
		if (!t)
			break;
		if (!table_load(t, next_table_id++, path, now, cfg.grace * 1000LL, err, sizeof err) || find_table(t->code)) {
			char bad[4500];
			snprintf(bad, sizeof bad, "%s.bad", path);
			warn("%s (kept as %s)", err, bad);
			rename(path, bad);
			free(t);
			continue;
		}
		t->next = tables;
		tables = t;
		ntables++;
		n++;
	}
	closedir(d);
	if (n)
		note("restored %d table%s from %s", n, n == 1 ? "" : "s", tables_dir);
}

static int parse_args(int argc, char **argv)
{
	if (cmdflags_wants_help(argc, argv)) {
		cmdflags_help(stdout, "serve", "[--port N] [--bind ADDR] [--data DIR] [--web DIR] [options]", serve_flags,
		              F_COUNT);
		exit(0);
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--version")) {
			char v[256];
			text_version("emilia-serve", v, sizeof v);
			printf("%s\n", v);
			exit(0);
		}
		CmdFlagValue v;
		const int f = cmdflags_next("serve", serve_flags, F_COUNT, argc, argv, &i, &v);
		switch (f) {
		case CMDFLAG_ERROR:
			return 2;
		case CMDFLAG_NONE:
			fprintf(stderr, "serve: unknown option '%s' (emilia serve --help lists them)\n", argv[i]);
			return 2;
		case F_PORT: cfg.port = (int)v.num; break;
		case F_BIND: cfg.bind = v.str; break;
		case F_DATA: cfg.data = v.str; break;
		case F_WEB: cfg.web = v.str; break;
		case F_GRACE: cfg.grace = (int)v.num; break;
		case F_IDLE: cfg.idle = (int)v.num; break;
		case F_TABLES: cfg.max_tables = (int)v.num; break;
		case F_CONNS: cfg.max_connections = (int)v.num; break;
		case F_THREADS: cfg.engine_threads = (int)v.num; break;
		case F_HASH: cfg.hash_mb = (int)v.num; break;
		case F_QUIET: cfg.quiet = true; break;
		default: break;
		}
	}
	return 0;
}

static const struct lws_protocol_vhost_options mime_ggf = { NULL, NULL, ".ggf", "text/plain; charset=utf-8" };
static const struct lws_protocol_vhost_options mime_gz = { &mime_ggf, NULL, ".gz", "application/octet-stream" };
static const struct lws_protocol_vhost_options mime_mjs = { &mime_gz, NULL, ".mjs", "text/javascript" };
static const struct lws_protocol_vhost_options mime_json = { &mime_mjs, NULL, ".json", "application/json" };
static const struct lws_protocol_vhost_options mime_wasm = { &mime_json, NULL, ".wasm", "application/wasm" };

int main(int argc, char **argv)
{
	const int rc = parse_args(argc, argv);
	if (rc)
		return rc;
	signal(SIGPIPE, SIG_IGN);
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if ((urandom_fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) < 0) {
		warn("/dev/urandom: %s", strerror(errno));
		return 1;
	}
	snprintf(tables_dir, sizeof tables_dir, "%s/tables", cfg.data);
	snprintf(games_dir, sizeof games_dir, "%s/games", cfg.data);
	if (!make_dir(cfg.data) || !make_dir(tables_dir) || !make_dir(games_dir))
		return 1;
	struct stat st;
	const bool have_web = stat(cfg.web, &st) == 0 && S_ISDIR(st.st_mode);
	if (!have_web)
		warn("%s: no such folder: the page is not served (build it with `make web`, or give --web)", cfg.web);

	lws_set_log_level(LLL_ERR, NULL);
	static struct lws_protocols protocols[] = {
		{ "emilia", callback, sizeof(Conn), MAX_FRAME, 0, NULL, 0 },
		{ NULL, NULL, 0, 0, 0, NULL, 0 },
	};
	static struct lws_http_mount mount_games, mount_web;
	memset(&mount_games, 0, sizeof mount_games);
	mount_games.mountpoint = "/games";
	mount_games.mountpoint_len = 6;
	mount_games.origin = games_dir;
	mount_games.origin_protocol = LWSMPRO_FILE;
	mount_games.extra_mimetypes = &mime_wasm;
	memset(&mount_web, 0, sizeof mount_web);
	mount_web.mount_next = &mount_games;
	mount_web.mountpoint = "/";
	mount_web.mountpoint_len = 1;
	mount_web.origin = have_web ? cfg.web : games_dir;
	mount_web.def = "index.html";
	mount_web.origin_protocol = LWSMPRO_FILE;
	mount_web.extra_mimetypes = &mime_wasm;

	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.port = cfg.port;
	info.iface = cfg.bind;
	info.protocols = protocols;
	info.mounts = &mount_web;
	info.fd_limit_per_thread = (unsigned)(cfg.max_connections + 64);
	info.vhost_name = "emilia";
	info.timeout_secs = 30;
	const int64_t now = now_ms();
	restore_tables(now);
	context = lws_create_context(&info);
	if (!context) {
		warn("cannot listen on %s port %d", cfg.bind, cfg.port);
		return 1;
	}
	struct lws_vhost *vh = lws_get_vhost_by_name(context, "emilia");
	const int port = vh ? lws_get_vhost_listen_port(vh) : cfg.port;
	pool = pool_new(cfg.engine_threads, cfg.hash_mb, wake_loop, NULL);
	if (!pool) {
		warn("cannot start the engine threads");
		lws_context_destroy(context);
		return 1;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	lws_sul_schedule(context, 0, &tick_sul, tick, TICK_MS * LWS_US_PER_MS);
	fprintf(stderr, "emilia-serve: listening on http://%s:%d/ (tables in %s)\n", cfg.bind, port, cfg.data);
	while (!stopping)
		if (lws_service(context, 0) < 0)
			break;
	const int64_t end = now_ms();
	pool_free(pool);
	pool = NULL;
	int saved = 0;
	for (Table *t = tables; t; t = t->next) {
		/* a search that was out is searched again after the restart */
		t->thinking = false;
		save_table(t, end);
		saved++;
	}
	lws_context_destroy(context);
	note("stopped; %d table%s saved in %s", saved, saved == 1 ? "" : "s", tables_dir);
	while (tables) {
		Table *t = tables;
		tables = t->next;
		free(t);
	}
	close(urandom_fd);
	return 0;
}
