/*
 * blobs.c - the data files built into the binary (see blobs.h).
 *
 * The files are included by the assembler's .incbin (paths relative to the
 * repository root, where make runs), which GNU as accepts on every target.
 * The labels are local to this object (no .globl): C reaches them through
 * the hidden declarations below, which compile to a plain PC-relative
 * address on x86-64 and aarch64 alike, and nothing outside sees them but
 * through the accessors.
 */
#include <stdint.h>
#include "blobs.h"

__asm__(".pushsection .rodata\n"
        ".balign 16\n"
        "emilia_weights_blob_begin:\n"
        ".incbin \"data/eval.bin\"\n"
        "emilia_weights_blob_end:\n"
        ".balign 16\n"
        "emilia_game0_blob_begin:\n"
        ".incbin \"build/blobs/eval-anti.bin\"\n"
        "emilia_game0_blob_end:\n"
        ".balign 16\n"
        "emilia_game1_blob_begin:\n"
        ".incbin \"build/blobs/eval-6x6.bin\"\n"
        "emilia_game1_blob_end:\n"
        ".balign 16\n"
        "emilia_game2_blob_begin:\n"
        ".incbin \"build/blobs/eval-6x6-anti.bin\"\n"
        "emilia_game2_blob_end:\n"
        ".balign 64\n"
        "emilia_book_blob_begin:\n"
        ".incbin \"book/emilia.book\"\n"
        "emilia_book_blob_end:\n"
        ".popsection\n");
extern const unsigned char emilia_weights_blob_begin[] __attribute__((visibility("hidden")));
extern const unsigned char emilia_weights_blob_end[] __attribute__((visibility("hidden")));
extern const unsigned char emilia_game0_blob_begin[] __attribute__((visibility("hidden")));
extern const unsigned char emilia_game0_blob_end[] __attribute__((visibility("hidden")));
extern const unsigned char emilia_game1_blob_begin[] __attribute__((visibility("hidden")));
extern const unsigned char emilia_game1_blob_end[] __attribute__((visibility("hidden")));
extern const unsigned char emilia_game2_blob_begin[] __attribute__((visibility("hidden")));
extern const unsigned char emilia_game2_blob_end[] __attribute__((visibility("hidden")));
extern const unsigned char emilia_book_blob_begin[] __attribute__((visibility("hidden")));
extern const unsigned char emilia_book_blob_end[] __attribute__((visibility("hidden")));

/* two labels of one blob: their distance as integers (a pointer difference
 * between two declared objects would be undefined) */
const unsigned char *blob_eval_weights(size_t *len)
{
	*len = (size_t)((uintptr_t)emilia_weights_blob_end - (uintptr_t)emilia_weights_blob_begin);
	return emilia_weights_blob_begin;
}

const unsigned char *blob_game_weights(int game, size_t *len)
{
	const unsigned char *b = game == 0 ? emilia_game0_blob_begin
	                       : game == 1 ? emilia_game1_blob_begin : emilia_game2_blob_begin;
	const unsigned char *e = game == 0 ? emilia_game0_blob_end
	                       : game == 1 ? emilia_game1_blob_end : emilia_game2_blob_end;
	*len = (size_t)((uintptr_t)e - (uintptr_t)b);
	return b;
}

const unsigned char *blob_default_book(size_t *len)
{
	*len = (size_t)((uintptr_t)emilia_book_blob_end - (uintptr_t)emilia_book_blob_begin);
	return emilia_book_blob_begin;
}
