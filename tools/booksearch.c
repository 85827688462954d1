/*
 * booksearch.c - the engine-backed value of a book leaf (booksearch.h).
 */
#include <stdio.h>
#include <string.h>
#include "booksearch.h"
#include "game.h"

bool book_engine_value(void *ctx, int thread, Board pos, int level, int *score, bool *exact)
{
	BookEngines *es = ctx;
	if (thread < 0 || thread >= es->n)
		return false;
	Engine *e = es->engines[thread];
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	game_set(&g, pos, BLACK);
	EngineLimits lim;
	memset(&lim, 0, sizeof lim);
	lim.time_left = -1;
	engine_new_game(e); /* an empty table: the value depends on pos and level only */
	engine_set_level(e, level);
	EngineInfo info = engine_search(e, &g, &lim, NULL, NULL);
	*score = info.score;
	*exact = info.exact && !info.wld;
	return true;
}

bool book_engines_init(BookEngines *es, int threads, int hash_mb)
{
	es->n = 0;
	if (threads > BOOKSEARCH_MAX_THREADS)
		threads = BOOKSEARCH_MAX_THREADS;
	for (int i = 0; i < threads; i++) {
		Engine *e = engine_new();
		if (!e || !engine_set_hash_mb(e, hash_mb)) {
			fprintf(stderr, "cannot create a search engine with %d MB of hash\n", hash_mb);
			if (e)
				engine_free(e);
			return false;
		}
		engine_set_threads(e, 1);
		engine_set_book(e, NULL, NULL);
		es->engines[es->n++] = e;
	}
	return true;
}

void book_engines_free(BookEngines *es)
{
	for (int i = 0; i < es->n; i++)
		engine_free(es->engines[i]);
	es->n = 0;
}
