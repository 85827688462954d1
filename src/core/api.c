/*
 * api.c - the public C API (include/emilia.h) over the engine facade
 * (engine.h), the rules (game.h), the text formats (text.h), the book,
 * the evaluation and perft.  It adds argument checks, status codes, a
 * last-error message per handle and a stop that waits for the search to
 * return; it prints nothing.
 *
 * Stop: engine_stop() ignores a request made while no search runs, and a
 * search only counts as running once the engine has set it up.  So
 * emilia_stop() repeats the request every millisecond until the call it
 * targets (identified by run_id) has returned; from the info callback
 * (the searching thread, marked by the thread-local in_callback) it only
 * makes the request.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "board.h"
#include "bounds.h"
#include "book.h"
#include "emilia.h"
#include "engine.h"
#include "eval.h"
#include "game.h"
#include "perft.h"
#include "text.h"

#define API_ERR 256

struct emilia_engine {
	Engine *engine;
	Book *book;
	Game game;
	int size;
	Variant variant;
	int threads;
	atomic_int busy;       /* a search, analysis or solve runs */
	atomic_uint run_id;    /* incremented as each of those starts */
	char err[API_ERR];
};

/* The engine whose info callback runs on this thread, if any. */
static _Thread_local emilia_engine *in_callback;

const char *emilia_version(void)
{
	return EMILIA_VERSION_STRING;
}

const char *emilia_kernel(void)
{
	return board_kernel_name();
}

const char *emilia_strerror(emilia_status s)
{
	switch (s) {
	case EMILIA_OK: return "success";
	case EMILIA_ERR_NULL: return "NULL handle or pointer";
	case EMILIA_ERR_ARGUMENT: return "argument out of range";
	case EMILIA_ERR_PARSE: return "malformed input";
	case EMILIA_ERR_ILLEGAL: return "illegal move";
	case EMILIA_ERR_GAME_OVER: return "the game is over";
	case EMILIA_ERR_NO_UNDO: return "nothing to undo";
	case EMILIA_ERR_FILE: return "file cannot be loaded";
	case EMILIA_ERR_MEMORY: return "out of memory";
	case EMILIA_ERR_STOPPED: return "stopped before a result";
	case EMILIA_ERR_BUFFER: return "buffer too small";
	}
	return "unknown status";
}

/* ---- errors ------------------------------------------------------------------ */

static emilia_status ok(emilia_engine *e)
{
	e->err[0] = 0;
	return EMILIA_OK;
}

__attribute__((format(printf, 3, 4)))
static emilia_status fail(emilia_engine *e, emilia_status s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->err, sizeof e->err, fmt, ap);
	va_end(ap);
	return s;
}

const char *emilia_last_error(const emilia_engine *e)
{
	return e ? e->err : "NULL engine handle";
}

/* ---- options -------------------------------------------------------------------- */

void emilia_options_init(emilia_options *o)
{
	if (!o)
		return;
	memset(o, 0, sizeof *o);
	o->struct_size = sizeof *o;
	o->threads = 1;
	o->hash_mb = 64;
	o->level = EMILIA_LEVEL_HARD;
	o->board_size = 8;
	o->use_book = 1;
}

void emilia_limits_init(emilia_limits *l)
{
	if (!l)
		return;
	memset(l, 0, sizeof *l);
	l->struct_size = sizeof *l;
	l->time_left = -1;
}

/* A caller's struct of struct_size bytes over the defaults: the fields a
 * newer caller adds are ignored, those an older one lacks keep their
 * defaults.  false when struct_size is not set. */
static bool copy_sized(void *dst, size_t dst_size, const void *src, size_t src_size)
{
	if (src_size < sizeof(size_t))
		return false;
	memcpy(dst, src, src_size < dst_size ? src_size : dst_size);
	((size_t *)dst)[0] = dst_size;
	return true;
}

static bool level_ok(int level)
{
	return level >= EMILIA_LEVEL_HARD && level <= BOUNDS_LEVEL_MAX;
}

static emilia_status create_fail(emilia_engine *e, emilia_status s, char *err, size_t errlen)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", e->err);
	emilia_destroy(e);
	return s;
}

emilia_status emilia_create(const emilia_options *opt, emilia_engine **out, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = 0;
	if (!out) {
		if (err && errlen)
			snprintf(err, errlen, "emilia_create: out is NULL");
		return EMILIA_ERR_NULL;
	}
	*out = NULL;
	emilia_engine *e = calloc(1, sizeof *e);
	if (!e) {
		if (err && errlen)
			snprintf(err, errlen, "cannot allocate the engine");
		return EMILIA_ERR_MEMORY;
	}
	atomic_init(&e->busy, 0);
	atomic_init(&e->run_id, 0);
	emilia_options o;
	emilia_options_init(&o);
	if (opt && !copy_sized(&o, sizeof o, opt, opt->struct_size))
		return create_fail(e, fail(e, EMILIA_ERR_ARGUMENT, "options.struct_size is not set (call emilia_options_init)"),
		                   err, errlen);
	if (o.threads < BOUNDS_THREADS_MIN || o.threads > BOUNDS_THREADS_MAX)
		return create_fail(e, fail(e, EMILIA_ERR_ARGUMENT, "threads must be %d..%d, not %d", BOUNDS_THREADS_MIN,
		                           BOUNDS_THREADS_MAX, o.threads),
		                   err, errlen);
	if (o.hash_mb < BOUNDS_HASH_MB_MIN || o.hash_mb > BOUNDS_HASH_MB_MAX)
		return create_fail(e, fail(e, EMILIA_ERR_ARGUMENT, "hash must be %d..%d MiB, not %d", BOUNDS_HASH_MB_MIN,
		                           BOUNDS_HASH_MB_MAX, o.hash_mb),
		                   err, errlen);
	if (!level_ok(o.level))
		return create_fail(e, fail(e, EMILIA_ERR_ARGUMENT, "level must be 0..%d or EMILIA_LEVEL_*, not %d",
		                           BOUNDS_LEVEL_MAX, o.level),
		                   err, errlen);
	if (!bounds_game_size(o.board_size))
		return create_fail(e, fail(e, EMILIA_ERR_ARGUMENT, "board size must be 8 or 6, not %d", o.board_size), err,
		                   errlen);
	e->size = o.board_size;
	e->variant = o.anti ? VARIANT_ANTI : VARIANT_NORMAL;
	e->threads = o.threads;
	Evaluator *weights = NULL;
	if (o.weights_file) {
		char why[TEXT_ERR];
		if (!(weights = eval_load(o.weights_file, why)))
			return create_fail(e, fail(e, EMILIA_ERR_FILE, "weights: %s", why), err, errlen);
	}
	e->engine = engine_new();
	if (!e->engine) {
		eval_free(weights);
		return create_fail(e, fail(e, EMILIA_ERR_MEMORY, "cannot create the engine"), err, errlen);
	}
	engine_set_evaluator(e->engine, weights);
	engine_set_threads(e->engine, o.threads);
	engine_set_level(e->engine, o.level);
	engine_set_seed(e->engine, o.seed);
	if (!engine_set_hash_mb(e->engine, o.hash_mb))
		return create_fail(e, fail(e, EMILIA_ERR_MEMORY, "%s", engine_hash_error(e->engine)), err, errlen);
	if (o.use_book) {
		char *why = malloc(BOOK_ERR);
		if (!why)
			return create_fail(e, fail(e, EMILIA_ERR_MEMORY, "out of memory"), err, errlen);
		e->book = o.book_file ? book_open(o.book_file, why) : book_open_default(why);
		if (!e->book) {
			fail(e, EMILIA_ERR_FILE, "book: %.240s", why);
			free(why);
			return create_fail(e, EMILIA_ERR_FILE, err, errlen);
		}
		free(why);
		book_set_randomness(e->book, 0, o.seed);
		engine_set_book(e->engine, book_engine_probe, e->book);
	}
	game_init(&e->game, e->size, e->variant);
	*out = e;
	return ok(e);
}

void emilia_destroy(emilia_engine *e)
{
	if (!e)
		return;
	if (e->engine) {
		emilia_stop(e);
		engine_set_book(e->engine, NULL, NULL);
		engine_free(e->engine);
	}
	book_free(e->book);
	free(e);
}

#define CHECK(e)                   \
	do {                           \
		if (!(e))                  \
			return EMILIA_ERR_NULL; \
	} while (0)

emilia_status emilia_set_level(emilia_engine *e, int level)
{
	CHECK(e);
	if (!level_ok(level))
		return fail(e, EMILIA_ERR_ARGUMENT, "level must be 0..%d or EMILIA_LEVEL_*, not %d", BOUNDS_LEVEL_MAX, level);
	engine_set_level(e->engine, level);
	return ok(e);
}

emilia_status emilia_set_threads(emilia_engine *e, int threads)
{
	CHECK(e);
	if (threads < BOUNDS_THREADS_MIN || threads > BOUNDS_THREADS_MAX)
		return fail(e, EMILIA_ERR_ARGUMENT, "threads must be %d..%d, not %d", BOUNDS_THREADS_MIN, BOUNDS_THREADS_MAX,
		            threads);
	e->threads = threads;
	engine_set_threads(e->engine, threads);
	return ok(e);
}

emilia_status emilia_set_hash(emilia_engine *e, int mb)
{
	CHECK(e);
	if (mb < BOUNDS_HASH_MB_MIN || mb > BOUNDS_HASH_MB_MAX)
		return fail(e, EMILIA_ERR_ARGUMENT, "hash must be %d..%d MiB, not %d", BOUNDS_HASH_MB_MIN, BOUNDS_HASH_MB_MAX,
		            mb);
	if (!engine_set_hash_mb(e->engine, mb))
		return fail(e, EMILIA_ERR_MEMORY, "%s", engine_hash_error(e->engine));
	return ok(e);
}

/* ---- the position ----------------------------------------------------------------- */

emilia_status emilia_new_game(emilia_engine *e)
{
	CHECK(e);
	game_init(&e->game, e->size, e->variant);
	engine_new_game(e->engine);
	return ok(e);
}

emilia_status emilia_set_transcript(emilia_engine *e, const char *moves)
{
	CHECK(e);
	if (!moves)
		return fail(e, EMILIA_ERR_NULL, "no transcript (NULL)");
	Game g;
	game_init(&g, e->size, e->variant);
	const char *s = moves;
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	char why[TEXT_ERR];
	if (*s && !text_apply_transcript(&g, s, why))
		return fail(e, strstr(why, "illegal") ? EMILIA_ERR_ILLEGAL : EMILIA_ERR_PARSE, "transcript: %s", why);
	e->game = g;
	return ok(e);
}

emilia_status emilia_set_obf(emilia_engine *e, const char *obf)
{
	CHECK(e);
	if (!obf)
		return fail(e, EMILIA_ERR_NULL, "no OBF line (NULL)");
	ObfPosition pos;
	char why[TEXT_ERR];
	if (!text_parse_obf(obf, e->size, &pos, why))
		return fail(e, EMILIA_ERR_PARSE, "OBF: %s", why);
	game_init(&e->game, e->size, e->variant);
	game_set(&e->game, pos.board, pos.side);
	return ok(e);
}

static emilia_status put_text(emilia_engine *e, const char *text, char *buf, size_t len)
{
	if (!buf)
		return fail(e, EMILIA_ERR_NULL, "no buffer (NULL)");
	size_t n = strlen(text);
	if (n + 1 > len) {
		if (len)
			buf[0] = 0;
		return fail(e, EMILIA_ERR_BUFFER, "%zu bytes needed, the buffer has %zu", n + 1, len);
	}
	memcpy(buf, text, n + 1);
	return ok(e);
}

emilia_status emilia_get_obf(emilia_engine *e, char *buf, size_t len)
{
	CHECK(e);
	char obf[72];
	text_write_obf(e->game.board, e->game.side, e->size, obf);
	return put_text(e, obf, buf, len);
}

emilia_status emilia_get_transcript(emilia_engine *e, char *buf, size_t len)
{
	CHECK(e);
	char t[2 * GAME_MAX_PLY + 1];
	text_transcript(&e->game, t);
	return put_text(e, t, buf, len);
}

int emilia_side_to_move(const emilia_engine *e)
{
	return e ? e->game.side : -1;
}

int emilia_is_game_over(const emilia_engine *e)
{
	return e ? game_is_over(&e->game) : -1;
}

emilia_status emilia_discs(const emilia_engine *e, int *black, int *white)
{
	CHECK(e);
	if (!black || !white)
		return EMILIA_ERR_NULL;
	*black = game_discs(&e->game, BLACK);
	*white = game_discs(&e->game, WHITE);
	return EMILIA_OK;
}

emilia_status emilia_legal_moves(emilia_engine *e, int *moves, int *count)
{
	CHECK(e);
	if (!moves || !count)
		return fail(e, EMILIA_ERR_NULL, "no moves or count array (NULL)");
	int n = 0;
	uint64_t m = game_moves(&e->game);
	if (m) {
		for (; m; m &= m - 1)
			moves[n++] = __builtin_ctzll(m);
	} else if (game_must_pass(&e->game)) {
		moves[n++] = EMILIA_PASS;
	}
	*count = n;
	return ok(e);
}

emilia_status emilia_play(emilia_engine *e, int move)
{
	CHECK(e);
	if (move < 0 || move > EMILIA_PASS)
		return fail(e, EMILIA_ERR_ILLEGAL, "illegal move: %d is no square", move);
	char name[5];
	text_square(move, name);
	switch (game_play(&e->game, move)) {
	case GAME_OK:
		return ok(e);
	case GAME_OVER:
		return fail(e, EMILIA_ERR_GAME_OVER, "the game is over: no move %s", name);
	case GAME_NOT_PASS:
		return fail(e, EMILIA_ERR_ILLEGAL, "illegal pass: the side to move has a move");
	case GAME_FULL:
		return fail(e, EMILIA_ERR_MEMORY, "the game's history is full");
	case GAME_ILLEGAL:
	default:
		return fail(e, EMILIA_ERR_ILLEGAL, "illegal move %s", name);
	}
}

emilia_status emilia_play_text(emilia_engine *e, const char *move)
{
	CHECK(e);
	if (!move)
		return fail(e, EMILIA_ERR_NULL, "no move (NULL)");
	int mv = text_parse_move(move, e->size);
	if (mv < 0) {
		char q[TEXT_QUOTE_MAX];
		return fail(e, EMILIA_ERR_PARSE, "not a move: '%s'", text_quote(move, q));
	}
	return emilia_play(e, mv);
}

emilia_status emilia_undo(emilia_engine *e)
{
	CHECK(e);
	if (!game_undo(&e->game))
		return fail(e, EMILIA_ERR_NO_UNDO, "nothing to undo: the game is at its start position");
	return ok(e);
}

emilia_status emilia_move_name(int move, char out[5])
{
	if (!out)
		return EMILIA_ERR_NULL;
	if (move == EMILIA_NO_MOVE) {
		memcpy(out, "none", 5);
		return EMILIA_OK;
	}
	if (move < 0 || move > EMILIA_PASS) {
		out[0] = 0;
		return EMILIA_ERR_ARGUMENT;
	}
	text_square(move, out);
	return EMILIA_OK;
}

int emilia_parse_move(const char *s)
{
	return s ? text_parse_move(s, 8) : -1;
}

/* ---- searching ---------------------------------------------------------------- */

static void to_info(emilia_info *out, const EngineInfo *in)
{
	memset(out, 0, sizeof *out);
	out->move = in->move;
	out->score = in->score;
	out->depth = in->depth;
	out->selectivity = in->selectivity;
	out->exact = in->exact;
	out->wld = in->wld;
	out->book = in->book;
	out->multipv_index = in->multipv_index;
	int n = in->pvlen < 0 ? 0 : in->pvlen;
	if (n > EMILIA_MAX_PV)
		n = EMILIA_MAX_PV;
	out->pvlen = n;
	memcpy(out->pv, in->pv, sizeof(int) * (size_t)n);
	out->nodes = in->nodes;
	out->seconds = in->seconds;
}

/* The caller's limits (NULL: none) as the engine's; false when
 * struct_size is not set. */
static bool to_limits(emilia_engine *e, const emilia_limits *lim, EngineLimits *out)
{
	emilia_limits l;
	emilia_limits_init(&l);
	if (lim && !copy_sized(&l, sizeof l, lim, lim->struct_size)) {
		fail(e, EMILIA_ERR_ARGUMENT, "limits.struct_size is not set (call emilia_limits_init)");
		return false;
	}
	if (l.depth < 0 || l.depth > 60 || l.move_time < 0 || l.increment < 0 || l.moves_to_go < 0 || l.multipv < 0) {
		fail(e, EMILIA_ERR_ARGUMENT, "limits out of range (depth 0..60, times, moves_to_go and multipv >= 0)");
		return false;
	}
	memset(out, 0, sizeof *out);
	out->depth = l.depth;
	out->nodes = l.nodes;
	out->movetime = l.move_time;
	out->time_left = l.time_left;
	out->increment = l.increment;
	out->moves_to_go = l.moves_to_go;
	out->infinite = l.infinite != 0;
	out->multipv = l.multipv;
	return true;
}

typedef struct Relay {
	emilia_engine *e;
	emilia_info_fn fn;
	void *user;
	emilia_info *lines; /* analysis: the latest iteration's lines */
	int max, count;
} Relay;

static void relay_info(const EngineInfo *in, void *user)
{
	Relay *r = user;
	emilia_info info;
	to_info(&info, in);
	if (r->lines) {
		/* analysis: keep the latest iteration's lines, and show the
		 * caller only the lines it asked for */
		int k = in->multipv_index - 1;
		if (k == 0)
			r->count = 0;
		if (k < 0 || k >= r->max)
			return;
		if (k == r->count)
			r->lines[r->count++] = info;
	}
	if (r->fn) {
		emilia_engine *outer = in_callback;
		in_callback = r->e;
		r->fn(&info, r->user);
		in_callback = outer;
	}
}

static void run_begin(emilia_engine *e)
{
	atomic_fetch_add(&e->run_id, 1);
	atomic_store(&e->busy, 1);
}

static void run_end(emilia_engine *e)
{
	atomic_store(&e->busy, 0);
}

emilia_status emilia_search(emilia_engine *e, const emilia_limits *lim, emilia_info_fn fn, void *user,
                            emilia_info *result)
{
	CHECK(e);
	EngineLimits l;
	if (!to_limits(e, lim, &l))
		return EMILIA_ERR_ARGUMENT;
	if (game_is_over(&e->game))
		return fail(e, EMILIA_ERR_GAME_OVER, "the game is over: nothing to search");
	Relay r = { .e = e, .fn = fn, .user = user };
	run_begin(e);
	EngineInfo in = engine_search(e->engine, &e->game, &l, relay_info, &r);
	run_end(e);
	if (result)
		to_info(result, &in);
	return ok(e);
}

emilia_status emilia_analyze(emilia_engine *e, const emilia_limits *lim, int lines, emilia_info_fn fn, void *user,
                             emilia_info *out, int *count)
{
	CHECK(e);
	if (!out || !count)
		return fail(e, EMILIA_ERR_NULL, "no output array or count (NULL)");
	*count = 0;
	if (lines < 1 || lines > EMILIA_MAX_MOVES)
		return fail(e, EMILIA_ERR_ARGUMENT, "lines must be 1..%d, not %d", EMILIA_MAX_MOVES, lines);
	EngineLimits l;
	if (!to_limits(e, lim, &l))
		return EMILIA_ERR_ARGUMENT;
	if (game_is_over(&e->game))
		return fail(e, EMILIA_ERR_GAME_OVER, "the game is over: nothing to analyse");
	/* more than one line: the engine skips the book; one line: no book
	 * either, by a second line the caller does not see */
	l.multipv = lines > 1 ? lines : 2;
	Relay r = { .e = e, .fn = fn, .user = user, .lines = out, .max = lines };
	run_begin(e);
	EngineInfo in = engine_search(e->engine, &e->game, &l, relay_info, &r);
	run_end(e);
	if (r.count == 0) {
		/* no iteration completed (a forced pass, or stopped at once) */
		to_info(&out[0], &in);
		out[0].multipv_index = 1;
		r.count = 1;
	}
	*count = r.count < lines ? r.count : lines;
	return ok(e);
}

void emilia_stop(emilia_engine *e)
{
	if (!e || !e->engine)
		return;
	if (in_callback == e) {
		engine_stop(e->engine);
		return;
	}
	if (!atomic_load(&e->busy))
		return;
	const unsigned id = atomic_load(&e->run_id);
	const struct timespec ms = { 0, 1000000 };
	while (atomic_load(&e->busy) && atomic_load(&e->run_id) == id) {
		engine_stop(e->engine);
		nanosleep(&ms, NULL);
	}
}

emilia_status emilia_solve(emilia_engine *e, int wld, const emilia_limits *lim, emilia_info *result)
{
	CHECK(e);
	EngineLimits l;
	if (!to_limits(e, lim, &l))
		return EMILIA_ERR_ARGUMENT;
	run_begin(e);
	EngineInfo in = engine_solve_game(e->engine, &e->game, wld != 0, &l);
	run_end(e);
	if (!in.exact && !in.wld) {
		if (result)
			to_info(result, &in);
		return fail(e, EMILIA_ERR_STOPPED, "the solve was stopped before its result");
	}
	if (in.wld)
		in.score = (in.score > 0) - (in.score < 0);
	if (result)
		to_info(result, &in);
	return ok(e);
}

emilia_status emilia_evaluate(emilia_engine *e, int *score)
{
	CHECK(e);
	if (!score)
		return fail(e, EMILIA_ERR_NULL, "no score (NULL)");
	const Board b = e->game.board;
	if (game_is_over(&e->game))
		*score = board_final_score(b, e->size, e->variant);
	else
		*score = eval_score(engine_evaluator(e->engine, e->size, e->variant), b.p, b.o);
	return ok(e);
}

emilia_status emilia_perft(emilia_engine *e, int depth, uint64_t *count)
{
	CHECK(e);
	if (!count)
		return fail(e, EMILIA_ERR_NULL, "no count (NULL)");
	if (depth < 0 || depth > 60)
		return fail(e, EMILIA_ERR_ARGUMENT, "perft depth must be 0..60, not %d", depth);
	*count = perft_parallel(e->game.board, depth, 1, board_geometry(e->size), e->threads);
	return ok(e);
}
