#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "testutil.h"
#include "text.h"

uint64_t ref_flips(uint64_t p, uint64_t o, int sq)
{
	static const int dr[8] = { -1, -1, -1, 0, 0, 1, 1, 1 };
	static const int dc[8] = { -1, 0, 1, -1, 1, -1, 0, 1 };
	if ((p | o) & (1ULL << sq))
		return 0;
	uint64_t flips = 0;
	for (int d = 0; d < 8; d++) {
		uint64_t line = 0;
		int r = sq / 8 + dr[d], c = sq % 8 + dc[d];
		while (r >= 0 && r < 8 && c >= 0 && c < 8 && (o & (1ULL << (r * 8 + c)))) {
			line |= 1ULL << (r * 8 + c);
			r += dr[d];
			c += dc[d];
		}
		if (line && r >= 0 && r < 8 && c >= 0 && c < 8 && (p & (1ULL << (r * 8 + c))))
			flips |= line;
	}
	return flips;
}

uint64_t ref_moves(uint64_t p, uint64_t o)
{
	uint64_t m = 0;
	for (int sq = 0; sq < 64; sq++)
		if (ref_flips(p, o, sq))
			m |= 1ULL << sq;
	return m;
}

uint64_t test_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

const char *test_data(const char *name)
{
	static char buf[4096];
	const char *dir = getenv("EMILIA_TESTDATA");
	snprintf(buf, sizeof buf, "%s/%s", dir ? dir : "tests/data", name);
	return buf;
}

int test_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Same game: every field that has a meaning (history up to nply). */
void assert_same_game(const Game *a, const Game *b)
{
	ck_assert_int_eq(a->size, b->size);
	ck_assert_int_eq(a->variant, b->variant);
	ck_assert_uint_eq(a->board.p, b->board.p);
	ck_assert_uint_eq(a->board.o, b->board.o);
	ck_assert_int_eq(a->side, b->side);
	ck_assert_uint_eq(a->start.p, b->start.p);
	ck_assert_uint_eq(a->start.o, b->start.o);
	ck_assert_int_eq(a->start_side, b->start_side);
	ck_assert_int_eq(a->nply, b->nply);
	for (int i = 0; i < a->nply; i++) {
		ck_assert_uint_eq(a->hist[i].board.p, b->hist[i].board.p);
		ck_assert_uint_eq(a->hist[i].board.o, b->hist[i].board.o);
		ck_assert_int_eq(a->hist[i].side, b->hist[i].side);
		ck_assert_int_eq(a->hist[i].move, b->hist[i].move);
	}
}

char *test_run_shell(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	ck_assert(p != NULL);
	size_t cap = 1 << 20, len = 0, got;
	char *out = malloc(cap);
	ck_assert(out != NULL);
	while (len < cap - 1 && (got = fread(out + len, 1, cap - 1 - len, p)) > 0)
		len += got;
	out[len] = 0;
	int st = pclose(p);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return out;
}

char *test_run_emilia(const char *args, int *status)
{
	const char *bin = getenv("EMILIA_BIN");
	size_t need = strlen(args) + 64 + (bin ? strlen(bin) : 0);
	char *cmd = malloc(need);
	ck_assert(cmd != NULL);
	snprintf(cmd, need, "%s %s 2>&1", bin ? bin : "./emilia", args);
	char *out = test_run_shell(cmd, status);
	free(cmd);
	return out;
}

void test_write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

static char tmpdir[256];

void test_tmpdir_setup(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/emilia-test.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

void test_tmpdir_teardown(void)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

const char *test_tmpdir(void)
{
	return tmpdir;
}

const char *test_tmp_path(const char *name)
{
	static char buf[4][512];
	static int k;
	k = (k + 1) & 3;
	snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
	return buf[k];
}

void test_game_from(Game *g, const char *moves)
{
	char err[TEXT_ERR];
	game_init(g, 8, VARIANT_NORMAL);
	ck_assert_msg(text_apply_transcript(g, moves, err), "%s", err);
}

EngineLimits test_depth_limits(int depth)
{
	EngineLimits l;
	memset(&l, 0, sizeof l);
	l.time_left = -1;
	l.depth = depth;
	return l;
}

uint64_t test_status_bytes(const char *field)
{
	FILE *f = fopen("/proc/self/status", "r");
	ck_assert(f != NULL);
	char line[256];
	unsigned long long kb = 0;
	size_t n = strlen(field);
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, field, n) && line[n] == ':')
			sscanf(line + n + 1, "%llu", &kb);
	fclose(f);
	return (uint64_t)kb * 1024;
}
