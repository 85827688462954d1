#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "gamefile.h"
#include "gtp.h"
#include "session.h"
#include "text.h"
#include "util.h"

#define GTP_NAME "Emilia"

/* The reply of one command: the dispatcher frames it. */
#define GTP_ID_MAX 32 /* digits of an id echoed; a longer id is refused */

typedef struct GtpReply {
	char id[GTP_ID_MAX + 1]; /* the id's digits as sent; "" when none */
	bool ok;
	ProtoBuf text;
} GtpReply;

struct Gtp {
	Session s;          /* options, engine, game, the read-execute loop */
	/* explicit[i]: ply i is a pass the controller sent or was told about
	 * (play pass, genmove answering PASS); other passes are implicit. */
	bool explicit_pass[GAME_MAX_PLY];
	Scoring scoring;
	/* time_settings: main time, byo-yomi period and stones */
	bool timed;
	double main_time, byo_time;
	int byo_stones;
	double clock[2];   /* seconds left in the current period */
	int stones[2];     /* stones left in the byo-yomi period, 0 = main time */
	GtpReply reply;
};

static Gtp *gtp_of(Session *s)
{
	return (Gtp *)s;
}

/* ---- replies ------------------------------------------------------------ */

static void reply_v(Session *s, bool ok, const char *fmt, va_list ap)
{
	Gtp *g = gtp_of(s);
	g->reply.ok = ok;
	proto_buf_clear(&g->reply.text);
	proto_buf_vprintf(&g->reply.text, fmt, ap);
}

static void reply_ok(Session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply_ok(Session *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	reply_v(s, true, fmt, ap);
	va_end(ap);
}

static void reply_err(Session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply_err(Session *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	reply_v(s, false, fmt, ap);
	va_end(ap);
}

/* Append to a multi-line reply (after reply_ok). */
static void reply_add(Session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply_add(Session *s, const char *fmt, ...)
{
	Gtp *g = gtp_of(s);
	va_list ap;
	va_start(ap, fmt);
	proto_buf_vprintf(&g->reply.text, fmt, ap);
	va_end(ap);
}

/* `=id text` / `?id text`, then the empty line.  A multi-line text must not
 * contain an empty line (it would end the reply early): empty lines inside
 * are dropped and the text's own final newline is not doubled. */
static void reply_send(Gtp *g)
{
	FILE *f = g->s.out.f;
	fputc(g->reply.ok ? '=' : '?', f);
	fputs(g->reply.id, f);
	const char *s = g->reply.text.s;
	size_t n = g->reply.text.len;
	while (n && s[n - 1] == '\n')
		n--;
	if (n && s[0] != '\n')
		fputc(' ', f);
	bool line_start = false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n' && line_start && i > 0)
			continue;
		proto_put_byte(f, (unsigned char)s[i], true);
		line_start = s[i] == '\n';
	}
	fputs("\n\n", f);
	fflush(f);
}

/* ---- helpers ------------------------------------------------------------ */

static int parse_colour(const char *s)
{
	if (!s)
		return -1;
	if (proto_eq(s, "b") || proto_eq(s, "black"))
		return BLACK;
	if (proto_eq(s, "w") || proto_eq(s, "white"))
		return WHITE;
	return -1;
}

static const char *colour_name(int c)
{
	return c == BLACK ? "black" : "white";
}

static void reset_clocks(Gtp *g)
{
	for (int c = 0; c < 2; c++) {
		if (g->main_time > 0) {
			g->clock[c] = g->main_time;
			g->stones[c] = 0;
		} else {
			g->clock[c] = g->byo_time;
			g->stones[c] = g->byo_stones;
		}
	}
}

static void new_game(Gtp *g, int size)
{
	game_init(&g->s.game, size, options_variant(&g->s.opts));
	memset(g->explicit_pass, 0, sizeof g->explicit_pass);
	reset_clocks(g);
	engine_new_game(g->s.pe.engine);
}

/* Play `move` for the side to move, recording whether it is explicit. */
static GameStatus play_ply(Gtp *g, int move, bool explicit_pass)
{
	int k = g->s.game.nply;
	GameStatus st = game_play(&g->s.game, move);
	if (st == GAME_OK)
		g->explicit_pass[k] = move == BOARD_PASS && explicit_pass;
	return st;
}

/* Play a move for `colour`, passing (implicitly) for the side to move
 * first when it must pass.  All or nothing. */
static GameStatus play_colour(Gtp *g, int colour, int move)
{
	if (colour == g->s.game.side)
		return play_ply(g, move, true);
	if (!game_must_pass(&g->s.game))
		return game_is_over(&g->s.game) ? GAME_OVER : GAME_ILLEGAL;
	Game save = g->s.game;
	GameStatus st = play_ply(g, BOARD_PASS, false);
	if (st == GAME_OK)
		st = play_ply(g, move, true);
	if (st != GAME_OK)
		g->s.game = save;
	return st;
}

static bool last_is_implicit_pass(const Gtp *g)
{
	int k = g->s.game.nply - 1;
	return k >= 0 && g->s.game.hist[k].move == BOARD_PASS && !g->explicit_pass[k];
}

static void strip_implicit_passes(Gtp *g)
{
	while (last_is_implicit_pass(g))
		game_undo(&g->s.game);
}

/* Limits of a search for the side to move: the clocks (if any) in the
 * terms of the clock model (timeman.h), the cap. */
static EngineLimits search_limits(const Gtp *g)
{
	EngineLimits lim = session_limits(&g->s);
	if (g->timed) {
		int c = g->s.game.side;
		lim.time_left = g->clock[c] > 0 ? g->clock[c] : 0;
		lim.overhead = (double)options_int(&g->s.opts, OPT_OVERHEAD) / 1000.0;
		if (g->stones[c] > 0) {
			/* in a byo-yomi period: its stones within its time */
			lim.moves_to_go = g->stones[c];
		} else if (g->byo_stones > 0 && g->byo_time > 0) {
			/* main time, then byo-yomi periods */
			lim.byo_time = g->byo_time;
			lim.byo_moves = g->byo_stones;
		}
	}
	return lim;
}

EngineLimits gtp_limits(const Gtp *g)
{
	return search_limits(g);
}

/* Charge a move's thinking time to a clock, as the controller would. */
static void charge_clock(Gtp *g, int c, double seconds)
{
	if (!g->timed)
		return;
	g->clock[c] -= seconds;
	if (g->stones[c] > 0) {
		if (--g->stones[c] == 0) {
			g->clock[c] = g->byo_time;
			g->stones[c] = g->byo_stones;
		}
	} else if (g->clock[c] <= 0 && g->byo_stones > 0) {
		g->clock[c] = g->byo_time;
		g->stones[c] = g->byo_stones;
	}
}

static bool parse_double(const char *s, double *out)
{
	if (!s || !*s)
		return false;
	char *end;
	double v = strtod(s, &end);
	if (*end || v != v || v < -1e9 || v > 1e9)
		return false;
	*out = v;
	return true;
}

static void score_text(int score, char *out)
{
	sprintf(out, "%+d", score);
}

/* ---- standard commands --------------------------------------------------- */

static void cmd_protocol_version(Session *s, int argc, char **argv)
{
	reply_ok(s, "2");
}

static void cmd_name(Session *s, int argc, char **argv)
{
	reply_ok(s, GTP_NAME);
}

static void cmd_version(Session *s, int argc, char **argv)
{
	reply_ok(s, EMILIA_VERSION);
}

static void cmd_known_command(Session *s, int argc, char **argv);
static void cmd_list_commands(Session *s, int argc, char **argv);
static void cmd_help(Session *s, int argc, char **argv);

static void cmd_list_games(Session *s, int argc, char **argv)
{
	reply_ok(s, "Othello");
}

static void cmd_set_game(Session *s, int argc, char **argv)
{
	if (argc != 1) {
		reply_err(s, "usage: set_game Othello");
		return;
	}
	if (!proto_eq(argv[0], "Othello") && !proto_eq(argv[0], "Reversi")) {
		reply_err(s, "unsupported game");
		return;
	}
	reply_ok(s, "%s", "");
}

static void cmd_boardsize(Session *s, int argc, char **argv)
{
	Gtp *g = gtp_of(s);
	long n = 0;
	if (argc != 1 || !proto_is_integer(argv[0])) {
		reply_err(s, "boardsize not an integer");
		return;
	}
	if (!util_parse_int(argv[0], 1, 64, &n) || (n != 8 && n != 6)) {
		reply_err(s, "unacceptable size");
		return;
	}
	char err[OPTIONS_ERR];
	Options save = s->opts;
	s->opts.on_change = NULL;
	options_set(&s->opts, OPT_SIZE, argv[0], err);
	s->opts.on_change = save.on_change;
	new_game(g, (int)n);
	reply_ok(s, "%s", "");
}

static void cmd_clear_board(Session *s, int argc, char **argv)
{
	Gtp *g = gtp_of(s);
	new_game(g, s->game.size);
	reply_ok(s, "%s", "");
}

static void cmd_komi(Session *s, int argc, char **argv)
{
	double k;
	if (argc != 1 || !parse_double(argv[0], &k)) {
		reply_err(s, "komi not a float");
		return;
	}
	reply_ok(s, "%s", "");
}

static void cmd_play(Session *s, int argc, char **argv)
{
	Gtp *g = gtp_of(s);
	int c = argc == 2 ? parse_colour(argv[0]) : -1;
	if (c < 0) {
		reply_err(s, argc == 2 ? "invalid color" : "usage: play <color> <move>");
		return;
	}
	int mv = text_parse_move(argv[1], s->game.size);
	if (mv < 0) {
		reply_err(s, "invalid coordinate");
		return;
	}
	Game *gm = &s->game;
	if (mv == BOARD_PASS) {
		if (c == gm->side && game_must_pass(gm)) {
			play_ply(g, BOARD_PASS, true);
		} else if (c != gm->side && gm->nply > 0 && gm->hist[gm->nply - 1].move == BOARD_PASS &&
		           gm->hist[gm->nply - 1].side == c) {
			/* the pass is already on the board (inferred, or made by our
			 * genmove): the controller now counts it as a move */
			g->explicit_pass[gm->nply - 1] = true;
		} else if (!game_is_over(gm)) {
			reply_err(s, "illegal move");
			return;
		}
		reply_ok(s, "%s", "");
		return;
	}
	if (play_colour(g, c, mv) != GAME_OK) {
		reply_err(s, "illegal move");
		return;
	}
	reply_ok(s, "%s", "");
}

/* genmove and reg_genmove. */
static void generate(Session *s, int argc, char **argv, bool commit)
{
	Gtp *g = gtp_of(s);
	int c = argc == 1 ? parse_colour(argv[0]) : -1;
	if (c < 0) {
		reply_err(s, argc == 1 ? "invalid color" : "usage: genmove <color>");
		return;
	}
	Game *gm = &s->game;
	if (game_is_over(gm)) {
		reply_ok(s, "PASS");
		return;
	}
	Game save = *gm;
	if (c != gm->side) {
		if (!game_must_pass(gm)) {
			reply_err(s, "it is %s's turn", colour_name(gm->side));
			return;
		}
		play_ply(g, BOARD_PASS, false);
	}
	if (game_must_pass(gm)) {
		if (commit)
			play_ply(g, BOARD_PASS, true);
		else
			*gm = save;
		reply_ok(s, "PASS");
		return;
	}
	double t0 = util_now();
	EngineLimits lim = search_limits(g);
	int mv = session_search(s, &lim, NULL, NULL).move;
	char name[8];
	text_square_upper(mv, name);
	if (commit) {
		play_ply(g, mv, true);
		charge_clock(g, c, util_now() - t0);
	} else {
		*gm = save;
	}
	reply_ok(s, "%s", name);
}

static void cmd_genmove(Session *s, int argc, char **argv)
{
	generate(s, argc, argv, true);
}

static void cmd_reg_genmove(Session *s, int argc, char **argv)
{
	generate(s, argc, argv, false);
}

static void cmd_undo(Session *s, int argc, char **argv)
{
	Gtp *g = gtp_of(s);
	Game save = s->game;
	strip_implicit_passes(g);
	if (!game_undo(&s->game)) {
		s->game = save;
		reply_err(s, "cannot undo");
		return;
	}
	strip_implicit_passes(g);
	reply_ok(s, "%s", "");
}

static void cmd_time_settings(Session *s, int argc, char **argv)
{
	Gtp *g = gtp_of(s);
	double main_time, byo_time;
	long stones;
	if (argc != 3 || !parse_double(argv[0], &main_time) || !parse_double(argv[1], &byo_time) ||
	    !util_parse_int(argv[2], 0, 1000000, &stones) || main_time < 0 || byo_time < 0) {
		reply_err(s, "usage: time_settings <main> <byo_yomi_time> <byo_yomi_stones>");
		return;
	}
	g->main_time = main_time;
	g->byo_time = byo_time;
	g->byo_stones = (int)stones;
	/* GTP: byo-yomi time with no stones means no time limit; so does a
	 * clock with nothing on it. */
	g->timed = !(byo_time > 0 && stones == 0) && !(main_time == 0 && byo_time == 0);
	if (g->byo_time <= 0 || g->byo_stones <= 0) {
		g->byo_time = 0;
		g->byo_stones = 0;
	}
	reset_clocks(g);
	reply_ok(s, "%s", "");
}

static void cmd_time_left(Session *s, int argc, char **argv)
{
	Gtp *g = gtp_of(s);
	int c = argc == 3 ? parse_colour(argv[0]) : -1;
	double t;
	long stones;
	if (c < 0 || !parse_double(argv[1], &t) || !util_parse_int(argv[2], 0, 1000000, &stones) || t < 0) {
		reply_err(s, "usage: time_left <color> <seconds> <stones>");
		return;
	}
	g->clock[c] = t;
	g->stones[c] = (int)stones;
	if (!g->timed && (t > 0 || stones > 0)) {
		/* a controller that never sent time_settings still has a clock */
		g->timed = true;
	}
	reply_ok(s, "%s", "");
}

static void cmd_showboard(Session *s, int argc, char **argv)
{
	char pic[2048];
	text_board_picture(&s->game, true, pic, sizeof pic);
	reply_ok(s, "\n%s", pic);
}

/* Finished game: the score under the scoring rule.  Mid-game: the
 * engine's estimate of the final score (GTP), from a search of the
 * position at the session's level without the clock (the clocks are not
 * charged), Black's margin with the empty squares to the winner as the
 * solver counts it; exact once the level solves the position. */
static void cmd_final_score(Session *s, int argc, char **argv)
{
	Gtp *g = gtp_of(s);
	int m;
	if (game_is_over(&s->game))
		m = game_margin(&s->game, g->scoring);
	else {
		Game t = s->game;
		if (game_must_pass(&t))
			game_play(&t, BOARD_PASS);
		EngineLimits lim = session_limits(s);
		EngineInfo r = engine_search(s->pe.engine, &t, &lim, NULL, NULL);
		m = t.side == BLACK ? r.score : -r.score;
	}
	if (m > 0)
		reply_ok(s, "B+%d", m);
	else if (m < 0)
		reply_ok(s, "W+%d", -m);
	else
		reply_ok(s, "0");
}

static void cmd_quit(Session *s, int argc, char **argv)
{
	s->quit = true;
	reply_ok(s, "%s", "");
}

/* ---- loadsgf -------------------------------------------------------------- */

/* Load the main line of an SGF game record into g; stop before move
 * `upto` (1-based) when upto > 0.  All or nothing (gamefile.h). */
static bool load_sgf(Gtp *g, const char *text, long upto, char *err, size_t errlen)
{
	Game t = g->s.game;
	bool expl[GAME_MAX_PLY];
	if (!gamefile_parse_sgf(text, upto, &t, expl, err, errlen))
		return false;
	g->s.game = t;
	memcpy(g->explicit_pass, expl, sizeof expl);
	return true;
}

bool gtp_load_sgf(Gtp *g, const char *text, long upto, char *err, size_t errlen)
{
	return load_sgf(g, text, upto, err, errlen);
}

static void cmd_loadsgf(Session *s, int argc, char **argv)
{
	Gtp *g = gtp_of(s);
	long upto = 0;
	if (argc < 1 || argc > 2 || (argc == 2 && !util_parse_int(argv[1], 1, 1000, &upto))) {
		reply_err(s, "usage: loadsgf <file> [move_number]");
		return;
	}
	if (s->opts.sandbox) {
		reply_err(s, "cannot load file: files are disabled in this session");
		return;
	}
	char why[160];
	FILE *f = proto_open_regular(argv[0], why, sizeof why);
	if (!f) {
		reply_err(s, "cannot load file: %s", why);
		return;
	}
	char *buf = malloc(1 << 20);
	if (!buf) {
		fclose(f);
		reply_err(s, "out of memory");
		return;
	}
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	buf[n] = 0;
	char err[TEXT_QUOTE_MAX + 64];
	if (!load_sgf(g, buf, upto, err, sizeof err))
		reply_err(s, "cannot load file: %s", err);
	else
		reply_ok(s, "%s", colour_name(s->game.side));
	free(buf);
}

/* ---- extensions ---------------------------------------------------------- */

static void cmd_setboard(Session *s, int argc, char **argv)
{
	Gtp *g = gtp_of(s);
	char obf[80];
	if (argc == 0) {
		text_write_obf(s->game.board, s->game.side, s->game.size, obf);
		reply_ok(s, "%s", obf);
		return;
	}
	/* the OBF may arrive as "squares side" or with the side glued on */
	char line[PROTO_LINE_MAX];
	proto_join(line, sizeof line, argv, 0, argc);
	ObfPosition pos;
	char err[TEXT_ERR];
	if (!text_parse_obf(line, s->game.size, &pos, err)) {
		reply_err(s, "invalid position: %s", err);
		return;
	}
	game_set(&s->game, pos.board, pos.side);
	memset(g->explicit_pass, 0, sizeof g->explicit_pass);
	reply_ok(s, "%s", "");
}

static void cmd_transcript(Session *s, int argc, char **argv)
{
	Gtp *g = gtp_of(s);
	if (argc == 0) {
		char t[2 * GAME_MAX_PLY + 1];
		text_transcript(&s->game, t);
		reply_ok(s, "%s", t);
		return;
	}
	char line[PROTO_LINE_MAX];
	size_t n = 0;
	line[0] = 0;
	for (int i = 0; i < argc && n + 2 < sizeof line; i++)
		n += (size_t)snprintf(line + n, sizeof line - n, "%s", argv[i]);
	Game t;
	game_init(&t, s->game.size, s->game.variant);
	char err[TEXT_ERR];
	if (!text_apply_transcript(&t, line, err)) {
		reply_err(s, "invalid transcript: %s", err);
		return;
	}
	s->game = t;
	memset(g->explicit_pass, 0, sizeof g->explicit_pass);
	reply_ok(s, "%s", "");
}

static void cmd_legal(Session *s, int argc, char **argv)
{
	uint64_t m = game_moves(&s->game);
	reply_ok(s, "%s", "");
	if (!m && game_must_pass(&s->game))
		reply_add(s, "PASS");
	for (bool first = true; m; m = bit_pop(m), first = false) {
		char sq[8];
		text_square_upper(bit_first(m), sq);
		reply_add(s, "%s%s", first ? "" : " ", sq);
	}
}

/* "6", "100%" (exact) or "100%W" (win/loss/draw). */
static void depth_text(const EngineInfo *r, char *out)
{
	if (r->exact)
		strcpy(out, r->wld ? "100%W" : "100%");
	else if (r->book)
		strcpy(out, "book");
	else
		sprintf(out, "%d", r->depth);
}

static void pv_text(const EngineInfo *r, char *out, size_t len)
{
	size_t n = 0;
	out[0] = 0;
	for (int i = 0; i < r->pvlen && i < ENGINE_MAX_PV && n + 6 < len; i++) {
		char s[8];
		text_square_upper(r->pv[i], s);
		n += (size_t)snprintf(out + n, len - n, "%s%s", i ? " " : "", s);
	}
	if (!n) {
		char s[8];
		text_square_upper(r->move, s);
		snprintf(out, len, "%s", s);
	}
}

typedef struct AnalyzeLines {
	EngineInfo line[64];
	int n;
} AnalyzeLines;

static void analyze_info(const EngineInfo *info, void *user)
{
	AnalyzeLines *a = user;
	int k = info->multipv_index > 0 ? info->multipv_index - 1 : 0;
	if (k >= 64)
		return;
	a->line[k] = *info;
	if (k + 1 > a->n)
		a->n = k + 1;
}

static void cmd_analyze(Session *s, int argc, char **argv)
{
	Gtp *g = gtp_of(s);
	long n = 1;
	if (argc > 1 || (argc == 1 && !util_parse_int(argv[0], 1, 64, &n))) {
		reply_err(s, "usage: emilia-analyze [lines 1..64]");
		return;
	}
	Game *gm = &s->game;
	if (game_is_over(gm)) {
		reply_err(s, "the game is over");
		return;
	}
	if (game_must_pass(gm)) {
		reply_ok(s, "PASS");
		return;
	}
	int nmoves = bit_count(game_moves(gm));
	if (n > nmoves)
		n = nmoves;
	EngineLimits lim = search_limits(g);
	lim.time_left = -1;
	lim.multipv = (int)n;
	AnalyzeLines *a = calloc(1, sizeof *a);
	if (!a) {
		reply_err(s, "out of memory");
		return;
	}
	EngineInfo best = engine_search(s->pe.engine, gm, &lim, analyze_info, a);
	if (a->n == 0) {
		a->line[0] = best;
		a->n = 1;
	}
	if (a->n > n)
		a->n = (int)n;
	reply_ok(s, "%s", "");
	for (int i = 0; i < a->n; i++) {
		const EngineInfo *r = &a->line[i];
		char mv[8], sc[16], d[16], pv[ENGINE_MAX_PV * 3 + 8];
		text_square_upper(r->move, mv);
		score_text(r->score, sc);
		depth_text(r, d);
		pv_text(r, pv, sizeof pv);
		reply_add(s, "%s%s %s %s %s", i ? "\n" : "", mv, sc, d, pv);
	}
	free(a);
}

static void solve(Session *s, int argc, bool wld)
{
	Gtp *g = gtp_of(s);
	if (argc != 0) {
		reply_err(s, "usage: %s (no arguments)", wld ? "emilia-wld" : "emilia-solve");
		return;
	}
	Game *gm = &s->game;
	int empties = game_empties(gm);
	long limit = options_int(&s->opts, OPT_SOLVE_LIMIT);
	if (empties > limit && !game_is_over(gm)) { /* a finished game: its result at once */
		reply_err(s, "too many empties to solve (%d > solve-limit %ld)", empties, limit);
		return;
	}
	/* through the engine: its threads and table, bounded by the GTP clock */
	EngineLimits lim = search_limits(g);
	EngineInfo r = engine_solve_game(s->pe.engine, gm, wld, &lim);
	if (!r.exact && !r.wld) {
		reply_err(s, "solve stopped by the clock before the end: no result");
		return;
	}
	char mv[8];
	if (r.move == BOARD_NOMOVE)
		strcpy(mv, "PASS");
	else
		text_square_upper(r.move, mv);
	if (wld)
		reply_ok(s, "%s %s", mv, r.score > 0 ? "win" : r.score < 0 ? "loss" : "draw");
	else
		reply_ok(s, "%s %+d", mv, r.score);
}

static void cmd_solve(Session *s, int argc, char **argv)
{
	solve(s, argc, false);
}

static void cmd_wld(Session *s, int argc, char **argv)
{
	solve(s, argc, true);
}

static void option_command(Session *s, OptionId id, int argc, char **argv)
{
	const OptionDef *d = options_def(id);
	if (argc == 0) {
		reply_ok(s, "%s", options_get(&s->opts, id));
		return;
	}
	char value[PROTO_LINE_MAX];
	proto_join(value, sizeof value, argv, 0, argc);
	char err[OPTIONS_ERR];
	SessionOptionStatus st = session_set_option(s, id, value, err);
	if (st == SESSION_OPTION_BAD)
		reply_err(s, "%s", err);
	else if (st == SESSION_OPTION_REFUSED)
		reply_err(s, "%s: %s", d->name, err);
	else
		reply_ok(s, "%s", "");
}

static void cmd_option(Session *s, int argc, char **argv)
{
	if (argc == 0) {
		reply_ok(s, "%s", "");
		for (int i = 0; i < OPT_COUNT; i++)
			reply_add(s, "%s%s %s", i ? "\n" : "", options_def((OptionId)i)->name,
			          options_get(&s->opts, (OptionId)i)[0] ? options_get(&s->opts, (OptionId)i) : "\"\"");
		return;
	}
	int id = options_find(argv[0]);
	if (id < 0) {
		reply_err(s, "unknown option '%s'", argv[0]);
		return;
	}
	option_command(s, (OptionId)id, argc - 1, argv + 1);
}

/* Options that change the game in progress: the scoring rule, the board
 * size (a new game). */
static void option_changed(Session *s, OptionId id)
{
	Gtp *g = gtp_of(s);
	if (id == OPT_SCORING)
		g->scoring = options_scoring(&s->opts);
	else if (id == OPT_SIZE && session_size(s) != s->game.size)
		new_game(g, session_size(s));
}

/* ---- the command table --------------------------------------------------- */

static const SessionCommand gtp_commands[] = {
	{ "protocol_version", cmd_protocol_version, 0, "", "GTP version (2)" },
	{ "name", cmd_name, 0, "", "engine name" },
	{ "version", cmd_version, 0, "", "engine version" },
	{ "known_command", cmd_known_command, 0, "<command>", "true if the command exists" },
	{ "list_commands", cmd_list_commands, 0, "", "all commands, one per line" },
	{ "help", cmd_help, 0, "[command]", "commands with their arguments" },
	{ "list_games", cmd_list_games, 0, "", "games played: Othello" },
	{ "set_game", cmd_set_game, 0, "Othello", "choose the game (only Othello)" },
	{ "boardsize", cmd_boardsize, 0, "8|6", "new game on an 8x8 or 6x6 board" },
	{ "clear_board", cmd_clear_board, 0, "", "new game from the start position" },
	{ "komi", cmd_komi, 0, "<float>", "accepted and ignored" },
	{ "play", cmd_play, 0, "<color> <move|pass>", "play a move (implicit pass if the other side must pass)" },
	{ "genmove", cmd_genmove, 0, "<color>", "search, play and return a move (PASS when forced)" },
	{ "reg_genmove", cmd_reg_genmove, 0, "<color>", "search and return a move without playing it" },
	{ "undo", cmd_undo, 0, "", "take back the last move" },
	{ "time_settings", cmd_time_settings, 0, "<main> <byo_time> <byo_stones>", "set the clock" },
	{ "time_left", cmd_time_left, 0, "<color> <seconds> <stones>", "time left on a clock" },
	{ "showboard", cmd_showboard, 0, "", "draw the board (legal moves marked '.')" },
	{ "final_score", cmd_final_score, 0, "", "B+n, W+n or 0: the result, or the engine's estimate mid-game" },
	{ "loadsgf", cmd_loadsgf, 0, "<file> [move_number]", "load a game record" },
	{ "quit", cmd_quit, 0, "", "exit" },
	{ "emilia-setboard", cmd_setboard, 0, "[OBF]", "set the position from an OBF line (no argument: show it)" },
	{ "emilia-transcript", cmd_transcript, 0, "[moves]", "play a transcript from the start (no argument: show it)" },
	{ "emilia-legal", cmd_legal, 0, "", "legal moves of the side to move" },
	{ "emilia-analyze", cmd_analyze, 0, "[N]", "best N moves: move score depth pv" },
	{ "emilia-solve", cmd_solve, 0, "", "exact solve: best move and final disc difference" },
	{ "emilia-wld", cmd_wld, 0, "", "win/loss/draw solve: best move and result" },
	{ "emilia-option", cmd_option, 0, "[name [value]]", "list, show or set an option" },
	{ NULL, NULL, 0, NULL, NULL }
};

#define GTP_OPTION_PREFIX "emilia-"

/* Option commands: emilia-NAME for every registered option. */
static int find_option_command(const char *name)
{
	size_t n = strlen(GTP_OPTION_PREFIX);
	if (strncasecmp(name, GTP_OPTION_PREFIX, n) != 0)
		return -1;
	for (int i = 0; i < OPT_COUNT; i++)
		if (proto_eq(name + n, options_def((OptionId)i)->name))
			return i;
	return -1;
}

static void cmd_known_command(Session *s, int argc, char **argv)
{
	bool known = argc == 1 && (session_command(s->proto, argv[0]) || find_option_command(argv[0]) >= 0);
	reply_ok(s, "%s", known ? "true" : "false");
}

static void cmd_list_commands(Session *s, int argc, char **argv)
{
	reply_ok(s, "%s", "");
	for (int i = 0; gtp_commands[i].name; i++)
		reply_add(s, "%s%s", i ? "\n" : "", gtp_commands[i].name);
	for (int i = 0; i < OPT_COUNT; i++)
		reply_add(s, "\n%s%s", GTP_OPTION_PREFIX, options_def((OptionId)i)->name);
}

static void cmd_help(Session *s, int argc, char **argv)
{
	reply_ok(s, "%s", "");
	bool any = false;
	for (const SessionCommand *c = gtp_commands; c->name; c++) {
		if (argc && !proto_eq(argv[0], c->name))
			continue;
		reply_add(s, "%s%s%s%s - %s", any ? "\n" : "", c->name, c->args[0] ? " " : "", c->args, c->help);
		any = true;
	}
	for (int i = 0; i < OPT_COUNT; i++) {
		const OptionDef *d = options_def((OptionId)i);
		char name[80];
		snprintf(name, sizeof name, "%s%s", GTP_OPTION_PREFIX, d->name);
		if (argc && !proto_eq(argv[0], name))
			continue;
		reply_add(s, "%s%s [value] - %s", any ? "\n" : "", name, d->help);
		any = true;
	}
	if (!any)
		reply_err(s, "unknown command");
}

/* ---- framing ------------------------------------------------------------ */

/* Copy a leading decimal id (GTP ids are non-negative integers) into id,
 * digits exactly as sent, so that the reply carries the same id.  Returns
 * false for an id longer than GTP_ID_MAX digits (id is left empty). */
static bool parse_id(char **s, char id[GTP_ID_MAX + 1])
{
	char *p = *s;
	id[0] = 0;
	if (!isdigit((unsigned char)*p))
		return true;
	size_t n = 0;
	while (isdigit((unsigned char)p[n]))
		n++;
	if (p[n] && p[n] != ' ')
		return true; /* "12abc": not an id, the whole word is the command */
	*s = p + n;
	if (n > GTP_ID_MAX)
		return false;
	memcpy(id, p, n);
	id[n] = 0;
	return true;
}

/* A line without its comment and id: the command, or NULL when the line is
 * empty or already answered (an id too long, a line too long, no
 * command). */
static char *frame(Session *s, char *line, bool too_long)
{
	Gtp *g = gtp_of(s);
	char *hash = strchr(line, '#');
	if (hash)
		*hash = 0;
	char *t = text_trim(line);
	if (!*t && !too_long)
		return NULL;
	bool id_ok = parse_id(&t, g->reply.id);
	t = text_trim(t);
	if (!id_ok)
		reply_err(s, "id too long (more than %d digits)", GTP_ID_MAX);
	else if (too_long)
		reply_err(s, "line too long (more than %d bytes)", PROTO_LINE_MAX - 1);
	else if (!*t)
		reply_err(s, "missing command");
	else
		return t;
	reply_send(g);
	return NULL;
}

/* emilia-NAME for an option, else an unknown command. */
static void unknown(Session *s, int argc, char **argv)
{
	int opt = find_option_command(argv[0]);
	if (opt >= 0)
		option_command(s, (OptionId)opt, argc - 1, argv + 1);
	else
		reply_err(s, "unknown command");
}

static void done(Session *s)
{
	reply_send(gtp_of(s));
}

static void reset(Session *s)
{
	Gtp *g = gtp_of(s);
	g->scoring = options_scoring(&s->opts);
	g->timed = false;
	g->main_time = g->byo_time = 0;
	g->byo_stones = 0;
	new_game(g, session_size(s));
}

static void destroy(Session *s)
{
	proto_buf_free(&gtp_of(s)->reply.text);
}

static const SessionProtocol gtp_protocol = {
	.commands = gtp_commands,
	.frame = frame,
	.unknown = unknown,
	.done = done,
	.option_changed = option_changed,
	.reset = reset,
	.destroy = destroy,
};

/* ---- the session ---------------------------------------------------------- */

Gtp *gtp_new(FILE *out, const Options *opts, char *err)
{
	Gtp *g = (Gtp *)session_new(&gtp_protocol, sizeof *g, out, opts, err);
	if (!g)
		return NULL;
	session_warn_book(&g->s);
	proto_buf_init(&g->reply.text);
	g->scoring = options_scoring(&g->s.opts);
	new_game(g, session_size(&g->s));
	return g;
}

SESSION_FORWARDERS(Gtp, gtp)

int gtp_main(FILE *in, FILE *out, const Options *opts)
{
	char err[OPTIONS_ERR];
	Gtp *g = gtp_new(out, opts, err);
	return session_main(g ? &g->s : NULL, in, err);
}
