/*
 * solve_cli.c - `emilia solve`: exact (or WLD) solves of OBF positions.
 *
 * Input: an OBF file (one position per line; blank lines and lines
 * starting with '#' or '%' are skipped), or, when the argument is not a
 * readable file, a single OBF line or a transcript from the start position.
 * Output: a table on stdout (or JSON Lines with --json), progress on
 * stderr, malformed lines reported on stderr with their line number and
 * skipped.  Exit status: 0 when every position was solved and agrees with
 * the file's expected score; 1 when a result is WRONG or a line was
 * malformed or a solve was interrupted; 2 for a usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cmdflags.h"
#include "endgame.h"
#include "options.h"
#include "progress.h"
#include "text.h"
#include "util.h"

typedef struct SolveCli {
	EndgameOptions opt;
	bool json;
	bool quiet;
	const char *source;  /* file name, for messages */
	FILE *results;       /* --results: OBF result lines (RESULTS.tmp until the end) */
	int n;               /* position number (non-blank, non-comment lines) */
	int positions;       /* solved */
	int wrong;
	int malformed;
	int aborted;
	uint64_t nodes;
	double seconds;
	/* progress state */
	int cur_n;
	double last_report;
	ProgressEta eta;     /* time left shown, per position */
	bool tty;
} SolveCli;

#define DISABLE_NAMES "lastn,parity,tt,stability,etc,fastest,sortsearch,aspiration,presearch,local"

enum { F_THREADS, F_HASH, F_BOARD, F_VARIANT, F_DISABLE, F_RESULTS, F_WLD, F_JSON, F_QUIET, NFLAGS };
static const CmdFlag flags[NFLAGS] = {
	[F_THREADS] = { "--threads", CMDFLAG_OPTION, "N", 0, 0, "threads", "", "search threads", OPT_THREADS },
	[F_HASH] = { "--hash", CMDFLAG_OPTION, "MB", 0, 0, "hash", " MB", "transposition table size", OPT_HASH },
	[F_BOARD] = { "--board", CMDFLAG_CHOICE, CMDFLAG_ANY_BOARD, 0, 0, "board size", NULL, "board size (default 8)" },
	[F_VARIANT] = { "--variant", CMDFLAG_OPTION, NULL, 0, 0, "variant", NULL, "rules (default normal)",
	                OPT_VARIANT },
	[F_DISABLE] = { "--disable", CMDFLAG_STR, "LIST", 0, 0, NULL, NULL,
	                "switch solver techniques off (benchmarks): " DISABLE_NAMES },
	[F_RESULTS] = { "--results", CMDFLAG_STR, "FILE", 0, 0, NULL, NULL, "write one result line per position" },
	[F_WLD] = { "--wld", CMDFLAG_BOOL, NULL, 0, 0, NULL, NULL, "win/loss/draw only" },
	[F_JSON] = { "--json", CMDFLAG_BOOL, NULL, 0, 0, NULL, NULL, "one JSON object per position" },
	[F_QUIET] = { "--quiet", CMDFLAG_BOOL, NULL, 0, 0, NULL, NULL, "no progress lines" },
};
#define SYNOPSIS "FILE.obf|OBF-LINE|TRANSCRIPT [FLAGS]"

static int usage(void)
{
	cmdflags_help(stderr, "solve", SYNOPSIS, flags, NFLAGS);
	return 2;
}

/* Progress on stderr for solves longer than 2 s.  The raw estimate
 * assumes the first root move (full window) costs about as much as three
 * of the others (null windows): rough, and reset by each aspiration pass,
 * so what is shown only counts down (progress.h). */
static void progress(void *user, int bound, uint64_t nodes, double elapsed, int move_index, int moves)
{
	SolveCli *c = user;
	if (c->quiet || elapsed < 2.0 || elapsed - c->last_report < (c->tty ? 1.0 : 10.0))
		return;
	c->last_report = elapsed;
	char est[64] = "";
	if (moves > 0) {
		double left = progress_eta_update(&c->eta, elapsed, progress_solve_raw(elapsed, move_index, moves));
		if (left > 0)
			snprintf(est, sizeof est, ", move %d/%d, ~%.0f s left", move_index + 1, moves, left);
		else
			snprintf(est, sizeof est, ", move %d/%d, finishing", move_index + 1, moves);
	}
	fprintf(stderr, "%sposition %d: bound %+d, %llu nodes, %.1f s, %.1f Mn/s%s%s", c->tty ? "\r" : "", c->cur_n,
	        bound, (unsigned long long)nodes, elapsed, elapsed > 0 ? nodes / elapsed / 1e6 : 0.0, est,
	        c->tty ? "   " : "\n");
	fflush(stderr);
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

/* The index of the technique named by the LEN bytes at S in DISABLE_NAMES
 * (its bit in EndgameOptions.features), or -1. */
static int disable_index(const char *s, size_t len)
{
	int k = 0;
	for (const char *n = DISABLE_NAMES; *n; k++) {
		size_t l = strcspn(n, ",");
		if (l == len && !strncmp(s, n, len))
			return k;
		n += l;
		if (*n == ',')
			n++;
	}
	return -1;
}

static bool parse_disable(const char *list, unsigned *features)
{
	unsigned f = *features ? *features : ENDGAME_F_ALL;
	const char *s = list;
	while (*s) {
		size_t len = strcspn(s, ",");
		int k = disable_index(s, len);
		if (k < 0)
			return false;
		f &= ~(1u << k);
		s += len;
		if (*s == ',')
			s++;
	}
	*features = f ? f : (1u << 31); /* nonzero: 0 would mean "all" */
	return true;
}

static void solve_one(SolveCli *c, const ObfPosition *pos)
{
	const int size = c->opt.size;
	c->cur_n = c->n;
	c->last_report = 0;
	progress_eta_init(&c->eta);
	EndgameResult r = endgame_solve(pos->board, &c->opt);
	if (!c->quiet && c->tty && r.seconds >= 2.0)
		fprintf(stderr, "\r%60s\r", "");
	int empties = bit_count(board_geometry(size) & ~(pos->board.p | pos->board.o));
	char mv[8], obf[80];
	if (r.move == BOARD_NOMOVE)
		strcpy(mv, "--");
	else
		text_square(r.move, mv);
	text_write_obf(pos->board, pos->side, size, obf);
	int exp = 0;
	bool listed = false;
	bool has_exp = text_obf_expected(pos, r.move, &exp, &listed);
	bool ok = true;
	if (has_exp) {
		if (c->opt.wld) {
			int sign = exp > 0 ? 1 : exp < 0 ? -1 : 0;
			ok = r.score == sign;
		} else {
			ok = r.score == exp && listed;
		}
	}
	if (r.aborted)
		ok = false;
	double nps = r.seconds > 0 ? (double)r.nodes / r.seconds : 0;
	c->positions++;
	c->nodes += r.nodes;
	c->seconds += r.seconds;
	if (r.aborted)
		c->aborted++;
	else if (has_exp && !ok)
		c->wrong++;
	if (c->results) {
		char line[128];
		text_write_obf_result(pos->board, pos->side, size, r.move, r.score, c->opt.wld, line);
		fprintf(c->results, "%s\n", line);
	}
	if (c->json) {
		printf("{\"n\":%d,\"board\":", c->n);
		json_string(obf);
		printf(",\"empties\":%d,\"move\":\"%s\",\"score\":%d,\"nodes\":%llu,\"seconds\":%.3f,\"nps\":%.0f",
		       empties, mv, r.score, (unsigned long long)r.nodes, r.seconds, nps);
		if (has_exp)
			printf(",\"expected\":%d,\"ok\":%s", c->opt.wld ? (exp > 0) - (exp < 0) : exp,
			       ok ? "true" : "false");
		if (r.aborted)
			printf(",\"aborted\":true");
		printf("}\n");
	} else {
		char sc[16];
		snprintf(sc, sizeof sc, "%+d", r.score);
		printf("%4d %7d %5s %9s %14llu %9.3f %12.0f  %s\n", c->n, empties, mv, sc,
		       (unsigned long long)r.nodes, r.seconds, nps,
		       r.aborted ? "ABORTED" : has_exp ? (ok ? "ok" : "WRONG") : "-");
	}
	fflush(stdout);
}

static void header(const SolveCli *c)
{
	if (!c->json)
		printf("%4s %7s %5s %9s %14s %9s %12s  %s\n", "n", "empties", "move", "score", "nodes", "seconds",
		       "nodes/s", "result");
}

static void totals(const SolveCli *c)
{
	double nps = c->seconds > 0 ? (double)c->nodes / c->seconds : 0;
	if (c->json) {
		printf("{\"totals\":true,\"positions\":%d,\"wrong\":%d,\"malformed\":%d,\"aborted\":%d,"
		       "\"nodes\":%llu,\"seconds\":%.3f,\"nps\":%.0f}\n",
		       c->positions, c->wrong, c->malformed, c->aborted, (unsigned long long)c->nodes, c->seconds, nps);
	} else {
		printf("totals: positions %d, wrong %d, malformed %d, nodes %llu, seconds %.3f, nodes/s %.0f\n",
		       c->positions, c->wrong, c->malformed, (unsigned long long)c->nodes, c->seconds, nps);
	}
}

/* One line of a file: skip blanks and comments, report malformed lines. */
static void solve_line(SolveCli *c, char *line, long lineno)
{
	ObfPosition pos;
	char err[TEXT_ERR];
	int k = text_obf_file_line(line, c->opt.size, &pos, err);
	if (!k)
		return;
	c->n++;
	if (k < 0) {
		fprintf(stderr, "%s:%ld: %s (line skipped)\n", c->source, lineno, err);
		c->malformed++;
		return;
	}
	solve_one(c, &pos);
}

static void solve_line_cb(void *user, char *line, long lineno)
{
	solve_line(user, line, lineno);
}

/* The tables of this command's solves, kept from one position to the next
 * (for the program's life: nothing else solves). */
static EndgameTables *solve_tables;

/* Make the solver's tables now (mapped, not written), and say so on stderr
 * when the table had to be smaller than asked (never silently solve
 * without one). */
static void reserve_table(EndgameOptions *opt)
{
	const uint64_t want = opt->hash_mb > 0 ? (uint64_t)opt->hash_mb << 20 : 0;
	uint64_t got = 0;
	if (!solve_tables)
		solve_tables = endgame_tables_new();
	opt->tables = solve_tables; /* NULL (out of memory): each solve makes its own */
	if (!solve_tables || !endgame_tables_reserve(solve_tables, want, &got, true)
	    || got >= endgame_table_size_for(want))
		return; /* (in use: cannot happen here, nothing else solves) */
	char size[32];
	if (got >= (1u << 20))
		snprintf(size, sizeof size, "%llu MiB", (unsigned long long)(got >> 20));
	else
		snprintf(size, sizeof size, "%llu KiB", (unsigned long long)(got >> 10));
	fprintf(stderr, "solve: cannot allocate %d MiB of hash: solving with %s%s\n",
	        opt->hash_mb > 0 ? opt->hash_mb : (int)(endgame_table_size_for(0) >> 20),
	        got ? "a table of " : "no table", got ? size : "");
}

/* Solves the file named INPUT, or else INPUT itself as one OBF line or a
 * transcript.  Returns 0, or the command's exit status on an error. */
static int solve_input(SolveCli *c, const char *input, int npos)
{
	FILE *f = npos == 1 ? fopen(input, "r") : NULL;
	if (f) {
		c->source = input;
		header(c);
		int rc = util_for_each_line(f, solve_line_cb, c) ? 0 : 1;
		if (ferror(f)) {
			fprintf(stderr, "solve: %s: read error: %s\n", input, strerror(errno));
			rc = 1;
		}
		fclose(f);
		return rc;
	}
	ObfPosition pos;
	char err[TEXT_ERR], err2[TEXT_ERR];
	if (!text_parse_obf(input, c->opt.size, &pos, err)) {
		Game g;
		game_init(&g, c->opt.size, c->opt.variant);
		if (!text_apply_transcript(&g, input, err2)) {
			fprintf(stderr, "solve: '%.60s%s' is not a readable file, an OBF line (%s) or a transcript (%s)\n",
			        input, strlen(input) > 60 ? "..." : "", err, err2);
			return 2;
		}
		memset(&pos, 0, sizeof pos);
		pos.board = g.board;
		pos.side = g.side;
	}
	c->source = "argument";
	c->n = 1;
	header(c);
	solve_one(c, &pos);
	return 0;
}

/* The words of the input: positional words are joined, since an OBF line
 * may come as two words.  False with a message when too long. */
static bool add_input(char *input, size_t size, size_t *len, const char *a)
{
	size_t l = strlen(a);
	if (*len + l + 2 > size) {
		fprintf(stderr, "solve: input too long\n");
		return false;
	}
	if (*len)
		input[(*len)++] = ' ';
	memcpy(input + *len, a, l + 1);
	*len += l;
	return true;
}

/* The value of flag F (not one of the booleans) into c; false with a
 * message for a value the table's range lets through but the command
 * refuses. */
static bool set_flag(SolveCli *c, int f, const CmdFlagValue *v)
{
	char why[128];
	switch (f) {
	case F_THREADS:
		c->opt.threads = (int)v->num;
		return true;
	case F_HASH:
		if (util_hash_refused(v->num, util_mem_available(), why, sizeof why)) {
			fprintf(stderr, "solve: %s\n", why);
			return false;
		}
		c->opt.hash_mb = (int)v->num;
		return true;
	case F_BOARD:
		c->opt.size = atoi(v->str);
		return true;
	case F_VARIANT:
		c->opt.variant = !strcmp(v->str, "anti") ? VARIANT_ANTI : VARIANT_NORMAL;
		return true;
	case F_DISABLE:
		if (parse_disable(v->str, &c->opt.features))
			return true;
		fprintf(stderr, "solve: --disable takes a comma-separated list of %s, not '%s'\n", DISABLE_NAMES, v->str);
		return false;
	case F_WLD:
		c->opt.wld = true;
		return true;
	case F_JSON:
		c->json = true;
		return true;
	case F_QUIET:
		c->quiet = true;
		return true;
	default:
		return true;
	}
}

/* Parses the command line into c, the input words and the --results
 * file.  Returns -1, or the exit status of a usage error. */
static int parse_args(SolveCli *c, int argc, char **argv, char *input, size_t size, int *npos,
                      const char **results)
{
	size_t ilen = 0;
	input[0] = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		CmdFlagValue v;
		const int f = cmdflags_next("solve", flags, NFLAGS, argc, argv, &i, &v);
		if (f == CMDFLAG_ERROR)
			return 2;
		if (f == F_RESULTS) {
			*results = v.str;
		} else if (f >= 0) {
			if (!set_flag(c, f, &v))
				return 2;
		} else if (a[0] == '-' && a[1] == '-' && a[2] && strlen(a) < 16) {
			/* (longer words are boards: an OBF line may start with "--") */
			fprintf(stderr, "solve: unknown option '%s'\n", a);
			return usage();
		} else {
			if (!add_input(input, size, &ilen, a))
				return 2;
			++*npos;
		}
	}
	return *npos ? -1 : usage();
}

/* The end of --results: the file appears under its name only when
 * complete (the solves all done, OK), else RESULTS.tmp goes.  Returns
 * false with a message when it cannot be written. */
static bool close_results(SolveCli *c, const char *results, const char *tmp, bool ok)
{
	if (!c->results)
		return true;
	if (!ok) {
		fclose(c->results);
		remove(tmp);
		return true;
	}
	if (fflush(c->results) || ferror(c->results) || fsync(fileno(c->results)) || fclose(c->results)
	    || rename(tmp, results)) {
		fprintf(stderr, "solve: cannot write %s: %s\n", results, strerror(errno));
		remove(tmp);
		return false;
	}
	return true;
}

int cli_solve(int argc, char **argv)
{
	SolveCli c;
	memset(&c, 0, sizeof c);
	c.opt = endgame_default_options();
	char input[4096];
	int npos = 0;
	const char *results = NULL;
	if (cmdflags_wants_help(argc, argv)) {
		cmdflags_help(stdout, "solve", SYNOPSIS, flags, NFLAGS);
		return 0;
	}
	int rc = parse_args(&c, argc, argv, input, sizeof input, &npos, &results);
	if (rc >= 0)
		return rc;
	char results_tmp[4096];
	if (results) {
		snprintf(results_tmp, sizeof results_tmp, "%s.tmp", results);
		if (!(c.results = fopen(results_tmp, "w"))) {
			fprintf(stderr, "solve: cannot write %s: %s\n", results_tmp, strerror(errno));
			return 2;
		}
	}
	reserve_table(&c.opt);
	c.tty = isatty(fileno(stderr));
	c.opt.progress_root = progress;
	c.opt.progress_user = &c;
	rc = solve_input(&c, input, npos);
	if (rc) {
		close_results(&c, results, results_tmp, false);
		return rc;
	}
	totals(&c);
	if (!close_results(&c, results, results_tmp, true))
		return 1;
	return c.wrong || c.malformed || c.aborted ? 1 : 0;
}
