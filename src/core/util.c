#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
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

void util_zero_large(void *p, size_t bytes)
{
	const size_t used = (bytes + 4095) & ~(size_t)4095;
	if (!p)
		return;
	/* private anonymous pages read as zero after MADV_DONTNEED */
	if (madvise(p, used, MADV_DONTNEED) != 0)
		memset(p, 0, bytes);
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#define UTIL_PREFAULT_STEP ((size_t)2 << 20) /* one huge page */
#define UTIL_PREFAULT_HEAD ((size_t)32 << 20)  /* faulted in at once */

static atomic_int util_busy;

void util_busy_enter(void)
{
	atomic_fetch_add(&util_busy, 1);
}

void util_busy_leave(void)
{
	atomic_fetch_sub(&util_busy, 1);
}

static void *util_prefault_main(void *arg)
{
	UtilPrefault *pf = arg;
	const struct timespec ms = { 0, 1000000 };
	size_t off = pf->head; /* the head was faulted in by the caller */
	while (off < pf->bytes && !atomic_load(&pf->stop)) {
		if (atomic_load(&util_busy) > 0) {
			nanosleep(&ms, NULL); /* a search runs: wait for it to end */
			continue;
		}
		size_t len = pf->bytes - off < UTIL_PREFAULT_STEP ? pf->bytes - off : UTIL_PREFAULT_STEP;
		if (madvise(pf->p + off, (len + 4095) & ~(size_t)4095, MADV_POPULATE_WRITE) != 0 && errno == EINVAL)
			break; /* a kernel without it */
		off += len;
	}
	atomic_store(&pf->done, true);
	return NULL;
}

bool util_prefault_start(UtilPrefault *pf, void *p, size_t bytes)
{
	util_prefault_stop(pf);
	pf->p = p;
	pf->bytes = bytes;
	/* the head now, before the engine answers, unless a search runs: a
	 * search that starts at once (a match's first move) finds its first
	 * pages in place instead of stalling on faults near its deadline */
	pf->head = bytes < UTIL_PREFAULT_HEAD ? bytes : UTIL_PREFAULT_HEAD;
	if (!p || atomic_load(&util_busy) > 0 ||
	    madvise(p, (pf->head + 4095) & ~(size_t)4095, MADV_POPULATE_WRITE) != 0)
		pf->head = 0; /* a search runs (or no kernel support): all later */
	atomic_store(&pf->stop, false);
	atomic_store(&pf->done, false);
	pthread_attr_t attr;
	pthread_t tid;
	if (!p || pthread_attr_init(&attr) != 0)
		return false;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 256 * 1024); /* it makes one system call at a time */
	pf->started = pthread_create(&tid, &attr, util_prefault_main, pf) == 0;
	pthread_attr_destroy(&attr);
	return pf->started;
}

void util_prefault_wait(UtilPrefault *pf)
{
	const struct timespec ms = { 0, 1000000 };
	while (pf->started && !atomic_load(&pf->done))
		nanosleep(&ms, NULL);
}

void util_prefault_stop(UtilPrefault *pf)
{
	if (!pf->started)
		return;
	atomic_store(&pf->stop, true);
	util_prefault_wait(pf);
	pf->started = false;
}

uint64_t util_meminfo_available(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char line[256];
	uint64_t kb = 0;
	bool found = false;
	while (!found && fgets(line, sizeof line, f)) {
		unsigned long long v;
		if (sscanf(line, "MemAvailable: %llu kB", &v) == 1) {
			kb = v;
			found = true;
		}
	}
	fclose(f);
	return kb * 1024;
}

uint64_t util_mem_available(void)
{
	uint64_t avail = util_meminfo_available("/proc/meminfo");
	if (avail)
		return avail;
	long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

bool util_hash_refused(long mb, uint64_t avail, char *err, size_t n)
{
	if (!avail || mb < 0 || (uint64_t)mb <= avail >> 20)
		return false;
	snprintf(err, n, "%ld MiB of hash is more than the memory available (%llu MiB)", mb,
	         (unsigned long long)(avail >> 20));
	return true;
}

int util_open_regular(const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return UTIL_NOT_REGULAR;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl != -1)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

bool util_for_each_line(FILE *f, void (*fn)(void *user, char *line, long lineno), void *user)
{
	size_t cap = 256, len = 0;
	char *buf = malloc(cap);
	if (!buf)
		return false;
	long lineno = 0;
	int ch;
	bool pending = false;
	while ((ch = fgetc(f)) != EOF || pending) {
		if (ch == EOF || ch == '\n') {
			buf[len] = 0;
			fn(user, buf, ++lineno);
			len = 0;
			pending = false;
			if (ch == EOF)
				break;
			continue;
		}
		pending = true;
		if (ch == 0)
			ch = '?';
		if (len + 2 > cap) {
			if (cap >= (1u << 20))
				continue; /* keep the start of a 1 MiB line, drop the rest */
			cap *= 2;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return false;
			}
			buf = nb;
		}
		buf[len++] = (char)ch;
	}
	free(buf);
	return true;
}
