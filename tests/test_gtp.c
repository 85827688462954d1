/*
 * test_gtp.c - GTP sessions fed whole into the emilia binary, output
 * compared exactly (tests/data/proto/gtp_*.in / .out; see transcript.h for
 * the two wildcards used where a reply depends on the evaluation), plus
 * the framing rules checked directly on the session object.
 */
#include <stdlib.h>
#include <string.h>
#include "gtp.h"
#include "testutil.h"
#include "transcript.h"
#include "util.h"

#define ARGS "--no-book --threads 1 --hash 16 --level 3"

static void session(const char *name, const char *args)
{
	char why[1024];
	bool ok = transcript_session(name, args, why, sizeof why);
	ck_assert_msg(ok, "%s: %s", name, why);
}

/* Quarry's pipelined handshake, time commands, genmove/undo. */
START_TEST(quarry_session)
{
	session("gtp_quarry", ARGS);
}
END_TEST

/* Implicit and explicit passes, undo across passes, genmove for the side
 * not to move, the end of the game, final_score under both rules. */
START_TEST(passes_session)
{
	session("gtp_passes", ARGS);
}
END_TEST

/* Malformed input of every kind: each gets an error reply, nothing else
 * changes. */
START_TEST(errors_session)
{
	session("gtp_errors", ARGS);
}
END_TEST

/* Extensions: setboard, solve, wld, analyze, options, variant, 6x6,
 * loadsgf. */
START_TEST(extensions_session)
{
	session("gtp_ext", ARGS);
}
END_TEST

/* In-process: framing of ids, multi-line replies, and that replies come
 * strictly in order, one per command. */
START_TEST(framing_in_process)
{
	Options o;
	options_init(&o);
	char err[OPTIONS_ERR];
	ck_assert(options_set(&o, OPT_USEBOOK, "false", err));
	ck_assert(options_set(&o, OPT_LEVEL, "1", err));
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	Gtp *g = gtp_new(out, &o, err);
	ck_assert_ptr_nonnull(g);
	ck_assert(gtp_execute_line(g, "7 protocol_version"));
	ck_assert(gtp_execute_line(g, "known_command list_games"));
	ck_assert(gtp_execute_line(g, "  8   emilia-legal  "));
	ck_assert(gtp_execute_line(g, "9 play B F5"));
	ck_assert(gtp_execute_line(g, "10 play W pass"));
	ck_assert(!gtp_execute_line(g, "11 quit"));
	fflush(out);
	ck_assert_str_eq(buf, "=7 2\n\n= true\n\n=8 D3 C4 F5 E6\n\n=9\n\n?10 illegal move\n\n=11\n\n");
	gtp_free(g);
	fclose(out);
	free(buf);
}
END_TEST

/* list_commands, known_command and help come from one table plus the
 * option registry: every option has its emilia-NAME command, listed once,
 * known, settable and readable back. */
START_TEST(option_commands_from_registry)
{
	Options o;
	options_init(&o);
	char err[OPTIONS_ERR];
	ck_assert(options_set(&o, OPT_USEBOOK, "false", err));
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	Gtp *g = gtp_new(out, &o, err);
	ck_assert_ptr_nonnull(g);
	ck_assert(gtp_execute_line(g, "1 list_commands"));
	fflush(out);
	for (int i = 0; i < OPT_COUNT; i++) {
		char want[128];
		snprintf(want, sizeof want, "\nemilia-%s\n", options_def((OptionId)i)->name);
		const char *at = strstr(buf, want);
		ck_assert_msg(at != NULL, "list_commands lacks %s", want + 1);
		ck_assert_msg(strstr(at + 1, want) == NULL, "%s listed twice", want + 1);
	}
	for (int i = 0; i < OPT_COUNT; i++) {
		const char *name = options_def((OptionId)i)->name;
		char cmd[160];
		fflush(out);
		size_t mark = len;
		snprintf(cmd, sizeof cmd, "2 known_command emilia-%s", name);
		ck_assert(gtp_execute_line(g, cmd));
		snprintf(cmd, sizeof cmd, "3 emilia-%s", name);
		ck_assert(gtp_execute_line(g, cmd));
		fflush(out);
		char want[700];
		snprintf(want, sizeof want, "=2 true\n\n=3%s%s\n\n", options_def((OptionId)i)->def[0] ? " " : "",
		         options_def((OptionId)i)->def);
		if (i == OPT_USEBOOK)
			snprintf(want, sizeof want, "=2 true\n\n=3 false\n\n");
		ck_assert_str_eq(buf + mark, want);
	}
	gtp_free(g);
	fclose(out);
	free(buf);
}
END_TEST

/* time_settings/time_left reach the search: at level hard (a 60-ply
 * search when untimed would take hours) a 1-second byo-yomi move comes
 * back in time, and so does a nearly empty main-time clock.  The bound
 * is loose on purpose (sanitizer builds, a loaded machine): it fails
 * only if the clock is ignored. */
START_TEST(clock_is_honoured)
{
	Options o;
	options_init(&o);
	char err[OPTIONS_ERR];
	ck_assert(options_set(&o, OPT_USEBOOK, "false", err));
	ck_assert(options_set(&o, OPT_LEVEL, "hard", err));
	FILE *out = fopen("/dev/null", "w");
	Gtp *g = gtp_new(out, &o, err);
	ck_assert_ptr_nonnull(g);
	ck_assert(gtp_execute_line(g, "emilia-transcript f5d6c3d3c4f4f6f3e6e7"));
	ck_assert(gtp_execute_line(g, "time_settings 0 1 1"));
	ck_assert(gtp_execute_line(g, "time_left black 1 1"));
	double t0 = util_now();
	ck_assert(gtp_execute_line(g, "genmove black"));
	double t1 = util_now();
	ck_assert_msg(t1 - t0 < 3.0, "1 s per move took %.2f s", t1 - t0);
	ck_assert(gtp_execute_line(g, "time_settings 300 0 0"));
	ck_assert(gtp_execute_line(g, "time_left white 0.5 0"));
	ck_assert(gtp_execute_line(g, "genmove white"));
	ck_assert_msg(util_now() - t1 < 3.0, "0.5 s left took %.2f s", util_now() - t1);
	gtp_free(g);
	fclose(out);
}
END_TEST

/* final_score before the end: the engine's estimate of the final score
 * (GTP), not the discs on the board; where the level solves the position
 * it is the exact result, the same as emilia-solve's. */
START_TEST(final_score_midgame)
{
	const char *moves = "f5f6e6f4e3d3f3c5c4b4c3e7b3e2g4g5f2d2e1c2b6d6c6b5d1c1h6c7a4a3a6g3a5f1a2h3h4g6h2b2h7"
	                    "g2h5g7e8d7a1";
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
	         "printf 'emilia-transcript %s\\nfinal_score\\nemilia-solve\\nquit\\n' | \"${EMILIA_BIN:-./emilia}\" "
	         "--no-book --threads 1 --hash 16 --level 10", moves);
	int st;
	char *out = test_run_shell(cmd, &st);
	ck_assert_int_eq(st, 0);
	/* White to move with 13 empties: the discs stand 35-16 for Black */
	char sq[8];
	int solved = 0;
	const char *fs = strstr(out, "\n= B+");
	ck_assert_msg(fs != NULL, "%s", out);
	int margin = atoi(fs + 5);
	const char *sv = strstr(fs + 1, "\n= ");
	ck_assert(sv != NULL && sscanf(sv + 3, "%7s %d", sq, &solved) == 2);
	ck_assert_int_eq(margin, -solved);
	ck_assert_int_eq(margin, 50);
	free(out);
}
END_TEST

/* emilia-solve goes through the engine and its clock: with 2 s on the
 * clock, a 36-empty solve (hours) stops within the move's budget and says
 * so; without a clock a 14-empty solve answers the exact score. */
START_TEST(solve_stops_on_the_clock)
{
	const char *moves = "f5f6e6f4e3d3f3c5c4b4c3e7b3e2g4g5f2d2e1c2b6d6c6b5";
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
	         "printf 'time_settings 2 0 0\nemilia-transcript %s\nemilia-solve\nquit\n' | "
	         "\"${EMILIA_BIN:-./emilia}\" --no-book --threads 2 --hash 16", moves);
	int st;
	double t0 = util_now();
	char *out = test_run_shell(cmd, &st);
	double el = util_now() - t0;
	ck_assert_int_eq(st, 0);
	ck_assert_msg(strstr(out, "? solve stopped by the clock before the end: no result") != NULL, "%s", out);
	ck_assert_msg(el < 2.5, "took %.2f s with 2 s on the clock", el);
	free(out);
	/* 14 empties, no clock: FFO-style exact answer, through the same path */
	out = test_run_shell("printf 'emilia-transcript f5f6e6f4e3d3f3c5c4b4c3e7b3e2g4g5f2d2e1c2b6d6c6b5d1c1h6c7a4a3"
	                     "a6g3a5f1a2h3h4g6h2b2h7g2h5g7\nemilia-solve\nemilia-wld\nquit\n' | "
	                     "\"${EMILIA_BIN:-./emilia}\" --no-book --threads 2 --hash 16", &st);
	ck_assert_int_eq(st, 0);
	char sq[8];
	int score = 99;
	const char *sv = strstr(out, "= ");
	ck_assert_msg(sv && sscanf(sv + 2, "%7s %d", sq, &score) == 2, "%s", out);
	const char *wv = strstr(sv + 2, "= ");
	ck_assert_msg(wv != NULL, "%s", out);
	ck_assert_msg(strstr(wv, score > 0 ? "win" : score < 0 ? "loss" : "draw") != NULL, "%s", out);
	free(out);
	/* the same score as `emilia solve`, which calls the solver directly */
	out = test_run_shell("\"${EMILIA_BIN:-./emilia}\" solve f5f6e6f4e3d3f3c5c4b4c3e7b3e2g4g5f2d2e1c2b6d6c6b5d1c1h6c7a4a3"
	                     "a6g3a5f1a2h3h4g6h2b2h7g2h5g7 --quiet --json", &st);
	const char *js = strstr(out, "\"score\":");
	ck_assert_msg(js != NULL, "%s", out);
	ck_assert_int_eq(atoi(js + 8), score);
	free(out);
}
END_TEST

static Suite *gtp_suite(void)
{
	Suite *s = suite_create("gtp");
	TCase *tc = tcase_create("sessions");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, quarry_session);
	tcase_add_test(tc, final_score_midgame);
	tcase_add_test(tc, passes_session);
	tcase_add_test(tc, errors_session);
	tcase_add_test(tc, extensions_session);
	tcase_add_test(tc, framing_in_process);
	tcase_add_test(tc, option_commands_from_registry);
	tcase_add_test(tc, clock_is_honoured);
	tcase_add_test(tc, solve_stops_on_the_clock);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(gtp_suite)
