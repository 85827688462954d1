/*
 * book_default.c - the default opening book, embedded in the binary.
 *
 * book/emilia.book (path relative to the repository root, where make runs)
 * is included verbatim with .incbin, 64-byte aligned so its entries can be
 * searched in place.  The Makefile rebuilds this object when the book
 * changes.  The symbols are private: only book_open_default() sees them.
 */
#include "book.h"

__asm__(".pushsection .rodata\n"
        ".balign 64\n"
        "emilia_book_blob_begin:\n"
        ".incbin \"book/emilia.book\"\n"
        "emilia_book_blob_end:\n"
        ".popsection\n");

Book *book_open_default(char *err)
{
	const unsigned char *b, *e;
	__asm__("lea emilia_book_blob_begin(%%rip), %0" : "=r"(b));
	__asm__("lea emilia_book_blob_end(%%rip), %0" : "=r"(e));
	return book_open_memory(b, (size_t)(e - b), "default book", err);
}
