#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "book.h"
#include "nboard.h"
#include "timeman.h"
#include "proto_io.h"
#include "proto_search.h"
#include "text.h"
#include "util.h"

#define NBOARD_NAME "Emilia"
#define NBOARD_MAX_HINTS 64

typedef enum { JOB_NONE, JOB_GO, JOB_HINT, JOB_ANALYZE } NBoardJob;

struct NBoard {
	ProtoOut out;
	Options opts;
	Options init_opts;
	ProtoEngine pe;
	Game game;
	double time_left[2], increment[2];  /* from the GGF clocks; -1 = none */
	int depth;                          /* `set depth`, 0 = from the level option */
	ProtoSearch search;
	NBoardJob job;
	uint64_t node_cap;
	bool quit;
};

/* ---- output ---------------------------------------------------------------- */

static void status(NBoard *nb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void status(NBoard *nb, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	proto_out_line(&nb->out, "status%s%s", msg[0] ? " " : "", msg);
}

static void move_upper(int mv, char *out)
{
	if (mv == BOARD_PASS)
		strcpy(out, "PA");
	else
		text_square_upper(mv, out);
}

/* "F5D6C3": no spaces, as NBoard requires. */
static void pv_text(const int *pv, int n, int first, char *out, size_t len)
{
	size_t k = 0;
	out[0] = 0;
	if (n <= 0) {
		move_upper(first, out);
		return;
	}
	for (int i = 0; i < n && k + 4 < len; i++) {
		move_upper(pv[i], out + k);
		k += strlen(out + k);
	}
}

static void depth_text(const EngineInfo *r, char *out)
{
	if (r->exact)
		strcpy(out, r->wld ? "100%W" : "100%");
	else if (r->selectivity > 0 && r->selectivity < 100)
		sprintf(out, "%d@%d%%", r->depth, r->selectivity);
	else
		sprintf(out, "%d", r->depth);
}

static void on_hint_info(const EngineInfo *info, void *user)
{
	NBoard *nb = user;
	if (atomic_load(&nb->search.stopped))
		return;
	char pv[ENGINE_MAX_PV * 2 + 8], d[24];
	pv_text(info->pv, info->pvlen, info->move, pv, sizeof pv);
	depth_text(info, d);
	proto_out_line(&nb->out, "search %s %.2f 0 %s", pv, (double)info->score, d);
}

static void on_go_done(void *user, const Game *g, const EngineInfo *r, bool stopped)
{
	NBoard *nb = user;
	if (stopped)
		return; /* a ping interrupted it: the GUI no longer waits for it */
	char mv[8];
	move_upper(r->move, mv);
	proto_out_line(&nb->out, "nodestats %llu %.2f", (unsigned long long)r->nodes, r->seconds);
	if (r->move == BOARD_PASS || r->move == BOARD_NOMOVE)
		proto_out_line(&nb->out, "=== %s", r->move == BOARD_PASS ? "PA" : "PA");
	else
		proto_out_line(&nb->out, "=== %s/%.2f/%.2f", mv, (double)r->score, r->seconds);
	status(nb, "%s", "");
}

static void on_hint_done(void *user, const Game *g, const EngineInfo *r, bool stopped)
{
	NBoard *nb = user;
	status(nb, "%s", "");
}

/* ---- commands ----------------------------------------------------------------- */

static EngineLimits limits(const NBoard *nb, bool clock)
{
	EngineLimits lim;
	memset(&lim, 0, sizeof lim);
	lim.time_left = -1;
	/* `set depth` went to the level: midgame depth, with the endgame
	 * solved from the level's number of empties */
	int c = nb->game.side;
	if (clock && nb->time_left[c] >= 0) {
		/* the GGF clock in the terms of the clock model (timeman.h) */
		lim.time_left = nb->time_left[c];
		lim.increment = nb->increment[c];
		lim.overhead = (double)options_int(&nb->opts, OPT_OVERHEAD) / 1000.0;
	}
	if (nb->node_cap)
		lim.nodes = nb->node_cap;
	return lim;
}

EngineLimits nboard_limits(const NBoard *nb)
{
	return limits(nb, true);
}

static void cmd_go(NBoard *nb)
{
	const Game *g = &nb->game;
	if (game_is_over(g)) {
		status(nb, "error: go: the game is over");
		return;
	}
	status(nb, "Emilia is thinking");
	if (game_must_pass(g)) {
		proto_out_line(&nb->out, "=== PA");
		status(nb, "%s", "");
		return;
	}
	EngineLimits lim = limits(nb, true);
	double hard = timeman_deadline(&lim);
	nb->job = JOB_GO;
	if (!proto_search_start(&nb->search, nb->pe.engine, g, &lim, hard, NULL, on_go_done, nb))
		status(nb, "error: cannot start the search");
}

/* The book's moves as `book` lines; returns how many were sent. */
static int book_hints(NBoard *nb, int n)
{
	if (!nb->pe.book || !options_bool(&nb->opts, OPT_USEBOOK))
		return 0;
	int sent = 0;
	BookMove moves[NBOARD_MAX_HINTS];
	int k = book_list_moves(nb->pe.book, &nb->game, moves, n < NBOARD_MAX_HINTS ? n : NBOARD_MAX_HINTS);
	for (int i = 0; i < k; i++) {
		if (moves[i].leaf)
			continue;
		int line[ENGINE_MAX_PV];
		int len = book_line(nb->pe.book, &nb->game, moves[i].move, line, ENGINE_MAX_PV);
		char pv[ENGINE_MAX_PV * 2 + 8], d[24];
		pv_text(line, len, moves[i].move, pv, sizeof pv);
		if (moves[i].lower == moves[i].upper || moves[i].level == BOOK_LEVEL_EXACT)
			strcpy(d, "100%");
		else
			sprintf(d, "%d", moves[i].level);
		proto_out_line(&nb->out, "book %s %.2f %u %s", pv, (double)moves[i].score,
		               (unsigned)moves[i].games, d);
		sent++;
	}
	return sent;
}

static void cmd_hint(NBoard *nb, int argc, char **argv)
{
	long n = 1;
	if (argc != 1 || !util_parse_int(argv[0], 1, 1000, &n)) {
		status(nb, "error: usage: hint <number of moves>");
		return;
	}
	const Game *g = &nb->game;
	if (game_is_over(g)) {
		status(nb, "error: hint: the game is over");
		return;
	}
	status(nb, "Emilia is thinking");
	if (game_must_pass(g)) {
		proto_out_line(&nb->out, "search PA 0.00 0 0");
		status(nb, "%s", "");
		return;
	}
	int nmoves = bit_count(game_moves(g));
	if (n > nmoves)
		n = nmoves;
	/* In book, the book's values are the answer (a search line for the
	 * same move would replace them in the GUI). */
	if (book_hints(nb, (int)n) > 0) {
		status(nb, "%s", "");
		return;
	}
	EngineLimits lim = limits(nb, false);
	lim.multipv = (int)n;
	nb->job = JOB_HINT;
	if (!proto_search_start(&nb->search, nb->pe.engine, g, &lim, 0, on_hint_info, on_hint_done, nb))
		status(nb, "error: cannot start the search");
}

/* Retrograde analysis of the game (in the worker): each position's value
 * at the set depth, from the last position back to the first, as
 * `analysis <plies made> <eval>` (side to move's view). */
static void analyze_job(void *user, ProtoSearch *s)
{
	NBoard *nb = user;
	Game g = s->game;
	for (int ply = g.nply; ply >= 0 && !atomic_load(&s->stopped); ply--) {
		Game t = g;
		while (t.nply > ply)
			game_undo(&t);
		if (game_is_over(&t) || game_must_pass(&t))
			continue;
		EngineLimits lim = limits(nb, false);
		EngineInfo r = engine_search(s->engine, &t, &lim, NULL, NULL);
		if (atomic_load(&s->stopped))
			break;
		proto_out_line(&nb->out, "analysis %d %.2f", ply, (double)r.score);
	}
	if (!atomic_load(&s->stopped))
		status(nb, "%s", "");
}

static void cmd_analyze(NBoard *nb)
{
	status(nb, "Emilia is analyzing");
	nb->job = JOB_ANALYZE;
	nb->search.game = nb->game;
	if (!proto_search_start_job(&nb->search, nb->pe.engine, analyze_job, nb))
		status(nb, "error: cannot start the analysis");
}

static void cmd_move(NBoard *nb, int argc, char **argv)
{
	if (argc != 1) {
		status(nb, "error: usage: move <square>[/eval[/time]]");
		return;
	}
	char buf[64], merr[160];
	snprintf(buf, sizeof buf, "%s", argv[0]);
	int mv;
	double t;
	if (!text_ggf_move(buf, nb->game.size, &mv, &t, merr)) {
		status(nb, "error: move: %s", merr);
		return;
	}
	Game *g = &nb->game;
	int mover = g->side;
	GameStatus st;
	if (mv == BOARD_PASS)
		st = game_must_pass(g) ? game_play(g, BOARD_PASS) : GAME_NOT_PASS;
	else {
		st = game_play(g, mv);
		if (st != GAME_OK && game_must_pass(g)) {
			mover = !g->side;
			st = game_play_colour(g, mover, mv);
		}
	}
	if (st != GAME_OK) {
		status(nb, "error: move: %s is not legal here", buf);
		return;
	}
	if (nb->time_left[mover] >= 0 && t > 0 && t < 1e6) {
		nb->time_left[mover] += nb->increment[mover] - t;
		if (nb->time_left[mover] < 0)
			nb->time_left[mover] = 0;
	}
}

static void cmd_set(NBoard *nb, int argc, char **argv, char *rest)
{
	if (argc < 1) {
		status(nb, "error: usage: set depth|game|contempt|<option> <value>");
		return;
	}
	char err[OPTIONS_ERR];
	if (proto_eq(argv[0], "depth")) {
		long d;
		if (argc != 2 || !util_parse_int(argv[1], 0, 60, &d)) {
			status(nb, "error: set depth: expected 0..60");
			return;
		}
		nb->depth = (int)d;
		options_set(&nb->opts, OPT_LEVEL, argv[1], err);
		options_apply(&nb->opts, OPT_LEVEL, &nb->pe, err);
		return;
	}
	if (proto_eq(argv[0], "contempt")) {
		/* NBoard's draw value, sent at every start: accepted and ignored,
		 * since Emilia always scores a draw as 0 */
		long c;
		if (argc != 2 || !util_parse_int(argv[1], -6400, 6400, &c))
			status(nb, "error: set contempt: expected an integer");
		return;
	}
	if (proto_eq(argv[0], "game")) {
		Game g;
		double tl[2], inc[2];
		char gerr[160];
		if (!rest || !text_parse_ggf(rest, options_variant(&nb->opts), &g, tl, inc, gerr)) {
			status(nb, "error: set game: %s", rest ? gerr : "missing GGF");
			return;
		}
		nb->game = g;
		memcpy(nb->time_left, tl, sizeof tl);
		memcpy(nb->increment, inc, sizeof inc);
		return;
	}
	int id = options_find(argv[0]);
	if (id < 0) {
		status(nb, "error: set: unknown setting '%.40s'", argv[0]);
		return;
	}
	const char *v = argc >= 2 ? argv[1] : "";
	Options save = nb->opts;
	if (!options_set(&nb->opts, (OptionId)id, v, err) ||
	    !options_apply(&nb->opts, (OptionId)id, &nb->pe, err)) {
		nb->opts = save;
		status(nb, "error: set %s: %s", argv[0], err);
		return;
	}
	if (id == OPT_VARIANT)
		nb->game.variant = options_variant(&nb->opts);
}

static void cmd_learn(NBoard *nb)
{
	char err[BOOK_ERR];
	const char *path = options_get(&nb->opts, OPT_BOOK);
	if (!path[0] || nb->opts.sandbox) {
		status(nb, "no book file to learn into (start with --book FILE)");
		proto_out_line(&nb->out, "learned");
		return;
	}
	if (!nb->pe.book) {
		nb->pe.book = book_new();
		if (nb->pe.book)
			engine_set_book(nb->pe.engine, book_engine_probe, nb->pe.book);
	}
	if (!nb->pe.book || !book_learn(nb->pe.book, &nb->game, err) ||
	    !book_save(nb->pe.book, path, NULL, NULL, err))
		status(nb, "learn failed: %s", nb->pe.book ? err : "out of memory");
	proto_out_line(&nb->out, "learned");
}

static bool execute(NBoard *nb, char *line, bool too_long)
{
	if (too_long) {
		status(nb, "error: line too long (more than %d bytes)", PROTO_LINE_MAX - 1);
		return true;
	}
	char *s = text_trim(line);
	if (!*s)
		return true;
	/* `set game` keeps the rest of the line as it is */
	char *rest = NULL;
	if (!strncasecmp(s, "set ", 4)) {
		char *q = text_trim(s + 4);
		if (!strncasecmp(q, "game ", 5))
			rest = text_trim(q + 5);
	}
	char copy[PROTO_LINE_MAX];
	snprintf(copy, sizeof copy, "%s", s);
	char *argv[PROTO_MAX_ARGS];
	int argc = proto_split(copy, argv, PROTO_MAX_ARGS);
	const char *cmd = argv[0];
	if (proto_eq(cmd, "ping")) {
		proto_search_stop(&nb->search);
		proto_out_line(&nb->out, "pong%s%s", argc > 1 ? " " : "", argc > 1 ? argv[1] : "");
		return true;
	}
	if (proto_eq(cmd, "quit")) {
		proto_search_stop(&nb->search);
		nb->quit = true;
		return false;
	}
	proto_search_wait(&nb->search);
	if (proto_eq(cmd, "nboard")) {
		proto_out_line(&nb->out, "set myname " NBOARD_NAME);
	} else if (proto_eq(cmd, "set")) {
		cmd_set(nb, argc - 1, argv + 1, rest);
	} else if (proto_eq(cmd, "move")) {
		cmd_move(nb, argc - 1, argv + 1);
	} else if (proto_eq(cmd, "go")) {
		cmd_go(nb);
	} else if (proto_eq(cmd, "hint")) {
		cmd_hint(nb, argc - 1, argv + 1);
	} else if (proto_eq(cmd, "learn")) {
		cmd_learn(nb);
	} else if (proto_eq(cmd, "analyze")) {
		cmd_analyze(nb);
	} else {
		char q[170];
		status(nb, "error: unknown command '%s'", text_quote(cmd, q));
	}
	return true;
}

NBoard *nboard_new(FILE *out, const Options *opts, char *err)
{
	NBoard *nb = calloc(1, sizeof *nb);
	if (!nb) {
		snprintf(err, OPTIONS_ERR, "out of memory");
		return NULL;
	}
	nb->opts = *opts;
	nb->opts.on_change = NULL;
	if (!options_engine_open(&nb->pe, &nb->opts, err, NULL)) {
		free(nb);
		return NULL;
	}
	nb->init_opts = nb->opts;
	proto_out_init(&nb->out, out);
	proto_search_init(&nb->search);
	game_init(&nb->game, atoi(options_get(&nb->opts, OPT_SIZE)), options_variant(&nb->opts));
	nb->time_left[0] = nb->time_left[1] = -1;
	return nb;
}

void nboard_free(NBoard *nb)
{
	if (!nb)
		return;
	proto_search_destroy(&nb->search);
	options_engine_close(&nb->pe);
	proto_out_destroy(&nb->out);
	free(nb);
}

void nboard_reset(NBoard *nb)
{
	proto_search_stop(&nb->search);
	options_restore(&nb->opts, &nb->init_opts, &nb->pe);
	game_init(&nb->game, atoi(options_get(&nb->opts, OPT_SIZE)), options_variant(&nb->opts));
	nb->time_left[0] = nb->time_left[1] = -1;
	nb->increment[0] = nb->increment[1] = 0;
	nb->depth = 0;
	nb->quit = false;
}

void nboard_set_node_cap(NBoard *nb, uint64_t nodes)
{
	nb->node_cap = nodes;
}

void nboard_wait(NBoard *nb)
{
	proto_search_wait(&nb->search);
}

bool nboard_execute_line(NBoard *nb, const char *line)
{
	ProtoLine *l = malloc(sizeof *l);
	if (!l)
		return true;
	bool too_long = proto_clean_line(line, l) == PROTO_LINE_TOO_LONG;
	bool r = execute(nb, l->text, too_long);
	free(l);
	return r;
}

void nboard_run(NBoard *nb, FILE *in)
{
	ProtoLine *line = malloc(sizeof *line);
	if (!line)
		return;
	for (;;) {
		ProtoLineStatus st = proto_read_line(in, line);
		if (st == PROTO_LINE_EOF)
			break;
		if (!execute(nb, line->text, st == PROTO_LINE_TOO_LONG))
			break;
	}
	proto_search_wait(&nb->search);
	free(line);
}

int nboard_main(FILE *in, FILE *out, const Options *opts)
{
	/* The GUI merges stderr into the protocol stream: nothing may
	 * appear there. */
	if (!freopen("/dev/null", "w", stderr))
		fclose(stderr);
	char err[OPTIONS_ERR];
	NBoard *nb = nboard_new(out, opts, err);
	if (!nb)
		return 1;
	nboard_run(nb, in);
	nboard_free(nb);
	return 0;
}
