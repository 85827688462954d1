#include <errno.h>
#include <stdlib.h>
#include <string.h>
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
	const size_t huge = (size_t)2 << 20;
	if (bytes < huge)
		return calloc(1, bytes);
	void *p = NULL;
	if (posix_memalign(&p, huge, bytes) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, bytes, MADV_HUGEPAGE); /* a hint: failure is harmless */
#endif
	memset(p, 0, bytes);
	return p;
}

void util_free_large(void *p)
{
	free(p);
}
