/*
 * table.h - one online table of emilia-serve (docs/serve.md): the game,
 * refereed by the core's rules (game.h), its two seats, the move clock,
 * the undo offer, the result; its JSON for the clients; its file in
 * DATA/tables/ and its finished game as GGF in DATA/games/.
 *
 * Nothing here touches the network: serve.c owns the connections (a seat
 * or a watcher points at one as an opaque `conn`) and the engine threads,
 * and calls these functions on its one event thread.  Times are
 * milliseconds of CLOCK_MONOTONIC (serve_now_ms()).
 */
#ifndef EMILIA_SERVE_TABLE_H
#define EMILIA_SERVE_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "json.h"

#define TABLE_CODE_LEN 6
#define TABLE_TOKEN_LEN 32

typedef enum { KIND_REVERSI = 0, KIND_6X6, KIND_ANTI } TableKind;
typedef enum { SEAT_FREE = 0, SEAT_HERE, SEAT_AWAY, SEAT_GONE, SEAT_EMILIA } SeatState;
/* who made a ply: the player, Emilia for a player out of time, Emilia
 * (its own seat or a player who left), the server (a forced pass) */
typedef enum { BY_PLAYER = 0, BY_TIMEOUT, BY_EMILIA, BY_AUTO } MoveBy;

typedef struct Seat {
	SeatState state;
	char token[TABLE_TOKEN_LEN + 1];
	void *conn;          /* the connection seated here (HERE only) */
	int64_t away_until;  /* AWAY: when the grace period ends */
} Seat;

typedef struct Table {
	uint64_t id;                 /* unique in this process: engine replies carry it */
	char code[TABLE_CODE_LEN + 1];
	TableKind kind;
	int seconds;                 /* per move */
	bool public;
	int vs_level;                /* 0: a table for two; else Emilia's EMILIA_LEVEL_* */
	Game game;
	unsigned char by[GAME_MAX_PLY];
	Seat seat[2];
	int64_t deadline;            /* the move clock of the side to move, 0 when none runs */
	bool thinking;               /* an engine search for this table is out */
	int undo_by, undo_ply;       /* the undo offer: -1, or its colour and ply */
	int left;                    /* the colour that lost by leaving, or -1 */
	bool over;
	char review[96];             /* "/games/NAME.ggf" once saved */
	int64_t created;             /* when opened (or restored) */
	bool dirty;                  /* changed since its file was written */
	int64_t saved_at;
	int watchers;
	bool think_timeout;          /* the search out is for a player out of time */
	void *conns;                 /* serve.c's list of the connections here */
	struct Table *next;          /* serve.c's list */
} Table;

/* Names of the kinds ("reversi", "6x6", "anti") and seat states. */
const char *table_kind_name(TableKind k);
bool table_kind_parse(const char *s, TableKind *k);
const char *table_seat_name(SeatState s);

void table_init(Table *t, uint64_t id, const char *code, TableKind kind, int seconds, bool public, int vs_level,
                int64_t now);
/* Who plays the side to move now: 0 nobody (over, or a seat still free),
 * 1 a player (the clock runs), 2 Emilia. */
int table_controller(const Table *t);
/* The level Emilia plays the side to move at (its seat's, else Normal). */
int table_engine_level(const Table *t);
/* Play `move` (a square or BOARD_PASS) for the side to move, made `by`;
 * forced passes after it are played too (BY_AUTO).  The undo offer ends;
 * the clock restarts (at `now`) for the next player; the game's end is
 * noted (over).  GAME_OK or the refusal, with the table unchanged. */
GameStatus table_play(Table *t, int move, MoveBy by, int64_t now);
/* The clock for the side to move, from now (after a seat changes). */
void table_restart_clock(Table *t, int64_t now);
/* Can colour c ask to take back its last move?  NULL, or why not. */
const char *table_undo_refusal(const Table *t, int c);
/* Take back colour c's last move and everything after it. */
void table_undo(Table *t, int c, int64_t now);
/* The seat of colour c is lost (left, or did not come back): the player
 * has lost unless someone lost before, and Emilia plays the seat. */
void table_seat_lost(Table *t, int c, int64_t now);
/* The transcript with explicit passes ("f5d6pass..."), for the engine. */
void table_transcript(const Table *t, char *out, size_t len);
/* The table object of docs/serve.md. */
void table_json(const Table *t, JsonBuf *b, int64_t now);
/* Final discs, the winner (BLACK, WHITE, -1 draw), by the table's rule. */
void table_result(const Table *t, int *black, int *white, int *winner);

/* The text of DATA/tables/CODE.json. */
void table_file_json(const Table *t, int64_t now, JsonBuf *b);
/* Write dir/name whole, through a temporary file and a rename; false
 * with errno's reason in err. */
bool table_write_file(const char *dir, const char *name, const char *text, size_t len, char *err, size_t errlen);
/* Read a table file back; the seats that were taken are AWAY for
 * `grace_ms` and the move clock starts again.  false with a reason. */
bool table_load(Table *t, uint64_t id, const char *path, int64_t now, int64_t grace_ms, char *err, size_t errlen);
/* Write the finished game as GGF in dir; sets t->review ("/games/NAME"). */
bool table_save_game(Table *t, const char *dir, char *err, size_t errlen);

#endif
