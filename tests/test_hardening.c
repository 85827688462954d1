/*
 * test_hardening.c - protocol edge cases found by attacking the engine as
 * a hostile client would: GTP ids and board sizes, loadsgf of FIFOs and of
 * files with control bytes (the reply checked byte by byte), NBoard's move
 * fields and `set depth 0`, UGI `go` limits that mean nothing.  Each case
 * checks the exact reply and that the session goes on unchanged.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gtp.h"
#include "testutil.h"

/* ---- GTP in process ---------------------------------------------------------- */

static Gtp *gtp_open(FILE **out, char **buf, size_t *len)
{
	Options o;
	options_init(&o);
	char err[OPTIONS_ERR];
	ck_assert(options_set(&o, OPT_USEBOOK, "false", err));
	ck_assert(options_set(&o, OPT_LEVEL, "1", err));
	*out = open_memstream(buf, len);
	ck_assert_ptr_nonnull(*out);
	Gtp *g = gtp_new(*out, &o, err);
	ck_assert_ptr_nonnull(g);
	return g;
}

/* Run the lines through a fresh session; the whole output. */
static __attribute__((noinline)) char *gtp_lines(const char *const *lines, int n)
{
	FILE *out;
	char *buf = NULL;
	size_t len = 0;
	Gtp *g = gtp_open(&out, &buf, &len);
	for (int i = 0; i < n; i++)
		gtp_execute_line(g, lines[i]);
	fflush(out);
	gtp_free(g);
	fclose(out);
	return buf;
}

START_TEST(gtp_ids_echoed_exactly)
{
	static const char *const lines[] = {
		"12345678901 name",
		"00042 protocol_version",
		"99999999999999999999999999999999 protocol_version",   /* 32 digits */
		"999999999999999999999999999999999 protocol_version",  /* 33 digits */
		"5 name",
	};
	char *out = gtp_lines(lines, 5);
	ck_assert_str_eq(out, "=12345678901 Emilia\n\n"
	                      "=00042 2\n\n"
	                      "=99999999999999999999999999999999 2\n\n"
	                      "? id too long (more than 32 digits)\n\n"
	                      "=5 Emilia\n\n");
	free(out);
}
END_TEST

START_TEST(gtp_boardsize_replies)
{
	static const char *const lines[] = {
		"1 boardsize 99", "2 boardsize 0", "3 boardsize -1",
		"4 boardsize 123456789012345678901234567890", "5 boardsize x", "6 boardsize 6x",
		"7 boardsize", "8 emilia-legal", "9 boardsize 6", "10 emilia-legal",
	};
	char *out = gtp_lines(lines, 10);
	ck_assert_str_eq(out, "?1 unacceptable size\n\n"
	                      "?2 unacceptable size\n\n"
	                      "?3 unacceptable size\n\n"
	                      "?4 unacceptable size\n\n"
	                      "?5 boardsize not an integer\n\n"
	                      "?6 boardsize not an integer\n\n"
	                      "?7 boardsize not an integer\n\n"
	                      "=8 D3 C4 F5 E6\n\n"   /* still 8x8 */
	                      "=9\n\n"
	                      "=10 C2 B3 E4 D5\n\n");
	free(out);
}
END_TEST


/* Every byte the file holds in a bad value comes back escaped: no CR, no
 * empty line that would end the reply early, nothing above 0x7e. */
START_TEST(gtp_loadsgf_control_bytes_escaped)
{
	char path[64];
	snprintf(path, sizeof path, "/tmp/emilia-ctl-%d.sgf", (int)getpid());
	static const char sgf[] = "(;GM[2]FF[4]SZ[8];B[f5];W[d\r\n\r\nx\x1a\x7f\xe9\\\\]\x01)";
	test_write_file(path, sgf, sizeof sgf - 1);
	char l1[128], l3[128];
	snprintf(l1, sizeof l1, "1 loadsgf %s", path);
	snprintf(l3, sizeof l3, "3 loadsgf %s 2", path);
	const char *lines[] = { "0 play b f5", l1, "2 showboard", l3, "4 emilia-legal" };
	char *out = gtp_lines(lines, 5);
	unlink(path);
	const char *want1 = "?1 cannot load file: bad move 'd\\x0d\\x0a\\x0d\\x0ax\\x1a\\x7f\\xe9\\\\' at move 2\n\n";
	char *p = strstr(out, "?1 ");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(strncmp(p, want1, strlen(want1)), 0);
	/* the same file up to its good move loads: f5 played, white to move */
	ck_assert_ptr_nonnull(strstr(out, "=3 white\n\n=4 F4 D6 F6\n\n"));
	for (const unsigned char *c = (const unsigned char *)out; *c; c++)
		ck_assert_msg(*c == '\n' || (*c >= 32 && *c < 127), "raw byte 0x%02x in a reply", *c);
	free(out);
}
END_TEST

START_TEST(gtp_loadsgf_state_unchanged)
{
	char path[64];
	snprintf(path, sizeof path, "/tmp/emilia-bad-%d.sgf", (int)getpid());
	static const char sgf[] = "(;SZ[8];B[f5];W[zz])";
	test_write_file(path, sgf, sizeof sgf - 1);
	char l1[128];
	snprintf(l1, sizeof l1, "1 loadsgf %s", path);
	const char *lines[] = { "0 play b f5", l1, "2 emilia-legal" };
	char *out = gtp_lines(lines, 3);
	unlink(path);
	ck_assert_str_eq(out, "=0\n\n?1 cannot load file: bad move 'zz' at move 2\n\n=2 F4 D6 F6\n\n");
	free(out);
}
END_TEST

/* ---- the binary, under a timeout (a FIFO must never block it) -------------- */

/* Run "timeout 20 emilia ARGS < input" and return stdout+stderr; *status
 * gets the exit status (124: it hung). */
static char *run_with_input(const char *args, const char *input, int *status)
{
	char in[64];
	snprintf(in, sizeof in, "/tmp/emilia-in-%d.txt", (int)getpid());
	test_write_file(in, input, strlen(input));
	const char *bin = getenv("EMILIA_BIN");
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "timeout 20 %s %s < %s 2>&1", bin ? bin : "./emilia", args, in);
	char *out = test_run_shell(cmd, status);
	unlink(in);
	return out;
}

START_TEST(gtp_loadsgf_fifo_refused)
{
	char fifo[64];
	snprintf(fifo, sizeof fifo, "/tmp/emilia-fifo-%d", (int)getpid());
	unlink(fifo);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	char input[256];
	snprintf(input, sizeof input, "1 loadsgf %s\n2 loadsgf /tmp\n3 name\n", fifo);
	int st;
	char *out = run_with_input("--no-book --level 1", input, &st);
	unlink(fifo);
	ck_assert_int_eq(st, 0);
	ck_assert_str_eq(out, "?1 cannot load file: not a regular file\n\n"
	                      "?2 cannot load file: not a regular file\n\n"
	                      "=3 Emilia\n\n");
	free(out);
}
END_TEST

/* ---- NBoard -------------------------------------------------------------------- */

/* One rule for a move's fields in `move` and in a GGF string. */
START_TEST(nboard_move_fields_one_rule)
{
	int st;
	char *out = run_with_input("--nboard --no-book --threads 1",
	                           "nboard 2\n"
	                           "set game (;GM[Othello]PC[x]TI[5:00]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5/x/y];)\n"
	                           "move d6/x/y\n"
	                           "move d6/0.5/y\n"
	                           "move zz\n"
	                           "move f5/1.5/0:03\n"
	                           "move d6\n"
	                           "ping 1\n",
	                           &st);
	ck_assert_int_eq(st, 0);
	ck_assert_str_eq(out, "set myname Emilia\n"
	                      "status error: set game: GGF: bad move eval 'x'\n"
	                      "status error: move: bad move eval 'x'\n"
	                      "status error: move: bad move time 'y'\n"
	                      "status error: move: bad move 'zz'\n"
	                      "pong 1\n");
	free(out);
}
END_TEST

START_TEST(nboard_set_depth_zero)
{
	int st;
	char *out = run_with_input("--nboard --no-book --threads 1",
	                           "nboard 2\nset depth 0\nset depth 61\nset depth -1\nping 2\n", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_str_eq(out, "set myname Emilia\n"
	                      "status error: set depth: expected 0..60\n"
	                      "status error: set depth: expected 0..60\n"
	                      "pong 2\n");
	free(out);
}
END_TEST

/* ---- UGI -------------------------------------------------------------------------- */

START_TEST(ugi_go_limits_that_mean_nothing)
{
	int st;
	char *out = run_with_input("--ugi --no-book --threads 1",
	                           "go movetime -5\ngo movetime 0\ngo depth -1\ngo depth 0\ngo nodes 0\n"
	                           "go winc -1 wtime 1000\ngo movestogo -2 btime 1000\nisready\n",
	                           &st);
	ck_assert_int_eq(st, 0);
	ck_assert_str_eq(out, "info string error: go: movetime must be at least 1, got -5\n"
	                      "info string error: go: movetime must be at least 1, got 0\n"
	                      "info string error: go: depth must be at least 1, got -1\n"
	                      "info string error: go: depth must be at least 1, got 0\n"
	                      "info string error: go: nodes must be at least 1, got 0\n"
	                      "info string error: go: winc must not be negative, got -1\n"
	                      "info string error: go: movestogo must not be negative, got -2\n"
	                      "readyok\n");
	free(out);
}
END_TEST

static Suite *hardening_suite(void)
{
	Suite *s = suite_create("hardening");
	TCase *tc = tcase_create("protocols");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, gtp_ids_echoed_exactly);
	tcase_add_test(tc, gtp_boardsize_replies);
	tcase_add_test(tc, gtp_loadsgf_control_bytes_escaped);
	tcase_add_test(tc, gtp_loadsgf_state_unchanged);
	tcase_add_test(tc, gtp_loadsgf_fifo_refused);
	tcase_add_test(tc, nboard_move_fields_one_rule);
	tcase_add_test(tc, nboard_set_depth_zero);
	tcase_add_test(tc, ugi_go_limits_that_mean_nothing);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(hardening_suite)
