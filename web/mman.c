/*
 * web/mman.c - anonymous mmap() and munmap() for the WebAssembly builds.
 *
 * The engine's large tables come from util_alloc_large() (src/core/util.c),
 * which maps 2 MB more than it needs and unmaps the unaligned head and
 * tail, then unmaps the rest when the table is freed.  Emscripten's own
 * munmap() refuses to unmap part of a mapping (EINVAL), so there every
 * table would stay allocated for good: 66 MB lost by each engine made and
 * freed.  These two replace libc's (the linker takes them before the
 * archive's): a mapping is zeroed heap memory, freed when all of its bytes
 * have been unmapped, in any number of pieces.  File mappings are not
 * supported (the engine maps none).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { MAPPINGS = 256 };

static struct {
	char *base;
	size_t len;
	size_t left; /* bytes not yet unmapped */
} maps[MAPPINGS];

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	(void)addr, (void)prot, (void)off;
	if (!(flags & MAP_ANONYMOUS) || len == 0) {
		errno = !(flags & MAP_ANONYMOUS) ? ENODEV : EINVAL;
		return MAP_FAILED;
	}
	(void)fd;
	for (int i = 0; i < MAPPINGS; i++)
		if (!maps[i].base) {
			void *p = NULL;
			if (posix_memalign(&p, 65536, len) != 0) {
				errno = ENOMEM;
				return MAP_FAILED;
			}
			memset(p, 0, len);
			maps[i].base = p;
			maps[i].len = maps[i].left = len;
			return p;
		}
	errno = ENOMEM;
	return MAP_FAILED;
}

int munmap(void *addr, size_t len)
{
	char *a = addr;
	for (int i = 0; i < MAPPINGS; i++)
		if (maps[i].base && a >= maps[i].base && a < maps[i].base + maps[i].len) {
			size_t end = (size_t)(a - maps[i].base) + len;
			size_t n = end > maps[i].len ? maps[i].len - (size_t)(a - maps[i].base) : len;
			maps[i].left -= n < maps[i].left ? n : maps[i].left;
			if (maps[i].left == 0) {
				free(maps[i].base);
				maps[i].base = NULL;
			}
			return 0;
		}
	errno = EINVAL;
	return -1;
}
