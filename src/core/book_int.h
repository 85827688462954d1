/*
 * book_int.h - what the files of the opening book share (book.c lists them):
 * the Book itself and its helpers.  Other modules use book.h.
 */
#ifndef EMILIA_BOOK_INT_H
#define EMILIA_BOOK_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "book.h"

struct Book {
	pthread_rwlock_t lock;
	pthread_mutex_t rng_lock;
	char *name;               /* file name, for messages (owned) */
	const BookEntry *sorted;  /* n entries, ascending (p, o) */
	size_t n;
	BookEntry *heap;          /* owned storage of sorted when writable */
	void *image;              /* the file read by book_open (owned), or NULL */
	BookEntry *extra;         /* pending additions */
	size_t nextra, extra_cap;
	uint32_t *hash;           /* index + 1 into extra, 0 = free */
	size_t hash_cap;          /* power of two, >= 2 * extra_cap, or 0 */
	int randomness;
	uint64_t rng;
};

static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x7FB5D329728EA185ULL;
	x ^= x >> 27;
	x *= 0x81DADEF4BC2DD44DULL;
	x ^= x >> 33;
	return x;
}

static inline int discs(Board b)
{
	return bit_count(b.p | b.o);
}

/* What a move is worth according to the book. */
typedef struct MoveValue {
	bool in_book;    /* child stored, or the move ends the game */
	bool has_est;    /* an estimate exists (child's best is known) */
	int score, lower, upper, level;
	uint32_t games;
} MoveValue;

void bk_set_err(char *err, const char *name, const char *what);
int bk_cmp_entry(const void *a, const void *b);
int bk_move_to_canonical(int sq, int s);
BookEntry *bk_find_canonical(const Book *b, uint64_t p, uint64_t o);
BookEntry *bk_find(const Book *b, Board pos);
bool bk_make_writable(Book *b);
bool bk_normalise(Book *b);
BookEntry *bk_insert_canonical(Book *b, Board c, bool *created);
int bk_move_child(Board pos, int sq, Board *node, int *final);
void bk_move_value(const Book *b, Board pos, int sq, MoveValue *v);
BookEntry bk_recompute(const Book *b, const BookEntry *e);
bool bk_entry_values_equal(const BookEntry *a, const BookEntry *b);
Book *bk_alloc(const char *name);
bool bk_entry_check(const BookEntry *e, char *what, size_t len);
bool bk_game_ok(const Game *g);

#endif
