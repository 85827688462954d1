/*
 * hall.h - the state emilia-serve's files share (docs/serve.md): the
 * configuration, the connections, the tables in play, and the functions
 * that send to the connections and change the tables.  Everything here
 * belongs to the one event thread: hall.c (sending, the tables), messages.c
 * (what clients send), serve.c (libwebsockets, the tick, start-up).
 */
#ifndef EMILIA_SERVE_HALL_H
#define EMILIA_SERVE_HALL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libwebsockets.h>

#include "json.h"
#include "pool.h"
#include "saver.h"
#include "table.h"

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

extern Config cfg;
extern struct lws_context *context;
extern Pool *pool;
extern Saver *saver;
extern Table *tables;
extern int ntables;
extern uint64_t next_table_id;
extern Conn *conns;
extern int nconns;
extern bool lobby_dirty;
extern int64_t lobby_sent;
extern char tables_dir[4096], games_dir[4096];
extern int urandom_fd;

/* CLOCK_MONOTONIC in milliseconds. */
int64_t serve_now_ms(void);
/* A line on stderr: serve_note unless --quiet, serve_warn always. */
void serve_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void serve_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool serve_random_bytes(unsigned char *p, size_t n);

/* Sending: queued, written when the socket can take it. */
void serve_conn_close(Conn *c);
void serve_send_text(Conn *c, const char *text, size_t len);
void serve_send_buf(Conn *c, const JsonBuf *b);
void serve_send_error(Conn *c, const char *code, const char *message);
/* {"t": type, ["code", "color", "token" when `to` is given,] "table"} */
void serve_table_message(JsonBuf *b, const Table *t, const char *type, const Conn *to);
/* `state` to every connection of the table but `skip` (NULL: none), which
 * has just been sent the table in its `seated`. */
void serve_broadcast(Table *t, const Conn *skip);
/* `lobby` to `only`, or (NULL) to every subscriber. */
void serve_send_lobby(Conn *only);

/* The tables. */
Table *serve_find_table(const char *code);
Table *serve_find_table_id(uint64_t id);
void serve_attach(Conn *c, Table *t, int colour);
void serve_detach(Conn *c);
void serve_close_table(Table *t, const char *why);
/* Hand the table's file to the saver (DATA/tables/CODE.json). */
void serve_save_table(Table *t, int64_t now);
void serve_make_token(char out[TABLE_TOKEN_LEN + 1]);
void serve_make_code(char out[TABLE_CODE_LEN + 1]);
/* Start Emilia's search when she is to move. */
void serve_maybe_think(Table *t, int64_t now);
/* The player to move is out of time: Emilia searches their move (Normal). */
void serve_move_for_player(Table *t);
/* Colour k's player is gone (`left`: by leave, else the grace period ran
 * out): lost, and Emilia plays the seat; a table nobody joined yet is
 * closed instead (false: t is freed). */
bool serve_seat_lost(Table *t, int k, int64_t now, bool left);
/* After a change: the end (the game saved), Emilia's turn, the news. */
void serve_table_changed(Table *t, int64_t now, const Conn *skip);
/* The engine threads' moves, played. */
void serve_engine_replies(void);

/* One message from a client (messages.c). */
void serve_handle_message(Conn *c, const char *text, size_t len);

#endif
