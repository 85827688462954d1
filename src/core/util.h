/* util.h - small helpers shared by the command-line front ends. */
#ifndef EMILIA_UTIL_H
#define EMILIA_UTIL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/* Monotonic wall-clock time in seconds. */
double util_now(void);

/* Parse a whole decimal integer in [lo, hi]; false on anything else. */
bool util_parse_int(const char *s, long lo, long hi, long *out);

/* Zeroed memory for a large table (transposition tables), mapped lazily:
 * aligned to 2 MB and advised to use transparent huge pages where the
 * system offers them (random probes into a table of many MB otherwise miss
 * the TLB on almost every access).  NULL when memory is short; release
 * with util_free_large and the same size. */
void *util_alloc_large(size_t bytes);
void util_free_large(void *p, size_t bytes);
/* Make a util_alloc_large() block all zero again without writing it: its
 * pages are handed back to the system (madvise MADV_DONTNEED) and come
 * back zeroed, lazily, when next touched (a memset where that fails).
 * Nothing may use the block meanwhile. */
void util_zero_large(void *p, size_t bytes);

/* Background pre-faulting of a util_alloc_large() block: a thread of its
 * own faults the pages in, 2 MiB at a time, without changing what they
 * hold (MADV_POPULATE_WRITE, Linux 5.14; elsewhere it does nothing), so
 * that the searches find them in place instead of each paying for its
 * first touches (with transparent huge pages up to milliseconds a page
 * while the kernel compacts memory).  It only works while no search runs
 * in the process (util_busy_enter/leave): faulting pages in beside a
 * search slows the search down far more than its own faults do, so it
 * uses the idle time between searches (the opponent's moves, the time
 * before the first search).  The block may be used meanwhile.
 * util_prefault_stop() must be called before the block is freed; it
 * waits at most for one 2 MiB step. */
typedef struct UtilPrefault {
	char *p;
	size_t bytes, head;
	atomic_bool stop;
	atomic_bool done;
	bool started;
} UtilPrefault;
/* Stop a previous run of pf, fault in the first 32 MiB at once, then
 * start on the rest of [p, p + bytes); false when no thread could be
 * started (the pages then fault in when touched). */
bool util_prefault_start(UtilPrefault *pf, void *p, size_t bytes);
void util_prefault_stop(UtilPrefault *pf);
/* Wait until the run has finished (tests and benchmarks). */
void util_prefault_wait(UtilPrefault *pf);
/* A search (midgame or endgame) starts / ends in this process: pre-faulting
 * waits while any runs.  Nested calls count. */
void util_busy_enter(void);
void util_busy_leave(void);

/* Memory the system can give this process now, in bytes: MemAvailable
 * of /proc/meminfo, else (no such line, no /proc) free physical pages
 * from sysconf; 0 when unknown. */
uint64_t util_mem_available(void);
/* MemAvailable of a meminfo file in the /proc/meminfo format, in bytes;
 * 0 when the file or the line is missing. */
uint64_t util_meminfo_available(const char *path);

/* Open a regular file for reading without ever blocking (O_NONBLOCK: a
 * FIFO with no writer does not wait for one), its status in *st.  Returns
 * the descriptor (reads block again, as on any file); -1 with errno set
 * when it cannot be opened; UTIL_NOT_REGULAR for a FIFO, a device or a
 * directory. */
#define UTIL_NOT_REGULAR (-2)
int util_open_regular(const char *path, struct stat *st);
/* The check of a table size against memory: true (refused) when `mb` MiB
 * is more than `avail` bytes, with the reason in err, e.g. "30000 MiB of
 * hash is more than the memory available (23780 MiB)".  avail = 0
 * (unknown) refuses nothing. */
/* Call fn(user, line, lineno) for every line of f (numbered from 1, the
 * '\n' removed; a last line without one counts).  Lines of any length are
 * read whole up to 1 MiB; a longer one is cut there (it is garbage to
 * every reader here).  NUL bytes become '?', so a line holding one is
 * malformed rather than silently cut.  false when out of memory. */
bool util_for_each_line(FILE *f, void (*fn)(void *user, char *line, long lineno), void *user);

bool util_hash_refused(long mb, uint64_t avail, char *err, size_t n);

#endif
