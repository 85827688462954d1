/* util.h - small helpers shared by the command-line front ends. */
#ifndef EMILIA_UTIL_H
#define EMILIA_UTIL_H

#include <stdbool.h>
#include <stdint.h>

/* Monotonic wall-clock time in seconds. */
double util_now(void);

/* Parse a whole decimal integer in [lo, hi]; false on anything else. */
bool util_parse_int(const char *s, long lo, long hi, long *out);

#endif
