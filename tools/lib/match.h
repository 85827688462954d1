/*
 * match.h - driving GTP Othello engines as subprocesses and refereeing a
 * game between two of them (the library half of emilia-match).
 *
 * Engine processes: `/bin/sh -c COMMAND` in its own process group, stdin and
 * stdout on pipes (close-on-exec, so engines never inherit each other's
 * pipes), stderr to a log file or /dev/null.  Every read goes through
 * poll() with a deadline, so a hung engine costs at most its time limit;
 * SIGPIPE must be ignored by the program (match_ignore_sigpipe()) so that
 * writing to a dead engine is an error, not a signal.  Stopping sends
 * `quit`, waits briefly for the exit, then kills the whole process group
 * and reaps it: no zombies, no orphans.
 *
 * GTP replies are read strictly: empty lines before a reply are skipped; a
 * reply starts with '=' or '?' (an id after it is tolerated) and ends with
 * an empty line.  Any other line, a line over MATCH_LINE_MAX bytes or
 * control characters count as junk; junk, end of file (a crash) and a
 * missed deadline are errors that forfeit the engine's game.
 *
 * The referee is the rules module (game.h): every move an engine returns is
 * checked there, passes are made by the referee (an engine is never asked
 * to move when it must pass) and told to the engines in the form each one
 * accepts: engines that accept `play b pass` where Black must pass (probed
 * once, by the first process a MatchEngine starts, on a real must-pass
 * position after a short legal line) get explicit passes,
 * the others (gtp-rhino answers a syntax error) get none and see the pass
 * implied by the next move of the same colour.
 *
 * Invariant of a game in progress: every live engine's board equals the
 * referee's Game, except for passes not yet implied to implicit-pass
 * engines.
 */
#ifndef EMILIA_MATCH_H
#define EMILIA_MATCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <pthread.h>
#include <sys/types.h>
#include "game.h"

#define MATCH_LINE_MAX 4096
#define MATCH_NAME_MAX 64
#define MATCH_CMD_MAX 2048
#define MATCH_ERR 256

/* Time control: a per-move budget, a game clock with increment, or none
 * (no time commands are sent and only the hang limit applies). */
typedef struct MatchTimeControl {
	double move_time;           /* > 0: per-move budget */
	double clock;               /* seconds per game (move_time == 0) */
	double increment;           /* seconds added after each move */
	bool none;                  /* no clock */
} MatchTimeControl;

/* An engine as given on the command line. */
typedef struct MatchEngineSpec {
	char name[MATCH_NAME_MAX];
	char cmd[MATCH_CMD_MAX];    /* run by /bin/sh -c */
	char init[MATCH_CMD_MAX];   /* GTP commands sent after start, ';'-separated */
	bool has_tc;                /* tc= given: overrides the match's clock */
	MatchTimeControl tc;
} MatchEngineSpec;

/* A shared log of all GTP traffic (and the engines' stderr), or none. */
typedef struct MatchLog {
	FILE *f;                    /* NULL: no log */
	pthread_mutex_t mu;
} MatchLog;

typedef enum {
	MATCH_REPLY_OK = 0,         /* '=' reply */
	MATCH_REPLY_FAIL,           /* '?' reply (the engine refused) */
	MATCH_REPLY_TIMEOUT,        /* no complete reply before the deadline */
	MATCH_REPLY_EOF,            /* the engine exited / closed stdout */
	MATCH_REPLY_JUNK,           /* a line that is not GTP */
	MATCH_REPLY_ABORT           /* the stop flag was raised */
} MatchReplyStatus;

typedef struct MatchEngine {
	const MatchEngineSpec *spec;
	pid_t pid;                  /* 0: not running */
	int to_fd, from_fd;         /* engine's stdin / stdout */
	char buf[MATCH_LINE_MAX + 1];
	size_t len;                 /* bytes in buf not yet consumed */
	bool probed;                /* pass convention known */
	bool explicit_pass;         /* accepts `play c pass` */
	bool int_time;              /* time_settings needs integer seconds */
	bool failed;                /* unusable (error seen): restart before reuse */
	int games;                  /* games started with this process */
	MatchReplyStatus last;      /* status of the last command */
	MatchLog *log;
	const atomic_int *stop;     /* abort waits when non-zero (may be NULL) */
	int tag;                    /* game number for the log */
	char error[MATCH_ERR];      /* last error, human readable */
} MatchEngine;

void match_ignore_sigpipe(void);

/* Parse the words after --engine: name=NAME cmd=COMMAND [init=CMDS] [tc=TC].  Each
 * word is key=value; a word that holds several of them (one shell argument
 * 'name=a cmd="x -l 1"') is split with sh-like quotes ('...', "...", \).
 * Returns the number of words consumed (>= 1) or 0 with a message in err;
 * stops at the first word that is not key=value. */
int match_parse_engine_words(int nwords, char **words, MatchEngineSpec *spec, char *err);

/* Time control: "S" (seconds per move), "M+I" (minutes per game plus
 * seconds of increment) or "none".  False on anything else. */
bool match_parse_tc(const char *s, MatchTimeControl *tc);
/* GGF clock field value, e.g. "05:00/00:02" or "00:00/00:00.1" (per move). */
void match_tc_ggf(const MatchTimeControl *tc, char *out, size_t n);

/* Engine process control. */
void match_engine_init(MatchEngine *e, const MatchEngineSpec *spec, MatchLog *log,
                       const atomic_int *stop);
/* Start the process and run the GTP handshake (protocol_version, boardsize
 * 8, the spec's init commands) within `timeout` seconds per command. */
bool match_engine_start(MatchEngine *e, double timeout);
/* Send one command and read its reply (text after "= " / "? ", lines joined
 * with '\n') within `timeout` seconds; *secs gets the time the reply took.
 * On errors other than FAIL the engine is marked failed and e->error says
 * what happened. */
MatchReplyStatus match_engine_command(MatchEngine *e, const char *cmd, double timeout,
                                      char *reply, size_t replylen, double *secs);
/* Ask to quit, wait up to `wait` seconds, then kill the process group and
 * reap it.  Safe on an engine that is not running. */
void match_engine_stop(MatchEngine *e, double wait);

/* How a game ended. */
typedef enum {
	MATCH_END_BOARD = 0,        /* neither side can move */
	MATCH_END_RESIGN,           /* genmove answered resign */
	MATCH_END_TIME,             /* over the clock, or no reply in time (hang) */
	MATCH_END_ILLEGAL,          /* illegal move (or a pass with moves left) */
	MATCH_END_CRASH,            /* the engine exited or could not start */
	MATCH_END_JUNK,             /* not GTP, unparsable move, refused a command */
	MATCH_END_ABORTED           /* the match was stopped: not a result */
} MatchEnd;

typedef struct MatchGameConfig {
	MatchTimeControl tc;
	double grace;               /* seconds tolerated beyond the clock */
	double command_timeout;     /* for commands other than genmove, and for
	                               genmove of an engine without a clock */
	Scoring scoring;
} MatchGameConfig;

typedef struct MatchGameResult {
	Game game;                  /* final position and all plies */
	int opening_plies;          /* the first plies came from the opening */
	MatchTimeControl tc[2];     /* each colour's time control */
	double ply_secs[GAME_MAX_PLY]; /* thinking time of each ply (0 for passes, opening) */
	double clock_left[2];       /* with a game clock: seconds left per colour */
	MatchEnd end;
	int loser;                  /* colour that lost by resign/forfeit, else -1 */
	int margin;                 /* Black's disc margin under the scoring rule
	                               (forfeits and resignations: +-64) */
	int winner;                 /* BLACK, WHITE, or -1 for a draw */
	char reason[512];             /* forfeit message, "" otherwise */
} MatchGameResult;

/* Play one game from `opening` (a position reached from the start; its plies
 * are sent to the engines as moves).  Engines not running are started;
 * running ones get clear_board.  Always fills *res; returns false only when
 * the game was aborted by the stop flag. */
bool match_play_game(MatchEngine *black, MatchEngine *white, const Game *opening,
                     const MatchGameConfig *cfg, MatchGameResult *res);

/* One GGF record (one line, no newline):
 * (;GM[Othello]PC[..]DT[..]PB[..]PW[..]RE[..]TI[..]TY[8]BO[8 ... *]B[..]...;) */
void match_ggf(const MatchGameResult *res, const char *black, const char *white,
               const char *date, char *out, size_t n);

const char *match_end_name(MatchEnd end);

#endif
