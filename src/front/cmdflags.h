/*
 * cmdflags.h - the flags of the command-line commands (solve, eval, ...)
 * as tables: each flag's name, value, range and help in one place, so that
 * parsing, range errors and each command's --help come from the same entry.
 */
#ifndef EMILIA_CMDFLAGS_H
#define EMILIA_CMDFLAGS_H

#include <stdio.h>

typedef enum {
	CMDFLAG_BOOL,   /* no value */
	CMDFLAG_INT,    /* a whole number in min..max */
	CMDFLAG_REAL,   /* a number (decimals allowed) in min..max */
	CMDFLAG_CHOICE, /* one of the words of arg, separated by '|': "8|6|4" */
	CMDFLAG_OPTION, /* an engine option (options.h): its range or choices
	                 * and, when help is NULL, its help come from the
	                 * option table; min, max and arg are not used */
	CMDFLAG_STR     /* any word; the command checks it */
} CmdFlagKind;

typedef struct CmdFlag {
	const char *name;  /* "--threads" */
	CmdFlagKind kind;
	const char *arg;   /* the value's name in the help: "N", "MB"; CMDFLAG_CHOICE: the words */
	long min, max;     /* CMDFLAG_INT, CMDFLAG_REAL */
	const char *what;  /* in a range error: "<cmd>: <what> must be MIN..MAX<unit>, not 'V'" */
	const char *unit;  /* "" or " MB" */
	const char *help;  /* one line */
	int option;        /* CMDFLAG_OPTION: its OptionId */
} CmdFlag;

/* Every board size with a geometry (perft, solve and eval count and solve
 * 4x4 too; the games, and so the option table, are 8 or 6: bounds.h). */
#define CMDFLAG_ANY_BOARD "8|6|4"

/* The value of the flag cmdflags_next() matched. */
typedef struct CmdFlagValue {
	long num;         /* CMDFLAG_INT; CMDFLAG_CHOICE and choice options: the word's index */
	double real;      /* CMDFLAG_REAL */
	const char *str;  /* the value as given (every kind but CMDFLAG_BOOL) */
} CmdFlagValue;

enum { CMDFLAG_NONE = -1, CMDFLAG_ERROR = -2 };

/* Matches argv[*i] against the table.  Returns the flag's index (having
 * advanced *i past its value, and set *v), CMDFLAG_NONE when argv[*i] is
 * no flag of the table (or one whose value is missing: the caller reports
 * it as unknown), or CMDFLAG_ERROR after printing "<cmd>: ..." on stderr
 * for a value out of range or not among the choices. */
int cmdflags_next(const char *cmd, const CmdFlag *t, int n, int argc, char **argv, int *i, CmdFlagValue *v);

/* "usage: emilia <cmd> <synopsis>" and one line per flag of the table. */
void cmdflags_help(FILE *f, const char *cmd, const char *synopsis, const CmdFlag *t, int n);

/* True when argv holds --help or -h (the command prints its help). */
int cmdflags_wants_help(int argc, char **argv);

#endif
