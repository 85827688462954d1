#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "book.h"
#include "nboard.h"
#include "session.h"
#include "text.h"
#include "timeman.h"
#include "util.h"

#define NBOARD_NAME "Emilia"
#define NBOARD_MAX_HINTS 64

struct NBoard {
	Session s;                          /* options, engine, game, search, loop */
	double time_left[2], increment[2];  /* from the GGF clocks; -1 = none */
};

static NBoard *nboard_of(Session *s)
{
	return (NBoard *)s;
}

/* ---- output ---------------------------------------------------------------- */

static void status(NBoard *nb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void status(NBoard *nb, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	proto_out_line(&nb->s.out, "status%s%s", msg[0] ? " " : "", msg);
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
	if (atomic_load(&nb->s.search.stopped))
		return;
	char pv[ENGINE_MAX_PV * 2 + 8], d[24];
	pv_text(info->pv, info->pvlen, info->move, pv, sizeof pv);
	depth_text(info, d);
	proto_out_line(&nb->s.out, "search %s %.2f 0 %s", pv, (double)info->score, d);
}

static void on_go_done(void *user, const Game *g, const EngineInfo *r, bool stopped)
{
	NBoard *nb = user;
	if (stopped)
		return; /* a ping interrupted it: the GUI no longer waits for it */
	char mv[8];
	move_upper(r->move, mv);
	proto_out_line(&nb->s.out, "nodestats %llu %.2f", (unsigned long long)r->nodes, r->seconds);
	if (r->move == BOARD_PASS || r->move == BOARD_NOMOVE)
		proto_out_line(&nb->s.out, "=== PA");
	else
		proto_out_line(&nb->s.out, "=== %s/%.2f/%.2f", mv, (double)r->score, r->seconds);
	status(nb, "%s", "");
}

static void on_hint_done(void *user, const Game *g, const EngineInfo *r, bool stopped)
{
	NBoard *nb = user;
	status(nb, "%s", "");
}

/* ---- commands ----------------------------------------------------------------- */

/* `set depth` went to the level: midgame depth, with the endgame solved
 * from the level's number of empties. */
static EngineLimits limits(const NBoard *nb, bool clock)
{
	EngineLimits lim = session_limits(&nb->s);
	int c = nb->s.game.side;
	if (clock && nb->time_left[c] >= 0) {
		/* the GGF clock in the terms of the clock model (timeman.h) */
		lim.time_left = nb->time_left[c];
		lim.increment = nb->increment[c];
		lim.overhead = (double)options_int(&nb->s.opts, OPT_OVERHEAD) / 1000.0;
	}
	return lim;
}

EngineLimits nboard_limits(const NBoard *nb)
{
	return limits(nb, true);
}

static void cmd_go(Session *s, int argc, char **argv)
{
	NBoard *nb = nboard_of(s);
	const Game *g = &s->game;
	if (game_is_over(g)) {
		status(nb, "error: go: the game is over");
		return;
	}
	status(nb, "Emilia is thinking");
	if (game_must_pass(g)) {
		proto_out_line(&s->out, "=== PA");
		status(nb, "%s", "");
		return;
	}
	EngineLimits lim = limits(nb, true);
	double hard = timeman_deadline(&lim);
	if (!proto_search_start(&s->search, s->pe.engine, g, &lim, hard, NULL, on_go_done, nb))
		status(nb, "error: cannot start the search");
}

/* The book's moves as `book` lines; returns how many were sent. */
static int book_hints(NBoard *nb, int n)
{
	if (!nb->s.pe.book || !options_bool(&nb->s.opts, OPT_USEBOOK))
		return 0;
	int sent = 0;
	BookMove moves[NBOARD_MAX_HINTS];
	int k = book_list_moves(nb->s.pe.book, &nb->s.game, moves, n < NBOARD_MAX_HINTS ? n : NBOARD_MAX_HINTS);
	for (int i = 0; i < k; i++) {
		if (moves[i].leaf)
			continue;
		int line[ENGINE_MAX_PV];
		int len = book_line(nb->s.pe.book, &nb->s.game, moves[i].move, line, ENGINE_MAX_PV);
		char pv[ENGINE_MAX_PV * 2 + 8], d[24];
		pv_text(line, len, moves[i].move, pv, sizeof pv);
		if (moves[i].lower == moves[i].upper || moves[i].level == BOOK_LEVEL_EXACT)
			strcpy(d, "100%");
		else
			sprintf(d, "%d", moves[i].level);
		proto_out_line(&nb->s.out, "book %s %.2f %u %s", pv, (double)moves[i].score,
		               (unsigned)moves[i].games, d);
		sent++;
	}
	return sent;
}

static void cmd_hint(Session *s, int argc, char **argv)
{
	NBoard *nb = nboard_of(s);
	long n = 1;
	if (argc != 1 || !util_parse_int(argv[0], 1, 1000, &n)) {
		status(nb, "error: usage: hint <number of moves>");
		return;
	}
	const Game *g = &s->game;
	if (game_is_over(g)) {
		status(nb, "error: hint: the game is over");
		return;
	}
	status(nb, "Emilia is thinking");
	if (game_must_pass(g)) {
		proto_out_line(&s->out, "search PA 0.00 0 0");
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
	if (!proto_search_start(&s->search, s->pe.engine, g, &lim, 0, on_hint_info, on_hint_done, nb))
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
		proto_out_line(&nb->s.out, "analysis %d %.2f", ply, (double)r.score);
	}
	if (!atomic_load(&s->stopped))
		status(nb, "%s", "");
}

static void cmd_analyze(Session *s, int argc, char **argv)
{
	NBoard *nb = nboard_of(s);
	status(nb, "Emilia is analyzing");
	s->search.game = s->game;
	if (!proto_search_start_job(&s->search, s->pe.engine, analyze_job, nb))
		status(nb, "error: cannot start the analysis");
}

static void cmd_move(Session *s, int argc, char **argv)
{
	NBoard *nb = nboard_of(s);
	if (argc != 1) {
		status(nb, "error: usage: move <square>[/eval[/time]]");
		return;
	}
	char buf[64], merr[160];
	snprintf(buf, sizeof buf, "%s", argv[0]);
	int mv;
	double t;
	if (!text_ggf_move(buf, s->game.size, &mv, &t, merr)) {
		status(nb, "error: move: %s", merr);
		return;
	}
	Game *g = &s->game;
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

/* The GGF of `set game`, the rest of the line as it is (NULL when none). */
static char *set_game_text(char *line)
{
	char *q = text_trim(text_trim(line) + 4); /* after "set" */
	return strncasecmp(q, "game ", 5) ? NULL : text_trim(q + 5);
}

static void cmd_set(Session *s, int argc, char **argv)
{
	NBoard *nb = nboard_of(s);
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
		session_set_option(s, OPT_LEVEL, argv[1], err);
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
		char *ggf = set_game_text(s->line);
		Game g;
		double tl[2], inc[2];
		char gerr[160];
		if (!ggf || !text_parse_ggf(ggf, options_variant(&s->opts), &g, tl, inc, gerr)) {
			status(nb, "error: set game: %s", ggf ? gerr : "missing GGF");
			return;
		}
		s->game = g;
		memcpy(nb->time_left, tl, sizeof tl);
		memcpy(nb->increment, inc, sizeof inc);
		return;
	}
	int id = options_find(argv[0]);
	if (id < 0) {
		status(nb, "error: set: unknown setting '%.40s'", argv[0]);
		return;
	}
	if (session_set_option(s, (OptionId)id, argc >= 2 ? argv[1] : "", err) != SESSION_OPTION_OK)
		status(nb, "error: set %s: %s", argv[0], err);
}

static void cmd_learn(Session *s, int argc, char **argv)
{
	NBoard *nb = nboard_of(s);
	char err[BOOK_ERR];
	const char *path = options_get(&s->opts, OPT_BOOK);
	if (!path[0] || s->opts.sandbox) {
		status(nb, "no book file to learn into (start with --book FILE)");
		proto_out_line(&s->out, "learned");
		return;
	}
	if (!s->pe.book) {
		s->pe.book = book_new();
		if (s->pe.book)
			engine_set_book(s->pe.engine, book_engine_probe, s->pe.book);
	}
	if (!s->pe.book || !book_learn(s->pe.book, &s->game, err) ||
	    !book_save(s->pe.book, path, NULL, NULL, err))
		status(nb, "learn failed: %s", s->pe.book ? err : "out of memory");
	proto_out_line(&s->out, "learned");
}

static void cmd_ping(Session *s, int argc, char **argv)
{
	proto_search_stop(&s->search);
	proto_out_line(&s->out, "pong%s%s", argc > 0 ? " " : "", argc > 0 ? argv[0] : "");
}

static void cmd_nboard(Session *s, int argc, char **argv)
{
	proto_out_line(&s->out, "set myname " NBOARD_NAME);
}

static void unknown(Session *s, int argc, char **argv)
{
	char q[TEXT_QUOTE_MAX];
	status(nboard_of(s), "error: unknown command '%s'", text_quote(argv[0], q));
}

static void too_long(Session *s)
{
	status(nboard_of(s), "error: line too long (more than %d bytes)", PROTO_LINE_MAX - 1);
}

static void reset(Session *s)
{
	NBoard *nb = nboard_of(s);
	nb->time_left[0] = nb->time_left[1] = -1;
	nb->increment[0] = nb->increment[1] = 0;
}

/* ping and quit stop a search; the others wait for it. */
static const SessionCommand nboard_commands[] = {
	{ "ping", cmd_ping, SESSION_ANYTIME, NULL, NULL },
	{ "quit", session_cmd_quit, SESSION_ANYTIME, NULL, NULL },
	{ "nboard", cmd_nboard, 0, NULL, NULL },
	{ "set", cmd_set, 0, NULL, NULL },
	{ "move", cmd_move, 0, NULL, NULL },
	{ "go", cmd_go, 0, NULL, NULL },
	{ "hint", cmd_hint, 0, NULL, NULL },
	{ "learn", cmd_learn, 0, NULL, NULL },
	{ "analyze", cmd_analyze, 0, NULL, NULL },
	{ NULL, NULL, 0, NULL, NULL }
};

static const SessionProtocol nboard_protocol = {
	.commands = nboard_commands,
	.too_long = too_long,
	.unknown = unknown,
	.reset = reset,
};

NBoard *nboard_new(FILE *out, const Options *opts, char *err)
{
	NBoard *nb = (NBoard *)session_new(&nboard_protocol, sizeof *nb, out, opts, err);
	if (nb)
		reset(&nb->s);
	return nb;
}

SESSION_FORWARDERS(NBoard, nboard)

int nboard_main(FILE *in, FILE *out, const Options *opts)
{
	/* The GUI merges stderr into the protocol stream: nothing may
	 * appear there, but the reason the session cannot start (a --eval
	 * or --book file that does not load), which goes to the stderr the
	 * program was started with, before any protocol output. */
	const int start_err = dup(STDERR_FILENO);
	if (!freopen("/dev/null", "w", stderr))
		fclose(stderr);
	char err[OPTIONS_ERR];
	NBoard *nb = nboard_new(out, opts, err);
	if (!nb && start_err >= 0)
		dprintf(start_err, "emilia: %s\n", err);
	if (start_err >= 0)
		close(start_err);
	return nb ? session_main(&nb->s, in, err) : 1;
}
