/*
 * review_cli.c - `emilia review` (review.h) and `emilia show` (svg.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "options.h"
#include "progress.h"
#include "review.h"
#include "svg.h"
#include "text.h"
#include "util.h"

/* ---- review -------------------------------------------------------------- */

static int review_usage(FILE *f, int status)
{
	fprintf(f, "usage: emilia review GAME | --wthor FILE --game N\n"
	           "         [--level easy|normal|hard|0..60] [--exact-from EMPTIES] [--json] [--html FILE]\n"
	           "         [--diagrams N] [--board 8|6] [--quiet] [--threads N] [--hash MB]\n"
	           "  GAME: a file (GGF, SGF or a transcript) or a transcript such as f5d6c3...\n");
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

static bool parse_long(const char *s, long lo, long hi, long *out)
{
	return s && util_parse_int(s, lo, hi, out);
}

int cli_review(int argc, char **argv)
{
	Options opts;
	options_init(&opts);
	ReviewSettings set;
	review_defaults(&set);
	const char *game = NULL, *wthor = NULL, *html = NULL;
	long game_no = 0, size = 8, diagrams = 4;
	bool json = false, quiet = false, level_given = false;
	char err[OPTIONS_ERR > GAMEFILE_ERR ? OPTIONS_ERR : GAMEFILE_ERR];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		long x;
		if (!strcmp(a, "--wthor") && v) {
			wthor = v;
			i++;
		} else if (!strcmp(a, "--game") && v) {
			if (!parse_long(v, 1, 100000000, &game_no)) {
				fprintf(stderr, "emilia review: --game must be a game number from 1\n");
				return 2;
			}
			i++;
		} else if (!strcmp(a, "--exact-from") && v) {
			if (!parse_long(v, 0, 60, &x)) {
				fprintf(stderr, "emilia review: --exact-from must be 0..60 empties\n");
				return 2;
			}
			set.exact_from = (int)x;
			i++;
		} else if (!strcmp(a, "--html") && v) {
			html = v;
			i++;
		} else if (!strcmp(a, "--diagrams") && v) {
			if (!parse_long(v, 0, 60, &diagrams)) {
				fprintf(stderr, "emilia review: --diagrams must be 0..60\n");
				return 2;
			}
			i++;
		} else if (!strcmp(a, "--board") && v) {
			if (!parse_long(v, 6, 8, &size) || size == 7) {
				fprintf(stderr, "emilia review: --board must be 8 or 6\n");
				return 2;
			}
			i++;
		} else if (!strcmp(a, "--json"))
			json = true;
		else if (!strcmp(a, "--quiet"))
			quiet = true;
		else if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return review_usage(stdout, 0);
		else if (a[0] == '-' && a[1] == '-') {
			if (!strcmp(a, "--level"))
				level_given = true;
			int r = options_parse_arg(&opts, argc, argv, &i, err);
			if (r < 0) {
				fprintf(stderr, "emilia review: %s\n", err);
				return 2;
			}
			if (r == 0) {
				fprintf(stderr, "emilia review: unknown option '%s'\n", a);
				return review_usage(stderr, 2);
			}
		} else if (!game)
			game = a;
		else {
			fprintf(stderr, "emilia review: more than one game given ('%s')\n", a);
			return review_usage(stderr, 2);
		}
	}
	(void)level_given;
	if (!game == !wthor || (wthor && game_no == 0) || (!wthor && game_no)) {
		fprintf(stderr, "emilia review: give one game: a file or transcript, or --wthor FILE --game N\n");
		return review_usage(stderr, 2);
	}
	GameRecord rec;
	bool ok;
	if (wthor)
		ok = gamefile_load_wthor(wthor, game_no, &rec, err);
	else {
		struct stat st;
		if (stat(game, &st) == 0)
			ok = gamefile_load(game, (int)size, options_variant(&opts), &rec, err);
		else {
			/* not a file: a transcript on the command line */
			if (strlen(game) > 4 * GAME_MAX_PLY) {
				snprintf(err, sizeof err, "'%.20s...' is neither a file nor a transcript", game);
				ok = false;
			} else {
				char e[GAMEFILE_ERR];
				ok = gamefile_parse(game, (int)size, options_variant(&opts), &rec, e);
				if (!ok)
					snprintf(err, sizeof err, "%s: no such file, and %.180s", game, e);
			}
		}
	}
	if (!ok) {
		fprintf(stderr, "emilia review: %s\n", err);
		return 1;
	}
	set.level = options_level(&opts);
	set.threads = (int)options_int(&opts, OPT_THREADS);
	set.hash_mb = (int)options_int(&opts, OPT_HASH);
	FILE *hf = NULL;
	if (html) {
		hf = fopen(html, "w");
		if (!hf) {
			fprintf(stderr, "emilia review: %s: %s\n", html, strerror(errno));
			return 1;
		}
	}
	ProtoEngine pe;
	options_set(&opts, OPT_USEBOOK, "false", err);
	if (!options_engine_open(&pe, &opts, err, NULL)) {
		fprintf(stderr, "emilia review: %s\n", err);
		if (hf) {
			fclose(hf);
			remove(html);
		}
		return 1;
	}
	engine_set_book(pe.engine, NULL, NULL);
	Review *rv = malloc(sizeof *rv);
	if (!rv) {
		options_engine_close(&pe);
		if (hf)
			fclose(hf);
		return 1;
	}
	ReviewProgress prog = { quiet, isatty(2) != 0, 0, { false, 0, 0 } };
	progress_eta_init(&prog.eta);
	char rerr[160];
	ok = review_run(pe.engine, &rec, &set, review_progress, &prog, rv, rerr, sizeof rerr);
	if (!quiet && prog.tty)
		fprintf(stderr, "\r%78s\r", "");
	else if (!quiet && ok) {
		char line[200];
		int n = rv->nmoves;
		progress_bar(line, sizeof line, n, n, "moves reviewed", rv->seconds, -1, 30);
		fprintf(stderr, "%s\n", line);
	}
	options_engine_close(&pe);
	if (!ok) {
		fprintf(stderr, "emilia review: %s\n", rerr);
		free(rv);
		if (hf) {
			fclose(hf);
			remove(html);
		}
		return 1;
	}
	if (json)
		review_write_json(stdout, rv);
	else
		review_write_text(stdout, rv);
	int status = 0;
	if (hf) {
		review_write_html(hf, rv, (int)diagrams);
		if (ferror(hf) | (fclose(hf) != 0)) {
			fprintf(stderr, "emilia review: %s: write error\n", html);
			status = 1;
		}
	}
	free(rv);
	return status;
}

/* ---- show ---------------------------------------------------------------- */

static int show_usage(FILE *f, int status)
{
	fprintf(f, "usage: emilia show POSITION [--svg FILE] [--numbers] [--no-legal] [--board 8|6] [--cell PIXELS]\n"
	           "  POSITION: an OBF line, a transcript (f5d6c3...; '' = the start) or a game file\n"
	           "  (GGF, SGF, transcript); without --svg the board is printed as text.\n");
	return status;
}

int cli_show(int argc, char **argv)
{
	const char *pos = NULL, *svg = NULL;
	bool numbers = false, legal = true;
	long size = 8, cell = 40;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--svg") && v) {
			svg = v;
			i++;
		} else if (!strcmp(a, "--png")) {
			fprintf(stderr, "emilia show: --png is not supported (no image library): use --svg\n");
			return 2;
		} else if (!strcmp(a, "--numbers"))
			numbers = true;
		else if (!strcmp(a, "--no-legal"))
			legal = false;
		else if (!strcmp(a, "--board") && v) {
			if (!util_parse_int(v, 6, 8, &size) || size == 7) {
				fprintf(stderr, "emilia show: --board must be 8 or 6\n");
				return 2;
			}
			i++;
		} else if (!strcmp(a, "--cell") && v) {
			if (!util_parse_int(v, 16, 200, &cell)) {
				fprintf(stderr, "emilia show: --cell must be 16..200 pixels\n");
				return 2;
			}
			i++;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return show_usage(stdout, 0);
		else if (a[0] == '-' && a[1] == '-' && a[2] && strlen(a) < 20) { /* an OBF line may start with -- */
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
