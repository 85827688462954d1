#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include "util.h"

double util_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool util_parse_int(const char *s, long lo, long hi, long *out)
{
	if (!s || !*s)
		return false;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

void *util_alloc_large(size_t bytes)
{
	/* anonymous pages are zero and are only touched (faulted in) when
	 * used: no memset, which would cost time inside a timed search */
	const size_t huge = (size_t)2 << 20;
	size_t len = bytes + huge;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	/* keep a 2 MB aligned range of `bytes` (rounded up to the page) */
	char *p = (char *)(((uintptr_t)m + huge - 1) & ~(uintptr_t)(huge - 1));
	size_t head = (size_t)(p - m), used = (bytes + 4095) & ~(size_t)4095;
	if (head)
		munmap(m, head);
	if (len - head > used)
		munmap(p + used, len - head - used);
#ifdef MADV_HUGEPAGE
	madvise(p, used, MADV_HUGEPAGE); /* a hint: failure is harmless */
#endif
	return p;
}

void util_free_large(void *p, size_t bytes)
{
	if (p)
		munmap(p, (bytes + 4095) & ~(size_t)4095);
}
