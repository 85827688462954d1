/*
 * options.h - the one registry of user-settable options.
 *
 * Every option is declared once in a table (name, type, default, range or
 * choices, help).  The same table serves the command line (`--threads 2`),
 * GTP (`emilia-threads 2`, `emilia-option NAME VALUE`), NBoard (`set NAME
 * VALUE`), UGI (`setoption name NAME value VALUE` and the `option` lines
 * answering `ugi`) and the terminal game.
 *
 * An Options value holds the current values as canonical strings (always
 * valid: options_set() refuses a bad value and leaves the old one).  It is
 * owned by one protocol session; there is no global copy.  The on_change
 * hook, when set, runs after each successful change so the session can pass
 * the value on (to the engine, the game...).
 */
#ifndef EMILIA_OPTIONS_H
#define EMILIA_OPTIONS_H

#include <stdbool.h>
#include "book.h"
#include "engine.h"

typedef enum {
	OPTION_INT,      /* decimal integer in [min, max] */
	OPTION_BOOL,     /* true/false (also on/off, yes/no, 1/0) */
	OPTION_CHOICE,   /* one word out of choices */
	OPTION_LEVEL,    /* easy/normal/hard or 0..60 */
	OPTION_STRING    /* free text (a file name); may be empty */
} OptionType;

typedef enum {
	OPT_THREADS,
	OPT_HASH,
	OPT_LEVEL,
	OPT_VARIANT,
	OPT_SCORING,
	OPT_SIZE,
	OPT_BOOK,
	OPT_USEBOOK,
	OPT_BOOKRANDOM,
	OPT_EVAL,
	OPT_SEED,
	OPT_OVERHEAD,
	OPT_SOLVE_LIMIT,
	OPT_COUNT
} OptionId;

#define OPTION_VALUE_MAX 512
#define OPTIONS_ERR 256   /* size of the err buffers below */

typedef struct OptionDef {
	const char *name;
	OptionType type;
	const char *def;
	long min, max;                /* OPTION_INT */
	const char *const *choices;   /* OPTION_CHOICE, NULL-terminated */
	const char *help;
} OptionDef;

typedef struct Options Options;
typedef void (*OptionsChangeFn)(void *user, const Options *o, OptionId id);

struct Options {
	char value[OPT_COUNT][OPTION_VALUE_MAX];
	OptionsChangeFn on_change;
	void *user;
	/* Sandbox (the fuzzing harness): no option or command may open, read
	 * or write a file named by the input, and threads and hash stay
	 * small (at most 2 and 16 MiB). */
	bool sandbox;
};

/* Defaults; no change hook. */
void options_init(Options *o);

const OptionDef *options_def(OptionId id);
/* Option by name: case-insensitive, '-', '_' and ' ' equivalent; -1 if
 * unknown. */
int options_find(const char *name);

/* Validate and store; on failure err (OPTIONS_ERR bytes) says why and nothing
 * changes.  Calls the change hook on success. */
bool options_set(Options *o, OptionId id, const char *value, char *err);

const char *options_get(const Options *o, OptionId id);
long options_int(const Options *o, OptionId id);
bool options_bool(const Options *o, OptionId id);
int options_level(const Options *o);        /* 0..60 or ENGINE_LEVEL_* */
Variant options_variant(const Options *o);
Scoring options_scoring(const Options *o);

/* easy/normal/hard or 0..60 -> engine level; false on anything else. */
bool options_parse_level(const char *s, int *level);
/* The canonical text of a level ("normal", "12"). */
const char *options_level_name(int level, char *buf);

/* Global command-line options: `--NAME VALUE` for every option, and
 * `--no-book`.  Parses argv[*i] (and its value); returns 1 when it was an
 * option, 0 when argv[*i] is not one, -1 on a bad value (err says why).
 * A file the user names (--book PATH, --eval PATH) is loaded at once, before
 * any protocol starts: when it cannot be loaded the program ends here with
 * "emilia: book: PATH: WHY" (or "emilia: eval: ...") on stderr and exit
 * status 1, in every mode.  The one exception is a --book file that does
 * not exist: NBoard's `learn` creates it, and the engine starts without a
 * book. */
int options_parse_arg(Options *o, int argc, char **argv, int *i, char *err);
/* Usage lines for the command-line options, to f. */
void options_print_usage(void *file);

/* What a protocol session drives: the engine and the opening book it
 * plays from (NULL when off or when no book could be opened). */
typedef struct ProtoEngine {
	Engine *engine;
	Book *book;
	char book_path[OPTION_VALUE_MAX]; /* file the book came from ("" = built in) */
} ProtoEngine;

/* Create the engine configured from the options (evaluation file, threads,
 * hash, level, seed, book).  Returns false with err set ("eval: PATH: WHY",
 * "book: PATH: WHY", ...) when the engine cannot be made, which includes a
 * --eval or --book file that cannot be loaded.  Not fatal, the engine then
 * plays without a book and book_err (OPTIONS_ERR bytes, may be NULL) says
 * why: a --book file that does not exist yet (the target of NBoard
 * `learn`), and the default book (then also a warning on stderr). */
bool options_engine_open(ProtoEngine *pe, const Options *o, char *err, char *book_err);
void options_engine_close(ProtoEngine *pe);
/* Put every option back to its value in init, passing changes on to the
 * engine (the change hook is not called). */
void options_restore(Options *o, const Options *init, ProtoEngine *pe);
/* Pass one option on to the engine (the session's change hook calls this);
 * false with err (OPTIONS_ERR bytes) set when it is refused. */
bool options_apply(const Options *o, OptionId id, ProtoEngine *pe, char *err);

#endif
