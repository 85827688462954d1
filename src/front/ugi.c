#include <limits.h>
#include <string.h>
#include "session.h"
#include "text.h"
#include "timeman.h"
#include "ugi.h"
#include "util.h"

/* The largest number a go argument may carry: 10^12, or LONG_MAX where a
 * long cannot hold it (32-bit targets, the WebAssembly build). */
#if LONG_MAX / 1000 >= 1000000000L
#define UGI_GO_MAX 1000000000000L
#else
#define UGI_GO_MAX LONG_MAX
#endif

#define UGI_NAME "Emilia"
#define UGI_AUTHOR "the Emilia authors"

struct Ugi {
	Session s;  /* options, engine, game, search, the read-execute loop */
};

static void error_line(Session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void error_line(Session *s, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	proto_out_line(&s->out, "info string error: %s", msg);
}

static void move_text(int mv, char *out)
{
	if (mv == BOARD_PASS)
		strcpy(out, "pass");
	else if (mv == BOARD_NOMOVE)
		strcpy(out, "0000");
	else
		text_square(mv, out);
}

/* ---- search output --------------------------------------------------------- */

static void on_info(const EngineInfo *info, void *user)
{
	Session *s = user;
	char line[ENGINE_MAX_PV * 6 + 256];
	size_t n = 0;
	double t = info->seconds > 0 ? info->seconds : 0;
	n += (size_t)snprintf(line + n, sizeof line - n, "info depth %d", info->depth);
	if (info->multipv_index > 0)
		n += (size_t)snprintf(line + n, sizeof line - n, " multipv %d", info->multipv_index);
	n += (size_t)snprintf(line + n, sizeof line - n, " score cp %d time %.0f nodes %llu nps %.0f",
	                      info->score * 100, t * 1000.0, (unsigned long long)info->nodes,
	                      t > 0 ? (double)info->nodes / t : 0.0);
	if (info->pvlen > 0) {
		n += (size_t)snprintf(line + n, sizeof line - n, " pv");
		for (int i = 0; i < info->pvlen && i < ENGINE_MAX_PV && n + 8 < sizeof line; i++) {
			char m[8];
			move_text(info->pv[i], m);
			n += (size_t)snprintf(line + n, sizeof line - n, " %s", m);
		}
	}
	proto_out_line(&s->out, "%s", line);
}

static void on_done(void *user, const Game *g, const EngineInfo *r, bool stopped)
{
	Session *s = user;
	char m[8];
	move_text(r->move, m);
	/* exactly two tokens: the runner ignores anything longer */
	proto_out_line(&s->out, "bestmove %s", m);
}

/* ---- positions -------------------------------------------------------------- */

static int parse_ugi_move(const char *s, int size)
{
	if (!strcmp(s, "0000"))
		return BOARD_PASS;
	return text_parse_move(s, size);
}

static void cmd_position(Session *s, int argc, char **argv)
{
	Game t;
	int i = 0;
	Variant v = options_variant(&s->opts);
	if (argc >= 1 && proto_eq(argv[0], "startpos")) {
		game_init(&t, session_size(s), v);
		i = 1;
	} else if (argc >= 3 && proto_eq(argv[0], "fen")) {
		char err[TEXT_ERR];
		int size, side;
		Board b;
		if (!text_parse_fen(argv[1], argv[2], &size, &b, &side, err)) {
			error_line(s, "%s", err);
			return;
		}
		game_init(&t, size, v);
		game_set(&t, b, side);
		i = 3;
	} else {
		error_line(s, "usage: position startpos|fen <squares> <side> [moves m1 m2 ...]");
		return;
	}
	if (i < argc) {
		if (!proto_eq(argv[i], "moves")) {
			error_line(s, "position: expected 'moves', got '%.40s'", argv[i]);
			return;
		}
		for (i++; i < argc; i++) {
			int mv = parse_ugi_move(argv[i], t.size);
			GameStatus st;
			if (mv < 0) {
				error_line(s, "position: invalid move '%.40s'", argv[i]);
				return;
			}
			if (mv == BOARD_PASS)
				st = game_must_pass(&t) ? game_play(&t, BOARD_PASS) : GAME_NOT_PASS;
			else
				st = game_play_colour(&t, t.side, mv) == GAME_OK ? GAME_OK
				     : game_play_colour(&t, !t.side, mv);
			if (st != GAME_OK) {
				error_line(s, "position: illegal move '%.40s' (move %d)", argv[i], t.nply + 1);
				return;
			}
		}
	}
	s->game = t;
}

/* ---- go ---------------------------------------------------------------------- */

bool ugi_go_limits(const Ugi *u, int argc, char **argv, EngineLimits *out, char *err, size_t errlen)
{
	EngineLimits lim = session_limits(&u->s);
	long t[2] = { LONG_MIN, LONG_MIN }, inc[2] = { 0, 0 }, movetime = -1, depth = 0, mtg = 0;
	long long nodes = 0;
	bool infinite = false;
	for (int i = 0; i < argc; i++) {
		const char *k = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		long x;
		if (proto_eq(k, "infinite")) {
			infinite = true;
			continue;
		}
		if (!v || !util_parse_int(v, -1000000000L, UGI_GO_MAX, &x)) {
			snprintf(err, errlen, "go: '%.40s' needs a number", k);
			return false;
		}
		i++;
		/* limits that would mean nothing (or, read as 0, no limit at all)
		 * are refused; a clock may be negative (a GUI sends what is left) */
		static const char *const positive[] = { "movetime", "depth", "nodes" };
		static const char *const non_negative[] = { "p1inc", "binc", "p2inc", "winc", "movestogo" };
		for (size_t j = 0; j < sizeof positive / sizeof *positive; j++)
			if (proto_eq(k, positive[j]) && x < 1) {
				snprintf(err, errlen, "go: %s must be at least 1, got %ld", positive[j], x);
				return false;
			}
		for (size_t j = 0; j < sizeof non_negative / sizeof *non_negative; j++)
			if (proto_eq(k, non_negative[j]) && x < 0) {
				snprintf(err, errlen, "go: %s must not be negative, got %ld", non_negative[j], x);
				return false;
			}
		if (proto_eq(k, "p1time") || proto_eq(k, "btime"))
			t[BLACK] = x;
		else if (proto_eq(k, "p2time") || proto_eq(k, "wtime"))
			t[WHITE] = x;
		else if (proto_eq(k, "p1inc") || proto_eq(k, "binc"))
			inc[BLACK] = x;
		else if (proto_eq(k, "p2inc") || proto_eq(k, "winc"))
			inc[WHITE] = x;
		else if (proto_eq(k, "movetime"))
			movetime = x;
		else if (proto_eq(k, "depth"))
			depth = x;
		else if (proto_eq(k, "nodes"))
			nodes = x;
		else if (proto_eq(k, "movestogo"))
			mtg = x;
		else {
			snprintf(err, errlen, "go: unknown parameter '%.40s'", k);
			return false;
		}
	}
	/* the clock in the terms of the clock model (timeman.h) */
	int c = u->s.game.side;
	lim.overhead = (double)options_int(&u->s.opts, OPT_OVERHEAD) / 1000.0;
	if (movetime > 0)
		lim.movetime = (double)movetime / 1000.0;
	if (t[c] != LONG_MIN) {
		lim.time_left = t[c] > 0 ? (double)t[c] / 1000.0 : 0;
		lim.increment = (double)inc[c] / 1000.0;
		lim.moves_to_go = mtg > 0 && mtg < 1000 ? (int)mtg : 0;
	}
	if (depth > 0)
		lim.depth = depth > 60 ? 60 : (int)depth;
	if (nodes > 0 && (!u->s.node_cap || (uint64_t)nodes < u->s.node_cap))
		lim.nodes = (uint64_t)nodes;
	lim.infinite = infinite && !u->s.node_cap;
	*out = lim;
	return true;
}

static void cmd_go(Session *s, int argc, char **argv)
{
	EngineLimits lim;
	char err[256];
	if (!ugi_go_limits((Ugi *)s, argc, argv, &lim, err, sizeof err)) {
		error_line(s, "%s", err);
		return;
	}
	const Game *g = &s->game;
	char m[8];
	int forced = proto_search_legal_move(g, -1);
	if (!game_moves(g)) {
		/* pass or game over: nothing to search */
		move_text(forced, m);
		proto_out_line(&s->out, "bestmove %s", m);
		return;
	}
	double hard = timeman_deadline(&lim);
	if (!proto_search_start(&s->search, s->pe.engine, g, &lim, hard, on_info, on_done, s))
		error_line(s, "cannot start the search");
}

/* ---- the rest ------------------------------------------------------------------ */

static void option_line(Session *s, OptionId id)
{
	const OptionDef *d = options_def(id);
	char buf[1024];
	size_t n = (size_t)snprintf(buf, sizeof buf, "option name %s type ", d->name);
	switch (d->type) {
	case OPTION_INT:
		snprintf(buf + n, sizeof buf - n, "spin default %s min %ld max %ld", d->def, d->min, d->max);
		break;
	case OPTION_BOOL:
		snprintf(buf + n, sizeof buf - n, "check default %s", d->def);
		break;
	case OPTION_CHOICE:
		n += (size_t)snprintf(buf + n, sizeof buf - n, "combo default %s", d->def);
		for (int i = 0; d->choices[i]; i++)
			n += (size_t)snprintf(buf + n, sizeof buf - n, " var %s", d->choices[i]);
		break;
	default:
		snprintf(buf + n, sizeof buf - n, "string default %s", d->def[0] ? d->def : "<empty>");
		break;
	}
	proto_out_line(&s->out, "%s", buf);
}

static void cmd_setoption(Session *s, int argc, char **argv)
{
	/* setoption name <words> [value <words>] */
	char name[256] = "", value[OPTION_VALUE_MAX] = "";
	int i = 0;
	if (argc < 2 || !proto_eq(argv[0], "name")) {
		error_line(s, "usage: setoption name <name> value <value>");
		return;
	}
	for (i = 1; i < argc && !proto_eq(argv[i], "value"); i++)
		;
	proto_join(name, sizeof name, argv, 1, i);
	proto_join(value, sizeof value, argv, i + 1 < argc ? i + 1 : argc, argc);
	int id = options_find(name);
	if (id < 0)
		return; /* unknown names are ignored, as the runner expects */
	if (!strcmp(value, "<empty>"))
		value[0] = 0;
	char err[OPTIONS_ERR];
	if (session_set_option(s, (OptionId)id, value, err) != SESSION_OPTION_OK)
		error_line(s, "%s", err);
}

/* A new size is a new game. */
static void option_changed(Session *s, OptionId id)
{
	if (id == OPT_SIZE)
		game_init(&s->game, session_size(s), options_variant(&s->opts));
}

static void cmd_query(Session *s, int argc, char **argv)
{
	if (argc != 1) {
		error_line(s, "usage: query p1turn|gameover|result");
		return;
	}
	const Game *g = &s->game;
	if (proto_eq(argv[0], "p1turn"))
		proto_out_line(&s->out, "response %s", g->side == BLACK ? "true" : "false");
	else if (proto_eq(argv[0], "gameover"))
		proto_out_line(&s->out, "response %s", game_is_over(g) ? "true" : "false");
	else if (proto_eq(argv[0], "result")) {
		const char *r = "none";
		if (game_is_over(g)) {
			int w = game_winner(g);
			r = w == BLACK ? "p1win" : w == WHITE ? "p2win" : "draw";
		}
		proto_out_line(&s->out, "response %s", r);
	} else
		error_line(s, "unknown query '%.40s'", argv[0]);
}

static void cmd_ugi(Session *s, int argc, char **argv)
{
	proto_out_line(&s->out, "id name " UGI_NAME);
	proto_out_line(&s->out, "id author " UGI_AUTHOR);
	for (int i = 0; i < OPT_COUNT; i++)
		option_line(s, (OptionId)i);
	proto_out_line(&s->out, "ugiok");
}

static void cmd_isready(Session *s, int argc, char **argv)
{
	proto_out_line(&s->out, "readyok");
}

static void cmd_stop(Session *s, int argc, char **argv)
{
	proto_search_stop(&s->search);
}

static void cmd_uginewgame(Session *s, int argc, char **argv)
{
	game_init(&s->game, session_size(s), options_variant(&s->opts));
	engine_new_game(s->pe.engine);
}

static void cmd_ponderhit(Session *s, int argc, char **argv)
{
	/* no pondering: nothing to do */
}

static void unknown(Session *s, int argc, char **argv)
{
	char q[TEXT_QUOTE_MAX];
	error_line(s, "unknown command '%s'", text_quote(argv[0], q));
}

static void too_long(Session *s)
{
	error_line(s, "line too long (more than %d bytes)", PROTO_LINE_MAX - 1);
}

static void too_many_words(Session *s)
{
	error_line(s, "too many words on one line");
}

/* isready, stop and quit are served while a search runs; the others wait
 * for a finite search and stop an infinite one. */
static const SessionCommand ugi_commands[] = {
	{ "isready", cmd_isready, SESSION_ANYTIME, NULL, NULL },
	{ "stop", cmd_stop, SESSION_ANYTIME, NULL, NULL },
	{ "quit", session_cmd_quit, SESSION_ANYTIME, NULL, NULL },
	{ "ugi", cmd_ugi, 0, NULL, NULL },
	{ "uginewgame", cmd_uginewgame, 0, NULL, NULL },
	{ "position", cmd_position, 0, NULL, NULL },
	{ "go", cmd_go, 0, NULL, NULL },
	{ "setoption", cmd_setoption, 0, NULL, NULL },
	{ "query", cmd_query, 0, NULL, NULL },
	{ "ponderhit", cmd_ponderhit, 0, NULL, NULL },
	{ NULL, NULL, 0, NULL, NULL }
};

static const SessionProtocol ugi_protocol = {
	.commands = ugi_commands,
	.too_long = too_long,
	.too_many_words = too_many_words,
	.unknown = unknown,
	.option_changed = option_changed,
};

Ugi *ugi_new(FILE *out, const Options *opts, char *err)
{
	Ugi *u = (Ugi *)session_new(&ugi_protocol, sizeof *u, out, opts, err);
	if (u)
		session_warn_book(&u->s);
	return u;
}

SESSION_FORWARDERS(Ugi, ugi)

int ugi_main(FILE *in, FILE *out, const Options *opts)
{
	char err[OPTIONS_ERR];
	Ugi *u = ugi_new(out, opts, err);
	return session_main(u ? &u->s : NULL, in, err);
}
