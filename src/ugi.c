#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "proto_io.h"
#include "proto_search.h"
#include "text.h"
#include "timeman.h"
#include "ugi.h"
#include "util.h"

#define UGI_NAME "Emilia"
#define UGI_AUTHOR "the Emilia authors"

struct Ugi {
	ProtoOut out;
	Options opts;
	Options init_opts;
	ProtoEngine pe;
	Game game;
	ProtoSearch search;
	uint64_t node_cap;
	bool quit;
};

static void error_line(Ugi *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void error_line(Ugi *u, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	proto_out_line(&u->out, "info string error: %s", msg);
}

static int board_size(const Ugi *u)
{
	return atoi(options_get(&u->opts, OPT_SIZE));
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
	Ugi *u = user;
	char line[ENGINE_MAX_PV * 6 + 256];
	size_t n = 0;
	double s = info->seconds > 0 ? info->seconds : 0;
	n += (size_t)snprintf(line + n, sizeof line - n, "info depth %d", info->depth);
	if (info->multipv_index > 0)
		n += (size_t)snprintf(line + n, sizeof line - n, " multipv %d", info->multipv_index);
	n += (size_t)snprintf(line + n, sizeof line - n, " score cp %d time %.0f nodes %llu nps %.0f",
	                      info->score * 100, s * 1000.0, (unsigned long long)info->nodes,
	                      s > 0 ? (double)info->nodes / s : 0.0);
	if (info->pvlen > 0) {
		n += (size_t)snprintf(line + n, sizeof line - n, " pv");
		for (int i = 0; i < info->pvlen && i < ENGINE_MAX_PV && n + 8 < sizeof line; i++) {
			char m[8];
			move_text(info->pv[i], m);
			n += (size_t)snprintf(line + n, sizeof line - n, " %s", m);
		}
	}
	proto_out_line(&u->out, "%s", line);
}

static void on_done(void *user, const Game *g, const EngineInfo *r, bool stopped)
{
	Ugi *u = user;
	char m[8];
	move_text(r->move, m);
	/* exactly two tokens: the runner ignores anything longer */
	proto_out_line(&u->out, "bestmove %s", m);
}

/* ---- positions -------------------------------------------------------------- */

static bool parse_side(const char *s, int *side)
{
	if (!s || !s[0] || s[1])
		return false;
	*side = text_side_char((unsigned char)s[0]);
	return *side != TEXT_NOT_SQUARE;
}

/* A FEN: the squares a1..h8 as X/O/- (64 or 36 of them), or rows with
 * digits for runs of empties separated by '/'; then the side to move. */
static bool parse_fen(const char *squares, const char *side_s, Game *out, Variant v, char *err)
{
	uint64_t black = 0, white = 0;
	int size;
	int side;
	if (!parse_side(side_s, &side)) {
		snprintf(err, 160, "fen: side to move must be X or O");
		return false;
	}
	if (strchr(squares, '/')) {
		int rows = 1;
		for (const char *p = squares; *p; p++)
			rows += *p == '/';
		if (rows != 8 && rows != 6) {
			snprintf(err, 160, "fen: %d rows, expected 8 or 6", rows);
			return false;
		}
		size = rows;
		int r = 0, c = 0;
		for (const char *p = squares; *p; p++) {
			char ch = *p;
			if (ch == '/') {
				if (c != size) {
					snprintf(err, 160, "fen: row %d has %d squares", r + 1, c);
					return false;
				}
				r++;
				c = 0;
			} else if (ch >= '1' && ch <= '8') {
				c += ch - '0';
			} else if (c < size && text_square_char((unsigned char)ch) != TEXT_NOT_SQUARE) {
				int sq = r * 8 + c, disc = text_square_char((unsigned char)ch);
				if (disc == BLACK)
					black |= bit_of(sq);
				else if (disc == WHITE)
					white |= bit_of(sq);
				c++;
			} else {
				snprintf(err, 160, "fen: bad character '%c' in row %d", isprint((unsigned char)ch) ? ch : '?', r + 1);
				return false;
			}
			if (c > size) {
				snprintf(err, 160, "fen: row %d has too many squares", r + 1);
				return false;
			}
		}
		if (c != size) {
			snprintf(err, 160, "fen: row %d has %d squares", r + 1, c);
			return false;
		}
	} else {
		size_t n = strlen(squares);
		if (n != 64 && n != 36) {
			snprintf(err, 160, "fen: %zu squares, expected 64 (or 36)", n);
			return false;
		}
		size = n == 64 ? 8 : 6;
		size_t k;
		if (text_read_diagram(squares, size, false, &black, &white, &k) != (int)n) {
			char ch = squares[k];
			snprintf(err, 160, "fen: bad character '%c' at square %zu", isprint((unsigned char)ch) ? ch : '?', k + 1);
			return false;
		}
	}
	game_init(out, size, v);
	Board b = { side == BLACK ? black : white, side == BLACK ? white : black };
	game_set(out, b, side);
	return true;
}

static int parse_ugi_move(const char *s, int size)
{
	if (!strcmp(s, "0000"))
		return BOARD_PASS;
	return text_parse_move(s, size);
}

static void cmd_position(Ugi *u, int argc, char **argv)
{
	Game t;
	char err[160];
	int i = 0;
	Variant v = options_variant(&u->opts);
	if (argc >= 1 && proto_eq(argv[0], "startpos")) {
		game_init(&t, board_size(u), v);
		i = 1;
	} else if (argc >= 3 && proto_eq(argv[0], "fen")) {
		if (!parse_fen(argv[1], argv[2], &t, v, err)) {
			error_line(u, "%s", err);
			return;
		}
		i = 3;
	} else {
		error_line(u, "usage: position startpos|fen <squares> <side> [moves m1 m2 ...]");
		return;
	}
	if (i < argc) {
		if (!proto_eq(argv[i], "moves")) {
			error_line(u, "position: expected 'moves', got '%.40s'", argv[i]);
			return;
		}
		for (i++; i < argc; i++) {
			int mv = parse_ugi_move(argv[i], t.size);
			GameStatus st;
			if (mv < 0) {
				error_line(u, "position: invalid move '%.40s'", argv[i]);
				return;
			}
			if (mv == BOARD_PASS)
				st = game_must_pass(&t) ? game_play(&t, BOARD_PASS) : GAME_NOT_PASS;
			else
				st = game_play_colour(&t, t.side, mv) == GAME_OK ? GAME_OK
				     : game_play_colour(&t, !t.side, mv);
			if (st != GAME_OK) {
				error_line(u, "position: illegal move '%.40s' (move %d)", argv[i], t.nply + 1);
				return;
			}
		}
	}
	u->game = t;
}

/* ---- go ---------------------------------------------------------------------- */

bool ugi_go_limits(const Ugi *u, int argc, char **argv, EngineLimits *out, char *err, size_t errlen)
{
	EngineLimits lim;
	memset(&lim, 0, sizeof lim);
	lim.time_left = -1;
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
		if (!v || !util_parse_int(v, -1000000000L, 1000000000000L, &x)) {
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
	int c = u->game.side;
	lim.overhead = (double)options_int(&u->opts, OPT_OVERHEAD) / 1000.0;
	if (movetime > 0)
		lim.movetime = (double)movetime / 1000.0;
	if (t[c] != LONG_MIN) {
		lim.time_left = t[c] > 0 ? (double)t[c] / 1000.0 : 0;
		lim.increment = (double)inc[c] / 1000.0;
		lim.moves_to_go = mtg > 0 && mtg < 1000 ? (int)mtg : 0;
	}
	if (depth > 0)
		lim.depth = depth > 60 ? 60 : (int)depth;
	if (nodes > 0)
		lim.nodes = (uint64_t)nodes;
	if (u->node_cap && (!lim.nodes || lim.nodes > u->node_cap))
		lim.nodes = u->node_cap;
	lim.infinite = infinite && !u->node_cap;
	*out = lim;
	return true;
}

static void cmd_go(Ugi *u, int argc, char **argv)
{
	EngineLimits lim;
	char err[256];
	if (!ugi_go_limits(u, argc, argv, &lim, err, sizeof err)) {
		error_line(u, "%s", err);
		return;
	}
	const Game *g = &u->game;
	char m[8];
	int forced = proto_search_legal_move(g, -1);
	if (!game_moves(g)) {
		/* pass or game over: nothing to search */
		move_text(forced, m);
		proto_out_line(&u->out, "bestmove %s", m);
		return;
	}
	double hard = timeman_deadline(&lim);
	if (!proto_search_start(&u->search, u->pe.engine, g, &lim, hard, on_info, on_done, u))
		error_line(u, "cannot start the search");
}

/* ---- the rest ------------------------------------------------------------------ */

static void option_line(Ugi *u, OptionId id)
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
	proto_out_line(&u->out, "%s", buf);
}

static void cmd_setoption(Ugi *u, int argc, char **argv)
{
	/* setoption name <words> [value <words>] */
	char name[256] = "", value[OPTION_VALUE_MAX] = "";
	int i = 0;
	if (argc < 2 || !proto_eq(argv[0], "name")) {
		error_line(u, "usage: setoption name <name> value <value>");
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
	Options save = u->opts;
	if (!options_set(&u->opts, (OptionId)id, value, err)) {
		error_line(u, "%s", err);
		return;
	}
	if (!options_apply(&u->opts, (OptionId)id, &u->pe, err)) {
		u->opts = save;
		error_line(u, "%s", err);
		return;
	}
	if (id == OPT_VARIANT)
		u->game.variant = options_variant(&u->opts);
	if (id == OPT_SIZE)
		game_init(&u->game, board_size(u), options_variant(&u->opts));
}

static void cmd_query(Ugi *u, int argc, char **argv)
{
	if (argc != 1) {
		error_line(u, "usage: query p1turn|gameover|result");
		return;
	}
	const Game *g = &u->game;
	if (proto_eq(argv[0], "p1turn"))
		proto_out_line(&u->out, "response %s", g->side == BLACK ? "true" : "false");
	else if (proto_eq(argv[0], "gameover"))
		proto_out_line(&u->out, "response %s", game_is_over(g) ? "true" : "false");
	else if (proto_eq(argv[0], "result")) {
		const char *r = "none";
		if (game_is_over(g)) {
			int w = game_winner(g);
			r = w == BLACK ? "p1win" : w == WHITE ? "p2win" : "draw";
		}
		proto_out_line(&u->out, "response %s", r);
	} else
		error_line(u, "unknown query '%.40s'", argv[0]);
}

Ugi *ugi_new(FILE *out, const Options *opts, char *err)
{
	Ugi *u = calloc(1, sizeof *u);
	if (!u) {
		snprintf(err, OPTIONS_ERR, "out of memory");
		return NULL;
	}
	u->opts = *opts;
	u->opts.on_change = NULL;
	char book_err[OPTIONS_ERR] = "";
	if (!options_engine_open(&u->pe, &u->opts, err, book_err)) {
		free(u);
		return NULL;
	}
	if (book_err[0] && options_get(&u->opts, OPT_BOOK)[0])
		fprintf(stderr, "emilia: book: %s (playing without it)\n", book_err);
	u->init_opts = u->opts;
	proto_out_init(&u->out, out);
	proto_search_init(&u->search);
	game_init(&u->game, board_size(u), options_variant(&u->opts));
	return u;
}

void ugi_free(Ugi *u)
{
	if (!u)
		return;
	proto_search_destroy(&u->search);
	options_engine_close(&u->pe);
	proto_out_destroy(&u->out);
	free(u);
}

void ugi_reset(Ugi *u)
{
	proto_search_stop(&u->search);
	options_restore(&u->opts, &u->init_opts, &u->pe);
	game_init(&u->game, board_size(u), options_variant(&u->opts));
	u->quit = false;
}

void ugi_set_node_cap(Ugi *u, uint64_t nodes)
{
	u->node_cap = nodes;
}

void ugi_wait(Ugi *u)
{
	proto_search_wait(&u->search);
}

static bool execute(Ugi *u, char *line, bool too_long)
{
	if (too_long) {
		error_line(u, "line too long (more than %d bytes)", PROTO_LINE_MAX - 1);
		return true;
	}
	char *argv[PROTO_MAX_ARGS];
	int argc = proto_split(line, argv, PROTO_MAX_ARGS);
	if (argc == 0)
		return true;
	if (argc == PROTO_MAX_ARGS && strchr(argv[argc - 1], ' ')) {
		error_line(u, "too many words on one line");
		return true;
	}
	const char *cmd = argv[0];
	/* commands served while a search runs */
	if (proto_eq(cmd, "isready")) {
		proto_out_line(&u->out, "readyok");
		return true;
	}
	if (proto_eq(cmd, "stop")) {
		proto_search_stop(&u->search);
		return true;
	}
	if (proto_eq(cmd, "quit")) {
		proto_search_stop(&u->search);
		u->quit = true;
		return false;
	}
	if (proto_search_infinite(&u->search))
		proto_search_stop(&u->search);
	else
		proto_search_wait(&u->search);
	if (proto_eq(cmd, "ugi")) {
		proto_out_line(&u->out, "id name " UGI_NAME);
		proto_out_line(&u->out, "id author " UGI_AUTHOR);
		for (int i = 0; i < OPT_COUNT; i++)
			option_line(u, (OptionId)i);
		proto_out_line(&u->out, "ugiok");
	} else if (proto_eq(cmd, "uginewgame")) {
		game_init(&u->game, board_size(u), options_variant(&u->opts));
		engine_new_game(u->pe.engine);
	} else if (proto_eq(cmd, "position")) {
		cmd_position(u, argc - 1, argv + 1);
	} else if (proto_eq(cmd, "go")) {
		cmd_go(u, argc - 1, argv + 1);
	} else if (proto_eq(cmd, "setoption")) {
		cmd_setoption(u, argc - 1, argv + 1);
	} else if (proto_eq(cmd, "query")) {
		cmd_query(u, argc - 1, argv + 1);
	} else if (proto_eq(cmd, "ponderhit")) {
		/* no pondering: nothing to do */
	} else {
		char q[170];
		error_line(u, "unknown command '%s'", text_quote(cmd, q));
	}
	return true;
}

bool ugi_execute_line(Ugi *u, const char *line)
{
	ProtoLine *l = malloc(sizeof *l);
	if (!l)
		return true;
	bool too_long = proto_clean_line(line, l) == PROTO_LINE_TOO_LONG;
	bool r = execute(u, l->text, too_long);
	free(l);
	return r;
}

void ugi_run(Ugi *u, FILE *in)
{
	ProtoLine *line = malloc(sizeof *line);
	if (!line)
		return;
	for (;;) {
		ProtoLineStatus st = proto_read_line(in, line);
		if (st == PROTO_LINE_EOF)
			break;
		if (!execute(u, line->text, st == PROTO_LINE_TOO_LONG))
			break;
	}
	/* end of input: let a finite search finish and report */
	if (proto_search_infinite(&u->search))
		proto_search_stop(&u->search);
	else
		proto_search_wait(&u->search);
	free(line);
}

int ugi_main(FILE *in, FILE *out, const Options *opts)
{
	char err[OPTIONS_ERR];
	Ugi *u = ugi_new(out, opts, err);
	if (!u) {
		fprintf(stderr, "emilia: %s\n", err);
		return 1;
	}
	ugi_run(u, in);
	ugi_free(u);
	return 0;
}
