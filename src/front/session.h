/*
 * session.h - the base of every text protocol: GTP, NBoard, UGI and the
 * terminal game are translators built on it.
 *
 * A Session owns what a protocol drives: its options (a copy of the
 * command line's, kept a second time so that a reset can return to it),
 * the engine and the opening book those options made (options.h), the
 * game, the background search helper (proto_search.h: NBoard and UGI
 * search in it, GTP and the terminal game search in the reader's thread
 * and leave it idle), the output and the one read-execute loop.
 *
 * A protocol is a SessionProtocol: a table of commands and hooks for what
 * only it formats.  For each line the session
 *   1. reads it with proto_read_line() (session_run) or cleans it the same
 *      way (session_execute_line);
 *   2. gives it to the protocol's frame hook when there is one (GTP: ids,
 *      comments), which returns the command text or NULL when it has
 *      answered the line itself; without one, a line too long for the
 *      buffer gets the too_long hook's answer and nothing else;
 *   3. splits the text into at most max_words words (the last keeps the
 *      rest, or too_many_words answers); a blank line does nothing;
 *   4. finds the first word in the table, in any case (with fold_case the
 *      words are lowered first, the arguments of a SESSION_RAW_ARGS command
 *      excepted); a command not flagged SESSION_ANYTIME first lets the
 *      background search finish (session_settle); a word not in the table
 *      goes to the unknown hook;
 *   5. calls the done hook (GTP sends its reply).
 * A command that sets s->quit ends the loop, and so does the end of input
 * (after the at_eof hook); then the background search is let finish.
 *
 * A protocol's own state is a struct whose first member is its Session:
 * session_new() allocates the whole of it, and the hooks and commands
 * cast the Session pointer back.
 */
#ifndef EMILIA_SESSION_H
#define EMILIA_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "engine.h"
#include "options.h"
#include "proto_io.h"
#include "proto_search.h"

typedef struct Session Session;

/* A command: argv holds its arguments, without the command word. */
typedef void (*SessionFn)(Session *s, int argc, char **argv);

enum {
	SESSION_ANYTIME = 1,  /* served at once, even while a search runs */
	SESSION_RAW_ARGS = 2  /* with fold_case: the arguments as typed (file names) */
};

typedef struct SessionCommand {
	const char *name;
	SessionFn fn;
	unsigned flags;
	const char *args, *help;  /* for a protocol that lists its commands (GTP) */
} SessionCommand;

typedef struct SessionProtocol {
	const SessionCommand *commands;  /* ends with a NULL name */
	int max_words;                   /* words of a line; 0 = PROTO_MAX_ARGS */
	bool fold_case;                  /* words to lower case first */
	char *(*frame)(Session *s, char *line, bool too_long);
	void (*too_long)(Session *s);
	void (*too_many_words)(Session *s);  /* NULL: the last word keeps the rest */
	void (*unknown)(Session *s, int argc, char **argv);  /* argv[0]: the word */
	void (*done)(Session *s);
	void (*prompt)(Session *s);      /* before each line is read */
	void (*at_eof)(Session *s);
	/* after options_set() stored a new value (the variant of the game is
	 * passed on already) */
	void (*option_changed)(Session *s, OptionId id);
	void (*reset)(Session *s);       /* the protocol's part of session_reset */
	void (*destroy)(Session *s);     /* frees what the protocol added */
} SessionProtocol;

struct Session {
	const SessionProtocol *proto;
	ProtoOut out;
	Options opts;
	Options init_opts;       /* as created: session_reset returns to them */
	ProtoEngine pe;
	Game game;
	ProtoSearch search;
	uint64_t node_cap;       /* cap on the nodes of every search; 0 = none */
	bool quit;
	char book_err[OPTIONS_ERR]; /* why the engine plays without its book, "" */
	char *line;              /* the command text being run, as one string */
	ProtoLine in;
	char words[PROTO_LINE_MAX];
};

/* A protocol object of `size` bytes (its first member a Session) writing
 * to out, configured from opts (copied), with the game of the options'
 * size and variant.  NULL with err (OPTIONS_ERR bytes) set when the engine
 * cannot be made. */
Session *session_new(const SessionProtocol *p, size_t size, FILE *out, const Options *opts, char *err);
/* Stop any search and free the object session_new() made (the
 * protocol's destroy hook first). */
void session_free(Session *s);
/* A protocol mode of `emilia`: run s on in until the end, then free it;
 * returns the exit status.  s NULL (it could not be made): err on stderr
 * and status 1. */
int session_main(Session *s, FILE *in, const char *err);
/* Stop any search; back to the options and the new game of session_new(),
 * then the protocol's reset hook. */
void session_reset(Session *s);

/* Run one line (cleaned as proto_read_line does); false once a command
 * ended the session. */
bool session_execute_line(Session *s, const char *line);
/* Read and run lines from in until a command ends the session or the
 * input ends. */
void session_run(Session *s, FILE *in);

/* Join the background search (at once when none runs). */
void session_wait(Session *s);

/* The forwarders of a protocol object of type T whose first member is its
 * Session s: PREFIX_free (NULL is fine), PREFIX_reset, PREFIX_set_node_cap
 * (the most nodes a search may visit, 0: no cap), PREFIX_wait and
 * PREFIX_execute_line, each the session's function of that name (the
 * protocol's header declares them).  One definition for every protocol. */
#define SESSION_FORWARDERS(T, prefix)                       \
	void prefix##_free(T *x)                                \
	{                                                       \
		if (x)                                              \
			session_free(&x->s);                            \
	}                                                       \
	void prefix##_reset(T *x)                               \
	{                                                       \
		session_reset(&x->s);                               \
	}                                                       \
	void prefix##_set_node_cap(T *x, uint64_t nodes)        \
	{                                                       \
		x->s.node_cap = nodes;                              \
	}                                                       \
	void prefix##_wait(T *x)                                \
	{                                                       \
		session_wait(&x->s);                                \
	}                                                       \
	bool prefix##_execute_line(T *x, const char *line)      \
	{                                                       \
		return session_execute_line(&x->s, line);           \
	}
/* Stop the background search when it has no end of its own (infinite),
 * else let it finish. */
void session_settle(Session *s);
/* A `quit` command: stop the background search and end the session. */
void session_cmd_quit(Session *s, int argc, char **argv);
/* The command of the table named `name` (any case), NULL when none. */
const SessionCommand *session_command(const SessionProtocol *p, const char *name);

/* `emilia: book: WHY (playing without it)` on stderr when a --book file
 * could not be opened (the default book warns on its own). */
void session_warn_book(const Session *s);

typedef enum {
	SESSION_OPTION_OK,
	SESSION_OPTION_BAD,      /* options_set() refused the value */
	SESSION_OPTION_REFUSED   /* the engine refused it: the old value is back */
} SessionOptionStatus;

/* Set an option and pass it on to the engine, all or nothing; err
 * (OPTIONS_ERR bytes) says why not. */
SessionOptionStatus session_set_option(Session *s, OptionId id, const char *value, char *err);

/* The limits of a search with no clock: none but the node cap. */
EngineLimits session_limits(const Session *s);
/* Search the session's game through the engine; the move is made safe
 * with proto_search_legal_move(). */
EngineInfo session_search(Session *s, const EngineLimits *lim, EngineInfoFn info, void *user);
/* The board size of the options (8 or 6). */
int session_size(const Session *s);

#endif
