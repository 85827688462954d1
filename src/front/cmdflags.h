/*
 * cmdflags.h - the flags of the command-line commands (solve, eval, ...)
 * as tables: each flag's name, value, range and help in one place, so that
 * parsing, range errors and each command's --help come from the same entry.
 */
#ifndef EMILIA_CMDFLAGS_H
#define EMILIA_CMDFLAGS_H

#include <stdio.h>

typedef enum {
	CMDFLAG_BOOL, /* no value */
	CMDFLAG_INT,  /* a number in min..max */
	CMDFLAG_STR   /* any word; the command checks it */
} CmdFlagKind;

typedef struct CmdFlag {
	const char *name;  /* "--threads" */
	CmdFlagKind kind;
	const char *arg;   /* the value's name in the help: "N", "MB" */
	long min, max;     /* CMDFLAG_INT */
	const char *what;  /* in a range error: "<cmd>: <what> must be MIN..MAX<unit>, not 'V'" */
	const char *unit;  /* "" or " MB" */
	const char *help;  /* one line */
} CmdFlag;

enum { CMDFLAG_NONE = -1, CMDFLAG_ERROR = -2 };

/* Matches argv[*i] against the table.  Returns the flag's index (having
 * advanced *i past its value, and set *num or *str), CMDFLAG_NONE when
 * argv[*i] is no flag of the table (or one whose value is missing: the
 * caller reports it as unknown), or CMDFLAG_ERROR after printing
 * "<cmd>: ..." on stderr for a number out of range. */
int cmdflags_next(const char *cmd, const CmdFlag *t, int n, int argc, char **argv, int *i, long *num,
                  const char **str);

/* "usage: emilia <cmd> <synopsis>" and one line per flag of the table. */
void cmdflags_help(FILE *f, const char *cmd, const char *synopsis, const CmdFlag *t, int n);

/* True when argv holds --help or -h (the command prints its help). */
int cmdflags_wants_help(int argc, char **argv);

#endif
