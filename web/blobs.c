/*
 * web/blobs.c - the data files of the WebAssembly builds (src/core/blobs.h).
 *
 * The native build includes the weights and the book in the binary
 * (DATA_SRC, with .incbin).  The WebAssembly builds leave them out so that
 * the .wasm stays small: the page fetches the gzipped files that the game
 * needs, gunzips them, and copies each into a buffer of this file with
 * web_blob_alloc() before the engine first evaluates or opens its book.
 * A blob that was never given has length 0: the weights then fail to
 * decode (the engine falls back to its hand-tuned evaluation) and the
 * book to open, as with a damaged file.
 */
#include <stdlib.h>
#include <string.h>
#include <emscripten/emscripten.h>
#include "blobs.h"

/* the order of web_blob_alloc()'s ids: 8x8 weights, the weights of 8x8
 * Anti, 6x6 and 6x6 Anti (blob_game_weights' games 0..2), the book */
enum { BLOB_EVAL, BLOB_GAME0, BLOB_GAME1, BLOB_GAME2, BLOB_BOOK, BLOB_COUNT };

static struct {
	unsigned char *data;
	size_t len;
} blobs[BLOB_COUNT];

/* A buffer of len bytes, 64-byte aligned (the book is searched in place),
 * for blob `id`; NULL when id or len is out of range or memory is short.
 * The previous contents of that blob are freed. */
EMSCRIPTEN_KEEPALIVE unsigned char *web_blob_alloc(int id, size_t len)
{
	if (id < 0 || id >= BLOB_COUNT || len == 0 || len > ((size_t)64 << 20))
		return NULL;
	void *p = NULL;
	if (posix_memalign(&p, 64, len) != 0)
		return NULL;
	free(blobs[id].data);
	blobs[id].data = p;
	blobs[id].len = len;
	return p;
}

static const unsigned char *get(int id, size_t *len)
{
	*len = blobs[id].len;
	return blobs[id].data;
}

const unsigned char *blob_eval_weights(size_t *len)
{
	return get(BLOB_EVAL, len);
}

const unsigned char *blob_game_weights(int game, size_t *len)
{
	if (game < 0 || game > 2) {
		*len = 0;
		return NULL;
	}
	return get(BLOB_GAME0 + game, len);
}

const unsigned char *blob_default_book(size_t *len)
{
	return get(BLOB_BOOK, len);
}
