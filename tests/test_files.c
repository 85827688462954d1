/*
 * test_files.c - the files the user hands to the engine (--book, --eval)
 * through the emilia binary: a FIFO is refused without blocking, a named
 * file that cannot be loaded ends the program with the reason on stderr
 * and exit status 1 in every protocol, a crafted book is refused, and a
 * book file rewritten in place under a running NBoard session does not
 * disturb it.  Every run is under a timeout, so a hang fails the test.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "book.h"
#include "testutil.h"
#include "text.h"




static const char *emilia_bin(void)
{
	const char *bin = getenv("EMILIA_BIN");
	return bin ? bin : "./emilia";
}


static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	size_t cap = 1 << 16, n = 0, got;
	char *b = malloc(cap);
	ck_assert_ptr_nonnull(b);
	while ((got = fread(b + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n + 1 == cap) {
			cap *= 2;
			b = realloc(b, cap);
			ck_assert_ptr_nonnull(b);
		}
	}
	fclose(f);
	b[n] = 0;
	if (len)
		*len = n;
	return b;
}

/* `timeout 20 emilia ARGS < input`, stdout and stderr apart (malloc'd);
 * returns the exit status (124: it hung). */
static int run(const char *args, const char *input, char **out, char **err)
{
	char in[300], o[300], e[300];
	snprintf(in, sizeof in, "%s/stdin.txt", test_tmpdir());
	snprintf(o, sizeof o, "%s/stdout.txt", test_tmpdir());
	snprintf(e, sizeof e, "%s/stderr.txt", test_tmpdir());
	test_write_file(in, input, strlen(input));
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "timeout 20 '%s' %s < '%s' > '%s' 2> '%s'", emilia_bin(), args, in, o,
	         e);
	int st = system(cmd);
	ck_assert(WIFEXITED(st));
	*out = read_all(o, NULL);
	*err = read_all(e, NULL);
	return WEXITSTATUS(st);
}

/* The command lines of the four front ends, with `extra` options. */
static const char *const modes[] = { "", "--nboard", "--ugi", "play --color none --level 1" };
static const char *const inputs[] = { "quit\n", "nboard 2\nquit\n", "ugi\nquit\n", "quit\n" };
#define NMODES (sizeof modes / sizeof modes[0])

/* In every front end: exit status 1, nothing on stdout, and exactly
 * `want` on stderr. */
static void expect_fatal(const char *opts, const char *want)
{
	for (size_t m = 0; m < NMODES; m++) {
		char args[2048], *out, *err;
		snprintf(args, sizeof args, "%s --threads 1 --hash 16 %s", opts, modes[m]);
		int st = run(args, inputs[m], &out, &err);
		ck_assert_msg(st == 1, "emilia %s: exit status %d (stderr '%s')", args, st, err);
		ck_assert_msg(!strcmp(err, want), "emilia %s: stderr '%s', expected '%s'", args, err, want);
		ck_assert_msg(!out[0], "emilia %s: stdout '%s'", args, out);
		free(out);
		free(err);
	}
}

/* ---- FIFOs ------------------------------------------------------------------- */

/* `--book FIFO` and `--eval FIFO` are refused at once: opening a FIFO
 * for reading would block until a writer comes. */
START_TEST(test_fifo_paths_refused)
{
	const char *fifo = test_tmp_path("fifo");
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	char opts[1024], want[1024];
	snprintf(opts, sizeof opts, "--book '%s'", fifo);
	snprintf(want, sizeof want, "emilia: book: %s: not a regular file\n", fifo);
	expect_fatal(opts, want);
	snprintf(opts, sizeof opts, "--eval '%s'", fifo);
	snprintf(want, sizeof want, "emilia: eval: %s: not a regular file\n", fifo);
	expect_fatal(opts, want);
	/* a directory and a device the same way */
	snprintf(opts, sizeof opts, "--book '%s'", test_tmpdir());
	snprintf(want, sizeof want, "emilia: book: %s: not a regular file\n", test_tmpdir());
	expect_fatal(opts, want);
	expect_fatal("--eval /dev/zero", "emilia: eval: /dev/zero: not a regular file\n");
}
END_TEST

/* ---- named files: fatal; missing or default: not ------------------------------ */

/* A book file whose last entry has a value out of range (score 127, as in
 * a crafted file that made NBoard `hint` answer "book D3 -127.00 ..."),
 * under valid checksums. */
static void write_crafted_book(const char *path, size_t *count)
{
	Book *b = book_new();
	char err[BOOK_ERR];
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	ck_assert(text_apply_transcript(&g, "f5d6c3d3c4f4f6f3e6e7", err));
	ck_assert(book_learn(b, &g, err));
	ck_assert(book_save(b, path, NULL, NULL, err));
	*count = book_count(b);
	book_free(b);
	size_t len;
	unsigned char *d = (unsigned char *)read_all(path, &len);
	d[len - BOOK_ENTRY_SIZE + 20] = 127; /* the last entry's score */
	uint64_t h = book_checksum(d + BOOK_HEADER_SIZE, len - BOOK_HEADER_SIZE);
	memcpy(d + 32, &h, 8);
	h = book_checksum(d, 56);
	memcpy(d + 56, &h, 8);
	test_write_file(path, d, len);
	free(d);
}

START_TEST(test_named_files_fatal)
{
	char opts[1024], want[1024];
	/* a crafted book */
	const char *crafted = test_tmp_path("crafted.book");
	size_t n;
	write_crafted_book(crafted, &n);
	snprintf(opts, sizeof opts, "--book '%s'", crafted);
	snprintf(want, sizeof want,
	         "emilia: book: %s: corrupt: position %zu of %zu: score 127 out of range -64..64\n",
	         crafted, n, n);
	expect_fatal(opts, want);
	/* a file that is not a book, one that is not a weight file */
	const char *junk = test_tmp_path("junk");
	test_write_file(junk, "junk junk junk\n", 15);
	snprintf(opts, sizeof opts, "--book '%s'", junk);
	snprintf(want, sizeof want,
	         "emilia: book: %s: not an Emilia book (it does not start with EMILBOOK)\n", junk);
	expect_fatal(opts, want);
	snprintf(opts, sizeof opts, "--eval '%s'", junk);
	snprintf(want, sizeof want, "emilia: eval: %s: not an Emilia weight file (bad magic)\n", junk);
	expect_fatal(opts, want);
	/* a missing weight file; the option given with '=' */
	const char *missing = test_tmp_path("missing.bin");
	snprintf(opts, sizeof opts, "--eval='%s'", missing);
	snprintf(want, sizeof want, "emilia: eval: %s: No such file or directory\n", missing);
	expect_fatal(opts, want);
	/* named, even with the book switched off afterwards */
	snprintf(opts, sizeof opts, "--book '%s' --no-book", junk);
	snprintf(want, sizeof want,
	         "emilia: book: %s: not an Emilia book (it does not start with EMILBOOK)\n", junk);
	expect_fatal(opts, want);
}
END_TEST

/* What is not fatal: a --book file that does not exist yet (NBoard `learn`
 * creates it; GTP and UGI say so on stderr), and the default book and
 * weights (embedded: nothing to warn about). */
START_TEST(test_unnamed_and_new_files)
{
	char args[1024], want[1024], *out, *err;
	const char *newbook = test_tmp_path("new.book");
	snprintf(args, sizeof args, "--threads 1 --hash 16 --book '%s'", newbook);
	ck_assert_int_eq(run(args, "1 name\nquit\n", &out, &err), 0);
	ck_assert_str_eq(out, "=1 Emilia\n\n=\n\n");
	snprintf(want, sizeof want, "emilia: book: %s: No such file or directory (playing without it)\n",
	         newbook);
	ck_assert_str_eq(err, want);
	free(out);
	free(err);
	snprintf(args, sizeof args, "--ugi --threads 1 --hash 16 --book '%s'", newbook);
	ck_assert_int_eq(run(args, "isready\nquit\n", &out, &err), 0);
	ck_assert_str_eq(out, "readyok\n");
	ck_assert_str_eq(err, want);
	free(out);
	free(err);
	snprintf(args, sizeof args, "--nboard --threads 1 --hash 16 --book '%s'", newbook);
	ck_assert_int_eq(run(args, "nboard 2\nping 1\nquit\n", &out, &err), 0);
	ck_assert_str_eq(out, "set myname Emilia\npong 1\n");
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	/* defaults: the embedded book answers, nothing on stderr */
	ck_assert_int_eq(run("--nboard --threads 1 --hash 16",
	                     "nboard 2\nset game (;GM[Othello]BO[8 ---------------------------O*------*O"
	                     "--------------------------- *];)\nhint 1\nping 1\nquit\n",
	                     &out, &err),
	                 0);
	ck_assert_msg(strstr(out, "\nbook ") != NULL, "no book line: %s", out);
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
}
END_TEST

/* ---- a book rewritten in place under a running session -------------------------- */

typedef struct Child {
	pid_t pid;
	int in, out;           /* its stdin (we write), its stdout (we read) */
	char buf[1 << 16];
	size_t len;
} Child;

static void child_start(Child *c, const char *args)
{
	int to[2], from[2];
	ck_assert_int_eq(pipe(to), 0);
	ck_assert_int_eq(pipe(from), 0);
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "exec '%s' %s", emilia_bin(), args);
	c->pid = fork();
	ck_assert_int_ge(c->pid, 0);
	if (c->pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	c->in = to[1];
	c->out = from[0];
	c->len = 0;
}

static void child_send(Child *c, const char *s)
{
	size_t n = strlen(s);
	ck_assert_int_eq(write(c->in, s, n), (ssize_t)n);
}

/* The next line of output (without its newline) into line; fails the test
 * when none comes within 10 s or the child closed its output (it died). */
static void child_line(Child *c, char *line, size_t max)
{
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->len);
		if (nl) {
			size_t k = (size_t)(nl - c->buf);
			ck_assert_uint_lt(k, max);
			memcpy(line, c->buf, k);
			line[k] = 0;
			memmove(c->buf, nl + 1, c->len - k - 1);
			c->len -= k + 1;
			return;
		}
		struct pollfd p = { c->out, POLLIN, 0 };
		int r = poll(&p, 1, 10000);
		ck_assert_msg(r > 0, "no answer from the engine within 10 s");
		ck_assert_uint_lt(c->len, sizeof c->buf);
		ssize_t got = read(c->out, c->buf + c->len, sizeof c->buf - c->len);
		ck_assert_msg(got > 0, "the engine stopped answering (it died?)");
		c->len += (size_t)got;
	}
}

/* Send `hint 3` and `ping k`; the `book` lines of the answer, concatenated. */
static void hint_book_lines(Child *c, int k, char *acc, size_t max)
{
	char cmd[64], line[1024], pong[32];
	snprintf(cmd, sizeof cmd, "hint 3\nping %d\n", k);
	snprintf(pong, sizeof pong, "pong %d", k);
	child_send(c, cmd);
	acc[0] = 0;
	for (;;) {
		child_line(c, line, sizeof line);
		if (!strcmp(line, pong))
			return;
		if (!strncmp(line, "book ", 5)) {
			size_t n = strlen(acc);
			snprintf(acc + n, max - n, "%s\n", line);
		}
	}
}

/* `cp new.book cur.book` (truncate, then write) while `emilia --nboard
 * --book cur.book` runs killed the engine with SIGBUS at its next book
 * look-up: the book was a shared mapping of the file.  100 rewrites, each
 * followed by a look-up; the answers stay those of the book as it was
 * opened, and the session ends normally. */
START_TEST(test_book_rewritten_in_place)
{
	const char *cur = test_tmp_path("cur.book"), *other = test_tmp_path("other.book");
	size_t len, olen;
	char *book = read_all(test_data("../../book/emilia.book"), &len);
	ck_assert_uint_gt(len, 100000);
	test_write_file(cur, book, len);
	/* another valid book, different from the first */
	Book *b = book_new();
	char err[BOOK_ERR];
	Game g;
	game_init(&g, 8, VARIANT_NORMAL);
	ck_assert(text_apply_transcript(&g, "f5d6c3d3c4f4f6f3e6e7", err));
	ck_assert(book_learn(b, &g, err));
	ck_assert(book_save(b, other, NULL, NULL, err));
	book_free(b);
	char *obook = read_all(other, &olen);

	signal(SIGPIPE, SIG_IGN);
	Child *c = calloc(1, sizeof *c);
	ck_assert_ptr_nonnull(c);
	char args[1024];
	snprintf(args, sizeof args, "--nboard --threads 1 --hash 16 --book '%s'", cur);
	child_start(c, args);
	child_send(c, "nboard 2\nset depth 1\n"
	              "set game (;GM[Othello]BO[8 ---------------------------O*------*O"
	              "--------------------------- *]B[f5]W[d6];)\n");
	char line[1024];
	child_line(c, line, sizeof line);
	ck_assert_str_eq(line, "set myname Emilia");
	static char first[1 << 14], now[1 << 14];
	hint_book_lines(c, 0, first, sizeof first);
	ck_assert_msg(!strncmp(first, "book ", 5), "no book answer: '%s'", first);
	for (int i = 1; i <= 100; i++) {
		int fd = open(cur, O_WRONLY | O_TRUNC);
		ck_assert_int_ge(fd, 0);
		const char *data = i % 4 == 3 ? obook : book;
		size_t n = i % 4 == 0 ? 0 : i % 4 == 1 ? 100 : i % 4 == 2 ? len / 3 : olen;
		ck_assert_int_eq(write(fd, data, n), (ssize_t)n);
		ck_assert_int_eq(close(fd), 0);
		hint_book_lines(c, i, now, sizeof now);
		ck_assert_msg(!strcmp(now, first), "after rewrite %d: '%s', was '%s'", i, now, first);
	}
	child_send(c, "quit\n");
	close(c->in);
	int st;
	ck_assert_int_eq(waitpid(c->pid, &st, 0), c->pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "engine ended with status 0x%x", st);
	close(c->out);
	free(c);
	free(book);
	free(obook);
}
END_TEST

static Suite *files_suite(void)
{
	Suite *s = suite_create("files");
	TCase *tc = tcase_create("files");
	tcase_add_checked_fixture(tc, test_tmpdir_setup, test_tmpdir_teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_fifo_paths_refused);
	tcase_add_test(tc, test_named_files_fatal);
	tcase_add_test(tc, test_unnamed_and_new_files);
	tcase_add_test(tc, test_book_rewritten_in_place);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(files_suite)
