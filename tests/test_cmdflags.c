/*
 * The flag tables of the commands (src/front/cmdflags.h): each kind of
 * flag parses its value, refuses a bad one with the message its table
 * words (the range, the choices, the option table's range), and the help
 * has a line per flag with the same range.  tests/cmdflags.sh checks the
 * commands themselves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmdflags.h"
#include "options.h"
#include "testutil.h"

enum { T_QUIET, T_DEPTH, T_TIME, T_MODE, T_THREADS, T_SIZE, T_FILE, NT };
static const CmdFlag table[NT] = {
	[T_QUIET] = { "--quiet", CMDFLAG_BOOL, NULL, 0, 0, NULL, NULL, "no progress" },
	[T_DEPTH] = { "--depth", CMDFLAG_INT, "N", 1, 30, "depth", "", "search depth" },
	[T_TIME] = { "--time", CMDFLAG_REAL, "SECONDS", 0, 60, "--time", " seconds", "per move" },
	[T_MODE] = { "--mode", CMDFLAG_CHOICE, "one|two|three", 0, 0, "mode", NULL, "how" },
	[T_THREADS] = { "--threads", CMDFLAG_OPTION, "N", 0, 0, "threads", "", NULL, OPT_THREADS },
	[T_SIZE] = { "--board", CMDFLAG_OPTION, NULL, 0, 0, "--board", NULL, "board size", OPT_SIZE },
	[T_FILE] = { "--file", CMDFLAG_STR, "FILE", 0, 0, NULL, NULL, "a file" },
};

/* Parses "ARGV0 A [B]" from index 1; returns cmdflags_next's answer, with
 * *next the index after it and err what it printed on stderr. */
static int parse(const char *a, const char *b, CmdFlagValue *v, int *next, char *err, size_t size)
{
	char *argv[4] = { "test", (char *)a, (char *)b, NULL };
	int argc = b ? 3 : 2, i = 1;
	fflush(stderr);
	FILE *tmp = tmpfile();
	ck_assert_ptr_nonnull(tmp);
	int saved = dup(2);
	dup2(fileno(tmp), 2);
	int r = cmdflags_next("test", table, NT, argc, argv, &i, v);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t n = fread(err, 1, size - 1, tmp);
	err[n] = 0;
	fclose(tmp);
	*next = i;
	return r;
}

START_TEST(each_kind_parses_its_value)
{
	CmdFlagValue v;
	char err[256];
	int next;
	ck_assert_int_eq(parse("--quiet", NULL, &v, &next, err, sizeof err), T_QUIET);
	ck_assert_int_eq(next, 1);
	ck_assert_int_eq(parse("--depth", "30", &v, &next, err, sizeof err), T_DEPTH);
	ck_assert_int_eq(v.num, 30);
	ck_assert_int_eq(next, 2);
	ck_assert_int_eq(parse("--time", "2.5", &v, &next, err, sizeof err), T_TIME);
	ck_assert(v.real == 2.5);
	ck_assert_int_eq(parse("--mode", "three", &v, &next, err, sizeof err), T_MODE);
	ck_assert_int_eq(v.num, 2);
	ck_assert_str_eq(v.str, "three");
	const long max = options_def(OPT_THREADS)->max;
	char s[32];
	snprintf(s, sizeof s, "%ld", max);
	ck_assert_int_eq(parse("--threads", s, &v, &next, err, sizeof err), T_THREADS);
	ck_assert_int_eq(v.num, max);
	ck_assert_int_eq(parse("--board", "6", &v, &next, err, sizeof err), T_SIZE);
	ck_assert_int_eq(v.num, 1);
	ck_assert_int_eq(parse("--file", "-x", &v, &next, err, sizeof err), T_FILE);
	ck_assert_str_eq(v.str, "-x");
	ck_assert_str_eq(err, "");
	/* not a flag of the table, or one without its value */
	ck_assert_int_eq(parse("--nope", "1", &v, &next, err, sizeof err), CMDFLAG_NONE);
	ck_assert_int_eq(parse("--depth", NULL, &v, &next, err, sizeof err), CMDFLAG_NONE);
	ck_assert_int_eq(next, 1);
}
END_TEST

/* The value VALUE of FLAG is refused with exactly WANT on stderr. */
static void refused(const char *flag, const char *value, const char *want)
{
	CmdFlagValue v;
	char err[256];
	int next;
	ck_assert_int_eq(parse(flag, value, &v, &next, err, sizeof err), CMDFLAG_ERROR);
	ck_assert_str_eq(err, want);
}

START_TEST(bad_values_are_refused_with_the_range)
{
	refused("--depth", "0", "test: depth must be 1..30, not '0'\n");
	refused("--depth", "31", "test: depth must be 1..30, not '31'\n");
	refused("--depth", "2x", "test: depth must be 1..30, not '2x'\n");
	refused("--time", "60.5", "test: --time must be 0..60 seconds, not '60.5'\n");
	refused("--time", "-0.1", "test: --time must be 0..60 seconds, not '-0.1'\n");
	refused("--time", "nan", "test: --time must be 0..60 seconds, not 'nan'\n");
	refused("--time", "", "test: --time must be 0..60 seconds, not ''\n");
	refused("--mode", "four", "test: mode must be one, two or three, not 'four'\n");
	refused("--mode", "on", "test: mode must be one, two or three, not 'on'\n");
	refused("--board", "4", "test: --board must be 8 or 6, not '4'\n");
	char s[32], want[96];
	const long max = options_def(OPT_THREADS)->max;
	snprintf(s, sizeof s, "%ld", max + 1);
	snprintf(want, sizeof want, "test: threads must be %ld..%ld, not '%ld'\n", options_def(OPT_THREADS)->min, max,
	         max + 1);
	refused("--threads", s, want);
}
END_TEST

START_TEST(help_has_a_line_per_flag)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	cmdflags_help(f, "test", "[FLAGS]", table, NT);
	fclose(f);
	char threads[96];
	snprintf(threads, sizeof threads, "  %-22s %s (%ld..%ld)\n", "--threads N", options_def(OPT_THREADS)->help,
	         options_def(OPT_THREADS)->min, options_def(OPT_THREADS)->max);
	char want[1024];
	snprintf(want, sizeof want,
	         "usage: emilia test [FLAGS]\n"
	         "  --quiet                no progress\n"
	         "  --depth N              search depth (1..30)\n"
	         "  --time SECONDS         per move (0..60 seconds)\n"
	         "  --mode one|two|three   how\n"
	         "%s"
	         "  --board 8|6            board size\n"
	         "  --file FILE            a file\n",
	         threads);
	ck_assert_str_eq(buf, want);
	free(buf);
	char *help[] = { "x", "a", "-h", NULL }, *none[] = { "x", "--helpx", NULL };
	ck_assert(cmdflags_wants_help(3, help));
	ck_assert(!cmdflags_wants_help(2, none));
}
END_TEST

static Suite *cmdflags_suite(void)
{
	Suite *s = suite_create("cmdflags");
	TCase *tc = tcase_create("kinds");
	tcase_add_test(tc, each_kind_parses_its_value);
	tcase_add_test(tc, bad_values_are_refused_with_the_range);
	tcase_add_test(tc, help_has_a_line_per_flag);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(cmdflags_suite)
