/*
 * web/glue.c - what the web page needs beyond the public API
 * (include/emilia.h), exported to JavaScript (web/wasm.js calls them).
 *
 * The page plays through the public API: emilia_create() and the rules
 * functions on the main thread, emilia_search() in the Web Worker.  This
 * file adds the few things the API has no call for:
 *  - web_create(): an engine from plain arguments (no struct to lay out
 *    from JavaScript); NULL and web_error() on failure;
 *  - web_search(): a search at a level with a per-move time cap, its
 *    iterations reported to JavaScript as they complete and its result as
 *    one JSON object;
 *  - web_review(): the review of `emilia review` (src/front/review.c, the same
 *    function) of a game given as a start position and its moves, as the
 *    JSON document of `emilia review --json`, with its progress reported;
 *  - web_bench(): `emilia bench`, for the node-rate benchmark.
 * The blobs (weights, book) are in web/blobs.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <emscripten/emscripten.h>
#include "emilia.h"
#include "cli.h"
#include "engine.h"
#include "gamefile.h"
#include "review.h"
#include "text.h"

/* JavaScript hooks (web/worker.js sets Module.onInfo and Module.onProgress) */
EM_JS(void, web_js_info, (int depth, int score, int move, double nodes, double seconds, int exact), {
	if (Module.onInfo)
		Module.onInfo({depth : depth, score : score, move : move, nodes : nodes, seconds : seconds, exact : !!exact});
});
EM_JS(void, web_js_progress, (int done, int total, double seconds), {
	if (Module.onProgress)
		Module.onProgress({done : done, total : total, seconds : seconds});
});

static char error_text[512];
static char *result_text;

/* The message of the last web_create() or web_review() failure. */
EMSCRIPTEN_KEEPALIVE const char *web_error(void)
{
	return error_text;
}

/* An engine for `size` (8 or 6), Anti when anti is nonzero, with a table
 * of hash_mb MiB, the built-in book when use_book (8x8 normal game only)
 * and `seed` for the random choices of Easy and Normal. */
EMSCRIPTEN_KEEPALIVE emilia_engine *web_create(int size, int anti, int hash_mb, int use_book, double seed)
{
	emilia_options o;
	emilia_options_init(&o);
	o.board_size = size;
	o.anti = anti;
	o.hash_mb = hash_mb;
	o.use_book = use_book;
	o.seed = seed > 0 ? (uint64_t)seed : 0;
	emilia_engine *e = NULL;
	error_text[0] = 0;
	if (emilia_create(&o, &e, error_text, sizeof error_text) != EMILIA_OK)
		return NULL;
	return e;
}

static void on_info(const emilia_info *in, void *user)
{
	(void)user;
	web_js_info(in->depth, in->score, in->move, (double)in->nodes, in->seconds, in->exact);
}

static const char *set_result(const char *s)
{
	free(result_text);
	result_text = strdup(s);
	return result_text ? result_text : "{\"error\":\"out of memory\"}";
}

/* Search the engine's position at `level` (EMILIA_LEVEL_*) with at most
 * `seconds` for the move: {"move":"d3","score":2,"depth":12,"exact":false,
 * "book":false,"nodes":123,"seconds":0.5}, or {"error":"..."}.  The
 * pointer is valid until the next call. */
EMSCRIPTEN_KEEPALIVE const char *web_search(emilia_engine *e, int level, double seconds)
{
	char buf[512], name[5];
	if (emilia_set_level(e, level) != EMILIA_OK) {
		snprintf(buf, sizeof buf, "{\"error\":\"level: %s\"}", emilia_last_error(e));
		return set_result(buf);
	}
	emilia_limits lim;
	emilia_limits_init(&lim);
	lim.time_left = seconds; /* this move's own budget: a cap, never more */
	lim.moves_to_go = 1;
	emilia_info r;
	if (emilia_search(e, &lim, on_info, NULL, &r) != EMILIA_OK) {
		snprintf(buf, sizeof buf, "{\"error\":\"%s\"}", emilia_last_error(e));
		return set_result(buf);
	}
	emilia_move_name(r.move, name);
	snprintf(buf, sizeof buf,
	         "{\"move\":\"%s\",\"score\":%d,\"depth\":%d,\"exact\":%s,\"book\":%s,\"nodes\":%.0f,\"seconds\":%.3f}",
	         name, r.score, r.depth, r.exact ? "true" : "false", r.book ? "true" : "false", (double)r.nodes, r.seconds);
	return set_result(buf);
}

static void on_progress(void *user, int done, int total, double elapsed)
{
	(void)user;
	web_js_progress(done, total, elapsed);
}

static const char *review_error(const char *what, const char *why)
{
	snprintf(error_text, sizeof error_text, "%s%s", what, why);
	return NULL;
}

/* Review a game: the position it started from as an OBF line ("" for the
 * standard start), its moves as a transcript, the board size and variant,
 * the midgame depth and the empties from which positions are solved
 * exactly, the table's MiB, the players' names.  `emilia review --json
 * --level DEPTH --exact-from EXACT --hash MB --threads 1` gives the same
 * document for the same game.  NULL and web_error() on failure. */
EMSCRIPTEN_KEEPALIVE const char *web_review(const char *start, const char *moves, int size, int anti, int depth,
                                            int exact_from, int hash_mb, const char *black, const char *white)
{
	if (depth < 1 || depth > 60 || exact_from < 0 || exact_from > 60 || (size != 8 && size != 6))
		return review_error("review: settings out of range", "");
	GameRecord *rec = calloc(1, sizeof *rec);
	Review *rv = malloc(sizeof *rv);
	Engine *e = engine_new();
	const char *out = NULL;
	char err[GAMEFILE_ERR];
	if (!rec || !rv || !e) {
		review_error("review: out of memory", "");
		goto done;
	}
	game_init(&rec->game, size, anti ? VARIANT_ANTI : VARIANT_NORMAL);
	if (start && start[0]) {
		ObfPosition pos;
		if (!text_parse_obf(start, size, &pos, err)) {
			review_error("review: start position: ", err);
			goto done;
		}
		game_set(&rec->game, pos.board, pos.side);
	}
	if (moves && moves[0] && !text_apply_transcript(&rec->game, moves, err)) {
		review_error("review: ", err);
		goto done;
	}
	rec->format = GAMEFILE_TRANSCRIPT;
	gamefile_set_name(rec->black, black ? black : "", strlen(black ? black : ""));
	gamefile_set_name(rec->white, white ? white : "", strlen(white ? white : ""));
	engine_set_threads(e, 1);
	if (!engine_set_hash_mb(e, hash_mb)) {
		review_error("review: ", engine_hash_error(e));
		goto done;
	}
	ReviewSettings set;
	review_defaults(&set);
	set.level = depth;
	set.exact_from = exact_from;
	set.hash_mb = hash_mb;
	char rerr[160];
	if (!review_run(e, rec, &set, on_progress, NULL, rv, rerr, sizeof rerr)) {
		review_error("review: ", rerr);
		goto done;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f) {
		review_error("review: out of memory", "");
		goto done;
	}
	review_write_json(f, rv);
	fclose(f);
	free(result_text);
	result_text = text;
	out = text;
done:
	if (e)
		engine_free(e);
	free(rv);
	free(rec);
	return out;
}

/* `emilia bench` (src/front/bench.c) with one thread: its lines on stdout, the
 * last one "Nodes searched: N", the signature every build must give. */
EMSCRIPTEN_KEEPALIVE int web_bench(void)
{
	char name[] = "bench";
	char *argv[] = { name, NULL };
	return cli_bench(1, argv);
}
