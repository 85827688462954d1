/*
 * test_fuzz_corpus.c - replays the inputs the protocol fuzzer found
 * interesting (tests/fuzz/corpus/{gtp,nboard,ugi,sgf,book,weights}/) and its seeds through
 * the same harness as the fuzz targets (tests/fuzz/harness.c, built here
 * with the normal compiler; under `make test-debug` with ASan+UBSan).  A
 * crash, a sanitizer report or a hang fails the suite.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "fuzz/harness.c"

typedef int (*FuzzFn)(const uint8_t *data, size_t size);

static int fuzz_gtp_input(const uint8_t *d, size_t n) { return fuzz_session(FUZZ_GTP, d, n); }
static int fuzz_nboard_input(const uint8_t *d, size_t n) { return fuzz_session(FUZZ_NBOARD, d, n); }
static int fuzz_ugi_input(const uint8_t *d, size_t n) { return fuzz_session(FUZZ_UGI, d, n); }

static int replay_dir(FuzzFn fn, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		FILE *f = fopen(path, "rb");
		if (!f)
			continue;
		uint8_t buf[65536];
		size_t len = fread(buf, 1, sizeof buf, f);
		fclose(f);
		fn(buf, len);
		n++;
	}
	closedir(d);
	return n;
}

static void replay(FuzzFn fn, const char *name)
{
	const char *data = getenv("EMILIA_TESTDATA");
	char dir[4096];
	int total = 0;
	static const char *const kinds[] = { "corpus", "seeds" };
	for (int k = 0; k < 2; k++) {
		snprintf(dir, sizeof dir, "%s/../fuzz/%s/%s", data ? data : "tests/data", kinds[k], name);
		int n = replay_dir(fn, dir);
		ck_assert_msg(n > 0, "no inputs in %s", dir);
		total += n;
	}
	ck_assert(total > 0);
}

START_TEST(replay_gtp)
{
	replay(fuzz_gtp_input, "gtp");
}
END_TEST

START_TEST(replay_nboard)
{
	replay(fuzz_nboard_input, "nboard");
}
END_TEST

START_TEST(replay_ugi)
{
	replay(fuzz_ugi_input, "ugi");
}
END_TEST

START_TEST(replay_sgf)
{
	replay(fuzz_sgf, "sgf");
}
END_TEST

START_TEST(replay_book)
{
	replay(fuzz_book, "book");
}
END_TEST

START_TEST(replay_weights)
{
	replay(fuzz_weights, "weights");
}
END_TEST

static Suite *fuzz_corpus_suite(void)
{
	Suite *s = suite_create("fuzz_corpus");
	TCase *tc = tcase_create("replay");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, replay_gtp);
	tcase_add_test(tc, replay_nboard);
	tcase_add_test(tc, replay_ugi);
	tcase_add_test(tc, replay_sgf);
	tcase_add_test(tc, replay_book);
	tcase_add_test(tc, replay_weights);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(fuzz_corpus_suite)
