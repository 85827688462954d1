#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "session.h"

/* Every options_set() of a session lands here: the variant is the game's
 * rule at once, the rest is the protocol's business. */
static void on_option_change(void *user, const Options *o, OptionId id)
{
	Session *s = user;
	if (id == OPT_VARIANT)
		s->game.variant = options_variant(o);
	if (s->proto->option_changed)
		s->proto->option_changed(s, id);
}

int session_size(const Session *s)
{
	return atoi(options_get(&s->opts, OPT_SIZE));
}

Session *session_new(const SessionProtocol *p, size_t size, FILE *out, const Options *opts, char *err)
{
	Session *s = calloc(1, size);
	if (!s) {
		snprintf(err, OPTIONS_ERR, "out of memory");
		return NULL;
	}
	s->proto = p;
	s->opts = *opts;
	s->opts.on_change = on_option_change;
	s->opts.user = s;
	if (!options_engine_open(&s->pe, &s->opts, err, s->book_err)) {
		free(s);
		return NULL;
	}
	s->init_opts = s->opts;
	proto_out_init(&s->out, out);
	proto_search_init(&s->search);
	game_init(&s->game, session_size(s), options_variant(&s->opts));
	return s;
}

void session_free(Session *s)
{
	if (!s)
		return;
	proto_search_stop(&s->search);
	if (s->proto->destroy)
		s->proto->destroy(s);
	proto_search_destroy(&s->search);
	options_engine_close(&s->pe);
	proto_out_destroy(&s->out);
	free(s);
}

void session_reset(Session *s)
{
	proto_search_stop(&s->search);
	options_restore(&s->opts, &s->init_opts, &s->pe);
	game_init(&s->game, session_size(s), options_variant(&s->opts));
	s->quit = false;
	if (s->proto->reset)
		s->proto->reset(s);
}

void session_warn_book(const Session *s)
{
	if (s->book_err[0] && options_get(&s->opts, OPT_BOOK)[0])
		fprintf(stderr, "emilia: book: %s (playing without it)\n", s->book_err);
}

void session_wait(Session *s)
{
	proto_search_wait(&s->search);
}

void session_settle(Session *s)
{
	if (proto_search_infinite(&s->search))
		proto_search_stop(&s->search);
	else
		proto_search_wait(&s->search);
}

void session_cmd_quit(Session *s, int argc, char **argv)
{
	proto_search_stop(&s->search);
	s->quit = true;
}

const SessionCommand *session_command(const SessionProtocol *p, const char *name)
{
	for (const SessionCommand *c = p->commands; c && c->name; c++)
		if (proto_eq(name, c->name))
			return c;
	return NULL;
}

static void lower_words(char **argv, int from, int to)
{
	for (int i = from; i < to; i++)
		for (char *c = argv[i]; *c; c++)
			*c = (char)tolower((unsigned char)*c);
}

/* One cleaned line (steps 2 to 5 of session.h). */
static bool dispatch(Session *s, char *line, bool too_long)
{
	const SessionProtocol *p = s->proto;
	if (p->frame) {
		line = p->frame(s, line, too_long);
		if (!line)
			return !s->quit;
	} else if (too_long) {
		p->too_long(s);
		return true;
	}
	s->line = line;
	snprintf(s->words, sizeof s->words, "%s", line);
	int max = p->max_words > 0 ? p->max_words : PROTO_MAX_ARGS;
	char *argv[PROTO_MAX_ARGS];
	int argc = proto_split(s->words, argv, max);
	if (argc == 0)
		return true;
	if (p->too_many_words && argc == max && strchr(argv[argc - 1], ' ')) {
		p->too_many_words(s);
		return true;
	}
	if (p->fold_case)
		lower_words(argv, 0, 1);
	const SessionCommand *c = session_command(p, argv[0]);
	if (p->fold_case && !(c && (c->flags & SESSION_RAW_ARGS)))
		lower_words(argv, 1, argc);
	if (!c || !(c->flags & SESSION_ANYTIME))
		session_settle(s);
	if (c)
		c->fn(s, argc - 1, argv + 1);
	else
		p->unknown(s, argc, argv);
	if (p->done)
		p->done(s);
	return !s->quit;
}

bool session_execute_line(Session *s, const char *line)
{
	bool too_long = proto_clean_line(line, &s->in) == PROTO_LINE_TOO_LONG;
	return dispatch(s, s->in.text, too_long);
}

void session_run(Session *s, FILE *in)
{
	for (;;) {
		if (s->proto->prompt)
			s->proto->prompt(s);
		ProtoLineStatus st = proto_read_line(in, &s->in);
		if (st == PROTO_LINE_EOF) {
			if (s->proto->at_eof)
				s->proto->at_eof(s);
			break;
		}
		if (!dispatch(s, s->in.text, st == PROTO_LINE_TOO_LONG))
			break;
	}
	session_settle(s);
}

int session_main(Session *s, FILE *in, const char *err)
{
	if (!s) {
		fprintf(stderr, "emilia: %s\n", err);
		return 1;
	}
	session_run(s, in);
	session_free(s);
	return 0;
}

SessionOptionStatus session_set_option(Session *s, OptionId id, const char *value, char *err)
{
	Options save = s->opts;
	if (!options_set(&s->opts, id, value, err))
		return SESSION_OPTION_BAD;
	if (!options_apply(&s->opts, id, &s->pe, err)) {
		/* the engine keeps what it had: the old value, passed on again */
		s->opts = save;
		options_apply(&s->opts, id, &s->pe, err);
		return SESSION_OPTION_REFUSED;
	}
	return SESSION_OPTION_OK;
}

EngineLimits session_limits(const Session *s)
{
	EngineLimits lim;
	memset(&lim, 0, sizeof lim);
	lim.time_left = -1;
	lim.nodes = s->node_cap;
	return lim;
}

EngineInfo session_search(Session *s, const EngineLimits *lim, EngineInfoFn info, void *user)
{
	EngineInfo r = engine_search(s->pe.engine, &s->game, lim, info, user);
	r.move = proto_search_legal_move(&s->game, r.move);
	return r;
}
