#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "book.h"
#include "gamefile.h"
#include "play.h"
#include "progress.h"
#include "proto_io.h"
#include "proto_search.h"
#include "review.h"
#include "text.h"
#include "util.h"

typedef struct Play {
	FILE *out;
	Options opts;
	ProtoEngine pe;
	Game game;
	int human;
	double move_time;
	bool over_reported;
	bool thinking;        /* a thinking line while Emilia searches */
	bool tty;             /* out is a terminal: the line is redrawn in place */
	/* the game clock (--clock M+I): seconds left per colour */
	bool clocked;
	double clock_start, clock_inc;
	double clock[2];
	double turn_start;    /* when the side to move's clock started */
	int flagged;          /* colour whose time ran out, -1 none */
	/* thinking line state (shared with the ticker thread) */
	pthread_mutex_t think_lock;
	EngineInfo think_info;
	bool think_have;
	double think_t0;
	const char *think_what;
} Play;

static const char *colour_word(int c)
{
	return c == BLACK ? "Black" : "White";
}

static bool engine_plays(const Play *p, int colour)
{
	return p->human == PLAY_HUMAN_NONE || (p->human != PLAY_HUMAN_BOTH && p->human != colour);
}

static void clock_text(double s, char *out, size_t len)
{
	if (s < 0)
		s = 0;
	if (s > 359999)
		s = 359999;
	int t = (int)(s + 0.5);
	snprintf(out, len, "%d:%02d", t / 60 % 10000, t % 60);
}

/* The last move played (not a pass), -1 at the start. */
static int last_move(const Game *g)
{
	for (int i = g->nply - 1; i >= 0; i--)
		if (g->hist[i].move != BOARD_PASS)
			return g->hist[i].move;
	return -1;
}

/* The board: legal squares '.', the last move in brackets ([X]), the side
 * to move, the disc counts, the last move and the clocks beside it. */
static void show_board(Play *p)
{
	const Game *g = &p->game;
	uint64_t black = game_colour_bits(g, BLACK), white = game_colour_bits(g, WHITE);
	uint64_t moves = game_is_over(g) ? 0 : game_moves(g);
	int last = last_move(g);
	FILE *f = p->out;
	fputs("  ", f);
	for (int c = 0; c < g->size; c++)
		fprintf(f, " %c", 'A' + c);
	fputc('\n', f);
	for (int r = 0; r < g->size; r++) {
		fprintf(f, "%2d", r + 1);
		for (int c = 0; c < g->size; c++) {
			int sq = r * 8 + c;
			uint64_t m = bit_of(sq);
			char ch = (black & m) ? 'X' : (white & m) ? 'O' : (moves & m) ? '.' : '-';
			fprintf(f, "%c%c", sq == last ? '[' : sq - 1 == last && c > 0 ? ']' : ' ', ch);
		}
		fprintf(f, "%c%d", r * 8 + g->size - 1 == last ? ']' : ' ', r + 1);
		if (r == 0)
			fprintf(f, "   %s to move", game_is_over(g) ? "nobody" : g->side == BLACK ? "Black (X)" : "White (O)");
		if (r == 1)
			fprintf(f, "   Black %d  White %d", bit_count(black), bit_count(white));
		if (r == 2 && last >= 0) {
			char sq[8];
			text_square(last, sq);
			fprintf(f, "   last move %s", sq);
		}
		if (r == 3 && p->clocked) {
			char b[24], w[24];
			clock_text(p->clock[BLACK], b, sizeof b);
			clock_text(p->clock[WHITE], w, sizeof w);
			fprintf(f, "   clock Black %s  White %s", b, w);
		}
		fputc('\n', f);
	}
	fputs("  ", f);
	for (int c = 0; c < g->size; c++)
		fprintf(f, " %c", 'A' + c);
	fputc('\n', f);
}

static void legal_list(const Game *g, char *out, size_t len)
{
	size_t n = 0;
	out[0] = 0;
	for (uint64_t m = game_moves(g); m && n + 4 < len; m = bit_pop(m)) {
		char s[8];
		text_square(bit_first(m), s);
		n += (size_t)snprintf(out + n, len - n, "%s%s", n ? " " : "", s);
	}
}

static void clock_reset(Play *p)
{
	p->clock[BLACK] = p->clock[WHITE] = p->clock_start;
	p->flagged = -1;
	p->turn_start = util_now();
}

/* Charge the time since the turn began to the mover's clock, add the
 * increment; a clock that ran out loses the game.  Call just before the
 * move is played. */
static void clock_charge(Play *p)
{
	if (!p->clocked)
		return;
	double now = util_now();
	int c = p->game.side;
	p->clock[c] -= now - p->turn_start;
	if (p->clock[c] < 0) {
		p->clock[c] = 0;
		if (p->flagged < 0)
			p->flagged = c;
	} else
		p->clock[c] += p->clock_inc;
	p->turn_start = now;
}

static bool play_over(const Play *p)
{
	return p->flagged >= 0 || game_is_over(&p->game);
}

static void new_game(Play *p)
{
	game_init(&p->game, atoi(options_get(&p->opts, OPT_SIZE)), options_variant(&p->opts));
	engine_new_game(p->pe.engine);
	p->over_reported = false;
	clock_reset(p);
}

static void report_end(Play *p)
{
	Game *g = &p->game;
	if (p->flagged >= 0) {
		fprintf(p->out, "%s's time is up: %s wins on time.\n", colour_word(p->flagged),
		        colour_word(!p->flagged));
		char t[2 * GAME_MAX_PLY + 1];
		text_transcript(g, t);
		fprintf(p->out, "Transcript: %s\n", t);
		fprintf(p->out, "Type 'review' to see every move's loss, 'save FILE' to keep the game, 'new' for "
		                "another game, or 'quit'.\n");
		p->over_reported = true;
		return;
	}
	Scoring s = options_scoring(&p->opts);
	int b, w;
	game_counts(g, s, &b, &w);
	int margin = game_margin(g, s);
	fprintf(p->out, "Game over. Black %d, White %d (%s scoring%s).\n", b, w,
	        s == SCORING_OFFICIAL ? "official" : "plain",
	        g->variant == VARIANT_ANTI ? ", anti: fewer discs wins" : "");
	if (margin > 0)
		fprintf(p->out, "Black wins by %d.\n", margin);
	else if (margin < 0)
		fprintf(p->out, "White wins by %d.\n", -margin);
	else
		fprintf(p->out, "Draw.\n");
	char t[2 * GAME_MAX_PLY + 1];
	text_transcript(g, t);
	fprintf(p->out, "Transcript: %s\n", t);
	fprintf(p->out, "Type 'review' to see every move's loss, 'save FILE' to keep the game, 'new' for "
	                "another game, 'undo' to take back, or 'quit'.\n");
	p->over_reported = true;
}

/* Make forced passes, with a message; report the end once. */
static void settle(Play *p)
{
	while (game_must_pass(&p->game)) {
		fprintf(p->out, "%s has no legal move and passes.\n", colour_word(p->game.side));
		game_play(&p->game, BOARD_PASS);
	}
	if (play_over(p) && !p->over_reported)
		report_end(p);
}

static EngineLimits limits(const Play *p)
{
	EngineLimits lim;
	memset(&lim, 0, sizeof lim);
	lim.time_left = -1;
	if (p->move_time > 0)
		lim.movetime = p->move_time;
	if (p->clocked) {
		int c = p->game.side;
		double left = p->clock[c] - (util_now() - p->turn_start);
		lim.time_left = left > 0 ? left : 0;
		lim.increment = p->clock_inc;
		lim.overhead = (double)options_int(&p->opts, OPT_OVERHEAD) / 1000.0;
		lim.movetime = 0;
	}
	return lim;
}

/* ---- the thinking line --------------------------------------------------- */

static void think_line(Play *p, char *out, size_t len)
{
	double el = util_now() - p->think_t0;
	if (!p->think_have) {
		snprintf(out, len, "%s: %.1f s", p->think_what, el);
		return;
	}
	const EngineInfo *i = &p->think_info;
	char pv[8] = "";
	if (i->move >= 0 && i->move < 64)
		text_square(i->move, pv);
	snprintf(out, len, "%s: %.1f s, depth %d%s, score %+d, best %s", p->think_what, el, i->depth,
	         i->exact ? " (exact)" : "", i->score, pv[0] ? pv : "-");
}

static void on_think(const EngineInfo *info, void *user)
{
	Play *p = user;
	if (info->multipv_index > 1)
		return;
	pthread_mutex_lock(&p->think_lock);
	p->think_info = *info;
	p->think_have = true;
	if (!p->tty) {
		/* a scripted game: one line per completed iteration */
		char line[160];
		think_line(p, line, sizeof line);
		fprintf(p->out, "%s\n", line);
		fflush(p->out);
	}
	pthread_mutex_unlock(&p->think_lock);
}

typedef struct Ticker {
	Play *p;
	atomic_bool stop;
} Ticker;

/* On a terminal: redraw the line in place twice a second, so a long
 * search (or an exact solve, which reports no iterations) is never
 * silent. */
static void *ticker_main(void *arg)
{
	Ticker *t = arg;
	while (!atomic_load(&t->stop)) {
		for (int i = 0; i < 25 && !atomic_load(&t->stop); i++)
			usleep(20000);
		if (atomic_load(&t->stop))
			break;
		pthread_mutex_lock(&t->p->think_lock);
		char line[160];
		think_line(t->p, line, sizeof line);
		fprintf(t->p->out, "\r%-78.78s", line);
		fflush(t->p->out);
		pthread_mutex_unlock(&t->p->think_lock);
	}
	return NULL;
}

/* engine_search with the thinking line when it is on. */
static EngineInfo think_search(Play *p, const EngineLimits *lim, const char *what)
{
	if (!p->thinking)
		return engine_search(p->pe.engine, &p->game, lim, NULL, NULL);
	p->think_have = false;
	p->think_t0 = util_now();
	p->think_what = what;
	Ticker t = { p, false };
	pthread_t th;
	bool ticking = p->tty && pthread_create(&th, NULL, ticker_main, &t) == 0;
	EngineInfo r = engine_search(p->pe.engine, &p->game, lim, on_think, p);
	if (ticking) {
		atomic_store(&t.stop, true);
		pthread_join(th, NULL);
		fprintf(p->out, "\r%78s\r", "");
	}
	return r;
}

static void engine_turns(Play *p)
{
	settle(p);
	while (!play_over(p) && engine_plays(p, p->game.side)) {
		EngineLimits lim = limits(p);
		EngineInfo r = think_search(p, &lim, "Emilia thinks");
		r.move = proto_search_legal_move(&p->game, r.move);
		char sq[8];
		text_square(r.move, sq);
		fprintf(p->out, "Emilia (%s) plays %s.\n", colour_word(p->game.side), sq);
		clock_charge(p);
		game_play(&p->game, r.move);
		settle(p);
		if (p->human == PLAY_HUMAN_NONE)
			show_board(p);
	}
}

static void prompt(Play *p)
{
	if (play_over(p))
		fprintf(p->out, "> ");
	else
		fprintf(p->out, "%s to move> ", colour_word(p->game.side));
	fflush(p->out);
}

static void help(Play *p)
{
	fputs("Commands (one per line):\n"
	      "  f5          play a move (column a-h, row 1-8; passes are automatic)\n"
	      "  undo        take back your last move (as often as you like)\n"
	      "  hint        Emilia suggests a move (at full strength, whatever the level)\n"
	      "  board       show the board again ('.' legal squares, [X] the last move)\n"
	      "  new         start a new game with the current settings\n"
	      "  color black|white|both|none   choose your side (both: no engine)\n"
	      "  level [easy|normal|hard|0..60]  Emilia's strength (bare: show it)\n"
	      "  time [S]    Emilia's time limit per move in seconds (0: by level; bare: show it)\n"
	      "  save FILE   save the game (FILE.ggf: GGF, anything else: the transcript)\n"
	      "  load FILE   load a game (GGF or transcript) and go on from its end\n"
	      "  review [LEVEL] [FILE.html]   every move's loss against the best move (default\n"
	      "              level normal; FILE.html: also an HTML report with pictures)\n"
	      "  size 8|6    board size (starts a new game)\n"
	      "  variant normal|anti   rules (anti: fewer discs wins; new game)\n"
	      "  scoring plain|official   how the final score counts empty squares\n"
	      "  transcript  the moves so far\n"
	      "  quit        leave\n", p->out);
}

static void cmd_undo(Play *p)
{
	Game *g = &p->game;
	if (g->nply == 0) {
		fprintf(p->out, "Nothing to undo: this is the start of the game.\n");
		return;
	}
	/* Take back plies until the last human move is gone (and any engine
	 * replies and passes after it). */
	bool any_human = false;
	for (int i = 0; i < g->nply; i++)
		if (g->hist[i].move != BOARD_PASS && !engine_plays(p, g->hist[i].side))
			any_human = true;
	if (!any_human) {
		fprintf(p->out, "Nothing of yours to undo yet.\n");
		return;
	}
	for (;;) {
		const GamePly *h = &g->hist[g->nply - 1];
		bool human_move = h->move != BOARD_PASS && !engine_plays(p, h->side);
		game_undo(g);
		if (human_move)
			break;
	}
	/* passes forced on the human side are replayed by settle() */
	while (g->nply && g->hist[g->nply - 1].move == BOARD_PASS)
		game_undo(g);
	p->over_reported = false;
	p->flagged = -1;
	p->turn_start = util_now();
	fprintf(p->out, "Move taken back.\n");
	settle(p);
	show_board(p);
}

static void cmd_hint(Play *p)
{
	if (game_is_over(&p->game)) {
		fprintf(p->out, "The game is over: no hint.\n");
		return;
	}
	/* full strength: Hard, whatever Emilia's level in this game; the
	 * per-move time when one is set, else Hard's own depth (not the
	 * player's clock) */
	EngineLimits lim;
	memset(&lim, 0, sizeof lim);
	lim.time_left = -1;
	if (p->move_time > 0)
		lim.movetime = p->move_time;
	engine_set_level(p->pe.engine, ENGINE_LEVEL_HARD);
	EngineInfo r = think_search(p, &lim, "Hint");
	engine_set_level(p->pe.engine, options_level(&p->opts));
	r.move = proto_search_legal_move(&p->game, r.move);
	char sq[8];
	text_square(r.move, sq);
	fprintf(p->out, "Hint: %s (score %+d for %s%s).\n", sq, r.score, colour_word(p->game.side),
	        r.exact ? ", exact" : r.book ? ", book" : "");
}

static void cmd_save(Play *p, const char *path)
{
	if (!path) {
		fprintf(p->out, "save needs a file name: save game.ggf (GGF) or save game.txt (transcript).\n");
		return;
	}
	GameRecord r;
	memset(&r, 0, sizeof r);
	r.game = p->game;
	for (int c = 0; c < 2; c++)
		snprintf(c == BLACK ? r.black : r.white, GAMEFILE_NAME, "%s",
		         p->human == PLAY_HUMAN_BOTH || (p->human != PLAY_HUMAN_NONE && !engine_plays(p, c)) ? "Player" : "Emilia");
	char err[GAMEFILE_ERR];
	if (!gamefile_save(path, &r, err)) {
		fprintf(p->out, "Not saved: %s\n", err);
		return;
	}
	fprintf(p->out, "Saved %d moves to %s.\n", r.game.nply, path);
}

static void cmd_load(Play *p, const char *path)
{
	if (!path) {
		fprintf(p->out, "load needs a file name (a GGF game or a transcript).\n");
		return;
	}
	GameRecord r;
	char err[GAMEFILE_ERR];
	if (!gamefile_load(path, p->game.size, p->game.variant, &r, err)) {
		fprintf(p->out, "Not loaded: %s\n", err);
		return;
	}
	if (r.game.size != p->game.size) {
		char sz[8];
		snprintf(sz, sizeof sz, "%d", r.game.size);
		char oerr[OPTIONS_ERR];
		options_set(&p->opts, OPT_SIZE, sz, oerr);
	}
	r.game.variant = p->game.variant;
	p->game = r.game;
	engine_new_game(p->pe.engine);
	p->over_reported = false;
	clock_reset(p);
	fprintf(p->out, "Loaded %s: %d moves.\n", path, p->game.nply);
	engine_turns(p);
	show_board(p);
}

static void review_progress(void *user, int done, int total, double elapsed)
{
	Play *p = user;
	if (!p->tty)
		return;
	char line[160];
	progress_bar(line, sizeof line, done, total, "positions", elapsed, -1, 30);
	fprintf(p->out, "\r%s ", line);
	fflush(p->out);
}

/* `review [LEVEL] [FILE.html]`: the game so far, move by move. */
static void cmd_review(Play *p, int argc, char **argv)
{
	ReviewSettings set;
	review_defaults(&set);
	set.level = ENGINE_LEVEL_NORMAL;
	const char *html = NULL;
	for (int i = 1; i < argc; i++) {
		size_t n = strlen(argv[i]);
		if (n > 5 && !strcmp(argv[i] + n - 5, ".html"))
			html = argv[i];
		else if (!options_parse_level(argv[i], &set.level)) {
			fprintf(p->out, "review takes a level (easy, normal, hard or 0..60) and a file name ending in .html.\n");
			return;
		}
	}
	Review *rv = malloc(sizeof *rv);
	if (!rv)
		return;
	GameRecord rec;
	memset(&rec, 0, sizeof rec);
	rec.game = p->game;
	char err[160];
	engine_set_book(p->pe.engine, NULL, NULL);
	bool ok = review_run(p->pe.engine, &rec, &set, review_progress, p, rv, err, sizeof err);
	if (p->pe.book)
		engine_set_book(p->pe.engine, book_engine_probe, p->pe.book);
	engine_set_level(p->pe.engine, options_level(&p->opts));
	engine_new_game(p->pe.engine);
	p->turn_start = util_now(); /* the review is not on anyone's clock */
	if (p->tty)
		fprintf(p->out, "\r%78s\r", "");
	if (!ok) {
		fprintf(p->out, "Nothing to review: %s.\n", err);
		free(rv);
		return;
	}
	review_write_text(p->out, rv);
	if (html) {
		FILE *f = fopen(html, "w");
		if (f) {
			review_write_html(f, rv, 4);
			ok = !ferror(f);
			ok = fclose(f) == 0 && ok;
		}
		if (f && ok)
			fprintf(p->out, "HTML report written to %s.\n", html);
		else
			fprintf(p->out, "Cannot write %s.\n", html);
	}
	free(rv);
}

static bool set_option(Play *p, OptionId id, const char *value)
{
	char err[OPTIONS_ERR];
	Options save = p->opts;
	if (!value || !options_set(&p->opts, id, value, err) || !options_apply(&p->opts, id, &p->pe, err)) {
		p->opts = save;
		fprintf(p->out, "%s\n", value ? err : "A value is missing: type 'help'.");
		return false;
	}
	return true;
}

static void cmd_move(Play *p, const char *word)
{
	Game *g = &p->game;
	if (play_over(p)) {
		fprintf(p->out, "The game is over. Type 'new' to play again or 'undo' to take back.\n");
		return;
	}
	if (engine_plays(p, g->side)) {
		fprintf(p->out, "It is Emilia's turn.\n");
		return;
	}
	int mv = text_parse_move(word, g->size);
	char legal[200];
	legal_list(g, legal, sizeof legal);
	if (mv == BOARD_PASS) {
		fprintf(p->out, "You cannot pass: you have a legal move (%s). Passes are made for you when needed.\n", legal);
		return;
	}
	if (mv < 0) {
		fprintf(p->out, "'%.20s' is not a command or a square. Squares are a column a-%c and a row 1-%d, like %s; type 'help' for the commands.\n",
		        word, 'a' + g->size - 1, g->size, g->size == 8 ? "f5" : "e4");
		return;
	}
	char sq[8];
	text_square(mv, sq);
	if (!(game_moves(g) & bit_of(mv))) {
		fprintf(p->out, "%s is not a legal move here. Legal moves: %s.\n", sq, legal);
		return;
	}
	clock_charge(p);
	game_play(g, mv);
	settle(p);
	engine_turns(p);
	show_board(p);
}

static bool execute(Play *p, char *line)
{
	char *argv[8];
	int argc = proto_split(line, argv, 8);
	if (argc == 0)
		return true;
	/* commands and their words in any case; file names as typed */
	bool file_cmd = !strcasecmp(argv[0], "save") || !strcasecmp(argv[0], "load") || !strcasecmp(argv[0], "review");
	for (int i = 0; i < (file_cmd ? 1 : argc); i++)
		for (char *c = argv[i]; *c; c++)
			*c = (char)tolower((unsigned char)*c);
	const char *cmd = argv[0];
	const char *arg = argc > 1 ? argv[1] : NULL;
	if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit") || !strcmp(cmd, "q")) {
		fprintf(p->out, "Bye.\n");
		return false;
	} else if (!strcmp(cmd, "help") || !strcmp(cmd, "?")) {
		help(p);
	} else if (!strcmp(cmd, "board")) {
		show_board(p);
	} else if (!strcmp(cmd, "undo") || !strcmp(cmd, "u")) {
		cmd_undo(p);
	} else if (!strcmp(cmd, "hint")) {
		cmd_hint(p);
	} else if (!strcmp(cmd, "transcript")) {
		char t[2 * GAME_MAX_PLY + 1];
		text_transcript(&p->game, t);
		fprintf(p->out, "Transcript: %s\n", t[0] ? t : "(no moves yet)");
	} else if (!strcmp(cmd, "new")) {
		new_game(p);
		fprintf(p->out, "New game.\n");
		engine_turns(p);
		show_board(p);
	} else if (!strcmp(cmd, "color") || !strcmp(cmd, "colour")) {
		int h = !arg ? -1 : !strcmp(arg, "black") || !strcmp(arg, "b") ? PLAY_HUMAN_BLACK
		        : !strcmp(arg, "white") || !strcmp(arg, "w") ? PLAY_HUMAN_WHITE
		        : !strcmp(arg, "both") ? PLAY_HUMAN_BOTH : !strcmp(arg, "none") ? PLAY_HUMAN_NONE : -1;
		if (h < 0) {
			fprintf(p->out, "color must be black, white, both or none.\n");
			return true;
		}
		p->human = h;
		fprintf(p->out, "You play %s.\n", h == PLAY_HUMAN_BOTH ? "both colours" : h == PLAY_HUMAN_NONE ? "no colour" : colour_word(h));
		engine_turns(p);
		show_board(p);
	} else if (!strcmp(cmd, "level") && !arg) {
		fprintf(p->out, "Level %s (hints are always at full strength).\n", options_get(&p->opts, OPT_LEVEL));
	} else if (!strcmp(cmd, "level")) {
		if (set_option(p, OPT_LEVEL, arg))
			fprintf(p->out, "Level %s.\n", options_get(&p->opts, OPT_LEVEL));
	} else if (!strcmp(cmd, "time") && !arg) {
		if (p->clocked) {
			char b[24], w[24];
			clock_text(p->clock[BLACK], b, sizeof b);
			clock_text(p->clock[WHITE], w, sizeof w);
			fprintf(p->out, "Game clock %g+%g: Black %s, White %s left.\n", p->clock_start / 60, p->clock_inc, b, w);
		} else if (p->move_time > 0)
			fprintf(p->out, "Emilia's time per move: %g s.\n", p->move_time);
		else
			fprintf(p->out, "Emilia's time per move: by level (no limit).\n");
	} else if (!strcmp(cmd, "save")) {
		cmd_save(p, arg);
	} else if (!strcmp(cmd, "load")) {
		cmd_load(p, arg);
	} else if (!strcmp(cmd, "review")) {
		cmd_review(p, argc, argv);
	} else if (!strcmp(cmd, "time")) {
		char *end = NULL;
		double t = arg ? strtod(arg, &end) : -1;
		if (!arg || *end || t < 0 || t > 86400) {
			fprintf(p->out, "time must be a number of seconds (0 for no limit).\n");
			return true;
		}
		p->move_time = t;
		fprintf(p->out, "Emilia's time per move: %s.\n", t > 0 ? arg : "by level");
	} else if (!strcmp(cmd, "size") || !strcmp(cmd, "variant")) {
		if (set_option(p, !strcmp(cmd, "size") ? OPT_SIZE : OPT_VARIANT, arg)) {
			new_game(p);
			fprintf(p->out, "New game: %sx%s, %s rules.\n", options_get(&p->opts, OPT_SIZE),
			        options_get(&p->opts, OPT_SIZE), options_get(&p->opts, OPT_VARIANT));
			engine_turns(p);
			show_board(p);
		}
	} else if (!strcmp(cmd, "scoring")) {
		if (set_option(p, OPT_SCORING, arg))
			fprintf(p->out, "Scoring %s.\n", options_get(&p->opts, OPT_SCORING));
	} else {
		cmd_move(p, cmd);
	}
	return true;
}

int play_main(FILE *in, FILE *out, const Options *opts, const PlayConfig *cfg)
{
	Play *p = calloc(1, sizeof *p);
	if (!p)
		return 1;
	char err[OPTIONS_ERR];
	p->out = out;
	p->opts = *opts;
	p->opts.on_change = NULL;
	p->human = cfg->human;
	p->move_time = cfg->move_time;
	p->tty = isatty(fileno(out)) != 0;
	p->thinking = cfg->thinking < 0 ? p->tty : cfg->thinking > 0;
	p->clocked = cfg->clock_minutes > 0;
	p->clock_start = cfg->clock_minutes * 60;
	p->clock_inc = cfg->clock_increment;
	p->flagged = -1;
	pthread_mutex_init(&p->think_lock, NULL);
	char book_err[OPTIONS_ERR] = "";
	if (!options_engine_open(&p->pe, &p->opts, err, book_err)) {
		fprintf(out, "emilia: %s\n", err);
		free(p);
		return 1;
	}
	if (book_err[0] && options_get(&p->opts, OPT_BOOK)[0])
		fprintf(out, "Opening book: %s (playing without it).\n", book_err);
	fprintf(out, "Emilia - Othello. You play %s; level %s; %sx%s board; %s rules; %s scoring.\n"
	             "Type a square like f5 to move, 'help' for the commands.\n",
	        p->human == PLAY_HUMAN_BOTH ? "both colours" : p->human == PLAY_HUMAN_NONE ? "no colour" : colour_word(p->human),
	        options_get(&p->opts, OPT_LEVEL), options_get(&p->opts, OPT_SIZE), options_get(&p->opts, OPT_SIZE),
	        options_get(&p->opts, OPT_VARIANT), options_get(&p->opts, OPT_SCORING));
	new_game(p);
	engine_turns(p);
	show_board(p);
	ProtoLine *line = malloc(sizeof *line);
	if (line) {
		for (;;) {
			prompt(p);
			ProtoLineStatus st = proto_read_line(in, line);
			if (st == PROTO_LINE_EOF) {
				fprintf(out, "\n");
				break;
			}
			if (st == PROTO_LINE_TOO_LONG) {
				fprintf(out, "That line is too long; type 'help' for the commands.\n");
				continue;
			}
			if (!execute(p, line->text))
				break;
		}
		free(line);
	}
	options_engine_close(&p->pe);
	pthread_mutex_destroy(&p->think_lock);
	free(p);
	return 0;
}
