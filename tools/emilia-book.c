/*
 * emilia-book - build, check and convert Emilia opening books.
 *
 * The book itself (format, values, probing) is src/book.{h,c}; this file is
 * the command line around it: game readers (WTHOR archives, transcripts,
 * Logistello's logbook lines), the engine-backed search function used for
 * leaves and deviations (booksearch.h: one Engine per worker thread), progress output
 * and atomic saving.  Every command that changes a book writes it with
 * book_save(), so an interrupted run leaves the previous file intact.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "book.h"
#include "booksearch.h"
#include "engine.h"
#include "text.h"
#include "util.h"
#include "version.h"

#define MAX_THREADS BOOKSEARCH_MAX_THREADS

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: emilia-book COMMAND ARGS\n"
	        "  new BOOK [--force]                 create an empty book\n"
	        "  add BOOK [--plies N] [--min-games K] FILE...\n"
	        "                                     add games: .wtb (WTHOR) files, or text files with one\n"
	        "                                     game per line (f5d6c3..., or +d3-c3...: logbook lines;\n"
	        "                                     .gz files are read through gzip -dc)\n"
	        "  leaves BOOK --level L [--threads T] [--hash MB]\n"
	        "                                     search every unknown leaf at level L, then fix\n"
	        "  deviate BOOK --level L --margin M [--max-ply P] [--max-positions N] [--threads T]\n"
	        "               [--hash MB]           expand the book from the start position: add the\n"
	        "                                     leaves within M discs of the best move, up to P plies\n"
	        "  fix BOOK                           negamax every value again\n"
	        "  merge OUT IN...                    OUT = union of the IN books (OUT may be one of them)\n"
	        "  stats BOOK                         counts, exact values, depth histogram, root value\n"
	        "  verify BOOK                        checksum and internal consistency (exit 1 if broken)\n"
	        "  export BOOK TEXT                   write the text format (one position per line)\n"
	        "  import TEXT BOOK                   read the text format into a new book file\n"
	        "  probe BOOK [MOVES]                 book moves after a transcript (default: start)\n"
	        "  learn BOOK MOVES                   add one game (a transcript) and fix\n"
	        "  synth OUT --positions N [--seed S] a synthetic book of random-game positions (benchmarks)\n"
	        "  bench BOOK|--default [--probes N]  open time, memory and probe speed\n"
	        "Options: --quiet (no progress lines).  See book/FORMAT.md.\n");
}

/* Progress lines on stderr; user points to the command's `quiet` flag. */
static void progress(void *user, const char *phase, uint64_t done, uint64_t total)
{
	if (user && *(const bool *)user)
		return;
	if (total)
		fprintf(stderr, "%s: %llu/%llu (%.1f%%)\n", phase, (unsigned long long)done,
		        (unsigned long long)total, 100.0 * (double)done / (double)total);
	else
		fprintf(stderr, "%s: %llu\n", phase, (unsigned long long)done);
}

/* A book file; NULL after "emilia-book: PATH: WHY" on stderr (book_open's
 * message names the whole path, so that of several books the refused one
 * is known). */
static Book *open_book(const char *path)
{
	char err[BOOK_ERR];
	Book *b = book_open(path, err);
	if (!b)
		fprintf(stderr, "emilia-book: %s\n", err);
	return b;
}

static bool save_book(Book *b, const char *path, const bool *quiet)
{
	char err[BOOK_ERR];
	if (!book_save(b, path, progress, (void *)quiet, err)) {
		fprintf(stderr, "emilia-book: %s\n", err);
		return false;
	}
	return true;
}

/* ---- reading games ------------------------------------------------------- */

typedef struct AddStats {
	uint64_t games, rejected;
} AddStats;

/* A transcript or logbook line into g: squares a1..h8 in any case; '+',
 * '-', spaces and explicit "pa"/"pass" tokens are skipped (passes are
 * implied); stops at ':' (logbook result), '#' or ';'.  false + err on an
 * illegal move or stray character. */
static bool parse_game_line(const char *s, Game *g, char *err)
{
	game_init(g, 8, VARIANT_NORMAL);
	int n = 0;
	while (*s && *s != ':' && *s != '#' && *s != ';' && *s != '\n' && *s != '\r') {
		char c = *s;
		if (c == '+' || c == '-' || c == ' ' || c == '\t' || c == ',') {
			s++;
			continue;
		}
		if ((c == 'p' || c == 'P') && (s[1] == 'a' || s[1] == 'A')) {
			s += 2;
			if ((s[0] == 's' || s[0] == 'S') && (s[1] == 's' || s[1] == 'S'))
				s += 2;
			continue;
		}
		char sq[3] = { c, s[1], 0 };
		int m = s[1] ? text_parse_square(sq, 8) : -1;
		if (m < 0) {
			snprintf(err, 160, "unexpected text at '%.8s'", s);
			return false;
		}
		s += 2;
		n++;
		if (game_must_pass(g))
			game_play(g, BOARD_PASS);
		if (game_play(g, m) != GAME_OK) {
			snprintf(err, 160, "illegal move %s at move %d", sq, n);
			return false;
		}
	}
	if (!n) {
		snprintf(err, 160, "no moves");
		return false;
	}
	return true;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcasecmp(s + a - b, suffix);
}

static bool add_text(Book *b, const char *path, int plies, AddStats *st)
{
	FILE *f;
	bool piped = ends_with(path, ".gz");
	if (piped) {
		if (strchr(path, '\'')) {
			fprintf(stderr, "emilia-book: %s: quote in file name\n", path);
			return false;
		}
		char cmd[4200];
		snprintf(cmd, sizeof cmd, "gzip -dc -- '%s'", path);
		f = popen(cmd, "r");
	} else {
		f = fopen(path, "r");
	}
	if (!f) {
		perror(path);
		return false;
	}
	char line[4096], err[BOOK_ERR];
	long lineno = 0;
	Game g;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		const char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '\n' || *s == '\r' || *s == '#' || *s == '%')
			continue;
		if (!parse_game_line(s, &g, err)) {
			if (st->rejected++ < 10)
				fprintf(stderr, "%s:%ld: skipped: %s\n", path, lineno, err);
			continue;
		}
		if (!book_add_game(b, &g, plies, err)) {
			fprintf(stderr, "emilia-book: %s\n", err);
			break;
		}
		st->games++;
	}
	bool ok = piped ? pclose(f) == 0 : fclose(f) == 0;
	if (!ok)
		fprintf(stderr, "emilia-book: %s: read error\n", path);
	return ok;
}

static bool add_wthor(Book *b, const char *path, int plies, AddStats *st)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return false;
	}
	unsigned char h[16], r[68];
	if (fread(h, 1, 16, f) != 16) {
		fprintf(stderr, "emilia-book: %s: not a WTHOR file (short header)\n", path);
		fclose(f);
		return false;
	}
	uint32_t n = (uint32_t)h[4] | (uint32_t)h[5] << 8 | (uint32_t)h[6] << 16 | (uint32_t)h[7] << 24;
	if (h[12] != 0 && h[12] != 8) {
		fprintf(stderr, "emilia-book: %s: board size %d, only 8x8 games are used\n", path, h[12]);
		fclose(f);
		return false;
	}
	char err[BOOK_ERR];
	Game g;
	uint32_t i;
	for (i = 0; i < n && fread(r, 1, 68, f) == 68; i++) {
		game_init(&g, 8, VARIANT_NORMAL);
		bool ok = true;
		int k;
		for (k = 0; k < 60 && r[8 + k]; k++) {
			int x = r[8 + k], row = x / 10, col = x % 10;
			if (row < 1 || row > 8 || col < 1 || col > 8) {
				ok = false;
				break;
			}
			if (game_must_pass(&g))
				game_play(&g, BOARD_PASS);
			if (game_play(&g, (row - 1) * 8 + col - 1) != GAME_OK) {
				ok = false;
				break;
			}
		}
		if (!ok || !k) {
			if (st->rejected++ < 10)
				fprintf(stderr, "%s: game %u skipped: illegal move %d at move %d\n", path, i + 1,
				        r[8 + k], k + 1);
			continue;
		}
		if (!book_add_game(b, &g, plies, err)) {
			fprintf(stderr, "emilia-book: %s\n", err);
			fclose(f);
			return false;
		}
		st->games++;
	}
	if (i < n)
		fprintf(stderr, "%s: warning: header announces %u games, file holds %u\n", path, n, i);
	fclose(f);
	return true;
}

/* ---- commands ------------------------------------------------------------------ */

typedef struct Opts {
	long plies, min_games, level, margin, max_ply, max_positions, threads, hash, positions, seed,
	    probes;
	bool force, has_level, has_margin, use_default, quiet;
	const char *pos[64];
	int npos;
} Opts;

static bool parse_opts(int argc, char **argv, Opts *o)
{
	memset(o, 0, sizeof *o);
	o->min_games = 1;
	o->max_ply = 60;
	o->threads = 1;
	o->hash = 16;
	o->seed = 1;
	o->probes = 1000000;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		long *target = NULL, lo = 0, hi = 0;
		if (!strcmp(a, "--plies"))
			target = &o->plies, lo = 0, hi = 60;
		else if (!strcmp(a, "--min-games"))
			target = &o->min_games, lo = 1, hi = 1000000000;
		else if (!strcmp(a, "--level"))
			target = &o->level, lo = 0, hi = 60, o->has_level = true;
		else if (!strcmp(a, "--margin"))
			target = &o->margin, lo = 0, hi = 128, o->has_margin = true;
		else if (!strcmp(a, "--max-ply"))
			target = &o->max_ply, lo = 1, hi = 60;
		else if (!strcmp(a, "--max-positions"))
			target = &o->max_positions, lo = 1, hi = 2000000000;
		else if (!strcmp(a, "--threads"))
			target = &o->threads, lo = 1, hi = MAX_THREADS;
		else if (!strcmp(a, "--hash"))
			target = &o->hash, lo = 1, hi = 65536;
		else if (!strcmp(a, "--positions"))
			target = &o->positions, lo = 1, hi = 100000000;
		else if (!strcmp(a, "--seed"))
			target = &o->seed, lo = 0, hi = 2000000000;
		else if (!strcmp(a, "--probes"))
			target = &o->probes, lo = 1, hi = 1000000000;
		if (target) {
			if (i + 1 >= argc || !util_parse_int(argv[i + 1], lo, hi, target)) {
				fprintf(stderr, "emilia-book: %s needs a number in %ld..%ld\n", a, lo, hi);
				return false;
			}
			i++;
		} else if (!strcmp(a, "--force")) {
			o->force = true;
		} else if (!strcmp(a, "--default")) {
			o->use_default = true;
		} else if (!strcmp(a, "--quiet")) {
			o->quiet = true;
		} else if (a[0] == '-' && a[1] == '-') {
			fprintf(stderr, "emilia-book: unknown option %s\n", a);
			return false;
		} else if (o->npos < 64) {
			o->pos[o->npos++] = a;
		} else {
			fprintf(stderr, "emilia-book: too many arguments\n");
			return false;
		}
	}
	return true;
}

static int cmd_new(const Opts *o)
{
	if (o->npos != 1)
		return usage(stderr), 2;
	struct stat st; /* (stat, not fopen: a FIFO there must not block) */
	if (stat(o->pos[0], &st) == 0 && !o->force) {
		fprintf(stderr, "emilia-book: %s exists (use --force to replace it)\n", o->pos[0]);
		return 1;
	}
	Book *b = book_new();
	bool ok = save_book(b, o->pos[0], &o->quiet);
	book_free(b);
	return ok ? 0 : 1;
}

static int cmd_add(const Opts *o)
{
	if (o->npos < 2)
		return usage(stderr), 2;
	Book *b = open_book(o->pos[0]);
	if (!b)
		return 1;
	Book *tmp = book_new();
	AddStats st = { 0, 0 };
	bool ok = true;
	double t0 = util_now();
	for (int i = 1; i < o->npos && ok; i++) {
		ok = ends_with(o->pos[i], ".wtb") ? add_wthor(tmp, o->pos[i], (int)o->plies, &st)
		                                  : add_text(tmp, o->pos[i], (int)o->plies, &st);
		if (!o->quiet)
			fprintf(stderr, "add: %s: %llu games so far, %zu positions\n", o->pos[i],
			        (unsigned long long)st.games, book_count(tmp));
	}
	char err[BOOK_ERR];
	if (ok) {
		size_t removed = book_prune(tmp, (uint32_t)o->min_games, board_start(8));
		size_t before = book_count(b);
		ok = book_merge(b, tmp, err);
		if (!ok)
			fprintf(stderr, "emilia-book: %s\n", err);
		else
			printf("added %llu games (%llu rejected): %zu new positions (%zu dropped under %ld games), "
			       "%zu in the book, %.1f s\n",
			       (unsigned long long)st.games, (unsigned long long)st.rejected,
			       book_count(b) - before, removed, o->min_games, book_count(b), util_now() - t0);
	}
	if (ok)
		ok = save_book(b, o->pos[0], &o->quiet);
	book_free(tmp);
	book_free(b);
	return ok ? 0 : 1;
}

static int cmd_search(const Opts *o, bool deviate)
{
	if (o->npos != 1 || !o->has_level || (deviate && !o->has_margin))
		return usage(stderr), 2;
	Book *b = open_book(o->pos[0]);
	if (!b)
		return 1;
	BookEngines es;
	if (!book_engines_init(&es, (int)o->threads, (int)o->hash)) {
		book_engines_free(&es);
		book_free(b);
		return 1;
	}
	BookSearchOptions so = { book_engine_value, &es, (int)o->threads, (int)o->level, progress,
	                          (void *)&o->quiet };
	char err[BOOK_ERR] = "";
	double t0 = util_now();
	long r = deviate ? book_deviate(b, board_start(8), (int)o->margin, (int)o->max_ply,
	                                (size_t)o->max_positions, &so, err)
	                 : book_search_leaves(b, &so, err);
	bool ok = r >= 0;
	if (!ok)
		fprintf(stderr, "emilia-book: %s\n", err);
	else
		printf("%s: %ld positions %s at level %ld with %ld thread%s in %.1f s; %zu in the book\n",
		       deviate ? "deviate" : "leaves", r, deviate ? "added" : "searched", o->level,
		       o->threads, o->threads > 1 ? "s" : "", util_now() - t0, book_count(b));
	if (ok)
		ok = save_book(b, o->pos[0], &o->quiet);
	book_engines_free(&es);
	book_free(b);
	return ok ? 0 : 1;
}

static int cmd_fix(const Opts *o)
{
	if (o->npos != 1)
		return usage(stderr), 2;
	Book *b = open_book(o->pos[0]);
	if (!b)
		return 1;
	size_t changed = book_fix(b, progress, (void *)&o->quiet);
	printf("fix: %zu of %zu positions changed\n", changed, book_count(b));
	bool ok = save_book(b, o->pos[0], &o->quiet);
	book_free(b);
	return ok ? 0 : 1;
}

static int cmd_merge(const Opts *o)
{
	if (o->npos < 2)
		return usage(stderr), 2;
	Book *out = open_book(o->pos[1]);
	if (!out)
		return 1;
	bool ok = true;
	char err[BOOK_ERR];
	for (int i = 2; i < o->npos && ok; i++) {
		Book *in = open_book(o->pos[i]);
		ok = in && book_merge(out, in, err);
		if (in && !ok)
			fprintf(stderr, "emilia-book: %s\n", err);
		book_free(in);
	}
	if (ok) {
		book_fix(out, NULL, NULL);
		printf("merge: %zu positions\n", book_count(out));
		ok = save_book(out, o->pos[0], &o->quiet);
	}
	book_free(out);
	return ok ? 0 : 1;
}

static void print_level(int level)
{
	if (level == BOOK_LEVEL_EXACT)
		printf("exact");
	else
		printf("%d", level);
}

static int cmd_stats(const Opts *o)
{
	if (o->npos != 1)
		return usage(stderr), 2;
	Book *b = open_book(o->pos[0]);
	if (!b)
		return 1;
	BookStats s;
	book_stats(b, &s);
	printf("positions       %zu\n", s.positions);
	printf("exact values    %zu\n", s.exact);
	printf("unknown leaves  %zu\n", s.leaves_unknown);
	printf("most games      %u\n", (unsigned)s.max_games);
	if (s.has_root) {
		BookEntry e;
		book_lookup(b, board_start(8), &e);
		printf("start position  %+d [%d, %d], level ", s.root_score, s.root_lower, s.root_upper);
		print_level(e.level);
		printf("\n");
	}
	int levels[256] = { 0 };
	for (size_t i = 0; i < s.positions; i++) {
		BookEntry e;
		if (book_entry(b, i, &e))
			levels[e.leaf_level]++;
	}
	printf("leaf levels    ");
	for (int l = 0; l < 256; l++)
		if (levels[l]) {
			printf(" ");
			print_level(l);
			printf(":%d", levels[l]);
		}
	printf("\nplies:positions");
	for (int e = 60; e >= 0; e--)
		if (s.by_empties[e])
			printf(" %d:%zu", 60 - e, s.by_empties[e]);
	printf("\n");
	book_free(b);
	return 0;
}

static void report_line(void *user, const char *line)
{
	(void)user;
	printf("%s\n", line);
}

static int cmd_verify(const Opts *o)
{
	if (o->npos != 1)
		return usage(stderr), 2;
	Book *b = open_book(o->pos[0]);
	if (!b)
		return 1;
	size_t n = book_verify(b, report_line, NULL, 50);
	if (n)
		printf("%s: %zu problem%s in %zu positions\n", o->pos[0], n, n > 1 ? "s" : "", book_count(b));
	else
		printf("%s: OK, %zu positions, checksum and values consistent\n", o->pos[0], book_count(b));
	book_free(b);
	return n ? 1 : 0;
}

static int cmd_export(const Opts *o)
{
	if (o->npos != 2)
		return usage(stderr), 2;
	Book *b = open_book(o->pos[0]);
	if (!b)
		return 1;
	char err[BOOK_ERR];
	bool ok = book_export(b, o->pos[1], err);
	if (!ok)
		fprintf(stderr, "emilia-book: %s\n", err);
	book_free(b);
	return ok ? 0 : 1;
}

static int cmd_import(const Opts *o)
{
	if (o->npos != 2)
		return usage(stderr), 2;
	char err[BOOK_ERR];
	Book *b = book_import(o->pos[0], err);
	if (!b) {
		fprintf(stderr, "emilia-book: %s\n", err);
		return 1;
	}
	bool ok = save_book(b, o->pos[1], &o->quiet);
	if (ok)
		printf("import: %zu positions\n", book_count(b));
	book_free(b);
	return ok ? 0 : 1;
}

static int cmd_probe(const Opts *o)
{
	if (o->npos < 1 || o->npos > 2)
		return usage(stderr), 2;
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	char err[BOOK_ERR];
	if (o->npos == 2 && !text_apply_transcript(&g, o->pos[1], err)) {
		fprintf(stderr, "emilia-book: %s\n", err);
		return 2;
	}
	Book *b = open_book(o->pos[0]);
	if (!b)
		return 1;
	BookMove mv[64];
	int n = book_list_moves(b, &g, mv, 64);
	if (!n)
		printf("not in the book\n");
	for (int i = 0; i < n; i++) {
		char sq[8];
		text_square(mv[i].move, sq);
		printf("%-4s %+3d [%+d, %+d] level ", sq, mv[i].score, mv[i].lower, mv[i].upper);
		print_level(mv[i].level);
		printf(" games %u%s  line", (unsigned)mv[i].games, mv[i].leaf ? " (leaf)" : "");
		int line[60];
		int len = mv[i].leaf ? 1 : book_line(b, &g, mv[i].move, line, 60);
		if (mv[i].leaf)
			line[0] = mv[i].move;
		for (int k = 0; k < len; k++) {
			text_square(line[k], sq);
			printf(" %s", sq);
		}
		printf("\n");
	}
	book_free(b);
	return 0;
}

static int cmd_learn(const Opts *o)
{
	if (o->npos != 2)
		return usage(stderr), 2;
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	char err[BOOK_ERR];
	if (!parse_game_line(o->pos[1], &g, err)) {
		fprintf(stderr, "emilia-book: %s\n", err);
		return 2;
	}
	Book *b = open_book(o->pos[0]);
	if (!b)
		return 1;
	bool ok = book_learn(b, &g, err);
	if (!ok)
		fprintf(stderr, "emilia-book: %s\n", err);
	else
		ok = save_book(b, o->pos[0], &o->quiet);
	if (ok)
		printf("learn: %zu positions\n", book_count(b));
	book_free(b);
	return ok ? 0 : 1;
}

static uint64_t rand_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static int cmd_synth(const Opts *o)
{
	if (o->npos != 1 || !o->positions)
		return usage(stderr), 2;
	Book *b = book_new();
	uint64_t rng = (uint64_t)o->seed * 0x9E3779B97F4A7C15ULL + 1;
	char err[BOOK_ERR];
	double t0 = util_now();
	uint64_t games = 0;
	while (book_count(b) < (size_t)o->positions) {
		Game g;
		game_init(&g, 8, VARIANT_NORMAL);
		while (!game_is_over(&g)) {
			if (game_must_pass(&g)) {
				game_play(&g, BOARD_PASS);
				continue;
			}
			uint64_t m = game_moves(&g);
			for (int k = (int)(rand_next(&rng) % (uint64_t)bit_count(m)); k; k--)
				m = bit_pop(m);
			game_play(&g, bit_first(m));
		}
		if (!book_add_game(b, &g, 0, err)) {
			fprintf(stderr, "emilia-book: %s\n", err);
			book_free(b);
			return 1;
		}
		games++;
	}
	book_fix(b, progress, (void *)&o->quiet);
	bool ok = save_book(b, o->pos[0], &o->quiet);
	if (ok)
		printf("synth: %zu positions from %llu random games in %.1f s\n", book_count(b),
		       (unsigned long long)games, util_now() - t0);
	book_free(b);
	return ok ? 0 : 1;
}

/* kB of resident memory: anonymous (heap: a book read from a file) and
 * file-backed (the binary, with the embedded default book) */
static void rss(long *anon, long *file)
{
	*anon = *file = -1;
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return;
	char line[256];
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, "RssAnon:", 8))
			*anon = atol(line + 8);
		else if (!strncmp(line, "RssFile:", 8))
			*file = atol(line + 8);
	}
	fclose(f);
}

/* CPU seconds of this process (immune to waiting for a busy machine's cores). */
static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int cmd_bench(const Opts *o)
{
	if (o->npos != (o->use_default ? 0 : 1))
		return usage(stderr), 2;
	char err[BOOK_ERR];
	const char *name = o->use_default ? "default book (embedded)" : o->pos[0];
	long a0, f0, a1, f1;
	rss(&a0, &f0);
	double t0 = util_now();
	Book *b = o->use_default ? book_open_default(err) : book_open(o->pos[0], err);
	double first = util_now() - t0;
	if (!b) {
		fprintf(stderr, "emilia-book: %s\n", err);
		return 1;
	}
	rss(&a1, &f1);
	enum { RUNS = 21 };
	double t[RUNS], cpu[RUNS];
	for (int i = 0; i < RUNS; i++) {
		double s = util_now(), cs = cpu_now();
		Book *c = o->use_default ? book_open_default(err) : book_open(o->pos[0], err);
		t[i] = util_now() - s;
		cpu[i] = cpu_now() - cs;
		book_free(c);
	}
	qsort(t, RUNS, sizeof t[0], cmp_double);
	qsort(cpu, RUNS, sizeof cpu[0], cmp_double);
	size_t n = book_count(b);
	printf("book            %s\n", name);
	printf("positions       %zu (%.1f MB)\n", n, (double)(64 + 32 * n) / 1e6);
	printf("open            first %.2f ms, median of %d %.2f ms (min %.2f ms): read + checksums + all checks\n",
	       first * 1e3, RUNS, t[RUNS / 2] * 1e3, t[0] * 1e3);
	printf("open CPU time   median %.2f ms (min %.2f ms)\n", cpu[RUNS / 2] * 1e3, cpu[0] * 1e3);
	printf("memory          +%ld kB heap, +%ld kB file pages after open\n", a1 - a0, f1 - f0);
	if (n) {
		/* probes: positions of the book under random symmetries, and misses */
		uint64_t rng = 12345;
		long probes = o->probes;
		Board *q = malloc(sizeof *q * 4096);
		for (int i = 0; i < 4096; i++) {
			BookEntry e;
			book_entry(b, (size_t)(rand_next(&rng) % n), &e);
			int s = (int)(rand_next(&rng) & 7);
			q[i] = (Board){ bit_symmetry(e.p, s), bit_symmetry(e.o, s) };
			if (i & 1) /* a miss: swap the sides */
				q[i] = (Board){ q[i].o, q[i].p };
		}
		double s = util_now();
		long hits = 0;
		for (long i = 0; i < probes; i++) {
			BookEntry e;
			hits += book_lookup(b, q[i & 4095], &e);
		}
		double dt = util_now() - s;
		printf("lookup          %.0f ns per lookup (%ld lookups, %ld hits)\n", dt / (double)probes * 1e9,
		       probes, hits);
		free(q);
		rss(&a1, &f1);
		printf("memory          +%ld kB heap, +%ld kB file pages after the lookups\n", a1 - a0,
		       f1 - f0);
	}
	book_free(b);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--version"))
		return version_print("emilia-book");
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	Opts o;
	if (!parse_opts(argc - 2, argv + 2, &o))
		return 2;
	const char *c = argv[1];
	if (!strcmp(c, "new"))
		return cmd_new(&o);
	if (!strcmp(c, "add"))
		return cmd_add(&o);
	if (!strcmp(c, "leaves"))
		return cmd_search(&o, false);
	if (!strcmp(c, "deviate"))
		return cmd_search(&o, true);
	if (!strcmp(c, "fix"))
		return cmd_fix(&o);
	if (!strcmp(c, "merge"))
		return cmd_merge(&o);
	if (!strcmp(c, "stats"))
		return cmd_stats(&o);
	if (!strcmp(c, "verify"))
		return cmd_verify(&o);
	if (!strcmp(c, "export"))
		return cmd_export(&o);
	if (!strcmp(c, "import"))
		return cmd_import(&o);
	if (!strcmp(c, "probe"))
		return cmd_probe(&o);
	if (!strcmp(c, "learn"))
		return cmd_learn(&o);
	if (!strcmp(c, "synth"))
		return cmd_synth(&o);
	if (!strcmp(c, "bench"))
		return cmd_bench(&o);
	fprintf(stderr, "emilia-book: unknown command '%s'\n", c);
	usage(stderr);
	return 2;
}
