/*
 * review_cli.c - `emilia review` (review.h) and `emilia show` (svg.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "cmdflags.h"
#include "options.h"
#include "progress.h"
#include "review.h"
#include "svg.h"
#include "text.h"
#include "util.h"

/* ---- review -------------------------------------------------------------- */

enum { R_WTHOR, R_GAME, R_EXACT, R_HTML, R_DIAGRAMS, R_BOARD, R_JSON, R_QUIET, R_NFLAGS };
static const CmdFlag review_flags[R_NFLAGS] = {
	[R_WTHOR] = { "--wthor", CMDFLAG_STR, "FILE", 0, 0, NULL, NULL, "a game of this WTHOR file (with --game)" },
	[R_GAME] = { "--game", CMDFLAG_INT, "N", 1, 100000000, "--game", "", "the number of the WTHOR game" },
	[R_EXACT] = { "--exact-from", CMDFLAG_INT, "EMPTIES", 0, 60, "--exact-from", " empties",
	              "the exact solves start at" },
	[R_HTML] = { "--html", CMDFLAG_STR, "FILE", 0, 0, NULL, NULL, "also write the review as a web page" },
	[R_DIAGRAMS] = { "--diagrams", CMDFLAG_INT, "N", 0, 60, "--diagrams", "", "diagrams of the page, 4 by default" },
	[R_BOARD] = { "--board", CMDFLAG_OPTION, NULL, 0, 0, "--board", NULL, "board size (default 8)", OPT_SIZE },
	[R_JSON] = { "--json", CMDFLAG_BOOL, NULL, 0, 0, NULL, NULL, "the review as one JSON document" },
	[R_QUIET] = { "--quiet", CMDFLAG_BOOL, NULL, 0, 0, NULL, NULL, "no progress lines" },
};

/* The table's flags, then the engine options (--level, --threads, --hash...:
 * the option table's lines). */
static int review_usage(FILE *f, int status)
{
	cmdflags_help(f, "review", "GAME | --wthor FILE --game N [FLAGS] [OPTIONS]", review_flags, R_NFLAGS);
	fprintf(f, "  GAME: a file (GGF, SGF or a transcript) or a transcript such as f5d6c3...\n");
	options_print_usage(f);
	return status;
}

typedef struct ReviewProgress {
	bool quiet, tty;
	double last;
	ProgressEta eta;
} ReviewProgress;

static void review_progress(void *user, int done, int total, double elapsed)
{
	ReviewProgress *p = user;
	if (p->quiet)
		return;
	/* positions get dearer towards the exact solves; the estimate only counts down */
	double raw = done > 0 ? elapsed * (total - done) / done : -1;
	double left = progress_eta_update(&p->eta, elapsed, raw);
	if (!p->tty && elapsed - p->last < 10.0)
		return; /* not a terminal: a line every 10 s (and one at the end) */
	p->last = elapsed;
	char line[200];
	progress_bar(line, sizeof line, done, total, "positions", elapsed, done < total ? left : -1, 30);
	fprintf(stderr, p->tty ? "\r%s " : "%s\n", line);
	fflush(stderr);
}

typedef struct ReviewCli {
	Options opts;
	ReviewSettings set;
	const char *game, *wthor, *html;
	long game_no, size, diagrams;
	bool json, quiet;
} ReviewCli;

/* Parses the command line into c: the table's flags, then the engine
 * options.  Returns -1, or the exit status of a usage error. */
static int review_args(ReviewCli *c, int argc, char **argv)
{
	char err[OPTIONS_ERR];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		CmdFlagValue v;
		const int f = cmdflags_next("emilia review", review_flags, R_NFLAGS, argc, argv, &i, &v);
		if (f == CMDFLAG_ERROR)
			return 2;
		if (f == R_WTHOR)
			c->wthor = v.str;
		else if (f == R_GAME)
			c->game_no = v.num;
		else if (f == R_EXACT)
			c->set.exact_from = (int)v.num;
		else if (f == R_HTML)
			c->html = v.str;
		else if (f == R_DIAGRAMS)
			c->diagrams = v.num;
		else if (f == R_BOARD)
			c->size = atol(v.str);
		else if (f == R_JSON)
			c->json = true;
		else if (f == R_QUIET)
			c->quiet = true;
		else if (a[0] == '-' && a[1] == '-') {
			int r = options_parse_arg(&c->opts, argc, argv, &i, err);
			if (r < 0) {
				fprintf(stderr, "emilia review: %s\n", err);
				return 2;
			}
			if (r == 0) {
				fprintf(stderr, "emilia review: unknown option '%s'\n", a);
				return review_usage(stderr, 2);
			}
		} else if (!c->game)
			c->game = a;
		else {
			fprintf(stderr, "emilia review: more than one game given ('%s')\n", a);
			return review_usage(stderr, 2);
		}
	}
	if (!c->game == !c->wthor || (c->wthor && c->game_no == 0) || (!c->wthor && c->game_no)) {
		fprintf(stderr, "emilia review: give one game: a file or transcript, or --wthor FILE --game N\n");
		return review_usage(stderr, 2);
	}
	return -1;
}

/* The game of the command line into rec; false with a message. */
static bool review_load(const ReviewCli *c, GameRecord *rec)
{
	char err[GAMEFILE_ERR];
	const Variant variant = options_variant(&c->opts);
	bool ok;
	struct stat st;
	if (c->wthor)
		ok = gamefile_load_wthor(c->wthor, c->game_no, rec, err);
	else if (stat(c->game, &st) == 0)
		ok = gamefile_load(c->game, (int)c->size, variant, rec, err);
	else if (strlen(c->game) > 4 * GAME_MAX_PLY) {
		/* not a file: a transcript on the command line */
		snprintf(err, sizeof err, "'%.20s...' is neither a file nor a transcript", c->game);
		ok = false;
	} else {
		char e[GAMEFILE_ERR];
		ok = gamefile_parse(c->game, (int)c->size, variant, rec, e);
		if (!ok)
			snprintf(err, sizeof err, "%s: no such file, and %.180s", c->game, e);
	}
	if (!ok)
		fprintf(stderr, "emilia review: %s\n", err);
	return ok;
}

/* The review of rec into rv, with the engine of the options (no book) and
 * the progress on stderr.  False with a message. */
static bool review_search(ReviewCli *c, const GameRecord *rec, Review *rv)
{
	char err[OPTIONS_ERR];
	ProtoEngine pe;
	options_set(&c->opts, OPT_USEBOOK, "false", err);
	if (!options_engine_open(&pe, &c->opts, err, NULL)) {
		fprintf(stderr, "emilia review: %s\n", err);
		return false;
	}
	engine_set_book(pe.engine, NULL, NULL);
	ReviewProgress prog = { c->quiet, isatty(2) != 0, 0, { false, 0, 0 } };
	progress_eta_init(&prog.eta);
	char rerr[160];
	bool ok = review_run(pe.engine, rec, &c->set, review_progress, &prog, rv, rerr, sizeof rerr);
	if (!c->quiet && prog.tty)
		fprintf(stderr, "\r%78s\r", "");
	else if (!c->quiet && ok) {
		char line[200];
		int n = rv->nmoves;
		progress_bar(line, sizeof line, n, n, "moves reviewed", rv->seconds, -1, 30);
		fprintf(stderr, "%s\n", line);
	}
	options_engine_close(&pe);
	if (!ok)
		fprintf(stderr, "emilia review: %s\n", rerr);
	return ok;
}

int cli_review(int argc, char **argv)
{
	ReviewCli c;
	memset(&c, 0, sizeof c);
	options_init(&c.opts);
	review_defaults(&c.set);
	c.size = 8;
	c.diagrams = 4;
	if (cmdflags_wants_help(argc, argv))
		return review_usage(stdout, 0);
	int rc = review_args(&c, argc, argv);
	if (rc >= 0)
		return rc;
	GameRecord rec;
	if (!review_load(&c, &rec))
		return 1;
	c.set.level = options_level(&c.opts);
	c.set.threads = (int)options_int(&c.opts, OPT_THREADS);
	c.set.hash_mb = (int)options_int(&c.opts, OPT_HASH);
	FILE *hf = NULL;
	if (c.html && !(hf = fopen(c.html, "w"))) {
		fprintf(stderr, "emilia review: %s: %s\n", c.html, strerror(errno));
		return 1;
	}
	Review *rv = malloc(sizeof *rv);
	if (!rv || !review_search(&c, &rec, rv)) {
		free(rv);
		if (hf) {
			fclose(hf);
			remove(c.html);
		}
		return 1;
	}
	if (c.json)
		review_write_json(stdout, rv);
	else
		review_write_text(stdout, rv);
	int status = 0;
	if (hf) {
		review_write_html(hf, rv, (int)c.diagrams);
		if (ferror(hf) | (fclose(hf) != 0)) {
			fprintf(stderr, "emilia review: %s: write error\n", c.html);
			status = 1;
		}
	}
	free(rv);
	return status;
}

/* ---- show ---------------------------------------------------------------- */

enum { S_SVG, S_NUMBERS, S_NO_LEGAL, S_BOARD, S_CELL, S_NFLAGS };
static const CmdFlag show_flags[S_NFLAGS] = {
	[S_SVG] = { "--svg", CMDFLAG_STR, "FILE", 0, 0, NULL, NULL, "draw the board as SVG into FILE ('-': stdout)" },
	[S_NUMBERS] = { "--numbers", CMDFLAG_BOOL, NULL, 0, 0, NULL, NULL, "the move numbers on the discs" },
	[S_NO_LEGAL] = { "--no-legal", CMDFLAG_BOOL, NULL, 0, 0, NULL, NULL, "no marks on the legal moves" },
	[S_BOARD] = { "--board", CMDFLAG_OPTION, NULL, 0, 0, "--board", NULL, "board size (default 8)", OPT_SIZE },
	[S_CELL] = { "--cell", CMDFLAG_INT, "PIXELS", 16, 200, "--cell", " pixels", "square size of the SVG" },
};

static int show_usage(FILE *f, int status)
{
	cmdflags_help(f, "show", "POSITION [FLAGS]", show_flags, S_NFLAGS);
	fprintf(f, "  POSITION: an OBF line, a transcript (f5d6c3...; '' = the start) or a game file\n"
	           "  (GGF, SGF, transcript); without --svg the board is printed as text.\n");
	return status;
}

int cli_show(int argc, char **argv)
{
	const char *pos = NULL, *svg = NULL;
	bool numbers = false, legal = true;
	long size = 8, cell = 40;
	if (cmdflags_wants_help(argc, argv))
		return show_usage(stdout, 0);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		CmdFlagValue v;
		const int f = cmdflags_next("emilia show", show_flags, S_NFLAGS, argc, argv, &i, &v);
		if (f == CMDFLAG_ERROR)
			return 2;
		if (f == S_SVG)
			svg = v.str;
		else if (f == S_NUMBERS)
			numbers = true;
		else if (f == S_NO_LEGAL)
			legal = false;
		else if (f == S_BOARD)
			size = atol(v.str);
		else if (f == S_CELL)
			cell = v.num;
		else if (!strcmp(a, "--png")) {
			fprintf(stderr, "emilia show: --png is not supported (no image library): use --svg\n");
			return 2;
		} else if (a[0] == '-' && a[1] == '-' && a[2] && strlen(a) < 20) { /* an OBF line may start with -- */
			fprintf(stderr, "emilia show: unknown option '%s'\n", a);
			return show_usage(stderr, 2);
		} else if (!pos)
			pos = a;
		else {
			fprintf(stderr, "emilia show: more than one position given\n");
			return show_usage(stderr, 2);
		}
	}
	if (!pos)
		return show_usage(stderr, 2);
	Game g;
	char err[GAMEFILE_ERR];
	struct stat st;
	ObfPosition obf;
	char oerr[TEXT_ERR];
	if (pos[0] && stat(pos, &st) == 0) {
		GameRecord rec;
		if (!gamefile_load(pos, (int)size, VARIANT_NORMAL, &rec, err)) {
			fprintf(stderr, "emilia show: %s\n", err);
			return 1;
		}
		g = rec.game;
	} else if (strlen(pos) >= (size_t)(size * size) && text_parse_obf(pos, (int)size, &obf, oerr)) {
		game_init(&g, (int)size, VARIANT_NORMAL);
		game_set(&g, obf.board, obf.side);
	} else {
		GameRecord rec;
		if (strlen(pos) > 4 * GAME_MAX_PLY || !gamefile_parse(pos[0] ? pos : "#", (int)size, VARIANT_NORMAL, &rec, err)) {
			if (!pos[0]) {
				game_init(&g, (int)size, VARIANT_NORMAL);
				goto draw;
			}
			fprintf(stderr, "emilia show: '%.40s' is not a file, an OBF position or a transcript (%s)\n", pos,
			        strlen(pos) >= (size_t)(size * size) ? oerr : err);
			return 1;
		}
		g = rec.game;
	}
draw:;
	int num[64];
	svg_move_numbers(&g, num);
	SvgBoard o;
	svg_board_defaults(&o);
	o.cell = (int)cell;
	o.legal = legal;
	o.numbers = numbers ? num : NULL;
	for (int i = g.nply - 1; i >= 0; i--)
		if (g.hist[i].move != BOARD_PASS) {
			o.last = g.hist[i].move;
			break;
		}
	if (!svg) {
		char pic[2048];
		text_board_picture(&g, legal, pic, sizeof pic);
		fputs(pic, stdout);
		return 0;
	}
	FILE *f = strcmp(svg, "-") ? fopen(svg, "w") : stdout;
	if (!f) {
		fprintf(stderr, "emilia show: %s: %s\n", svg, strerror(errno));
		return 1;
	}
	svg_board(f, &g, &o);
	if (f != stdout && (ferror(f) | (fclose(f) != 0))) {
		fprintf(stderr, "emilia show: %s: write error\n", svg);
		return 1;
	}
	return 0;
}
