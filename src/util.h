/* util.h - small helpers shared by the command-line front ends. */
#ifndef EMILIA_UTIL_H
#define EMILIA_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#endif
