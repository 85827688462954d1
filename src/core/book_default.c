/*
 * book_default.c - the default opening book, embedded in the binary.
 *
 * book/emilia.book is built in by blobs.c (with .incbin, 64-byte aligned
 * so its entries can be searched in place); book_open_default() opens it
 * where it lies.
 */
#include "blobs.h"
#include "book.h"

Book *book_open_default(char *err)
{
	size_t len;
	const unsigned char *b = blob_default_book(&len);
	return book_open_memory(b, len, "default book", err);
}
