/* testutil.h - shared pieces of the Check suites. */
#ifndef EMILIA_TESTUTIL_H
#define EMILIA_TESTUTIL_H

#include <check.h>
#include <stdint.h>
#include "board.h"
#include "game.h"
#include "timeman.h"

/* Slow, obviously correct reference: loops over squares and directions. */
uint64_t ref_moves(uint64_t p, uint64_t o);
uint64_t ref_flips(uint64_t p, uint64_t o, int sq);

/* Deterministic random numbers (xorshift64*). */
uint64_t test_rand(uint64_t *state);

/* Path of a fixture in tests/data (EMILIA_TESTDATA or ./tests/data). */
const char *test_data(const char *name);

/* Fail unless a and b are the same game: every field that has a meaning
 * (history up to nply). */
void assert_same_game(const Game *a, const Game *b);

/* An 8x8 game after the transcript `moves` (asserts it is legal). */
void test_game_from(Game *g, const char *moves);
/* Limits of a search to `depth` plies, without a clock. */
EngineLimits test_depth_limits(int depth);
/* A field of /proc/self/status in bytes (VmRSS, VmHWM, VmSize ...). */
uint64_t test_status_bytes(const char *field);

/* Run `emilia ARGS` (EMILIA_BIN or ./emilia) through the shell, stdout and
 * stderr together; returns the output (malloc'd, at most 1 MB) and sets
 * *status to the exit status (-1 when it did not exit). */
char *test_run_emilia(const char *args, int *status);

/* Run a shell command, stdout and stderr together: its output (malloc'd,
 * at most 1 MB) and in *status its exit status (-1 when it did not exit). */
char *test_run_shell(const char *cmd, int *status);

/* Write a whole file (fails the test on any error). */
void test_write_file(const char *path, const void *data, size_t len);

/* A fresh temporary directory per test (a Check fixture: setup makes it,
 * teardown removes it with its files) and paths inside it. */
void test_tmpdir_setup(void);
void test_tmpdir_teardown(void);
const char *test_tmpdir(void);
const char *test_tmp_path(const char *name);

/* Run one suite; returns the process exit status. */
int test_run_suite(Suite *s);

#define TEST_MAIN(suite_fn) \
	int main(void) { return test_run_suite(suite_fn()); }

#endif
