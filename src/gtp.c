#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "endgame.h"
#include "gamefile.h"
#include "gtp.h"
#include "proto_io.h"
#include "proto_search.h"
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
	FILE *out;
	Options opts;
	Options init_opts;  /* as created: gtp_reset() returns to them */
	ProtoEngine pe;
	Game game;
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
	uint64_t node_cap;
	bool quit;
	GtpReply reply;
};

typedef void (*GtpHandler)(Gtp *g, int argc, char **argv);

typedef struct GtpCommand {
	const char *name;
	GtpHandler fn;
	const char *args;
	const char *help;
} GtpCommand;

/* ---- replies ------------------------------------------------------------ */

static void reply_ok(Gtp *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply_ok(Gtp *g, const char *fmt, ...)
{
	va_list ap;
	g->reply.ok = true;
	proto_buf_clear(&g->reply.text);
	va_start(ap, fmt);
	proto_buf_vprintf(&g->reply.text, fmt, ap);
	va_end(ap);
}

static void reply_err(Gtp *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply_err(Gtp *g, const char *fmt, ...)
{
	va_list ap;
	g->reply.ok = false;
	proto_buf_clear(&g->reply.text);
	va_start(ap, fmt);
	proto_buf_vprintf(&g->reply.text, fmt, ap);
	va_end(ap);
}

/* Append to a multi-line reply (after reply_ok). */
static void reply_add(Gtp *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply_add(Gtp *g, const char *fmt, ...)
{
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
	FILE *f = g->out;
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
	game_init(&g->game, size, options_variant(&g->opts));
	memset(g->explicit_pass, 0, sizeof g->explicit_pass);
	reset_clocks(g);
	engine_new_game(g->pe.engine);
}

/* Play `move` for the side to move, recording whether it is explicit. */
static GameStatus play_ply(Gtp *g, int move, bool explicit_pass)
{
	int k = g->game.nply;
	GameStatus st = game_play(&g->game, move);
	if (st == GAME_OK)
		g->explicit_pass[k] = move == BOARD_PASS && explicit_pass;
	return st;
}

/* Play a move for `colour`, passing (implicitly) for the side to move
 * first when it must pass.  All or nothing. */
static GameStatus play_colour(Gtp *g, int colour, int move)
{
	if (colour == g->game.side)
		return play_ply(g, move, true);
	if (!game_must_pass(&g->game))
		return game_is_over(&g->game) ? GAME_OVER : GAME_ILLEGAL;
	Game save = g->game;
	GameStatus st = play_ply(g, BOARD_PASS, false);
	if (st == GAME_OK)
		st = play_ply(g, move, true);
	if (st != GAME_OK)
		g->game = save;
	return st;
}

static bool last_is_implicit_pass(const Gtp *g)
{
	int k = g->game.nply - 1;
	return k >= 0 && g->game.hist[k].move == BOARD_PASS && !g->explicit_pass[k];
}

static void strip_implicit_passes(Gtp *g)
{
	while (last_is_implicit_pass(g))
		game_undo(&g->game);
}

/* Limits of a search for the side to move: the clocks (if any) in the
 * terms of the clock model (timeman.h), the cap. */
static EngineLimits search_limits(const Gtp *g)
{
	EngineLimits lim;
	memset(&lim, 0, sizeof lim);
	lim.time_left = -1;
	if (g->timed) {
		int c = g->game.side;
		lim.time_left = g->clock[c] > 0 ? g->clock[c] : 0;
		lim.overhead = (double)options_int(&g->opts, OPT_OVERHEAD) / 1000.0;
		if (g->stones[c] > 0) {
			/* in a byo-yomi period: its stones within its time */
			lim.moves_to_go = g->stones[c];
		} else if (g->byo_stones > 0 && g->byo_time > 0) {
			/* main time, then byo-yomi periods */
			lim.byo_time = g->byo_time;
			lim.byo_moves = g->byo_stones;
		}
	}
	if (g->node_cap)
		lim.nodes = g->node_cap;
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

/* The engine's move for the side to move (which has a legal move), made
 * safe by proto_search_legal_move(): the controller never sees an illegal
 * move. */
static int engine_move(Gtp *g, EngineInfo *out)
{
	EngineLimits lim = search_limits(g);
	EngineInfo r = engine_search(g->pe.engine, &g->game, &lim, NULL, NULL);
	r.move = proto_search_legal_move(&g->game, r.move);
	if (out)
		*out = r;
	return r.move;
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

static void cmd_protocol_version(Gtp *g, int argc, char **argv)
{
	reply_ok(g, "2");
}

static void cmd_name(Gtp *g, int argc, char **argv)
{
	reply_ok(g, GTP_NAME);
}

static void cmd_version(Gtp *g, int argc, char **argv)
{
	reply_ok(g, EMILIA_VERSION);
}

static void cmd_known_command(Gtp *g, int argc, char **argv);
static void cmd_list_commands(Gtp *g, int argc, char **argv);
static void cmd_help(Gtp *g, int argc, char **argv);

static void cmd_list_games(Gtp *g, int argc, char **argv)
{
	reply_ok(g, "Othello");
}

static void cmd_set_game(Gtp *g, int argc, char **argv)
{
	if (argc != 1) {
		reply_err(g, "usage: set_game Othello");
		return;
	}
	if (!proto_eq(argv[0], "Othello") && !proto_eq(argv[0], "Reversi")) {
		reply_err(g, "unsupported game");
		return;
	}
	reply_ok(g, "%s", "");
}

static void cmd_boardsize(Gtp *g, int argc, char **argv)
{
	long n = 0;
	if (argc != 1 || !proto_is_integer(argv[0])) {
		reply_err(g, "boardsize not an integer");
		return;
	}
	if (!util_parse_int(argv[0], 1, 64, &n) || (n != 8 && n != 6)) {
		reply_err(g, "unacceptable size");
		return;
	}
	char err[OPTIONS_ERR];
	Options save = g->opts;
	g->opts.on_change = NULL;
	options_set(&g->opts, OPT_SIZE, argv[0], err);
	g->opts.on_change = save.on_change;
	new_game(g, (int)n);
	reply_ok(g, "%s", "");
}

static void cmd_clear_board(Gtp *g, int argc, char **argv)
{
	new_game(g, g->game.size);
	reply_ok(g, "%s", "");
}

static void cmd_komi(Gtp *g, int argc, char **argv)
{
	double k;
	if (argc != 1 || !parse_double(argv[0], &k)) {
		reply_err(g, "komi not a float");
		return;
	}
	reply_ok(g, "%s", "");
}

static void cmd_play(Gtp *g, int argc, char **argv)
{
	int c = argc == 2 ? parse_colour(argv[0]) : -1;
	if (c < 0) {
		reply_err(g, argc == 2 ? "invalid color" : "usage: play <color> <move>");
		return;
	}
	int mv = text_parse_move(argv[1], g->game.size);
	if (mv < 0) {
		reply_err(g, "invalid coordinate");
		return;
	}
	Game *gm = &g->game;
	if (mv == BOARD_PASS) {
		if (c == gm->side && game_must_pass(gm)) {
			play_ply(g, BOARD_PASS, true);
		} else if (c != gm->side && gm->nply > 0 && gm->hist[gm->nply - 1].move == BOARD_PASS &&
		           gm->hist[gm->nply - 1].side == c) {
			/* the pass is already on the board (inferred, or made by our
			 * genmove): the controller now counts it as a move */
			g->explicit_pass[gm->nply - 1] = true;
		} else if (!game_is_over(gm)) {
			reply_err(g, "illegal move");
			return;
		}
		reply_ok(g, "%s", "");
		return;
	}
	if (play_colour(g, c, mv) != GAME_OK) {
		reply_err(g, "illegal move");
		return;
	}
	reply_ok(g, "%s", "");
}

/* genmove and reg_genmove. */
static void generate(Gtp *g, int argc, char **argv, bool commit)
{
	int c = argc == 1 ? parse_colour(argv[0]) : -1;
	if (c < 0) {
		reply_err(g, argc == 1 ? "invalid color" : "usage: genmove <color>");
		return;
	}
	Game *gm = &g->game;
	if (game_is_over(gm)) {
		reply_ok(g, "PASS");
		return;
	}
	Game save = *gm;
	if (c != gm->side) {
		if (!game_must_pass(gm)) {
			reply_err(g, "it is %s's turn", colour_name(gm->side));
			return;
		}
		play_ply(g, BOARD_PASS, false);
	}
	if (game_must_pass(gm)) {
		if (commit)
			play_ply(g, BOARD_PASS, true);
		else
			*gm = save;
		reply_ok(g, "PASS");
		return;
	}
	double t0 = util_now();
	int mv = engine_move(g, NULL);
	char name[8];
	text_square_upper(mv, name);
	if (commit) {
		play_ply(g, mv, true);
		charge_clock(g, c, util_now() - t0);
	} else {
		*gm = save;
	}
	reply_ok(g, "%s", name);
}

static void cmd_genmove(Gtp *g, int argc, char **argv)
{
	generate(g, argc, argv, true);
}

static void cmd_reg_genmove(Gtp *g, int argc, char **argv)
{
	generate(g, argc, argv, false);
}

static void cmd_undo(Gtp *g, int argc, char **argv)
{
	Game save = g->game;
	strip_implicit_passes(g);
	if (!game_undo(&g->game)) {
		g->game = save;
		reply_err(g, "cannot undo");
		return;
	}
	strip_implicit_passes(g);
	reply_ok(g, "%s", "");
}

static void cmd_time_settings(Gtp *g, int argc, char **argv)
{
	double main_time, byo_time;
	long stones;
	if (argc != 3 || !parse_double(argv[0], &main_time) || !parse_double(argv[1], &byo_time) ||
	    !util_parse_int(argv[2], 0, 1000000, &stones) || main_time < 0 || byo_time < 0) {
		reply_err(g, "usage: time_settings <main> <byo_yomi_time> <byo_yomi_stones>");
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
	reply_ok(g, "%s", "");
}

static void cmd_time_left(Gtp *g, int argc, char **argv)
{
	int c = argc == 3 ? parse_colour(argv[0]) : -1;
	double t;
	long stones;
	if (c < 0 || !parse_double(argv[1], &t) || !util_parse_int(argv[2], 0, 1000000, &stones) || t < 0) {
		reply_err(g, "usage: time_left <color> <seconds> <stones>");
		return;
	}
	g->clock[c] = t;
	g->stones[c] = (int)stones;
	if (!g->timed && (t > 0 || stones > 0)) {
		/* a controller that never sent time_settings still has a clock */
		g->timed = true;
	}
	reply_ok(g, "%s", "");
}

static void cmd_showboard(Gtp *g, int argc, char **argv)
{
	char pic[2048];
	text_board_picture(&g->game, true, pic, sizeof pic);
	reply_ok(g, "\n%s", pic);
}

/* Finished game: the score under the scoring rule.  Mid-game: the
 * engine's estimate of the final score (GTP), from a search of the
 * position at the session's level without the clock (the clocks are not
 * charged), Black's margin with the empty squares to the winner as the
 * solver counts it; exact once the level solves the position. */
static void cmd_final_score(Gtp *g, int argc, char **argv)
{
	int m;
	if (game_is_over(&g->game))
		m = game_margin(&g->game, g->scoring);
	else {
		Game t = g->game;
		if (game_must_pass(&t))
			game_play(&t, BOARD_PASS);
		EngineLimits lim;
		memset(&lim, 0, sizeof lim);
		lim.time_left = -1;
		if (g->node_cap)
			lim.nodes = g->node_cap;
		EngineInfo r = engine_search(g->pe.engine, &t, &lim, NULL, NULL);
		m = t.side == BLACK ? r.score : -r.score;
	}
	if (m > 0)
		reply_ok(g, "B+%d", m);
	else if (m < 0)
		reply_ok(g, "W+%d", -m);
	else
		reply_ok(g, "0");
}

static void cmd_quit(Gtp *g, int argc, char **argv)
{
	g->quit = true;
	reply_ok(g, "%s", "");
}

/* ---- loadsgf -------------------------------------------------------------- */

/* Load the main line of an SGF game record into g; stop before move
 * `upto` (1-based) when upto > 0.  All or nothing (gamefile.h). */
static bool load_sgf(Gtp *g, const char *text, long upto, char *err, size_t errlen)
{
	Game t = g->game;
	bool expl[GAME_MAX_PLY];
	if (!gamefile_parse_sgf(text, upto, &t, expl, err, errlen))
		return false;
	g->game = t;
	memcpy(g->explicit_pass, expl, sizeof expl);
	return true;
}

bool gtp_load_sgf(Gtp *g, const char *text, long upto, char *err, size_t errlen)
{
	return load_sgf(g, text, upto, err, errlen);
}

static void cmd_loadsgf(Gtp *g, int argc, char **argv)
{
	long upto = 0;
	if (argc < 1 || argc > 2 || (argc == 2 && !util_parse_int(argv[1], 1, 1000, &upto))) {
		reply_err(g, "usage: loadsgf <file> [move_number]");
		return;
	}
	if (g->opts.sandbox) {
		reply_err(g, "cannot load file: files are disabled in this session");
		return;
	}
	char why[160];
	FILE *f = proto_open_regular(argv[0], why, sizeof why);
	if (!f) {
		reply_err(g, "cannot load file: %s", why);
		return;
	}
	char *buf = malloc(1 << 20);
	if (!buf) {
		fclose(f);
		reply_err(g, "out of memory");
		return;
	}
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	buf[n] = 0;
	char err[TEXT_QUOTE_MAX + 64];
	if (!load_sgf(g, buf, upto, err, sizeof err))
		reply_err(g, "cannot load file: %s", err);
	else
		reply_ok(g, "%s", colour_name(g->game.side));
	free(buf);
}

/* ---- extensions ---------------------------------------------------------- */

static void cmd_setboard(Gtp *g, int argc, char **argv)
{
	char obf[80];
	if (argc == 0) {
		text_write_obf(g->game.board, g->game.side, g->game.size, obf);
		reply_ok(g, "%s", obf);
		return;
	}
	/* the OBF may arrive as "squares side" or with the side glued on */
	char line[PROTO_LINE_MAX];
	proto_join(line, sizeof line, argv, 0, argc);
	ObfPosition pos;
	char err[TEXT_ERR];
	if (!text_parse_obf(line, g->game.size, &pos, err)) {
		reply_err(g, "invalid position: %s", err);
		return;
	}
	game_set(&g->game, pos.board, pos.side);
	memset(g->explicit_pass, 0, sizeof g->explicit_pass);
	reply_ok(g, "%s", "");
}

static void cmd_transcript(Gtp *g, int argc, char **argv)
{
	if (argc == 0) {
		char t[2 * GAME_MAX_PLY + 1];
		text_transcript(&g->game, t);
		reply_ok(g, "%s", t);
		return;
	}
	char line[PROTO_LINE_MAX];
	size_t n = 0;
	line[0] = 0;
	for (int i = 0; i < argc && n + 2 < sizeof line; i++)
		n += (size_t)snprintf(line + n, sizeof line - n, "%s", argv[i]);
	Game t;
	game_init(&t, g->game.size, g->game.variant);
	char err[TEXT_ERR];
	if (!text_apply_transcript(&t, line, err)) {
		reply_err(g, "invalid transcript: %s", err);
		return;
	}
	g->game = t;
	memset(g->explicit_pass, 0, sizeof g->explicit_pass);
	reply_ok(g, "%s", "");
}

static void cmd_legal(Gtp *g, int argc, char **argv)
{
	uint64_t m = game_moves(&g->game);
	reply_ok(g, "%s", "");
	if (!m && game_must_pass(&g->game))
		reply_add(g, "PASS");
	for (bool first = true; m; m = bit_pop(m), first = false) {
		char s[8];
		text_square_upper(bit_first(m), s);
		reply_add(g, "%s%s", first ? "" : " ", s);
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

static void cmd_analyze(Gtp *g, int argc, char **argv)
{
	long n = 1;
	if (argc > 1 || (argc == 1 && !util_parse_int(argv[0], 1, 64, &n))) {
		reply_err(g, "usage: emilia-analyze [lines 1..64]");
		return;
	}
	Game *gm = &g->game;
	if (game_is_over(gm)) {
		reply_err(g, "the game is over");
		return;
	}
	if (game_must_pass(gm)) {
		reply_ok(g, "PASS");
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
		reply_err(g, "out of memory");
		return;
	}
	EngineInfo best = engine_search(g->pe.engine, gm, &lim, analyze_info, a);
	if (a->n == 0) {
		a->line[0] = best;
		a->n = 1;
	}
	if (a->n > n)
		a->n = (int)n;
	reply_ok(g, "%s", "");
	for (int i = 0; i < a->n; i++) {
		const EngineInfo *r = &a->line[i];
		char mv[8], sc[16], d[16], pv[ENGINE_MAX_PV * 3 + 8];
		text_square_upper(r->move, mv);
		score_text(r->score, sc);
		depth_text(r, d);
		pv_text(r, pv, sizeof pv);
		reply_add(g, "%s%s %s %s %s", i ? "\n" : "", mv, sc, d, pv);
	}
	free(a);
}

static void solve(Gtp *g, int argc, bool wld)
{
	if (argc != 0) {
		reply_err(g, "usage: %s (no arguments)", wld ? "emilia-wld" : "emilia-solve");
		return;
	}
	Game *gm = &g->game;
	int empties = game_empties(gm);
	long limit = options_int(&g->opts, OPT_SOLVE_LIMIT);
	if (empties > limit && !game_is_over(gm)) { /* a finished game: its result at once */
		reply_err(g, "too many empties to solve (%d > solve-limit %ld)", empties, limit);
		return;
	}
	/* through the engine: its threads and table, bounded by the GTP clock */
	EngineLimits lim = search_limits(g);
	EngineInfo r = engine_solve_game(g->pe.engine, gm, wld, &lim);
	if (!r.exact && !r.wld) {
		reply_err(g, "solve stopped by the clock before the end: no result");
		return;
	}
	char mv[8];
	if (r.move == BOARD_NOMOVE)
		strcpy(mv, "PASS");
	else
		text_square_upper(r.move, mv);
	if (wld)
		reply_ok(g, "%s %s", mv, r.score > 0 ? "win" : r.score < 0 ? "loss" : "draw");
	else
		reply_ok(g, "%s %+d", mv, r.score);
}

static void cmd_solve(Gtp *g, int argc, char **argv)
{
	solve(g, argc, false);
}

static void cmd_wld(Gtp *g, int argc, char **argv)
{
	solve(g, argc, true);
}

static void option_command(Gtp *g, OptionId id, int argc, char **argv)
{
	const OptionDef *d = options_def(id);
	if (argc == 0) {
		reply_ok(g, "%s", options_get(&g->opts, id));
		return;
	}
	char value[PROTO_LINE_MAX];
	proto_join(value, sizeof value, argv, 0, argc);
	char err[OPTIONS_ERR];
	Options save = g->opts;
	if (!options_set(&g->opts, id, value, err)) {
		reply_err(g, "%s", err);
		return;
	}
	if (!options_apply(&g->opts, id, &g->pe, err)) {
		g->opts = save;
		options_apply(&g->opts, id, &g->pe, err);
		reply_err(g, "%s: %s", d->name, err);
		return;
	}
	reply_ok(g, "%s", "");
}

static void cmd_option(Gtp *g, int argc, char **argv)
{
	if (argc == 0) {
		reply_ok(g, "%s", "");
		for (int i = 0; i < OPT_COUNT; i++)
			reply_add(g, "%s%s %s", i ? "\n" : "", options_def((OptionId)i)->name,
			          options_get(&g->opts, (OptionId)i)[0] ? options_get(&g->opts, (OptionId)i) : "\"\"");
		return;
	}
	int id = options_find(argv[0]);
	if (id < 0) {
		reply_err(g, "unknown option '%s'", argv[0]);
		return;
	}
	option_command(g, (OptionId)id, argc - 1, argv + 1);
}

/* Options that changed a session's game: the variant and the scoring rule
 * of the game in progress, the board size (a new game). */
static void on_option_change(void *user, const Options *o, OptionId id)
{
	Gtp *g = user;
	if (id == OPT_VARIANT)
		g->game.variant = options_variant(o);
	else if (id == OPT_SCORING)
		g->scoring = options_scoring(o);
	else if (id == OPT_SIZE && atoi(options_get(o, OPT_SIZE)) != g->game.size)
		new_game(g, atoi(options_get(o, OPT_SIZE)));
}

/* ---- the command table --------------------------------------------------- */

static const GtpCommand gtp_commands[] = {
	{ "protocol_version", cmd_protocol_version, "", "GTP version (2)" },
	{ "name", cmd_name, "", "engine name" },
	{ "version", cmd_version, "", "engine version" },
	{ "known_command", cmd_known_command, "<command>", "true if the command exists" },
	{ "list_commands", cmd_list_commands, "", "all commands, one per line" },
	{ "help", cmd_help, "[command]", "commands with their arguments" },
	{ "list_games", cmd_list_games, "", "games played: Othello" },
	{ "set_game", cmd_set_game, "Othello", "choose the game (only Othello)" },
	{ "boardsize", cmd_boardsize, "8|6", "new game on an 8x8 or 6x6 board" },
	{ "clear_board", cmd_clear_board, "", "new game from the start position" },
	{ "komi", cmd_komi, "<float>", "accepted and ignored" },
	{ "play", cmd_play, "<color> <move|pass>", "play a move (implicit pass if the other side must pass)" },
	{ "genmove", cmd_genmove, "<color>", "search, play and return a move (PASS when forced)" },
	{ "reg_genmove", cmd_reg_genmove, "<color>", "search and return a move without playing it" },
	{ "undo", cmd_undo, "", "take back the last move" },
	{ "time_settings", cmd_time_settings, "<main> <byo_time> <byo_stones>", "set the clock" },
	{ "time_left", cmd_time_left, "<color> <seconds> <stones>", "time left on a clock" },
	{ "showboard", cmd_showboard, "", "draw the board (legal moves marked '.')" },
	{ "final_score", cmd_final_score, "", "B+n, W+n or 0: the result, or the engine's estimate mid-game" },
	{ "loadsgf", cmd_loadsgf, "<file> [move_number]", "load a game record" },
	{ "quit", cmd_quit, "", "exit" },
	{ "emilia-setboard", cmd_setboard, "[OBF]", "set the position from an OBF line (no argument: show it)" },
	{ "emilia-transcript", cmd_transcript, "[moves]", "play a transcript from the start (no argument: show it)" },
	{ "emilia-legal", cmd_legal, "", "legal moves of the side to move" },
	{ "emilia-analyze", cmd_analyze, "[N]", "best N moves: move score depth pv" },
	{ "emilia-solve", cmd_solve, "", "exact solve: best move and final disc difference" },
	{ "emilia-wld", cmd_wld, "", "win/loss/draw solve: best move and result" },
	{ "emilia-option", cmd_option, "[name [value]]", "list, show or set an option" },
};

#define GTP_NCOMMANDS ((int)(sizeof gtp_commands / sizeof gtp_commands[0]))
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

static int find_command(const char *name)
{
	for (int i = 0; i < GTP_NCOMMANDS; i++)
		if (proto_eq(name, gtp_commands[i].name))
			return i;
	return -1;
}

static void cmd_known_command(Gtp *g, int argc, char **argv)
{
	bool known = argc == 1 && (find_command(argv[0]) >= 0 || find_option_command(argv[0]) >= 0);
	reply_ok(g, "%s", known ? "true" : "false");
}

static void cmd_list_commands(Gtp *g, int argc, char **argv)
{
	reply_ok(g, "%s", "");
	for (int i = 0; i < GTP_NCOMMANDS; i++)
		reply_add(g, "%s%s", i ? "\n" : "", gtp_commands[i].name);
	for (int i = 0; i < OPT_COUNT; i++)
		reply_add(g, "\n%s%s", GTP_OPTION_PREFIX, options_def((OptionId)i)->name);
}

static void cmd_help(Gtp *g, int argc, char **argv)
{
	reply_ok(g, "%s", "");
	bool any = false;
	for (int i = 0; i < GTP_NCOMMANDS; i++) {
		const GtpCommand *c = &gtp_commands[i];
		if (argc && !proto_eq(argv[0], c->name))
			continue;
		reply_add(g, "%s%s%s%s - %s", any ? "\n" : "", c->name, c->args[0] ? " " : "", c->args, c->help);
		any = true;
	}
	for (int i = 0; i < OPT_COUNT; i++) {
		const OptionDef *d = options_def((OptionId)i);
		char name[80];
		snprintf(name, sizeof name, "%s%s", GTP_OPTION_PREFIX, d->name);
		if (argc && !proto_eq(argv[0], name))
			continue;
		reply_add(g, "%s%s [value] - %s", any ? "\n" : "", name, d->help);
		any = true;
	}
	if (!any)
		reply_err(g, "unknown command");
}

/* ---- session ------------------------------------------------------------- */

Gtp *gtp_new(FILE *out, const Options *opts, char *err)
{
	Gtp *g = calloc(1, sizeof *g);
	if (!g) {
		snprintf(err, OPTIONS_ERR, "out of memory");
		return NULL;
	}
	g->out = out;
	g->opts = *opts;
	g->opts.on_change = on_option_change;
	g->opts.user = g;
	char book_err[OPTIONS_ERR] = "";
	if (!options_engine_open(&g->pe, &g->opts, err, book_err)) {
		free(g);
		return NULL;
	}
	if (book_err[0] && options_get(&g->opts, OPT_BOOK)[0])
		fprintf(stderr, "emilia: book: %s (playing without it)\n", book_err);
	g->init_opts = g->opts;
	proto_buf_init(&g->reply.text);
	g->scoring = options_scoring(&g->opts);
	new_game(g, atoi(options_get(&g->opts, OPT_SIZE)));
	return g;
}

void gtp_free(Gtp *g)
{
	if (!g)
		return;
	options_engine_close(&g->pe);
	proto_buf_free(&g->reply.text);
	free(g);
}

void gtp_reset(Gtp *g)
{
	options_restore(&g->opts, &g->init_opts, &g->pe);
	g->scoring = options_scoring(&g->opts);
	g->timed = false;
	g->main_time = g->byo_time = 0;
	g->byo_stones = 0;
	g->quit = false;
	new_game(g, atoi(options_get(&g->opts, OPT_SIZE)));
}

void gtp_set_node_cap(Gtp *g, uint64_t nodes)
{
	g->node_cap = nodes;
}

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

static bool execute(Gtp *g, char *line, bool too_long)
{
	char *hash = strchr(line, '#');
	if (hash)
		*hash = 0;
	char *s = text_trim(line);
	if (!*s && !too_long)
		return true;
	bool id_ok = parse_id(&s, g->reply.id);
	s = text_trim(s);
	if (!id_ok) {
		reply_err(g, "id too long (more than %d digits)", GTP_ID_MAX);
		reply_send(g);
		return true;
	}
	if (too_long) {
		reply_err(g, "line too long (more than %d bytes)", PROTO_LINE_MAX - 1);
		reply_send(g);
		return true;
	}
	char *argv[PROTO_MAX_ARGS];
	int argc = proto_split(s, argv, PROTO_MAX_ARGS);
	if (argc == 0) {
		reply_err(g, "missing command");
		reply_send(g);
		return true;
	}
	int k = find_command(argv[0]);
	int opt = k < 0 ? find_option_command(argv[0]) : -1;
	if (k >= 0)
		gtp_commands[k].fn(g, argc - 1, argv + 1);
	else if (opt >= 0)
		option_command(g, (OptionId)opt, argc - 1, argv + 1);
	else
		reply_err(g, "unknown command");
	reply_send(g);
	return !g->quit;
}

bool gtp_execute_line(Gtp *g, const char *line)
{
	ProtoLine *l = malloc(sizeof *l);
	if (!l)
		return true;
	bool too_long = proto_clean_line(line, l) == PROTO_LINE_TOO_LONG;
	bool r = execute(g, l->text, too_long);
	free(l);
	return r;
}

void gtp_run(Gtp *g, FILE *in)
{
	ProtoLine *line = malloc(sizeof *line);
	if (!line)
		return;
	for (;;) {
		ProtoLineStatus st = proto_read_line(in, line);
		if (st == PROTO_LINE_EOF)
			break;
		if (!execute(g, line->text, st == PROTO_LINE_TOO_LONG))
			break;
	}
	free(line);
}
