#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "book.h"
#include "gamefile.h"
#include "play.h"
#include "progress.h"
#include "review.h"
#include "session.h"
#include "text.h"
#include "util.h"

typedef struct Play {
	Session s;            /* options, engine, game, the read-execute loop */
	FILE *out;            /* s.out's stream */
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

static Play *play_of(Session *s)
{
	return (Play *)s;
}

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
	const Game *g = &p->s.game;
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
	int c = p->s.game.side;
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
	return p->flagged >= 0 || game_is_over(&p->s.game);
}

static void new_game(Play *p)
{
	game_init(&p->s.game, session_size(&p->s), options_variant(&p->s.opts));
	engine_new_game(p->s.pe.engine);
	p->over_reported = false;
	clock_reset(p);
}

static void report_end(Play *p)
{
	Game *g = &p->s.game;
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
	Scoring s = options_scoring(&p->s.opts);
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
	while (game_must_pass(&p->s.game)) {
		fprintf(p->out, "%s has no legal move and passes.\n", colour_word(p->s.game.side));
		game_play(&p->s.game, BOARD_PASS);
	}
	if (play_over(p) && !p->over_reported)
		report_end(p);
}

static EngineLimits limits(const Play *p)
{
	EngineLimits lim = session_limits(&p->s);
	if (p->move_time > 0)
		lim.movetime = p->move_time;
	if (p->clocked) {
		int c = p->s.game.side;
		double left = p->clock[c] - (util_now() - p->turn_start);
		lim.time_left = left > 0 ? left : 0;
		lim.increment = p->clock_inc;
		lim.overhead = (double)options_int(&p->s.opts, OPT_OVERHEAD) / 1000.0;
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

/* A search of the game, with the thinking line when it is on. */
static EngineInfo think_search(Play *p, const EngineLimits *lim, const char *what)
{
	if (!p->thinking)
		return session_search(&p->s, lim, NULL, NULL);
	p->think_have = false;
	p->think_t0 = util_now();
	p->think_what = what;
	Ticker t = { p, false };
	pthread_t th;
	bool ticking = p->tty && pthread_create(&th, NULL, ticker_main, &t) == 0;
	EngineInfo r = session_search(&p->s, lim, on_think, p);
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
	while (!play_over(p) && engine_plays(p, p->s.game.side)) {
		EngineLimits lim = limits(p);
		EngineInfo r = think_search(p, &lim, "Emilia thinks");
		char sq[8];
		text_square(r.move, sq);
		fprintf(p->out, "Emilia (%s) plays %s.\n", colour_word(p->s.game.side), sq);
		clock_charge(p);
		game_play(&p->s.game, r.move);
		settle(p);
		if (p->human == PLAY_HUMAN_NONE)
			show_board(p);
	}
}

static void prompt(Session *s)
{
	Play *p = play_of(s);
	if (play_over(p))
		fprintf(p->out, "> ");
	else
		fprintf(p->out, "%s to move> ", colour_word(s->game.side));
	fflush(p->out);
}

static void cmd_help(Session *s, int argc, char **argv)
{
	Play *p = play_of(s);
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

static void cmd_undo(Session *s, int argc, char **argv)
{
	Play *p = play_of(s);
	Game *g = &s->game;
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

static void cmd_hint(Session *s, int argc, char **argv)
{
	Play *p = play_of(s);
	if (game_is_over(&s->game)) {
		fprintf(p->out, "The game is over: no hint.\n");
		return;
	}
	/* full strength: Hard, whatever Emilia's level in this game; the
	 * per-move time when one is set, else Hard's own depth (not the
	 * player's clock) */
	EngineLimits lim = session_limits(s);
	if (p->move_time > 0)
		lim.movetime = p->move_time;
	engine_set_level(s->pe.engine, ENGINE_LEVEL_HARD);
	EngineInfo r = think_search(p, &lim, "Hint");
	engine_set_level(s->pe.engine, options_level(&s->opts));
	char sq[8];
	text_square(r.move, sq);
	fprintf(p->out, "Hint: %s (score %+d for %s%s).\n", sq, r.score, colour_word(s->game.side),
	        r.exact ? ", exact" : r.book ? ", book" : "");
}

static void cmd_save(Session *s, int argc, char **argv)
{
	Play *p = play_of(s);
	const char *path = argc > 0 ? argv[0] : NULL;
	if (!path) {
		fprintf(p->out, "save needs a file name: save game.ggf (GGF) or save game.txt (transcript).\n");
		return;
	}
	GameRecord r;
	memset(&r, 0, sizeof r);
	r.game = s->game;
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

static void cmd_load(Session *s, int argc, char **argv)
{
	Play *p = play_of(s);
	const char *path = argc > 0 ? argv[0] : NULL;
	if (!path) {
		fprintf(p->out, "load needs a file name (a GGF game or a transcript).\n");
		return;
	}
	GameRecord r;
	char err[GAMEFILE_ERR];
	if (!gamefile_load(path, s->game.size, s->game.variant, &r, err)) {
		fprintf(p->out, "Not loaded: %s\n", err);
		return;
	}
	if (r.game.size != s->game.size) {
		char sz[8];
		snprintf(sz, sizeof sz, "%d", r.game.size);
		char oerr[OPTIONS_ERR];
		options_set(&s->opts, OPT_SIZE, sz, oerr);
	}
	r.game.variant = s->game.variant;
	s->game = r.game;
	engine_new_game(s->pe.engine);
	p->over_reported = false;
	clock_reset(p);
	fprintf(p->out, "Loaded %s: %d moves.\n", path, s->game.nply);
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
static void cmd_review(Session *s, int argc, char **argv)
{
	Play *p = play_of(s);
	ReviewSettings set;
	review_defaults(&set);
	set.level = ENGINE_LEVEL_NORMAL;
	const char *html = NULL;
	for (int i = 0; i < argc; i++) {
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
	rec.game = s->game;
	char err[160];
	engine_set_book(s->pe.engine, NULL, NULL);
	bool ok = review_run(s->pe.engine, &rec, &set, review_progress, p, rv, err, sizeof err);
	if (s->pe.book)
		engine_set_book(s->pe.engine, book_engine_probe, s->pe.book);
	engine_set_level(s->pe.engine, options_level(&s->opts));
	engine_new_game(s->pe.engine);
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
	if (!value) {
		fprintf(p->out, "A value is missing: type 'help'.\n");
		return false;
	}
	if (session_set_option(&p->s, id, value, err) != SESSION_OPTION_OK) {
		fprintf(p->out, "%s\n", err);
		return false;
	}
	return true;
}

/* A word that is no command: a square to play. */
static void cmd_move(Session *s, int argc, char **argv)
{
	Play *p = play_of(s);
	const char *word = argv[0];
	Game *g = &s->game;
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

static void cmd_quit(Session *s, int argc, char **argv)
{
	fprintf(play_of(s)->out, "Bye.\n");
	s->quit = true;
}

static void cmd_board(Session *s, int argc, char **argv)
{
	show_board(play_of(s));
}

static void cmd_transcript(Session *s, int argc, char **argv)
{
	char t[2 * GAME_MAX_PLY + 1];
	text_transcript(&s->game, t);
	fprintf(play_of(s)->out, "Transcript: %s\n", t[0] ? t : "(no moves yet)");
}

static void cmd_new(Session *s, int argc, char **argv)
{
	Play *p = play_of(s);
	new_game(p);
	fprintf(p->out, "New game.\n");
	engine_turns(p);
	show_board(p);
}

static void cmd_color(Session *s, int argc, char **argv)
{
	Play *p = play_of(s);
	const char *arg = argc > 0 ? argv[0] : NULL;
	int h = !arg ? -1 : !strcmp(arg, "black") || !strcmp(arg, "b") ? PLAY_HUMAN_BLACK
	        : !strcmp(arg, "white") || !strcmp(arg, "w") ? PLAY_HUMAN_WHITE
	        : !strcmp(arg, "both") ? PLAY_HUMAN_BOTH : !strcmp(arg, "none") ? PLAY_HUMAN_NONE : -1;
	if (h < 0) {
		fprintf(p->out, "color must be black, white, both or none.\n");
		return;
	}
	p->human = h;
	fprintf(p->out, "You play %s.\n", h == PLAY_HUMAN_BOTH ? "both colours" : h == PLAY_HUMAN_NONE ? "no colour" : colour_word(h));
	engine_turns(p);
	show_board(p);
}

static void cmd_level(Session *s, int argc, char **argv)
{
	Play *p = play_of(s);
	if (argc == 0)
		fprintf(p->out, "Level %s (hints are always at full strength).\n", options_get(&s->opts, OPT_LEVEL));
	else if (set_option(p, OPT_LEVEL, argv[0]))
		fprintf(p->out, "Level %s.\n", options_get(&s->opts, OPT_LEVEL));
}

static void cmd_time(Session *s, int argc, char **argv)
{
	Play *p = play_of(s);
	if (argc == 0) {
		if (p->clocked) {
			char b[24], w[24];
			clock_text(p->clock[BLACK], b, sizeof b);
			clock_text(p->clock[WHITE], w, sizeof w);
			fprintf(p->out, "Game clock %g+%g: Black %s, White %s left.\n", p->clock_start / 60, p->clock_inc, b, w);
		} else if (p->move_time > 0)
			fprintf(p->out, "Emilia's time per move: %g s.\n", p->move_time);
		else
			fprintf(p->out, "Emilia's time per move: by level (no limit).\n");
		return;
	}
	char *end = NULL;
	double t = strtod(argv[0], &end);
	if (*end || t < 0 || t > 86400) {
		fprintf(p->out, "time must be a number of seconds (0 for no limit).\n");
		return;
	}
	p->move_time = t;
	fprintf(p->out, "Emilia's time per move: %s.\n", t > 0 ? argv[0] : "by level");
}

/* size and variant: a new game under the new rule. */
static void new_rules(Session *s, OptionId id, int argc, char **argv)
{
	Play *p = play_of(s);
	if (set_option(p, id, argc > 0 ? argv[0] : NULL)) {
		new_game(p);
		fprintf(p->out, "New game: %sx%s, %s rules.\n", options_get(&s->opts, OPT_SIZE),
		        options_get(&s->opts, OPT_SIZE), options_get(&s->opts, OPT_VARIANT));
		engine_turns(p);
		show_board(p);
	}
}

static void cmd_size(Session *s, int argc, char **argv)
{
	new_rules(s, OPT_SIZE, argc, argv);
}

static void cmd_variant(Session *s, int argc, char **argv)
{
	new_rules(s, OPT_VARIANT, argc, argv);
}

static void cmd_scoring(Session *s, int argc, char **argv)
{
	Play *p = play_of(s);
	if (set_option(p, OPT_SCORING, argc > 0 ? argv[0] : NULL))
		fprintf(p->out, "Scoring %s.\n", options_get(&s->opts, OPT_SCORING));
}

static void too_long(Session *s)
{
	fprintf(play_of(s)->out, "That line is too long; type 'help' for the commands.\n");
}

static void at_eof(Session *s)
{
	fprintf(play_of(s)->out, "\n");
}

/* Commands and their words in any case; file names as typed. */
static const SessionCommand play_commands[] = {
	{ "quit", cmd_quit, 0, NULL, NULL },
	{ "exit", cmd_quit, 0, NULL, NULL },
	{ "q", cmd_quit, 0, NULL, NULL },
	{ "help", cmd_help, 0, NULL, NULL },
	{ "?", cmd_help, 0, NULL, NULL },
	{ "board", cmd_board, 0, NULL, NULL },
	{ "undo", cmd_undo, 0, NULL, NULL },
	{ "u", cmd_undo, 0, NULL, NULL },
	{ "hint", cmd_hint, 0, NULL, NULL },
	{ "transcript", cmd_transcript, 0, NULL, NULL },
	{ "new", cmd_new, 0, NULL, NULL },
	{ "color", cmd_color, 0, NULL, NULL },
	{ "colour", cmd_color, 0, NULL, NULL },
	{ "level", cmd_level, 0, NULL, NULL },
	{ "time", cmd_time, 0, NULL, NULL },
	{ "save", cmd_save, SESSION_RAW_ARGS, NULL, NULL },
	{ "load", cmd_load, SESSION_RAW_ARGS, NULL, NULL },
	{ "review", cmd_review, SESSION_RAW_ARGS, NULL, NULL },
	{ "size", cmd_size, 0, NULL, NULL },
	{ "variant", cmd_variant, 0, NULL, NULL },
	{ "scoring", cmd_scoring, 0, NULL, NULL },
	{ NULL, NULL, 0, NULL, NULL }
};

static void destroy(Session *s)
{
	pthread_mutex_destroy(&play_of(s)->think_lock);
}

static const SessionProtocol play_protocol = {
	.commands = play_commands,
	.max_words = 8,
	.fold_case = true,
	.too_long = too_long,
	.unknown = cmd_move,
	.prompt = prompt,
	.at_eof = at_eof,
	.destroy = destroy,
};

int play_main(FILE *in, FILE *out, const Options *opts, const PlayConfig *cfg)
{
	char err[OPTIONS_ERR];
	Play *p = (Play *)session_new(&play_protocol, sizeof *p, out, opts, err);
	if (!p) {
		fprintf(stderr, "emilia: %s\n", err);
		return 1;
	}
	p->out = out;
	p->human = cfg->human;
	p->move_time = cfg->move_time;
	p->tty = isatty(fileno(out)) != 0;
	p->thinking = cfg->thinking < 0 ? p->tty : cfg->thinking > 0;
	p->clocked = cfg->clock_minutes > 0;
	p->clock_start = cfg->clock_minutes * 60;
	p->clock_inc = cfg->clock_increment;
	p->flagged = -1;
	pthread_mutex_init(&p->think_lock, NULL);
	if (p->s.book_err[0] && options_get(&p->s.opts, OPT_BOOK)[0])
		fprintf(out, "Opening book: %s (playing without it).\n", p->s.book_err);
	fprintf(out, "Emilia - Othello. You play %s; level %s; %sx%s board; %s rules; %s scoring.\n"
	             "Type a square like f5 to move, 'help' for the commands.\n",
	        p->human == PLAY_HUMAN_BOTH ? "both colours" : p->human == PLAY_HUMAN_NONE ? "no colour" : colour_word(p->human),
	        options_get(&p->s.opts, OPT_LEVEL), options_get(&p->s.opts, OPT_SIZE), options_get(&p->s.opts, OPT_SIZE),
	        options_get(&p->s.opts, OPT_VARIANT), options_get(&p->s.opts, OPT_SCORING));
	new_game(p);
	engine_turns(p);
	show_board(p);
	session_run(&p->s, in);
	session_free(&p->s);
	return 0;
}
