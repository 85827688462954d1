/*
 * book_default.c - the default opening book, embedded in the binary.
 *
 * book/emilia.book (path relative to the repository root, where make runs)
 * is included verbatim with .incbin, 64-byte aligned so its entries can be
 * searched in place.  The Makefile rebuilds this object when the book
 * changes.  The symbols are private: only book_open_default() sees them.
 */
#include <stdint.h>
#include "book.h"

__asm__(".pushsection .rodata\n"
        ".balign 64\n"
        "emilia_book_blob_begin:\n"
        ".incbin \"book/emilia.book\"\n"
        "emilia_book_blob_end:\n"
        ".popsection\n");
/* local labels of this object, reached PC-relative on any target (see weights.c) */
extern const unsigned char emilia_book_blob_begin[] __attribute__((visibility("hidden")));
extern const unsigned char emilia_book_blob_end[] __attribute__((visibility("hidden")));

Book *book_open_default(char *err)
{
	size_t len = (size_t)((uintptr_t)emilia_book_blob_end - (uintptr_t)emilia_book_blob_begin);
	return book_open_memory(emilia_book_blob_begin, len, "default book", err);
}
