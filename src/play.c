#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "play.h"
#include "proto_io.h"
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
} Play;

static const char *colour_word(int c)
{
	return c == BLACK ? "Black" : "White";
}

static bool engine_plays(const Play *p, int colour)
{
	return p->human == PLAY_HUMAN_NONE || (p->human != PLAY_HUMAN_BOTH && p->human != colour);
}

static void show_board(Play *p)
{
	char pic[2048];
	text_board_picture(&p->game, true, pic, sizeof pic);
	fputs(pic, p->out);
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

static void new_game(Play *p)
{
	game_init(&p->game, atoi(options_get(&p->opts, OPT_SIZE)), options_variant(&p->opts));
	engine_new_game(p->pe.engine);
	p->over_reported = false;
}

static void report_end(Play *p)
{
	Game *g = &p->game;
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
	fprintf(p->out, "Type 'new' for another game, 'undo' to take back, or 'quit'.\n");
	p->over_reported = true;
}

/* Make forced passes, with a message; report the end once. */
static void settle(Play *p)
{
	while (game_must_pass(&p->game)) {
		fprintf(p->out, "%s has no legal move and passes.\n", colour_word(p->game.side));
		game_play(&p->game, BOARD_PASS);
	}
	if (game_is_over(&p->game) && !p->over_reported)
		report_end(p);
}

static EngineLimits limits(const Play *p)
{
	EngineLimits lim;
	memset(&lim, 0, sizeof lim);
	lim.time_left = -1;
	if (p->move_time > 0)
		lim.movetime = p->move_time;
	return lim;
}

static void engine_turns(Play *p)
{
	settle(p);
	while (!game_is_over(&p->game) && engine_plays(p, p->game.side)) {
		EngineLimits lim = limits(p);
		EngineInfo r = engine_search(p->pe.engine, &p->game, &lim, NULL, NULL);
		uint64_t legal = game_moves(&p->game);
		if (r.move < 0 || r.move >= 64 || !(legal & bit_of(r.move)))
			r.move = bit_first(legal);
		char sq[8];
		text_square(r.move, sq);
		fprintf(p->out, "Emilia (%s) plays %s.\n", colour_word(p->game.side), sq);
		game_play(&p->game, r.move);
		settle(p);
		if (p->human == PLAY_HUMAN_NONE)
			show_board(p);
	}
}

static void prompt(Play *p)
{
	if (game_is_over(&p->game))
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
	      "  hint        Emilia suggests a move\n"
	      "  board       show the board again ('.' marks your legal squares)\n"
	      "  new         start a new game with the current settings\n"
	      "  color black|white|both|none   choose your side (both: no engine)\n"
	      "  level easy|normal|hard|0..60  Emilia's strength\n"
	      "  time S      Emilia's time limit per move in seconds (0: by level)\n"
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
	EngineLimits lim = limits(p);
	EngineInfo r = engine_search(p->pe.engine, &p->game, &lim, NULL, NULL);
	uint64_t legal = game_moves(&p->game);
	if (r.move < 0 || r.move >= 64 || !(legal & bit_of(r.move)))
		r.move = bit_first(legal);
	char sq[8];
	text_square(r.move, sq);
	fprintf(p->out, "Hint: %s (score %+d for %s%s).\n", sq, r.score, colour_word(p->game.side),
	        r.exact ? ", exact" : r.book ? ", book" : "");
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
	if (game_is_over(g)) {
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
	if (game_play(g, mv) != GAME_OK) {
		fprintf(p->out, "%s is not a legal move here. Legal moves: %s.\n", sq, legal);
		return;
	}
	settle(p);
	engine_turns(p);
	show_board(p);
}

static bool execute(Play *p, char *line)
{
	char *argv[8];
	for (char *c = line; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	int argc = proto_split(line, argv, 8);
	if (argc == 0)
		return true;
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
	} else if (!strcmp(cmd, "level")) {
		if (set_option(p, OPT_LEVEL, arg))
			fprintf(p->out, "Level %s.\n", options_get(&p->opts, OPT_LEVEL));
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
	free(p);
	return 0;
}
