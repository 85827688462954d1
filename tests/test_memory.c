/*
 * Memory of the hash tables: the --hash check
 * against the memory available, tables mapped lazily (nothing written at
 * start-up or by a new game), one budget for the midgame and endgame
 * tables, resizing that frees first and falls back to a smaller table,
 * and `emilia solve` on a too large hash and on finished games.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "testutil.h"
#include "endgame.h"
#include "engine.h"
#include "game.h"
#include "text.h"
#include "tt.h"
#include "util.h"

/* The protocol side of these fixes lives in files of another owner
 * (src/front/options.c: the refusal's text; src/front/gtp.c: emilia-solve of a
 * finished game and with the engine's share of the hash).  1 once those
 * changes are in. */
#ifndef MEMORY_PROTOCOL_PATCHES
#define MEMORY_PROTOCOL_PATCHES 1
#endif

/* Address-space limits (RLIMIT_AS, ulimit -v) cannot be used under the
 * sanitizers, which reserve terabytes of shadow memory. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MEMORY_SANITIZED 1
#else
#define MEMORY_SANITIZED 0
#endif

#define MIB ((uint64_t)1 << 20)

/* Pages of [p, p + bytes) in memory (mincore). */
static size_t resident_pages(const void *p, size_t bytes)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (bytes + page - 1) / page;
	unsigned char *v = malloc(n);
	ck_assert(v != NULL);
	ck_assert_int_eq(mincore((void *)p, bytes, v), 0);
	size_t r = 0;
	for (size_t i = 0; i < n; i++)
		r += v[i] & 1;
	free(v);
	return r;
}

/* Run a shell command line in which every "%s" is the emilia binary;
 * stdout and stderr together (malloc'd), exit status in *status. */
static char *run_sh(const char *fmt, int *status)
{
	const char *bin = getenv("EMILIA_BIN");
	if (!bin)
		bin = "./emilia";
	char cmd[4096], *o = cmd;
	for (const char *s = fmt; *s && o < cmd + sizeof cmd - 512;) {
		if (s[0] == '%' && s[1] == 's') {
			o += snprintf(o, 512, "%s", bin);
			s += 2;
		} else {
			*o++ = *s++;
		}
	}
	*o = 0;
	char full[4200];
	snprintf(full, sizeof full, "(%s) 2>&1", cmd);
	return test_run_shell(full, status);
}

/* The MiB in "... memory available (N MiB)" of a refusal; asserts the
 * text before it. */
static long refusal_avail(const char *msg, const char *prefix)
{
	size_t n = strlen(prefix);
	ck_assert_msg(!strncmp(msg, prefix, n), "got '%s', want '%s...'", msg, prefix);
	long avail = -1;
	ck_assert_msg(sscanf(msg + n, "%ld MiB)", &avail) == 1, "got '%s'", msg);
	/* the memory available when the check ran: about what we see now */
	const long now = (long)(util_mem_available() >> 20);
	ck_assert_msg(avail > now / 2 && avail < now * 2, "available %ld MiB, now %ld MiB", avail, now);
	return avail;
}

static const char *const MID1 = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8";
static const char *const MID2 = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6";
/* FFO #1, 14 empties: G8 +18 */
static const char *const FFO1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

/* ---- the check against the memory available ------------------------- */

START_TEST(test_hash_refused_text)
{
	char err[160] = "";
	ck_assert(util_hash_refused(30000, (uint64_t)24 << 30, err, sizeof err));
	ck_assert_str_eq(err, "30000 MiB of hash is more than the memory available (24576 MiB)");
	ck_assert(util_hash_refused(65536, (uint64_t)23780 * MIB + 12345, err, sizeof err));
	ck_assert_str_eq(err, "65536 MiB of hash is more than the memory available (23780 MiB)");
	strcpy(err, "untouched");
	ck_assert(!util_hash_refused(24576, (uint64_t)24 << 30, err, sizeof err)); /* all of it: accepted */
	ck_assert(!util_hash_refused(1, MIB, err, sizeof err));
	ck_assert(util_hash_refused(2, MIB, err, sizeof err));
	ck_assert(!util_hash_refused(65536, 0, err, sizeof err)); /* unknown: not refused */
	ck_assert(util_hash_refused(3, MIB, err, sizeof err));
	ck_assert_str_eq(err, "3 MiB of hash is more than the memory available (1 MiB)");
}
END_TEST

START_TEST(test_meminfo)
{
	char path[] = "/tmp/emilia-meminfo-XXXXXX";
	int fd = mkstemp(path);
	ck_assert(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("MemTotal:       24683548 kB\nMemFree:        24093580 kB\nMemAvailable:   24350840 kB\n"
	      "Buffers:           12504 kB\n", f);
	fclose(f);
	ck_assert_uint_eq(util_meminfo_available(path), (uint64_t)24350840 * 1024);
	/* an old kernel's meminfo has no MemAvailable */
	f = fopen(path, "w");
	fputs("MemTotal:       24683548 kB\nMemFree:        24093580 kB\n", f);
	fclose(f);
	ck_assert_uint_eq(util_meminfo_available(path), 0);
	unlink(path);
	ck_assert_uint_eq(util_meminfo_available(path), 0);
	/* the real one: between 0 and the physical memory */
	const uint64_t avail = util_mem_available();
	const uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	ck_assert_uint_gt(avail, 0);
	ck_assert_uint_le(avail, phys);
}
END_TEST

/* 64 GiB, the option's maximum, is refused where less is available (this
 * machine: 24 GiB); on a machine with more it is accepted, and costs no
 * memory until used. */
START_TEST(test_engine_refuses_above_available)
{
	Engine *e = engine_new();
	ck_assert(e != NULL);
	ck_assert(engine_set_hash_mb(e, 16));
	ck_assert_str_eq(engine_hash_error(e), "");
	const uint64_t avail = util_mem_available();
	Game g;
	test_game_from(&g, MID1);
	EngineLimits lim = test_depth_limits(6);
	if (avail < (uint64_t)65536 * MIB) {
		char want[128];
		ck_assert(!engine_set_hash_mb(e, 65536));
		long a = refusal_avail(engine_hash_error(e), "65536 MiB of hash is more than the memory available (");
		snprintf(want, sizeof want, "65536 MiB of hash is more than the memory available (%ld MiB)", a);
		ck_assert_str_eq(engine_hash_error(e), want);
		/* just above what is available: refused by the check, not by mmap */
		const long above = (long)(avail >> 20) + 512;
		if (above <= TT_MAX_MB) {
			ck_assert(!engine_set_hash_mb(e, (int)above));
			snprintf(want, sizeof want, "%ld MiB of hash is more than the memory available (", above);
			a = refusal_avail(engine_hash_error(e), want);
			snprintf(want, sizeof want, "%ld MiB of hash is more than the memory available (%ld MiB)",
			         above, a);
			ck_assert_str_eq(engine_hash_error(e), want);
		}
		/* the old budget is kept and the engine still plays */
		ck_assert_int_eq(engine_hash_mb(e), 16);
		ck_assert_uint_eq(engine_table_bytes(e), 16 * MIB);
	} else {
		const uint64_t rss = test_status_bytes("VmRSS");
		ck_assert(engine_set_hash_mb(e, 65536));
		ck_assert_int_eq(engine_hash_mb(e), 65536);
		ck_assert_uint_lt(test_status_bytes("VmRSS"), rss + 64 * MIB);
		ck_assert(engine_set_hash_mb(e, 16));
	}
	EngineInfo r = engine_search(e, &g, &lim, NULL, NULL);
	ck_assert(game_moves(&g) & bit_of(r.move));
	/* out of the option's range */
	ck_assert(!engine_set_hash_mb(e, 0));
	ck_assert_str_eq(engine_hash_error(e), "hash must be 1..65536 MiB, not 0");
	ck_assert_int_eq(engine_hash_mb(e), 16);
	engine_free(e);
}
END_TEST

/* ---- lazy tables ---------------------------------------------------- */

START_TEST(test_tt_init_writes_nothing)
{
	TT t;
	ck_assert(tt_init(&t, 256));
	ck_assert_uint_eq(t.bytes, 256 * MIB);
	ck_assert_uint_eq(resident_pages(t.entries, t.bytes), 0);
	ck_assert_uint_eq(t.epoch, 1);
	TTData d;
	ck_assert(!tt_probe(&t, 0x0000000810000000ULL, 0x0000001008000000ULL, &d));
	tt_store(&t, 0x0000000810000000ULL, 0x0000001008000000ULL, 5, 1, -10, 10, 2, 19);
	ck_assert(tt_probe(&t, 0x0000000810000000ULL, 0x0000001008000000ULL, &d));
	ck_assert_int_eq(d.lower, 2);
	ck_assert_int_eq(d.upper, 2);
	ck_assert_int_eq(d.move, 19);
	ck_assert_int_eq(d.depth, 5);
	/* one store touched one (huge) page, not the table */
	const size_t r = resident_pages(t.entries, t.bytes);
	ck_assert_uint_ge(r, 1);
	ck_assert_uint_le(r, 512);
	tt_free(&t);
	/* sizes in bytes: the largest power-of-two number of 32-byte entries,
	 * at least 64 KB */
	ck_assert(tt_init_bytes(&t, 512 * 1024));
	ck_assert_uint_eq(t.bytes, 512 * 1024);
	tt_free(&t);
	ck_assert(tt_init_bytes(&t, 700 * 1024));
	ck_assert_uint_eq(t.bytes, 512 * 1024);
	tt_free(&t);
	ck_assert(tt_init_bytes(&t, 100));
	ck_assert_uint_eq(t.bytes, 64 * 1024);
	tt_free(&t);
	ck_assert(!tt_init_bytes(&t, ((uint64_t)TT_MAX_MB + 1) * MIB));
}
END_TEST

START_TEST(test_tt_clear_by_epoch)
{
	TT t;
	ck_assert(tt_init(&t, 4));
	uint64_t s = 12345;
	uint64_t ps[200], os[200];
	for (int i = 0; i < 200; i++) {
		ps[i] = test_rand(&s);
		os[i] = test_rand(&s) & ~ps[i];
		tt_store(&t, ps[i], os[i], 3 + i % 5, 1, -64, 64, i % 60 - 30, i % 64);
	}
	TTData d;
	int found = 0;
	for (int i = 0; i < 200; i++)
		found += tt_probe(&t, ps[i], os[i], &d);
	ck_assert_int_ge(found, 190);
	const size_t resident = resident_pages(t.entries, t.bytes);
	tt_new_search(&t);
	tt_clear(&t);
	ck_assert_uint_eq(t.epoch, 2);
	ck_assert_uint_eq(t.date, 1);
	for (int i = 0; i < 200; i++)
		ck_assert(!tt_probe(&t, ps[i], os[i], &d));
	/* nothing was written or dropped: the clear is O(1) */
	ck_assert_uint_eq(resident_pages(t.entries, t.bytes), resident);
	/* a stale entry is a free slot: both ways of a bucket take new ones */
	tt_store(&t, ps[0], os[0], 7, 2, -64, 64, 12, 33);
	ck_assert(tt_probe(&t, ps[0], os[0], &d));
	ck_assert_int_eq(d.lower, 12);
	ck_assert_int_eq(d.depth, 7);
	ck_assert_int_eq(d.sel, 2);
	/* the epoch wraps after TT_EPOCH_MAX clears: the pages go back to
	 * the system and come back zero */
	t.epoch = TT_EPOCH_MAX;
	tt_store(&t, ps[1], os[1], 4, 1, -64, 64, 6, 20);
	ck_assert(tt_probe(&t, ps[1], os[1], &d));
	tt_clear(&t);
	ck_assert_uint_eq(t.epoch, 1);
	ck_assert_uint_eq(resident_pages(t.entries, t.bytes), 0);
	ck_assert(!tt_probe(&t, ps[1], os[1], &d));
	ck_assert(!tt_probe(&t, ps[0], os[0], &d));
	tt_store(&t, ps[1], os[1], 4, 1, -64, 64, 6, 20);
	ck_assert(tt_probe(&t, ps[1], os[1], &d));
	ck_assert_int_eq(d.move, 20);
	tt_free(&t);
}
END_TEST

/* A new game's clear gives exactly a fresh table: the same nodes. */
START_TEST(test_new_game_same_as_fresh)
{
	Game g1, g2;
	test_game_from(&g1, MID1);
	test_game_from(&g2, MID2);
	EngineLimits lim = test_depth_limits(9);
	Engine *a = engine_new(), *b = engine_new();
	ck_assert(a && b);
	ck_assert(engine_set_hash_mb(a, 2));
	ck_assert(engine_set_hash_mb(b, 2));
	engine_search(a, &g1, &lim, NULL, NULL);
	engine_new_game(a);
	EngineInfo ra = engine_search(a, &g2, &lim, NULL, NULL);
	EngineInfo rb = engine_search(b, &g2, &lim, NULL, NULL);
	ck_assert_uint_eq(ra.nodes, rb.nodes);
	ck_assert_int_eq(ra.move, rb.move);
	ck_assert_int_eq(ra.score, rb.score);
	/* and without the clear the table's content shows */
	engine_search(b, &g1, &lim, NULL, NULL);
	EngineInfo rc = engine_search(b, &g2, &lim, NULL, NULL);
	ck_assert_uint_ne(rc.nodes, rb.nodes);
	engine_free(a);
	engine_free(b);
}
END_TEST

/* Whether this kernel has MADV_POPULATE_WRITE (Linux 5.14). */
static bool have_populate(void)
{
	void *p = util_alloc_large(4096);
	ck_assert(p != NULL);
	const bool ok = madvise(p, 4096, 23 /* MADV_POPULATE_WRITE */) == 0;
	util_free_large(p, 4096);
	return ok;
}

/* The background pre-faulting: every page in, nothing changed. */
START_TEST(test_prefault_keeps_content)
{
	const size_t bytes = 32 * MIB;
	unsigned char *p = util_alloc_large(bytes);
	ck_assert(p != NULL);
	ck_assert_uint_eq(resident_pages(p, bytes), 0);
	p[5] = 17;
	p[bytes / 2 + 3] = 42;
	p[bytes - 1] = 99;
	UtilPrefault pf;
	memset(&pf, 0, sizeof pf);
	ck_assert(util_prefault_start(&pf, p, bytes));
	util_prefault_wait(&pf);
	if (have_populate())
		ck_assert_uint_eq(resident_pages(p, bytes), bytes / (size_t)sysconf(_SC_PAGESIZE));
	ck_assert_int_eq(p[5], 17);
	ck_assert_int_eq(p[bytes / 2 + 3], 42);
	ck_assert_int_eq(p[bytes - 1], 99);
	size_t nonzero = 0;
	for (size_t i = 0; i < bytes; i++)
		nonzero += p[i] != 0;
	ck_assert_uint_eq(nonzero, 3);
	util_prefault_stop(&pf);
	util_prefault_stop(&pf); /* twice: nothing */
	/* stopped at once, then restarted on the same block */
	ck_assert(util_prefault_start(&pf, p, bytes));
	util_prefault_stop(&pf);
	ck_assert(util_prefault_start(&pf, p, bytes));
	util_prefault_wait(&pf);
	util_prefault_stop(&pf);
	util_free_large(p, bytes);
}
END_TEST

/* While a search runs, the pre-faulting waits. */
START_TEST(test_prefault_waits_for_searches)
{
	if (!have_populate())
		return;
	const size_t bytes = 16 * MIB, pages = bytes / (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *p = util_alloc_large(bytes);
	ck_assert(p != NULL);
	UtilPrefault pf;
	memset(&pf, 0, sizeof pf);
	util_busy_enter();
	util_busy_enter(); /* nested: a solve inside a search */
	ck_assert(util_prefault_start(&pf, p, bytes));
	const struct timespec ms50 = { 0, 50000000 };
	nanosleep(&ms50, NULL);
	ck_assert_uint_eq(resident_pages(p, bytes), 0);
	ck_assert(!atomic_load(&pf.done));
	util_busy_leave();
	nanosleep(&ms50, NULL);
	ck_assert_uint_eq(resident_pages(p, bytes), 0);
	util_busy_leave();
	util_prefault_wait(&pf);
	ck_assert_uint_eq(resident_pages(p, bytes), pages);
	util_prefault_stop(&pf);
	/* stopped while waiting: returns, and nothing was faulted in */
	unsigned char *q = util_alloc_large(bytes);
	ck_assert(q != NULL);
	util_busy_enter();
	ck_assert(util_prefault_start(&pf, q, bytes));
	util_prefault_stop(&pf);
	util_busy_leave();
	ck_assert_uint_eq(resident_pages(q, bytes), 0);
	util_free_large(q, bytes);
	util_free_large(p, bytes);
}
END_TEST

/* The engine's tables: mapped at once, then faulted in behind its back,
 * up to the budget and no further. */
START_TEST(test_engine_tables_prefaulted)
{
	if (!have_populate())
		return;
	/* measured with the engine made: what it holds besides the table
	 * (its solver's tables, the weights, the allocator's arenas) varies
	 * by a few MiB from run to run and is not what is checked here */
	Engine *e = engine_new();
	ck_assert(e != NULL);
	const uint64_t rss0 = test_status_bytes("VmRSS");
	ck_assert(engine_set_hash_mb(e, 256));
	/* one table of 256 MiB */
	const struct timespec ms = { 0, 10000000 };
	uint64_t rss = 0;
	for (int i = 0; i < 3000 && (rss = test_status_bytes("VmRSS")) < rss0 + 250 * MIB; i++)
		nanosleep(&ms, NULL);
	ck_assert_uint_ge(rss, rss0 + 250 * MIB);
	nanosleep(&ms, NULL);
	ck_assert_uint_lt(test_status_bytes("VmRSS"), rss0 + (256 + 16) * MIB);
	/* a new game keeps the pages (and writes nothing) */
	engine_new_game(e);
	ck_assert_uint_ge(test_status_bytes("VmRSS"), rss0 + 250 * MIB);
	engine_free(e);
}
END_TEST

/* ---- one budget ------------------------------------------------------ */

START_TEST(test_hash_one_table)
{
	/* the engine's one table: the largest power of two in the budget */
	static const struct {
		int mb;
		uint64_t bytes;
	} cases[] = {
		{ 1, MIB }, { 2, 2 * MIB }, { 3, 2 * MIB }, { 64, 64 * MIB }, { 100, 64 * MIB }, { 1024, 1024 * MIB },
	};
	Engine *e = engine_new();
	ck_assert(e != NULL);
	ck_assert_int_eq(engine_hash_mb(e), TT_DEFAULT_MB);
	ck_assert_uint_eq(engine_table_bytes(e), TT_DEFAULT_MB * MIB);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ck_assert(engine_set_hash_mb(e, cases[i].mb));
		ck_assert_int_eq(engine_hash_mb(e), cases[i].mb);
		ck_assert_uint_eq(engine_table_bytes(e), cases[i].bytes);
	}
	/* the engine's solves use its table: an exact search is still right,
	 * and so is the next one, which finds the first one's entries */
	ck_assert(engine_set_hash_mb(e, 1));
	Game g;
	ObfPosition pos;
	char err[TEXT_ERR];
	ck_assert(text_parse_obf(FFO1, 8, &pos, err));
	game_init(&g, 8, VARIANT_NORMAL);
	game_set(&g, pos.board, pos.side);
	EngineLimits lim = test_depth_limits(60);
	uint64_t nodes[2];
	for (int i = 0; i < 2; i++) {
		EngineInfo r = engine_search(e, &g, &lim, NULL, NULL);
		ck_assert(r.exact);
		ck_assert_int_eq(r.score, 18);
		ck_assert_int_eq(r.move, text_parse_square("g8", 8));
		nodes[i] = r.nodes;
	}
	ck_assert_uint_lt(nodes[1], nodes[0] / 2);
	engine_free(e);
	/* the sizes of a solver's own table */
	ck_assert_uint_eq(endgame_table_size_for(0), 128 * MIB);
	ck_assert_uint_eq(endgame_table_size_for(MIB / 2), MIB / 2);
	ck_assert_uint_eq(endgame_table_size_for(100 * MIB), 64 * MIB);
	ck_assert_uint_eq(endgame_table_size_for(1000), 64 * 1024); /* the smallest */
}
END_TEST

/* ---- resizing: free first, fall back to a table ------------------------ */

#if !MEMORY_SANITIZED
static void set_as_limit(uint64_t bytes)
{
	struct rlimit rl;
	getrlimit(RLIMIT_AS, &rl);
	rl.rlim_cur = bytes;
	setrlimit(RLIMIT_AS, &rl);
}

/* In a child, under an address-space limit: 0 when all went as expected,
 * else the number of the check that failed. */
static int resize_child(void)
{
	Engine *e = engine_new();
	if (!e || !engine_set_hash_mb(e, 256) || engine_hash_mb(e) != 256)
		return 1;
	/* room for one table of 256 MiB (+2 MiB of alignment)
	 * and 200 MiB more: the same size again fits only when the old
	 * tables go before the new ones come */
	set_as_limit(test_status_bytes("VmSize") + 200 * MIB);
	if (!engine_set_hash_mb(e, 256) || engine_hash_mb(e) != 256)
		return 2;
	/* 1024 MiB cannot be mapped: back to the old size */
	set_as_limit(test_status_bytes("VmSize") + 100 * MIB);
	if (engine_set_hash_mb(e, 1024))
		return 3;
	if (engine_hash_mb(e) != 256 || engine_table_bytes(e) != 256 * MIB)
		return 4;
	if (strcmp(engine_hash_error(e), "cannot allocate 1024 MiB of hash"))
		return 5;
	/* not even the old size (256 MiB) fits, its half does */
	set_as_limit(test_status_bytes("VmSize") - 100 * MIB);
	if (engine_set_hash_mb(e, 1024))
		return 6;
	if (engine_hash_mb(e) != 128 || engine_table_bytes(e) != 128 * MIB)
		return 7;
	if (strcmp(engine_hash_error(e), "cannot allocate 1024 MiB of hash (using 128 MiB)"))
		return 8;
	set_as_limit(RLIM_INFINITY);
	/* and it still searches and solves */
	Game g;
	test_game_from(&g, MID1);
	EngineLimits lim = test_depth_limits(8);
	EngineInfo r = engine_search(e, &g, &lim, NULL, NULL);
	if (!(game_moves(&g) & bit_of(r.move)))
		return 9;
	engine_free(e);
	return 0;
}
#endif

START_TEST(test_resize_frees_first_and_falls_back)
{
#if MEMORY_SANITIZED
	/* (address-space limits do not work under the sanitizers) */
#else
	fflush(NULL);
	pid_t pid = fork();
	ck_assert(pid >= 0);
	if (pid == 0)
		_exit(resize_child());
	int st = 0;
	ck_assert(waitpid(pid, &st, 0) == pid);
	ck_assert_msg(WIFEXITED(st), "child died");
	ck_assert_msg(WEXITSTATUS(st) == 0, "check %d failed", WEXITSTATUS(st));
#endif
}
END_TEST

/* ---- emilia solve ---------------------------------------------------- */

START_TEST(test_solve_refuses_above_available)
{
	int st;
	/* a finished game: no table is touched even where 64 GiB is accepted */
	char *out = run_sh("%s solve --hash 65536 d3c3b3d2e1d6d7e3f4", &st);
	if (util_mem_available() < (uint64_t)65536 * MIB) {
		ck_assert_int_eq(st, 2);
		const long avail = refusal_avail(out, "solve: 65536 MiB of hash is more than the memory available (");
		char want[128];
		snprintf(want, sizeof want,
		         "solve: 65536 MiB of hash is more than the memory available (%ld MiB)\n", avail);
		ck_assert_str_eq(out, want);
	} else {
		ck_assert_int_eq(st, 0);
		ck_assert_ptr_nonnull(strstr(out, "\n   1      51    --       -64              1 "));
	}
	free(out);
	/* out of the range */
	out = run_sh("%s solve --hash 65537 d3c3b3d2e1d6d7e3f4", &st);
	ck_assert_int_eq(st, 2);
	ck_assert_str_eq(out, "solve: hash must be 1..65536 MB, not '65537'\n");
	free(out);
}
END_TEST

/* A table smaller than asked is said on stderr, never silently. */
START_TEST(test_solve_says_smaller_table)
{
#if MEMORY_SANITIZED
	/* (ulimit -v does not work under the sanitizers) */
#else
	int st;
	/* 195 MiB of address space: 4096 MiB cannot be mapped, 128 MiB (plus
	 * 2 MiB of alignment and the program, about 10 MiB) can, 256 cannot */
	char buf[256];
	snprintf(buf, sizeof buf, "ulimit -v 200000; %%s solve --hash 4096 '%s'", FFO1);
	char *out = run_sh(buf, &st);
	ck_assert_int_eq(st, 0);
	const char *want = "solve: cannot allocate 4096 MiB of hash: solving with a table of 128 MiB\n";
	ck_assert_msg(!strncmp(out, want, strlen(want)), "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "\n   1      14    g8       +18 "));
	free(out);
#endif
	/* asked for what there is: nothing said */
	int st2;
	char buf2[256];
	snprintf(buf2, sizeof buf2, "%%s solve --hash 8 '%s'", FFO1);
	char *out2 = run_sh(buf2, &st2);
	ck_assert_int_eq(st2, 0);
	ck_assert_msg(!strncmp(out2, "   n empties  move     score", 28), "%s", out2);
	free(out2);
}
END_TEST

START_TEST(test_solve_finished_games)
{
	int st;
	/* a wipe-out after 9 moves, 51 empties, White to move without discs */
	char *out = run_sh("%s solve d3c3b3d2e1d6d7e3f4 --json", &st);
	ck_assert_int_eq(st, 0);
	const char *want = "{\"n\":1,\"board\":\"----X------X-----XXXX------XXX-----XX------X-------X------------ O\","
	                   "\"empties\":51,\"move\":\"--\",\"score\":-64,\"nodes\":1,\"seconds\":";
	ck_assert_msg(!strncmp(out, want, strlen(want)), "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "\n{\"totals\":true,\"positions\":1,\"wrong\":0,\"malformed\":0,\"aborted\":0,"
	                                  "\"nodes\":1,"));
	free(out);
	out = run_sh("%s solve d3c3b3d2e1d6d7e3f4", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(out, "\n   1      51    --       -64              1 "));
	ck_assert_ptr_nonnull(strstr(out, "  -\ntotals: positions 1, wrong 0, malformed 0, nodes 1, "));
	free(out);
	/* a full board: 63 to 1 for Black, to move */
	out = run_sh("%s solve 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO X' --wld", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(out, "\n   1       0    --        +1              1 "));
	free(out);
	out = run_sh("%s solve 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO X'", &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(out, "\n   1       0    --       +62              1 "));
	free(out);
}
END_TEST

#if MEMORY_PROTOCOL_PATCHES
/* The protocols: GTP emilia-solve on finished games, the refusal's text. */
START_TEST(test_protocol_finished_and_refusal)
{
	int st;
	char *out = run_sh("printf 'emilia-transcript d3c3b3d2e1d6d7e3f4\\nemilia-solve\\nemilia-wld\\n"
	                   "emilia-setboard XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO X\\n"
	                   "emilia-solve\\nquit\\n' | %s",
	                   &st);
	ck_assert_int_eq(st, 0);
	ck_assert_str_eq(out, "=\n\n= PASS -64\n\n= PASS loss\n\n=\n\n= PASS +62\n\n=\n\n");
	free(out);
	if (util_mem_available() < (uint64_t)65536 * MIB) {
		char want[160];
		out = run_sh("%s --hash 65536 </dev/null", &st);
		ck_assert_int_eq(st, 1);
		long a = refusal_avail(out, "emilia: 65536 MiB of hash is more than the memory available (");
		snprintf(want, sizeof want, "emilia: 65536 MiB of hash is more than the memory available (%ld MiB)\n", a);
		ck_assert_str_eq(out, want);
		free(out);
		out = run_sh("printf 'emilia-option hash 65536\\nemilia-option hash\\nquit\\n' | %s", &st);
		ck_assert_int_eq(st, 0);
		a = refusal_avail(out, "? hash: 65536 MiB of hash is more than the memory available (");
		snprintf(want, sizeof want,
		         "? hash: 65536 MiB of hash is more than the memory available (%ld MiB)\n\n= 64\n\n=\n\n", a);
		ck_assert_str_eq(out, want);
		free(out);
	}
}
END_TEST
#endif

static Suite *memory_suite(void)
{
	Suite *s = suite_create("memory");
#define MEM_ADD(t) do { TCase *tc = tcase_create(#t); tcase_add_test(tc, t); suite_add_tcase(s, tc); } while (0)
	MEM_ADD(test_hash_refused_text);
	MEM_ADD(test_meminfo);
	MEM_ADD(test_engine_refuses_above_available);
	MEM_ADD(test_tt_init_writes_nothing);
	MEM_ADD(test_tt_clear_by_epoch);
	MEM_ADD(test_new_game_same_as_fresh);
	MEM_ADD(test_prefault_keeps_content);
	MEM_ADD(test_prefault_waits_for_searches);
	MEM_ADD(test_engine_tables_prefaulted);
	MEM_ADD(test_hash_one_table);
	MEM_ADD(test_resize_frees_first_and_falls_back);
	MEM_ADD(test_solve_refuses_above_available);
	MEM_ADD(test_solve_says_smaller_table);
	MEM_ADD(test_solve_finished_games);
#if MEMORY_PROTOCOL_PATCHES
	MEM_ADD(test_protocol_finished_and_refusal);
#endif
	return s;
}

TEST_MAIN(memory_suite)
